// tensor-generalize-named-ops rewrites tensor.map, tensor.reduce and
// tensor.contract as tensor.generic (a reduce's init and a contraction's
// zero become splat constants, the outs); tensor-specialize-generic-ops
// gives those forms their names back, so the round trip (with dce for the
// constants) is the identity. Forms without a name stay generic; an f16
// contraction (accumulated in f32) and a map with gathered inputs stay
// named.
// REQUIRES: strata-opt
// RUN: strata-opt %s --tensor-generalize-named-ops | FileCheck %s
// RUN: strata-opt %s --tensor-generalize-named-ops --tensor-specialize-generic-ops --dce | FileCheck %s --check-prefix=BACK
// RUN: strata-opt %s --tensor-generalize-named-ops --tensor-specialize-generic-ops --dce | strata-opt | FileCheck %s --check-prefix=BACK
// RUN: strata-opt %s --pass-pipeline='builtin.module(tensor-generalize-named-ops,tensor-specialize-generic-ops)' --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS

// CHECK-LABEL: func.func @named(
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<4x3xf32>
// CHECK: %[[MM:.*]] = tensor.generic ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x3xf32>) outs(%[[ZERO]] : tensor<4x3xf32>) maps [#{{.*}}, #{{.*}}, #{{.*}}] iterators ["parallel", "parallel", "reduction"] {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: tensor.yield %[[S]] : f32
// CHECK: %[[B:.*]] = tensor.generic ins(%[[MM]], %arg2 : tensor<4x3xf32>, tensor<3xf32>) maps [#{{.*}}, #{{.*}}, #{{.*}}] iterators ["parallel", "parallel"] {
// CHECK: arith.addf
// CHECK: %[[NEGINF:.*]] = arith.constant dense<0xFF800000> : tensor<4xf32>
// CHECK: tensor.generic ins(%[[B]] : tensor<4x3xf32>) outs(%[[NEGINF]] : tensor<4xf32>) maps [#{{.*}}, #{{.*}}] iterators ["parallel", "reduction"] {
// CHECK: arith.maximumf

// BACK-LABEL: func.func @named(
// BACK-NOT: tensor.generic
// BACK-NOT: arith.constant
// BACK: tensor.contract ins(%arg0, %arg1
// BACK: tensor.map ins(
// BACK: tensor.reduce ins(%{{.*}} : tensor<4x3xf32>) dims [1] init(0xFF800000 : f32)
func.func @named(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %bias: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<4xf32>) {
  %0 = tensor.contract ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x3xf32>
  %1 = tensor.map ins(%0, %bias : tensor<4x3xf32>, tensor<3xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tensor.yield %s : f32
  } : tensor<4x3xf32>
  %2 = tensor.reduce ins(%1 : tensor<4x3xf32>) dims [1] init(0xFF800000 : f32) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    tensor.yield %m : f32
  } : tensor<4xf32>
  return %1, %2 : tensor<4x3xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @stay_named(
// CHECK: tensor.contract ins(%arg0, %arg1 : tensor<2x4xf16>, tensor<4x2xf16>)
// CHECK: tensor.map ins(%arg2, %arg3 : tensor<5xf32>, tensor<2xi64>) maps [#{{.*}}, #{{.*}}] gathered [0]
func.func @stay_named(%a: tensor<2x4xf16>, %b: tensor<4x2xf16>, %t: tensor<5xf32>, %i: tensor<2xi64>) -> (tensor<2x2xf16>, tensor<2xf32>) {
  %0 = tensor.contract ins(%a, %b : tensor<2x4xf16>, tensor<4x2xf16>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<2x2xf16>
  %1 = tensor.map ins(%t, %i : tensor<5xf32>, tensor<2xi64>) maps [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>] gathered [0] {
  ^bb0(%tt: tensor<5xf32>, %j: i64):
    %k = arith.index_cast %j : i64 to index
    %v = tensor.extract %tt[%k] : tensor<5xf32>
    tensor.yield %v : f32
  } : tensor<2xf32>
  return %0, %1 : tensor<2x2xf16>, tensor<2xf32>
}

// A product of differences has no name: it stays generic.
// BACK-LABEL: func.func @no_name(
// BACK: tensor.generic
func.func @no_name(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = tensor.generic ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) outs(%c : tensor<4x3xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] iterators ["parallel", "parallel", "reduction"] {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.subf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  } : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// STATS: TensorGeneralizeNamedOps
// STATS: 3 num-generalized
// STATS: TensorSpecializeGenericOps
// STATS: 3 num-specialized
