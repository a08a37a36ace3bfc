// Import errors: every unsupported op type at once with its nodes; a file
// that is not an ONNX model; a missing file; an unresolved shape under
// --verify-shapes, named by its node. Each exits with status 1.
// RUN: not strata import %S/Inputs/unsupported.onnx 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: head -c 300 %S/../../examples/onnx/mlp.onnx > %t.onnx
// RUN: not strata import %t.onnx 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not strata import %t.missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not strata import %S/Inputs/dynamic-reshape.onnx --verify-shapes 2>&1 | FileCheck %s --check-prefix=UNRESOLVED

// OPS: unsupported.onnx: unsupported ONNX ops: Einsum (node mix/Einsum); TopK (node top/TopK, top2/TopK)
// TRUNCATED: .onnx: not a valid ONNX model: failed to decode Protobuf message
// MISSING: .missing.onnx: No such file or directory
// UNRESOLVED: dynamic-reshape.onnx: node 'bad/Reshape': error: 'graph.reshape' op result #0 has an unresolved shape [?, ?]
