// REQUIRES: strata-opt
// graph-eliminate-layout sinks transposes and reshapes through elementwise
// ops so that inverse transposes meet and cancel.
// RUN: strata-opt %s --split-input-file --graph-eliminate-layout | FileCheck %s

// NHWC -> NCHW, relu, add, NCHW -> NHWC: no transpose is left.
// CHECK-LABEL: func.func @cancel
// CHECK-NEXT: %[[R:.*]] = graph.relu %arg0 : (tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
// CHECK-NEXT: %[[A:.*]] = graph.add %[[R]], %arg1 : (tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
// CHECK-NEXT: return %[[A]]
func.func @cancel(%x: tensor<1x8x8x3xf32>, %y: tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
  %1 = graph.relu %0 : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %2 = graph.transpose %y {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
  %3 = graph.add %1, %2 : (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %4 = graph.transpose %3 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
  return %4 : tensor<1x8x8x3xf32>
}

// -----

// A scalar operand is the same in any order; a transpose with another user
// stays where it is.
// CHECK-LABEL: func.func @scalar_and_shared
// CHECK-NEXT: %[[M:.*]] = graph.mul %arg0, %arg1 : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[M]]
// CHECK-SAME: -> tensor<4x2xf32>
// CHECK-NEXT: %[[S:.*]] = graph.transpose %arg0
// CHECK-NEXT: %[[E:.*]] = graph.exp %[[S]]
// CHECK-NEXT: %[[N:.*]] = graph.neg %[[S]]
func.func @scalar_and_shared(%x: tensor<2x4xf32>, %s: tensor<f32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %0 = graph.transpose %x : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %1 = graph.mul %0, %s : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  %2 = graph.transpose %x : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %3 = graph.exp %2 : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %4 = graph.neg %2 : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %1, %3, %4 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// Different permutations, a broadcast operand of lower rank, and a
// non-elementwise op (softmax reads along an axis) stop the sinking.
// CHECK-LABEL: func.func @stops
// CHECK: graph.transpose %arg3
// CHECK: graph.transpose %arg4
// CHECK: graph.sub
// The same permutation written and implied does sink.
// CHECK-NEXT: %[[M:.*]] = graph.mul %arg3, %arg4
// CHECK-NEXT: graph.transpose %[[M]]
// CHECK: graph.transpose %arg0
// CHECK: graph.add
// CHECK: graph.transpose %arg0
// CHECK: graph.softmax
func.func @stops(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>, %b: tensor<2xf32>, %z: tensor<2x2x2xf32>, %w: tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<2x2x2xf32>) {
  %0 = graph.transpose %z {perm = array<i64: 2, 1, 0>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %1 = graph.transpose %w {perm = array<i64: 1, 2, 0>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %2 = graph.sub %0, %1 : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %7 = graph.transpose %z : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %8 = graph.transpose %w {perm = array<i64: 2, 1, 0>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %9 = graph.mul %7, %8 : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %3 = graph.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %4 = graph.add %3, %b : (tensor<4x3x2xf32>, tensor<2xf32>) -> tensor<4x3x2xf32>
  %5 = graph.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %6 = graph.softmax %5 : (tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  return %2, %4, %6, %9 : tensor<2x2x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<2x2x2xf32>
}

// -----

// A reshape sinks through a one-operand elementwise op; two reshapes then
// compose into one.
// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT: %[[C:.*]] = graph.constant
// CHECK-NEXT: %[[T:.*]] = graph.tanh %arg0 : (tensor<2x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[T]], %[[C]] : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<12xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshapes(%x: tensor<2x6xf32>) -> tensor<12xf32> {
  %s1 = graph.constant dense<[3, 4]> : tensor<2xi64>
  %s2 = graph.constant dense<[12]> : tensor<1xi64>
  %0 = graph.reshape %x, %s1 : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  %1 = graph.tanh %0 : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = graph.reshape %1, %s2 : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<12xf32>
  return %2 : tensor<12xf32>
}
