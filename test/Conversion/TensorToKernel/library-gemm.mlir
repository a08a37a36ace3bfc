// convert-tensor-to-kernel{library-gemm=true}: kernel selection. An f32
// contraction becomes a library matrix product (kernel.gemm) with the
// operands' strides (a transposed operand needs no copy), and its fused
// epilogue a separate elementwise kernel reading the product's buffer.
// REQUIRES: strata-opt
// RUN: strata-opt '--pass-pipeline=builtin.module(tensor-fuse,convert-tensor-to-kernel{library-gemm=true})' %s | FileCheck %s

// CHECK-LABEL: func.func @mm(
// CHECK:         %[[P:.*]] = kernel.alloc offset {{[0-9]+}} : memref<5x40xf32>
// The rhs is read transposed: row stride 1 (K), column stride 100 (N).
// CHECK-NEXT:    kernel.gemm %arg0, %arg1, %[[P]] {batch = array<i64>, k = 100 : i64, lhs_strides = array<i64: 100, 1>, m = 5 : i64, n = 40 : i64, out_strides = array<i64: 40, 1>, rhs_strides = array<i64: 1, 100>} : memref<5x100xf32>, memref<40x100xf32>, memref<5x40xf32>
// CHECK:         kernel.launch @mm_0_map grid(%{{.*}}) (%[[P]], %arg2, %{{.*}}) : memref<5x40xf32>, memref<40xf32>, memref<5x40xf32>
func.func @mm(%x: tensor<5x100xf32>, %w: tensor<40x100xf32>, %b: tensor<40xf32>) -> tensor<5x40xf32> {
  %mm = tensor.contract ins(%x, %w : tensor<5x100xf32>, tensor<40x100xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<5x40xf32>
  %y = tensor.map ins(%mm, %b : tensor<5x40xf32>, tensor<40xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%a: f32, %c: f32):
    %z = arith.addf %a, %c : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %z, %zero : f32
    tensor.yield %r : f32
  } : tensor<5x40xf32>
  return %y : tensor<5x40xf32>
}

// A batched product with a broadcast rhs (a linear layer on tokens): the
// batch folds into the rows, one product of 12 rows reads the rhs once.
// CHECK-LABEL: func.func @bmm(
// CHECK:         kernel.gemm %arg0, %arg1, %{{.*}} {batch = array<i64>, k = 8 : i64, lhs_strides = array<i64: 8, 1>, m = 12 : i64, n = 6 : i64, out_strides = array<i64: 6, 1>, rhs_strides = array<i64: 6, 1>}
// CHECK-NOT:     kernel.launch
// Batched on both sides (@both_batched, below): the batch stays.
// CHECK-LABEL: func.func @both_batched(
// CHECK:         kernel.gemm %arg0, %arg1, %{{.*}} {batch = array<i64: 3>, k = 8 : i64, lhs_strides = array<i64: 32, 8, 1>, m = 4 : i64, n = 6 : i64, out_strides = array<i64: 24, 6, 1>, rhs_strides = array<i64: 48, 6, 1>}
// The epilogue kernel (the kernels follow the host functions).
// CHECK-LABEL: kernel.func @mm_0_map(
// CHECK-NOT:     kernel.dot
// CHECK:         arith.maximumf
func.func @bmm(%x: tensor<3x4x8xf32>, %w: tensor<8x6xf32>) -> tensor<3x4x6xf32> {
  %mm = tensor.contract ins(%x, %w : tensor<3x4x8xf32>, tensor<8x6xf32>) maps [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : tensor<3x4x6xf32>
  return %mm : tensor<3x4x6xf32>
}

func.func @both_batched(%x: tensor<3x4x8xf32>, %w: tensor<3x8x6xf32>) -> tensor<3x4x6xf32> {
  %mm = tensor.contract ins(%x, %w : tensor<3x4x8xf32>, tensor<3x8x6xf32>) maps [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : tensor<3x4x6xf32>
  return %mm : tensor<3x4x6xf32>
}
