// REQUIRES: ptxas
// nvptx to PTX through LLVM's NVPTX back end, assembled by ptxas for the
// module's target: A loop carrying a value, and math through libdevice.
// RUN: strata-translate --emit=ptx %s | FileCheck %s
// RUN: strata-translate --emit=ptx %s -o %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: strata-translate --emit=llvm-ir %s | FileCheck %s --check-prefix=IR

// A loop carrying a value, libdevice's expf and tanhf, on sm_80.
// CHECK-LABEL: .visible .entry softplus_sum(
// CHECK-NOT: call{{.*}}__nv_
// CHECK: ex2.approx
// IR-LABEL: define ptx_kernel void @softplus_sum(ptr addrspace(1) %0, i32 %1)
// IR: call float @__nv_expf(
// IR: call float @__nv_tanhf(
module attributes {nvptx.target = "sm_80", nvptx.ptx_version = 80} {
  func.func @softplus_sum(%p: !nvptx.ptr<f32, global>, %n: i32) {
    %tid = nvptx.thread_id x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
      %x = nvptx.load %p[%k] : !nvptx.ptr<f32, global> -> f32
      %e = math.exp %x : f32
      %e1 = arith.addf %e, %one : f32
      %t = math.tanh %e1 : f32
      %a = arith.addf %acc, %t : f32
      scf.yield %a : f32
    }
    nvptx.store %sum, %p[%tid] : f32, !nvptx.ptr<f32, global>
    return
  }
}
