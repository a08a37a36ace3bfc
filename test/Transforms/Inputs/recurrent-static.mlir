// Recurrent ops of static sizes with every attribute and optional operand,
// weights as arguments (random inputs): graph-decompose-recurrent.mlir
// checks that their decomposition computes what the interpreter computes
// directly.

// Batch-first, bidirectional, peepholes, input_forget, clip, initial
// states, sequence lengths (row 1 stops after 2 of 4 steps), and
// activations with parameters.
func.func @lstm(%x: tensor<3x4x5xf32>, %w: tensor<2x12x5xf32>, %r: tensor<2x12x3xf32>, %b: tensor<2x24xf32>, %h: tensor<3x2x3xf32>, %c: tensor<3x2x3xf32>, %p: tensor<2x9xf32>) -> (tensor<3x4x2x3xf32>, tensor<3x2x3xf32>, tensor<3x2x3xf32>) {
  %lens = graph.constant dense<[4, 2, 3]> : tensor<3xi32>
  %y, %yh, %yc = graph.lstm %x, %w, %r bias %b sequence_lens %lens initial_h %h initial_c %c peepholes %p {hidden_size = 3 : i64, direction = "bidirectional", layout = 1 : i64, input_forget = true, clip = 0.75 : f64, activations = ["HardSigmoid", "LeakyRelu", "ScaledTanh", "Sigmoid", "Softsign", "Elu"], activation_alpha = array<f64: 0.3, 0.2, 0.9, 1.0, 1.0, 0.5>, activation_beta = array<f64: 0.4, 0.0, 1.5, 0.0, 0.0, 0.0>} : (tensor<3x4x5xf32>, tensor<2x12x5xf32>, tensor<2x12x3xf32>, tensor<2x24xf32>, tensor<3xi32>, tensor<3x2x3xf32>, tensor<3x2x3xf32>, tensor<2x9xf32>) -> (tensor<3x4x2x3xf32>, tensor<3x2x3xf32>, tensor<3x2x3xf32>)
  return %y, %yh, %yc : tensor<3x4x2x3xf32>, tensor<3x2x3xf32>, tensor<3x2x3xf32>
}

// Reverse, without linear_before_reset (the reset gate scales H before
// its product), Softplus and Affine.
func.func @gru(%x: tensor<4x2x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>, %b: tensor<1x18xf32>, %h: tensor<1x2x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>) {
  %y, %yh = graph.gru %x, %w, %r bias %b initial_h %h {hidden_size = 3 : i64, direction = "reverse", activations = ["Softplus", "Affine"], activation_alpha = array<f64: 1.0, 0.5>, activation_beta = array<f64: 0.0, 0.25>} : (tensor<4x2x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<1x2x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return %y, %yh : tensor<4x1x2x3xf32>, tensor<1x2x3xf32>
}

// With linear_before_reset, bidirectional, no bias.
func.func @gru_lbr(%x: tensor<4x2x5xf32>, %w: tensor<2x9x5xf32>, %r: tensor<2x9x3xf32>) -> (tensor<4x2x2x3xf32>, tensor<1x2x2x3xf32>) {
  %y, %yh = graph.gru %x, %w, %r {hidden_size = 3 : i64, direction = "bidirectional", linear_before_reset = true} : (tensor<4x2x5xf32>, tensor<2x9x5xf32>, tensor<2x9x3xf32>) -> (tensor<4x2x2x3xf32>, tensor<2x2x3xf32>)
  %e = graph.constant dense<0> : tensor<1xi64>
  %yh1 = graph.unsqueeze %yh, %e : (tensor<2x2x3xf32>, tensor<1xi64>) -> tensor<1x2x2x3xf32>
  return %y, %yh1 : tensor<4x2x2x3xf32>, tensor<1x2x2x3xf32>
}

// ThresholdedRelu and Relu, forward and reverse, with sequence lengths,
// over 3 steps.
func.func @rnn(%x: tensor<3x3x2xf32>, %w: tensor<2x3x2xf32>, %r: tensor<2x3x3xf32>, %b: tensor<2x6xf32>) -> (tensor<3x2x3x3xf32>, tensor<2x3x3xf32>) {
  %lens = graph.constant dense<[1, 3, 2]> : tensor<3xi64>
  %y, %yh = graph.rnn %x, %w, %r bias %b sequence_lens %lens {hidden_size = 3 : i64, direction = "bidirectional", activations = ["ThresholdedRelu", "Relu"], activation_alpha = array<f64: 0.1, 1.0>} : (tensor<3x3x2xf32>, tensor<2x3x2xf32>, tensor<2x3x3xf32>, tensor<2x6xf32>, tensor<3xi64>) -> (tensor<3x2x3x3xf32>, tensor<2x3x3xf32>)
  return %y, %yh : tensor<3x2x3x3xf32>, tensor<2x3x3xf32>
}
