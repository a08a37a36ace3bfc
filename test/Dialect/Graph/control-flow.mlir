// REQUIRES: strata-opt
// Round trip of graph.if, graph.loop, graph.scan and graph.yield: in the
// pretty form, after a second pass, and through the generic form. The
// regions use values of the enclosing block (they are not isolated).
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// graph-convert-precision converts the ops in the bodies (their results
// cast back to f32), not the control flow, which keeps its regions' types:
// RUN: strata-opt %s --graph-convert-precision | FileCheck %s --check-prefix=F16

// CHECK-LABEL: func.func @branches
// CHECK: %[[R:.*]] = graph.if %{{.*}} : tensor<i1> -> (tensor<?x4xf32>) {
// CHECK-NEXT: graph.mul %[[X:.*]], %{{.*}} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: graph.yield %{{.*}} : tensor<3x4xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: graph.slice
// CHECK-NEXT: graph.yield %{{.*}} : tensor<2x4xf32>
// CHECK-NEXT: }
func.func @branches(%c: tensor<i1>, %x: tensor<3x4xf32>, %two: tensor<f32>) -> tensor<?x4xf32> {
  %s0 = graph.constant dense<0> : tensor<1xi64>
  %s2 = graph.constant dense<2> : tensor<1xi64>
  %r = graph.if %c : tensor<i1> -> (tensor<?x4xf32>) {
    %m = graph.mul %x, %two : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
    graph.yield %m : tensor<3x4xf32>
  } else {
    %s = graph.slice %x, %s0, %s2 : (tensor<3x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x4xf32>
    graph.yield %s : tensor<2x4xf32>
  }
  return %r : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @loop
// F16-LABEL: func.func @loop
// F16: graph.loop({{.*}}) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<?x4xf32>) {
// F16: graph.add %{{.*}}, %{{.*}} : (tensor<f16>, tensor<f16>) -> tensor<f16>
// F16-NEXT: %[[B:.*]] = graph.cast %{{.*}} : (tensor<f16>) -> tensor<f32>
// F16-NEXT: graph.yield %{{.*}}, %[[B]], %{{.*}} : tensor<i1>, tensor<f32>, tensor<4xf32>
// CHECK: %{{.*}}:2 = graph.loop(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<?x4xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<f32>):
// CHECK: graph.yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<f32>, tensor<4xf32>
func.func @loop(%n: tensor<i64>, %x: tensor<4xf32>) -> (tensor<f32>, tensor<?x4xf32>) {
  %true = graph.constant dense<true> : tensor<i1>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %r:2 = graph.loop(%n, %true, %zero) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<?x4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<f32>):
    %s = graph.reduce_sum %x {keepdims = false} : (tensor<4xf32>) -> tensor<f32>
    %next = graph.add %acc, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
    graph.yield %c, %next, %x : tensor<i1>, tensor<f32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @scan
// CHECK: graph.scan(%{{.*}}, %{{.*}}) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>, scan_output_directions = array<i64: 1>} : (tensor<2xf32>, tensor<2x5xf32>) -> (tensor<2xf32>, tensor<5x2xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>):
func.func @scan(%h0: tensor<2xf32>, %xs: tensor<2x5xf32>) -> (tensor<2xf32>, tensor<5x2xf32>) {
  %r:2 = graph.scan(%h0, %xs) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>, scan_output_directions = array<i64: 1>} : (tensor<2xf32>, tensor<2x5xf32>) -> (tensor<2xf32>, tensor<5x2xf32>) {
  ^bb0(%h: tensor<2xf32>, %x: tensor<2xf32>):
    %h2 = graph.add %h, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %h2, %h2 : tensor<2xf32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<5x2xf32>
}
