func.func @main(%x: tensor<1x4x4x1xf32>) -> tensor<1x2x4x1xf32> {
  %s = tosa.const_shape {values = dense<[2, 3, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[-3, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %x, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2x4x1xf32>
  return %r : tensor<1x2x4x1xf32>
}
