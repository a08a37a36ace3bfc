// REQUIRES: strata-opt
// convert-kernel-to-nvptx: what it does not lower yet is a located error;
// so are bad options.
// RUN: not strata-opt %s --split-input-file --convert-kernel-to-nvptx 2>&1 | FileCheck %s
// RUN: not strata-opt %s --convert-kernel-to-nvptx=sm=75 2>&1 | FileCheck %s --check-prefix=SM
// RUN: not strata-opt %s --convert-kernel-to-nvptx=num-warps=3 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not strata-opt %s --convert-kernel-to-nvptx=ptx=75 2>&1 | FileCheck %s --check-prefix=PTX

kernel.func @table(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: 'arith.constant' op is a constant tile of distinct values (not lowered to nvptx yet)
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = range 0, 4 : tensor<4xi32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<4x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<4x!kernel.ptr<f32>>, tensor<4xi32>
  store %po, %t : tensor<4x!kernel.ptr<f32>>
  return
}

// SM: error: 'builtin.module' op convert-kernel-to-nvptx: sm 75: expected 80 or 90
// WARPS: error: 'builtin.module' op convert-kernel-to-nvptx: num-warps 3: expected a power of two from 1 to 32 (or 0)
// PTX: error: 'builtin.module' op convert-kernel-to-nvptx: ptx 75: expected 78 to 88 for sm_90 (major * 10 + minor)

// -----

// A buffer past 2^31 elements: the GPU form's offsets are 32-bit.
func.func @huge(%a: memref<2147483648xf32>) {
  %c1 = arith.constant 1 : index
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'kernel.launch' op launches a kernel on a buffer of 2147483648 elements: the GPU form indexes buffers with 32-bit offsets (at most 2^31 - 1 elements)
  kernel.launch @touch grid(%c1) (%a) : memref<2147483648xf32>
  return
}
kernel.func @touch(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  return
}
