// The reference interpreter on graph ops (values checked by hand).
// RUN: strata run %s --function elementwise --print | FileCheck %s --check-prefix=ELEM
// RUN: strata run %s --function contractions --print | FileCheck %s --check-prefix=CONTRACT
// RUN: strata run %s --function movement --print | FileCheck %s --check-prefix=MOVE
// RUN: strata run %s --function reductions --print | FileCheck %s --check-prefix=REDUCE
// RUN: strata run %s --function normalization --print | FileCheck %s --check-prefix=NORM
// RUN: strata run %s --function dynamic --dim n=3 --print | FileCheck %s --check-prefix=DYN

// ELEM: output_0: f32 [2, 3]
// ELEM-NEXT: {{\[\[}}11.0, 12.0, 13.0], [24.0, 25.0, 26.0]]
// ELEM-NEXT: output_1: i1 [2, 3]
// ELEM-NEXT: {{\[\[}}false, false, true], [false, true, true]]
// ELEM-NEXT: output_2: f32 [2, 3]
// ELEM-NEXT: {{\[\[}}0.0, 0.0, 3.0], [0.0, 5.0, 6.0]]
// ELEM-NEXT: output_3: i32 [2, 3]
// ELEM-NEXT: {{\[\[}}1, -2, 3], [-4, 5, 6]]
func.func @elementwise() -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xi32>) {
  %a = graph.constant dense<[[1.0, -2.0, 3.0], [-4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = graph.constant dense<[[10.0], [20.0]]> : tensor<2x1xf32>
  %abs = graph.abs %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = graph.add %abs, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %two = graph.constant dense<2.5> : tensor<f32>
  %gt = graph.greater %a, %two : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %relu = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %sel = graph.where %gt, %relu, %zero : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %i = graph.cast %a : (tensor<2x3xf32>) -> tensor<2x3xi32>
  return %sum, %gt, %sel, %i : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xi32>
}

// CONTRACT: output_0: f32 [2, 2]
// CONTRACT-NEXT: {{\[\[}}22.0, 28.0], [49.0, 64.0]]
// CONTRACT-NEXT: output_1: f32 [2, 2]
// CONTRACT-NEXT: {{\[\[}}36.0, 46.0], [45.0, 58.0]]
// CONTRACT-NEXT: output_2: f32 [1, 1, 2, 2]
// CONTRACT-NEXT: {{\[\[\[\[}}12.0, 16.0], [24.0, 28.0]]]]
func.func @contractions() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x1x2x2xf32>) {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %m = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %c = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %g = graph.gemm %b, %b, %c {transA = true} : (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %x = graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %conv = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %m, %g, %conv : tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x1x2x2xf32>
}

// MOVE: output_0: f32 [3, 2]
// MOVE-NEXT: {{\[\[}}1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
// MOVE-NEXT: output_1: f32 [2]
// MOVE-NEXT: [6.0, 4.0]
// MOVE-NEXT: output_2: f32 [2, 2]
// MOVE-NEXT: {{\[\[}}4.0, 5.0], [1.0, 2.0]]
// MOVE-NEXT: output_3: i64 [2]
// MOVE-NEXT: [2, 3]
func.func @movement() -> (tensor<3x2xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2xi64>) {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %flat = graph.constant dense<[6]> : tensor<1xi64>
  %f = graph.reshape %a, %flat : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
  %starts = graph.constant dense<[-1]> : tensor<1xi64>
  %ends = graph.constant dense<[-9223372036854775807]> : tensor<1xi64>
  %axes = graph.constant dense<[0]> : tensor<1xi64>
  %steps = graph.constant dense<[-2]> : tensor<1xi64>
  %s = graph.slice %f, %starts, %ends axes %axes steps %steps : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  %idx = graph.constant dense<[0, 1]> : tensor<2xi64>
  %g = graph.gather %s[%idx] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2xf32>
  %rows = graph.constant dense<[1, 0]> : tensor<2xi64>
  %h = graph.gather %a[%rows] : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %st = graph.constant dense<[0]> : tensor<1xi64>
  %en = graph.constant dense<[2]> : tensor<1xi64>
  %ax = graph.constant dense<[1]> : tensor<1xi64>
  %k = graph.slice %h, %st, %en axes %ax : (tensor<2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2xf32>
  %shape = graph.shape_of %a : (tensor<2x3xf32>) -> tensor<2xi64>
  return %t, %g, %k, %shape : tensor<3x2xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2xi64>
}

// REDUCE: output_0: f32 [2, 1]
// REDUCE-NEXT: {{\[\[}}6.0], [15.0]]
// REDUCE-NEXT: output_1: f32 []
// REDUCE-NEXT: {{^}}3.5{{$}}
// REDUCE-NEXT: output_2: i64 [3]
// REDUCE-NEXT: [1, 1, 1]
func.func @reductions() -> (tensor<2x1xf32>, tensor<f32>, tensor<3xi64>) {
  %a = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %axes = graph.constant dense<[1]> : tensor<1xi64>
  %s = graph.reduce_sum %a axes %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %m = graph.reduce_mean %a {keepdims = false} : (tensor<2x3xf32>) -> tensor<f32>
  %i = graph.argmax %a {keepdims = false} : (tensor<2x3xf32>) -> tensor<3xi64>
  return %s, %m, %i : tensor<2x1xf32>, tensor<f32>, tensor<3xi64>
}

// NORM: output_0: f32 [1, 3]
// NORM-NEXT: {{\[\[}}0.09003057{{[0-9]*}}, 0.24472847{{[0-9]*}}, 0.66524{{[0-9]*}}]]
// NORM-NEXT: output_1: f32 [1, 3]
// NORM-NEXT: {{\[\[}}-1.2247{{[0-9]*}}, 0.0, 1.2247{{[0-9]*}}]]
func.func @normalization() -> (tensor<1x3xf32>, tensor<1x3xf32>) {
  %a = graph.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %s = graph.softmax %a : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %scale = graph.constant dense<1.0> : tensor<3xf32>
  %l = graph.layer_norm %a, %scale {epsilon = 0.0 : f64} : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %s, %l : tensor<1x3xf32>, tensor<1x3xf32>
}

// A symbolic input: --dim n=3 sizes the random input; the result keeps `n`.
// DYN: output_0: i64 [2]
// DYN-NEXT: [3, 4]
func.func @dynamic(%x: tensor<?x4xf32, #graph.dims<n>>) -> tensor<2xi64> {
  %s = graph.shape_of %x : (tensor<?x4xf32, #graph.dims<n>>) -> tensor<2xi64>
  return %s : tensor<2xi64>
}

// Pad with axes (the last one), and a slice with steps but no axes.
// RUN: strata run %s --function optional_groups --print | FileCheck %s --check-prefix=GROUPS
// GROUPS: output_0: f32 [1, 3]
// GROUPS-NEXT: {{\[\[}}0.0, 1.0, 0.0]]
// GROUPS-NEXT: output_1: f32 [2, 2]
// GROUPS-NEXT: {{\[\[}}1.0, 3.0], [4.0, 6.0]]
func.func @optional_groups() -> (tensor<1x3xf32>, tensor<2x2xf32>) {
  %x = graph.constant dense<[[1.0]]> : tensor<1x1xf32>
  %p = graph.constant dense<[1, 1]> : tensor<2xi64>
  %a = graph.constant dense<[-1]> : tensor<1xi64>
  %0 = graph.pad %x, %p axes %a : (tensor<1x1xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<1x3xf32>
  %y = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = graph.constant dense<[0, 0]> : tensor<2xi64>
  %e = graph.constant dense<[2, 3]> : tensor<2xi64>
  %t = graph.constant dense<[1, 2]> : tensor<2xi64>
  %1 = graph.slice %y, %s, %e steps %t : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xf32>
  return %0, %1 : tensor<1x3xf32>, tensor<2x2xf32>
}
