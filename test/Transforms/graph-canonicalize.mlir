// REQUIRES: strata-opt
// Graph-level folds and canonicalizations: no-op reshapes, casts, expands,
// identities and identity transposes fold away; transposes and reshapes
// compose; constant subgraphs fold through the reference interpreter.
// RUN: strata-opt %s --split-input-file --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @no_ops
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x8xf32, #graph.dims<batch>>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]] :
func.func @no_ops(%x: tensor<?x4x8xf32, #graph.dims<batch>>) -> (tensor<?x4x8xf32, #graph.dims<batch>>, tensor<?x4x8xf32, #graph.dims<batch>>, tensor<?x4x8xf32, #graph.dims<batch>>) {
  %0 = graph.identity %x : (tensor<?x4x8xf32, #graph.dims<batch>>) -> tensor<?x4x8xf32, #graph.dims<batch>>
  %1 = graph.cast %0 : (tensor<?x4x8xf32, #graph.dims<batch>>) -> tensor<?x4x8xf32, #graph.dims<batch>>
  %2 = graph.transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<?x4x8xf32, #graph.dims<batch>>) -> tensor<?x4x8xf32, #graph.dims<batch>>
  %s = graph.constant dense<[0, 4, 8]> : tensor<3xi64>
  %3 = graph.reshape %x, %s : (tensor<?x4x8xf32, #graph.dims<batch>>, tensor<3xi64>) -> tensor<?x4x8xf32, #graph.dims<batch>>
  return %1, %2, %3 : tensor<?x4x8xf32, #graph.dims<batch>>, tensor<?x4x8xf32, #graph.dims<batch>>, tensor<?x4x8xf32, #graph.dims<batch>>
}

// -----

// A transpose of a transpose is one transpose (or none).
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %arg0, %[[T]] :
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {perm = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %2 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %3 = graph.transpose %2 {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %4 = graph.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %5 = graph.transpose %4 {perm = array<i64: 1, 0, 2>} : (tensor<2x4x3xf32>) -> tensor<4x2x3xf32>
  return %1, %5 : tensor<2x3x4xf32>, tensor<4x2x3xf32>
}

// -----

// A reshape of a reshape reshapes the original (no `0` in the outer shape).
// CHECK-LABEL: func.func @reshapes
// CHECK: %[[S:.*]] = graph.constant dense<[4, 6]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0, %[[S]] : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %s1 = graph.constant dense<[6, 4]> : tensor<2xi64>
  %0 = graph.reshape %x, %s1 : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %s2 = graph.constant dense<[4, 6]> : tensor<2xi64>
  %1 = graph.reshape %0, %s2 : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// Constant subgraphs (here: shape arithmetic) fold to constants.
// CHECK-LABEL: func.func @constant_subgraph
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[2, 12]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0, %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @constant_subgraph(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %shape = graph.shape_of %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %s = graph.constant dense<[0]> : tensor<1xi64>
  %e = graph.constant dense<[1]> : tensor<1xi64>
  %batch = graph.slice %shape, %s, %e : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %minus1 = graph.constant dense<[-1]> : tensor<1xi64>
  %target = graph.concat %batch, %minus1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %abs = graph.abs %target : (tensor<2xi64>) -> tensor<2xi64>
  %twelve = graph.constant dense<[1, 12]> : tensor<2xi64>
  %t = graph.mul %abs, %twelve : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %r = graph.reshape %x, %t : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}
