// Reductions, softmax and normalizations become tensor.reduce and
// tensor.map; keepdims is a tensor.reshape after the reduce.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s
// RUN: strata-opt --convert-graph-to-tensor %s | strata-opt | FileCheck %s

// CHECK: #[[CH:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1)>

// CHECK-LABEL: func.func @reduce_mean(
// CHECK-NOT: arith.constant dense
// CHECK: %[[S:.*]] = tensor.reduce ins(%arg0 : tensor<4x16xf32>) dims [1] init(0.000000e+00 : f32) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK-NEXT: tensor.yield %[[R]] : f32
// CHECK-NEXT: } : tensor<4xf32>
// CHECK: %[[M:.*]] = tensor.map ins(%[[S]] : tensor<4xf32>)
// CHECK: arith.constant 1.600000e+01 : f32
// CHECK: arith.divf
// CHECK: tensor.reshape %[[M]] : tensor<4xf32> to tensor<4x1xf32>
func.func @reduce_mean(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %axes = graph.constant dense<[-1]> : tensor<1xi64>
  %0 = graph.reduce_mean %x axes %axes : (tensor<4x16xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// No axes: every dim is reduced.
// CHECK-LABEL: func.func @reduce_max_all(
// CHECK: tensor.reduce ins(%arg0 : tensor<2x3xi32>) dims [0, 1] init(-2147483648 : i32) {
// CHECK: arith.maxsi
// CHECK: } : tensor<i32>
// CHECK: tensor.reshape %{{.*}} : tensor<i32> to tensor<1x1xi32>
func.func @reduce_max_all(%x: tensor<2x3xi32>) -> tensor<1x1xi32> {
  %0 = graph.reduce_max %x : (tensor<2x3xi32>) -> tensor<1x1xi32>
  return %0 : tensor<1x1xi32>
}

// CHECK-LABEL: func.func @reduce_prod_f16(
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: tensor.reduce ins(%{{.*}} : tensor<4x2xf32>) dims [0] init(1.000000e+00 : f32) {
// CHECK: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: tensor.reshape
func.func @reduce_prod_f16(%x: tensor<4x2xf16>) -> tensor<2xf16> {
  %axes = graph.constant dense<0> : tensor<1xi64>
  %0 = graph.reduce_prod %x axes %axes {keepdims = false} : (tensor<4x2xf16>, tensor<1xi64>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// max-reduce, exp(x - max) (max taken as 0 when infinite), sum-reduce, divide.
// CHECK-LABEL: func.func @softmax(
// CHECK: %[[MAX:.*]] = tensor.reduce ins(%arg0 : tensor<4x16xf32>) dims [1] init(0xFF800000 : f32) {
// CHECK: arith.maximumf
// CHECK: %[[SH:.*]] = tensor.map ins(%arg0, %[[MAX]] : tensor<4x16xf32>, tensor<4xf32>) maps [#{{.*}}, #{{.*}}] {
// CHECK: arith.subf
// CHECK: %[[E:.*]] = tensor.map ins(%[[SH]] : tensor<4x16xf32>)
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = tensor.reduce ins(%[[E]] : tensor<4x16xf32>) dims [1] init(0.000000e+00 : f32) {
// CHECK: tensor.map ins(%[[E]], %[[SUM]] : tensor<4x16xf32>, tensor<4xf32>)
// CHECK: arith.divf
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = graph.softmax %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @log_softmax(
// CHECK: tensor.reduce ins(%arg0 : tensor<2x4x3xf32>) dims [1]
// CHECK: math.log
// CHECK-NEXT: arith.subf
func.func @log_softmax(%x: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %0 = graph.log_softmax %x {axis = 1 : i64} : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func @batch_norm(
// CHECK: tensor.map ins(%arg0, %arg1, %arg2, %arg3, %arg4 : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) maps [#{{.*}}, #[[CH]], #[[CH]], #[[CH]], #[[CH]]] {
// CHECK: math.sqrt
func.func @batch_norm(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %0 = graph.batch_norm %x, %s, %b, %m, %v : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// mean, centered, mean of squares, then scale and bias.
// CHECK-LABEL: func.func @layer_norm(
// CHECK: tensor.reduce ins(%arg0 : tensor<4x16xf32>) dims [1]
// CHECK: tensor.reduce ins(%{{.*}} : tensor<4x16xf32>) dims [1]
// CHECK: tensor.map ins(%{{.*}}, %{{.*}}, %arg1, %arg2 : tensor<4x16xf32>, tensor<4xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK: math.sqrt
func.func @layer_norm(%x: tensor<4x16xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = graph.layer_norm %x, %s, %b : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @rms_norm(
// CHECK-COUNT-1: tensor.reduce
// CHECK-NOT: tensor.reduce
// CHECK: return
func.func @rms_norm(%x: tensor<4x16xf32>, %s: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = graph.rms_norm %x, %s : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
