// strata-translate --emit=llvm-ir: a 1-D elementwise kernel with a ragged
// edge. The entry point runs programs begin..end of the grid; a masked load
// is a conditional load, evaluated where its value is used; maximumf is
// llvm.maximum. With -O3 the loops
// are vectorized for the host CPU.
// RUN: strata-translate --emit=llvm-ir %s | FileCheck %s
// RUN: strata-translate %s -o %t.ll && FileCheck %s < %t.ll
// RUN: cat %s | strata-translate --mlir-to-llvmir - | FileCheck %s
// RUN: strata-translate -O3 %s | FileCheck %s --check-prefix=O3
// RUN: strata-translate --optimize %s | FileCheck %s --check-prefix=O3

// CHECK: define void @relu_add(ptr %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5) {
// The parameters come from the argument array, one 8-byte slot each.
// CHECK: getelementptr inbounds i64, ptr %0, i64 3
// CHECK: %[[N64:[0-9]+]] = load i64, ptr
// CHECK-NEXT: %[[N:[0-9]+]] = trunc i64 %[[N64]] to i32
// The program loop: pid from begin (%4) while pid < end (%5).
// CHECK: program:
// CHECK-NEXT: %pid = phi i64 [ %4, %entry ]
// CHECK-NEXT: icmp slt i64 %pid, %5
// CHECK: %pid_x = srem i64 %pid, %1
// The masked load, inside the loop of the store that uses it: the address,
// the mask. A masked load reads only where the mask is on (a conditional
// load, which -O3 vectorizes into masked vector loads).
// CHECK: getelementptr float, ptr
// CHECK: %[[MASK:[0-9]+]] = icmp slt i32 %{{[0-9]+}}, %[[N]]
// CHECK-NEXT: br i1 %[[MASK]], label %load, label %loaded
// CHECK: load:
// CHECK-NEXT: %[[V:[0-9]+]] = load float, ptr %{{[0-9]+}}
// CHECK: loaded:
// CHECK-NEXT: phi float [ %[[V]], %load ], [ 0.000000e+00, %{{.*}} ]
// CHECK: fadd float
// CHECK-NEXT: call float @llvm.maximum.f32(float %{{[0-9]+}}, float 0.000000e+00)
// The masked store branches around the store.
// CHECK: br i1 %{{[0-9]+}}, label %store, label %stored
// CHECK: declare float @llvm.maximum.f32(float, float)

// O3: define void @relu_add(ptr {{.*}}%0, i64 {{.*}}%1, i64 {{.*}}%2, i64 {{.*}}%3, i64 {{.*}}%4, i64 {{.*}}%5)
// O3: {{<[0-9]+ x float>}}
// O3: @llvm.maximum.v{{[0-9]+}}f32

kernel.func @relu_add(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>, %out: !kernel.ptr<f32>, %n: i32) {
  %pid = kernel.program_id x : i32
  %c64 = arith.constant 64 : i32
  %base = arith.muli %pid, %c64 : i32
  %r = kernel.range 0, 64 : tensor<64xi32>
  %sb = kernel.splat %base : i32 -> tensor<64xi32>
  %offs = arith.addi %sb, %r : tensor<64xi32>
  %sn = kernel.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %sn : tensor<64xi32>
  %px = kernel.splat %x : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %py = kernel.splat %y : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %po = kernel.splat %out : !kernel.ptr<f32> -> tensor<64x!kernel.ptr<f32>>
  %ax = kernel.addptr %px, %offs : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %ay = kernel.addptr %py, %offs : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %ao = kernel.addptr %po, %offs : tensor<64x!kernel.ptr<f32>>, tensor<64xi32>
  %vx = kernel.load %ax, %mask : tensor<64x!kernel.ptr<f32>>
  %vy = kernel.load %ay, %mask : tensor<64x!kernel.ptr<f32>>
  %s = arith.addf %vx, %vy : tensor<64xf32>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %relu = arith.maximumf %s, %zero : tensor<64xf32>
  kernel.store %ao, %relu, %mask : tensor<64x!kernel.ptr<f32>>
  kernel.return
}
