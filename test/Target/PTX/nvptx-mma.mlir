// REQUIRES: ptxas
// nvptx to PTX through LLVM's NVPTX back end, assembled by ptxas for the
// module's target: Tensor-core tile products (mma.sync) on sm_80.
// RUN: strata-translate --emit=ptx %s | FileCheck %s
// RUN: strata-translate --emit=ptx %s -o %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: strata-translate --emit=llvm-ir %s | FileCheck %s --check-prefix=IR

// One warp's bf16 and f16 m16n8k16 products with f32 accumulators.
// CHECK-LABEL: .visible .entry mma(
// IR-LABEL: define ptx_kernel void @mma(
// IR: call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %{{.*}}, i32
// IR: call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %{{.*}}, <2 x half>
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
module attributes {nvptx.target = "sm_80"} {
  func.func @mma(%a: !nvptx.ptr<bf16, global>, %b: !nvptx.ptr<bf16, global>, %h: !nvptx.ptr<f16, global>, %c: !nvptx.ptr<f32, global>) {
    %lane = nvptx.lane_id : i32
    %c8 = arith.constant 8 : i32
    %c4 = arith.constant 4 : i32
    %ia = arith.muli %lane, %c8 : i32
    %ib = arith.muli %lane, %c4 : i32
    %fa = nvptx.load %a[%ia] : !nvptx.ptr<bf16, global> -> vector<8xbf16>
    %fb = nvptx.load %b[%ib] : !nvptx.ptr<bf16, global> -> vector<4xbf16>
    %ha = nvptx.load %h[%ia] : !nvptx.ptr<f16, global> -> vector<8xf16>
    %hb = nvptx.load %h[%ib] : !nvptx.ptr<f16, global> -> vector<4xf16>
    %fc = nvptx.load %c[%ib] : !nvptx.ptr<f32, global> -> vector<4xf32>
    %d = nvptx.mma_sync %fa, %fb, %fc : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    %e = nvptx.mma_sync %ha, %hb, %d : vector<8xf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>
    nvptx.store %e, %c[%ib] : vector<4xf32>, !nvptx.ptr<f32, global>
    return
  }
}
