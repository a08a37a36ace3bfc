func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %shift = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %p = tosa.mul %x, %y, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %p : tensor<4xi32>
}
