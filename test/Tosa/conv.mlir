// TOSA's NHWC convolutions and pools, with pad, slice, concat, a
// reduction and a cast: imported into the graph dialect (the `nhwc` layout,
// TOSA's OHWI weights as they are) and checked in graph mode against
// eager mode.
// RUN: strata import %s | FileCheck %s
// RUN: strata run %s --mode graph --check | FileCheck %s --check-prefix=GRAPH
// Both modes against upstream MLIR's own lowering of the module (mlir-runner).
// RUN: python3 %S/../../scripts/tosa-oracle %s | FileCheck %s --check-prefix=ORACLE
// The round trip TOSA -> graph -> TOSA -> graph -> TOSA is stable.
// RUN: strata import %s -o %t.g1.mlir
// RUN: strata-translate --export=tosa %t.g1.mlir -o %t.t1.mlir
// RUN: strata import %t.t1.mlir -o %t.g2.mlir
// RUN: strata-translate --export=tosa %t.g2.mlir -o %t.t2.mlir
// RUN: diff %t.t1.mlir %t.t2.mlir

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<1x8x8x3xf32>) -> (tensor<1x3x3x10xf32>, tensor<1x1x3x10xf32>, tensor<1x3x3x10xi32>) {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w = "tosa.const"() {values = dense<[[[[0.1, -0.2, 0.3], [0.0, 0.5, -0.5], [1.0, 0.25, 0.0]], [[0.2, 0.2, -0.1], [0.3, -0.3, 0.1], [0.0, 0.0, 1.0]], [[-1.0, 0.5, 0.5], [0.1, 0.1, 0.1], [0.4, -0.4, 0.2]]], [[[0.5, 0.5, 0.5], [-0.5, 0.0, 0.5], [0.25, 0.25, -0.25]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], [[0.3, 0.2, 0.1], [-0.1, -0.2, -0.3], [0.6, 0.0, -0.6]]]]> : tensor<2x3x3x3xf32>} : () -> tensor<2x3x3x3xf32>
  %b = "tosa.const"() {values = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  // pad [top, bottom, left, right] becomes graph's [top, left, bottom, right].
  // CHECK: graph.conv2d %arg0, %{{.*}}, %{{.*}} {layout = "nhwc", pads = array<i64: 1, 0, 1, 0>} : (tensor<1x8x8x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x8x6x2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x6x2xf32>
  // A depthwise weight [KH, KW, C, M] reordered to [C * M, KH, KW, 1].
  %dw = "tosa.const"() {values = dense<0.125> : tensor<2x2x3x2xf32>} : () -> tensor<2x2x3x2xf32>
  %db = "tosa.const"() {values = dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]> : tensor<6xf32>} : () -> tensor<6xf32>
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 2, 3, 0, 1>}
  // CHECK: graph.reshape {{.*}} -> tensor<6x2x2x1xf32>
  // CHECK: graph.conv2d %arg0, {{.*}} {group = 3 : i64, layout = "nhwc", strides = array<i64: 2, 2>}
  %d = tosa.depthwise_conv2d %x, %dw, %db, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<2x2x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  // CHECK: graph.max_pool2d {{.*}}layout = "nhwc"
  %mp = tosa.max_pool2d %c {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x6x2xf32>) -> tensor<1x4x3x2xf32>
  // Padding is not counted in the average (count_include_pad = false, the default).
  // CHECK: graph.avg_pool2d {{.*}}layout = "nhwc", pads = array<i64: 0, 0, 1, 1>}
  %ap = tosa.avg_pool2d %d, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  // CHECK: graph.slice
  %start = tosa.const_shape {values = dense<[0, 1, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 3, 3, 6]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %sl = tosa.slice %ap, %start, %size : (tensor<1x4x4x6xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x6xf32>
  // CHECK: graph.pad
  %padding = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 0, 1, 1]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %pv = "tosa.const"() {values = dense<-1.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %pd = tosa.pad %mp, %padding, %pv : (tensor<1x4x3x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x4x3x4xf32>
  %s2 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %z2 = tosa.const_shape {values = dense<[1, 3, 3, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pds = tosa.slice %pd, %s2, %z2 : (tensor<1x4x3x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x4xf32>
  // CHECK: graph.concat {{.*}} {axis = 3 : i64}
  %cat = tosa.concat %sl, %pds {axis = 3 : i32} : (tensor<1x3x3x6xf32>, tensor<1x3x3x4xf32>) -> tensor<1x3x3x10xf32>
  // CHECK: graph.reduce_sum {{.*}} -> tensor<1x1x3x10xf32>
  %red = tosa.reduce_sum %cat {axis = 1 : i32} : (tensor<1x3x3x10xf32>) -> tensor<1x1x3x10xf32>
  // A float cast to an integer rounds to nearest first.
  // CHECK: graph.round
  // CHECK: graph.cast {{.*}} -> tensor<1x3x3x10xi32>
  %ten = "tosa.const"() {values = dense<10.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %big = tosa.mul %cat, %ten, %shift : (tensor<1x3x3x10xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x3x3x10xf32>
  %int = tosa.cast %big : (tensor<1x3x3x10xf32>) -> tensor<1x3x3x10xi32>
  return %cat, %red, %int : tensor<1x3x3x10xf32>, tensor<1x1x3x10xf32>, tensor<1x3x3x10xi32>
}

// GRAPH-DAG: check: output_0: graph mode matches eager mode
// GRAPH-DAG: check: output_1: graph mode matches eager mode
// GRAPH-DAG: check: output_2: graph mode matches eager mode

// ORACLE-COUNT-6: matches upstream MLIR
// ORACLE-NOT: MISMATCH
