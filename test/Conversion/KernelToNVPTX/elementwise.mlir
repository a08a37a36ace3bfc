// REQUIRES: strata-opt
// convert-kernel-to-nvptx: each kernel.func gets its GPU form in module
// @gpu. A store becomes the thread's elements (cyclic over the block's
// threads), each computed where it is stored: the offsets from the thread
// id, the masked loads under scf.if, the arithmetic on scalars.
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx | FileCheck %s
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx="sm=80 num-warps=1" | FileCheck %s --check-prefix=WARP
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx="vector-bytes=4" | FileCheck %s --check-prefix=SCALAR
// RUN: not strata-opt %s --split-input-file --convert-kernel-to-nvptx="vector-bytes=3" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: convert-kernel-to-nvptx: vector-bytes 3: expected a power of two from 1 to 16
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx | strata-translate --split-input-file --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx=ptx=78 | FileCheck %s --check-prefix=PTX78
// RUN: strata-opt %s --split-input-file --convert-kernel-to-nvptx=ptx=78 | strata-translate --split-input-file --emit=ptx | FileCheck %s --check-prefix=PTX78-TEXT
// PTX78: module @gpu attributes {nvptx.ptx_version = 78 : i64, nvptx.target = "sm_90"}
// PTX78-TEXT: .version 7.8

// 256 elements over 128 threads: a run of two consecutive elements per
// thread (both always inside the tile: no bounds guard). The pointer
// parameters promise 16 bytes (every buffer of the plan starts there).
// CHECK-LABEL: kernel.func @add
// CHECK: module @gpu attributes {nvptx.target = "sm_90"} {
// CHECK: func.func @add(%arg0: !nvptx.ptr<f32, global> {llvm.align = 16 : i64}, %arg1: !nvptx.ptr<f32, global> {llvm.align = 16 : i64}, %arg2: i32) attributes {nvptx.grid_rank = 1 : i32, nvptx.threads = 128 : i64}
// CHECK: %[[TID:.*]] = nvptx.thread_id x : i32
// CHECK: %[[PID:.*]] = nvptx.block_id x : i32
// The run's first element is at 2 * tid, its second one after it.
// CHECK: %[[F:.*]] = arith.muli %[[TID]], %c2_i32 : i32
// CHECK: %[[S:.*]] = arith.addi %[[F]], %c1_i32 : i32
// CHECK: %[[O0:.*]] = arith.addi %{{.*}}, %[[F]] : i32
// CHECK: %[[M0:.*]] = arith.cmpi slt, %[[O0]], %arg2 : i32
// CHECK: %[[O1:.*]] = arith.addi %{{.*}}, %[[S]] : i32
// CHECK: %[[M1:.*]] = arith.cmpi slt, %[[O1]], %arg2 : i32
// CHECK: %[[ALL:.*]] = arith.andi %[[M0]], %[[M1]] : i1
// Both lanes inside the mask: the loads need no branch, both values are
// computed before the one vector store.
// CHECK: scf.if %[[ALL]] {
// CHECK-NOT: scf.if
// CHECK: nvptx.load %arg0
// CHECK: math.exp
// CHECK: nvptx.load %arg0
// CHECK: math.exp
// CHECK: %[[V:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK-NEXT: nvptx.store %[[V]], %arg1[%{{.*}}] : vector<2xf32>, !nvptx.ptr<f32, global>
// A ragged edge: each lane under its own mask.
// CHECK: } else {
// CHECK: scf.if %[[M0]] -> (f32)
// CHECK: scf.if %[[M0]] {
// CHECK-NEXT: nvptx.store %{{.*}} : f32, !nvptx.ptr<f32, global>
// CHECK: scf.if %[[M1]] -> (f32)
// CHECK: scf.if %[[M1]] {
// CHECK-NEXT: nvptx.store %{{.*}} : f32, !nvptx.ptr<f32, global>
// CHECK: return
// One element per thread at a time: the cyclic form, tid and tid + 128.
// SCALAR-LABEL: func.func @add(
// SCALAR-NOT: vector.from_elements
// SCALAR: arith.addi %{{.*}}, %c128_i32 : i32
// SCALAR-NOT: vector.from_elements
// SCALAR: return
// WARP: module @gpu attributes {nvptx.target = "sm_80"}
// Eight elements per thread: two runs of four (128-bit accesses).
// WARP: nvptx.threads = 32
// WARP-COUNT-2: vector.from_elements {{.*}} : vector<4xf32>
// WARP-NOT: vector.from_elements
// In the assembly, the run's loads and its store are 64-bit vector
// accesses; the parameters are 16-byte aligned.
// PTX: .target sm_90
// PTX: .entry add(
// PTX-NEXT: .param .u64 .ptr .global .align 16 add_param_0,
// PTX: .reqntid 128
// PTX: mov.u32 %r{{[0-9]+}}, %tid.x;
// PTX: ld.global.v2.b32
// PTX: st.global.v2.b32
module {
  kernel.func @add(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %n: i32) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %pid = program_id x : i32
    %c256 = arith.constant 256 : i32
    %base = arith.muli %pid, %c256 : i32
    %r = range 0, 256 : tensor<256xi32>
    %b = splat %base : i32 -> tensor<256xi32>
    %o = arith.addi %b, %r : tensor<256xi32>
    %ns = splat %n : i32 -> tensor<256xi32>
    %m = arith.cmpi slt, %o, %ns : tensor<256xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<256x!kernel.ptr<f32>>
    %pxo = addptr %px, %o : tensor<256x!kernel.ptr<f32>>, tensor<256xi32>
    %v = load %pxo, %m : tensor<256x!kernel.ptr<f32>>
    %e = math.exp %v : tensor<256xf32>
    %py = splat %y : !kernel.ptr<f32> -> tensor<256x!kernel.ptr<f32>>
    %pyo = addptr %py, %o : tensor<256x!kernel.ptr<f32>>, tensor<256xi32>
    store %pyo, %e, %m : tensor<256x!kernel.ptr<f32>>
    return
  }
}

// -----

// A 2-D tile of 10x3 (30 elements) over 128 threads: its sizes are not
// powers of two, so the default layout deals it flat (rank 1, row-major),
// given to the stored tile's type: one element per thread, guarded; a row
// broadcast reads the column index only; a reduction over a row is a loop in
// the thread.
// CHECK: #[[F:blocked[0-9]*]] = #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: store {{.*}} : tensor<10x3x!kernel.ptr<f32>, #[[F]]>
// CHECK-LABEL: func.func @rows
// CHECK: %[[TID:.*]] = nvptx.thread_id x : i32
// CHECK: arith.remui %[[TID]], %c3_i32 : i32
// CHECK: arith.divui %[[TID]], %c3_i32 : i32
// CHECK: arith.cmpi slt, %[[TID]], %c30_i32 : i32
// CHECK: scf.if
// CHECK: scf.for
// CHECK: arith.maximumf
// CHECK: nvptx.store
// PTX: .entry rows(
module {
  kernel.func @rows(%x: !kernel.ptr<f32>, %b: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
    %r10 = range 0, 10 : tensor<10xi32>
    %r3 = range 0, 3 : tensor<3xi32>
    %r8 = range 0, 8 : tensor<8xi32>
    %c8 = arith.constant 8 : i32
    %rows = expand_dims %r10 axis = 1 : tensor<10xi32> -> tensor<10x1xi32>
    %c8s = splat %c8 : i32 -> tensor<10x1xi32>
    %rowoff = arith.muli %rows, %c8s : tensor<10x1xi32>
    %cols = expand_dims %r8 axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
    %rb = broadcast %rowoff : tensor<10x1xi32> -> tensor<10x8xi32>
    %cb = broadcast %cols : tensor<1x8xi32> -> tensor<10x8xi32>
    %off = arith.addi %rb, %cb : tensor<10x8xi32>
    %px = splat %x : !kernel.ptr<f32> -> tensor<10x8x!kernel.ptr<f32>>
    %pxo = addptr %px, %off : tensor<10x8x!kernel.ptr<f32>>, tensor<10x8xi32>
    %v = load %pxo : tensor<10x8x!kernel.ptr<f32>>
    %m = kernel.reduce %v axis = 1 {
    ^bb0(%a: f32, %c: f32):
      %mx = arith.maximumf %a, %c : f32
      kernel.yield %mx : f32
    } : tensor<10x8xf32> -> tensor<10xf32>
    %m2 = expand_dims %m axis = 1 : tensor<10xf32> -> tensor<10x1xf32>
    %mb = broadcast %m2 : tensor<10x1xf32> -> tensor<10x3xf32>
    %c3 = expand_dims %r3 axis = 0 : tensor<3xi32> -> tensor<1x3xi32>
    %c3b = broadcast %c3 : tensor<1x3xi32> -> tensor<10x3xi32>
    %pb = splat %b : !kernel.ptr<f32> -> tensor<10x3x!kernel.ptr<f32>>
    %pbo = addptr %pb, %c3b : tensor<10x3x!kernel.ptr<f32>>, tensor<10x3xi32>
    %bias = load %pbo : tensor<10x3x!kernel.ptr<f32>>
    %s = arith.addf %mb, %bias : tensor<10x3xf32>
    %r3rows = expand_dims %r10 axis = 1 : tensor<10xi32> -> tensor<10x1xi32>
    %c3c = arith.constant dense<3> : tensor<10x1xi32>
    %yro = arith.muli %r3rows, %c3c : tensor<10x1xi32>
    %yrb = broadcast %yro : tensor<10x1xi32> -> tensor<10x3xi32>
    %yoff = arith.addi %yrb, %c3b : tensor<10x3xi32>
    %py = splat %y : !kernel.ptr<f32> -> tensor<10x3x!kernel.ptr<f32>>
    %pyo = addptr %py, %yoff : tensor<10x3x!kernel.ptr<f32>>, tensor<10x3xi32>
    store %pyo, %s : tensor<10x3x!kernel.ptr<f32>>
    return
  }
}
