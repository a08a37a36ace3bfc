// What convert-tensor-to-kernel rejects, at its location: dynamic shapes
// (the compiled plan is specialized per shape), an op that is not a tensor
// op (a graph op: convert-graph-to-tensor did not run), tile sizes that are
// not powers of two.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-tensor-to-kernel %s --split-input-file --verify-diagnostics
// RUN: not strata-opt --convert-tensor-to-kernel=block=3 %S/elementwise.mlir 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not strata-opt '--pass-pipeline=builtin.module(convert-tensor-to-kernel{block-m=48})' %S/elementwise.mlir 2>&1 | FileCheck %s --check-prefix=BLOCKM
// RUN: not strata-opt --convert-tensor-to-kernel=block-k=0 %S/elementwise.mlir 2>&1 | FileCheck %s --check-prefix=BLOCKK
// RUN: not strata-opt --convert-tensor-to-kernel=block=x %S/elementwise.mlir 2>&1 | FileCheck %s --check-prefix=NOTINT

// BLOCK: error: 'builtin.module' op option 'block' must be a power of two, got 3
// BLOCKM: error: 'builtin.module' op option 'block-m' must be a power of two, got 48
// BLOCKK: error: 'builtin.module' op option 'block-k' must be a power of two, got 0
// NOTINT: for the --block option: 'x' value invalid

// expected-error @+2 {{'func.func' op input #0: the compiled plan needs static tensor types, got 'tensor<?x4xf32>' (specialize the shapes first)}}
// expected-error @+1 {{'func.func' op result #0: the compiled plan needs static tensor types, got 'tensor<?x4xf32>' (specialize the shapes first)}}
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

func.func @graph_left(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.exp' op cannot be lowered to kernels (is convert-graph-to-tensor missing from the pipeline?)}}
  %y = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'graph.relu' op cannot be lowered to kernels}}
  %z = graph.relu %y : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op input #1: the compiled plan needs static tensor types, got 'f32'}}
func.func @scalar_input(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// A scalar constant is fine (bodies read it); scalar arithmetic is not.
func.func @scalar_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.constant 1.0 : f32
  // expected-error @+1 {{'arith.addf' op cannot be lowered to kernels}}
  %t = arith.addf %s, %s : f32
  return %x : tensor<4xf32>
}
