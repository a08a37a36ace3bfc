// Convolutions and pools. Where the window leaves the input, a map pads it
// first (the input read wrapped into its bounds, the body selecting the
// fill outside them), so that the window reads it at affine indices,
// without `mod`. A convolution is then a transposed im2col (the output
// width innermost), reshapes and a contraction batched over the groups,
// then a map adding the bias in NCHW order. A pool of up to 64 taps is one
// map reading the input once per tap; a larger one reduces a window map.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s
// RUN: strata-opt --convert-graph-to-tensor %s | strata-opt | FileCheck %s

// CHECK-DAG: #[[PAD5:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, (d2 - 1) mod 5, (d3 - 1) mod 5)>
// CHECK-DAG: #[[COLS:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0 * 2 + d1, d5 * 2 + d2, d6 * 2 + d3)>
// CHECK-DAG: #[[LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[NCHW:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1 floordiv 3, d1 mod 3, d0, d2, d3)>
// CHECK-DAG: #[[BIAS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[T00:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[T01:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3 + 1)>
// CHECK-DAG: #[[T10:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 1, d3)>
// CHECK-DAG: #[[T11:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 1, d3 + 1)>
// CHECK-DAG: #[[PAD4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, (d2 - 1) mod 4, (d3 - 1) mod 4)>
// CHECK-DAG: #[[T22:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 2, d3 + 2)>
// CHECK-DAG: #[[COUNT:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG: #[[WIN:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>

// The padded input is [1, 4, 7, 7]: the last window (output 2, tap 2,
// stride 2) reaches padded row 6.
// CHECK-LABEL: func.func @conv(
// CHECK: %[[PADDED:.*]] = tensor.map ins(%arg0 : tensor<1x4x5x5xf32>) maps [#[[PAD5]]] {
// CHECK: tensor.index 2 : index
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: %[[V:.*]] = arith.select %{{.*}}, %{{.*}}, %cst : f32
// CHECK: tensor.yield %[[V]] : f32
// CHECK: } : tensor<1x4x7x7xf32>
// CHECK: %[[IM2COL:.*]] = tensor.map ins(%[[PADDED]] : tensor<1x4x7x7xf32>) maps [#[[COLS]]] {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: tensor.yield %[[X]] : f32
// CHECK-NEXT: } : tensor<2x2x3x3x1x3x3xf32>
// CHECK: %[[R:.*]] = tensor.reshape %[[IM2COL]] : tensor<2x2x3x3x1x3x3xf32> to tensor<2x18x9xf32>
// CHECK: %[[L:.*]] = tensor.reshape %arg1 : tensor<6x2x3x3xf32> to tensor<2x3x18xf32>
// CHECK: %[[P:.*]] = tensor.contract ins(%[[L]], %[[R]] : tensor<2x3x18xf32>, tensor<2x18x9xf32>) maps [#[[LHS]], #[[RHS]], #[[OUT]]] : tensor<2x3x9xf32>
// CHECK: %[[S:.*]] = tensor.reshape %[[P]] : tensor<2x3x9xf32> to tensor<2x3x1x3x3xf32>
// CHECK: tensor.map ins(%[[S]], %arg2 : tensor<2x3x1x3x3xf32>, tensor<6xf32>) maps [#[[NCHW]], #[[BIAS]]] {
// CHECK: arith.addf
// CHECK: } : tensor<1x6x3x3xf32>
func.func @conv(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x3x3xf32> {
  %0 = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, group = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
  return %0 : tensor<1x6x3x3xf32>
}

// Without padding the window stays inside: no padding map; one read per tap.
// CHECK-LABEL: func.func @max_pool(
// CHECK-NOT: mod
// CHECK: tensor.map ins(%arg0, %arg0, %arg0, %arg0 : {{.*}}) maps [#[[T00]], #[[T01]], #[[T10]], #[[T11]]] {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %[[D:.*]]: f32):
// CHECK-NEXT: %[[M1:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[M2:.*]] = arith.maximumf %[[M1]], %[[C]] : f32
// CHECK-NEXT: %[[M3:.*]] = arith.maximumf %[[M2]], %[[D]] : f32
// CHECK-NEXT: tensor.yield %[[M3]] : f32
// CHECK-NEXT: } : tensor<1x2x3x3xf32>
func.func @max_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %0 = graph.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// Without count_include_pad, each position divides by its own count.
// CHECK-LABEL: func.func @avg_pool(
// CHECK: %[[P:.*]] = tensor.map ins(%arg0 : tensor<1x2x4x4xf32>) maps [#[[PAD4]]] {
// CHECK: } : tensor<1x2x6x6xf32>
// CHECK: %[[S:.*]] = tensor.map ins(%[[P]], {{.*}}) maps [#[[T00]], {{.*}}, #[[T22]]] {
// CHECK-COUNT-8: arith.addf
// CHECK: } : tensor<1x2x4x4xf32>
// CHECK: %[[N:.*]] = arith.constant dense<{{\[\[}}4.000000e+00, 6.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00
// CHECK: tensor.map ins(%[[S]], %[[N]] : tensor<1x2x4x4xf32>, tensor<4x4xf32>) maps [#{{.*}}, #[[COUNT]]] {
// CHECK: arith.divf
func.func @avg_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// 81 taps: a window map reduced over its tap dims.
// CHECK-LABEL: func.func @large_pool(
// CHECK: %[[W:.*]] = tensor.map ins(%arg0 : tensor<1x1x10x10xf32>) maps [#[[WIN]]] {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: tensor.yield %[[X]] : f32
// CHECK-NEXT: } : tensor<1x1x2x2x9x9xf32>
// CHECK: tensor.reduce ins(%[[W]] : tensor<1x1x2x2x9x9xf32>) dims [4, 5] init(0xFF800000 : f32) {
// CHECK: arith.maximumf
// CHECK: } : tensor<1x1x2x2xf32>
func.func @large_pool(%x: tensor<1x1x10x10xf32>) -> tensor<1x1x2x2xf32> {
  %0 = graph.max_pool2d %x {kernel_shape = array<i64: 9, 9>} : (tensor<1x1x10x10xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// CHECK-LABEL: func.func @global(
// CHECK: %[[S:.*]] = tensor.reduce ins(%arg0 : tensor<2x3x4x5xf32>) dims [2, 3] init(0.000000e+00 : f32) {
// CHECK: %[[M:.*]] = tensor.map ins(%[[S]] : tensor<2x3xf32>)
// CHECK: arith.constant 2.000000e+01 : f32
// CHECK: arith.divf
// CHECK: tensor.reshape %[[M]] : tensor<2x3xf32> to tensor<2x3x1x1xf32>
func.func @global(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32> {
  %0 = graph.global_avg_pool %x : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}
