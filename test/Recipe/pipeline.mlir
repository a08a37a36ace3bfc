// REQUIRES: strata-opt
// A recipe's pipeline runs with `strata-opt --recipe`, and the same text
// from `strata recipe pipeline` runs with `--pass-pipeline`; the default
// recipe's pipeline is graph mode's; fusion options change the kernels.
// RUN: strata recipe pipeline %S/../../recipes/default.toml | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: builtin.module(graph-infer-shapes,graph-decompose-recurrent,canonicalize,graph-eliminate-layout,graph-fold-constants,dce,graph-infer-shapes,convert-graph-to-tensor,tensor-fuse,convert-tensor-to-kernel{library-gemm=true},canonicalize,cse)
// RUN: strata-opt --recipe %S/../../recipes/default.toml %s > %t.recipe
// RUN: strata-opt --pass-pipeline="$(strata recipe pipeline %S/../../recipes/default.toml)" %s > %t.pipeline
// RUN: diff %t.recipe %t.pipeline
// RUN: FileCheck %s < %t.recipe
// RUN: strata-opt --recipe %S/Inputs/fusion1.toml %s | FileCheck %s --check-prefix=UNFUSED
// RUN: strata-opt --recipe %S/Inputs/fusion1.toml --dump-pass-pipeline %s 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP

// CHECK-COUNT-1: kernel.func
// CHECK-NOT: kernel.func
// UNFUSED-COUNT-3: kernel.func
// UNFUSED-NOT: kernel.func
// DUMP: Pass Manager with 12 passes:
// DUMP-NEXT: builtin.module(
// DUMP: tensor-fuse{ max-ops=1 min-ops=1},
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.relu %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.mul %1, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
