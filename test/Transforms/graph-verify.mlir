// REQUIRES: strata-opt
// graph-verify accepts a graph whose results all have resolved shapes (static
// or symbolic sizes) and leaves it unchanged; otherwise it fails with an error
// at the first unresolved result and a note for each of the others.
// RUN: strata-opt %s --split-input-file --graph-verify --verify-diagnostics | FileCheck %s

// Resolved: every graph result is static or symbolic (function arguments and
// non-graph ops are not checked).
// CHECK-LABEL: func.func @resolved(
// CHECK-SAME: %arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<768x768xf32>, %arg2: tensor<*xf32>) -> tensor<?x768xf32, #graph.dims<batch*seq>> {
// CHECK-NEXT: %0 = graph.matmul %arg0, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768x768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
// CHECK-NEXT: %1 = graph.constant dense<[-1, 768]> : tensor<2xi64>
// CHECK-NEXT: %2 = graph.reshape %0, %1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<?x768xf32, #graph.dims<batch*seq>>
// CHECK-NEXT: %3 = graph.size %arg2 : (tensor<*xf32>) -> tensor<i64>
// CHECK-NEXT: return %2 : tensor<?x768xf32, #graph.dims<batch*seq>>
// CHECK-NEXT: }
func.func @resolved(%arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<768x768xf32>, %arg2: tensor<*xf32>) -> tensor<?x768xf32, #graph.dims<batch*seq>> {
  %0 = graph.matmul %arg0, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768x768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  %1 = graph.constant dense<[-1, 768]> : tensor<2xi64>
  %2 = graph.reshape %0, %1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<?x768xf32, #graph.dims<batch*seq>>
  %3 = graph.size %arg2 : (tensor<*xf32>) -> tensor<i64>
  return %2 : tensor<?x768xf32, #graph.dims<batch*seq>>
}

// -----

// A static graph.
// CHECK-LABEL: func.func @static(
// CHECK-SAME: %arg0: tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32> {
// CHECK-NEXT: %0 = graph.global_avg_pool %arg0 : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: return %0 : tensor<1x3x1x1xf32>
// CHECK-NEXT: }
func.func @static(%arg0: tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32> {
  %0 = graph.global_avg_pool %arg0 : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// Unresolved: a dynamic size without a symbol, an unranked result, a reshape
// to a non-constant shape; the error names the first, a note each of the
// others (one per result of a multi-result op).
// CHECK-NOT: @unresolved
func.func @unresolved(%x: tensor<?x8xf32>, %y: tensor<*xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.relu' op result #0 has an unresolved shape [?, 8]}}
  %0 = graph.relu %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
  // expected-note @+1 {{'graph.exp' op result #0 has an unknown rank}}
  %1 = graph.exp %y : (tensor<*xf32>) -> tensor<*xf32>
  // expected-note @+1 {{'graph.reshape' op result #0 has an unresolved shape [?, ?]}}
  %2 = graph.reshape %0, %s : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // expected-note @+2 {{'graph.split' op result #0 has an unresolved shape [?, 4]}}
  // expected-note @+1 {{'graph.split' op result #1 has an unresolved shape [?, 4]}}
  %3:2 = graph.split %0 {axis = 1 : i64} : (tensor<?x8xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  return
}

// -----

// A symbolic dimension next to an unknown one ('?' in the list) is unresolved;
// the error is at the first graph op with an unresolved result, here the
// second one.
// CHECK-NOT: @partially_symbolic
func.func @partially_symbolic(%x: tensor<?x?xf32, #graph.dims<?, seq>>) -> tensor<?x?xf32, #graph.dims<?, seq>> {
  %0 = graph.constant dense<1.000000e+00> : tensor<f32>
  // expected-error @+1 {{'graph.mul' op result #0 has an unresolved shape [?, seq]}}
  %1 = graph.mul %x, %0 : (tensor<?x?xf32, #graph.dims<?, seq>>, tensor<f32>) -> tensor<?x?xf32, #graph.dims<?, seq>>
  return %1 : tensor<?x?xf32, #graph.dims<?, seq>>
}
