// The float elementwise ops declared by their scalar function evaluate
// through it, in f64 rounded to the element type: acos and asin at the
// ends of their domain and outside it (NaN), in f32 and f64; atan at
// the infinities.
// RUN: strata run %s --print | FileCheck %s

// CHECK: output_0: f32 [5]
// CHECK-NEXT: {{^}}[3.1415927410125732, 1.5707963705062866, 0.0, NaN, 2.094395160675049]{{$}}
// CHECK-NEXT: output_1: f64 [4]
// CHECK-NEXT: {{^}}[-1.5707963267948966, 0.0, 1.5707963267948966, NaN]{{$}}
// CHECK-NEXT: output_2: f32 [4]
// CHECK-NEXT: {{^}}[-1.5707963705062866, -0.7853981852531433, 0.0, 1.5707963705062866]{{$}}
func.func @main() -> (tensor<5xf32>, tensor<4xf64>, tensor<4xf32>) {
  %x = graph.constant dense<[-1.0, 0.0, 1.0, 2.0, -0.5]> : tensor<5xf32>
  %y = graph.acos %x : (tensor<5xf32>) -> tensor<5xf32>
  %a = graph.constant dense<[-1.0, 0.0, 1.0, -1.5]> : tensor<4xf64>
  %b = graph.asin %a : (tensor<4xf64>) -> tensor<4xf64>
  %t = graph.constant dense<[0xFF800000, -1.0, 0.0, 0x7F800000]> : tensor<4xf32>
  %u = graph.atan %t : (tensor<4xf32>) -> tensor<4xf32>
  return %y, %b, %u : tensor<5xf32>, tensor<4xf64>, tensor<4xf32>
}
