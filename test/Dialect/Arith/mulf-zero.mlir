// mulf by +0 or -0 (scalar or splat) with nnan and nsz folds to that zero,
// even when the other operand is a constant, as MLIR 22 folds it; without
// both flags it does not. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @mulf_zero(%arg0: f32, %arg1: vector<2xf64>) -> (f32, f32, f32, vector<2xf64>, f32) {
// CHECK-NEXT:     %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %cst_0 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:     %cst_1 = arith.constant dense<0.000000e+00> : vector<2xf64>
// CHECK-NEXT:     %0 = arith.mulf %arg0, %cst fastmath<nsz> : f32
// CHECK-NEXT:     return %cst, %cst_0, %cst, %cst_1, %0 : f32, f32, f32, vector<2xf64>, f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @mulf_zero(%x: f32, %v: vector<2xf64>) -> (f32, f32, f32, vector<2xf64>, f32) {
  %z = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %k = arith.constant -4.5 : f32
  %vz = arith.constant dense<0.0> : vector<2xf64>
  %0 = arith.mulf %x, %z fastmath<nnan,nsz> : f32
  %1 = arith.mulf %x, %nz fastmath<fast> : f32
  %2 = arith.mulf %k, %z fastmath<nnan,nsz> : f32
  %3 = arith.mulf %v, %vz fastmath<nnan,nsz> : vector<2xf64>
  %4 = arith.mulf %x, %z fastmath<nsz> : f32
  return %0, %1, %2, %3, %4 : f32, f32, f32, vector<2xf64>, f32
}
