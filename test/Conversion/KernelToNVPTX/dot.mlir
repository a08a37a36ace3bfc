// REQUIRES: strata-opt, ptxas
// convert-kernel-to-nvptx computes a kernel.dot by the block. Its operand
// tiles are staged in shared memory: inside a loop a barrier first (no warp
// may still read the previous iteration's tiles), each thread's runs of A and
// B stored (vector stores, rows padded by 16 bytes), a barrier. f16 and bf16
// products with an f32 accumulator then run on mma.sync.m16n8k16: the 32x32
// accumulator is dealt to a 2x2 grid of warps, two 16x8 tiles each (8 f32 per
// thread, carried by the loop in that layout), one mma_sync per tile and K
// step of 16; after the loop it is written to shared memory and read back by
// the store's threads in runs. An f32 product reads its staged tiles element
// by element (a loop over K per element); one whose tiles do not fit in
// shared memory reads global memory as before. ptxas assembles every kernel.
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx | FileCheck %s
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx > %t.mlir
// RUN: strata-translate --split-input-file --emit=ptx %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: strata-translate --split-input-file --emit=ptx %t.mlir -o %t.ptx
// RUN: rm -f %t.split.*.ptx && awk -v out=%t.split 'BEGIN { n = 0 } /^\/\/ -----/ { n++; next } { print > (out "." n ".ptx") }' %t.ptx
// RUN: for f in %t.split.*.ptx; do %ptxas -arch=sm_90 $f -o %t.cubin || exit 1; done
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx=sm=80 > %t.80.mlir
// RUN: strata-translate --split-input-file --emit=ptx %t.80.mlir -o %t.80.ptx
// RUN: rm -f %t.80.split.*.ptx && awk -v out=%t.80.split 'BEGIN { n = 0 } /^\/\/ -----/ { n++; next } { print > (out "." n ".ptx") }' %t.80.ptx
// RUN: for f in %t.80.split.*.ptx; do %ptxas -arch=sm_80 $f -o %t.cubin || exit 1; done

// CHECK-LABEL: func.func @mma(
// CHECK:         nvptx.shared_alloc {elements = 1280 : i64} : !nvptx.ptr<f16, shared>
// CHECK-NEXT:    nvptx.shared_alloc {elements = 1280 : i64} : !nvptx.ptr<f16, shared>
// CHECK-NEXT:    nvptx.shared_alloc {elements = 1152 : i64} : !nvptx.ptr<f32, shared>
// CHECK-NEXT:    nvptx.thread_id x
// CHECK:         scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-NOT:       nvptx.store
// CHECK:           nvptx.barrier
// CHECK:           nvptx.store %{{.*}} : vector<8xf16>, !nvptx.ptr<f16, shared>
// CHECK:           nvptx.barrier
// CHECK-NOT:       nvptx.barrier
// CHECK-COUNT-4:   nvptx.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>
// CHECK-NOT:       nvptx.mma_sync
// CHECK:           scf.yield {{.*}} : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK:         nvptx.store %{{.*}} : f32, !nvptx.ptr<f32, shared>
// CHECK:         nvptx.barrier
// CHECK:         nvptx.load %{{.*}} : !nvptx.ptr<f32, shared> -> f32
// CHECK:         nvptx.store %{{.*}} : vector<4xf32>, !nvptx.ptr<f32, global>
// LLVM may unroll the loop: the count of mma.sync in the PTX varies.
// PTX-LABEL: .entry mma(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: ret;

module {
  kernel.func @mma(%a: !kernel.ptr<f16>, %b: !kernel.ptr<f16>, %c: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
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
      %d = kernel.dot %ta, %tb, %x : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
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

// CHECK-LABEL: func.func @mma_bf16(
// CHECK-COUNT-4:   nvptx.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
// CHECK-NOT:       nvptx.mma_sync
// PTX-LABEL: .entry mma_bf16(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .entry fma(
// PTX-NOT: mma.sync
// PTX: ret;
module {
  kernel.func @mma_bf16(%a: !kernel.ptr<bf16>, %b: !kernel.ptr<bf16>, %c: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
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
      %pa = kernel.splat %a : !kernel.ptr<bf16> -> tensor<32x32x!kernel.ptr<bf16>>
      %pak = kernel.addptr %pa, %aok : tensor<32x32x!kernel.ptr<bf16>>, tensor<32x32xi32>
      %ta = kernel.load %pak : tensor<32x32x!kernel.ptr<bf16>>
      %kn = arith.muli %k0, %nn : i32
      %sb = kernel.splat %kn : i32 -> tensor<32x32xi32>
      %bok = arith.addi %bo, %sb : tensor<32x32xi32>
      %pb = kernel.splat %b : !kernel.ptr<bf16> -> tensor<32x32x!kernel.ptr<bf16>>
      %pbk = kernel.addptr %pb, %bok : tensor<32x32x!kernel.ptr<bf16>>, tensor<32x32xi32>
      %tb = kernel.load %pbk : tensor<32x32x!kernel.ptr<bf16>>
      %d = kernel.dot %ta, %tb, %x : tensor<32x32xbf16> * tensor<32x32xbf16> -> tensor<32x32xf32>
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

// CHECK-LABEL: func.func @fma(
// CHECK:         nvptx.shared_alloc {elements = 1152 : i64} : !nvptx.ptr<f32, shared>
// CHECK-NEXT:    nvptx.shared_alloc {elements = 1152 : i64} : !nvptx.ptr<f32, shared>
// CHECK-NEXT:    nvptx.thread_id x
// CHECK:         scf.for
// CHECK-NOT:       nvptx.store
// CHECK:           nvptx.barrier
// CHECK:           nvptx.store %{{.*}} : vector<4xf32>, !nvptx.ptr<f32, shared>
// CHECK:           nvptx.barrier
// CHECK:           scf.for
// CHECK:             nvptx.load %{{.*}} : !nvptx.ptr<f32, shared> -> f32
// CHECK:             nvptx.load %{{.*}} : !nvptx.ptr<f32, shared> -> f32
// CHECK-NOT:     nvptx.mma_sync
// CHECK-LABEL: func.func @global(
module {
  kernel.func @fma(%a: !kernel.ptr<f32>, %b: !kernel.ptr<f32>, %c: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
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
      %pa = kernel.splat %a : !kernel.ptr<f32> -> tensor<32x32x!kernel.ptr<f32>>
      %pak = kernel.addptr %pa, %aok : tensor<32x32x!kernel.ptr<f32>>, tensor<32x32xi32>
      %ta = kernel.load %pak : tensor<32x32x!kernel.ptr<f32>>
      %kn = arith.muli %k0, %nn : i32
      %sb = kernel.splat %kn : i32 -> tensor<32x32xi32>
      %bok = arith.addi %bo, %sb : tensor<32x32xi32>
      %pb = kernel.splat %b : !kernel.ptr<f32> -> tensor<32x32x!kernel.ptr<f32>>
      %pbk = kernel.addptr %pb, %bok : tensor<32x32x!kernel.ptr<f32>>, tensor<32x32xi32>
      %tb = kernel.load %pbk : tensor<32x32x!kernel.ptr<f32>>
      %d = kernel.dot %ta, %tb, %x : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
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

// 64x256 and 256x64 f32 tiles (128 elements per thread) are not staged.
// CHECK-NOT:     nvptx.shared_alloc
// CHECK-NOT:     nvptx.barrier
// CHECK:         return
module {
  kernel.func @global(%a: !kernel.ptr<f32>, %b: !kernel.ptr<f32>, %c: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %bk = arith.constant 256 : i32
    %kk = arith.constant 256 : i32
    %nn = arith.constant 64 : i32
    %zero = arith.constant 0.0 : f32
    %rm = range 0, 64 : tensor<64xi32>
    %rn = range 0, 64 : tensor<64xi32>
    %rk = range 0, 256 : tensor<256xi32>
    // A's offsets: row i, column j (of the K step): i * K + j.
    %ai = expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
    %aib = broadcast %ai : tensor<64x1xi32> -> tensor<64x256xi32>
    %aj = expand_dims %rk axis = 0 : tensor<256xi32> -> tensor<1x256xi32>
    %ajb = broadcast %aj : tensor<1x256xi32> -> tensor<64x256xi32>
    %sk = splat %kk : i32 -> tensor<64x256xi32>
    %ar = arith.muli %aib, %sk : tensor<64x256xi32>
    %ao = arith.addi %ar, %ajb : tensor<64x256xi32>
    // B's offsets: row i (of the K step), column j: i * N + j.
    %bi = expand_dims %rk axis = 1 : tensor<256xi32> -> tensor<256x1xi32>
    %bib = broadcast %bi : tensor<256x1xi32> -> tensor<256x64xi32>
    %bj = expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
    %bjb = broadcast %bj : tensor<1x64xi32> -> tensor<256x64xi32>
    %sn = splat %nn : i32 -> tensor<256x64xi32>
    %br = arith.muli %bib, %sn : tensor<256x64xi32>
    %bo = arith.addi %br, %bjb : tensor<256x64xi32>
    %acc0 = splat %zero : f32 -> tensor<64x64xf32>
    %acc = scf.for %k0 = %c0 to %kk step %bk iter_args(%x = %acc0) -> (tensor<64x64xf32>) : i32 {
      %sa = kernel.splat %k0 : i32 -> tensor<64x256xi32>
      %aok = arith.addi %ao, %sa : tensor<64x256xi32>
      %pa = kernel.splat %a : !kernel.ptr<f32> -> tensor<64x256x!kernel.ptr<f32>>
      %pak = kernel.addptr %pa, %aok : tensor<64x256x!kernel.ptr<f32>>, tensor<64x256xi32>
      %ta = kernel.load %pak : tensor<64x256x!kernel.ptr<f32>>
      %kn = arith.muli %k0, %nn : i32
      %sb = kernel.splat %kn : i32 -> tensor<256x64xi32>
      %bok = arith.addi %bo, %sb : tensor<256x64xi32>
      %pb = kernel.splat %b : !kernel.ptr<f32> -> tensor<256x64x!kernel.ptr<f32>>
      %pbk = kernel.addptr %pb, %bok : tensor<256x64x!kernel.ptr<f32>>, tensor<256x64xi32>
      %tb = kernel.load %pbk : tensor<256x64x!kernel.ptr<f32>>
      %d = kernel.dot %ta, %tb, %x : tensor<64x256xf32> * tensor<256x64xf32> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    // C's offsets: i * N + j.
    %ci = expand_dims %rm axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
    %cib = broadcast %ci : tensor<64x1xi32> -> tensor<64x64xi32>
    %cj = expand_dims %rn axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
    %cjb = broadcast %cj : tensor<1x64xi32> -> tensor<64x64xi32>
    %scn = splat %nn : i32 -> tensor<64x64xi32>
    %cr = arith.muli %cib, %scn : tensor<64x64xi32>
    %co = arith.addi %cr, %cjb : tensor<64x64xi32>
    %pc = splat %c : !kernel.ptr<f32> -> tensor<64x64x!kernel.ptr<f32>>
    %pco = addptr %pc, %co : tensor<64x64x!kernel.ptr<f32>>, tensor<64x64xi32>
    store %pco, %acc : tensor<64x64x!kernel.ptr<f32>>
    return
  }
}

// -----

// The loop also stores its running accumulator: it stays in the cyclic
// layout of the store (the staged f16 tiles are read per element), no mma.
// CHECK-LABEL: func.func @partial_sums(
// CHECK:         nvptx.shared_alloc {elements = 1280 : i64} : !nvptx.ptr<f16, shared>
// CHECK-NOT:     nvptx.mma_sync
// CHECK:         return
module {
  kernel.func @partial_sums(%a: !kernel.ptr<f16>, %b: !kernel.ptr<f16>, %c: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
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
      %pcs = kernel.splat %c : !kernel.ptr<f32> -> tensor<32x32x!kernel.ptr<f32>>
      %pcl = kernel.addptr %pcs, %bo : tensor<32x32x!kernel.ptr<f32>>, tensor<32x32xi32>
      kernel.store %pcl, %x : tensor<32x32x!kernel.ptr<f32>>
      %d = kernel.dot %ta, %tb, %x : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
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
