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

// -----

// A dot's layout is an MMA one, on a grid of warps that divides its
// accumulator's 16x8 tiles (32x32: 2x4 tiles; 4x1 warps do not divide 2).
module {
  kernel.func @bad_grid(%a: !kernel.ptr<f16>, %b: !kernel.ptr<f16>, %c: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %bk = arith.constant 32 : i32
    %kk = arith.constant 64 : i32
    %nn = arith.constant 32 : i32
    %zero = arith.constant 0.0 : f32
    %rm = range 0, 32 : tensor<32xi32>
    %rn = range 0, 32 : tensor<32xi32>
    %rk = range 0, 32 : tensor<32xi32>
    // A's offsets: row i, column j (of the K step): i * K + j.
    %ai = expand_dims %rm axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %aib = broadcast %ai : tensor<32x1xi32> -> tensor<32x32xi32>
    %aj = expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %ajb = broadcast %aj : tensor<1x32xi32> -> tensor<32x32xi32>
    %sk = splat %kk : i32 -> tensor<32x32xi32>
    %ar = arith.muli %aib, %sk : tensor<32x32xi32>
    %ao = arith.addi %ar, %ajb : tensor<32x32xi32>
    // B's offsets: row i (of the K step), column j: i * N + j.
    %bi = expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %bib = broadcast %bi : tensor<32x1xi32> -> tensor<32x32xi32>
    %bj = expand_dims %rn axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %bjb = broadcast %bj : tensor<1x32xi32> -> tensor<32x32xi32>
    %sn = splat %nn : i32 -> tensor<32x32xi32>
    %br = arith.muli %bib, %sn : tensor<32x32xi32>
    %bo = arith.addi %br, %bjb : tensor<32x32xi32>
    %acc0 = splat %zero : f32 -> tensor<32x32xf32>
    %acc = scf.for %k0 = %c0 to %kk step %bk iter_args(%x = %acc0) -> (tensor<32x32xf32>) : i32 {
      %sa = kernel.splat %k0 : i32 -> tensor<32x32xi32>
      %aok = arith.addi %ao, %sa : tensor<32x32xi32>
      %pa = kernel.splat %a : !kernel.ptr<f16> -> tensor<32x32x!kernel.ptr<f16>>
      %pak = kernel.addptr %pa, %aok : tensor<32x32x!kernel.ptr<f16>>, tensor<32x32xi32>
      %ta = kernel.load %pak : tensor<32x32x!kernel.ptr<f16>>
      %kn = arith.muli %k0, %nn : i32
      %sb = kernel.splat %kn : i32 -> tensor<32x32xi32>
      %bok = arith.addi %bo, %sb : tensor<32x32xi32>
      %pb = kernel.splat %b : !kernel.ptr<f16> -> tensor<32x32x!kernel.ptr<f16>>
      %pbk = kernel.addptr %pb, %bok : tensor<32x32x!kernel.ptr<f16>>, tensor<32x32xi32>
      %tb = kernel.load %pbk : tensor<32x32x!kernel.ptr<f16>>
      // CHECK: layouts-errors.mlir:[[@LINE+1]]:12: error: 'kernel.dot' op has layout #nvptx.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, but does not run on mma_sync with it
      %d = kernel.dot %ta, %tb, %x {nvptx.layout = #nvptx.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>} : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
      scf.yield %d : tensor<32x32xf32>
    }
    // C's offsets: i * N + j.
    %ci = expand_dims %rm axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %cib = broadcast %ci : tensor<32x1xi32> -> tensor<32x32xi32>
    %cj = expand_dims %rn axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %cjb = broadcast %cj : tensor<1x32xi32> -> tensor<32x32xi32>
    %scn = splat %nn : i32 -> tensor<32x32xi32>
    %cr = arith.muli %cib, %scn : tensor<32x32xi32>
    %co = arith.addi %cr, %cjb : tensor<32x32xi32>
    %pc = splat %c : !kernel.ptr<f32> -> tensor<32x32x!kernel.ptr<f32>>
    %pco = addptr %pc, %co : tensor<32x32x!kernel.ptr<f32>>, tensor<32x32xi32>
    store %pco, %acc : tensor<32x32x!kernel.ptr<f32>>
    return
  }
}

// -----

module {
  kernel.func @blocked_dot(%a: !kernel.ptr<f16>, %b: !kernel.ptr<f16>, %c: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %bk = arith.constant 32 : i32
    %kk = arith.constant 64 : i32
    %nn = arith.constant 32 : i32
    %zero = arith.constant 0.0 : f32
    %rm = range 0, 32 : tensor<32xi32>
    %rn = range 0, 32 : tensor<32xi32>
    %rk = range 0, 32 : tensor<32xi32>
    // A's offsets: row i, column j (of the K step): i * K + j.
    %ai = expand_dims %rm axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %aib = broadcast %ai : tensor<32x1xi32> -> tensor<32x32xi32>
    %aj = expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %ajb = broadcast %aj : tensor<1x32xi32> -> tensor<32x32xi32>
    %sk = splat %kk : i32 -> tensor<32x32xi32>
    %ar = arith.muli %aib, %sk : tensor<32x32xi32>
    %ao = arith.addi %ar, %ajb : tensor<32x32xi32>
    // B's offsets: row i (of the K step), column j: i * N + j.
    %bi = expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %bib = broadcast %bi : tensor<32x1xi32> -> tensor<32x32xi32>
    %bj = expand_dims %rn axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %bjb = broadcast %bj : tensor<1x32xi32> -> tensor<32x32xi32>
    %sn = splat %nn : i32 -> tensor<32x32xi32>
    %br = arith.muli %bib, %sn : tensor<32x32xi32>
    %bo = arith.addi %br, %bjb : tensor<32x32xi32>
    %acc0 = splat %zero : f32 -> tensor<32x32xf32>
    %acc = scf.for %k0 = %c0 to %kk step %bk iter_args(%x = %acc0) -> (tensor<32x32xf32>) : i32 {
      %sa = kernel.splat %k0 : i32 -> tensor<32x32xi32>
      %aok = arith.addi %ao, %sa : tensor<32x32xi32>
      %pa = kernel.splat %a : !kernel.ptr<f16> -> tensor<32x32x!kernel.ptr<f16>>
      %pak = kernel.addptr %pa, %aok : tensor<32x32x!kernel.ptr<f16>>, tensor<32x32xi32>
      %ta = kernel.load %pak : tensor<32x32x!kernel.ptr<f16>>
      %kn = arith.muli %k0, %nn : i32
      %sb = kernel.splat %kn : i32 -> tensor<32x32xi32>
      %bok = arith.addi %bo, %sb : tensor<32x32xi32>
      %pb = kernel.splat %b : !kernel.ptr<f16> -> tensor<32x32x!kernel.ptr<f16>>
      %pbk = kernel.addptr %pb, %bok : tensor<32x32x!kernel.ptr<f16>>, tensor<32x32xi32>
      %tb = kernel.load %pbk : tensor<32x32x!kernel.ptr<f16>>
      // CHECK: layouts-errors.mlir:[[@LINE+1]]:12: error: 'kernel.dot' op has a layout that is not a #nvptx.mma layout
      %d = kernel.dot %ta, %tb, %x {nvptx.layout = #nvptx.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>} : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
      scf.yield %d : tensor<32x32xf32>
    }
    // C's offsets: i * N + j.
    %ci = expand_dims %rm axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %cib = broadcast %ci : tensor<32x1xi32> -> tensor<32x32xi32>
    %cj = expand_dims %rn axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %cjb = broadcast %cj : tensor<1x32xi32> -> tensor<32x32xi32>
    %scn = splat %nn : i32 -> tensor<32x32xi32>
    %cr = arith.muli %cib, %scn : tensor<32x32xi32>
    %co = arith.addi %cr, %cjb : tensor<32x32xi32>
    %pc = splat %c : !kernel.ptr<f32> -> tensor<32x32x!kernel.ptr<f32>>
    %pco = addptr %pc, %co : tensor<32x32x!kernel.ptr<f32>>, tensor<32x32xi32>
    store %pco, %acc : tensor<32x32x!kernel.ptr<f32>>
    return
  }
}

// -----

// A loop's layouts are one per carried value, unit for a scalar.
kernel.func @count(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:12: error: 'scf.for' op has nvptx.layouts that is not an array of 2 layouts (one per carried value, unit for a scalar)
  %acc:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zero, %n = %c0) -> (tensor<64xf32>, i32) : i32 {
    scf.yield %a, %n : tensor<64xf32>, i32
  } {nvptx.layouts = [#nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>]}
  %r = range 0, 64 : tensor<64xi32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  store %po, %acc#0 : tensor<64x!kernel.ptr<f32>>
  return
}

// -----

kernel.func @scalar(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:12: error: 'scf.for' op has a layout for its scalar carried value #1 (its entry in nvptx.layouts must be unit)
  %acc:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zero, %n = %c0) -> (tensor<64xf32>, i32) : i32 {
    scf.yield %a, %n : tensor<64xf32>, i32
  } {nvptx.layouts = [unit, #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>]}
  %r = range 0, 64 : tensor<64xi32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  store %po, %acc#0 : tensor<64x!kernel.ptr<f32>>
  return
}
