// graph.constant_of_shape (a constant shape) becomes a splat arith.constant
// of the static result type; its value defaults to 0.0 : f32.
// REQUIRES: strata-opt
// RUN: strata-opt --convert-graph-to-tensor %s | FileCheck %s

// CHECK-LABEL: func.func @ones(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1> : tensor<2x3xi32>
// CHECK-NEXT: return %[[C]] : tensor<2x3xi32>
func.func @ones() -> tensor<2x3xi32> {
  %s = graph.constant dense<[2, 3]> : tensor<2xi64>
  %0 = graph.constant_of_shape %s {value = dense<1> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @zeros(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
func.func @zeros() -> tensor<4xf32> {
  %s = graph.constant dense<[4]> : tensor<1xi64>
  %0 = graph.constant_of_shape %s : (tensor<1xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
