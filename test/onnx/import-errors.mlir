// Import errors: every unsupported op type at once with its nodes
// (Inputs/unsupported.py writes the model); a file
// that is not an ONNX model; a missing file; an unresolved shape under
// --verify-shapes, named by its node. Each exits with status 1.
// RUN: not strata import %S/Inputs/unsupported.onnx 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: head -c 300 %S/../../examples/onnx/mlp.onnx > %t.onnx
// RUN: not strata import %t.onnx 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not strata import %t.missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not strata import %S/Inputs/dynamic-reshape.onnx --verify-shapes 2>&1 | FileCheck %s --check-prefix=UNRESOLVED

// OPS: unsupported.onnx: unsupported ONNX ops: ai.onnx.ml:Imputer (node imp/Imputer); ai.onnx.ml:Normalizer (node norm/Normalizer, norm2/Normalizer)
// TRUNCATED: .onnx: not a valid ONNX model: failed to decode Protobuf message
// MISSING: .missing.onnx: No such file or directory
// UNRESOLVED: dynamic-reshape.onnx: node 'bad/Reshape': error: 'graph.reshape' op result #0 has an unresolved shape [?, ?]

// An initializer whose dimensions claim more bytes than exist is an error,
// not an overflow; an output that is an input (through Identity) keeps the
// input's type.
// RUN: not strata import %S/Inputs/bigdims.onnx 2>&1 | FileCheck %s --check-prefix=BIGDIMS
// RUN: strata import %S/Inputs/ident.onnx | FileCheck %s --check-prefix=IDENT
// BIGDIMS: bigdims.onnx: tensor 'w' of shape [4611686018427387904] should hold 4611686018427387904 elements but holds 0 bytes
// IDENT: func.func @main(%arg0: tensor<?xf32> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"})
