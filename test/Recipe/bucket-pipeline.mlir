// A model with a symbolic batch: the recipe's pipeline alone cannot
// lower it (a dynamic shape); with --bucket it starts with
// graph-specialize and strata-opt runs it to the kernels.
// REQUIRES: strata-opt
// RUN: strata recipe pipeline %S/../../recipes/default.toml --bucket batch=8 | FileCheck %s --check-prefix=PIPE
// RUN: strata-opt --pass-pipeline="$(strata recipe pipeline %S/../../recipes/default.toml --bucket batch=8)" %s | FileCheck %s
// RUN: not strata-opt --pass-pipeline="$(strata recipe pipeline %S/../../recipes/default.toml)" %s 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not strata recipe pipeline %S/../../recipes/default.toml --bucket batch 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not strata-opt --pass-pipeline="builtin.module(graph-specialize{dims=batch})" %s 2>&1 | FileCheck %s --check-prefix=BADPASS

// PIPE: builtin.module(graph-specialize{dims=batch=8},graph-infer-shapes,
// CHECK: func.func @main(%arg0: memref<8x4xf32>) -> memref<8x4xf32>
// DYNAMIC: error: 'graph.relu' op has a dynamic shape
// BAD: --bucket 'batch': expected SYM=N
// BADPASS: graph-specialize: 'batch': expected SYM=N with N >= 0

func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32> {
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
