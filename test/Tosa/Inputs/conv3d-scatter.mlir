func.func @main(%x: tensor<1x5x6x6x2xf32>, %w: tensor<3x2x3x2x2xf32>, %b: tensor<3xf32>, %v: tensor<2x5x3xf32>, %u: tensor<2x2x3xf32>) -> (tensor<1x5x6x6x3xf32>, tensor<1x2x2x5x3xf32>, tensor<1x2x4x2x3xf32>, tensor<2x5x3xf32>) {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %same = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 0, 1, 1, 0, 1>, stride = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x5x6x6x2xf32>, tensor<3x2x3x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6x6x3xf32>
  %strided = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 3, 3, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x5x6x6x2xf32>, tensor<3x2x3x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x5x3xf32>
  %dilated = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 1, 1, 0, 0>, stride = array<i64: 1, 1, 2>, dilation = array<i64: 3, 2, 3>} : (tensor<1x5x6x6x2xf32>, tensor<3x2x3x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4x2x3xf32>
  %idx = "tosa.const"() {values = dense<[[4, 0], [1, 2]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %sc = tosa.scatter %v, %idx, %u : (tensor<2x5x3xf32>, tensor<2x2xi32>, tensor<2x2x3xf32>) -> tensor<2x5x3xf32>
  return %same, %strided, %dilated, %sc : tensor<1x5x6x6x3xf32>, tensor<1x2x2x5x3xf32>, tensor<1x2x4x2x3xf32>, tensor<2x5x3xf32>
}
