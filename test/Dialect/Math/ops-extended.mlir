// Round trip of the math ops added for MLIR 22 conformance (hyperbolic and
// base-2/10 functions, erfc, cbrt, atan2, copysign, clampf, sincos with its
// named results, fpowi, the integer ops and the float classifications):
// the CHECK lines are exactly what mlir-opt prints for the functions below,
// in the pretty form, after a second pass, and after the generic form.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @float_unary(%arg0: f32, %arg1: vector<4xf64>) -> (f32, vector<4xf64>) {
// CHECK-NEXT:     %0 = math.acosh %arg0 : f32
// CHECK-NEXT:     %1 = math.asinh %0 : f32
// CHECK-NEXT:     %2 = math.atanh %1 fastmath<nnan> : f32
// CHECK-NEXT:     %3 = math.cosh %2 : f32
// CHECK-NEXT:     %4 = math.sinh %3 : f32
// CHECK-NEXT:     %5 = math.erfc %4 : f32
// CHECK-NEXT:     %6 = math.exp2 %5 : f32
// CHECK-NEXT:     %7 = math.log2 %6 : f32
// CHECK-NEXT:     %8 = math.log10 %7 fastmath<fast> : f32
// CHECK-NEXT:     %9 = math.cbrt %8 : f32
// CHECK-NEXT:     %10 = math.exp2 %arg1 : vector<4xf64>
// CHECK-NEXT:     return %9, %10 : f32, vector<4xf64>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @float_binary(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: tensor<2xf16>) -> (f32, f32, f32, tensor<2xf16>) {
// CHECK-NEXT:     %0 = math.atan2 %arg0, %arg1 : f32
// CHECK-NEXT:     %1 = math.copysign %0, %arg2 fastmath<nnan,ninf> : f32
// CHECK-NEXT:     %2 = math.clampf %1 to [%arg1, %arg2] : f32
// CHECK-NEXT:     %3 = math.clampf %2 to [%arg1, %arg2] fastmath<fast> : f32
// CHECK-NEXT:     %4 = math.copysign %arg3, %arg3 : tensor<2xf16>
// CHECK-NEXT:     return %1, %2, %3, %4 : f32, f32, f32, tensor<2xf16>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @sincos_fpowi(%arg0: f32, %arg1: vector<4xf64>, %arg2: i32, %arg3: vector<4xi64>) -> (f32, f32, vector<4xf64>, f32, vector<4xf64>) {
// CHECK-NEXT:     %sin, %cos = math.sincos %arg0 : f32
// CHECK-NEXT:     %sin_0, %cos_1 = math.sincos %arg1 fastmath<afn> : vector<4xf64>
// CHECK-NEXT:     %0 = math.fpowi %arg0, %arg2 : f32, i32
// CHECK-NEXT:     %1 = math.fpowi %arg1, %arg3 fastmath<fast> : vector<4xf64>, vector<4xi64>
// CHECK-NEXT:     return %sin, %cos, %sin_0, %0, %1 : f32, f32, vector<4xf64>, f32, vector<4xf64>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @integer(%arg0: i32, %arg1: i32, %arg2: index, %arg3: vector<3xi8>) -> (i32, index, vector<3xi8>) {
// CHECK-NEXT:     %0 = math.absi %arg0 : i32
// CHECK-NEXT:     %1 = math.ctlz %0 : i32
// CHECK-NEXT:     %2 = math.cttz %1 : i32
// CHECK-NEXT:     %3 = math.ctpop %2 : i32
// CHECK-NEXT:     %4 = math.ipowi %3, %arg1 : i32
// CHECK-NEXT:     %5 = math.ctpop %arg2 : index
// CHECK-NEXT:     %6 = math.absi %arg3 : vector<3xi8>
// CHECK-NEXT:     return %4, %5, %6 : i32, index, vector<3xi8>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @classify(%arg0: f32, %arg1: vector<2xf16>, %arg2: tensor<?xbf16>) -> (i1, i1, i1, vector<2xi1>, tensor<?xi1>) {
// CHECK-NEXT:     %0 = math.isfinite %arg0 : f32
// CHECK-NEXT:     %1 = math.isinf %arg0 : f32
// CHECK-NEXT:     %2 = math.isnan %arg0 : f32
// CHECK-NEXT:     %3 = math.isnormal %arg1 : vector<2xf16>
// CHECK-NEXT:     %4 = math.isnan %arg2 : tensor<?xbf16>
// CHECK-NEXT:     return %0, %1, %2, %3, %4 : i1, i1, i1, vector<2xi1>, tensor<?xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

func.func @float_unary(%x: f32, %v: vector<4xf64>) -> (f32, vector<4xf64>) {
  %0 = math.acosh %x : f32
  %1 = math.asinh %0 : f32
  %2 = math.atanh %1 fastmath<nnan> : f32
  %3 = math.cosh %2 : f32
  %4 = math.sinh %3 : f32
  %5 = math.erfc %4 : f32
  %6 = math.exp2 %5 : f32
  %7 = math.log2 %6 : f32
  %8 = math.log10 %7 fastmath<fast> : f32
  %9 = math.cbrt %8 : f32
  %w = math.exp2 %v : vector<4xf64>
  return %9, %w : f32, vector<4xf64>
}

func.func @float_binary(%x: f32, %y: f32, %z: f32, %t: tensor<2xf16>) -> (f32, f32, f32, tensor<2xf16>) {
  %0 = math.atan2 %x, %y : f32
  %1 = math.copysign %0, %z fastmath<nnan,ninf> : f32
  %2 = math.clampf %1 to [%y, %z] : f32
  %3 = math.clampf %2 to [%y, %z] fastmath<fast> : f32
  %c = math.copysign %t, %t : tensor<2xf16>
  return %1, %2, %3, %c : f32, f32, f32, tensor<2xf16>
}

func.func @sincos_fpowi(%x: f32, %v: vector<4xf64>, %i: i32, %vi: vector<4xi64>) -> (f32, f32, vector<4xf64>, f32, vector<4xf64>) {
  %s, %c = math.sincos %x : f32
  %vs, %vc = math.sincos %v fastmath<afn> : vector<4xf64>
  %p = math.fpowi %x, %i : f32, i32
  %q = math.fpowi %v, %vi fastmath<fast> : vector<4xf64>, vector<4xi64>
  return %s, %c, %vs, %p, %q : f32, f32, vector<4xf64>, f32, vector<4xf64>
}

func.func @integer(%a: i32, %b: i32, %n: index, %v: vector<3xi8>) -> (i32, index, vector<3xi8>) {
  %0 = math.absi %a : i32
  %1 = math.ctlz %0 : i32
  %2 = math.cttz %1 : i32
  %3 = math.ctpop %2 : i32
  %4 = math.ipowi %3, %b : i32
  %m = math.ctpop %n : index
  %w = math.absi %v : vector<3xi8>
  return %4, %m, %w : i32, index, vector<3xi8>
}

func.func @classify(%x: f32, %v: vector<2xf16>, %t: tensor<?xbf16>) -> (i1, i1, i1, vector<2xi1>, tensor<?xi1>) {
  %0 = math.isfinite %x : f32
  %1 = math.isinf %x : f32
  %2 = math.isnan %x : f32
  %3 = math.isnormal %v : vector<2xf16>
  %4 = math.isnan %t : tensor<?xbf16>
  return %0, %1, %2, %3, %4 : i1, i1, i1, vector<2xi1>, tensor<?xi1>
}
