// gather and gather_elements: a map over the result that gathers the data
// (reads it whole) and extracts the element at the index, made
// non-negative as ONNX defines (`i < 0` reads `i + size`).
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s
// RUN: strata-opt --convert-graph-to-tensor %s | strata-opt | FileCheck %s

// CHECK-DAG: #[[NONE:map[0-9]*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG: #[[IDS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>

// An embedding lookup: out[b, s, h] = table[ids[b, s], h].
// CHECK-LABEL: func.func @embedding(
// CHECK: tensor.map ins(%arg0, %arg1 : tensor<30x8xf32>, tensor<2x5xi64>) maps [#[[NONE]], #[[IDS]]] gathered [0] {
// CHECK-NEXT: ^bb0(%[[T:.*]]: tensor<30x8xf32>, %[[I:.*]]: i64):
// CHECK: %[[N:.*]] = arith.constant 30 : i64
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]]
// CHECK: %[[UP:.*]] = arith.addi %[[I]], %[[N]] : i64
// CHECK: %[[V:.*]] = arith.select %[[NEG]], %[[UP]], %[[I]] : i64
// CHECK: %[[R:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK: %[[H:.*]] = tensor.index 2 : index
// CHECK: %[[E:.*]] = tensor.extract %[[T]][%[[R]], %[[H]]] : tensor<30x8xf32>
// CHECK: tensor.yield %[[E]] : f32
// CHECK: } : tensor<2x5x8xf32>
func.func @embedding(%t: tensor<30x8xf32>, %ids: tensor<2x5xi64>) -> tensor<2x5x8xf32> {
  %0 = graph.gather %t[%ids] : (tensor<30x8xf32>, tensor<2x5xi64>) -> tensor<2x5x8xf32>
  return %0 : tensor<2x5x8xf32>
}

// out[i, j] = x[i, idx[i, j]].
// CHECK-LABEL: func.func @gather_elements(
// CHECK: tensor.map ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<3x2xi32>) maps [#{{.*}}, #[[ID]]] gathered [0] {
// CHECK: %[[R:.*]] = tensor.index 0 : index
// CHECK: tensor.extract %{{.*}}[%[[R]], %{{.*}}] : tensor<3x4xf32>
func.func @gather_elements(%x: tensor<3x4xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = graph.gather_elements %x[%i] {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
