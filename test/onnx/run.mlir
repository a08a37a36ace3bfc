// strata run on ONNX models: outputs go to DIR/<output name>.npy and are
// summarized; an input given by a name the model does not have, or a shape
// error at run time, is a located error.
// RUN: rm -rf %t && strata run %S/../../examples/onnx/mlp.onnx --mode eager --input x=%S/../../examples/onnx/mlp_input_x.npy --output-dir %t --expect probs=%S/../../examples/onnx/mlp_expected_probs.npy | FileCheck %s
// RUN: test -f %t/probs.npy
// The written output reads back as the same values, exactly:
// RUN: strata run %S/../../examples/onnx/mlp.onnx --input x=%S/../../examples/onnx/mlp_input_x.npy --expect probs=%t/probs.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=SAME
// onnxruntime's output differs in the last bits, so an exact comparison fails:
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --input x=%S/../../examples/onnx/mlp_input_x.npy --expect probs=%S/../../examples/onnx/mlp_expected_probs.npy --rtol 0 --atol 0 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --expect y=%t/probs.npy 2>&1 | FileCheck %s --check-prefix=BADEXPECT
// RUN: strata run %S/../../examples/onnx/encoder.onnx --dim batch=2 --dim seq=3 | FileCheck %s --check-prefix=RANDOM
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --input y=%S/../../examples/onnx/mlp_input_x.npy 2>&1 | FileCheck %s --check-prefix=BADNAME
// RUN: not strata run %S/Inputs/dynamic-reshape.onnx --input x=%S/Inputs/x-3x4.npy --input s=%S/Inputs/shape-5-5.npy 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --mode fast 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: strata run %S/../../examples/onnx/mlp.onnx --mode graph --input x=%S/../../examples/onnx/mlp_input_x.npy --expect probs=%S/../../examples/onnx/mlp_expected_probs.npy | FileCheck %s --check-prefix=GRAPH
// RUN: strata run %S/../../examples/onnx/encoder.onnx --mode graph --threads 2 --input x=%S/../../examples/onnx/encoder_input_x.npy --expect y=%S/../../examples/onnx/encoder_expected_y.npy | FileCheck %s --check-prefix=GRAPH-ENC
// RUN: not strata run %S/Inputs/dynamic-reshape.onnx --mode graph --input x=%S/Inputs/x-3x4.npy --input s=%S/Inputs/shape-5-5.npy 2>&1 | FileCheck %s --check-prefix=GRAPH-BAD

// CHECK: probs: f32 [4, 10]
// CHECK-NEXT: probs: matches {{.*}}mlp_expected_probs.npy (rtol 0.0001, atol 0.00001)
// SAME: probs: matches {{.*}}probs.npy (rtol 0, atol 0)
// EXACT: probs: does not match {{.*}}mlp_expected_probs.npy: {{[0-9]+}} of 40 elements differ (rtol 0, atol 0); worst at
// BADEXPECT: --expect 'y': the model has no such output (its outputs: probs)
// RANDOM: y: f32 [2, 3, 32]
// BADNAME: --input 'y': the model has no such input (its inputs: x)
// RUNTIME: dynamic-reshape.onnx: node 'bad/Reshape': error: 'graph.reshape' op reshape: shape mismatch: cannot reshape [3, 4] (12 elements) to [5, 5] (25 elements)
// MODE: unknown exe mode 'fast'; the modes are: eager, graph
// GRAPH: probs: f32 [4, 10]
// GRAPH-NEXT: probs: matches {{.*}}mlp_expected_probs.npy (rtol 0.0001, atol 0.00001)
// GRAPH-ENC: y: f32 [2, 8, 32]
// GRAPH-ENC-NEXT: y: matches {{.*}}encoder_expected_y.npy (rtol 0.0001, atol 0.00001)
// A shape computed from an input's values: graph mode compiles the values
// in (the target shape is then known, and wrong for this input).
// GRAPH-BAD: dynamic-reshape.onnx: note: compiled with the values of input(s) s as constants
// GRAPH-BAD-NEXT: dynamic-reshape.onnx: node 'bad/Reshape': error: 'graph.reshape' op cannot reshape [3, 4] (12 elements) into 25 elements
