// A small module in MLIR's generic form: ops of an unregistered `toy` dialect
// with regions, block arguments, successors and attributes.
"toy.func"() <{sym_name = "mlp_layer"}> ({
^bb0(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>):
  %y = "toy.matmul"(%x, %w) {transpose_b = false} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %b = "toy.constant"() {value = dense<0.5> : tensor<16xf32>} : () -> tensor<16xf32>
  %z = "toy.add"(%y, %b) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %r = "toy.relu"(%z) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  "toy.return"(%r) : (tensor<4x16xf32>) -> ()
}) {function_type = (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>} : () -> ()
