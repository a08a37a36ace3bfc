// graph.round rounds halves to even, as ONNX Round (and IEEE roundeven).
// RUN: strata run %s --print | FileCheck %s

// CHECK: output_0: f32 [8]
// CHECK-NEXT: [-2.0, -2.0, -0.0, 0.0, 0.0, 2.0, 2.0, 3.0]
func.func @main() -> tensor<8xf32> {
  %x = graph.constant dense<[-2.5, -1.5, -0.5, 0.4, 0.5, 1.5, 2.5, 2.6]> : tensor<8xf32>
  %y = graph.round %x : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
