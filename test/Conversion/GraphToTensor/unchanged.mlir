// On failure the pass leaves the IR unchanged: nothing was lowered.
// REQUIRES: strata-opt
// RUN: not strata-opt --convert-graph-to-tensor %s 2>&1 | FileCheck %s
// RUN: strata-opt --pass-pipeline='builtin.module(convert-graph-to-tensor)' %s --verify-diagnostics --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=IR

// CHECK: error: 'graph.cumsum' op cannot be lowered to tensor yet
// IR-NOT: tensor.map
// IR: graph.exp
// IR: graph.cumsum
func.func @f(%x: tensor<4xf32>, %a: tensor<i64>) -> tensor<4xf32> {
  %0 = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'graph.cumsum' op cannot be lowered to tensor yet}}
  %1 = graph.cumsum %0, %a : (tensor<4xf32>, tensor<i64>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
