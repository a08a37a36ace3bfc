func.func @main(%x: tensor<2x4xf32>) -> tensor<2x5xf32> {
  %t = tosa.tanh %x : (tensor<2x4xf32>) -> tensor<2x5xf32>
  return %t : tensor<2x5xf32>
}
