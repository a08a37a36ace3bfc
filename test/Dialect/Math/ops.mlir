// Round trip of the math dialect's custom assembly: the body below is exactly
// what mlir-opt prints for it (comments aside), in the pretty form, after a
// second pass, and after going through the generic form.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace

// CHECK: module {
module {
  // Unary ops on scalars.
  // CHECK-LABEL: func.func @unary(
  // CHECK-SAME: %arg0: f32) -> f32 {
  // CHECK-NEXT: %0 = math.exp %arg0 : f32
  // CHECK-NEXT: %1 = math.log %0 : f32
  // CHECK-NEXT: %2 = math.tanh %1 : f32
  // CHECK-NEXT: %3 = math.erf %2 : f32
  // CHECK-NEXT: %4 = math.sqrt %3 : f32
  // CHECK-NEXT: %5 = math.rsqrt %4 : f32
  // CHECK-NEXT: %6 = math.absf %5 : f32
  // CHECK-NEXT: %7 = math.sin %6 : f32
  // CHECK-NEXT: %8 = math.cos %7 : f32
  // CHECK-NEXT: return %8 : f32
  // CHECK-NEXT: }
  func.func @unary(%arg0: f32) -> f32 {
    %0 = math.exp %arg0 : f32
    %1 = math.log %0 : f32
    %2 = math.tanh %1 : f32
    %3 = math.erf %2 : f32
    %4 = math.sqrt %3 : f32
    %5 = math.rsqrt %4 : f32
    %6 = math.absf %5 : f32
    %7 = math.sin %6 : f32
    %8 = math.cos %7 : f32
    return %8 : f32
  }

  // Rounding and the inverse trigonometric functions.
  // CHECK-LABEL: func.func @rounding(
  // CHECK-SAME: %arg0: f32) -> f32 {
  // CHECK-NEXT: %0 = math.floor %arg0 : f32
  // CHECK-NEXT: %1 = math.ceil %0 : f32
  // CHECK-NEXT: %2 = math.round %1 : f32
  // CHECK-NEXT: %3 = math.roundeven %2 : f32
  // CHECK-NEXT: %4 = math.trunc %3 fastmath<fast> : f32
  // CHECK-NEXT: %5 = math.tan %4 : f32
  // CHECK-NEXT: %6 = math.atan %5 : f32
  // CHECK-NEXT: %7 = math.asin %6 : f32
  // CHECK-NEXT: %8 = math.acos %7 : f32
  // CHECK-NEXT: return %8 : f32
  // CHECK-NEXT: }
  func.func @rounding(%arg0: f32) -> f32 {
    %0 = math.floor %arg0 : f32
    %1 = math.ceil %0 : f32
    %2 = math.round %1 : f32
    %3 = math.roundeven %2 : f32
    %4 = math.trunc %3 fastmath<fast> : f32
    %5 = math.tan %4 : f32
    %6 = math.atan %5 : f32
    %7 = math.asin %6 : f32
    %8 = math.acos %7 : f32
    return %8 : f32
  }

  // powf and fma.
  // CHECK-LABEL: func.func @binary_ternary(
  // CHECK-SAME: %arg0: f64, %arg1: f64, %arg2: f64) -> (f64, f64) {
  // CHECK-NEXT: %0 = math.powf %arg0, %arg1 : f64
  // CHECK-NEXT: %1 = math.fma %arg0, %arg1, %arg2 : f64
  // CHECK-NEXT: return %0, %1 : f64, f64
  // CHECK-NEXT: }
  func.func @binary_ternary(%arg0: f64, %arg1: f64, %arg2: f64) -> (f64, f64) {
    %0 = math.powf %arg0, %arg1 : f64
    %1 = math.fma %arg0, %arg1, %arg2 : f64
    return %0, %1 : f64, f64
  }

  // Fast-math flags go between the operands and the colon.
  // CHECK-LABEL: func.func @fastmath(
  // CHECK-SAME: %arg0: f32, %arg1: f32, %arg2: f32) -> f32 {
  // CHECK-NEXT: %0 = math.exp %arg0 fastmath<fast> : f32
  // CHECK-NEXT: %1 = math.log %0 fastmath<nnan,ninf> : f32
  // CHECK-NEXT: %2 = math.tanh %1 fastmath<afn> : f32
  // CHECK-NEXT: %3 = math.erf %2 fastmath<contract> : f32
  // CHECK-NEXT: %4 = math.sqrt %3 fastmath<arcp> : f32
  // CHECK-NEXT: %5 = math.rsqrt %4 fastmath<reassoc> : f32
  // CHECK-NEXT: %6 = math.absf %5 fastmath<nsz> : f32
  // CHECK-NEXT: %7 = math.powf %6, %arg1 fastmath<fast> : f32
  // CHECK-NEXT: %8 = math.fma %7, %arg1, %arg2 fastmath<contract> : f32
  // CHECK-NEXT: %9 = math.sin %8 : f32
  // CHECK-NEXT: %10 = math.cos %9 fastmath<fast> : f32
  // CHECK-NEXT: return %10 : f32
  // CHECK-NEXT: }
  func.func @fastmath(%arg0: f32, %arg1: f32, %arg2: f32) -> f32 {
    %0 = math.exp %arg0 fastmath<fast> : f32
    %1 = math.log %0 fastmath<nnan,ninf> : f32
    %2 = math.tanh %1 fastmath<afn> : f32
    %3 = math.erf %2 fastmath<contract> : f32
    %4 = math.sqrt %3 fastmath<arcp> : f32
    %5 = math.rsqrt %4 fastmath<reassoc> : f32
    %6 = math.absf %5 fastmath<nsz> : f32
    %7 = math.powf %6, %arg1 fastmath<fast> : f32
    %8 = math.fma %7, %arg1, %arg2 fastmath<contract> : f32
    %9 = math.sin %8 : f32
    %10 = math.cos %9 fastmath<fast> : f32
    return %10 : f32
  }

  // Other float types.
  // CHECK-LABEL: func.func @float_types(
  // CHECK-SAME: %arg0: f16, %arg1: bf16, %arg2: f64) -> (f16, bf16, f64) {
  // CHECK-NEXT: %0 = math.exp %arg0 : f16
  // CHECK-NEXT: %1 = math.tanh %arg1 : bf16
  // CHECK-NEXT: %2 = math.sqrt %arg2 : f64
  // CHECK-NEXT: return %0, %1, %2 : f16, bf16, f64
  // CHECK-NEXT: }
  func.func @float_types(%arg0: f16, %arg1: bf16, %arg2: f64) -> (f16, bf16, f64) {
    %0 = math.exp %arg0 : f16
    %1 = math.tanh %arg1 : bf16
    %2 = math.sqrt %arg2 : f64
    return %0, %1, %2 : f16, bf16, f64
  }

  // Vectors and tensors.
  // CHECK-LABEL: func.func @shaped(
  // CHECK-SAME: %arg0: vector<4xf32>, %arg1: vector<4xf32>, %arg2: tensor<2x?xf32>, %arg3: tensor<2x?xf32>, %arg4: vector<[8]xf16>) -> (vector<4xf32>, vector<4xf32>, tensor<2x?xf32>, tensor<2x?xf32>, vector<[8]xf16>) {
  // CHECK-NEXT: %0 = math.exp %arg0 : vector<4xf32>
  // CHECK-NEXT: %1 = math.fma %arg0, %arg1, %0 fastmath<fast> : vector<4xf32>
  // CHECK-NEXT: %2 = math.powf %arg2, %arg3 : tensor<2x?xf32>
  // CHECK-NEXT: %3 = math.rsqrt %2 : tensor<2x?xf32>
  // CHECK-NEXT: %4 = math.cos %arg4 : vector<[8]xf16>
  // CHECK-NEXT: return %0, %1, %2, %3, %4 : vector<4xf32>, vector<4xf32>, tensor<2x?xf32>, tensor<2x?xf32>, vector<[8]xf16>
  // CHECK-NEXT: }
  func.func @shaped(%arg0: vector<4xf32>, %arg1: vector<4xf32>, %arg2: tensor<2x?xf32>, %arg3: tensor<2x?xf32>, %arg4: vector<[8]xf16>) -> (vector<4xf32>, vector<4xf32>, tensor<2x?xf32>, tensor<2x?xf32>, vector<[8]xf16>) {
    %0 = math.exp %arg0 : vector<4xf32>
    %1 = math.fma %arg0, %arg1, %0 fastmath<fast> : vector<4xf32>
    %2 = math.powf %arg2, %arg3 : tensor<2x?xf32>
    %3 = math.rsqrt %2 : tensor<2x?xf32>
    %4 = math.cos %arg4 : vector<[8]xf16>
    return %0, %1, %2, %3, %4 : vector<4xf32>, vector<4xf32>, tensor<2x?xf32>, tensor<2x?xf32>, vector<[8]xf16>
  }

  // Math ops mixed with arith: a numerically stable sigmoid-like expression.
  // CHECK-LABEL: func.func @mixed(
  // CHECK-SAME: %arg0: f32) -> f32 {
  // CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
  // CHECK-NEXT: %0 = arith.negf %arg0 : f32
  // CHECK-NEXT: %1 = math.exp %0 : f32
  // CHECK-NEXT: %2 = arith.addf %cst, %1 : f32
  // CHECK-NEXT: %3 = arith.divf %cst, %2 : f32
  // CHECK-NEXT: return %3 : f32
  // CHECK-NEXT: }
  func.func @mixed(%arg0: f32) -> f32 {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = arith.negf %arg0 : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %cst, %1 : f32
    %3 = arith.divf %cst, %2 : f32
    return %3 : f32
  }
}
