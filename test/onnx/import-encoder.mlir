// The encoder block: `batch` and `seq` survive every reshape, transpose and
// matmul, and attention scores are [batch, 2, seq, seq]; graph-verify finds
// no unresolved shape.
// RUN: strata import %S/../../examples/onnx/encoder.onnx --verify-shapes | FileCheck %s

// CHECK: func.func @main(%arg0: tensor<?x?x32xf32, #graph.dims<batch, seq>> {onnx.name = "x"}) -> (tensor<?x?x32xf32, #graph.dims<batch, seq>> {onnx.name = "y"})
// CHECK: graph.reshape {{.*}} -> tensor<?x?x2x16xf32, #graph.dims<batch, seq>>
// CHECK: graph.transpose {{.*}} {perm = array<i64: 0, 2, 3, 1>} : (tensor<?x?x2x16xf32, #graph.dims<batch, seq>>) -> tensor<?x2x16x?xf32, #graph.dims<batch, seq>>
// CHECK: graph.matmul {{.*}} -> tensor<?x2x?x?xf32, #graph.dims<batch, seq, seq>>
// CHECK: graph.softmax {{.*}} -> tensor<?x2x?x?xf32, #graph.dims<batch, seq, seq>>
// CHECK: graph.layer_norm
// CHECK: graph.erf
// CHECK: return {{.*}} : tensor<?x?x32xf32, #graph.dims<batch, seq>>
