// TOSA's transposed convolution (NHWC, weight [OC, KH, KW, IC], out_pad
// added to the full output or, negative, cropping it) as the convolution
// it equals: the input dilated by the stride, padded by K - 1 + out_pad,
// convolved with the weight flipped in space; checked in graph mode
// against eager mode and both against upstream's lowering.
// RUN: strata import %s | FileCheck %s
// RUN: strata run %s --mode graph --check | FileCheck %s --check-prefix=GRAPH
// RUN: python3 %S/../../scripts/tosa-oracle %s | FileCheck %s --check-prefix=ORACLE

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<1x3x3x2xf32>) -> (tensor<1x7x7x3xf32>, tensor<1x5x5x3xf32>, tensor<1x8x8x3xf32>) {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w = "tosa.const"() {values = dense<[[[[-0.524, 0.088], [-0.26, 0.208], [0.251, -0.869]], [[-0.974, 0.675], [-0.481, -0.531], [0.991, -0.059]], [[0.673, -0.047], [0.278, -0.699], [0.27, 0.736]]], [[[0.046, 0.483], [0.343, -0.872], [0.516, 0.182]], [[-0.397, -0.938], [0.731, -0.055], [0.438, 0.758]], [[0.428, 0.842], [-0.21, 0.602], [-0.111, 0.871]]], [[[0.758, -0.805], [-0.728, -0.566], [0.931, -0.128]], [[0.253, -0.398], [0.014, -0.228], [-0.298, 0.17]], [[0.169, 0.808], [0.364, 0.858], [0.713, 0.982]]]]> : tensor<3x3x3x2xf32>} : () -> tensor<3x3x3x2xf32>
  %b = "tosa.const"() {values = dense<[0.5, -0.25, 0.125]> : tensor<3xf32>} : () -> tensor<3xf32>
  // CHECK: graph.pad
  // CHECK: graph.slice {{.*}} steps
  // CHECK: graph.conv2d {{.*}} {layout = "nhwc", pads = array<i64: 2, 2, 2, 2>}
  %full = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x3x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x3xf32>
  // CHECK: graph.conv2d {{.*}} {layout = "nhwc", pads = array<i64: 1, 1, 1, 1>}
  %crop = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: -1, -1, -1, -1>, stride = array<i64: 2, 2>} : (tensor<1x3x3x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x3xf32>
  // CHECK: graph.conv2d {{.*}} {layout = "nhwc", pads = array<i64: 2, 2, 3, 3>}
  %grow = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x3x3x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x3xf32>
  return %full, %crop, %grow : tensor<1x7x7x3xf32>, tensor<1x5x5x3xf32>, tensor<1x8x8x3xf32>
}

// GRAPH-DAG: check: output_0: graph mode matches eager mode
// GRAPH-DAG: check: output_1: graph mode matches eager mode
// GRAPH-DAG: check: output_2: graph mode matches eager mode

// ORACLE-COUNT-6: matches upstream MLIR
// ORACLE-NOT: MISMATCH
