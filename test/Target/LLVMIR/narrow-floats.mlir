// f16 and bf16 on the host: values live in f32 registers. An f16 is a
// `half` in memory (fpext on load, fptrunc on store: F16C's conversions);
// a bf16 is an i16 (its conversions are integer code: a shift to load,
// round-to-nearest-even to store, NaNs kept quiet). Arithmetic on a narrow
// type is rounded back to it; constants are f32.
// RUN: strata-translate --emit=llvm-ir %s | FileCheck %s
// RUN: strata-translate -O3 %s | FileCheck %s --check-prefix=O3

// CHECK-LABEL: define void @add_f16(
// CHECK: getelementptr half, ptr
// CHECK: %[[H:[0-9]+]] = load half, ptr
// CHECK-NEXT: fpext half %[[H]] to float
// The sum is rounded to f16 (through half) and stored as half.
// CHECK: %[[S:[0-9]+]] = fadd float
// CHECK-NEXT: %[[R:[0-9]+]] = fptrunc float %[[S]] to half
// CHECK-NEXT: fpext half %[[R]] to float
// CHECK: fptrunc float %{{[0-9]+}} to half
// CHECK-NEXT: store half
kernel.func @add_f16(%x: !kernel.ptr<f16>, %out: !kernel.ptr<f16>) {
  %r = kernel.range 0, 16 : tensor<16xi32>
  %px = kernel.splat %x : !kernel.ptr<f16> -> tensor<16x!kernel.ptr<f16>>
  %po = kernel.splat %out : !kernel.ptr<f16> -> tensor<16x!kernel.ptr<f16>>
  %ax = kernel.addptr %px, %r : tensor<16x!kernel.ptr<f16>>, tensor<16xi32>
  %ao = kernel.addptr %po, %r : tensor<16x!kernel.ptr<f16>>, tensor<16xi32>
  %v = kernel.load %ax : tensor<16x!kernel.ptr<f16>>
  %one = arith.constant dense<1.5> : tensor<16xf16>
  %s = arith.addf %v, %one : tensor<16xf16>
  kernel.store %ao, %s : tensor<16x!kernel.ptr<f16>>
  kernel.return
}

// CHECK-LABEL: define void @widen_bf16(
// A bf16 loads as i16 bits, shifted into the high half of an f32.
// CHECK: getelementptr i16, ptr
// CHECK: %[[B:[0-9]+]] = load i16, ptr
// CHECK-NEXT: %[[Z:[0-9]+]] = zext i16 %[[B]] to i32
// CHECK-NEXT: %[[SH:[0-9]+]] = shl i32 %[[Z]], 16
// CHECK-NEXT: bitcast i32 %[[SH]] to float
// extf to f32 is the register value itself; the f32 store needs nothing.
// CHECK-NOT: fpext
// CHECK: store float
// Truncating to bf16: add 0x7fff plus the kept lsb, drop the low half; a NaN
// keeps its payload with the quiet bit set.
// CHECK: lshr i32 %{{[0-9]+}}, 16
// CHECK: add i32 32767
// CHECK: and i32 %{{[0-9]+}}, -65536
// CHECK: or i32 %{{[0-9]+}}, 4194304
// CHECK: fcmp uno float
// CHECK: trunc i32 %{{[0-9]+}} to i16
// CHECK-NEXT: store i16
kernel.func @widen_bf16(%x: !kernel.ptr<bf16>, %wide: !kernel.ptr<f32>, %narrow: !kernel.ptr<bf16>) {
  %r = kernel.range 0, 16 : tensor<16xi32>
  %px = kernel.splat %x : !kernel.ptr<bf16> -> tensor<16x!kernel.ptr<bf16>>
  %pw = kernel.splat %wide : !kernel.ptr<f32> -> tensor<16x!kernel.ptr<f32>>
  %pn = kernel.splat %narrow : !kernel.ptr<bf16> -> tensor<16x!kernel.ptr<bf16>>
  %ax = kernel.addptr %px, %r : tensor<16x!kernel.ptr<bf16>>, tensor<16xi32>
  %aw = kernel.addptr %pw, %r : tensor<16x!kernel.ptr<f32>>, tensor<16xi32>
  %an = kernel.addptr %pn, %r : tensor<16x!kernel.ptr<bf16>>, tensor<16xi32>
  %v = kernel.load %ax : tensor<16x!kernel.ptr<bf16>>
  %w = arith.extf %v : tensor<16xbf16> to tensor<16xf32>
  kernel.store %aw, %w : tensor<16x!kernel.ptr<f32>>
  %e = math.exp %w : tensor<16xf32>
  %t = arith.truncf %e : tensor<16xf32> to tensor<16xbf16>
  kernel.store %an, %t : tensor<16x!kernel.ptr<bf16>>
  kernel.return
}

// After -O3, LLVM folds the exact f32 detour into half arithmetic (which
// the x86 back end computes through F16C); no compiler-rt call remains.
// O3-LABEL: define void @add_f16(
// O3: fadd half
// O3-NOT: call {{.*}}@__
