// A model calling the C-ABI custom op of scaled_silu.c between built-in ops.
func.func @main(%x: tensor<?x8xf32, #graph.dims<batch>>) -> tensor<?x8xf32, #graph.dims<batch>> {
  %0 = graph.mul %x, %x : (tensor<?x8xf32, #graph.dims<batch>>, tensor<?x8xf32, #graph.dims<batch>>) -> tensor<?x8xf32, #graph.dims<batch>>
  %1 = graph.custom "example.ScaledSilu"(%0) {config = {beta = 1.500000e+00 : f64}} : (tensor<?x8xf32, #graph.dims<batch>>) -> tensor<?x8xf32, #graph.dims<batch>>
  %2 = graph.add %1, %x : (tensor<?x8xf32, #graph.dims<batch>>, tensor<?x8xf32, #graph.dims<batch>>) -> tensor<?x8xf32, #graph.dims<batch>>
  return %2 : tensor<?x8xf32, #graph.dims<batch>>
}
