// The nvptx dialect's ops in their custom form: printing what was parsed
// gives the same text, and the generic form reads back to it.
// REQUIRES: strata-opt
// RUN: strata-opt %s --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file | strata-opt --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | FileCheck %s

// A block-wide sum: each thread loads four consecutive elements, the warp
// reduces by butterfly shuffles, the warps' partial sums meet in shared
// memory.
// CHECK-LABEL: module attributes {nvptx.ptx_version = 88 : i64, nvptx.target = "sm_90"}
// CHECK:      func.func @row_sum(%arg0: !nvptx.ptr<f32, global>, %arg1: !nvptx.ptr<f32, global>)
// CHECK-NEXT:   %0 = nvptx.thread_id x : i32
// CHECK-NEXT:   %1 = nvptx.block_id x : i32
// CHECK-NEXT:   %2 = nvptx.block_dim x : i32
// CHECK-NEXT:   %3 = nvptx.grid_dim y : i32
// CHECK-NEXT:   %4 = nvptx.lane_id : i32
// CHECK-NEXT:   %5 = nvptx.cluster_id z : i32
// CHECK:        %[[V:.*]] = nvptx.load %arg0[%{{.*}}] : !nvptx.ptr<f32, global> -> vector<4xf32>
// CHECK-NEXT:   nvptx.store %[[V]], %arg1[%{{.*}}] : vector<4xf32>, !nvptx.ptr<f32, global>
// CHECK-NEXT:   %{{.*}} = nvptx.load %arg0[%0] : !nvptx.ptr<f32, global> -> f32
// CHECK:        %{{.*}} = nvptx.shfl_sync bfly %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NEXT:   %{{.*}} = nvptx.shfl_sync down %{{.*}}, %{{.*}} {width = 16 : i64} : f32 -> f32
// CHECK-NEXT:   %{{.*}} = nvptx.shfl_sync idx %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-NEXT:   %[[S:.*]] = nvptx.shared_alloc {elements = 32 : i64} : !nvptx.ptr<f32, shared>
// CHECK-NEXT:   nvptx.store %{{.*}}, %[[S]][%4] : f32, !nvptx.ptr<f32, shared>
// CHECK-NEXT:   nvptx.barrier
// CHECK-NEXT:   %{{.*}} = nvptx.load %[[S]][%4] : !nvptx.ptr<f32, shared> -> f32
// CHECK-NEXT:   nvptx.store %{{.*}}, %arg1[%1] : f32, !nvptx.ptr<f32, global>
module attributes {nvptx.target = "sm_90", nvptx.ptx_version = 88} {
  func.func @row_sum(%in: !nvptx.ptr<f32, global>, %out: !nvptx.ptr<f32, global>) {
    %tid = nvptx.thread_id x : i32
    %bid = nvptx.block_id x : i32
    %ntid = nvptx.block_dim x : i32
    %ny = nvptx.grid_dim y : i32
    %lane = nvptx.lane_id : i32
    %cl = nvptx.cluster_id z : i32
    %c4 = arith.constant 4 : i32
    %i = arith.muli %tid, %c4 : i32
    %v = nvptx.load %in[%i] : !nvptx.ptr<f32, global> -> vector<4xf32>
    nvptx.store %v, %out[%i] : vector<4xf32>, !nvptx.ptr<f32, global>
    %x = nvptx.load %in[%tid] : !nvptx.ptr<f32, global> -> f32
    %c1 = arith.constant 1 : i32
    %y = nvptx.shfl_sync bfly %x, %c1 : f32 -> f32
    %z = nvptx.shfl_sync down %y, %c1 {width = 16} : f32 -> f32
    %w = nvptx.shfl_sync idx %tid, %c1 : i32 -> i32
    %s = nvptx.shared_alloc {elements = 32} : !nvptx.ptr<f32, shared>
    nvptx.store %z, %s[%lane] : f32, !nvptx.ptr<f32, shared>
    nvptx.barrier
    %r = nvptx.load %s[%lane] : !nvptx.ptr<f32, shared> -> f32
    nvptx.store %r, %out[%bid] : f32, !nvptx.ptr<f32, global>
    return
  }
}

// -----

// One warp's m16n8k16 tile product on sm_80.
// CHECK-LABEL: func.func @mma
// CHECK-NEXT: %0 = nvptx.mma_sync %arg0, %arg1, %arg2 : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
module attributes {nvptx.target = "sm_80"} {
  func.func @mma(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) -> vector<4xf32> {
    %d = nvptx.mma_sync %a, %b, %c : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
    return %d : vector<4xf32>
  }
}
