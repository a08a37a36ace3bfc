// REQUIRES: strata-opt
// graph-convert-conv-layout: convolutions and pools compute channels last,
// between transposes of their input (and weight) and of their result;
// graph-eliminate-layout then lets the transposes through batch norms,
// elementwise ops and their constants until they meet and cancel. With
// layout=nchw, channels-last ops go back.
// RUN: strata-opt %s --split-input-file --graph-convert-conv-layout | FileCheck %s
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(graph-convert-conv-layout,graph-eliminate-layout,graph-fold-constants,dce)' | FileCheck %s --check-prefix=CANCEL
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(graph-convert-conv-layout,graph-convert-conv-layout{layout=nchw},graph-eliminate-layout)' | FileCheck %s --check-prefix=BACK
// RUN: not strata-opt %s --split-input-file --pass-pipeline='builtin.module(graph-convert-conv-layout{layout=chwn})' 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @conv
// CHECK-NEXT: %[[X:.*]] = graph.transpose %arg0 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
// CHECK-NEXT: %[[W:.*]] = graph.transpose %arg1 {perm = array<i64: 0, 2, 3, 1>} : (tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[X]], %[[W]], %arg2 {layout = "nhwc", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.transpose %[[C]] {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: return %[[Y]]
// BACK-LABEL: func.func @conv
// BACK-NEXT: graph.conv2d %arg0, %arg1, %arg2 {pads
// BACK-NOT: layout
// BACK-NEXT: return
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// A conv, its batch norm and relu, a pool and a second conv whose result
// is scaled by a per-channel constant and added to the pool's: one
// transpose in, one out. The batch norm is a per-channel affine map along
// the last dim, its factors folded.
// CANCEL-LABEL: func.func @block
// CANCEL: %[[X:.*]] = graph.transpose %arg0 {perm = array<i64: 0, 2, 3, 1>}
// CANCEL: %[[C:.*]] = graph.conv2d %[[X]], %{{.*}} {layout = "nhwc"} : (tensor<1x8x8x3xf32>, tensor<4x1x1x3xf32>) -> tensor<1x8x8x4xf32>
// s = 2 / sqrt(4 + 1e-5), t = 0.25 - 0.1 * s
// CANCEL-NEXT: %[[SC:.*]] = graph.constant dense<0.999998807> : tensor<4xf32>
// CANCEL-NEXT: %[[TC:.*]] = graph.constant dense<0.150000125> : tensor<4xf32>
// CANCEL-NEXT: %[[S:.*]] = graph.mul %[[C]], %[[SC]] : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
// CANCEL-NEXT: %[[T:.*]] = graph.add %[[S]], %[[TC]] : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
// CANCEL-NEXT: %[[R:.*]] = graph.relu %[[T]]
// CANCEL-NEXT: %[[P:.*]] = graph.max_pool2d %[[R]] {kernel_shape = array<i64: 2, 2>, layout = "nhwc", strides = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
// CANCEL: %[[D:.*]] = graph.conv2d %[[P]], %{{.*}} {layout = "nhwc"}
// CANCEL-NEXT: %[[KC:.*]] = graph.constant dense<[{{\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]]]> : tensor<1x1x1x4xf32>
// CANCEL-NEXT: %[[M:.*]] = graph.mul %[[D]], %[[KC]] : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x4x4x4xf32>
// CANCEL-NEXT: %[[A:.*]] = graph.add %[[M]], %[[P]]
// CANCEL-NEXT: %[[Y:.*]] = graph.transpose %[[A]] {perm = array<i64: 0, 3, 1, 2>}
// CANCEL-NEXT: return %[[Y]]
func.func @block(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<4x3x1x1xf32>
  %s = graph.constant dense<2.0> : tensor<4xf32>
  %b = graph.constant dense<0.25> : tensor<4xf32>
  %m = graph.constant dense<0.1> : tensor<4xf32>
  %v = graph.constant dense<4.0> : tensor<4xf32>
  %w2 = graph.constant dense<0.125> : tensor<4x4x1x1xf32>
  %k = graph.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.batch_norm %0, %s, %b, %m, %v : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = graph.relu %1 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %3 = graph.max_pool2d %2 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %4 = graph.conv2d %3, %w2 : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %5 = graph.mul %4, %k : (tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %6 = graph.add %5, %3 : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %6 : tensor<1x4x4x4xf32>
}

// -----

// A pool with indices keeps NCHW (the indices are NCHW positions); an
// average pool converts.
// CHECK-LABEL: func.func @pools
// CHECK-NEXT: graph.max_pool2d %arg0 {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
// CHECK-NEXT: %[[X:.*]] = graph.transpose %arg0 {perm = array<i64: 0, 2, 3, 1>}
// CHECK-NEXT: %[[P:.*]] = graph.avg_pool2d %[[X]] {count_include_pad = true, kernel_shape = array<i64: 3, 3>, layout = "nhwc", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK-NEXT: graph.transpose %[[P]] {perm = array<i64: 0, 3, 1, 2>}
func.func @pools(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>, tensor<1x2x4x4xf32>) {
  %0, %1 = graph.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
  %2 = graph.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0, %1, %2 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>, tensor<1x2x4x4xf32>
}

// BAD: error: 'builtin.module' op graph-convert-conv-layout: layout 'chwn': expected nhwc or nchw
