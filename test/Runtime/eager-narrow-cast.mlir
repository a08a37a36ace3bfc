// graph.cast to the storage-only narrow types (ONNX's 8- and 4-bit floats and
// 4- and 2-bit integers), as ONNX's Cast: floats round to nearest even; with
// saturate (the default) values out of range and infinities become the largest
// finite value of their sign, without it NaN (f8E4M3FN has no infinity) or Inf
// (f8E5M2 has), 460 rounding to 448 first; integers truncate toward zero and
// wrap into their width. Eager mode only: graph mode says the types do not
// lower.
// RUN: strata run %s --print | FileCheck %s
// RUN: not strata run %s --mode graph 2>&1 | FileCheck %s --check-prefix=GRAPH
// RUN: strata run %s --function e8m0 --print | FileCheck %s --check-prefix=E8

// CHECK: output_0: f8E4M3FN [6]
// CHECK-NEXT: [1.0, 1.125, -448.0, 448.0, 448.0, NaN]
// CHECK: output_1: f8E4M3FN [6]
// CHECK-NEXT: [1.0, 1.125, NaN, 448.0, NaN, NaN]
// CHECK: output_2: f8E5M2 [6]
// CHECK-NEXT: [1.0, 1.0, -inf, 448.0, inf, NaN]
// CHECK: output_3: f4E2M1FN [6]
// CHECK-NEXT: [1.0, 1.0, -6.0, 6.0, 6.0, 0.0]
// CHECK: output_4: i4 [6]
// CHECK-NEXT: [-8, 7, -7, 0, 1, -1]
// CHECK: output_5: ui2 [6]
// CHECK-NEXT: [0, 3, 1, 0, 1, 3]
// GRAPH: eager-narrow-cast.mlir:[[@LINE+3]]:8: error: '{{.*}}' op has element type 'f8E4M3FN', which does not lower
func.func @main() -> (tensor<6xf8E4M3FN>, tensor<6xf8E4M3FN>, tensor<6xf8E5M2>, tensor<6xf4E2M1FN>, tensor<6xi4>, tensor<6xui2>) {
  %x = graph.constant dense<[1.0, 1.1, -100000.0, 460.0, 0x7F800000, 0x7FC00000]> : tensor<6xf32>
  %a = graph.cast %x : (tensor<6xf32>) -> tensor<6xf8E4M3FN>
  %b = graph.cast %x {saturate = false} : (tensor<6xf32>) -> tensor<6xf8E4M3FN>
  %c = graph.cast %x {saturate = false} : (tensor<6xf32>) -> tensor<6xf8E5M2>
  %d = graph.cast %x : (tensor<6xf32>) -> tensor<6xf4E2M1FN>
  %i = graph.constant dense<[8.0, -9.5, 9.0, 0.9, 17.0, -1.0]> : tensor<6xf32>
  %e = graph.cast %i : (tensor<6xf32>) -> tensor<6xi4>
  %f = graph.cast %i : (tensor<6xf32>) -> tensor<6xui2>
  return %a, %b, %c, %d, %e, %f : tensor<6xf8E4M3FN>, tensor<6xf8E4M3FN>, tensor<6xf8E5M2>, tensor<6xf4E2M1FN>, tensor<6xi4>, tensor<6xui2>
}

// f8E8M0FNU holds a power of two: the f32 exponent, rounded up (the default),
// down or to nearest; NaN stays NaN; 0 becomes 2^-127 (the exponent 0).
// E8: output_0: f8E8M0FNU [5]
// E8-NEXT: [0.125, 2.0, 2.0, 5.877471754111438e-39, NaN]
// E8: output_1: f8E8M0FNU [5]
// E8-NEXT: [0.0625, 1.0, 2.0, 5.877471754111438e-39, NaN]
// E8: output_2: f8E8M0FNU [5]
// E8-NEXT: [0.125, 1.0, 2.0, 5.877471754111438e-39, NaN]
func.func @e8m0() -> (tensor<5xf8E8M0FNU>, tensor<5xf8E8M0FNU>, tensor<5xf8E8M0FNU>) {
  %x = graph.constant dense<[0.124, 1.1, 2.0, 0.0, 0x7FC00000]> : tensor<5xf32>
  %u = graph.cast %x : (tensor<5xf32>) -> tensor<5xf8E8M0FNU>
  %d = graph.cast %x {round_mode = "down"} : (tensor<5xf32>) -> tensor<5xf8E8M0FNU>
  %n = graph.cast %x {round_mode = "nearest"} : (tensor<5xf32>) -> tensor<5xf8E8M0FNU>
  return %u, %d, %n : tensor<5xf8E8M0FNU>, tensor<5xf8E8M0FNU>, tensor<5xf8E8M0FNU>
}
