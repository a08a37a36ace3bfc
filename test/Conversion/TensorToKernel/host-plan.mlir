// convert-tensor-to-kernel's host plan: the function on memrefs. A tensor
// constant is a kernel.constant buffer, a reshape a kernel.view of its
// source (no copy), each kernel's outputs kernel.alloc buffers of one arena
// whose offsets reuse the bytes of dead buffers (64-byte aligned), and the
// function records the arena's size and the buffers' total.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-tensor-to-kernel %s | FileCheck %s
// RUN: strata-opt --convert-tensor-to-kernel --mlir-pass-statistics %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// Without reuse every buffer has bytes of its own; a limit below the arena
// is an error at the launch where the most bytes are alive.
// RUN: strata-opt '--convert-tensor-to-kernel=memory-reuse=false' %s | FileCheck %s --check-prefix=OWN
// RUN: not strata-opt '--convert-tensor-to-kernel=max-activation-bytes=100' %s 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: strata-opt '--convert-tensor-to-kernel=max-activation-bytes=512' %s -o /dev/null
// OWN: func.func @plan({{.*}} attributes {kernel.arena_bytes = 192 : i64, kernel.unplanned_bytes = 192 : i64}
// LIMIT: error: 'kernel.launch' op the plan needs 128 bytes of activations, more than the limit of 100 (max-activation-bytes); 128 bytes are alive at this op, the peak

// CHECK-LABEL: func.func @plan(%arg0: memref<2x8xf32>) -> memref<16xf32> attributes {kernel.arena_bytes = 128 : i64, kernel.unplanned_bytes = 192 : i64} {
// CHECK-NEXT:    %[[W:.*]] = kernel.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]> : tensor<8xf32> : memref<8xf32>
// CHECK-NEXT:    %[[A:.*]] = kernel.alloc offset 0 : memref<2x8xf32>
// CHECK-NEXT:    %[[G0:.*]] = arith.constant 1 : index
// CHECK-NEXT:    kernel.launch @plan_0_map grid(%[[G0]]) (%arg0, %[[W]], %[[A]]) : memref<2x8xf32>, memref<8xf32>, memref<2x8xf32>
// CHECK-NEXT:    %[[B:.*]] = kernel.alloc offset 64 : memref<2x8xf32>
// CHECK-NEXT:    %[[G1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    kernel.launch @plan_1_map grid(%[[G1]]) (%[[A]], %[[B]]) : memref<2x8xf32>, memref<2x8xf32>
// %a is dead after the second launch: %c takes its bytes.
// CHECK-NEXT:    %[[C:.*]] = kernel.alloc offset 0 : memref<2x8xf32>
// CHECK-NEXT:    %[[G2:.*]] = arith.constant 1 : index
// CHECK-NEXT:    kernel.launch @plan_2_map grid(%[[G2]]) (%[[B]], %[[C]]) : memref<2x8xf32>, memref<2x8xf32>
// CHECK-NEXT:    %[[R:.*]] = kernel.view %[[C]] : memref<2x8xf32> to memref<16xf32>
// CHECK-NEXT:    return %[[R]] : memref<16xf32>
// CHECK-NEXT:  }

// A returned buffer is never reused; a splat constant stays a splat (the
// executor expands it once).
// CHECK-LABEL: func.func @returned(%arg0: memref<64xf32>) -> (memref<64xf32>, memref<64xf32>) attributes {kernel.arena_bytes = 512 : i64, kernel.unplanned_bytes = 512 : i64} {
// CHECK-NEXT:    kernel.constant dense<2.000000e+00> : tensor<64xf32> : memref<64xf32>
// CHECK-NEXT:    %[[P:.*]] = kernel.alloc offset 0 : memref<64xf32>
// CHECK:         %[[Q:.*]] = kernel.alloc offset 256 : memref<64xf32>
// CHECK:         return %[[P]], %[[Q]]
// The kernels follow the host functions.
// CHECK-LABEL: kernel.func @plan_0_map(
// CHECK-LABEL: kernel.func @plan_1_map(
// CHECK-LABEL: kernel.func @plan_2_map(
// CHECK-LABEL: kernel.func @returned_0_map(
// CHECK-LABEL: kernel.func @returned_1_map(

// STATS: 5 num-kernels
// STATS: 640 arena-bytes
// STATS: 704 unplanned-bytes

func.func @plan(%x: tensor<2x8xf32>) -> tensor<16xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %a = tensor.map ins(%x, %w : tensor<2x8xf32>, tensor<8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%p: f32, %q: f32):
    %s = arith.mulf %p, %q : f32
    tensor.yield %s : f32
  } : tensor<2x8xf32>
  %b = tensor.map ins(%a : tensor<2x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%p: f32):
    %s = math.exp %p : f32
    tensor.yield %s : f32
  } : tensor<2x8xf32>
  %c = tensor.map ins(%b : tensor<2x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%p: f32):
    %s = math.sqrt %p : f32
    tensor.yield %s : f32
  } : tensor<2x8xf32>
  %r = tensor.reshape %c : tensor<2x8xf32> to tensor<16xf32>
  return %r : tensor<16xf32>
}

func.func @returned(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %two = arith.constant dense<2.0> : tensor<64xf32>
  %a = tensor.map ins(%x, %two : tensor<64xf32>, tensor<64xf32>) maps [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>] {
  ^bb0(%p: f32, %q: f32):
    %s = arith.mulf %p, %q : f32
    tensor.yield %s : f32
  } : tensor<64xf32>
  %b = tensor.map ins(%a : tensor<64xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%p: f32):
    %s = math.exp %p : f32
    tensor.yield %s : f32
  } : tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}
