// The fast f32 paths of the compiled plan (exp, tanh, erf, sigmoid,
// softplus and what is built on them) give eager mode's values exactly at
// the special values: ±inf, ±0, NaN, magnitudes past saturation (tanh of
// 1e30 or of 9.5 is exactly 1, not 0.99999976), denormals. Inside the range
// they may differ in the last bits (docs/lowering.md), so the tails are
// compared at rtol 1e-6 with atol 0: softplus(-20) is 2.06e-9, never 0
// (it goes through log1p), and mish(-20) is -4.1e-8, never -0.
// RUN: strata run %s --function special --mode graph --check --rtol 0 --atol 0 --input input_0=%S/Inputs/special-f32.npy 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: strata run %s --function tails --mode graph --check --rtol 1e-6 --atol 0 --input input_0=%S/Inputs/tails-f32.npy --print 2>&1 | FileCheck %s --check-prefix=TAILS

// EXACT-COUNT-6: graph mode matches eager mode (rtol 0, atol 0)
// EXACT-NOT: does not match
func.func @special(%x: tensor<15xf32>) -> (tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>) {
  %t = graph.tanh %x : (tensor<15xf32>) -> tensor<15xf32>
  %e = graph.exp %x : (tensor<15xf32>) -> tensor<15xf32>
  %r = graph.erf %x : (tensor<15xf32>) -> tensor<15xf32>
  %s = graph.sigmoid %x : (tensor<15xf32>) -> tensor<15xf32>
  %p = graph.softplus %x : (tensor<15xf32>) -> tensor<15xf32>
  %pt = graph.tanh %p : (tensor<15xf32>) -> tensor<15xf32>
  %m = graph.mul %x, %pt : (tensor<15xf32>, tensor<15xf32>) -> tensor<15xf32>
  return %t, %e, %r, %s, %p, %m : tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>, tensor<15xf32>
}

// The inputs are -20, -30, -80, 20, 30, -87.
// TAILS-COUNT-2: graph mode matches eager mode (rtol 0.000001, atol 0)
// TAILS-NOT: does not match
// TAILS: output_0: f32 [6]
// TAILS-NEXT: [2.06115369216775e-9, 9.357622912219837e-14, 1.8048513285848406e-35, 20.0, 30.0, 1.6458114537543937e-38]
// TAILS: output_1: f32 [6]
// TAILS-NEXT: [-4.1223074731533416e-8, -2.807286954981114e-12, -1.4438810169501244e-33, 20.0, 30.0, -1.4318560082065749e-36]
func.func @tails(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %p = graph.softplus %x : (tensor<6xf32>) -> tensor<6xf32>
  %pt = graph.tanh %p : (tensor<6xf32>) -> tensor<6xf32>
  %m = graph.mul %x, %pt : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %p, %m : tensor<6xf32>, tensor<6xf32>
}
