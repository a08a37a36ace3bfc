// tensor.generic: round trip (pretty form, a second pass, the generic form
// read back) and one verifier error per message.
// REQUIRES: strata-opt
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: strata-opt %S/Inputs/generic-invalid.mlir --split-input-file --verify-diagnostics

// CHECK-LABEL: func.func @matmul(
// CHECK: tensor.generic ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x3xf32>) outs(%arg2 : tensor<4x3xf32>) maps [#{{.*}}, #{{.*}}, #{{.*}}] iterators ["parallel", "parallel", "reduction"] {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK: arith.addf %[[ACC]]
// CHECK: } : tensor<4x3xf32>
// GENERIC: "tensor.generic"(%{{.*}}, %{{.*}}, %{{.*}}) <{indexing_maps = [{{.*}}], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}>
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = tensor.generic ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) outs(%c : tensor<4x3xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] iterators ["parallel", "parallel", "reduction"] {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  } : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}



// Without outs: all parallel, the body takes the inputs only; tensor.index
// reads the point.
// CHECK-LABEL: func.func @transpose_plus_row(
// CHECK: tensor.generic ins(%arg0 : tensor<4x8xf32>) maps [#{{.*}}, #{{.*}}] iterators ["parallel", "parallel"] {
// CHECK: tensor.index 0 : index
// CHECK: } : tensor<8x4xf32>
func.func @transpose_plus_row(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = tensor.generic ins(%a : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>] iterators ["parallel", "parallel"] {
  ^bb0(%x: f32):
    %i = tensor.index 0 : index
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %s = arith.addf %x, %f : f32
    tensor.yield %s : f32
  } : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
