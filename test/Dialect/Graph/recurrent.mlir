// REQUIRES: strata-opt
// Round trip of graph.rnn, graph.gru and graph.lstm, and their shape
// functions: both layouts, every optional operand, dynamic sizes.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --graph-infer-shapes | FileCheck %s --check-prefix=INFER

// CHECK-LABEL: func.func @lstm
// CHECK: %{{.*}}:3 = graph.lstm %arg0, %arg1, %arg2 bias %arg3 sequence_lens %arg4 initial_h %arg5 initial_c %arg6 peepholes %arg7 {activation_alpha = array<f64: 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00>, direction = "bidirectional", hidden_size = 4 : i64, input_forget = true}
// INFER-LABEL: func.func @lstm
// INFER: -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
func.func @lstm(%x: tensor<5x2x3xf32>, %w: tensor<2x16x3xf32>, %r: tensor<2x16x4xf32>, %b: tensor<2x32xf32>, %l: tensor<2xi32>, %h: tensor<2x2x4xf32>, %c: tensor<2x2x4xf32>, %p: tensor<2x12xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %y, %yh, %yc = graph.lstm %x, %w, %r bias %b sequence_lens %l initial_h %h initial_c %c peepholes %p {hidden_size = 4 : i64, direction = "bidirectional", input_forget = true, activation_alpha = array<f64: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0>} : (tensor<5x2x3xf32>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x32xf32>, tensor<2xi32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x12xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %y, %yh, %yc : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// Batch-first layout and a dynamic sequence length.
// CHECK-LABEL: func.func @gru
// CHECK: graph.gru %arg0, %arg1, %arg2 initial_h %arg3 {activations = ["Relu", "Tanh"], hidden_size = 4 : i64, layout = 1 : i64, linear_before_reset = true}
// INFER-LABEL: func.func @gru
// INFER: -> (tensor<2x?x1x4xf32>, tensor<2x1x4xf32>)
func.func @gru(%x: tensor<2x?x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>, %h: tensor<2x1x4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %y, %yh = graph.gru %x, %w, %r initial_h %h {hidden_size = 4 : i64, layout = 1 : i64, activations = ["Relu", "Tanh"], linear_before_reset = true} : (tensor<2x?x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<2x1x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %y, %yh : tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func.func @rnn
// CHECK: graph.rnn %arg0, %arg1, %arg2 {clip = 2.500000e+00 : f64, direction = "reverse", hidden_size = 2 : i64}
// INFER-LABEL: func.func @rnn
// INFER: -> (tensor<?x1x3x2xf64>, tensor<1x3x2xf64>)
func.func @rnn(%x: tensor<?x3x5xf64>, %w: tensor<1x2x5xf64>, %r: tensor<1x2x2xf64>) -> (tensor<*xf64>, tensor<*xf64>) {
  %y, %yh = graph.rnn %x, %w, %r {hidden_size = 2 : i64, direction = "reverse", clip = 2.5 : f64} : (tensor<?x3x5xf64>, tensor<1x2x5xf64>, tensor<1x2x2xf64>) -> (tensor<*xf64>, tensor<*xf64>)
  return %y, %yh : tensor<*xf64>, tensor<*xf64>
}
