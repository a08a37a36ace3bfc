// REQUIRES: strata-opt
// Extreme attribute values infer exact sizes without overflowing; ceil-mode
// pooling drops a last window that would start in the end padding (ONNX).
// RUN: strata-opt %s --split-input-file --graph-infer-shapes | FileCheck %s

// CHECK-LABEL: func.func @slice_huge_step
// CHECK: graph.slice {{.*}} -> tensor<1xf32>
func.func @slice_huge_step(%x: tensor<4xf32>) -> tensor<?xf32> {
  %s = graph.constant dense<0> : tensor<1xi64>
  %e = graph.constant dense<9223372036854775807> : tensor<1xi64>
  %a = graph.constant dense<0> : tensor<1xi64>
  %t = graph.constant dense<9223372036854775807> : tensor<1xi64>
  %0 = graph.slice %x, %s, %e axes %a steps %t : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @pool_huge_stride
// CHECK: graph.max_pool2d {{.*}} -> tensor<1x1x1x7xf32>
func.func @pool_huge_stride(%x: tensor<1x1x8x8xf32>) -> tensor<*xf32> {
  %0 = graph.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 9223372036854775807, 1>, ceil_mode = true} : (tensor<1x1x8x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @pool_ceil_asymmetric_pads
// CHECK: graph.max_pool2d {{.*}} -> tensor<1x1x3x3xf32>
func.func @pool_ceil_asymmetric_pads(%x: tensor<1x1x6x6xf32>) -> tensor<*xf32> {
  %0 = graph.max_pool2d %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 2, 2>, ceil_mode = true} : (tensor<1x1x6x6xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A refined callee result refines its calls and their graph users; a value
// passed to a call keeps its type (the callee's argument type fixes it).
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: -> tensor<4x8xf32>
// CHECK-LABEL: func.func @caller
// CHECK: %[[N:.*]] = graph.neg %arg0 : (tensor<4x8xf32>) -> tensor<*xf32>
// CHECK: call @callee(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: graph.add {{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: call @other(%[[N]]) : (tensor<*xf32>) -> tensor<*xf32>
func.func private @callee(%x: tensor<4x8xf32>) -> tensor<*xf32> {
  %0 = graph.relu %x : (tensor<4x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @caller(%x: tensor<4x8xf32>) -> tensor<*xf32> {
  %0 = graph.neg %x : (tensor<4x8xf32>) -> tensor<*xf32>
  %1 = func.call @callee(%x) : (tensor<4x8xf32>) -> tensor<*xf32>
  %2 = graph.add %1, %x : (tensor<*xf32>, tensor<4x8xf32>) -> tensor<*xf32>
  %3 = func.call @other(%0) : (tensor<*xf32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}
func.func private @other(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}

// -----

// Optional operand groups are read by their segment sizes: a slice with
// steps but no axes, a pad with axes but no value.
// CHECK-LABEL: func.func @optional_groups
// CHECK: graph.slice {{.*}} -> tensor<2x3xf32>
// CHECK: graph.pad {{.*}} axes {{.*}} -> tensor<4x10xf32>
func.func @optional_groups(%x: tensor<4x6xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = graph.constant dense<[0, 0]> : tensor<2xi64>
  %e = graph.constant dense<[4, 6]> : tensor<2xi64>
  %t = graph.constant dense<[2, 2]> : tensor<2xi64>
  %0 = graph.slice %x, %s, %e steps %t : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  %p = graph.constant dense<[1, 3]> : tensor<2xi64>
  %a = graph.constant dense<[-1]> : tensor<1xi64>
  %1 = graph.pad %x, %p axes %a : (tensor<4x6xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
