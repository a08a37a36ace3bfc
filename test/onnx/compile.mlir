// strata compile: a model lowered for the host and written at a layer.
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --dim batch=4 --stop-after graph | FileCheck %s --check-prefix=GRAPH
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --dim batch=4 --stop-after tensor | FileCheck %s --check-prefix=TENSOR
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --input x=%S/../../examples/onnx/mlp_input_x.npy | FileCheck %s --check-prefix=KERNEL
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --emit llvm-ir -o %t.ll && FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: strata compile %S/../../examples/onnx/encoder.onnx --dim batch=2 --dim seq=5 | FileCheck %s --check-prefix=ENC
// RUN: not strata compile %S/../../examples/onnx/mlp.onnx --stop-after host 2>&1 | FileCheck %s --check-prefix=HOST-MLIR
// RUN: not strata compile %S/../../examples/onnx/mlp.onnx --emit llvm-ir --stop-after tensor 2>&1 | FileCheck %s --check-prefix=LLVM-TENSOR
// RUN: not strata compile %S/../../examples/onnx/mlp.onnx --stop-after foo 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not strata compile %S/../../examples/onnx/mlp.onnx --target sm_75 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not strata compile %S/../../examples/onnx/mlp.onnx --emit bin 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not strata compile %S/Inputs/dynamic-reshape.onnx 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// GRAPH: func.func @main(%arg0: tensor<4x16xf32> {onnx.name = "x"}) -> (tensor<4x10xf32> {onnx.name = "probs"})
// GRAPH: graph.matmul
// GRAPH-NOT: tensor.map

// TENSOR: tensor.contract
// TENSOR: tensor.fusion
// TENSOR-NOT: graph.

// The example input is 4x16: the plan takes it; the products are library calls.
// KERNEL: func.func @main(%arg0: memref<4x16xf32>) -> memref<4x10xf32> attributes {kernel.arena_bytes =
// KERNEL: kernel.gemm %arg0,
// KERNEL: kernel.launch @main_0_map
// KERNEL: kernel.func @main_0_map(

// LLVM: define void @main_0_map(
// LLVM: define void @main_2_reduce(

// ENC: func.func @main(%arg0: memref<2x5x32xf32>) -> memref<2x5x32xf32>

// HOST-MLIR: --stop-after host: the host stage is LLVM IR; use --emit llvm-ir
// LLVM-TENSOR: --emit llvm-ir needs the host stage, not --stop-after tensor
// STAGE: --stop-after 'foo': expected one of: graph, tensor, kernel, host
// TARGET: --target 'sm_75': the targets are: host, sm_80, sm_90
// EMIT: --emit 'bin': expected mlir, llvm-ir, artifact or partition
// DYNAMIC: dynamic-reshape.onnx: node 'bad/Reshape': error: 'graph.reshape' op has a dynamic shape ('tensor<?x?xf32>'): convert-graph-to-tensor needs static shapes
// DYNAMIC-NEXT: note: the inputs have static shapes here
