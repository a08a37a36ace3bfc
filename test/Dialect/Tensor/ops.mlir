// Round trip of the tensor dialect: pretty form, a second pass, and the
// generic form read back.
// REQUIRES: strata-opt
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// The printer gives affine maps aliases, as mlir-opt does.
// CHECK: #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1) -> (0, d1)>
// CHECK-NEXT: #map4 = affine_map<(d0, d1) -> (d0 * 2 + 1, d1)>
// CHECK-NEXT: #map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-NEXT: #map6 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-NEXT: #map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @map_broadcast(
// CHECK: %[[R:.*]] = tensor.map ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8xf32>) maps [#map, #map1] {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: tensor.yield %[[S]] : f32
// CHECK-NEXT: } : tensor<4x8xf32>
// GENERIC-LABEL: sym_name = "map_broadcast"
// GENERIC: "tensor.map"(%{{.*}}, %{{.*}}) <{indexing_maps = [#map, #map1]}> ({
func.func @map_broadcast(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = tensor.map ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tensor.yield %s : f32
  } : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Transpose, a size-1 broadcast dim and a strided slice; tensor.index.
// CHECK-LABEL: func.func @map_maps(
// CHECK: tensor.map ins(%arg0, %arg1, %arg2 : tensor<8x4xf32>, tensor<1x8xf32>, tensor<9x8xf32>) maps [#map2, #map3, #map4] attributes {tag = "t"} {
// CHECK: tensor.index 1 : index
// CHECK: } : tensor<4x8xf32>
func.func @map_maps(%a: tensor<8x4xf32>, %b: tensor<1x8xf32>, %c: tensor<9x8xf32>) -> tensor<4x8xf32> {
  %r = tensor.map ins(%a, %b, %c : tensor<8x4xf32>, tensor<1x8xf32>, tensor<9x8xf32>) maps [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0 * 2 + 1, d1)>] attributes {tag = "t"} {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %i = tensor.index 1 : index
    %s = arith.addf %x, %y : f32
    %t = arith.mulf %s, %z : f32
    tensor.yield %t : f32
  } : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// A map without inputs.
// CHECK-LABEL: func.func @map_iota(
// CHECK: tensor.map maps [] {
// CHECK-NEXT: %[[I:.*]] = tensor.index 0 : index
// CHECK: } : tensor<5xi64>
func.func @map_iota() -> tensor<5xi64> {
  %r = tensor.map maps [] {
    %i = tensor.index 0 : index
    %c = arith.index_cast %i : index to i64
    tensor.yield %c : i64
  } : tensor<5xi64>
  return %r : tensor<5xi64>
}

// CHECK-LABEL: func.func @reduce_max(
// CHECK: tensor.reduce ins(%arg0 : tensor<4x8xf32>) dims [1] init(0xFF800000 : f32) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[IN]], %[[ACC]] : f32
// CHECK-NEXT: tensor.yield %[[M]] : f32
// CHECK-NEXT: } : tensor<4xf32>
// GENERIC: "tensor.reduce"(%{{.*}}) <{dimensions = [1], init = 0xFF800000 : f32}> ({
func.func @reduce_max(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %m = tensor.reduce ins(%x : tensor<4x8xf32>) dims [1] init(0xFF800000 : f32) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    tensor.yield %r : f32
  } : tensor<4xf32>
  return %m : tensor<4xf32>
}

// CHECK-LABEL: func.func @reduce_all(
// CHECK: tensor.reduce ins(%arg0 : tensor<2x3xi32>) dims [0, 1] init(0 : i32) {
// CHECK: } : tensor<i32>
func.func @reduce_all(%x: tensor<2x3xi32>) -> tensor<i32> {
  %m = tensor.reduce ins(%x : tensor<2x3xi32>) dims [0, 1] init(0 : i32) {
  ^bb0(%in: i32, %acc: i32):
    %r = arith.addi %in, %acc : i32
    tensor.yield %r : i32
  } : tensor<i32>
  return %m : tensor<i32>
}

// CHECK-LABEL: func.func @contract(
// CHECK: tensor.contract ins(%arg0, %arg1 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) maps [#map5, #map6, #map7] : tensor<2x4x16xf32>
// GENERIC: "tensor.contract"(%{{.*}}, %{{.*}}) <{indexing_maps = [#map5, #map6, #map7]}> : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
func.func @contract(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<2x4x16xf32> {
  %c = tensor.contract ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) maps [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : tensor<2x4x16xf32>
  return %c : tensor<2x4x16xf32>
}

// CHECK-LABEL: func.func @reshape(
// CHECK: tensor.reshape %arg0 : tensor<2x3x4xf32> to tensor<6x4xf32>
// GENERIC: "tensor.reshape"(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %r = tensor.reshape %x : tensor<2x3x4xf32> to tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @fusion(
// CHECK: %{{.*}} = tensor.fusion ins(%arg0 : tensor<4x8xf32>) attributes {name = "g0"} {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: tensor<4x8xf32>):
// CHECK: tensor.yield %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT: } : tensor<4x8xf32>
func.func @fusion(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = tensor.fusion ins(%x : tensor<4x8xf32>) attributes {name = "g0"} {
  ^bb0(%in: tensor<4x8xf32>):
    %o = tensor.map ins(%in : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
    ^bb0(%e: f32):
      %n = arith.negf %e : f32
      tensor.yield %n : f32
    } : tensor<4x8xf32>
    tensor.yield %o : tensor<4x8xf32>
  } : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Tensor constants are builtin: arith.constant with a dense attribute.
// CHECK-LABEL: func.func @constant(
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
func.func @constant() -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// A gathered input is read whole: an empty indexing map, the tensor as the
// block argument, tensor.extract at run-time indices.
// CHECK-LABEL: func.func @gather(
// CHECK: tensor.map ins(%arg0, %arg1 : tensor<10x4xf32>, tensor<3xi64>) maps [#{{.*}}, #{{.*}}] gathered [0] {
// CHECK-NEXT: ^bb0(%[[T:.*]]: tensor<10x4xf32>, %[[I:.*]]: i64):
// CHECK-NEXT: %[[R:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK-NEXT: %[[C:.*]] = tensor.index 1 : index
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[T]][%[[R]], %[[C]]] : tensor<10x4xf32>
// CHECK-NEXT: tensor.yield %[[E]] : f32
// CHECK-NEXT: } : tensor<3x4xf32>
func.func @gather(%t: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %r = tensor.map ins(%t, %i : tensor<10x4xf32>, tensor<3xi64>) maps [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0)>] gathered [0] {
  ^bb0(%tt: tensor<10x4xf32>, %ii: i64):
    %row = arith.index_cast %ii : i64 to index
    %col = tensor.index 1 : index
    %e = tensor.extract %tt[%row, %col] : tensor<10x4xf32>
    tensor.yield %e : f32
  } : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// Indices checked before a gather reads with them: the result is the input.
// CHECK-LABEL: func.func @check_indices(
// CHECK-NEXT: %[[C:.*]] = tensor.check_indices %arg0 sizes [10, 4] axes [0, 1] {message = "index {index} out of {size}"} : tensor<3x2xi64>
// CHECK-NEXT: return %[[C]] : tensor<3x2xi64>
func.func @check_indices(%i: tensor<3x2xi64>) -> tensor<3x2xi64> {
  %c = tensor.check_indices %i sizes [10, 4] axes [0, 1] {message = "index {index} out of {size}"} : tensor<3x2xi64>
  return %c : tensor<3x2xi64>
}
