// Every elementwise op declared by its formula (a ScalarFn, see
// docs/contributing.md), compiled, against eager mode on the special values:
// ±inf, ±0, NaN, ±1e30, ±9.5, 88.8, -104, ±1e-30, 1e-8 and a denormal.
// Both modes read one formula; graph mode computes it in f32 with the
// fast exp/tanh/erf (docs/lowering.md), hence the tolerance. Integer
// formulas (neg, abs, sign, relu) wrap at the extremes, and not is logical
// on i1.
// RUN: strata run %s --function floats --mode graph --check --rtol 1e-5 --atol 1e-6 --input input_0=%S/Inputs/special-f32.npy 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: strata run %s --function ints --mode graph --check --rtol 0 --atol 0 --input input_0=%S/Inputs/edge-i32.npy --print 2>&1 | FileCheck %s --check-prefix=INT
// RUN: strata run %s --function bools --mode graph --check --rtol 0 --atol 0 --input input_0=%S/Inputs/bools.npy --print 2>&1 | FileCheck %s --check-prefix=BOOL

// FLOAT-COUNT-28: graph mode matches eager mode (rtol 0.00001, atol 0.000001)
// FLOAT-NOT: does not match
func.func @floats(%x: tensor<15xf32>) -> (tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>) {
  %neg = graph.neg %x : (tensor<15xf32>) -> tensor<15xf32>
  %abs = graph.abs %x : (tensor<15xf32>) -> tensor<15xf32>
  %sign = graph.sign %x : (tensor<15xf32>) -> tensor<15xf32>
  %sqrt = graph.sqrt %x : (tensor<15xf32>) -> tensor<15xf32>
  %rsqrt = graph.rsqrt %x : (tensor<15xf32>) -> tensor<15xf32>
  %reciprocal = graph.reciprocal %x : (tensor<15xf32>) -> tensor<15xf32>
  %exp = graph.exp %x : (tensor<15xf32>) -> tensor<15xf32>
  %log = graph.log %x : (tensor<15xf32>) -> tensor<15xf32>
  %erf = graph.erf %x : (tensor<15xf32>) -> tensor<15xf32>
  %tanh = graph.tanh %x : (tensor<15xf32>) -> tensor<15xf32>
  %sin = graph.sin %x : (tensor<15xf32>) -> tensor<15xf32>
  %cos = graph.cos %x : (tensor<15xf32>) -> tensor<15xf32>
  %floor = graph.floor %x : (tensor<15xf32>) -> tensor<15xf32>
  %ceil = graph.ceil %x : (tensor<15xf32>) -> tensor<15xf32>
  %round = graph.round %x : (tensor<15xf32>) -> tensor<15xf32>
  %acos = graph.acos %x : (tensor<15xf32>) -> tensor<15xf32>
  %asin = graph.asin %x : (tensor<15xf32>) -> tensor<15xf32>
  %atan = graph.atan %x : (tensor<15xf32>) -> tensor<15xf32>
  %tan = graph.tan %x : (tensor<15xf32>) -> tensor<15xf32>
  %sigmoid = graph.sigmoid %x : (tensor<15xf32>) -> tensor<15xf32>
  %relu = graph.relu %x : (tensor<15xf32>) -> tensor<15xf32>
  %silu = graph.silu %x : (tensor<15xf32>) -> tensor<15xf32>
  %softplus = graph.softplus %x : (tensor<15xf32>) -> tensor<15xf32>
  %gelu = graph.gelu %x : (tensor<15xf32>) -> tensor<15xf32>
  %gelu_tanh = graph.gelu %x {approximate = "tanh"} : (tensor<15xf32>) -> tensor<15xf32>
  %elu = graph.elu %x {alpha = 5.000000e-01 : f64} : (tensor<15xf32>) -> tensor<15xf32>
  %leaky = graph.leaky_relu %x : (tensor<15xf32>) -> tensor<15xf32>
  %hard = graph.hard_sigmoid %x : (tensor<15xf32>) -> tensor<15xf32>
  return %neg, %abs, %sign, %sqrt, %rsqrt, %reciprocal, %exp, %log, %erf, %tanh, %sin, %cos, %floor, %ceil, %round, %acos, %asin, %atan, %tan, %sigmoid, %relu, %silu, %softplus, %gelu, %gelu_tanh, %elu, %leaky, %hard : tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>
}

// INT-COUNT-4: graph mode matches eager mode (rtol 0, atol 0)
// INT: output_0: i32 [7]
// INT-NEXT: [-2147483648, 5, 1, 0, -1, -7, -2147483647]
// INT: output_1: i32 [7]
// INT-NEXT: [-2147483648, 5, 1, 0, 1, 7, 2147483647]
// INT: output_2: i32 [7]
// INT-NEXT: [-1, -1, -1, 0, 1, 1, 1]
// INT: output_3: i32 [7]
// INT-NEXT: [0, 0, 0, 0, 1, 7, 2147483647]
func.func @ints(%x: tensor<7xi32>) -> (tensor<7xi32>, tensor<7xi32>, tensor<7xi32>, tensor<7xi32>) {
  %neg = graph.neg %x : (tensor<7xi32>) -> tensor<7xi32>
  %abs = graph.abs %x : (tensor<7xi32>) -> tensor<7xi32>
  %sign = graph.sign %x : (tensor<7xi32>) -> tensor<7xi32>
  %relu = graph.relu %x : (tensor<7xi32>) -> tensor<7xi32>
  return %neg, %abs, %sign, %relu : tensor<7xi32>, tensor<7xi32>, tensor<7xi32>, tensor<7xi32>
}

// BOOL: graph mode matches eager mode (rtol 0, atol 0)
// BOOL: output_0: i1 [3]
// BOOL-NEXT: [false, true, false]
func.func @bools(%x: tensor<3xi1>) -> tensor<3xi1> {
  %n = graph.not %x : (tensor<3xi1>) -> tensor<3xi1>
  return %n : tensor<3xi1>
}
