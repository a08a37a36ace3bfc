// REQUIRES: strata-opt
// graph-convert-precision: f32 ops compute in f16 (or bf16); sums
// (matmul, softmax, ...) read rounded operands and accumulate in f32, their
// results rounded; keep-fp32 ops stay; data movement is not converted; the
// function keeps its f32 signature.
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(graph-convert-precision{keep-fp32=relu},dce)' | FileCheck %s
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(graph-convert-precision{precision=bf16 accumulate=bf16},dce)' | FileCheck %s --check-prefix=BF16
// RUN: not strata-opt %s --split-input-file --pass-pipeline='builtin.module(graph-convert-precision{precision=f8})' 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @chain
// The matmul reads f16-rounded operands in f32 and its result is rounded.
// CHECK-NEXT: %[[A16:.*]] = graph.cast %arg0 : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK-NEXT: %[[A:.*]] = graph.cast %[[A16]] : (tensor<4x8xf16>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[B16:.*]] = graph.cast %arg1
// CHECK-NEXT: %[[B:.*]] = graph.cast %[[B16]]
// CHECK-NEXT: %[[M:.*]] = graph.matmul %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: %[[M16:.*]] = graph.cast %[[M]] : (tensor<4x5xf32>) -> tensor<4x5xf16>
// The add computes in f16 on the matmul's rounded result (no round trip).
// CHECK-NEXT: %[[C16:.*]] = graph.cast %arg2 : (tensor<5xf32>) -> tensor<5xf16>
// CHECK-NEXT: %[[S:.*]] = graph.add %[[M16]], %[[C16]] : (tensor<4x5xf16>, tensor<5xf16>) -> tensor<4x5xf16>
// relu is kept in f32; the reshape passes on what it gets.
// CHECK-NEXT: %[[S32:.*]] = graph.cast %[[S]] : (tensor<4x5xf16>) -> tensor<4x5xf32>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[S32]] : (tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: graph.reshape %[[R]]
// CHECK-SAME: -> tensor<20xf32>
// CHECK: return {{.*}} : tensor<20xf32>, tensor<4xi64>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<5xf32>, %i: tensor<4xi64>) -> (tensor<20xf32>, tensor<4xi64>) {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %1 = graph.add %0, %c : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %2 = graph.relu %1 : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %s = graph.constant dense<[20]> : tensor<1xi64>
  %3 = graph.reshape %2, %s : (tensor<4x5xf32>, tensor<1xi64>) -> tensor<20xf32>
  %4 = graph.add %i, %i : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %3, %4 : tensor<20xf32>, tensor<4xi64>
}

// BF16-LABEL: func.func @chain
// With accumulate=bf16 the matmul itself computes in bf16.
// BF16: graph.matmul {{.*}} : (tensor<4x8xbf16>, tensor<8x5xbf16>) -> tensor<4x5xbf16>
// BF16: graph.add {{.*}} -> tensor<4x5xbf16>
// BF16: graph.relu {{.*}} -> tensor<4x5xbf16>
// BF16: graph.add %arg3, %arg3 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>

// BAD: graph-convert-precision: precision 'f8': expected f16 or bf16
