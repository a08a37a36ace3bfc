// graph.argmax / graph.argmin: the extreme along the axis (a reduce), then
// the first index holding it (a map: the index where the element equals
// the extreme, NaN equal to NaN, the axis size elsewhere; a min-reduce), or
// the last with select_last_index (-1 elsewhere; a max-reduce); keepdims is
// a reshape.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s

// CHECK-LABEL: func.func @argmax(
// CHECK: %[[M:.*]] = tensor.reduce ins(%arg0 : tensor<3x5xf32>) dims [1] init(0xFF800000 : f32)
// CHECK: arith.maximumf
// CHECK: %[[C:.*]] = tensor.map ins(%arg0, %[[M]] : tensor<3x5xf32>, tensor<3xf32>)
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf uno
// CHECK: tensor.index 1 : index
// CHECK: arith.index_cast
// CHECK: arith.constant 5 : i64
// CHECK: arith.select
// CHECK: } : tensor<3x5xi64>
// CHECK: %[[R:.*]] = tensor.reduce ins(%[[C]] : tensor<3x5xi64>) dims [1] init(9223372036854775807 : i64)
// CHECK: arith.minsi
// CHECK: tensor.reshape %[[R]] : tensor<3xi64> to tensor<3x1xi64>
func.func @argmax(%x: tensor<3x5xf32>) -> tensor<3x1xi64> {
  %0 = graph.argmax %x {axis = 1 : i64} : (tensor<3x5xf32>) -> tensor<3x1xi64>
  return %0 : tensor<3x1xi64>
}

// CHECK-LABEL: func.func @argmin_last(
// CHECK: tensor.reduce ins(%arg0 : tensor<4x2xi32>) dims [0] init(2147483647 : i32)
// CHECK: arith.minsi
// CHECK: arith.cmpi eq
// CHECK: arith.constant -1 : i64
// CHECK: tensor.reduce ins(%{{.*}} : tensor<4x2xi64>) dims [0] init(-9223372036854775808 : i64)
// CHECK: arith.maxsi
func.func @argmin_last(%x: tensor<4x2xi32>) -> tensor<2xi64> {
  %0 = graph.argmin %x {axis = 0 : i64, keepdims = false, select_last_index = true} : (tensor<4x2xi32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
