// REQUIRES: strata-opt
// graph-decompose-recurrent: graph.lstm, graph.gru and graph.rnn become the
// graph ops they compute with. A static sequence is unrolled (up to
// max-unroll steps; any length by default); a longer or dynamic one is a
// graph.scan per direction whose body is one step.
//
// The dynamic form (Runtime/Inputs/recurrent-ops.mlir, whose sizes are all
// `?`), run by the interpreter, matches onnxruntime:
// RUN: strata-opt --graph-decompose-recurrent %S/../Runtime/Inputs/recurrent-ops.mlir > %t.scan.mlir
// RUN: FileCheck %s --check-prefix=SCAN < %t.scan.mlir
// RUN: strata run %t.scan.mlir --input x=%S/../onnx/Inputs/recurrent-dynamic-a-x.npy --input lens=%S/../onnx/Inputs/recurrent-dynamic-a-lens.npy --input h0=%S/../onnx/Inputs/recurrent-dynamic-a-h0.npy --input c0=%S/../onnx/Inputs/recurrent-dynamic-a-c0.npy --expect lstm_y=%S/../onnx/Inputs/recurrent-dynamic-a-lstm_y.npy --expect lstm_h=%S/../onnx/Inputs/recurrent-dynamic-a-lstm_h.npy --expect lstm_c=%S/../onnx/Inputs/recurrent-dynamic-a-lstm_c.npy --expect gru_y=%S/../onnx/Inputs/recurrent-dynamic-a-gru_y.npy --expect gru_h=%S/../onnx/Inputs/recurrent-dynamic-a-gru_h.npy --expect rnn_y=%S/../onnx/Inputs/recurrent-dynamic-a-rnn_y.npy | FileCheck %s --check-prefix=MATCH
//
// The static form (Inputs/recurrent-static.mlir: every attribute and
// optional operand, both layouts, activations with parameters), unrolled,
// then with max-unroll=3 (its 4-step sequences become scans, the 3-step
// RNN stays unrolled):
// RUN: strata-opt --graph-decompose-recurrent --mlir-pass-statistics %S/Inputs/recurrent-static.mlir -o %t.unrolled.mlir 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: FileCheck %s --check-prefix=UNROLL < %t.unrolled.mlir
// RUN: FileCheck %s --check-prefix=MM < %t.unrolled.mlir
// RUN: strata-opt --pass-pipeline='builtin.module(graph-decompose-recurrent{max-unroll=3})' %S/Inputs/recurrent-static.mlir | FileCheck %s --check-prefix=MAX3
//
// Each function's results, decomposed (interpreted) and compiled (graph
// mode, which decomposes in its pipeline), equal the interpreter's direct
// evaluation on the same random inputs:
// RUN: rm -rf %t.ref && mkdir -p %t.ref
// RUN: strata run %S/Inputs/recurrent-static.mlir --function lstm --output-dir %t.ref/lstm
// RUN: strata run %t.unrolled.mlir --function lstm --expect output_0=%t.ref/lstm/output_0.npy --expect output_1=%t.ref/lstm/output_1.npy --expect output_2=%t.ref/lstm/output_2.npy | FileCheck %s --check-prefix=MATCH3
// RUN: strata run %S/Inputs/recurrent-static.mlir --mode graph --function lstm --expect output_0=%t.ref/lstm/output_0.npy --expect output_1=%t.ref/lstm/output_1.npy --expect output_2=%t.ref/lstm/output_2.npy | FileCheck %s --check-prefix=MATCH3
// RUN: strata run %S/Inputs/recurrent-static.mlir --function gru --output-dir %t.ref/gru
// RUN: strata run %t.unrolled.mlir --function gru --expect output_0=%t.ref/gru/output_0.npy --expect output_1=%t.ref/gru/output_1.npy | FileCheck %s --check-prefix=MATCH2
// RUN: strata run %S/Inputs/recurrent-static.mlir --mode graph --function gru --expect output_0=%t.ref/gru/output_0.npy --expect output_1=%t.ref/gru/output_1.npy | FileCheck %s --check-prefix=MATCH2
// RUN: strata run %S/Inputs/recurrent-static.mlir --function gru_lbr --output-dir %t.ref/gru_lbr
// RUN: strata run %t.unrolled.mlir --function gru_lbr --expect output_0=%t.ref/gru_lbr/output_0.npy --expect output_1=%t.ref/gru_lbr/output_1.npy | FileCheck %s --check-prefix=MATCH2
// RUN: strata run %S/Inputs/recurrent-static.mlir --mode graph --function gru_lbr --expect output_0=%t.ref/gru_lbr/output_0.npy --expect output_1=%t.ref/gru_lbr/output_1.npy | FileCheck %s --check-prefix=MATCH2
// RUN: strata run %S/Inputs/recurrent-static.mlir --function rnn --output-dir %t.ref/rnn
// RUN: strata run %t.unrolled.mlir --function rnn --expect output_0=%t.ref/rnn/output_0.npy --expect output_1=%t.ref/rnn/output_1.npy | FileCheck %s --check-prefix=MATCH2
// RUN: strata run %S/Inputs/recurrent-static.mlir --mode graph --function rnn --expect output_0=%t.ref/rnn/output_0.npy --expect output_1=%t.ref/rnn/output_1.npy | FileCheck %s --check-prefix=MATCH2
//
// Weights of dynamic sizes are not decomposed, and say so at the op:
// RUN: not strata-opt --graph-decompose-recurrent %s 2>&1 | FileCheck %s --check-prefix=ERR

// The LSTM's forward direction carries h and c and scans the steps of
// X Wᵀ and their indices (for sequence_lens); its reverse direction and
// the GRU's scan from the end; the RNN carries one state.
// SCAN-LABEL: func.func @main(
// SCAN-NOT: graph.lstm
// SCAN: graph.scan(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {num_scan_inputs = 2 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x?x16xf32>, tensor<?xi64>)
// SCAN-NEXT: ^bb0(%[[H:.*]]: tensor<?x4xf32>, %[[C:.*]]: tensor<?x4xf32>, %[[XT:.*]]: tensor<?x16xf32>, %[[T:.*]]: tensor<i64>):
// SCAN: graph.matmul %[[H]]
// SCAN: graph.less %[[T]]
// SCAN: graph.yield
// SCAN: graph.scan({{.*}}) {num_scan_inputs = 2 : i64, scan_input_directions = array<i64: 1, 1>, scan_output_directions = array<i64: 1>}
// SCAN: graph.scan({{.*}}) {num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 1>, scan_output_directions = array<i64: 1>}
// SCAN: graph.scan(%{{.*}}, %{{.*}}) {num_scan_inputs = 1 : i64} : (tensor<?x4xf32>, tensor<?x?x4xf32>)
// SCAN-NOT: graph.gru
// SCAN-NOT: graph.rnn
// SCAN: return

// MATCH-NOT: does not match
// MATCH: lstm_y: matches
// MATCH-NEXT: lstm_h: matches
// MATCH-NEXT: lstm_c: matches
// MATCH-NEXT: gru_y: matches
// MATCH-NEXT: gru_h: matches
// MATCH-NEXT: rnn_y: matches

// STATS: GraphDecomposeRecurrent
// STATS-NEXT: (S) 4 num-decomposed - Number of recurrent ops decomposed

// Unrolled: one X Wᵀ product per direction, then a product with Rᵀ per
// step (4 steps of 2 directions for the LSTM), gates by slices, the
// batch-first layout by transposes, sequence lengths by graph.where.
// UNROLL-LABEL: func.func @lstm(
// UNROLL: graph.transpose %arg0 {perm = array<i64: 1, 0, 2>} : (tensor<3x4x5xf32>) -> tensor<4x3x5xf32>
// UNROLL: graph.hard_sigmoid %{{.*}} {alpha = 3.000000e-01 : f64, beta = 4.000000e-01 : f64}
// UNROLL: graph.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f64}
// UNROLL: graph.where
// UNROLL: graph.sigmoid
// UNROLL: graph.elu %{{.*}} {alpha = 5.000000e-01 : f64}
// UNROLL: graph.transpose %{{.*}} {perm = array<i64: 2, 0, 1, 3>} : (tensor<4x2x3x3xf32>) -> tensor<3x4x2x3xf32>
// UNROLL-LABEL: func.func @gru(
// UNROLL: graph.softplus
// UNROLL-LABEL: func.func @gru_lbr(
// UNROLL-LABEL: func.func @rnn(
// UNROLL-NOT: graph.scan
// UNROLL-NOT: graph.rnn
// UNROLL: return

// MM-LABEL: func.func @lstm(
// MM-COUNT-10: graph.matmul
// MM-NOT: graph.matmul
// MM-LABEL: func.func @gru(

// MAX3-LABEL: func.func @lstm(
// MAX3-COUNT-2: graph.scan
// MAX3-LABEL: func.func @gru(
// MAX3-COUNT-1: graph.scan
// MAX3-LABEL: func.func @gru_lbr(
// MAX3-COUNT-2: graph.scan
// MAX3-LABEL: func.func @rnn(
// MAX3-NOT: graph.scan
// MAX3: return

// MATCH3-NOT: does not match
// MATCH3: output_0: matches
// MATCH3-NEXT: output_1: matches
// MATCH3-NEXT: output_2: matches
// MATCH2-NOT: does not match
// MATCH2: output_0: matches
// MATCH2-NEXT: output_1: matches

// ERR: graph-decompose-recurrent.mlir:[[# @LINE + 2]]:13: error: 'graph.rnn' op is decomposed only with a 3-D 'w' of static sizes
func.func @dynamic_weights(%x: tensor<2x1x3xf32>, %w: tensor<1x?x3xf32>, %r: tensor<1x2x2xf32>) -> tensor<2x1x1x2xf32> {
  %y, %yh = graph.rnn %x, %w, %r {hidden_size = 2 : i64} : (tensor<2x1x3xf32>, tensor<1x?x3xf32>, tensor<1x2x2xf32>) -> (tensor<2x1x1x2xf32>, tensor<1x1x2xf32>)
  return %y : tensor<2x1x1x2xf32>
}
