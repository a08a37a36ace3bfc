func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'graph.relu' is not an op of a dialect upstream MLIR shares with strata (builtin, func, arith, math, scf, cf): --upstream-pass-pipeline cannot run on it}}
  %0 = graph.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
