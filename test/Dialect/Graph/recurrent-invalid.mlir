// REQUIRES: strata-opt
// Verifier errors of the recurrent ops: sizes that disagree with the
// attributes or each other, unknown or miscounted activations, a clip that
// is not positive, a declared result the shape function contradicts.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @a(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x16x4xf32>) {
  // expected-error @+1 {{'graph.lstm' op operand 'w' has shape [1, 12, 3], but its dimension 1 must be gates * hidden_size (16)}}
  %y, %yh, %yc = graph.lstm %x, %w, %r {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x16x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @b(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'w' has shape [1, 4, 3], but its dimension 0 must be the number of directions (2)}}
  %y, %yh = graph.rnn %x, %w, %r {hidden_size = 4 : i64, direction = "bidirectional"} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @c(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'graph.rnn' op unknown activation "Swish"}}
  %y, %yh = graph.rnn %x, %w, %r {hidden_size = 4 : i64, activations = ["Swish"]} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @d(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>) {
  // expected-error @+1 {{'graph.gru' op 'activations' must hold 2 functions (2 per direction), but holds 1}}
  %y, %yh = graph.gru %x, %w, %r {hidden_size = 4 : i64, activations = ["Sigmoid"]} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @e(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %l: tensor<3xi32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'sequence_lens' has shape [3], but must hold one length per batch row (2)}}
  %y, %yh = graph.rnn %x, %w, %r sequence_lens %l {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<3xi32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @f(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'graph.rnn' op 'clip' must be positive, but is -1}}
  %y, %yh = graph.rnn %x, %w, %r {hidden_size = 4 : i64, clip = -1.0 : f64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @g(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'graph.rnn' op result #0 has shape [5, 1, 2, 3] but its inferred shape is [5, 1, 2, 4] (dimension 3: 3 vs 4)}}
  %y, %yh = graph.rnn %x, %w, %r {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x3xf32>, tensor<*xf32>)
  return
}

// -----

func.func @h(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'graph.rnn' op 'activation_alpha' must hold 1 values (one per activation), but holds 2}}
  %y, %yh = graph.rnn %x, %w, %r {hidden_size = 4 : i64, activation_alpha = array<f64: 1.0, 2.0>} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}
