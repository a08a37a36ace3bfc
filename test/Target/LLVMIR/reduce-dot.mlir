// strata-translate: kernel.reduce becomes a loop over the reduced axis with
// the combiner inlined (reassociation allowed), and kernel.dot an M x K x N
// loop nest of llvm.fmuladd on stack tiles; an scf.for over K carries the
// accumulator tile in a slot.
// RUN: strata-translate --emit=llvm-ir %s | FileCheck %s
// RUN: strata-translate -O3 %s | FileCheck %s --check-prefix=O3

// CHECK-LABEL: define void @row_max(ptr %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5) {
// The reduction starts from maximumf's identity, -inf, and combines
// elements 0..128, each a masked load (read where the load is used) that
// falls back to -inf.
// CHECK: store float 0xFFF0000000000000, ptr %acc
// CHECK: icmp slt i64 %i, 128
// CHECK: br i1 %{{[0-9]+}}, label %load, label %loaded
// CHECK: phi float [ %{{[0-9]+}}, %load ], [ 0xFFF0000000000000, %{{.*}} ]
// CHECK: call float @llvm.maximum.f32(
// CHECK: store float %{{[0-9]+}}, ptr %acc
// CHECK: declare float @llvm.maximum.f32(float, float)
// CHECK-LABEL: define void @dot_k(ptr %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5) {
// The accumulator tile: 16 x 16 floats, loop-carried.
// CHECK-DAG: alloca [256 x float]
// CHECK: for:
// CHECK: %iv = phi i32
// A 16x16 accumulator takes the register-blocked micro-kernel: vector FMAs.
// CHECK: call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}}, <8 x float> %{{[0-9]+}})
// CHECK: declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)

// O3-LABEL: define void @row_max(
// O3-LABEL: define void @dot_k(
// O3: {{<[0-9]+ x float>}}

kernel.func @row_max(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %cols: i32) {
  %row = kernel.program_id x : i32
  %r = kernel.range 0, 128 : tensor<128xi32>
  %base = arith.muli %row, %cols : i32
  %sb = kernel.splat %base : i32 -> tensor<128xi32>
  %offs = arith.addi %sb, %r : tensor<128xi32>
  %sc = kernel.splat %cols : i32 -> tensor<128xi32>
  %ok = arith.cmpi slt, %r, %sc : tensor<128xi32>
  %px = kernel.splat %x : !kernel.ptr<f32> -> tensor<128x!kernel.ptr<f32>>
  %in = kernel.addptr %px, %offs : tensor<128x!kernel.ptr<f32>>, tensor<128xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32>
  %v = kernel.load %in, %ok, %ninf : tensor<128x!kernel.ptr<f32>>
  %m = kernel.reduce %v axis = 0 {
  ^bb0(%a: f32, %b: f32):
    %mx = arith.maximumf %a, %b : f32
    kernel.yield %mx : f32
  } : tensor<128xf32> -> f32
  %py = kernel.addptr %y, %row : !kernel.ptr<f32>, i32
  kernel.store %py, %m : !kernel.ptr<f32>
  kernel.return
}

// C[16, 16] = A[16, K] * B[K, 16], K a multiple of 8 (no masks).
kernel.func @dot_k(%a: !kernel.ptr<f32>, %b: !kernel.ptr<f32>, %c: !kernel.ptr<f32>, %K: i32) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %r16 = kernel.range 0, 16 : tensor<16xi32>
  %r8 = kernel.range 0, 8 : tensor<8xi32>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k0 = %c0 to %K step %c8 iter_args(%acc0 = %zero) -> (tensor<16x16xf32>) : i32 {
    %sk0 = kernel.splat %k0 : i32 -> tensor<8xi32>
    %rk = arith.addi %sk0, %r8 : tensor<8xi32>
    %rm2 = kernel.expand_dims %r16 axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
    %rk2 = kernel.expand_dims %rk axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
    %rmb = kernel.broadcast %rm2 : tensor<16x1xi32> -> tensor<16x8xi32>
    %rkb = kernel.broadcast %rk2 : tensor<1x8xi32> -> tensor<16x8xi32>
    %sK = kernel.splat %K : i32 -> tensor<16x8xi32>
    %rowoff = arith.muli %rmb, %sK : tensor<16x8xi32>
    %aoff = arith.addi %rowoff, %rkb : tensor<16x8xi32>
    %pa = kernel.splat %a : !kernel.ptr<f32> -> tensor<16x8x!kernel.ptr<f32>>
    %aptr = kernel.addptr %pa, %aoff : tensor<16x8x!kernel.ptr<f32>>, tensor<16x8xi32>
    %at = kernel.load %aptr : tensor<16x8x!kernel.ptr<f32>>
    %rk3 = kernel.expand_dims %rk axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
    %rn3 = kernel.expand_dims %r16 axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
    %rkb3 = kernel.broadcast %rk3 : tensor<8x1xi32> -> tensor<8x16xi32>
    %rnb3 = kernel.broadcast %rn3 : tensor<1x16xi32> -> tensor<8x16xi32>
    %s16 = kernel.splat %c16 : i32 -> tensor<8x16xi32>
    %boffr = arith.muli %rkb3, %s16 : tensor<8x16xi32>
    %boff = arith.addi %boffr, %rnb3 : tensor<8x16xi32>
    %pb = kernel.splat %b : !kernel.ptr<f32> -> tensor<8x16x!kernel.ptr<f32>>
    %bptr = kernel.addptr %pb, %boff : tensor<8x16x!kernel.ptr<f32>>, tensor<8x16xi32>
    %bt = kernel.load %bptr : tensor<8x16x!kernel.ptr<f32>>
    %next = kernel.dot %at, %bt, %acc0 : tensor<16x8xf32> * tensor<8x16xf32> -> tensor<16x16xf32>
    scf.yield %next : tensor<16x16xf32>
  }
  %rm4 = kernel.expand_dims %r16 axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %rn4 = kernel.expand_dims %r16 axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %rmb4 = kernel.broadcast %rm4 : tensor<16x1xi32> -> tensor<16x16xi32>
  %rnb4 = kernel.broadcast %rn4 : tensor<1x16xi32> -> tensor<16x16xi32>
  %s16b = kernel.splat %c16 : i32 -> tensor<16x16xi32>
  %crow = arith.muli %rmb4, %s16b : tensor<16x16xi32>
  %coff = arith.addi %crow, %rnb4 : tensor<16x16xi32>
  %pc = kernel.splat %c : !kernel.ptr<f32> -> tensor<16x16x!kernel.ptr<f32>>
  %cptr = kernel.addptr %pc, %coff : tensor<16x16x!kernel.ptr<f32>>, tensor<16x16xi32>
  kernel.store %cptr, %acc : tensor<16x16x!kernel.ptr<f32>>
  kernel.return
}
