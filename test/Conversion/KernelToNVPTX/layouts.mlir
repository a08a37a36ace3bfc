// REQUIRES: strata-opt, ptxas
// How a tile is dealt out to a block's threads is a blocked layout,
// #nvptx.blocked<{sizePerThread, threadsPerWarp, warpsPerCTA, order}> (as
// Triton's). convert-kernel-to-nvptx follows the layout a kernel op gives
// (`nvptx.layout` on a store or a block reduction, `nvptx.layouts` on a loop,
// one per carried value) and writes the one it chose where there is none, so
// the kernel IR after it says how every tile was distributed and converting
// it again gives the same GPU form. ptxas assembles every kernel.
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx | FileCheck %s
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx -o %t.once.mlir
// RUN: strata-opt %t.once.mlir --split-input-file --convert-kernel-to-nvptx -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: strata-translate --split-input-file --emit=ptx %t.once.mlir -o %t.ptx
// RUN: rm -f %t.split.*.ptx && awk -v out=%t.split 'BEGIN { n = 0 } /^\/\/ -----/ { n++; next } { print > (out "." n ".ptx") }' %t.ptx
// RUN: for f in %t.split.*.ptx; do %ptxas -arch=sm_90 $f -o %t.cubin || exit 1; done

// A given layout: a warp's lanes 16 down a column and 2 across, the 4 warps
// side by side along the rows; one layer covers 16x8 elements, so each thread
// holds four, 8 columns apart. The row is the lane's low 4 bits, the column
// the warp's 2 and the lane's high bit.
// CHECK: store {{.*}} {nvptx.layout = #nvptx.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>} : tensor<16x32x!kernel.ptr<f32>>
// CHECK-LABEL: func.func @given
// CHECK: %[[TID:.*]] = nvptx.thread_id x : i32
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK: %[[WID:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK: %[[ROW:.*]] = arith.remui %[[LANE]], %c16_i32 : i32
// CHECK: %[[HIGH:.*]] = arith.divui %[[LANE]], %c16_i32{{.*}} : i32
// CHECK: %[[W2:.*]] = arith.muli %[[WID]], %c2_i32 : i32
// CHECK: %[[COL:.*]] = arith.addi %[[W2]], %[[HIGH]] : i32
// CHECK: arith.addi %[[COL]], %c8_i32 : i32
// CHECK: arith.addi %[[COL]], %c16_i32{{.*}} : i32
// CHECK: arith.addi %[[COL]], %c24_i32 : i32
// CHECK-COUNT-4: nvptx.store %{{.*}} : f32, !nvptx.ptr<f32, global>
// CHECK-NOT: nvptx.store
// CHECK: return
module {
  kernel.func @given(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r = range 0, 16 : tensor<16xi32>
    %c = range 0, 32 : tensor<32xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %re = expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
    %ro = arith.muli %re, %c32 : tensor<16x1xi32>
    %ce = expand_dims %c axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %rb = broadcast %ro : tensor<16x1xi32> -> tensor<16x32xi32>
    %cb = broadcast %ce : tensor<1x32xi32> -> tensor<16x32xi32>
    %o = arith.addi %rb, %cb : tensor<16x32xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>>
    %pxo = addptr %px, %o : tensor<16x32x!kernel.ptr<f32>>, tensor<16x32xi32>
    %v = load %pxo : tensor<16x32x!kernel.ptr<f32>>
    %e = math.exp %v : tensor<16x32xf32>
    %py = splat %y : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>>
    %pyo = addptr %py, %o : tensor<16x32x!kernel.ptr<f32>>, tensor<16x32xi32>
    store %pyo, %e {nvptx.layout = #nvptx.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>} : tensor<16x32x!kernel.ptr<f32>>
    return
  }
}

// -----

// The same kernel without a layout: the default deals runs of four f32s
// along the rows (8 runs a row, 4 rows a warp, the warps down the rows),
// which cover the tile once: one 128-bit store per thread, at row
// 4 * warp + lane / 8 and column 4 * (lane % 8).
// CHECK: store {{.*}} {nvptx.layout = #nvptx.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>} : tensor<16x32x!kernel.ptr<f32>>
// CHECK-LABEL: func.func @default
// CHECK: %[[TID:.*]] = nvptx.thread_id x : i32
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK: %[[WID:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK: %[[CL:.*]] = arith.remui %[[LANE]], %c8_i32 : i32
// CHECK: %[[RL:.*]] = arith.divui %[[LANE]], %c8_i32{{.*}} : i32
// CHECK: %[[W4:.*]] = arith.muli %[[WID]], %c4_i32 : i32
// CHECK: arith.addi %[[W4]], %[[RL]] : i32
// CHECK: arith.muli %[[CL]], %c4_i32{{.*}} : i32
// CHECK: nvptx.store %{{.*}} : vector<4xf32>, !nvptx.ptr<f32, global>
// CHECK-NOT: nvptx.store
// CHECK: return
module {
  kernel.func @default(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r = range 0, 16 : tensor<16xi32>
    %c = range 0, 32 : tensor<32xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %re = expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
    %ro = arith.muli %re, %c32 : tensor<16x1xi32>
    %ce = expand_dims %c axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %rb = broadcast %ro : tensor<16x1xi32> -> tensor<16x32xi32>
    %cb = broadcast %ce : tensor<1x32xi32> -> tensor<16x32xi32>
    %o = arith.addi %rb, %cb : tensor<16x32xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>>
    %pxo = addptr %px, %o : tensor<16x32x!kernel.ptr<f32>>, tensor<16x32xi32>
    %v = load %pxo : tensor<16x32x!kernel.ptr<f32>>
    %e = math.exp %v : tensor<16x32xf32>
    %py = splat %y : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>>
    %pyo = addptr %py, %o : tensor<16x32x!kernel.ptr<f32>>, tensor<16x32xi32>
    store %pyo, %e : tensor<16x32x!kernel.ptr<f32>>
    return
  }
}

// -----

// A tile carried by a loop, in the layout the loop gives it (two elements
// per thread along the rows: 4 warps of 8x4 lanes cover 32x8, twice across
// the 16 columns), is held in registers, 4 values per thread; the store that reads it takes the same
// layout (any other would read elements other threads hold). The block
// reduction records the layout it read its tile in (runs of four f32s).
// CHECK: } {nvptx.layouts = [#nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>]}
// CHECK: store {{.*}} {nvptx.layout = #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>} : tensor<32x16x!kernel.ptr<f32>>
// CHECK: } {nvptx.layout = #nvptx.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}
// CHECK-LABEL: func.func @carried
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK-COUNT-2: nvptx.store %{{.*}} : vector<2xf32>, !nvptx.ptr<f32, global>
// CHECK: nvptx.shfl_sync
module {
  kernel.func @carried(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %s: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r = range 0, 32 : tensor<32xi32>
    %c = range 0, 16 : tensor<16xi32>
    %c16 = arith.constant dense<16> : tensor<32x1xi32>
    %re = expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %ro = arith.muli %re, %c16 : tensor<32x1xi32>
    %ce = expand_dims %c axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
    %rb = broadcast %ro : tensor<32x1xi32> -> tensor<32x16xi32>
    %cb = broadcast %ce : tensor<1x16xi32> -> tensor<32x16xi32>
    %o = arith.addi %rb, %cb : tensor<32x16xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<32x16x!kernel.ptr<f32>>
    %pxo = addptr %px, %o : tensor<32x16x!kernel.ptr<f32>>, tensor<32x16xi32>
    %zero = arith.constant dense<0.0> : tensor<32x16xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (tensor<32x16xf32>) : i32 {
      %v = kernel.load %pxo : tensor<32x16x!kernel.ptr<f32>>
      %n = arith.addf %a, %v : tensor<32x16xf32>
      scf.yield %n : tensor<32x16xf32>
    } {nvptx.layouts = [#nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>]}
    %py = splat %y : !kernel.ptr<f32> -> tensor<32x16x!kernel.ptr<f32>>
    %pyo = addptr %py, %o : tensor<32x16x!kernel.ptr<f32>>, tensor<32x16xi32>
    store %pyo, %acc : tensor<32x16x!kernel.ptr<f32>>
    %w = range 0, 512 : tensor<512xi32>
    %pw = splat %x : !kernel.ptr<f32> -> tensor<512x!kernel.ptr<f32>>
    %pwo = addptr %pw, %w : tensor<512x!kernel.ptr<f32>>, tensor<512xi32>
    %t = load %pwo : tensor<512x!kernel.ptr<f32>>
    %sum = kernel.reduce %t axis = 0 {
    ^bb0(%p: f32, %q: f32):
      %z = arith.addf %p, %q : f32
      kernel.yield %z : f32
    } : tensor<512xf32> -> f32
    store %s, %sum : !kernel.ptr<f32>
    return
  }
}


// -----

// The accumulator of a dot on mma_sync has an MMA layout, #nvptx.mma (the
// grid of warps its 16x8 tiles are dealt to). Given one, the conversion
// takes it: the 32x32 accumulator on a 1x4 grid of warps (each warp two
// tiles down a column: 8 f32 per thread, one B fragment and two A
// fragments per K step) instead of the default 2x2; the loop's layouts
// record it for the carried accumulator.
// CHECK: kernel.dot {{.*}} {nvptx.layout = #nvptx.mma<{versionMajor = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]}>}
// CHECK: } {nvptx.layouts = [#nvptx.mma<{versionMajor = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]}>]}
// CHECK-LABEL: func.func @grid
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4: nvptx.mma_sync
// CHECK-NOT: nvptx.mma_sync
// CHECK: scf.yield
module {
  kernel.func @grid(%a: !kernel.ptr<f16>, %b: !kernel.ptr<f16>, %c: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
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
      %d = kernel.dot %ta, %tb, %x {nvptx.layout = #nvptx.mma<{versionMajor = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]}>} : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
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

// Boxes of 2x2: each thread holds two runs of two consecutive elements,
// in two rows (4x8 lanes a warp, 2x2 warps: one layer is the whole tile);
// each run is one 64-bit store.
// CHECK-LABEL: func.func @boxes
// CHECK-COUNT-2: nvptx.store %{{.*}} : vector<2xf32>, !nvptx.ptr<f32, global>
// CHECK-NOT: nvptx.store
// CHECK: return
module {
  kernel.func @boxes(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r = range 0, 16 : tensor<16xi32>
    %c = range 0, 32 : tensor<32xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %re = expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
    %ro = arith.muli %re, %c32 : tensor<16x1xi32>
    %ce = expand_dims %c axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %rb = broadcast %ro : tensor<16x1xi32> -> tensor<16x32xi32>
    %cb = broadcast %ce : tensor<1x32xi32> -> tensor<16x32xi32>
    %o = arith.addi %rb, %cb : tensor<16x32xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>>
    %pxo = addptr %px, %o : tensor<16x32x!kernel.ptr<f32>>, tensor<16x32xi32>
    %v = load %pxo : tensor<16x32x!kernel.ptr<f32>>
    %e = math.exp %v : tensor<16x32xf32>
    %py = splat %y : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>>
    %pyo = addptr %py, %o : tensor<16x32x!kernel.ptr<f32>>, tensor<16x32xi32>
    store %pyo, %e {nvptx.layout = #nvptx.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>} : tensor<16x32x!kernel.ptr<f32>>
    return
  }
}

// -----

// A layout of rank 1 deals the 16x32 tile flat, in row-major order: runs
// of two, thread t's at linear elements 2t and 2t + 256, each split into a
// row (division by 32) and a column.
// CHECK-LABEL: func.func @flat
// CHECK: %[[TID:.*]] = nvptx.thread_id x : i32
// CHECK: %[[F:.*]] = arith.muli %[[TID]], %c2_i32 : i32
// CHECK: arith.addi %[[F]], %c256_i32 : i32
// CHECK: arith.remui %[[F]], %c32_i32 : i32
// CHECK: arith.divui %[[F]], %c32_i32{{.*}} : i32
// CHECK-COUNT-2: nvptx.store %{{.*}} : vector<2xf32>, !nvptx.ptr<f32, global>
// CHECK-NOT: nvptx.store
// CHECK: return
module {
  kernel.func @flat(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r = range 0, 16 : tensor<16xi32>
    %c = range 0, 32 : tensor<32xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %re = expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
    %ro = arith.muli %re, %c32 : tensor<16x1xi32>
    %ce = expand_dims %c axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %rb = broadcast %ro : tensor<16x1xi32> -> tensor<16x32xi32>
    %cb = broadcast %ce : tensor<1x32xi32> -> tensor<16x32xi32>
    %o = arith.addi %rb, %cb : tensor<16x32xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>>
    %pxo = addptr %px, %o : tensor<16x32x!kernel.ptr<f32>>, tensor<16x32xi32>
    %v = load %pxo : tensor<16x32x!kernel.ptr<f32>>
    %e = math.exp %v : tensor<16x32xf32>
    %py = splat %y : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>>
    %pyo = addptr %py, %o : tensor<16x32x!kernel.ptr<f32>>, tensor<16x32xi32>
    store %pyo, %e {nvptx.layout = #nvptx.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>} : tensor<16x32x!kernel.ptr<f32>>
    return
  }
}
