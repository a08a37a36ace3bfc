// REQUIRES: strata-opt
// Verifier errors of the element-type constraints of graph ops (a type no
// graph op computes with: complex, i7) and of the float elementwise ops
// declared by their scalar function: a non-float operand, a float format
// the graph ops do not compute with (f80, f8), and a declared result the
// shape function does not infer.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'graph.acos' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = graph.acos %x : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The formats the graph ops do not compute with are refused up front.
func.func @wide_float(%x: tensor<4xf80>) -> tensor<4xf80> {
  // expected-error @+1 {{'graph.atan' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xf80>'}}
  %0 = graph.atan %x : (tensor<4xf80>) -> tensor<4xf80>
  return %0 : tensor<4xf80>
}

// -----

func.func @narrow_float(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{'graph.sqrt' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = graph.sqrt %x : (tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

func.func @wrong_shape(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.asin' op result #0 has shape [8] but its inferred shape is [4] (dimension 0: 8 vs 4)}}
  %0 = graph.asin %x : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Element types no graph op computes with are refused by every op.
func.func @complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'graph.add' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit, 8-bit, 16-bit, 32-bit or 64-bit integer or index values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = graph.add %x, %x : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @odd_width(%x: tensor<4xi7>) -> tensor<4xi7> {
  // expected-error @+1 {{'graph.and' op operand #0 must be tensor of 1-bit, 8-bit, 16-bit, 32-bit or 64-bit integer values, but got 'tensor<4xi7>'}}
  %0 = graph.and %x, %x : (tensor<4xi7>, tensor<4xi7>) -> tensor<4xi7>
  return %0 : tensor<4xi7>
}
