// Found by the graph_eager fuzz target (docs/testing.md): graph mode's f32
// GELU, x/2 * (1 + erf(x / sqrt 2)), loses relative accuracy in the
// negative tail, where 1 + erf cancels: at x = -5 it gives -1.34e-6 where
// eager mode (f64) gives -1.43e-6. The error stays below 2e-7 absolute;
// onnxruntime's and PyTorch's f32 GELU compute the same expression. The
// bound is stated in docs/lowering.md; this test holds graph mode to it and
// shows that a relative 1e-4 is not met.
// RUN: strata run %s --mode graph --check --rtol 1e-6 --atol 2e-7 --input input_0=%S/Inputs/gelu-tail-f32.npy 2>&1 | FileCheck %s
// RUN: not strata run %s --mode graph --check --rtol 1e-4 --atol 0 --input input_0=%S/Inputs/gelu-tail-f32.npy 2>&1 | FileCheck %s --check-prefix=STRICT
// CHECK: graph mode matches eager mode (rtol 0.000001, atol 0.0000002)
// STRICT: graph mode does not match eager mode
func.func @main(%x: tensor<10xf32>) -> tensor<10xf32> {
  %g = graph.gelu %x : (tensor<10xf32>) -> tensor<10xf32>
  return %g : tensor<10xf32>
}
