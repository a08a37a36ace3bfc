// REQUIRES: strata-opt
// A layout on a tile type must be an #nvptx.blocked or #nvptx.mma layout that
// fits the block (its warps) and the tile (its rank; sizePerThread divides
// it); a tile the block materializes (a store's) is in a blocked one; an MMA
// layout a loop carries is one a dot on mma_sync accumulates in; the
// attributes that carried layouts before they were on types are refused. Each
// is a located error. The layout's own rules (32 lanes a warp, powers of two,
// an order that is a permutation) are checked when it is parsed.
// RUN: not strata-opt %s --split-input-file --convert-kernel-to-nvptx 2>&1 | FileCheck %s

// A given layout must fit the block and the tile.
#l = #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
kernel.func @warps(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
  %r = range 0, 256 : tensor<256xi32, #l>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<256x!kernel.ptr<f32>, #l>
  %po = addptr %ps, %r : tensor<256x!kernel.ptr<f32>, #l>, tensor<256xi32, #l>
  %v = load %po : tensor<256x!kernel.ptr<f32>, #l>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has a tile whose layout spreads over 2 warps, the block has 4
  store %po, %v : tensor<256x!kernel.ptr<f32>, #l>
  return
}

// -----

#l = #nvptx.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
kernel.func @divides(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r = range 0, 12 : tensor<12xi32, #l>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<12x!kernel.ptr<f32>, #l>
  %po = addptr %ps, %r : tensor<12x!kernel.ptr<f32>, #l>, tensor<12xi32, #l>
  %v = load %po : tensor<12x!kernel.ptr<f32>, #l>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has a tile whose layout sizePerThread[0] = 8 does not divide the tile's dimension 0 (12)
  store %po, %v : tensor<12x!kernel.ptr<f32>, #l>
  return
}

// -----

#l = #nvptx.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
kernel.func @rank(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r = range 0, 12 : tensor<12xi32, #l>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<12x!kernel.ptr<f32>, #l>
  %po = addptr %ps, %r : tensor<12x!kernel.ptr<f32>, #l>, tensor<12xi32, #l>
  %v = load %po : tensor<12x!kernel.ptr<f32>, #l>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has a tile whose layout has rank 2, the tile has rank 1
  store %po, %v : tensor<12x!kernel.ptr<f32>, #l>
  return
}

// -----

#l = 4 : i32
kernel.func @not_nvptx(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r = range 0, 12 : tensor<12xi32, #l>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<12x!kernel.ptr<f32>, #l>
  %po = addptr %ps, %r : tensor<12x!kernel.ptr<f32>, #l>, tensor<12xi32, #l>
  %v = load %po : tensor<12x!kernel.ptr<f32>, #l>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has a tile whose encoding is not an #nvptx.blocked or #nvptx.mma layout
  store %po, %v : tensor<12x!kernel.ptr<f32>, #l>
  return
}

// -----

// A store deals its tile out in a blocked layout.
#l = #nvptx.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
kernel.func @mma_store(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
  %r = range 0, 256 : tensor<256xi32, #l>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<256x!kernel.ptr<f32>, #l>
  %po = addptr %ps, %r : tensor<256x!kernel.ptr<f32>, #l>, tensor<256xi32, #l>
  %v = load %po : tensor<256x!kernel.ptr<f32>, #l>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op materializes a tile in an MMA layout (convert it to a blocked layout first)
  store %po, %v : tensor<256x!kernel.ptr<f32>, #l>
  return
}

// -----

// The layout's own rules are checked when it is parsed.
// CHECK: layouts-errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: threadsPerWarp must multiply to 32, got 16
#l = #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]}>
kernel.func @lanes(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  return
}

// -----

// An MMA layout a loop carries must be one its dot runs on mma_sync in: on a
// grid of warps that divides the accumulator's 16x8 tiles (32x32: 2x4 tiles;
// 4x1 warps do not divide 2).
#mma = #nvptx.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
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
    %acc0 = splat %zero : f32 -> tensor<32x32xf32, #mma>
    // CHECK: layouts-errors.mlir:[[@LINE+1]]:12: error: 'scf.for' op carries a tile in layout #nvptx.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, but no dot on mma_sync accumulates it in that layout
    %acc = scf.for %k0 = %c0 to %kk step %bk iter_args(%x = %acc0) -> (tensor<32x32xf32, #mma>) : i32 {
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
      %d = kernel.dot %ta, %tb, %x : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32, #mma>
      scf.yield %d : tensor<32x32xf32, #mma>
    }
    %accb = convert_layout %acc : tensor<32x32xf32, #mma> -> tensor<32x32xf32>
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
    store %pco, %accb : tensor<32x32x!kernel.ptr<f32>>
    return
  }
}

// -----

// Layouts were once attributes of the ops; they are on the tile types now.
kernel.func @attribute(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
  %r = range 0, 64 : tensor<64xi32>
  %ps = splat %p : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %po = addptr %ps, %r : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %v = load %po : tensor<64x!kernel.ptr<f32>>
  // CHECK: layouts-errors.mlir:[[@LINE+1]]:3: error: 'kernel.store' op has nvptx.layout: layouts are given on tile types now (tensor<..., #nvptx.blocked<...>>)
  store %po, %v {nvptx.layout = #nvptx.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>} : tensor<64x!kernel.ptr<f32>>
  return
}
