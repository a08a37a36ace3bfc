// Shape buckets in graph mode (capture.buckets): a batch of 3 runs the
// plan of bucket 4, padded and sliced back, with eager mode's values; the
// report counts the padding. Outside the buckets: refused, or run eagerly
// (capture.outside_buckets). A model that mixes the padded dimension (a
// softmax over the batch) is refused at compile time, naming the op and
// the dimension.
// RUN: strata run %s --mode eager --dim batch=3 --output-dir %t.eager > /dev/null
// RUN: strata run %s --recipe %S/Inputs/buckets.toml --dim batch=3 --expect y=%t.eager/y.npy --report %t.json | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: not strata run %s --recipe %S/Inputs/buckets.toml --dim batch=17 2>&1 | FileCheck %s --check-prefix=ABOVE
// RUN: not strata run %s --recipe %S/Inputs/buckets.toml --function mixes --dim batch=3 2>&1 | FileCheck %s --check-prefix=MIXES

// OUT: y: f32 [3, 4]
// OUT: y: matches
// REPORT: "key": "[4x4]",
// REPORT: "padding_waste": 0.25,
// ABOVE: no shape bucket: dimension 'batch' = 17 is above the largest bucket [1, 4, 16]
// MIXES: buckets.mlir:[[#@LINE+10]]:8: 'graph.softmax' op normalizes over dimension 'batch': padding a bucketed dimension is not proven safe here

func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.softmax %0 {axis = 1 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

func.func @mixes(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.softmax %0 {axis = 0 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
