// graph.det (ONNX's Det): the determinant of each square matrix in the last
// two dims, by LU decomposition with partial pivoting (a zero first pivot
// swaps rows and flips the sign); a singular matrix gives 0; the batch dims
// stay. Graph mode does not lower it (a located error for a model whose
// matrices are inputs) but folds it on constants, as here.
// RUN: strata run %s --print | FileCheck %s
// RUN: strata run %s --mode graph --print | FileCheck %s
// CHECK: output_0: f32 [3]
// CHECK-NEXT: [-6.0, 0.0, -2.0]
// CHECK: output_1: f64 []
// CHECK-NEXT: 4.0
func.func @main() -> (tensor<3xf32>, tensor<f64>) {
  %x = graph.constant dense<[[[0.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]]> : tensor<3x2x2xf32>
  %d = graph.det %x : (tensor<3x2x2xf32>) -> tensor<3xf32>
  %y = graph.constant dense<[[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]]> : tensor<3x3xf64>
  %e = graph.det %y : (tensor<3x3xf64>) -> tensor<f64>
  return %d, %e : tensor<3xf32>, tensor<f64>
}
