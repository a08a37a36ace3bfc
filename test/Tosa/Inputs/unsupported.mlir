func.func @main(%x: tensor<2x4xf32>) -> tensor<2xi32> {
  %r = tosa.reverse %x {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %a = tosa.argmax %r {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2xi32>
  return %a : tensor<2xi32>
}
