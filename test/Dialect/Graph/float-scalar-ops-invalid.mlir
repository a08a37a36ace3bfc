// REQUIRES: strata-opt
// Verifier errors of the float elementwise ops declared by their scalar
// function: a non-float operand, and a declared result the shape function
// does not infer.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'graph.acos' op operand #0 must be tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = graph.acos %x : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @wrong_shape(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.asin' op result #0 has shape [8] but its inferred shape is [4] (dimension 0: 8 vs 4)}}
  %0 = graph.asin %x : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
