// Unsigned (uiN) and 16-bit integer tensors in the reference interpreter:
// arithmetic wraps at the element width, and division, remainder, order
// and conversion to float read unsigned values as unsigned.
// RUN: strata run %s --function unsigned --print | FileCheck %s --check-prefix=UNSIGNED
// RUN: strata run %s --function narrow --print | FileCheck %s --check-prefix=NARROW

// UNSIGNED: output_0: ui8 [3]
// UNSIGNED-NEXT: [44, 3, 255]
// UNSIGNED-NEXT: output_1: i1 [3]
// UNSIGNED-NEXT: [true, false, true]
// UNSIGNED-NEXT: output_2: ui64 [3]
// UNSIGNED-NEXT: [9223372036854775807, 3, 4611686018427387904]
// UNSIGNED-NEXT: output_3: ui64 []
// UNSIGNED-NEXT: {{^}}18446744073709551615{{$}}
// UNSIGNED-NEXT: output_4: f64 [3]
// UNSIGNED-NEXT: [1.8446744073709552e19, 7.0, 9.223372036854776e18]
func.func @unsigned() -> (tensor<3xui8>, tensor<3xi1>, tensor<3xui64>, tensor<ui64>, tensor<3xf64>) {
  %a = graph.constant dense<[200, 1, 128]> : tensor<3xui8>
  %b = graph.constant dense<[100, 2, 127]> : tensor<3xui8>
  %sum = graph.add %a, %b : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  %gt = graph.greater %a, %b : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  %k = graph.constant dense<[18446744073709551615, 7, 9223372036854775808]> : tensor<3xui64>
  %two = graph.constant dense<2> : tensor<ui64>
  %half = graph.div %k, %two : (tensor<3xui64>, tensor<ui64>) -> tensor<3xui64>
  %max = graph.reduce_max %k {keepdims = false} : (tensor<3xui64>) -> tensor<ui64>
  %f = graph.cast %k {to = f64} : (tensor<3xui64>) -> tensor<3xf64>
  return %sum, %gt, %half, %max, %f : tensor<3xui8>, tensor<3xi1>, tensor<3xui64>, tensor<ui64>, tensor<3xf64>
}

// NARROW: output_0: i16 [2]
// NARROW-NEXT: [-32768, -2]
// NARROW-NEXT: output_1: ui16 [2]
// NARROW-NEXT: [32765, 65529]
func.func @narrow() -> (tensor<2xi16>, tensor<2xui16>) {
  %a = graph.constant dense<[32767, -3]> : tensor<2xi16>
  %one = graph.constant dense<1> : tensor<i16>
  %s = graph.add %a, %one : (tensor<2xi16>, tensor<i16>) -> tensor<2xi16>
  %u = graph.cast %a {to = ui16} : (tensor<2xi16>) -> tensor<2xui16>
  %d = graph.constant dense<[2, 4]> : tensor<2xui16>
  %m = graph.sub %u, %d : (tensor<2xui16>, tensor<2xui16>) -> tensor<2xui16>
  return %s, %m : tensor<2xi16>, tensor<2xui16>
}
