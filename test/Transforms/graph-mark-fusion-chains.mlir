// REQUIRES: strata-opt
// graph-mark-fusion-chains marks each occurrence of a chain (ops with the
// chain's names in order, each using a result of the one before) with a
// strata.must_fuse entry; ops outside every occurrence stay unmarked.
// RUN: strata-opt %s --pass-pipeline='builtin.module(graph-mark-fusion-chains{chains=add+relu,MatMul+add})' | FileCheck %s

// CHECK-LABEL: func.func @chains
// CHECK: graph.matmul {{.*}} {strata.must_fuse = [{chain = "MatMul+add", occurrence = 0 : i64, position = 0 : i64}]}
// CHECK: graph.add {{.*}} {strata.must_fuse = [{chain = "add+relu", occurrence = 0 : i64, position = 0 : i64}, {chain = "MatMul+add", occurrence = 0 : i64, position = 1 : i64}]}
// CHECK: graph.relu {{.*}} {strata.must_fuse = [{chain = "add+relu", occurrence = 0 : i64, position = 1 : i64}]}
// An add whose result no relu uses is not an occurrence.
// CHECK: graph.add
// CHECK-NOT: strata.must_fuse
// CHECK: graph.neg
// CHECK-NOT: strata.must_fuse
func.func @chains(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = graph.add %0, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = graph.relu %1 : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = graph.add %2, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = graph.neg %3 : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2, %4 : tensor<4x4xf32>, tensor<4x4xf32>
}
