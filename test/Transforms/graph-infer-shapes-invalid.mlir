// REQUIRES: strata-opt
// graph-infer-shapes fails when a refined operand makes a declared result type,
// or the op itself, contradict its shape function (the verifier accepted them
// while the operand's shape was unknown).
// RUN: strata-opt %s --split-input-file --graph-infer-shapes --verify-diagnostics

// The refined operand is 4x8, so relu's declared 4x9 contradicts dimension 1.
func.func @contradiction(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  %0 = graph.exp %x : (tensor<4x8xf32>) -> tensor<*xf32>
  // expected-error @+1 {{'graph.relu' op result #0 has shape [4, 9] but its inferred shape is [4, 8] (dimension 1: 9 vs 8)}}
  %1 = graph.relu %0 : (tensor<*xf32>) -> tensor<4x9xf32>
  return %1 : tensor<4x9xf32>
}

// -----

// A declared rank that the refined operand contradicts.
func.func @rank(%x: tensor<4x8xf32>) -> tensor<?xf32> {
  %0 = graph.exp %x : (tensor<4x8xf32>) -> tensor<*xf32>
  // expected-error @+1 {{'graph.sigmoid' op result #0 has rank 1 but its inferred shape [4, 8] has rank 2}}
  %1 = graph.sigmoid %0 : (tensor<*xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// A symbol that the refined operand contradicts.
func.func @symbol(%x: tensor<?x8xf32, #graph.dims<batch>>) -> tensor<?x8xf32, #graph.dims<seq>> {
  %0 = graph.neg %x : (tensor<?x8xf32, #graph.dims<batch>>) -> tensor<?x?xf32>
  // expected-error @+1 {{'graph.abs' op result #0 has shape [seq, 8] but its inferred shape is [batch, 8] (dimension 0: seq vs batch)}}
  %1 = graph.abs %0 : (tensor<?x?xf32>) -> tensor<?x8xf32, #graph.dims<seq>>
  return %1 : tensor<?x8xf32, #graph.dims<seq>>
}

// -----

// The shape function itself fails once the element count is known.
func.func @reshape_after_refinement(%x: tensor<4x8xf32>) -> tensor<16x4xf32> {
  %0 = graph.exp %x : (tensor<4x8xf32>) -> tensor<?x?xf32>
  %s = graph.constant dense<[16, 4]> : tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op cannot reshape [4, 8] (32 elements) into 64 elements}}
  %1 = graph.reshape %0, %s : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<16x4xf32>
  return %1 : tensor<16x4xf32>
}

// -----

// Broadcasting fails once both shapes are known.
func.func @broadcast_after_refinement(%x: tensor<4x8xf32>, %y: tensor<3xf32>) -> tensor<*xf32> {
  %0 = graph.tanh %x : (tensor<4x8xf32>) -> tensor<*xf32>
  // expected-error @+1 {{'graph.add' op shapes [4, 8] and [3] are not broadcastable: 8 vs 3 in dimension 1}}
  %1 = graph.add %0, %y : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}
