func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  // One op the exporter has no rule for.
  %0 = graph.gather_elements %x[%i] {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
