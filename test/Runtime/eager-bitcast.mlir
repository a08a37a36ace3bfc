// graph.bitcast reinterprets each element's bits (ONNX's BitCast), eagerly and
// in graph mode (arith.bitcast in the kernel); 4-bit types keep their 4 bits.
// RUN: strata run %s --print | FileCheck %s
// RUN: strata run %s --mode graph --function main --print | FileCheck %s
// RUN: strata run %s --function nibbles --print | FileCheck %s --check-prefix=NIB

// CHECK: output_0: i32 [3]
// CHECK-NEXT: [1065353216, -1073741824, 2139095040]
// CHECK: output_1: f32 [3]
// CHECK-NEXT: [1.0, -2.0, inf]
func.func @main() -> (tensor<3xi32>, tensor<3xf32>) {
  %x = graph.constant dense<[1.0, -2.0, 0x7F800000]> : tensor<3xf32>
  %i = graph.bitcast %x : (tensor<3xf32>) -> tensor<3xi32>
  %y = graph.bitcast %i : (tensor<3xi32>) -> tensor<3xf32>
  return %i, %y : tensor<3xi32>, tensor<3xf32>
}

// NIB: output_0: f4E2M1FN [4]
// NIB-NEXT: [6.0, -0.5, 0.0, -0.0]
func.func @nibbles() -> tensor<4xf4E2M1FN> {
  %x = graph.constant dense<[7, -7, 0, -8]> : tensor<4xi4>
  %y = graph.bitcast %x : (tensor<4xi4>) -> tensor<4xf4E2M1FN>
  return %y : tensor<4xf4E2M1FN>
}
