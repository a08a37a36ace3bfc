// A row group whose reduction has extent 1 (a layer norm over a dimension of
// size 1): the row's index is the constant 0, and the output is still stored
// through a tile of pointers (it once was a scalar pointer, which the
// verifier rejects: "'kernel.store' op value 'tensor<1xf32>' does not match
// the pointers '!kernel.ptr<f32>'").
// REQUIRES: strata-opt
// RUN: strata-opt '--pass-pipeline=builtin.module(convert-graph-to-tensor,tensor-fuse,convert-tensor-to-kernel)' %s | FileCheck %s

// CHECK-LABEL: kernel.func @main_0_reduce(
// CHECK:         %[[P:.*]] = addptr %{{.*}}, %{{.*}} : tensor<1x!kernel.ptr<f32>>, tensor<1xi32>
// CHECK-NEXT:    store %[[P]], %{{.*}}, %{{.*}} : tensor<1x!kernel.ptr<f32>>
// CHECK-NEXT:    return

func.func @main(%x: tensor<1xf32>, %s: tensor<1xf32>) -> tensor<1xf32> {
  %y = graph.layer_norm %x, %s {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}
