// graph.deform_conv2d (ONNX's DeformConv): each kernel tap samples the
// input bilinearly (zero outside it) at its position moved by the offsets,
// times the mask, plus the bias. Graph mode does not lower it but folds it
// on constants, as here.
// RUN: strata run %s --print | FileCheck %s
// RUN: strata run %s --mode graph --print | FileCheck %s

// A 1x1 kernel of weight 1 on [[1, 2], [3, 4]], every tap moved half a
// pixel right: (0, 0.5) reads 1.5, (0, 1.5) half of 2 and half of the zero
// outside, 1; the second row 3.5 and 2.
// CHECK: output_0: f32 [1, 1, 2, 2]
// CHECK-NEXT: {{\[\[\[\[}}1.5, 1.0], [3.5, 2.0]]]]
// With a mask of 2 and a bias of 1: 2 * sample + 1.
// CHECK: output_1: f32 [1, 1, 2, 2]
// CHECK-NEXT: {{\[\[\[\[}}4.0, 3.0], [8.0, 5.0]]]]
func.func @main() -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  %x = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x1x1xf32>
  %off = graph.constant dense<[[[[0.0, 0.0], [0.0, 0.0]], [[0.5, 0.5], [0.5, 0.5]]]]> : tensor<1x2x2x2xf32>
  %y = graph.deform_conv2d %x, %w, %off : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  %b = graph.constant dense<1.0> : tensor<1xf32>
  %m = graph.constant dense<2.0> : tensor<1x1x2x2xf32>
  %z = graph.deform_conv2d %x, %w, %off bias %b mask %m : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>, tensor<1x2x2x2xf32>, tensor<1xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %y, %z : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}
