func.func @main(%x: tensor<4xi32>, %s: tensor<4xi32>) -> tensor<4xi32> {
  %a = tosa.arithmetic_right_shift %x, %s {round = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %a : tensor<4xi32>
}
