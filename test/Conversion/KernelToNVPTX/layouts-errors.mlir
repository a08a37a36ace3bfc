// REQUIRES: strata-opt
// A layout a kernel op gives convert-kernel-to-nvptx must be a
// #nvptx.blocked layout that fits the block (its warps) and the tile (its
// rank; sizePerThread divides it), and a store that reads a tile held in
// registers must take that tile's layout: each is a located error. The
// layout's own rules (32 lanes a warp, powers of two, an order that is a
// permutation) are checked when it is parsed.
// RUN: not strata-opt %s --split-input-file --convert-kernel-to-nvptx 2>&1 | FileCheck %s

// A given layout must fit the block and the tile.
kernel.func @warps(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
  %r = range 0, 256 : tensor<256xi32>
  %v = arith.constant dense<1.0> : tensor<256xf32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<256x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<256x!kernel.ptr<f32>>, tensor<256xi32>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has a layout that spreads over 2 warps, the block has 4
  store %po, %v {nvptx.layout = #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>} : tensor<256x!kernel.ptr<f32>>
  return
}

// -----

kernel.func @divides(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r = range 0, 12 : tensor<12xi32>
  %v = arith.constant dense<1.0> : tensor<12xf32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<12x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<12x!kernel.ptr<f32>>, tensor<12xi32>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has a layout that sizePerThread[0] = 8 does not divide the tile's dimension 0 (12)
  store %po, %v {nvptx.layout = #nvptx.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>} : tensor<12x!kernel.ptr<f32>>
  return
}

// -----

kernel.func @rank(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r = range 0, 12 : tensor<12xi32>
  %v = arith.constant dense<1.0> : tensor<12xf32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<12x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<12x!kernel.ptr<f32>>, tensor<12xi32>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has a layout that has rank 2, the tile has rank 1
  store %po, %v {nvptx.layout = #nvptx.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>} : tensor<12x!kernel.ptr<f32>>
  return
}

// -----

kernel.func @not_blocked(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r = range 0, 12 : tensor<12xi32>
  %v = arith.constant dense<1.0> : tensor<12xf32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<12x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<12x!kernel.ptr<f32>>, tensor<12xi32>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has a layout that is not a #nvptx.blocked layout
  store %po, %v {nvptx.layout = 4 : i32} : tensor<12x!kernel.ptr<f32>>
  return
}

// -----

// The layout's own rules are checked when it is parsed.
kernel.func @lanes(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r = range 0, 12 : tensor<12xi32>
  %v = arith.constant dense<1.0> : tensor<12xf32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<12x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<12x!kernel.ptr<f32>>, tensor<12xi32>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: threadsPerWarp must multiply to 32, got 16
  store %po, %v {nvptx.layout = #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]}>} : tensor<12x!kernel.ptr<f32>>
  return
}

// -----

// A store that reads a tile held in registers in another layout than the
// loop's.
kernel.func @mismatch(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zero) -> (tensor<64xf32>) : i32 {
    scf.yield %a : tensor<64xf32>
  }
  %r = range 0, 64 : tensor<64xi32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op reads a loop-carried tile in layout #nvptx.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>, but the loop holds it in #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
  store %po, %acc {nvptx.layout = #nvptx.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>} : tensor<64x!kernel.ptr<f32>>
  return
}
