// graph.lstm (bidirectional, sequence lengths, initial states), graph.gru
// (reverse, linear_before_reset) and graph.rnn evaluated directly by the
// interpreter (Inputs/recurrent-ops.mlir, the weights of
// test/onnx/Inputs/recurrent-dynamic.onnx), against onnxruntime's outputs
// for that model at two sizes.
// RUN: strata run %S/Inputs/recurrent-ops.mlir --input x=%S/../onnx/Inputs/recurrent-dynamic-a-x.npy --input lens=%S/../onnx/Inputs/recurrent-dynamic-a-lens.npy --input h0=%S/../onnx/Inputs/recurrent-dynamic-a-h0.npy --input c0=%S/../onnx/Inputs/recurrent-dynamic-a-c0.npy --expect lstm_y=%S/../onnx/Inputs/recurrent-dynamic-a-lstm_y.npy --expect lstm_h=%S/../onnx/Inputs/recurrent-dynamic-a-lstm_h.npy --expect lstm_c=%S/../onnx/Inputs/recurrent-dynamic-a-lstm_c.npy --expect gru_y=%S/../onnx/Inputs/recurrent-dynamic-a-gru_y.npy --expect gru_h=%S/../onnx/Inputs/recurrent-dynamic-a-gru_h.npy --expect rnn_y=%S/../onnx/Inputs/recurrent-dynamic-a-rnn_y.npy | FileCheck %s
// RUN: strata run %S/Inputs/recurrent-ops.mlir --input x=%S/../onnx/Inputs/recurrent-dynamic-b-x.npy --input lens=%S/../onnx/Inputs/recurrent-dynamic-b-lens.npy --input h0=%S/../onnx/Inputs/recurrent-dynamic-b-h0.npy --input c0=%S/../onnx/Inputs/recurrent-dynamic-b-c0.npy --expect lstm_y=%S/../onnx/Inputs/recurrent-dynamic-b-lstm_y.npy --expect lstm_h=%S/../onnx/Inputs/recurrent-dynamic-b-lstm_h.npy --expect lstm_c=%S/../onnx/Inputs/recurrent-dynamic-b-lstm_c.npy --expect gru_y=%S/../onnx/Inputs/recurrent-dynamic-b-gru_y.npy --expect gru_h=%S/../onnx/Inputs/recurrent-dynamic-b-gru_h.npy --expect rnn_y=%S/../onnx/Inputs/recurrent-dynamic-b-rnn_y.npy | FileCheck %s
// Operands whose sizes disagree at run time (three lengths, one batch row)
// are a located error:
// RUN: not strata run %S/Inputs/recurrent-ops.mlir --input x=%S/../onnx/Inputs/recurrent-dynamic-b-x.npy --input lens=%S/../onnx/Inputs/recurrent-dynamic-a-lens.npy --input h0=%S/../onnx/Inputs/recurrent-dynamic-a-h0.npy --input c0=%S/../onnx/Inputs/recurrent-dynamic-a-c0.npy 2>&1 | FileCheck %s --check-prefix=LENS

// CHECK: lstm_y: f32 [{{[0-9]+}}, 2, {{[0-9]+}}, 4]
// CHECK: lstm_y: matches
// CHECK-NEXT: lstm_h: matches
// CHECK-NEXT: lstm_c: matches
// CHECK-NEXT: gru_y: matches
// CHECK-NEXT: gru_h: matches
// CHECK-NEXT: rnn_y: matches
// LENS: recurrent-ops.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'graph.lstm' op operand 'sequence_lens' has shape [3], expected [1]
