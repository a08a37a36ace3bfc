// Graph mode refuses a model with ops that do not lower, and lists every
// one of them (not only the first) with its location and reason, as the
// partition of hybrid mode would run them eagerly.
// RUN: not strata run %s --mode graph --dim batch=3 2>&1 | FileCheck %s

// CHECK: error: 'graph.cumsum' op cannot be lowered to tensor yet
// CHECK: note: graph mode compiles every op; 2 ops do not (--mode hybrid runs them eagerly):
// CHECK-NEXT: graph-islands.mlir:[[#@LINE+6]]:8: graph.cumsum: no-lowering: cannot be lowered to tensor yet
// CHECK-NEXT: graph-islands.mlir:[[#@LINE+8]]:8: graph.cumsum: no-lowering: cannot be lowered to tensor yet

func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) {
  %axis = graph.constant dense<1> : tensor<i64>
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  %1 = graph.cumsum %0, %axis : (tensor<?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
  %2 = graph.relu %1 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = graph.neg %2 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %4 = graph.cumsum %3, %axis : (tensor<?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
  return %4 : tensor<?x4xf32>
}
