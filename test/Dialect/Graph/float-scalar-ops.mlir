// REQUIRES: strata-opt
// The float elementwise ops declared by their scalar function
// (dialects/src/graph/ops/elementwise.rs, a `ScalarFn` formula): pretty and generic
// forms round-trip, the element type must be a float, and the declared
// result must be what the shape function infers.
// RUN: strata-opt %s --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @trig
// CHECK-NEXT: %0 = graph.acos %arg0 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
// CHECK-NEXT: %1 = graph.asin %0 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
// CHECK-NEXT: %2 = graph.atan %1 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
// CHECK-NEXT: %3 = graph.tan %2 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
// CHECK-NEXT: return %3
// GENERIC: "graph.acos"(%arg0) : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
// GENERIC: "graph.asin"(%0) : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
// GENERIC: "graph.atan"(%1) : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
// GENERIC: "graph.tan"(%2) : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
func.func @trig(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>> {
  %0 = graph.acos %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
  %1 = graph.asin %0 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
  %2 = graph.atan %1 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
  %3 = graph.tan %2 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
  return %3 : tensor<?x4xf32, #graph.dims<batch>>
}
