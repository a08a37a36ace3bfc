// graph.col2im (ONNX's Col2Im): the columns of a [N, C * prod(block), L]
// tensor, one per block position, summed into images of image_shape
// (overlapping blocks add up), as ONNX's reference computes: a 2x2 block
// over a 3x3 image (4 positions), and a 1x2 block over a 1x5 image padded
// by one on each side (6 positions). Graph mode folds it on constants.
// RUN: strata run %s --print | FileCheck %s
// RUN: strata run %s --mode graph --print | FileCheck %s
// CHECK: output_0: f32 [1, 1, 3, 3]
// CHECK-NEXT: {{\[\[\[\[}}0.0, 5.0, 5.0], [10.0, 30.0, 20.0], [10.0, 25.0, 15.0]]]]
// CHECK: output_1: f32 [1, 1, 1, 5]
// CHECK-NEXT: {{\[\[\[\[}}7.0, 9.0, 11.0, 13.0, 15.0]]]]
func.func @main() -> (tensor<1x1x3x3xf32>, tensor<1x1x1x5xf32>) {
  %x = graph.constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]]> : tensor<1x4x4xf32>
  %image = graph.constant dense<[3, 3]> : tensor<2xi64>
  %block = graph.constant dense<[2, 2]> : tensor<2xi64>
  %a = graph.col2im %x, %image, %block : (tensor<1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x3x3xf32>
  %y = graph.constant dense<[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]]]> : tensor<1x2x6xf32>
  %image2 = graph.constant dense<[1, 5]> : tensor<2xi64>
  %block2 = graph.constant dense<[1, 2]> : tensor<2xi64>
  %b = graph.col2im %y, %image2, %block2 {pads = array<i64: 0, 1, 0, 1>} : (tensor<1x2x6xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x1x5xf32>
  return %a, %b : tensor<1x1x3x3xf32>, tensor<1x1x1x5xf32>
}
