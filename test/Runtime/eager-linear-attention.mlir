// graph.linear_attention (ONNX's LinearAttention): a state per key/value
// head, updated token by token and read by each query as scale * qᵀ S.
// Graph mode does not lower it but folds it on constants, as here.
// RUN: strata run %s --print | FileCheck %s
// RUN: strata run %s --mode graph --print | FileCheck %s

// The linear rule, one head of size 1, scale 1 / sqrt(1): S = k1 v1 = 2,
// o1 = q1 S = 2; S = 2 + k2 v2 = 5, o2 = q2 S = 10; the last state is 5.
// CHECK: output_0: f32 [1, 2, 1]
// CHECK-NEXT: {{\[\[\[}}2.0], [10.0]]]
// CHECK: output_1: f32 [1, 1, 1, 1]
// CHECK-NEXT: {{\[\[\[\[}}5.0]]]]

// The gated delta rule from a past state of 4, decay 0 (exp 0 = 1), beta
// 0.5, k = 1, v = 2, scale 2: the write is 0.5 (2 - 4 * 1) = -1, so
// S = 4 - 1 = 3 and o = 2 * 1 * 3 = 6. The state keeps past_state's f64.
// CHECK: output_2: f32 [1, 1, 1]
// CHECK-NEXT: {{\[\[\[}}6.0]]]
// CHECK: output_3: f64 [1, 1, 1, 1]
// CHECK-NEXT: {{\[\[\[\[}}3.0]]]]

// Two query heads share one key/value head (grouped queries): both read
// the same state, 1 * 1 = 1 after the one token; q = [1, 3] reads 1 and 3.
// CHECK: output_4: f32 [1, 1, 2]
// CHECK-NEXT: {{\[\[\[}}1.0, 3.0]]]
func.func @main() -> (tensor<1x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1x1xf64>, tensor<1x1x2xf32>) {
  %q = graph.constant dense<[[[1.0], [2.0]]]> : tensor<1x2x1xf32>
  %k = graph.constant dense<[[[1.0], [1.0]]]> : tensor<1x2x1xf32>
  %v = graph.constant dense<[[[2.0], [3.0]]]> : tensor<1x2x1xf32>
  %o, %s = graph.linear_attention %q, %k, %v {q_num_heads = 1 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> (tensor<1x2x1xf32>, tensor<1x1x1x1xf32>)
  %one = graph.constant dense<1.0> : tensor<1x1x1xf32>
  %two = graph.constant dense<2.0> : tensor<1x1x1xf32>
  %past = graph.constant dense<4.0> : tensor<1x1x1x1xf64>
  %g = graph.constant dense<0.0> : tensor<1x1x1xf32>
  %b = graph.constant dense<0.5> : tensor<1x1x1xf32>
  %o2, %s2 = graph.linear_attention %one, %one, %two past_state %past decay %g beta %b {q_num_heads = 1 : i64, kv_num_heads = 1 : i64, scale = 2.0 : f64} : (tensor<1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1x1xf64>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> (tensor<1x1x1xf32>, tensor<1x1x1x1xf64>)
  %q3 = graph.constant dense<[[[1.0, 3.0]]]> : tensor<1x1x2xf32>
  %o3, %s3 = graph.linear_attention %q3, %one, %one {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear", scale = 1.0 : f64} : (tensor<1x1x2xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> (tensor<1x1x2xf32>, tensor<1x1x1x1xf32>)
  return %o, %s, %o2, %s2, %o3 : tensor<1x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1x1xf64>, tensor<1x1x2xf32>
}
