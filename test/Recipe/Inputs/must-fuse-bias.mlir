func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<5xf32>) -> tensor<4x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %1 = graph.add %0, %c : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  return %1 : tensor<4x5xf32>
}
