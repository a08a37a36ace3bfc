// Shape buckets in graph mode (capture.buckets): a batch of 3 runs the
// plan of bucket 4, padded and sliced back, with eager mode's values; the
// report counts the padding. Outside the buckets: refused, or run eagerly
// (capture.outside_buckets). A softmax along a padded dimension masks the
// padded positions (-inf) and so does a product contracting it (zeros):
// attention over a sequence bucket. A model that mixes the padded
// dimension otherwise (a mean over it) is refused at compile time, naming
// the op and the dimension.
// RUN: strata run %s --mode eager --dim batch=3 --output-dir %t.eager > /dev/null
// RUN: strata run %s --recipe %S/Inputs/buckets.toml --dim batch=3 --expect y=%t.eager/y.npy --report %t.json | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: not strata run %s --recipe %S/Inputs/buckets.toml --dim batch=17 2>&1 | FileCheck %s --check-prefix=ABOVE
// RUN: not strata run %s --recipe %S/Inputs/buckets.toml --function mixes --dim batch=3 2>&1 | FileCheck %s --check-prefix=MIXES
// RUN: strata run %s --function attention --mode eager --dim batch=3 --output-dir %t.attention > /dev/null
// RUN: strata run %s --function attention --recipe %S/Inputs/buckets.toml --dim batch=3 --expect y=%t.attention/y.npy --report %t.attention.json | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=REPORT < %t.attention.json

// OUT: y: f32 [3, 4]
// OUT: y: matches
// REPORT: "key": "[4x4]",
// REPORT: "padding_waste": 0.25,
// ABOVE: no shape bucket: dimension 'batch' = 17 is above the largest bucket [1, 4, 16]
// MIXES: buckets.mlir:[[#@LINE+11]]:8: 'graph.reduce_mean' op reduces over dimension 'batch', which is padded: padding a bucketed dimension is not proven safe here

func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.softmax %0 {axis = 1 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

func.func @mixes(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<1x4xf32> {onnx.name = "y"}) {
  %a = graph.constant dense<0> : tensor<1xi64>
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.reduce_mean %0 axes %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// Self-attention over the padded dimension (here named batch).
func.func @attention(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
  %wq = graph.constant dense<[[0.5, -1.0, 0.25, 0.1], [1.5, 0.5, -0.5, 0.2], [-0.25, 2.0, 1.0, 0.3], [1.0, -0.75, 0.5, 0.4]]> : tensor<4x4xf32>
  %q = graph.matmul %x, %wq : (tensor<?x4xf32, #graph.dims<batch>>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %kt = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<4x?xf32>
  %s = graph.matmul %q, %kt : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  %p = graph.softmax %s {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = graph.matmul %p, %x : (tensor<?x?xf32>, tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
