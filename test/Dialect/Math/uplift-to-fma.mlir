// math-uplift-to-fma: arith.addf of an arith.mulf, both allowed to contract,
// becomes math.fma with the flags they share. The CHECK lines are mlir-opt
// 22's output.
// RUN: strata-opt %s --math-uplift-to-fma | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @no_flags(%arg0: f32, %arg1: f32, %arg2: f32) -> f32 {
// CHECK-NEXT:     %0 = arith.mulf %arg0, %arg1 : f32
// CHECK-NEXT:     %1 = arith.addf %0, %arg2 : f32
// CHECK-NEXT:     return %1 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @contract_both(%arg0: vector<4xf32>, %arg1: vector<4xf32>, %arg2: vector<4xf32>) -> vector<4xf32> {
// CHECK-NEXT:     %0 = math.fma %arg0, %arg1, %arg2 fastmath<contract> : vector<4xf32>
// CHECK-NEXT:     return %0 : vector<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @mul_kept(%arg0: f64, %arg1: f64, %arg2: f64) -> (f64, f64) {
// CHECK-NEXT:     %0 = arith.mulf %arg0, %arg1 fastmath<fast> : f64
// CHECK-NEXT:     %1 = math.fma %arg0, %arg1, %arg2 fastmath<fast> : f64
// CHECK-NEXT:     return %1, %0 : f64, f64
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @add_without_contract(%arg0: f32, %arg1: f32, %arg2: f32) -> f32 {
// CHECK-NEXT:     %0 = arith.mulf %arg0, %arg1 fastmath<fast> : f32
// CHECK-NEXT:     %1 = arith.addf %0, %arg2 fastmath<nnan> : f32
// CHECK-NEXT:     return %1 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @no_flags(%a: f32, %b: f32, %c: f32) -> f32 {
  %m = arith.mulf %a, %b : f32
  %s = arith.addf %m, %c : f32
  return %s : f32
}

func.func @contract_both(%a: vector<4xf32>, %b: vector<4xf32>, %c: vector<4xf32>) -> vector<4xf32> {
  %m = arith.mulf %a, %b fastmath<contract,nnan> : vector<4xf32>
  %s = arith.addf %c, %m fastmath<contract,ninf> : vector<4xf32>
  return %s : vector<4xf32>
}

func.func @mul_kept(%a: f64, %b: f64, %c: f64) -> (f64, f64) {
  %m = arith.mulf %a, %b fastmath<fast> : f64
  %s = arith.addf %m, %c fastmath<fast> : f64
  return %s, %m : f64, f64
}

func.func @add_without_contract(%a: f32, %b: f32, %c: f32) -> f32 {
  %m = arith.mulf %a, %b fastmath<fast> : f32
  %s = arith.addf %m, %c fastmath<nnan> : f32
  return %s : f32
}
