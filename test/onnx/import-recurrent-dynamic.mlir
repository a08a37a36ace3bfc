// LSTM, GRU and RNN over a sequence of dynamic length (Inputs/recurrent-dynamic.py:
// `x: [seq, batch, 3]`) import as graph.lstm, graph.gru and graph.rnn, whose
// results keep the `seq` and `batch` symbols. Eagerly (the ops evaluated
// directly) and in graph mode (graph-decompose-recurrent unrolls the
// sequence, static once graph mode has the input's sizes) they match
// onnxruntime at two sizes; Transforms/graph-decompose-recurrent.mlir
// checks the scan form a dynamic sequence decomposes to.
// RUN: strata import %S/Inputs/recurrent-dynamic.onnx | FileCheck %s
// RUN: strata run %S/Inputs/recurrent-dynamic.onnx --input x=%S/Inputs/recurrent-dynamic-a-x.npy --input lens=%S/Inputs/recurrent-dynamic-a-lens.npy --input h0=%S/Inputs/recurrent-dynamic-a-h0.npy --input c0=%S/Inputs/recurrent-dynamic-a-c0.npy --expect lstm_y=%S/Inputs/recurrent-dynamic-a-lstm_y.npy --expect lstm_h=%S/Inputs/recurrent-dynamic-a-lstm_h.npy --expect lstm_c=%S/Inputs/recurrent-dynamic-a-lstm_c.npy --expect gru_y=%S/Inputs/recurrent-dynamic-a-gru_y.npy --expect gru_h=%S/Inputs/recurrent-dynamic-a-gru_h.npy --expect rnn_y=%S/Inputs/recurrent-dynamic-a-rnn_y.npy | FileCheck %s --check-prefix=RUN-A
// RUN: strata run %S/Inputs/recurrent-dynamic.onnx --input x=%S/Inputs/recurrent-dynamic-b-x.npy --input lens=%S/Inputs/recurrent-dynamic-b-lens.npy --input h0=%S/Inputs/recurrent-dynamic-b-h0.npy --input c0=%S/Inputs/recurrent-dynamic-b-c0.npy --expect lstm_y=%S/Inputs/recurrent-dynamic-b-lstm_y.npy --expect lstm_h=%S/Inputs/recurrent-dynamic-b-lstm_h.npy --expect lstm_c=%S/Inputs/recurrent-dynamic-b-lstm_c.npy --expect gru_y=%S/Inputs/recurrent-dynamic-b-gru_y.npy --expect gru_h=%S/Inputs/recurrent-dynamic-b-gru_h.npy --expect rnn_y=%S/Inputs/recurrent-dynamic-b-rnn_y.npy | FileCheck %s --check-prefix=RUN-B
// RUN: strata run %S/Inputs/recurrent-dynamic.onnx --mode graph --input x=%S/Inputs/recurrent-dynamic-a-x.npy --input lens=%S/Inputs/recurrent-dynamic-a-lens.npy --input h0=%S/Inputs/recurrent-dynamic-a-h0.npy --input c0=%S/Inputs/recurrent-dynamic-a-c0.npy --expect lstm_y=%S/Inputs/recurrent-dynamic-a-lstm_y.npy --expect lstm_h=%S/Inputs/recurrent-dynamic-a-lstm_h.npy --expect lstm_c=%S/Inputs/recurrent-dynamic-a-lstm_c.npy --expect gru_y=%S/Inputs/recurrent-dynamic-a-gru_y.npy --expect gru_h=%S/Inputs/recurrent-dynamic-a-gru_h.npy --expect rnn_y=%S/Inputs/recurrent-dynamic-a-rnn_y.npy | FileCheck %s --check-prefix=RUN-A
// RUN: strata run %S/Inputs/recurrent-dynamic.onnx --mode graph --input x=%S/Inputs/recurrent-dynamic-b-x.npy --input lens=%S/Inputs/recurrent-dynamic-b-lens.npy --input h0=%S/Inputs/recurrent-dynamic-b-h0.npy --input c0=%S/Inputs/recurrent-dynamic-b-c0.npy --expect lstm_y=%S/Inputs/recurrent-dynamic-b-lstm_y.npy --expect lstm_h=%S/Inputs/recurrent-dynamic-b-lstm_h.npy --expect lstm_c=%S/Inputs/recurrent-dynamic-b-lstm_c.npy --expect gru_y=%S/Inputs/recurrent-dynamic-b-gru_y.npy --expect gru_h=%S/Inputs/recurrent-dynamic-b-gru_h.npy --expect rnn_y=%S/Inputs/recurrent-dynamic-b-rnn_y.npy | FileCheck %s --check-prefix=RUN-B

// ONNX's attributes become the ops' (hidden_size, direction, and GRU's
// linear_before_reset); the sequence lengths and initial states are
// keyword operands.
// CHECK: func.func @main(%arg0: tensor<?x?x3xf32, #graph.dims<seq, batch>> {onnx.name = "x"}
// CHECK: graph.lstm %arg0, %{{.*}}, %{{.*}} bias %{{.*}} sequence_lens %arg1 initial_h %arg2 initial_c %arg3 {direction = "bidirectional", hidden_size = 4 : i64}
// CHECK-SAME: -> (tensor<?x2x?x4xf32, #graph.dims<seq, batch>>, tensor<2x?x4xf32, #graph.dims<batch>>, tensor<2x?x4xf32, #graph.dims<batch>>)
// CHECK: graph.gru %arg0, %{{.*}}, %{{.*}} bias %{{.*}} {direction = "reverse", hidden_size = 4 : i64, linear_before_reset = true}
// CHECK: graph.rnn %arg0, %{{.*}}, %{{.*}} bias %{{.*}} {hidden_size = 4 : i64}
// CHECK-NOT: graph.scan

// RUN-A: lstm_y: f32 [5, 2, 3, 4]
// RUN-A-NOT: does not match
// RUN-A: rnn_y: matches
// RUN-B: lstm_y: f32 [2, 2, 1, 4]
// RUN-B-NOT: does not match
// RUN-B: rnn_y: matches
