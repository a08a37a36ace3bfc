// What convert-graph-to-tensor rejects: each op that does not lower is
// reported at its location, all of them, and the IR is left unchanged.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s --split-input-file --verify-diagnostics

func.func @unlowerable(%x: tensor<4x16xf32>, %a: tensor<i64>) -> (tensor<4x16xf32>, tensor<1x1xf32>) {
  // expected-error @+1 {{'graph.cumsum' op cannot be lowered to tensor yet}}
  %0 = graph.cumsum %x, %a : (tensor<4x16xf32>, tensor<i64>) -> tensor<4x16xf32>
  // expected-error @+1 {{'graph.reduce_log_sum_exp' op cannot be lowered to tensor yet}}
  %1 = graph.reduce_log_sum_exp %x : (tensor<4x16xf32>) -> tensor<1x1xf32>
  %2 = graph.exp %0 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2, %1 : tensor<4x16xf32>, tensor<1x1xf32>
}

// -----

func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'graph.exp' op has a dynamic shape ('tensor<?x4xf32>'): convert-graph-to-tensor needs static shapes}}
  %0 = graph.exp %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @unsigned(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{'graph.neg' op has element type 'ui8': the tensor lowering takes floats and signless integers}}
  %0 = graph.neg %x : (tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @axes_not_constant(%x: tensor<4x16xf32>, %axes: tensor<1xi64>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op has axes that are not a constant}}
  %0 = graph.reduce_sum %x axes %axes : (tensor<4x16xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @pad_mode(%x: tensor<4xf32>) -> tensor<6xf32> {
  %pads = graph.constant dense<[1, 1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.pad' op has a mode other than 'constant', which cannot be lowered to tensor yet}}
  %0 = graph.pad %x, %pads {mode = "edge"} : (tensor<4xf32>, tensor<2xi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
