// REQUIRES: strata-opt, ptxas
// convert-kernel-to-nvptx deals a store's elements out in runs of up to
// vector-bytes (16) bytes per thread. A run of consecutive elements from
// an offset that is a multiple of its length is one vector store; LLVM
// merges the loads of the run into vector loads where the offsets let it
// prove the alignment (the parameters promise 16 bytes). Each kernel's
// assembly is checked by ptxas.
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx | FileCheck %s
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx > %t.mlir
// RUN: strata-translate --split-input-file --emit=ptx %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: strata-translate --split-input-file --emit=ptx %t.mlir -o %t.ptx
// RUN: rm -f %t.split.*.ptx && awk -v out=%t.split 'BEGIN { n = 0 } /^\/\/ -----/ { n++; next } { print > (out "." n ".ptx") }' %t.ptx
// RUN: for f in %t.split.*.ptx; do %ptxas -arch=sm_90 $f -o %t.cubin || exit 1; done

// 1024 f32s over 128 threads: two runs of four per thread, at 4 * tid and
// 4 * tid + 512 (the layout sizePerThread = [4], given to the stored tile's
// type): 128-bit loads and stores.
// CHECK: #[[V:blocked[0-9]*]] = #nvptx.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: store {{.*}} : tensor<1024x!kernel.ptr<f32>, #[[V]]>
// CHECK-LABEL: func.func @scale(
// CHECK: %[[TID:.*]] = nvptx.thread_id x : i32
// CHECK: %[[F:.*]] = arith.muli %[[TID]], %c4_i32 : i32
// CHECK: arith.addi %[[F]], %c512_i32 : i32
// CHECK: vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NEXT: nvptx.store %{{.*}} : vector<4xf32>, !nvptx.ptr<f32, global>
// CHECK: vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT: vector.from_elements
// CHECK: return
// PTX-LABEL: .entry scale(
// PTX-NOT: {{(ld|st)}}.global.b32
// PTX: ld.global.v4.b32
// PTX-NOT: {{(ld|st)}}.global.b32
// PTX: st.global.v4.b32
// PTX-NOT: {{(ld|st)}}.global.b32
// PTX: ret;
module {
  kernel.func @scale(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %pid = program_id x : i32
    %c1024 = arith.constant 1024 : i32
    %base = arith.muli %pid, %c1024 : i32
    %r = range 0, 1024 : tensor<1024xi32>
    %b = splat %base : i32 -> tensor<1024xi32>
    %o = arith.addi %b, %r : tensor<1024xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<1024x!kernel.ptr<f32>>
    %pxo = addptr %px, %o : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
    %v = load %pxo : tensor<1024x!kernel.ptr<f32>>
    %two = arith.constant dense<2.0> : tensor<1024xf32>
    %e = arith.mulf %v, %two : tensor<1024xf32>
    %py = splat %y : !kernel.ptr<f32> -> tensor<1024x!kernel.ptr<f32>>
    %pyo = addptr %py, %o : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
    store %pyo, %e : tensor<1024x!kernel.ptr<f32>>
    return
  }
}

// -----

// f16: runs of eight (16 bytes), one vector<8xf16> store each.
// CHECK-LABEL: func.func @half(
// CHECK: vector.from_elements {{.*}} : vector<8xf16>
// CHECK-NEXT: nvptx.store %{{.*}} : vector<8xf16>, !nvptx.ptr<f16, global>
// PTX-LABEL: .entry half(
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32
module {
  kernel.func @half(%x: !kernel.ptr<f16>, %y: !kernel.ptr<f16>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r = range 0, 1024 : tensor<1024xi32>
    %px = splat %x : !kernel.ptr<f16> -> tensor<1024x!kernel.ptr<f16>>
    %pxo = addptr %px, %r : tensor<1024x!kernel.ptr<f16>>, tensor<1024xi32>
    %v = load %pxo : tensor<1024x!kernel.ptr<f16>>
    %e = arith.addf %v, %v : tensor<1024xf16>
    %py = splat %y : !kernel.ptr<f16> -> tensor<1024x!kernel.ptr<f16>>
    %pyo = addptr %py, %r : tensor<1024x!kernel.ptr<f16>>, tensor<1024xi32>
    store %pyo, %e : tensor<1024x!kernel.ptr<f16>>
    return
  }
}

// -----

// Stored one element past a run boundary (offset + 1): the elements are
// consecutive but their first one is not known to be 16-byte aligned, so
// the conversion stores them one by one (LLVM pairs the two it can prove
// 8-byte aligned, never more).
// CHECK-LABEL: func.func @shifted(
// CHECK-NOT: vector.from_elements
// CHECK: return
// PTX-LABEL: .entry shifted(
// PTX-NOT: st.global.v4
// PTX: ret;
module {
  kernel.func @shifted(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r = range 0, 1024 : tensor<1024xi32>
    %one = arith.constant dense<1> : tensor<1024xi32>
    %o = arith.addi %r, %one : tensor<1024xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<1024x!kernel.ptr<f32>>
    %pxo = addptr %px, %r : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
    %v = load %pxo : tensor<1024x!kernel.ptr<f32>>
    %py = splat %y : !kernel.ptr<f32> -> tensor<1024x!kernel.ptr<f32>>
    %pyo = addptr %py, %o : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
    store %pyo, %v : tensor<1024x!kernel.ptr<f32>>
    return
  }
}

// -----

// A transposed store (the tile's last dimension strides by 32 in memory):
// its run is not consecutive in memory, so it stays scalar.
// CHECK-LABEL: func.func @transposed(
// CHECK-NOT: vector.from_elements
// CHECK: return
module {
  kernel.func @transposed(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r = range 0, 32 : tensor<32xi32>
    %rows = expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %cols = expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %c32 = arith.constant dense<32> : tensor<32x1xi32>
    %c32r = arith.constant dense<32> : tensor<1x32xi32>
    %ro = arith.muli %rows, %c32 : tensor<32x1xi32>
    %rb = broadcast %ro : tensor<32x1xi32> -> tensor<32x32xi32>
    %cb = broadcast %cols : tensor<1x32xi32> -> tensor<32x32xi32>
    %in = arith.addi %rb, %cb : tensor<32x32xi32>
    %co = arith.muli %cols, %c32r : tensor<1x32xi32>
    %cob = broadcast %co : tensor<1x32xi32> -> tensor<32x32xi32>
    %rob = broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
    %out = arith.addi %cob, %rob : tensor<32x32xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<32x32x!kernel.ptr<f32>>
    %pxo = addptr %px, %in : tensor<32x32x!kernel.ptr<f32>>, tensor<32x32xi32>
    %v = load %pxo : tensor<32x32x!kernel.ptr<f32>>
    %py = splat %y : !kernel.ptr<f32> -> tensor<32x32x!kernel.ptr<f32>>
    %pyo = addptr %py, %out : tensor<32x32x!kernel.ptr<f32>>, tensor<32x32xi32>
    store %pyo, %v : tensor<32x32x!kernel.ptr<f32>>
    return
  }
}

// -----

// A masked 2-D tile reduced along its rows, then stored under the same
// mask: in a run whose lanes are all inside the mask, the lanes' own loads
// take no branch, but the reduction reads the tile at other columns (its
// loop over the row), where the mask may not hold: those loads keep their
// branch. (The rows are 10 apart, so the stores stay scalar.)
// CHECK-LABEL: func.func @masked_rows(
// CHECK: scf.if %{{.*}} {
// CHECK: nvptx.load %arg0
// CHECK-NOT: nvptx.store
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: nvptx.load %arg0
// CHECK-NOT: nvptx.store
// CHECK: scf.for
// CHECK-NOT: nvptx.store
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: nvptx.load %arg0
// CHECK: nvptx.store
module {
  kernel.func @masked_rows(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %rr = range 0, 64 : tensor<64xi32>
    %rc = range 0, 16 : tensor<16xi32>
    %rows = expand_dims %rr axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
    %cols = expand_dims %rc axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
    %c10 = arith.constant dense<10> : tensor<64x1xi32>
    %ro = arith.muli %rows, %c10 : tensor<64x1xi32>
    %rb = broadcast %ro : tensor<64x1xi32> -> tensor<64x16xi32>
    %cb = broadcast %cols : tensor<1x16xi32> -> tensor<64x16xi32>
    %off = arith.addi %rb, %cb : tensor<64x16xi32>
    %ten = arith.constant dense<10> : tensor<1x16xi32>
    %mc = arith.cmpi slt, %cols, %ten : tensor<1x16xi32>
    %m = broadcast %mc : tensor<1x16xi1> -> tensor<64x16xi1>
    %px = splat %x : !kernel.ptr<f32> -> tensor<64x16x!kernel.ptr<f32>>
    %pxo = addptr %px, %off : tensor<64x16x!kernel.ptr<f32>>, tensor<64x16xi32>
    %ninf = arith.constant dense<0xFF800000> : tensor<64x16xf32>
    %v = load %pxo, %m, %ninf : tensor<64x16x!kernel.ptr<f32>>
    %mx = kernel.reduce %v axis = 1 {
    ^bb0(%a: f32, %c: f32):
      %z = arith.maximumf %a, %c : f32
      kernel.yield %z : f32
    } : tensor<64x16xf32> -> tensor<64xf32>
    %mx2 = expand_dims %mx axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
    %mxb = broadcast %mx2 : tensor<64x1xf32> -> tensor<64x16xf32>
    %d = arith.subf %v, %mxb : tensor<64x16xf32>
    %py = splat %y : !kernel.ptr<f32> -> tensor<64x16x!kernel.ptr<f32>>
    %pyo = addptr %py, %off : tensor<64x16x!kernel.ptr<f32>>, tensor<64x16xi32>
    store %pyo, %d, %m : tensor<64x16x!kernel.ptr<f32>>
    return
  }
}
