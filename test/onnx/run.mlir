// strata run on ONNX models: outputs go to DIR/<output name>.npy and are
// summarized; an input given by a name the model does not have, or a shape
// error at run time, is a located error.
// RUN: rm -rf %t && strata run %S/../../examples/onnx/mlp.onnx --mode eager --input x=%S/../../examples/onnx/mlp_input_x.npy --output-dir %t | FileCheck %s
// RUN: test -f %t/probs.npy
// RUN: strata run %S/../../examples/onnx/encoder.onnx --dim batch=2 --dim seq=3 | FileCheck %s --check-prefix=RANDOM
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --input y=%S/../../examples/onnx/mlp_input_x.npy 2>&1 | FileCheck %s --check-prefix=BADNAME
// RUN: not strata run %S/Inputs/dynamic-reshape.onnx --input x=%S/Inputs/x-3x4.npy --input s=%S/Inputs/shape-5-5.npy 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --mode graph 2>&1 | FileCheck %s --check-prefix=MODE

// CHECK: probs: f32 [4, 10]
// RANDOM: y: f32 [2, 3, 32]
// BADNAME: --input 'y': the model has no such input (its inputs: x)
// RUNTIME: dynamic-reshape.onnx: node 'bad/Reshape': error: 'graph.reshape' op reshape: shape mismatch: cannot reshape [3, 4] (12 elements) to [5, 5] (25 elements)
// MODE: exe mode 'graph' is not available yet; the modes are: eager
