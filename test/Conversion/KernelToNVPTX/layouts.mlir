// REQUIRES: strata-opt, ptxas
// How a tile is dealt out to a block's threads is a blocked layout,
// #nvptx.blocked<{sizePerThread, threadsPerWarp, warpsPerCTA, order}> (as
// Triton's), the encoding of its type: tensor<16x32xf32, #blocked> is held by
// the block in that layout, a tile type without one is computed where it is
// used, and kernel.convert_layout changes a tile's layout. convert-kernel-to-nvptx
// follows the layouts the types give and gives the tiles it materializes
// (stores, block reductions, loop-carried tiles, dot operands and
// accumulators) the ones it chooses, so the kernel IR after it says how every
// tile is distributed and converting it again gives the same GPU form. ptxas
// assembles every kernel.
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
// CHECK: #[[G:blocked[0-9]*]] = #nvptx.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: store {{.*}} : tensor<16x32x!kernel.ptr<f32>, #[[G]]>
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
#given = #nvptx.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
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
    %el = convert_layout %e : tensor<16x32xf32> -> tensor<16x32xf32, #given>
    %py = splat %y : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>, #given>
    %ol = convert_layout %o : tensor<16x32xi32> -> tensor<16x32xi32, #given>
    %pyo = addptr %py, %ol : tensor<16x32x!kernel.ptr<f32>, #given>, tensor<16x32xi32, #given>
    store %pyo, %el : tensor<16x32x!kernel.ptr<f32>, #given>
    return
  }
}

// -----

// The same kernel without a layout: the default deals runs of four f32s
// along the rows (8 runs a row, 4 rows a warp, the warps down the rows),
// which cover the tile once: one 128-bit store per thread, at row
// 4 * warp + lane / 8 and column 4 * (lane % 8). The types say so: the
// chain the store reads (the pointers, the load, the exp) takes the layout,
// and the offsets, which both pointer tiles read, are converted to it (from
// no layout: computed at the store's elements, nothing moves).
// CHECK: #[[D:blocked[0-9]*]] = #nvptx.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: %[[O:.*]] = arith.addi {{.*}} : tensor<16x32xi32>
// CHECK: splat {{.*}} -> tensor<16x32x!kernel.ptr<f32>, #[[D]]>
// CHECK: convert_layout %[[O]] : tensor<16x32xi32> -> tensor<16x32xi32, #[[D]]>
// CHECK: load {{.*}} : tensor<16x32x!kernel.ptr<f32>, #[[D]]>
// CHECK: math.exp {{.*}} : tensor<16x32xf32, #[[D]]>
// CHECK: convert_layout %[[O]] : tensor<16x32xi32> -> tensor<16x32xi32, #[[D]]>
// CHECK: store {{.*}} : tensor<16x32x!kernel.ptr<f32>, #[[D]]>
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

// A tile carried by a loop, in the layout its type gives (two elements
// per thread along the rows: 4 warps of 8x4 lanes cover 32x8, twice across
// the 16 columns), is held in registers, 4 values per thread; the store that
// reads it takes the same layout (any other would read elements other
// threads hold through shared memory), and so do its pointers. The block
// reduction's tile gets the layout it is read in (runs of four f32s).
// CHECK-DAG: #[[C:blocked[0-9]*]] = #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[R:blocked[0-9]*]] = #nvptx.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: scf.for {{.*}} -> (tensor<32x16xf32, #[[C]]>)
// CHECK: store {{.*}} : tensor<32x16x!kernel.ptr<f32>, #[[C]]>
// CHECK: load {{.*}} : tensor<512x!kernel.ptr<f32>, #[[R]]>
// CHECK: } : tensor<512xf32, #[[R]]> -> f32
// CHECK-LABEL: func.func @carried
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK-COUNT-2: nvptx.store %{{.*}} : vector<2xf32>, !nvptx.ptr<f32, global>
// CHECK: nvptx.shfl_sync
#carried = #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
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
    %zl = convert_layout %zero : tensor<32x16xf32> -> tensor<32x16xf32, #carried>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zl) -> (tensor<32x16xf32, #carried>) : i32 {
      %v = kernel.load %pxo : tensor<32x16x!kernel.ptr<f32>>
      %vl = kernel.convert_layout %v : tensor<32x16xf32> -> tensor<32x16xf32, #carried>
      %n = arith.addf %a, %vl : tensor<32x16xf32, #carried>
      scf.yield %n : tensor<32x16xf32, #carried>
    }
    %py = splat %y : !kernel.ptr<f32> -> tensor<32x16x!kernel.ptr<f32>, #carried>
    %ol = convert_layout %o : tensor<32x16xi32> -> tensor<32x16xi32, #carried>
    %pyo = addptr %py, %ol : tensor<32x16x!kernel.ptr<f32>, #carried>, tensor<32x16xi32, #carried>
    store %pyo, %acc : tensor<32x16x!kernel.ptr<f32>, #carried>
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
// fragments per K step) instead of the default 2x2. Its operands get the
// layouts they are staged to shared memory in; after the loop, the
// conversion (given as one to no layout, and completed to the store's)
// writes the accumulator to shared memory, and the store reads it there in
// its own layout.
// CHECK: #[[M:mma[0-9]*]] = #nvptx.mma<{versionMajor = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
// CHECK: kernel.dot {{.*}} : tensor<32x32xf16, #{{blocked[0-9]*}}> * tensor<32x32xf16, #{{blocked[0-9]*}}> -> tensor<32x32xf32, #[[M]]>
// CHECK: scf.yield {{.*}} : tensor<32x32xf32, #[[M]]>
// CHECK: %[[ACC:.*]] = convert_layout {{.*}} : tensor<32x32xf32, #[[M]]> -> tensor<32x32xf32, #[[S:blocked[0-9]*]]>
// CHECK: store {{.*}}, %[[ACC]] : tensor<32x32x!kernel.ptr<f32>, #[[S]]>
// CHECK-LABEL: func.func @grid
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-4: nvptx.mma_sync
// CHECK-NOT: nvptx.mma_sync
// CHECK: scf.yield
#mma = #nvptx.mma<{versionMajor = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
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
    %acc0 = splat %zero : f32 -> tensor<32x32xf32, #mma>
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

// Boxes of 2x2: each thread holds two runs of two consecutive elements,
// in two rows (4x8 lanes a warp, 2x2 warps: one layer is the whole tile);
// each run is one 64-bit store.
// CHECK-LABEL: func.func @boxes
// CHECK-COUNT-2: nvptx.store %{{.*}} : vector<2xf32>, !nvptx.ptr<f32, global>
// CHECK-NOT: nvptx.store
// CHECK: return
#boxes = #nvptx.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
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
    %el = convert_layout %e : tensor<16x32xf32> -> tensor<16x32xf32, #boxes>
    %py = splat %y : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>, #boxes>
    %ol = convert_layout %o : tensor<16x32xi32> -> tensor<16x32xi32, #boxes>
    %pyo = addptr %py, %ol : tensor<16x32x!kernel.ptr<f32>, #boxes>, tensor<16x32xi32, #boxes>
    store %pyo, %el : tensor<16x32x!kernel.ptr<f32>, #boxes>
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
#flat = #nvptx.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
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
    %el = convert_layout %e : tensor<16x32xf32> -> tensor<16x32xf32, #flat>
    %py = splat %y : !kernel.ptr<f32> -> tensor<16x32x!kernel.ptr<f32>, #flat>
    %ol = convert_layout %o : tensor<16x32xi32> -> tensor<16x32xi32, #flat>
    %pyo = addptr %py, %ol : tensor<16x32x!kernel.ptr<f32>, #flat>, tensor<16x32xi32, #flat>
    store %pyo, %el : tensor<16x32x!kernel.ptr<f32>, #flat>
    return
  }
}

// -----

// A tile the loop holds in registers, read at other elements (a reduction
// along its rows) or in another layout (a store in #rows, one row per warp's
// lanes), goes through shared memory: the conversion puts a convert_layout
// from the held layout before the reduction, completes the given one to
// convert from it, and each writes the tile to shared memory between
// barriers for its readers.
// CHECK-DAG: #[[ROWS:blocked[0-9]*]] = #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} -> (tensor<4x64xf32, #[[H:blocked[0-9]*]]>)
// CHECK: convert_layout %[[ACC]] : tensor<4x64xf32, #[[H]]> -> tensor<4x64xf32>
// CHECK: reduce %{{.*}} axis = 1
// CHECK: convert_layout %[[ACC]] : tensor<4x64xf32, #[[H]]> -> tensor<4x64xf32, #[[ROWS]]>
// CHECK-LABEL: func.func @through_shared
// CHECK-COUNT-2: nvptx.shared_alloc {elements = 272 : i64} : !nvptx.ptr<f32, shared>
// CHECK: scf.for
// CHECK: nvptx.store {{.*}} : f32, !nvptx.ptr<f32, shared>
// CHECK: nvptx.barrier
// CHECK: nvptx.load {{.*}} : !nvptx.ptr<f32, shared> -> f32
// CHECK: nvptx.store {{.*}} : f32, !nvptx.ptr<f32, shared>
// CHECK: nvptx.barrier
// CHECK: nvptx.load {{.*}} : !nvptx.ptr<f32, shared> -> f32
#rows = #nvptx.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module {
  kernel.func @through_shared(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %s: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
    %r = range 0, 4 : tensor<4xi32>
    %c = range 0, 64 : tensor<64xi32>
    %c64 = arith.constant dense<64> : tensor<4x1xi32>
    %re = expand_dims %r axis = 1 : tensor<4xi32> -> tensor<4x1xi32>
    %ro = arith.muli %re, %c64 : tensor<4x1xi32>
    %ce = expand_dims %c axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
    %rb = broadcast %ro : tensor<4x1xi32> -> tensor<4x64xi32>
    %cb = broadcast %ce : tensor<1x64xi32> -> tensor<4x64xi32>
    %o = arith.addi %rb, %cb : tensor<4x64xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<4x64x!kernel.ptr<f32>>
    %pxo = addptr %px, %o : tensor<4x64x!kernel.ptr<f32>>, tensor<4x64xi32>
    %zero = arith.constant dense<0.0> : tensor<4x64xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zero) -> (tensor<4x64xf32>) : i32 {
      %v = kernel.load %pxo : tensor<4x64x!kernel.ptr<f32>>
      %n = arith.addf %a, %v : tensor<4x64xf32>
      scf.yield %n : tensor<4x64xf32>
    }
    %sum = kernel.reduce %acc axis = 1 {
    ^bb0(%p: f32, %q: f32):
      %z = arith.addf %p, %q : f32
      kernel.yield %z : f32
    } : tensor<4x64xf32> -> tensor<4xf32>
    %ps = splat %s : !kernel.ptr<f32> -> tensor<4x!kernel.ptr<f32>>
    %pso = addptr %ps, %r : tensor<4x!kernel.ptr<f32>>, tensor<4xi32>
    store %pso, %sum : tensor<4x!kernel.ptr<f32>>
    %acc2 = convert_layout %acc : tensor<4x64xf32> -> tensor<4x64xf32, #rows>
    %py = splat %y : !kernel.ptr<f32> -> tensor<4x64x!kernel.ptr<f32>, #rows>
    %ol = convert_layout %o : tensor<4x64xi32> -> tensor<4x64xi32, #rows>
    %pyo = addptr %py, %ol : tensor<4x64x!kernel.ptr<f32>, #rows>, tensor<4x64xi32, #rows>
    store %pyo, %acc2 : tensor<4x64x!kernel.ptr<f32>, #rows>
    return
  }
}

// -----

// Two tiles a loop carries and combines (as an online softmax's running
// maximum and sum) are typed together, before the body is: no conversion
// between them in the body. A held f16 tile reduced to a scalar (not a
// block reduction, which takes 32-bit numbers) is read through shared
// memory.
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[T:blocked[0-9]*]]>, tensor<64xf32, #[[T]]>)
// CHECK-NOT: convert_layout
// CHECK: scf.yield
// CHECK: convert_layout {{.*}} : tensor<64xf16, #{{blocked[0-9]*}}> -> tensor<64xf16>
// CHECK-LABEL: func.func @two_carries
// CHECK: nvptx.shared_alloc
module {
  kernel.func @two_carries(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %h: !kernel.ptr<f16>, %s: !kernel.ptr<f16>) attributes {grid = 1 : i32, num_warps = 1 : i32} {
    %r = range 0, 64 : tensor<64xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
    %pxo = addptr %px, %r : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
    %z = arith.constant dense<0.0> : tensor<64xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %res:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%m = %z, %l = %z) -> (tensor<64xf32>, tensor<64xf32>) : i32 {
      %v = kernel.load %pxo : tensor<64x!kernel.ptr<f32>>
      %t = arith.addf %m, %l : tensor<64xf32>
      %u = arith.addf %t, %v : tensor<64xf32>
      scf.yield %u, %l : tensor<64xf32>, tensor<64xf32>
    }
    %py = splat %y : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
    %pyo = addptr %py, %r : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
    store %pyo, %res#0 : tensor<64x!kernel.ptr<f32>>
    %ph = splat %h : !kernel.ptr<f16> -> tensor<64x!kernel.ptr<f16>>
    %pho = addptr %ph, %r : tensor<64x!kernel.ptr<f16>>, tensor<64xi32>
    %zh = arith.constant dense<0.0> : tensor<64xf16>
    %hacc = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zh) -> (tensor<64xf16>) : i32 {
      %w = kernel.load %pho : tensor<64x!kernel.ptr<f16>>
      %n = arith.addf %a, %w : tensor<64xf16>
      scf.yield %n : tensor<64xf16>
    }
    %sum = kernel.reduce %hacc axis = 0 {
    ^bb0(%p: f16, %q: f16):
      %zz = arith.addf %p, %q : f16
      kernel.yield %zz : f16
    } : tensor<64xf16> -> f16
    store %s, %sum : !kernel.ptr<f16>
    return
  }
}
