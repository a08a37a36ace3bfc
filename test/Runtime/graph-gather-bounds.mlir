// Indices out of range are refused in graph mode exactly as in eager mode:
// the compiled plan checks a gather's indices (tensor.check_indices, a
// kernel.check_indices step) before the kernel reads with them, and the run
// stops with eager's message at the op, exit status 1. Never a clamped or
// wrapped row.
// RUN: strata run %s --function gather --input input_0=%S/Inputs/ids-2x3-ok.npy --mode graph --print | FileCheck %s --check-prefix=OK
// RUN: not strata run %s --function gather --input input_0=%S/Inputs/ids-2x3-bad.npy --mode eager 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not strata run %s --function gather --input input_0=%S/Inputs/ids-2x3-bad.npy --mode graph 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not strata run %s --function gather --input input_0=%S/Inputs/ids-2x3-huge.npy --mode eager 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not strata run %s --function gather --input input_0=%S/Inputs/ids-2x3-huge.npy --mode graph 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not strata run %s --function gather --input input_0=%S/Inputs/ids-2x3-neg.npy --mode eager 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not strata run %s --function gather --input input_0=%S/Inputs/ids-2x3-neg.npy --mode graph 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not strata run %s --function elements --input input_0=%S/Inputs/ids-2x4-i32-bad.npy --mode eager 2>&1 | FileCheck %s --check-prefix=ELEM
// RUN: not strata run %s --function elements --input input_0=%S/Inputs/ids-2x4-i32-bad.npy --mode graph 2>&1 | FileCheck %s --check-prefix=ELEM
// RUN: not strata run %s --function nd --input input_0=%S/Inputs/ids-3x2-nd-bad.npy --mode eager 2>&1 | FileCheck %s --check-prefix=ND
// RUN: not strata run %s --function nd --input input_0=%S/Inputs/ids-3x2-nd-bad.npy --mode graph 2>&1 | FileCheck %s --check-prefix=ND

// OK: output_0: f32 [2, 3, 4]
// OK-NEXT: {{\[\[\[}}0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], {{\[\[}}8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0], [8.0, 9.0, 10.0, 11.0]]]
// BIG: graph-gather-bounds.mlir:[[@LINE+6]]:8: error: 'graph.gather' op gather: invalid argument: index 1000000000 is out of range for dim 0 of size 3
// BIG-NOT: output_0
// HUGE: error: 'graph.gather' op gather: invalid argument: index 1099511627776 is out of range for dim 0 of size 3
// NEG: error: 'graph.gather' op gather: invalid argument: index -4 is out of range for dim 0 of size 3
func.func @gather(%ids: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %w = graph.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %y = graph.gather %w[%ids] : (tensor<3x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// ELEM: error: 'graph.gather_elements' op gather_elements: invalid argument: index -5 is out of range for dimension 1 of size 4
func.func @elements(%ids: tensor<2x4xi32>) -> tensor<2x4xf32> {
  %x = graph.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]> : tensor<2x4xf32>
  %y = graph.gather_elements %x[%ids] {axis = 1 : i64} : (tensor<2x4xf32>, tensor<2x4xi32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// The entries of gather_nd's index tuples are checked against their own
// dimensions: 4 is out of range for dimension 1 (size 4), 3 is not for 0.
// ND: error: 'graph.gather_nd' op gather_nd: invalid argument: index 4 is out of range for dimension 1 of size 4
func.func @nd(%ids: tensor<3x2xi64>) -> tensor<3xf32> {
  %x = graph.constant dense<1.0> : tensor<4x4xf32>
  %y = graph.gather_nd %x[%ids] : (tensor<4x4xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
