// graph.random_uniform_like (ONNX's RandomUniformLike; Bernoulli imports
// as a draw, a comparison and a cast): draws in [low, high) shaped as the
// input, of the result's type, a function of the seed and the shape, so
// two runs print the same values (strata's own stream, not NumPy's).
// RUN: strata run %s --print | FileCheck %s
// RUN: strata run %s --print > %t.a && strata run %s --print > %t.b && diff %t.a %t.b
// CHECK: output_0: f64 [2, 3]
// CHECK-NEXT: {{\[\[}}-{{[0-9]}}
// CHECK: output_1: f32 [2, 3]
func.func @main() -> (tensor<2x3xf64>, tensor<2x3xf32>) {
  %x = graph.constant dense<0.5> : tensor<2x3xf32>
  %u = graph.random_uniform_like %x {low = -2.0 : f64, high = -1.0 : f64, seed = 7 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf64>
  %v = graph.random_uniform_like %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %u, %v : tensor<2x3xf64>, tensor<2x3xf32>
}
