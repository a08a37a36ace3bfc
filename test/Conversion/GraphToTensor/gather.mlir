// gather, gather_elements and gather_nd: a map over the result that gathers the data
// (reads it whole) and extracts the element at the index, made
// non-negative as ONNX defines (`i < 0` reads `i + size`), after a
// tensor.check_indices that refuses indices out of range at run time.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s
// RUN: strata-opt --convert-graph-to-tensor %s | strata-opt | FileCheck %s

// CHECK-DAG: #[[NONE:map[0-9]*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG: #[[IDS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>

// An embedding lookup: out[b, s, h] = table[ids[b, s], h].
// CHECK-LABEL: func.func @embedding(
// CHECK: %[[C:.*]] = tensor.check_indices %arg1 sizes [30] axes [0] {message = "'graph.gather' op gather: invalid argument: index {index} is out of range for dim {axis} of size {size}"} : tensor<2x5xi64>
// CHECK: tensor.map ins(%arg0, %[[C]] : tensor<30x8xf32>, tensor<2x5xi64>) maps [#[[NONE]], #[[IDS]]] gathered [0] {
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
// CHECK: %[[C:.*]] = tensor.check_indices %arg1 sizes [4] axes [1] {message = "'graph.gather_elements' op gather_elements: invalid argument: index {index} is out of range for dimension {axis} of size {size}"} : tensor<3x2xi32>
// CHECK: tensor.map ins(%arg0, %[[C]] : tensor<3x4xf32>, tensor<3x2xi32>) maps [#{{.*}}, #[[ID]]] gathered [0] {
// CHECK: %[[R:.*]] = tensor.index 0 : index
// CHECK: tensor.extract %{{.*}}[%[[R]], %{{.*}}] : tensor<3x4xf32>
func.func @gather_elements(%x: tensor<3x4xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = graph.gather_elements %x[%i] {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// gather_nd: both inputs gathered; the index tuple is read from the last
// dimension of the indices at the result's leading coordinates, each entry
// made non-negative. With batch_dims = 1: out[b, j, h] = x[b, i[b, j, 0], h].
// CHECK-LABEL: func.func @gather_nd(
// CHECK: %[[C:.*]] = tensor.check_indices %arg1 sizes [3] axes [1] {message = "'graph.gather_nd' op gather_nd: invalid argument: index {index} is out of range for dimension {axis} of size {size}"} : tensor<2x1x1xi64>
// CHECK: tensor.map ins(%arg0, %[[C]] : tensor<2x3x4xf32>, tensor<2x1x1xi64>) maps [#{{.*}}, #{{.*}}] gathered [0, 1] {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<2x1x1xi64>):
// CHECK: %[[B:.*]] = tensor.index 0 : index
// CHECK: %[[J:.*]] = tensor.index 1 : index
// CHECK: %[[K:.*]] = arith.constant 0 : index
// CHECK: %[[T:.*]] = tensor.extract %[[I]][%[[B]], %[[J]], %[[K]]] : tensor<2x1x1xi64>
// CHECK: %[[N:.*]] = arith.constant 3 : i64
// CHECK: arith.cmpi slt, %[[T]]
// CHECK: %[[R:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[H:.*]] = tensor.index 2 : index
// CHECK: %[[E:.*]] = tensor.extract %[[X]][%[[B]], %[[R]], %[[H]]] : tensor<2x3x4xf32>
// CHECK: tensor.yield %[[E]] : f32
// CHECK: } : tensor<2x1x4xf32>
func.func @gather_nd(%x: tensor<2x3x4xf32>, %i: tensor<2x1x1xi64>) -> tensor<2x1x4xf32> {
  %0 = graph.gather_nd %x[%i] {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1x1xi64>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}
