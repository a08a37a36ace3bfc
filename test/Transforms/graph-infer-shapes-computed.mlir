// REQUIRES: strata-opt
// Shapes computed at run time, as exported models spell them (shape_of,
// gather, slice, unsqueeze, concat, arithmetic), are evaluated over
// symbolic sizes: a reshape, expand, constant_of_shape or range whose shape
// operand is such a computation gets the symbols of the input, and
// graph-verify then finds every shape resolved.
// RUN: strata-opt %s --graph-infer-shapes --graph-verify | FileCheck %s

// Split 32 features into 4 heads of 8 and back: [b, s, 4, 8], [b, s, 32].
// CHECK-LABEL: func.func @heads(
// CHECK-SAME: -> tensor<?x?x32xf32, #graph.dims<b, s>>
// CHECK: %[[SPLIT:.*]] = graph.reshape %arg0, %{{.*}} : (tensor<?x?x32xf32, #graph.dims<b, s>>, tensor<4xi64>) -> tensor<?x?x4x8xf32, #graph.dims<b, s>>
// CHECK: graph.reshape %[[SPLIT]], %{{.*}} : (tensor<?x?x4x8xf32, #graph.dims<b, s>>, tensor<3xi64>) -> tensor<?x?x32xf32, #graph.dims<b, s>>
func.func @heads(%x: tensor<?x?x32xf32, #graph.dims<b, s>>) -> tensor<?x?x?xf32> {
  %shape = graph.shape_of %x : (tensor<?x?x32xf32, #graph.dims<b, s>>) -> tensor<3xi64>
  %i0 = graph.constant dense<0> : tensor<i64>
  %i1 = graph.constant dense<1> : tensor<i64>
  %b = graph.gather %shape[%i0] {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %s = graph.gather %shape[%i1] {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %zero = graph.constant dense<0> : tensor<1xi64>
  %b1 = graph.unsqueeze %b, %zero : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %s1 = graph.unsqueeze %s, %zero : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %heads = graph.constant dense<[4, 8]> : tensor<2xi64>
  %target = graph.concat %b1, %s1, %heads {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<4xi64>
  %split = graph.reshape %x, %target : (tensor<?x?x32xf32, #graph.dims<b, s>>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %lead = graph.shape_of %split {end = 2 : i64} : (tensor<?x?x?x?xf32>) -> tensor<2xi64>
  %minus1 = graph.constant dense<-1> : tensor<1xi64>
  %back = graph.concat %lead, %minus1 {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
  %y = graph.reshape %split, %back : (tensor<?x?x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// A slice of the shape, products of sizes, and a range over a size.
// CHECK-LABEL: func.func @arith(
// CHECK: graph.reshape %arg0, %{{.*}} -> tensor<?x32xf32, #graph.dims<b*s>>
// CHECK: graph.constant_of_shape %{{.*}} -> tensor<?x?xf32, #graph.dims<s, 2*b>>
// CHECK: graph.range %{{.*}} -> tensor<?xi64, #graph.dims<s>>
// CHECK: graph.expand %{{.*}} -> tensor<?x?x32xf32, #graph.dims<b, s>>
func.func @arith(%x: tensor<?x?x32xf32, #graph.dims<b, s>>, %v: tensor<32xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>, tensor<?x?x?xf32>) {
  %shape = graph.shape_of %x : (tensor<?x?x32xf32, #graph.dims<b, s>>) -> tensor<3xi64>
  %s0 = graph.constant dense<0> : tensor<1xi64>
  %s1 = graph.constant dense<1> : tensor<1xi64>
  %s2 = graph.constant dense<2> : tensor<1xi64>
  %b = graph.slice %shape, %s0, %s1 : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %s = graph.slice %shape, %s1, %s2 : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %bs = graph.mul %b, %s : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %f = graph.constant dense<32> : tensor<1xi64>
  %flat_shape = graph.concat %bs, %f {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %flat = graph.reshape %x, %flat_shape : (tensor<?x?x32xf32, #graph.dims<b, s>>, tensor<2xi64>) -> tensor<?x?xf32>
  %two = graph.constant dense<2> : tensor<1xi64>
  %b2 = graph.mul %b, %two : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %sb2 = graph.concat %s, %b2 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %filled = graph.constant_of_shape %sb2 {value = dense<1.0> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  %zero = graph.constant dense<0> : tensor<i64>
  %one = graph.constant dense<1> : tensor<i64>
  %empty = graph.constant dense<> : tensor<0xi64>
  %n = graph.reshape %s, %empty : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
  %positions = graph.range %zero, %n, %one : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %wide = graph.expand %v, %shape : (tensor<32xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %flat, %filled, %positions, %wide : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>, tensor<?x?x?xf32>
}
