// convert-tensor-to-kernel, elementwise form: a tensor.map becomes a 1-D
// kernel over the flattened result, `block` elements per program with a mask
// at the ragged end; a broadcast input is read at the point's coordinates
// (div/rem by the row length), the body is applied to whole tiles.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-tensor-to-kernel %s | FileCheck %s
// RUN: strata-opt --convert-tensor-to-kernel=block=256 %s | FileCheck %s --check-prefix=B256
// RUN: strata-opt '--pass-pipeline=builtin.module(convert-tensor-to-kernel{block=256})' %s | FileCheck %s --check-prefix=B256

// The host plan: the output buffer and one launch over ceil(1200 / 1024) programs.
// CHECK-LABEL: func.func @ew(%arg0: memref<4x300xf32>, %arg1: memref<300xf32>) -> memref<4x300xf32> attributes {kernel.arena_bytes = 4800 : i64} {
// CHECK-NEXT:    %[[OUT:.*]] = kernel.alloc offset 0 : memref<4x300xf32>
// CHECK-NEXT:    %[[G:.*]] = arith.constant 2 : index
// CHECK-NEXT:    kernel.launch @ew_0_map grid(%[[G]]) (%arg0, %arg1, %[[OUT]]) : memref<4x300xf32>, memref<300xf32>, memref<4x300xf32>
// CHECK-NEXT:    return %[[OUT]] : memref<4x300xf32>
// The kernel: inputs, then outputs, as pointers.
// CHECK-LABEL: kernel.func @ew_0_map(%arg0: !kernel.ptr<f32>, %arg1: !kernel.ptr<f32>, %arg2: !kernel.ptr<f32>) attributes {grid = 1 : i32, num_warps = 4 : i32} {
// CHECK-NEXT:    %[[PID:.*]] = program_id x : i32
// CHECK-NEXT:    %[[BLOCK:.*]] = arith.constant 1024 : i32
// Index arithmetic carries nsw (offsets fit in i32).
// CHECK-NEXT:    %[[BASE:.*]] = arith.muli %[[PID]], %[[BLOCK]] overflow<nsw> : i32
// CHECK-NEXT:    %[[R:.*]] = range 0, 1024 : tensor<1024xi32>
// CHECK-NEXT:    %[[SB:.*]] = splat %[[BASE]] : i32 -> tensor<1024xi32>
// CHECK-NEXT:    %[[OFFS:.*]] = arith.addi %[[SB]], %[[R]] overflow<nsw> : tensor<1024xi32>
// CHECK-NEXT:    %[[N:.*]] = arith.constant 1200 : i32
// CHECK-NEXT:    %[[SN:.*]] = splat %[[N]] : i32 -> tensor<1024xi32>
// CHECK-NEXT:    %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %[[SN]] : tensor<1024xi32>
// The column of each point, for the broadcast bias.
// CHECK:         %[[COL:.*]] = arith.remsi %[[OFFS]], %{{.*}} : tensor<1024xi32>
// CHECK:         %[[PX:.*]] = addptr %{{.*}}, %[[OFFS]] : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
// CHECK-NEXT:    %[[X:.*]] = load %[[PX]], %[[MASK]] : tensor<1024x!kernel.ptr<f32>>
// CHECK:         %[[PB:.*]] = addptr %{{.*}}, %[[COL]] : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
// CHECK-NEXT:    %[[B:.*]] = load %[[PB]], %[[MASK]] : tensor<1024x!kernel.ptr<f32>>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[X]], %[[B]] : tensor<1024xf32>
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[S]] : tensor<1024xf32>
// CHECK:         %[[PO:.*]] = addptr %{{.*}}, %[[OFFS]] : tensor<1024x!kernel.ptr<f32>>, tensor<1024xi32>
// CHECK-NEXT:    store %[[PO]], %[[T]], %[[MASK]] : tensor<1024x!kernel.ptr<f32>>
// CHECK-NEXT:    return

// B256: %{{.*}} = arith.constant 5 : index
// B256: range 0, 256 : tensor<256xi32>

func.func @ew(%x: tensor<4x300xf32>, %b: tensor<300xf32>) -> tensor<4x300xf32> {
  %y = tensor.map ins(%x, %b : tensor<4x300xf32>, tensor<300xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %a, %c : f32
    %t = math.tanh %s : f32
    tensor.yield %t : f32
  } : tensor<4x300xf32>
  return %y : tensor<4x300xf32>
}
