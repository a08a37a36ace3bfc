// convert-tensor-to-kernel, contraction form: a matmul (with its epilogue,
// after tensor-fuse) becomes a kernel on a 2-D grid of output tiles of
// block-m x block-n (64 x 64 by default, shrunk to the next power of two of M and N), with an
// scf.for over K in steps of block-k carrying the accumulator through
// kernel.dot; the masked loads fill with zero, the epilogue (bias, relu)
// works on the accumulator and one masked store writes the tile. A batched
// matmul gets a 3-D grid, the batch on z.
// REQUIRES: strata-opt
// RUN: strata-opt '--pass-pipeline=builtin.module(tensor-fuse,convert-tensor-to-kernel)' %s --split-input-file | FileCheck %s
// RUN: strata-opt '--pass-pipeline=builtin.module(tensor-fuse,convert-tensor-to-kernel{block-m=16 block-n=64 block-k=8})' %s --split-input-file | FileCheck %s --check-prefix=TILES

// CHECK-LABEL: func.func @mm(
// CHECK:         %[[GM:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[GN:.*]] = arith.constant 1 : index
// CHECK-NEXT:    kernel.launch @mm_0_contract grid(%[[GM]], %[[GN]]) (%arg0, %arg1, %arg2, %{{.*}}) : memref<5x100xf32>, memref<100x40xf32>, memref<40xf32>, memref<5x40xf32>
// CHECK-LABEL: kernel.func @mm_0_contract(
// CHECK-SAME:    attributes {grid = 2 : i32, num_warps = 4 : i32}
// CHECK-NEXT:    program_id x : i32
// CHECK-NEXT:    program_id y : i32
// CHECK:         %[[K:.*]] = arith.constant 100 : i32
// CHECK-NOT:     scf.for
// CHECK:         %[[ZERO:.*]] = splat %{{.*}} : f32 -> tensor<8x64xf32>
// CHECK:         %[[ACC:.*]] = scf.for %[[K0:[a-z0-9]+]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[A0:.*]] = %[[ZERO]]) -> (tensor<8x64xf32>)  : i32 {
// CHECK:           %[[AT:.*]] = kernel.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x64x!kernel.ptr<f32>>
// CHECK:           %[[BT:.*]] = kernel.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!kernel.ptr<f32>>
// CHECK-NEXT:      %[[D:.*]] = kernel.dot %[[AT]], %[[BT]], %[[A0]] : tensor<8x64xf32> * tensor<64x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT:      scf.yield %[[D]] : tensor<8x64xf32>
// CHECK-NEXT:    }
// The epilogue: bias (a row of 32 read at the tile's columns) and relu.
// CHECK:         %[[BIAS:.*]] = load %{{.*}}, %{{.*}} : tensor<8x64x!kernel.ptr<f32>>
// CHECK-NEXT:    %[[Z:.*]] = arith.addf %[[ACC]], %[[BIAS]] : tensor<8x64xf32>
// CHECK:         %[[RELU:.*]] = arith.maximumf %[[Z]], %{{.*}} : tensor<8x64xf32>
// CHECK:         store %{{.*}}, %[[RELU]], %{{.*}} : tensor<8x64x!kernel.ptr<f32>>
// CHECK-NEXT:    return

// CHECK-LABEL: func.func @bmm(
// CHECK:         kernel.launch @bmm_0_contract grid(%{{.*}}, %{{.*}}, %{{.*}}) (%arg0, %arg1, %{{.*}})
// CHECK-LABEL: kernel.func @bmm_0_contract(
// CHECK-SAME:    attributes {grid = 3 : i32
// CHECK:         program_id z : i32
// CHECK:         scf.for
// CHECK:           kernel.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x64xf32> * tensor<64x64xf32> -> tensor<32x64xf32>

// TILES-LABEL: kernel.func @mm_0_contract(
// TILES:         kernel.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x8xf32> * tensor<8x64xf32> -> tensor<8x64xf32>
// TILES-LABEL: kernel.func @bmm_0_contract(
// TILES:         kernel.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x8xf32> * tensor<8x64xf32> -> tensor<16x64xf32>

func.func @mm(%x: tensor<5x100xf32>, %w: tensor<100x40xf32>, %b: tensor<40xf32>) -> tensor<5x40xf32> {
  %mm = tensor.contract ins(%x, %w : tensor<5x100xf32>, tensor<100x40xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<5x40xf32>
  %y = tensor.map ins(%mm, %b : tensor<5x40xf32>, tensor<40xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%a: f32, %bias: f32):
    %z = arith.addf %a, %bias : f32
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %z, %zero : f32
    tensor.yield %relu : f32
  } : tensor<5x40xf32>
  return %y : tensor<5x40xf32>
}

// -----

func.func @bmm(%x: tensor<3x17x33xf32>, %w: tensor<3x33x65xf32>) -> tensor<3x17x65xf32> {
  %mm = tensor.contract ins(%x, %w : tensor<3x17x33xf32>, tensor<3x33x65xf32>) maps [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : tensor<3x17x65xf32>
  return %mm : tensor<3x17x65xf32>
}
