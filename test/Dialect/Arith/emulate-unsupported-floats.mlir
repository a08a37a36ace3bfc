// RUN: strata-opt %s --split-input-file --arith-emulate-unsupported-floats="source-types=bf16,f16 target-type=f32" | FileCheck %s

// A block argument is extended at the start of its block, a constant right
// after itself; the result is truncated back.
func.func @mul_const(%a: f16) -> f16 {
  %two = arith.constant 2.0 : f16
  %m = arith.mulf %a, %two fastmath<nnan> : f16
  return %m : f16
}

// CHECK-LABEL: func.func @mul_const(%arg0: f16) -> f16 {
// CHECK-NEXT:   %0 = arith.extf %arg0 fastmath<contract> : f16 to f32
// CHECK-NEXT:   %cst = arith.constant 2.000000e+00 : f16
// CHECK-NEXT:   %1 = arith.extf %cst fastmath<contract> : f16 to f32
// CHECK-NEXT:   %2 = arith.mulf %0, %1 fastmath<nnan> : f32
// CHECK-NEXT:   %3 = arith.truncf %2 fastmath<contract> : f32 to f16
// CHECK-NEXT:   return %3 : f16
// CHECK-NEXT: }

// -----

// A value used twice is extended once; select, comparisons on f32 and
// other dialects' ops keep their types.
func.func @reuse(%c: i1, %a: bf16, %b: bf16, %d: f32) -> (bf16, i1, f32) {
  %s = arith.subf %a, %b : bf16
  %n = arith.negf %s : bf16
  %sel = arith.select %c, %s, %n : bf16
  %cmp = arith.cmpf olt, %n, %s : bf16
  %e = arith.extf %n : bf16 to f32
  %f = arith.addf %e, %d : f32
  return %sel, %cmp, %f : bf16, i1, f32
}

// CHECK-LABEL: func.func @reuse(%arg0: i1, %arg1: bf16, %arg2: bf16, %arg3: f32) -> (bf16, i1, f32) {
// CHECK-NEXT:   %0 = arith.extf %arg2 fastmath<contract> : bf16 to f32
// CHECK-NEXT:   %1 = arith.extf %arg1 fastmath<contract> : bf16 to f32
// CHECK-NEXT:   %2 = arith.subf %1, %0 : f32
// CHECK-NEXT:   %3 = arith.truncf %2 fastmath<contract> : f32 to bf16
// CHECK-NEXT:   %4 = arith.extf %3 fastmath<contract> : bf16 to f32
// CHECK-NEXT:   %5 = arith.negf %4 : f32
// CHECK-NEXT:   %6 = arith.truncf %5 fastmath<contract> : f32 to bf16
// CHECK-NEXT:   %7 = arith.extf %6 fastmath<contract> : bf16 to f32
// CHECK-NEXT:   %8 = arith.select %arg0, %3, %6 : bf16
// CHECK-NEXT:   %9 = arith.cmpf olt, %7, %4 : f32
// CHECK-NEXT:   %10 = arith.extf %6 : bf16 to f32
// CHECK-NEXT:   %11 = arith.addf %10, %arg3 : f32
// CHECK-NEXT:   return %8, %9, %11 : bf16, i1, f32
// CHECK-NEXT: }

// -----

// Vectors and tensors of a source type become vectors and tensors of the
// target type.
func.func @shaped(%v: vector<2xbf16>, %t: tensor<3xf16>) -> (vector<2xbf16>, tensor<3xf16>) {
  %w = arith.divf %v, %v : vector<2xbf16>
  %u = arith.remf %t, %t : tensor<3xf16>
  return %w, %u : vector<2xbf16>, tensor<3xf16>
}

// CHECK-LABEL: func.func @shaped(%arg0: vector<2xbf16>, %arg1: tensor<3xf16>) -> (vector<2xbf16>, tensor<3xf16>) {
// CHECK-NEXT:   %0 = arith.extf %arg1 fastmath<contract> : tensor<3xf16> to tensor<3xf32>
// CHECK-NEXT:   %1 = arith.extf %arg0 fastmath<contract> : vector<2xbf16> to vector<2xf32>
// CHECK-NEXT:   %2 = arith.divf %1, %1 : vector<2xf32>
// CHECK-NEXT:   %3 = arith.truncf %2 fastmath<contract> : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT:   %4 = arith.remf %0, %0 : tensor<3xf32>
// CHECK-NEXT:   %5 = arith.truncf %4 fastmath<contract> : tensor<3xf32> to tensor<3xf16>
// CHECK-NEXT:   return %3, %5 : vector<2xbf16>, tensor<3xf16>
// CHECK-NEXT: }

// -----

// Types the options cannot name as floats are errors.
// RUN: not strata-opt %s --split-input-file --arith-emulate-unsupported-floats="source-types=bf16 target-type=bf16" 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not strata-opt %s --split-input-file --arith-emulate-unsupported-floats="source-types=f17 target-type=f32" 2>&1 | FileCheck %s --check-prefix=SOURCE
// RUN: not strata-opt %s --split-input-file --arith-emulate-unsupported-floats="source-types=bf16 target-type=i32" 2>&1 | FileCheck %s --check-prefix=TARGET
// SAME: error: target type cannot be an unsupported source type
// SOURCE: error: could not map source type 'f17' to a known floating-point type
// TARGET: error: could not map target type 'i32' to a known floating-point type
func.func private @declaration(bf16) -> bf16
