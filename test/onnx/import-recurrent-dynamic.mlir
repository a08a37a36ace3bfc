// LSTM, GRU and RNN over a sequence of dynamic length (Inputs/recurrent-dynamic.py:
// `x: [seq, batch, 3]`): each direction is a graph.scan over the steps whose
// body is one step of the cell, carrying the states (a static sequence is
// unrolled instead). The bidirectional LSTM with sequence_lens scans the step
// indices too (each row keeps its state past its length, and the reverse
// direction starts at each row's last element); the GRU runs in reverse.
// Matches onnxruntime at two sizes.
// RUN: strata import %S/Inputs/recurrent-dynamic.onnx | FileCheck %s
// RUN: strata run %S/Inputs/recurrent-dynamic.onnx --input x=%S/Inputs/recurrent-dynamic-a-x.npy --input lens=%S/Inputs/recurrent-dynamic-a-lens.npy --input h0=%S/Inputs/recurrent-dynamic-a-h0.npy --input c0=%S/Inputs/recurrent-dynamic-a-c0.npy --expect lstm_y=%S/Inputs/recurrent-dynamic-a-lstm_y.npy --expect lstm_h=%S/Inputs/recurrent-dynamic-a-lstm_h.npy --expect lstm_c=%S/Inputs/recurrent-dynamic-a-lstm_c.npy --expect gru_y=%S/Inputs/recurrent-dynamic-a-gru_y.npy --expect gru_h=%S/Inputs/recurrent-dynamic-a-gru_h.npy --expect rnn_y=%S/Inputs/recurrent-dynamic-a-rnn_y.npy | FileCheck %s --check-prefix=RUN-A
// RUN: strata run %S/Inputs/recurrent-dynamic.onnx --input x=%S/Inputs/recurrent-dynamic-b-x.npy --input lens=%S/Inputs/recurrent-dynamic-b-lens.npy --input h0=%S/Inputs/recurrent-dynamic-b-h0.npy --input c0=%S/Inputs/recurrent-dynamic-b-c0.npy --expect lstm_y=%S/Inputs/recurrent-dynamic-b-lstm_y.npy --expect lstm_h=%S/Inputs/recurrent-dynamic-b-lstm_h.npy --expect lstm_c=%S/Inputs/recurrent-dynamic-b-lstm_c.npy --expect gru_y=%S/Inputs/recurrent-dynamic-b-gru_y.npy --expect gru_h=%S/Inputs/recurrent-dynamic-b-gru_h.npy --expect rnn_y=%S/Inputs/recurrent-dynamic-b-rnn_y.npy | FileCheck %s --check-prefix=RUN-B
// Graph mode does not compile control flow yet, and says so:
// RUN: not strata run %S/Inputs/recurrent-dynamic.onnx --mode graph 2>&1 | FileCheck %s --check-prefix=GRAPH
// GRAPH: node 'LSTM': error: 'graph.scan' op is control flow, which cannot be lowered to tensor yet (run the model in eager mode)

// The LSTM's forward direction: states h and c, then the steps of X Wᵀ and
// their indices.
// CHECK: func.func @main(%arg0: tensor<?x?x3xf32, #graph.dims<seq, batch>> {onnx.name = "x"}
// CHECK: graph.scan(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {num_scan_inputs = 2 : i64} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x?x16xf32, #graph.dims<seq, batch>>, tensor<?xi64, #graph.dims<seq>>)
// CHECK: ^bb0(%[[H:.*]]: tensor<?x4xf32, #graph.dims<batch>>, %[[C:.*]]: tensor<?x4xf32, #graph.dims<batch>>, %[[XT:.*]]: tensor<?x16xf32, #graph.dims<batch>>, %[[T:.*]]: tensor<i64>):
// CHECK: graph.matmul %[[H]]
// CHECK: graph.less %[[T]]
// CHECK: graph.yield
// Its reverse direction, and the GRU's: scanned and stacked from the end.
// CHECK: graph.scan({{.*}}) {num_scan_inputs = 2 : i64, scan_input_directions = array<i64: 1, 1>, scan_output_directions = array<i64: 1>}
// CHECK: graph.scan({{.*}}) {num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 1>, scan_output_directions = array<i64: 1>}
// The RNN: one state.
// CHECK: graph.scan(%{{.*}}, %{{.*}}) {num_scan_inputs = 1 : i64} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<?x?x4xf32, #graph.dims<seq, batch>>)

// RUN-A: lstm_y: f32 [5, 2, 3, 4]
// RUN-A-NOT: does not match
// RUN-A: rnn_y: matches
// RUN-B: lstm_y: f32 [2, 2, 1, 4]
// RUN-B-NOT: does not match
// RUN-B: rnn_y: matches
