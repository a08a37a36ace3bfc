// matmul and gemm become tensor.contract (+ a tensor.map for gemm's
// alpha, beta and C).
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s
// RUN: strata-opt --convert-graph-to-tensor %s | strata-opt | FileCheck %s

// CHECK-DAG: #[[MK:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[KN:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MN:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[BMK:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[KN4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[BKN:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[MK4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG: #[[BMN:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[KM:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #map{{[0-9]*}} = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #map{{[0-9]*}} = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #map{{[0-9]*}} = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @matmul(
// CHECK: tensor.contract ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x5xf32>) maps [#[[MK]], #[[KN]], #[[MN]]] : tensor<4x5xf32>
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @batched(
// CHECK: tensor.contract ins(%arg0, %arg1 : tensor<2x4x8xf32>, tensor<8x5xf32>) maps [#[[BMK]], #[[KN4]], #[[BMN]]] : tensor<2x4x5xf32>
func.func @batched(%a: tensor<2x4x8xf32>, %b: tensor<8x5xf32>) -> tensor<2x4x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x5xf32>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// A size-1 batch dim that broadcasts is reshaped away (contract maps are
// projected permutations).
// CHECK-LABEL: func.func @broadcast_batch(
// CHECK: %[[R:.*]] = tensor.reshape %arg0 : tensor<1x4x8xf16> to tensor<4x8xf16>
// CHECK: tensor.contract ins(%[[R]], %arg1 : tensor<4x8xf16>, tensor<3x8x5xf16>) maps [#[[MK4]], #[[BKN]], #[[BMN]]] : tensor<3x4x5xf16>
func.func @broadcast_batch(%a: tensor<1x4x8xf16>, %b: tensor<3x8x5xf16>) -> tensor<3x4x5xf16> {
  %0 = graph.matmul %a, %b : (tensor<1x4x8xf16>, tensor<3x8x5xf16>) -> tensor<3x4x5xf16>
  return %0 : tensor<3x4x5xf16>
}

// 1-D operands, as numpy: the matrix dim is absent from the maps.
// CHECK-LABEL: func.func @vector(
// CHECK: tensor.contract ins(%arg0, %arg1 : tensor<8xf32>, tensor<8x5xf32>) maps [#[[K2:map[0-9]*]], #[[KN2:map[0-9]*]], #[[N2:map[0-9]*]]] : tensor<5xf32>
func.func @vector(%a: tensor<8xf32>, %b: tensor<8x5xf32>) -> tensor<5xf32> {
  %0 = graph.matmul %a, %b : (tensor<8xf32>, tensor<8x5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// CHECK-LABEL: func.func @gemm(
// CHECK: %[[AB:.*]] = tensor.contract ins(%arg0, %arg1 : tensor<8x4xf32>, tensor<8x5xf32>) maps [#[[KM]], #[[KN]], #[[MN]]] : tensor<4x5xf32>
// CHECK: tensor.map ins(%[[AB]], %arg2 : tensor<4x5xf32>, tensor<5xf32>)
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.constant 5.000000e-01 : f32
func.func @gemm(%a: tensor<8x4xf32>, %b: tensor<8x5xf32>, %c: tensor<5xf32>) -> tensor<4x5xf32> {
  %0 = graph.gemm %a, %b, %c {transA = true, alpha = 2.0 : f64, beta = 0.5 : f64} : (tensor<8x4xf32>, tensor<8x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
