// Activations with parameters (Inputs/recurrent-activations.py): ONNX lists
// `activation_alpha` / `activation_beta` only for the activations that take
// them, consumed in order; the graph ops hold one value per activation, the
// activation's default where it takes none. Eagerly and in graph mode the
// results match onnxruntime's.
// RUN: strata import %S/Inputs/recurrent-activations.onnx | FileCheck %s
// RUN: strata run %S/Inputs/recurrent-activations.onnx --input x=%S/Inputs/recurrent-activations-x.npy --expect lstm_y=%S/Inputs/recurrent-activations-lstm_y.npy --expect gru_y=%S/Inputs/recurrent-activations-gru_y.npy --expect gru_h=%S/Inputs/recurrent-activations-gru_h.npy --expect rnn_y=%S/Inputs/recurrent-activations-rnn_y.npy | FileCheck %s --check-prefix=EVAL
// RUN: strata run %S/Inputs/recurrent-activations.onnx --mode graph --input x=%S/Inputs/recurrent-activations-x.npy --expect lstm_y=%S/Inputs/recurrent-activations-lstm_y.npy --expect gru_y=%S/Inputs/recurrent-activations-gru_y.npy --expect gru_h=%S/Inputs/recurrent-activations-gru_h.npy --expect rnn_y=%S/Inputs/recurrent-activations-rnn_y.npy | FileCheck %s --check-prefix=EVAL

// LSTM: alpha [0.3, 0.15, 0.8] and beta [0.45, 1.2] for HardSigmoid,
// LeakyRelu (alpha only) and ScaledTanh. The values are ONNX's f32s.
// CHECK: graph.lstm %arg0, %{{.*}}, %{{.*}} bias %{{.*}} {activation_alpha = array<f64: 0.30000001192092896, 0.15000000596046448, 0.80000001192092896>, activation_beta = array<f64: 0.44999998807907104, 0.000000e+00, 1.2000000476837158>, activations = ["HardSigmoid", "LeakyRelu", "ScaledTanh"], clip = 2.000000e+00 : f64, hidden_size = 4 : i64}
// GRU, both directions: Sigmoid takes nothing (its defaults 1 and 0), Elu
// alpha only, HardSigmoid and Affine both.
// CHECK: graph.gru %arg0, %{{.*}}, %{{.*}} bias %{{.*}} {activation_alpha = array<f64: 1.000000e+00, 0.69999998807907104, 2.500000e-01, 5.000000e-01>, activation_beta = array<f64: 0.000000e+00, 0.000000e+00, 0.55000001192092896, 0.10000000149011612>, activations = ["Sigmoid", "Elu", "HardSigmoid", "Affine"], direction = "bidirectional", hidden_size = 4 : i64}
// CHECK: graph.rnn %arg0, %{{.*}}, %{{.*}} bias %{{.*}} {activation_alpha = array<f64: 0.05000000074505806>, activations = ["ThresholdedRelu"], hidden_size = 4 : i64}

// EVAL-NOT: does not match
// EVAL: lstm_y: matches
// EVAL-NEXT: gru_y: matches
// EVAL-NEXT: gru_h: matches
// EVAL-NEXT: rnn_y: matches
