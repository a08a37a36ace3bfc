// Data movement: transpose, expand, slice, concat and pad are tensor.map
// with indexing maps; reshapes are tensor.reshape; constants are
// arith.constant; identity disappears.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s
// The split's maps (aliases print first).
// CHECK-DAG: #[[S0:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[S1:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1 + 2)>
// RUN: strata-opt --convert-graph-to-tensor %s | strata-opt | FileCheck %s

// CHECK-DAG: #[[T:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// CHECK-DAG: #[[E:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-DAG: #[[S:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1 * 2 + 1)>
// CHECK-DAG: #[[C0:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1 mod 10)>
// CHECK-DAG: #[[C1:map[0-9]*]] = affine_map<(d0, d1) -> (d0, (d1 - 10) mod 3)>
// CHECK-DAG: #[[P:map[0-9]*]] = affine_map<(d0, d1) -> ((d0 - 1) mod 4, d1)>
// CHECK-DAG: #[[R:map[0-9]*]] = affine_map<(d0, d1) -> (d0, -d1 + 9)>

// out[i, j, k] = in[k, i, j] for perm [1, 2, 0].
// CHECK-LABEL: func.func @transpose(
// CHECK: tensor.map ins(%arg0 : tensor<4x2x3xf32>) maps [#[[T]]] {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: tensor.yield %[[X]] : f32
// CHECK-NEXT: } : tensor<2x3x4xf32>
func.func @transpose(%x: tensor<4x2x3xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @expand(
// CHECK-NOT: arith.constant
// CHECK: tensor.map ins(%arg0 : tensor<2x1x3xi32>) maps [#[[E]]] {
// CHECK: } : tensor<2x5x3xi32>
func.func @expand(%x: tensor<2x1x3xi32>) -> tensor<2x5x3xi32> {
  %s = graph.constant dense<[2, 5, 3]> : tensor<3xi64>
  %0 = graph.expand %x, %s : (tensor<2x1x3xi32>, tensor<3xi64>) -> tensor<2x5x3xi32>
  return %0 : tensor<2x5x3xi32>
}

// CHECK-LABEL: func.func @reshapes(
// CHECK: %[[A:.*]] = tensor.reshape %arg0 : tensor<4x10xf32> to tensor<40xf32>
// CHECK: %[[B:.*]] = tensor.reshape %[[A]] : tensor<40xf32> to tensor<1x40xf32>
// CHECK: return %[[B]], %arg0
func.func @reshapes(%x: tensor<4x10xf32>) -> (tensor<1x40xf32>, tensor<4x10xf32>) {
  %sh = graph.constant dense<[40]> : tensor<1xi64>
  %0 = graph.reshape %x, %sh : (tensor<4x10xf32>, tensor<1xi64>) -> tensor<40xf32>
  %ax = graph.constant dense<[0]> : tensor<1xi64>
  %1 = graph.unsqueeze %0, %ax : (tensor<40xf32>, tensor<1xi64>) -> tensor<1x40xf32>
  %2 = graph.identity %x : (tensor<4x10xf32>) -> tensor<4x10xf32>
  return %1, %2 : tensor<1x40xf32>, tensor<4x10xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK: tensor.map ins(%arg0 : tensor<4x10xf32>) maps [#[[S]]] {
// CHECK: } : tensor<4x4xf32>
// CHECK: tensor.map ins(%arg0 : tensor<4x10xf32>) maps [#[[R]]] {
// CHECK: } : tensor<4x10xf32>
func.func @slice(%x: tensor<4x10xf32>) -> (tensor<4x4xf32>, tensor<4x10xf32>) {
  %st = graph.constant dense<[1]> : tensor<1xi64>
  %en = graph.constant dense<[9]> : tensor<1xi64>
  %ax = graph.constant dense<[1]> : tensor<1xi64>
  %sp = graph.constant dense<[2]> : tensor<1xi64>
  %0 = graph.slice %x, %st, %en axes %ax steps %sp : (tensor<4x10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x4xf32>
  %rst = graph.constant dense<[-1]> : tensor<1xi64>
  %ren = graph.constant dense<[-100]> : tensor<1xi64>
  %rsp = graph.constant dense<[-1]> : tensor<1xi64>
  %1 = graph.slice %x, %rst, %ren axes %ax steps %rsp : (tensor<4x10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x10xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x10xf32>
}

// Each input is read at its index wrapped into its bounds; the body picks
// the input whose range holds the point.
// CHECK-LABEL: func.func @concat(
// CHECK: tensor.map ins(%arg0, %arg1 : tensor<4x10xf32>, tensor<4x3xf32>) maps [#[[C0]], #[[C1]]] {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[I:.*]] = tensor.index 1 : index
// CHECK-NEXT: %[[C10:.*]] = arith.constant 10 : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[C10]] : index
// CHECK-NEXT: %[[R:.*]] = arith.select %[[LT]], %[[A]], %[[B]] : f32
// CHECK-NEXT: tensor.yield %[[R]] : f32
// CHECK-NEXT: } : tensor<4x13xf32>
func.func @concat(%x: tensor<4x10xf32>, %y: tensor<4x3xf32>) -> tensor<4x13xf32> {
  %0 = graph.concat %x, %y {axis = 1 : i64} : (tensor<4x10xf32>, tensor<4x3xf32>) -> tensor<4x13xf32>
  return %0 : tensor<4x13xf32>
}

// CHECK-LABEL: func.func @pad(
// CHECK: tensor.map ins(%arg0, %arg1 : tensor<4x10xf32>, tensor<f32>) maps [#[[P]], #{{.*}}] {
// CHECK: tensor.index 0 : index
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: } : tensor<6x10xf32>
func.func @pad(%x: tensor<4x10xf32>, %v: tensor<f32>) -> tensor<6x10xf32> {
  %pads = graph.constant dense<[1, 0, 1, 0]> : tensor<4xi64>
  %0 = graph.pad %x, %pads value %v : (tensor<4x10xf32>, tensor<4xi64>, tensor<f32>) -> tensor<6x10xf32>
  return %0 : tensor<6x10xf32>
}

// CHECK-LABEL: func.func @constant(
// CHECK: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: return %[[C]]
func.func @constant() -> tensor<2xf32> {
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// split: one map per result, reading the input from the result's offset
// along the axis (the maps' aliases are checked at the top).
// CHECK-LABEL: func.func @split(
// CHECK:         %[[A:.*]] = tensor.map ins(%arg0 : tensor<3x5xf32>) maps [#[[S0]]] {
// CHECK:         } : tensor<3x2xf32>
// CHECK:         %[[B:.*]] = tensor.map ins(%arg0 : tensor<3x5xf32>) maps [#[[S1]]] {
// CHECK:         } : tensor<3x3xf32>
// CHECK:         return %[[A]], %[[B]] : tensor<3x2xf32>, tensor<3x3xf32>
func.func @split(%x: tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x3xf32>) {
  %s = graph.constant dense<[2, 3]> : tensor<2xi64>
  %a, %b = graph.split %x sizes %s {axis = 1 : i64} : (tensor<3x5xf32>, tensor<2xi64>) -> (tensor<3x2xf32>, tensor<3x3xf32>)
  return %a, %b : tensor<3x2xf32>, tensor<3x3xf32>
}
