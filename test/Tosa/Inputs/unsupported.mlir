func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %c = tosa.clz %x : (tensor<4xi32>) -> tensor<4xi32>
  %s = tosa.arithmetic_right_shift %c, %y {round = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %d = tosa.clz %s : (tensor<4xi32>) -> tensor<4xi32>
  return %d : tensor<4xi32>
}
