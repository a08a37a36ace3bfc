// graph.affine_grid (ONNX's AffineGrid): theta applied to each output
// point's normalized coordinates (x, y, 1), x along the last dim: pixel
// centers (-1 + (2i + 1) / s) by default, corners (-1 + 2i / (s - 1)) with
// align_corners; as ONNX's reference (which rounds the middle point of 3 to
// -1.1e-16 where this gives 0). Graph mode folds it on constants.
// RUN: strata run %s --print | FileCheck %s
// RUN: strata run %s --mode graph --print | FileCheck %s
// CHECK: output_0: f32 [1, 2, 3, 2]
// CHECK-NEXT: {{\[\[\[\[}}-0.6666666865348816, -2.0], [0.0, -2.0], [0.6666666865348816, -2.0]], {{\[\[}}-0.1666666716337204, 0.0], [0.5, 0.0], [1.1666666269302368, 0.0]]]]
// CHECK: output_1: f32 [1, 2, 3, 2]
// CHECK-NEXT: {{\[\[\[\[}}-1.25, -3.0], [-0.25, -3.0], [0.75, -3.0]], {{\[\[}}-0.25, 1.0], [0.75, 1.0], [1.75, 1.0]]]]
func.func @main() -> (tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>) {
  %theta = graph.constant dense<[[[1.0, 0.5, 0.25], [0.0, 2.0, -1.0]]]> : tensor<1x2x3xf32>
  %size = graph.constant dense<[1, 1, 2, 3]> : tensor<4xi64>
  %g = graph.affine_grid %theta, %size : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<1x2x3x2xf32>
  %c = graph.affine_grid %theta, %size {align_corners = true} : (tensor<1x2x3xf32>, tensor<4xi64>) -> tensor<1x2x3x2xf32>
  return %g, %c : tensor<1x2x3x2xf32>, tensor<1x2x3x2xf32>
}
