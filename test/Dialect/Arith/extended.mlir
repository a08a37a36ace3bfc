// The arith ops of two results, ceildivui and the scaling casts: the CHECK
// lines are what mlir-opt prints for the functions below (pretty, and
// through the generic form); under CANON, what mlir-opt --canonicalize
// prints: constants fold (the carry of a sum, the high half of a signed
// and an unsigned product), a sum with 0 and products with 0 and 1 fold,
// an op whose second result is unused becomes addi or muli, a signed
// product with 1 gives the sign of x spread over the high half, and
// ceildivui folds but for a division by 0.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --canonicalize | FileCheck %s --check-prefix=CANON --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @fold_add() -> (i8, i1, i8, i1, vector<2xi8>, vector<2xi1>) {
// CHECK-NEXT:     %c-56_i8 = arith.constant -56 : i8
// CHECK-NEXT:     %c100_i8 = arith.constant 100 : i8
// CHECK-NEXT:     %sum, %overflow = arith.addui_extended %c-56_i8, %c100_i8 : i8, i1
// CHECK-NEXT:     %c3_i8 = arith.constant 3 : i8
// CHECK-NEXT:     %sum_0, %overflow_1 = arith.addui_extended %c3_i8, %c100_i8 : i8, i1
// CHECK-NEXT:     %cst = arith.constant dense<[-1, 1]> : vector<2xi8>
// CHECK-NEXT:     %cst_2 = arith.constant dense<1> : vector<2xi8>
// CHECK-NEXT:     %sum_3, %overflow_4 = arith.addui_extended %cst, %cst_2 : vector<2xi8>, vector<2xi1>
// CHECK-NEXT:     return %sum, %overflow, %sum_0, %overflow_1, %sum_3, %overflow_4 : i8, i1, i8, i1, vector<2xi8>, vector<2xi1>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @add_zero(%arg0: i32) -> (i32, i1) {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %sum, %overflow = arith.addui_extended %arg0, %c0_i32 : i32, i1
// CHECK-NEXT:     return %sum, %overflow : i32, i1
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @add_unused(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
// CHECK-NEXT:     return %sum : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @fold_mul() -> (i8, i8, i8, i8, i64, i64, i64, i64) {
// CHECK-NEXT:     %c-100_i8 = arith.constant -100 : i8
// CHECK-NEXT:     %c77_i8 = arith.constant 77 : i8
// CHECK-NEXT:     %low, %high = arith.mulsi_extended %c-100_i8, %c77_i8 : i8
// CHECK-NEXT:     %low_0, %high_1 = arith.mului_extended %c-100_i8, %c77_i8 : i8
// CHECK-NEXT:     %c-1_i64 = arith.constant -1 : i64
// CHECK-NEXT:     %c123456789123_i64 = arith.constant 123456789123 : i64
// CHECK-NEXT:     %low_2, %high_3 = arith.mulsi_extended %c-1_i64, %c123456789123_i64 : i64
// CHECK-NEXT:     %low_4, %high_5 = arith.mului_extended %c-1_i64, %c123456789123_i64 : i64
// CHECK-NEXT:     return %low, %high, %low_0, %high_1, %low_2, %high_3, %low_4, %high_5 : i8, i8, i8, i8, i64, i64, i64, i64
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @mul_special(%arg0: i32, %arg1: vector<4xi16>) -> (i32, i32, i32, i32, i32, i32, vector<4xi16>, vector<4xi16>) {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %low, %high = arith.mulsi_extended %arg0, %c0_i32 : i32
// CHECK-NEXT:     %low_0, %high_1 = arith.mului_extended %arg0, %c1_i32 : i32
// CHECK-NEXT:     %low_2, %high_3 = arith.mulsi_extended %arg0, %c1_i32 : i32
// CHECK-NEXT:     %cst = arith.constant dense<1> : vector<4xi16>
// CHECK-NEXT:     %low_4, %high_5 = arith.mulsi_extended %arg1, %cst : vector<4xi16>
// CHECK-NEXT:     return %low, %high, %low_0, %high_1, %low_2, %high_3, %low_4, %high_5 : i32, i32, i32, i32, i32, i32, vector<4xi16>, vector<4xi16>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @mul_unused(%arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:     %low, %high = arith.mulsi_extended %arg0, %arg1 : i32
// CHECK-NEXT:     %low_0, %high_1 = arith.mului_extended %arg0, %arg1 : i32
// CHECK-NEXT:     return %low, %low_0 : i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @ceildivui(%arg0: i32) -> (i32, i32, i32, i32, i32) {
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %0 = arith.ceildivui %arg0, %c1_i32 : i32
// CHECK-NEXT:     %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:     %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:     %1 = arith.ceildivui %c7_i32, %c2_i32 : i32
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %2 = arith.ceildivui %c7_i32, %c0_i32 : i32
// CHECK-NEXT:     %3 = arith.ceildivui %c0_i32, %c2_i32 : i32
// CHECK-NEXT:     %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:     %4 = arith.ceildivui %c-1_i32, %c2_i32 : i32
// CHECK-NEXT:     return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @scaling(%arg0: f4E2M1FN, %arg1: f8E8M0FNU, %arg2: vector<4xf4E2M1FN>, %arg3: vector<4xf8E8M0FNU>, %arg4: f32) -> (f32, vector<4xbf16>, f4E2M1FN, f4E2M1FN) {
// CHECK-NEXT:     %0 = arith.scaling_extf %arg0, %arg1 : f4E2M1FN, f8E8M0FNU to f32
// CHECK-NEXT:     %1 = arith.scaling_extf %arg2, %arg3 fastmath<fast> : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xbf16>
// CHECK-NEXT:     %2 = arith.scaling_truncf %arg4, %arg1 : f32, f8E8M0FNU to f4E2M1FN
// CHECK-NEXT:     %3 = arith.scaling_truncf %arg4, %arg1 to_nearest_even fastmath<fast> : f32, f8E8M0FNU to f4E2M1FN
// CHECK-NEXT:     return %0, %1, %2, %3 : f32, vector<4xbf16>, f4E2M1FN, f4E2M1FN
// CHECK-NEXT:   }
// CHECK-NEXT: }

// CANON: module {
// CANON-NEXT:   func.func @fold_add() -> (i8, i1, i8, i1, vector<2xi8>, vector<2xi1>) {
// CANON-NEXT:     %c44_i8 = arith.constant 44 : i8
// CANON-NEXT:     %true = arith.constant true
// CANON-NEXT:     %c103_i8 = arith.constant 103 : i8
// CANON-NEXT:     %false = arith.constant false
// CANON-NEXT:     %cst = arith.constant dense<[0, 2]> : vector<2xi8>
// CANON-NEXT:     %cst_0 = arith.constant dense<[true, false]> : vector<2xi1>
// CANON-NEXT:     return %c44_i8, %true, %c103_i8, %false, %cst, %cst_0 : i8, i1, i8, i1, vector<2xi8>, vector<2xi1>
// CANON-NEXT:   }
// CANON-NEXT:   func.func @add_zero(%arg0: i32) -> (i32, i1) {
// CANON-NEXT:     %false = arith.constant false
// CANON-NEXT:     return %arg0, %false : i32, i1
// CANON-NEXT:   }
// CANON-NEXT:   func.func @add_unused(%arg0: i32, %arg1: i32) -> i32 {
// CANON-NEXT:     %0 = arith.addi %arg0, %arg1 : i32
// CANON-NEXT:     return %0 : i32
// CANON-NEXT:   }
// CANON-NEXT:   func.func @fold_mul() -> (i8, i8, i8, i8, i64, i64, i64, i64) {
// CANON-NEXT:     %c-20_i8 = arith.constant -20 : i8
// CANON-NEXT:     %c-31_i8 = arith.constant -31 : i8
// CANON-NEXT:     %c46_i8 = arith.constant 46 : i8
// CANON-NEXT:     %c-123456789123_i64 = arith.constant -123456789123 : i64
// CANON-NEXT:     %c-1_i64 = arith.constant -1 : i64
// CANON-NEXT:     %c123456789122_i64 = arith.constant 123456789122 : i64
// CANON-NEXT:     return %c-20_i8, %c-31_i8, %c-20_i8, %c46_i8, %c-123456789123_i64, %c-1_i64, %c-123456789123_i64, %c123456789122_i64 : i8, i8, i8, i8, i64, i64, i64, i64
// CANON-NEXT:   }
// CANON-NEXT:   func.func @mul_special(%arg0: i32, %arg1: vector<4xi16>) -> (i32, i32, i32, i32, i32, i32, vector<4xi16>, vector<4xi16>) {
// CANON-NEXT:     %cst = arith.constant dense<0> : vector<4xi16>
// CANON-NEXT:     %c0_i32 = arith.constant 0 : i32
// CANON-NEXT:     %0 = arith.cmpi slt, %arg0, %c0_i32 : i32
// CANON-NEXT:     %1 = arith.extsi %0 : i1 to i32
// CANON-NEXT:     %2 = arith.cmpi slt, %arg1, %cst : vector<4xi16>
// CANON-NEXT:     %3 = arith.extsi %2 : vector<4xi1> to vector<4xi16>
// CANON-NEXT:     return %c0_i32, %c0_i32, %arg0, %c0_i32, %arg0, %1, %arg1, %3 : i32, i32, i32, i32, i32, i32, vector<4xi16>, vector<4xi16>
// CANON-NEXT:   }
// CANON-NEXT:   func.func @mul_unused(%arg0: i32, %arg1: i32) -> (i32, i32) {
// CANON-NEXT:     %0 = arith.muli %arg0, %arg1 : i32
// CANON-NEXT:     %1 = arith.muli %arg0, %arg1 : i32
// CANON-NEXT:     return %0, %1 : i32, i32
// CANON-NEXT:   }
// CANON-NEXT:   func.func @ceildivui(%arg0: i32) -> (i32, i32, i32, i32, i32) {
// CANON-NEXT:     %c-2147483648_i32 = arith.constant -2147483648 : i32
// CANON-NEXT:     %c0_i32 = arith.constant 0 : i32
// CANON-NEXT:     %c7_i32 = arith.constant 7 : i32
// CANON-NEXT:     %c4_i32 = arith.constant 4 : i32
// CANON-NEXT:     %0 = arith.ceildivui %c7_i32, %c0_i32 : i32
// CANON-NEXT:     return %arg0, %c4_i32, %0, %c0_i32, %c-2147483648_i32 : i32, i32, i32, i32, i32
// CANON-NEXT:   }
// CANON-NEXT:   func.func @scaling(%arg0: f4E2M1FN, %arg1: f8E8M0FNU, %arg2: vector<4xf4E2M1FN>, %arg3: vector<4xf8E8M0FNU>, %arg4: f32) -> (f32, vector<4xbf16>, f4E2M1FN, f4E2M1FN) {
// CANON-NEXT:     %0 = arith.scaling_extf %arg0, %arg1 : f4E2M1FN, f8E8M0FNU to f32
// CANON-NEXT:     %1 = arith.scaling_extf %arg2, %arg3 fastmath<fast> : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xbf16>
// CANON-NEXT:     %2 = arith.scaling_truncf %arg4, %arg1 : f32, f8E8M0FNU to f4E2M1FN
// CANON-NEXT:     %3 = arith.scaling_truncf %arg4, %arg1 to_nearest_even fastmath<fast> : f32, f8E8M0FNU to f4E2M1FN
// CANON-NEXT:     return %0, %1, %2, %3 : f32, vector<4xbf16>, f4E2M1FN, f4E2M1FN
// CANON-NEXT:   }
// CANON-NEXT: }

func.func @fold_add() -> (i8, i1, i8, i1, vector<2xi8>, vector<2xi1>) {
  %a = arith.constant 200 : i8
  %b = arith.constant 100 : i8
  %s, %o = arith.addui_extended %a, %b : i8, i1
  %c = arith.constant 3 : i8
  %s2, %o2 = arith.addui_extended %c, %b : i8, i1
  %v = arith.constant dense<[255, 1]> : vector<2xi8>
  %w = arith.constant dense<[1, 1]> : vector<2xi8>
  %vs, %vo = arith.addui_extended %v, %w : vector<2xi8>, vector<2xi1>
  return %s, %o, %s2, %o2, %vs, %vo : i8, i1, i8, i1, vector<2xi8>, vector<2xi1>
}
func.func @add_zero(%x: i32) -> (i32, i1) {
  %z = arith.constant 0 : i32
  %s, %o = arith.addui_extended %x, %z : i32, i1
  return %s, %o : i32, i1
}
func.func @add_unused(%x: i32, %y: i32) -> i32 {
  %s, %o = arith.addui_extended %x, %y : i32, i1
  return %s : i32
}
func.func @fold_mul() -> (i8, i8, i8, i8, i64, i64, i64, i64) {
  %a = arith.constant -100 : i8
  %b = arith.constant 77 : i8
  %l, %h = arith.mulsi_extended %a, %b : i8
  %l2, %h2 = arith.mului_extended %a, %b : i8
  %c = arith.constant -1 : i64
  %d = arith.constant 123456789123 : i64
  %l3, %h3 = arith.mulsi_extended %c, %d : i64
  %l4, %h4 = arith.mului_extended %c, %d : i64
  return %l, %h, %l2, %h2, %l3, %h3, %l4, %h4 : i8, i8, i8, i8, i64, i64, i64, i64
}
func.func @mul_special(%x: i32, %v: vector<4xi16>) -> (i32, i32, i32, i32, i32, i32, vector<4xi16>, vector<4xi16>) {
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %l, %h = arith.mulsi_extended %x, %z : i32
  %l2, %h2 = arith.mului_extended %x, %one : i32
  %l3, %h3 = arith.mulsi_extended %x, %one : i32
  %vone = arith.constant dense<1> : vector<4xi16>
  %l4, %h4 = arith.mulsi_extended %v, %vone : vector<4xi16>
  return %l, %h, %l2, %h2, %l3, %h3, %l4, %h4 : i32, i32, i32, i32, i32, i32, vector<4xi16>, vector<4xi16>
}
func.func @mul_unused(%x: i32, %y: i32) -> (i32, i32) {
  %l, %h = arith.mulsi_extended %x, %y : i32
  %l2, %h2 = arith.mului_extended %x, %y : i32
  return %l, %l2 : i32, i32
}
func.func @ceildivui(%x: i32) -> (i32, i32, i32, i32, i32) {
  %one = arith.constant 1 : i32
  %a = arith.ceildivui %x, %one : i32
  %c7 = arith.constant 7 : i32
  %c2 = arith.constant 2 : i32
  %b = arith.ceildivui %c7, %c2 : i32
  %c0 = arith.constant 0 : i32
  %c = arith.ceildivui %c7, %c0 : i32
  %d = arith.ceildivui %c0, %c2 : i32
  %m = arith.constant -1 : i32
  %e = arith.ceildivui %m, %c2 : i32
  return %a, %b, %c, %d, %e : i32, i32, i32, i32, i32
}
func.func @scaling(%x: f4E2M1FN, %s: f8E8M0FNU, %v: vector<4xf4E2M1FN>, %vs: vector<4xf8E8M0FNU>, %y: f32) -> (f32, vector<4xbf16>, f4E2M1FN, f4E2M1FN) {
  %0 = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32
  %1 = arith.scaling_extf %v, %vs fastmath<fast> : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xbf16>
  %2 = arith.scaling_truncf %y, %s : f32, f8E8M0FNU to f4E2M1FN
  %3 = arith.scaling_truncf %y, %s to_nearest_even fastmath<fast> : f32, f8E8M0FNU to f4E2M1FN
  return %0, %1, %2, %3 : f32, vector<4xbf16>, f4E2M1FN, f4E2M1FN
}
