// strata run --mode graph on bad input: an input of the wrong dtype or of a
// shape the model does not admit is an error naming the input, and an op that
// does not lower is reported at its node; all exit with status 1. Several
// ops that do not lower are all reported, as errors. Eager mode checks the
// inputs with the same words.
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --mode graph --input x=%S/Inputs/x-4x16-i64.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --mode graph --input x=%S/Inputs/x-3x4.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not strata run %S/Inputs/not-lowered.onnx --mode graph 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not strata run %S/Inputs/edge-values.onnx --mode graph 2>&1 | FileCheck %s --check-prefix=SEVERAL
// The same inputs in eager mode:
// RUN: not strata run %S/../../examples/onnx/mlp.onnx --mode eager --input x=%S/Inputs/x-4x16-i64.npy 2>&1 | FileCheck %s --check-prefix=EAGER

// DTYPE: mlp.onnx: error: input 'x' is i64 [4, 16], but the model takes f32 (tensor<?x16xf32, #graph.dims<batch>>)
// SHAPE: mlp.onnx: error: input 'x' has shape [3, 4], which the model's tensor<?x16xf32, #graph.dims<batch>> does not admit
// LOWER: not-lowered.onnx: node 'running/CumSum': error: 'graph.cumsum' op cannot be lowered to tensor yet
// SEVERAL: edge-values.onnx: node 'mod': error: 'graph.constant' op has element type 'ui64'
// SEVERAL-NEXT: edge-values.onnx: node 'dyn': error: 'graph.constant' op has element type 'ui8'
// EAGER: mlp.onnx: error: input 'x' is i64 [4, 16], but the model takes f32 (tensor<?x16xf32, #graph.dims<batch>>)
