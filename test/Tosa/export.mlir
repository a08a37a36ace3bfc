// strata-translate --export=tosa: the example ONNX models, specialized to
// their inputs' shapes at the graph layer, written as TOSA; upstream MLIR
// verifies and validates what comes out, its own lowering (mlir-runner)
// computes what strata computes on that TOSA, and a second round trip
// TOSA -> graph -> TOSA gives the same text back.
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --stop-after graph --input x=%S/../../examples/onnx/mlp_input_x.npy -o %t.mlp.mlir
// RUN: strata-translate --export=tosa %t.mlp.mlir -o %t.mlp.tosa.mlir
// RUN: FileCheck %s --check-prefix=MLP --input-file=%t.mlp.tosa.mlir
// RUN: mlir-opt --tosa-attach-target=level=none --tosa-validate %t.mlp.tosa.mlir -o /dev/null
// RUN: python3 %S/../../scripts/tosa-oracle %t.mlp.tosa.mlir | FileCheck %s --check-prefix=ORACLE
// RUN: strata import %t.mlp.tosa.mlir -o %t.mlp.g2.mlir
// RUN: strata-translate --export=tosa %t.mlp.g2.mlir -o %t.mlp.tosa2.mlir
// RUN: strata import %t.mlp.tosa2.mlir -o %t.mlp.g3.mlir
// RUN: strata-translate --export=tosa %t.mlp.g3.mlir -o %t.mlp.tosa3.mlir
// RUN: diff %t.mlp.tosa2.mlir %t.mlp.tosa3.mlir
//
// The convnet: NCHW convolutions transposed around TOSA's NHWC ones.
// RUN: strata compile %S/../../examples/onnx/convnet.onnx --stop-after graph --input x=%S/../../examples/onnx/convnet_input_x.npy -o %t.conv.mlir
// RUN: strata-translate --export=tosa %t.conv.mlir -o %t.conv.tosa.mlir
// RUN: FileCheck %s --check-prefix=CONV --input-file=%t.conv.tosa.mlir
// RUN: mlir-opt --tosa-attach-target=level=none --tosa-validate %t.conv.tosa.mlir -o /dev/null
// RUN: python3 %S/../../scripts/tosa-oracle %t.conv.tosa.mlir | FileCheck %s --check-prefix=ORACLE
// RUN: strata import %t.conv.tosa.mlir -o %t.conv.g2.mlir
// RUN: strata-translate --export=tosa %t.conv.g2.mlir -o %t.conv.tosa2.mlir
// RUN: strata import %t.conv.tosa2.mlir -o %t.conv.g3.mlir
// RUN: strata-translate --export=tosa %t.conv.g3.mlir -o %t.conv.tosa3.mlir
// RUN: diff %t.conv.tosa2.mlir %t.conv.tosa3.mlir
//
// The transformer encoder block: layer norm and softmax spelled out.
// RUN: strata compile %S/../../examples/onnx/encoder.onnx --stop-after graph --input x=%S/../../examples/onnx/encoder_input_x.npy -o %t.enc.mlir
// RUN: strata-translate --export=tosa %t.enc.mlir -o %t.enc.tosa.mlir
// RUN: FileCheck %s --check-prefix=ENC --input-file=%t.enc.tosa.mlir
// RUN: python3 %S/../../scripts/tosa-oracle %t.enc.tosa.mlir | FileCheck %s --check-prefix=ORACLE
// Imported back, the spelled-out softmax, GELU and layer norms are one
// graph op each again.
// RUN: strata import %t.enc.tosa.mlir | FileCheck %s --check-prefix=FUSED
// RUN: strata import %t.enc.tosa.mlir -o %t.enc.g2.mlir
// RUN: strata-translate --export=tosa %t.enc.g2.mlir -o %t.enc.tosa2.mlir
// RUN: strata import %t.enc.tosa2.mlir -o %t.enc.g3.mlir
// RUN: strata-translate --export=tosa %t.enc.g3.mlir -o %t.enc.tosa3.mlir
// RUN: diff %t.enc.tosa2.mlir %t.enc.tosa3.mlir
//
// What has no TOSA form is an error at the graph op; so is a dynamic shape.
// RUN: not strata-translate --export=tosa %S/Inputs/no-tosa.mlir 2>&1 | FileCheck %s --check-prefix=NOFORM
// RUN: strata import %S/../../examples/onnx/mlp.onnx -o %t.dynamic.mlir
// RUN: not strata-translate --export=tosa %t.dynamic.mlir 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// MLP: func.func @main(%arg0: tensor<4x16xf32>)
// MLP: tosa.matmul
// MLP: tosa.clamp
// MLP: tosa.reduce_max
// MLP: tosa.exp
// MLP: tosa.reciprocal

// CONV: tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>}
// CONV: tosa.conv2d
// CONV: tosa.transpose {{.*}} {perms = array<i32: 0, 3, 1, 2>}

// ENC-DAG: tosa.rsqrt
// ENC-DAG: tosa.matmul
// ENC-DAG: tosa.reduce_max

// FUSED-DAG: graph.softmax {{.*}} {axis = 3 : i64}
// FUSED-DAG: graph.gelu
// FUSED-DAG: graph.layer_norm
// FUSED-DAG: graph.layer_norm
// FUSED-NOT: graph.erf
// FUSED-NOT: graph.reduce_max
// FUSED-NOT: graph.rsqrt

// ORACLE: eager: output_0: matches upstream MLIR
// ORACLE: graph: output_0: matches upstream MLIR

// NOFORM: no-tosa.mlir:3:8: error: 'graph.gather_elements': 'graph.gather_elements' has no TOSA form in the exporter

// DYNAMIC: error: 'func.func': tensor<?x16xf32, #graph.dims<batch>> has a dynamic dim: export needs static shapes
