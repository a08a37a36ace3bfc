// REQUIRES: strata-opt
// A tile reduced to a scalar is reduced by the whole block: each thread
// folds its elements, each warp by butterfly shuffles (of the value and of
// whether it holds any element), the warps' results through shared memory
// after a barrier. With one warp there is no shared memory.
// RUN: strata-opt %s --convert-kernel-to-nvptx=vector-bytes=4 | FileCheck %s --check-prefix=SCALAR
// RUN: strata-opt %s --convert-kernel-to-nvptx | FileCheck %s
// RUN: strata-opt %s --convert-kernel-to-nvptx=num-warps=1 | FileCheck %s --check-prefix=WARP
// RUN: strata-opt %s --convert-kernel-to-nvptx | strata-translate --emit=ptx | FileCheck %s --check-prefix=PTX

// Each thread folds a run of four consecutive elements (4 * tid ...): when
// all four are inside the load's mask they load without a branch each
// (LLVM merges them into one 128-bit load), else each under its own mask.
// CHECK-LABEL: func.func @row_max
// CHECK: %[[TID:.*]] = nvptx.thread_id x : i32
// CHECK: %[[F:.*]] = arith.muli %[[TID]], %c4_i32 : i32
// CHECK-COUNT-3: arith.andi
// CHECK-NEXT: scf.if %{{.*}} -> (f32, f32, f32, f32) {
// CHECK-NOT: scf.if
// CHECK-COUNT-4: nvptx.load %arg0
// CHECK: } else {
// CHECK-COUNT-4: scf.if
// CHECK-COUNT-10: nvptx.shfl_sync bfly
// CHECK: nvptx.shared_alloc {elements = 4 : i64} : !nvptx.ptr<f32, shared>
// CHECK: nvptx.shared_alloc {elements = 4 : i64} : !nvptx.ptr<i32, shared>
// CHECK: nvptx.lane_id
// CHECK: nvptx.barrier
// CHECK-COUNT-4: nvptx.load %{{.*}} : !nvptx.ptr<f32, shared> -> f32
// CHECK: nvptx.store
// One element at a time: at tid, tid + 128, ... (no runs).
// SCALAR-LABEL: func.func @row_max
// SCALAR-NOT: arith.andi
// SCALAR: arith.addi %{{.*}}, %c128_i32 : i32
// SCALAR: nvptx.shfl_sync bfly
// WARP-LABEL: func.func @row_max
// WARP-COUNT-10: nvptx.shfl_sync bfly
// WARP-NOT: nvptx.barrier
// PTX: .entry row_max(
// PTX: ld.global.v4.b32
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync 0;
kernel.func @row_max(%x: !kernel.ptr<f32>, %y: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
  %pid = program_id x : i32
  %c300 = arith.constant 300 : i32
  %base = arith.muli %pid, %c300 : i32
  %r = range 0, 512 : tensor<512xi32>
  %n = splat %c300 : i32 -> tensor<512xi32>
  %m = arith.cmpi slt, %r, %n : tensor<512xi32>
  %b = splat %base : i32 -> tensor<512xi32>
  %o = arith.addi %b, %r : tensor<512xi32>
  %p = splat %x : !kernel.ptr<f32> -> tensor<512x!kernel.ptr<f32>>
  %po = addptr %p, %o : tensor<512x!kernel.ptr<f32>>, tensor<512xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<512xf32>
  %v = load %po, %m, %ninf : tensor<512x!kernel.ptr<f32>>
  %mx = kernel.reduce %v axis = 0 {
  ^bb0(%a: f32, %c: f32):
    %z = arith.maximumf %a, %c : f32
    kernel.yield %z : f32
  } : tensor<512xf32> -> f32
  %py = addptr %y, %pid : !kernel.ptr<f32>, i32
  store %py, %mx : !kernel.ptr<f32>
  return
}
