func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %c = tosa.clz %x : (tensor<4xi32>) -> tensor<4xi32>
  %s = tosa.logical_right_shift %c, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %s : tensor<4xi32>
}
