// REQUIRES: ptxas
// nvptx to PTX through LLVM's NVPTX back end, assembled by ptxas for the
// module's target: A block-wide sum through vector loads, warp shuffles, shared memory and a barrier.
// RUN: strata-translate --emit=ptx %s | FileCheck %s
// RUN: strata-translate --emit=ptx %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: strata-translate --emit=llvm-ir %s | FileCheck %s --check-prefix=IR

// A block-wide sum of each thread's float: butterfly shuffles within
// each warp, the warps' partial sums through shared memory; and a copy of
// 4 floats per thread in one vector load and store.
// CHECK-LABEL: .visible .entry block_sum(
// CHECK: mov.u32 %r{{[0-9]+}}, %tid.x;
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK: st.global.b32
// CHECK: st.global.v4.b32
// IR-LABEL: define ptx_kernel void @block_sum(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2)
// IR: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// IR: load <4 x float>, ptr addrspace(1) %{{.*}}, align 16
// IR: call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %{{.*}}, i32 16, i32 31)
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
module attributes {nvptx.target = "sm_90"} {
  func.func @block_sum(%in: !nvptx.ptr<f32, global>, %out: !nvptx.ptr<f32, global>, %copy: !nvptx.ptr<f32, global>) {
    %tid = nvptx.thread_id x : i32
    %bid = nvptx.block_id x : i32
    %ntid = nvptx.block_dim x : i32
    %lane = nvptx.lane_id : i32
    %c4 = arith.constant 4 : i32
    %c32 = arith.constant 32 : i32
    %c0 = arith.constant 0 : i32
    %base = arith.muli %bid, %ntid : i32
    %t = arith.addi %base, %tid : i32
    %i = arith.muli %t, %c4 : i32
    %v = nvptx.load %in[%i] : !nvptx.ptr<f32, global> -> vector<4xf32>
    %i1 = arith.addi %i, %c0 : i32
    %x = nvptx.load %in[%i1] : !nvptx.ptr<f32, global> -> f32
    %o16 = arith.constant 16 : i32
    %o8 = arith.constant 8 : i32
    %o4 = arith.constant 4 : i32
    %o2 = arith.constant 2 : i32
    %o1 = arith.constant 1 : i32
    %s16 = nvptx.shfl_sync bfly %x, %o16 : f32 -> f32
    %x16 = arith.addf %x, %s16 : f32
    %s8 = nvptx.shfl_sync bfly %x16, %o8 : f32 -> f32
    %x8 = arith.addf %x16, %s8 : f32
    %s4 = nvptx.shfl_sync bfly %x8, %o4 : f32 -> f32
    %x4 = arith.addf %x8, %s4 : f32
    %s2 = nvptx.shfl_sync bfly %x4, %o2 : f32 -> f32
    %x2 = arith.addf %x4, %s2 : f32
    %s1 = nvptx.shfl_sync bfly %x2, %o1 : f32 -> f32
    %x1 = arith.addf %x2, %s1 : f32
    %warp = arith.divui %tid, %c32 : i32
    %partials = nvptx.shared_alloc {elements = 32} : !nvptx.ptr<f32, shared>
    %first = arith.cmpi eq, %lane, %c0 : i32
    scf.if %first {
      nvptx.store %x1, %partials[%warp] : f32, !nvptx.ptr<f32, shared>
    }
    nvptx.barrier
    %leader = arith.cmpi eq, %tid, %c0 : i32
    scf.if %leader {
      %p = nvptx.load %partials[%c0] : !nvptx.ptr<f32, shared> -> f32
      nvptx.store %p, %out[%bid] : f32, !nvptx.ptr<f32, global>
    }
    nvptx.store %v, %copy[%i] : vector<4xf32>, !nvptx.ptr<f32, global>
    return
  }
}
