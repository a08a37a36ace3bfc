func.func @main(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x2x2xf32> {
  %sc = graph.constant dense<[1.0, 1.0, 0.33333334, 0.33333334]> : tensor<4xf32>
  %r = graph.resize %x scales %sc {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x1x6x6xf32>, tensor<4xf32>) -> tensor<1x1x2x2xf32>
  return %r : tensor<1x1x2x2xf32>
}
