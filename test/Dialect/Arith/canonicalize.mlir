// arith folders and canonicalization patterns; the CHECK lines are exactly
// what mlir-opt --canonicalize prints for each function.
// RUN: strata-opt %s --canonicalize | FileCheck %s

// Constant folding of integer arithmetic.
// CHECK-LABEL: func.func @fold_int_arith(
// CHECK-SAME:  ) -> (i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:  %c10_i32 = arith.constant 10 : i32
// CHECK-NEXT:  %c-4_i32 = arith.constant -4 : i32
// CHECK-NEXT:  %c21_i32 = arith.constant 21 : i32
// CHECK-NEXT:  %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:  %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:  return %c10_i32, %c-4_i32, %c21_i32, %c2_i32, %c2_i32, %c1_i32, %c1_i32 : i32, i32, i32, i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @fold_int_arith() -> (i32, i32, i32, i32, i32, i32, i32) {
  %c7 = arith.constant 7 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %c7, %c3 : i32
  %1 = arith.subi %c3, %c7 : i32
  %2 = arith.muli %c7, %c3 : i32
  %3 = arith.divsi %c7, %c3 : i32
  %4 = arith.divui %c7, %c3 : i32
  %5 = arith.remsi %c7, %c3 : i32
  %6 = arith.remui %c7, %c3 : i32
  return %0, %1, %2, %3, %4, %5, %6 : i32, i32, i32, i32, i32, i32, i32
}

// Signed division rounding: divsi truncates, floordivsi and ceildivsi round
// down and up; remsi takes the dividend's sign.
// CHECK-LABEL: func.func @fold_signed_division(
// CHECK-SAME:  ) -> (i32, i32, i32, i32, i32) {
// CHECK-NEXT:  %c-3_i32 = arith.constant -3 : i32
// CHECK-NEXT:  %c-4_i32 = arith.constant -4 : i32
// CHECK-NEXT:  %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:  %c2147483644_i32 = arith.constant 2147483644 : i32
// CHECK-NEXT:  return %c-3_i32, %c-4_i32, %c-3_i32, %c-1_i32, %c2147483644_i32 : i32, i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @fold_signed_division() -> (i32, i32, i32, i32, i32) {
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.divsi %cm7, %c2 : i32
  %1 = arith.floordivsi %cm7, %c2 : i32
  %2 = arith.ceildivsi %cm7, %c2 : i32
  %3 = arith.remsi %cm7, %c2 : i32
  %4 = arith.divui %cm7, %c2 : i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// Division by zero does not fold.
// CHECK-LABEL: func.func @no_fold_div_by_zero(
// CHECK-SAME:  ) -> (i32, i32) {
// CHECK-NEXT:  %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  %0 = arith.divsi %c7_i32, %c0_i32 : i32
// CHECK-NEXT:  %1 = arith.remui %c7_i32, %c0_i32 : i32
// CHECK-NEXT:  return %0, %1 : i32, i32
// CHECK-NEXT:  }
func.func @no_fold_div_by_zero() -> (i32, i32) {
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.divsi %c7, %c0 : i32
  %1 = arith.remui %c7, %c0 : i32
  return %0, %1 : i32, i32
}

// Folding wraps around at the type's width.
// CHECK-LABEL: func.func @fold_wrap(
// CHECK-SAME:  ) -> (i8, i8, index) {
// CHECK-NEXT:  %c-56_i8 = arith.constant -56 : i8
// CHECK-NEXT:  %c16_i8 = arith.constant 16 : i8
// CHECK-NEXT:  %c30 = arith.constant 30 : index
// CHECK-NEXT:  return %c-56_i8, %c16_i8, %c30 : i8, i8, index
// CHECK-NEXT:  }
func.func @fold_wrap() -> (i8, i8, index) {
  %c100 = arith.constant 100 : i8
  %0 = arith.addi %c100, %c100 : i8
  %1 = arith.muli %c100, %c100 : i8
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %2 = arith.muli %c5, %c6 : index
  return %0, %1, %2 : i8, i8, index
}

// min/max, bitwise and shift folding.
// CHECK-LABEL: func.func @fold_int_misc(
// CHECK-SAME:  ) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:  %c12_i32 = arith.constant 12 : i32
// CHECK-NEXT:  %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:  %c8_i32 = arith.constant 8 : i32
// CHECK-NEXT:  %c14_i32 = arith.constant 14 : i32
// CHECK-NEXT:  %c6_i32 = arith.constant 6 : i32
// CHECK-NEXT:  %c48_i32 = arith.constant 48 : i32
// CHECK-NEXT:  %c1073741823_i32 = arith.constant 1073741823 : i32
// CHECK-NEXT:  return %c12_i32, %c-1_i32, %c-1_i32, %c12_i32, %c8_i32, %c14_i32, %c6_i32, %c48_i32, %c-1_i32, %c1073741823_i32 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @fold_int_misc() -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %cm1 = arith.constant -1 : i32
  %c12 = arith.constant 12 : i32
  %c10 = arith.constant 10 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.maxsi %cm1, %c12 : i32
  %1 = arith.maxui %cm1, %c12 : i32
  %2 = arith.minsi %cm1, %c12 : i32
  %3 = arith.minui %cm1, %c12 : i32
  %4 = arith.andi %c12, %c10 : i32
  %5 = arith.ori %c12, %c10 : i32
  %6 = arith.xori %c12, %c10 : i32
  %7 = arith.shli %c12, %c2 : i32
  %8 = arith.shrsi %cm1, %c2 : i32
  %9 = arith.shrui %cm1, %c2 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// A shift by the bit width or more does not fold.
// CHECK-LABEL: func.func @no_fold_big_shift(
// CHECK-SAME:  %arg0: i32) -> i32 {
// CHECK-NEXT:  %c40_i32 = arith.constant 40 : i32
// CHECK-NEXT:  %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:  %0 = arith.shli %c1_i32, %c40_i32 : i32
// CHECK-NEXT:  return %0 : i32
// CHECK-NEXT:  }
func.func @no_fold_big_shift(%x: i32) -> i32 {
  %c40 = arith.constant 40 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.shli %c1, %c40 : i32
  return %0 : i32
}

// Float constant folding.
// CHECK-LABEL: func.func @fold_float_arith(
// CHECK-SAME:  ) -> (f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:  %cst = arith.constant 3.750000e+00 : f32
// CHECK-NEXT:  %cst_0 = arith.constant -7.500000e-01 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 3.375000e+00 : f32
// CHECK-NEXT:  %cst_2 = arith.constant 0.666666686 : f32
// CHECK-NEXT:  %cst_3 = arith.constant -1.500000e+00 : f32
// CHECK-NEXT:  %cst_4 = arith.constant 2.250000e+00 : f32
// CHECK-NEXT:  %cst_5 = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5 : f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT:  }
func.func @fold_float_arith() -> (f32, f32, f32, f32, f32, f32, f32) {
  %a = arith.constant 1.5 : f32
  %b = arith.constant 2.25 : f32
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %a, %b : f32
  %2 = arith.mulf %a, %b : f32
  %3 = arith.divf %a, %b : f32
  %4 = arith.negf %a : f32
  %5 = arith.maximumf %a, %b : f32
  %6 = arith.minnumf %a, %b : f32
  return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32, f32, f32
}

// Comparisons of constants fold to true/false.
// CHECK-LABEL: func.func @fold_cmpi(
// CHECK-SAME:  ) -> (i1, i1, i1, i1, i1, i1) {
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  return %true, %false, %false, %true, %true, %true : i1, i1, i1, i1, i1, i1
// CHECK-NEXT:  }
func.func @fold_cmpi() -> (i1, i1, i1, i1, i1, i1) {
  %cm1 = arith.constant -1 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.cmpi slt, %cm1, %c1 : i32
  %1 = arith.cmpi ult, %cm1, %c1 : i32
  %2 = arith.cmpi eq, %cm1, %c1 : i32
  %3 = arith.cmpi ne, %cm1, %c1 : i32
  %4 = arith.cmpi sge, %cm1, %cm1 : i32
  %5 = arith.cmpi ugt, %cm1, %c1 : i32
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, i1
}

// CHECK-LABEL: func.func @fold_cmpf(
// CHECK-SAME:  ) -> (i1, i1, i1, i1, i1) {
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  return %true, %false, %true, %true, %true : i1, i1, i1, i1, i1
// CHECK-NEXT:  }
func.func @fold_cmpf() -> (i1, i1, i1, i1, i1) {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 2.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.cmpf olt, %a, %b : f32
  %1 = arith.cmpf oeq, %a, %nan : f32
  %2 = arith.cmpf ueq, %a, %nan : f32
  %3 = arith.cmpf uno, %nan, %nan : f32
  %4 = arith.cmpf one, %a, %b : f32
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i1
}

// Casts of constants (the i32 -> f32 bitcast of 3 is a denormal).
// CHECK-LABEL: func.func @fold_casts(
// CHECK-SAME:  ) -> (i32, i32, i8, f32, i32, index, index, f64, f32, i32) {
// CHECK-NEXT:  %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:  %c255_i32 = arith.constant 255 : i32
// CHECK-NEXT:  %c1_i8 = arith.constant 1 : i8
// CHECK-NEXT:  %cst = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:  %c-2_i32 = arith.constant -2 : i32
// CHECK-NEXT:  %c3 = arith.constant 3 : index
// CHECK-NEXT:  %cst_0 = arith.constant -2.750000e+00 : f64
// CHECK-NEXT:  %cst_1 = arith.constant 4.203900e-45 : f32
// CHECK-NEXT:  %c-1070596096_i32 = arith.constant -1070596096 : i32
// CHECK-NEXT:  return %c-1_i32, %c255_i32, %c1_i8, %cst, %c-2_i32, %c3, %c3, %cst_0, %cst_1, %c-1070596096_i32 : i32, i32, i8, f32, i32, index, index, f64, f32, i32
// CHECK-NEXT:  }
func.func @fold_casts() -> (i32, i32, i8, f32, i32, index, index, f64, f32, i32) {
  %cm1 = arith.constant -1 : i8
  %c257 = arith.constant 257 : i32
  %c3 = arith.constant 3 : i32
  %f = arith.constant -2.75 : f32
  %0 = arith.extsi %cm1 : i8 to i32
  %1 = arith.extui %cm1 : i8 to i32
  %2 = arith.trunci %c257 : i32 to i8
  %3 = arith.sitofp %c3 : i32 to f32
  %4 = arith.fptosi %f : f32 to i32
  %5 = arith.index_cast %c3 : i32 to index
  %6 = arith.index_castui %c3 : i32 to index
  %7 = arith.extf %f : f32 to f64
  %8 = arith.bitcast %c3 : i32 to f32
  %9 = arith.bitcast %f : f32 to i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i8, f32, i32, index, index, f64, f32, i32
}

// Integer identities: x+0, x-0, x*1, x*0, x/1, x-x.
// CHECK-LABEL: func.func @int_identities(
// CHECK-SAME:  %arg0: i32) -> (i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  return %arg0, %arg0, %arg0, %arg0, %c0_i32, %arg0, %c0_i32 : i32, i32, i32, i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @int_identities(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.addi %c0, %x : i32
  %2 = arith.subi %x, %c0 : i32
  %3 = arith.muli %x, %c1 : i32
  %4 = arith.muli %x, %c0 : i32
  %5 = arith.divsi %x, %c1 : i32
  %6 = arith.subi %x, %x : i32
  return %0, %1, %2, %3, %4, %5, %6 : i32, i32, i32, i32, i32, i32, i32
}

// Bitwise identities.
// CHECK-LABEL: func.func @bitwise_identities(
// CHECK-SAME:  %arg0: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:  return %arg0, %c0_i32, %arg0, %arg0, %arg0, %c-1_i32, %c0_i32, %arg0 : i32, i32, i32, i32, i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @bitwise_identities(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %cm1 = arith.constant -1 : i32
  %0 = arith.andi %x, %x : i32
  %1 = arith.andi %x, %c0 : i32
  %2 = arith.andi %x, %cm1 : i32
  %3 = arith.ori %x, %x : i32
  %4 = arith.ori %x, %c0 : i32
  %5 = arith.ori %x, %cm1 : i32
  %6 = arith.xori %x, %x : i32
  %7 = arith.xori %x, %c0 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7 : i32, i32, i32, i32, i32, i32, i32, i32
}

// Shifts by zero, min/max of equal operands.
// CHECK-LABEL: func.func @shift_minmax_identities(
// CHECK-SAME:  %arg0: i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT:  return %arg0, %arg0, %arg0, %arg0 : i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @shift_minmax_identities(%x: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %0 = arith.shli %x, %c0 : i32
  %1 = arith.shrsi %x, %c0 : i32
  %2 = arith.maxsi %x, %x : i32
  %3 = arith.minui %x, %x : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// Float identities: x + -0.0, x - 0.0, x * 1.0, x / 1.0 fold; x + 0.0 and
// x * 0.0 do not (signed zeros, NaN). The unused constants are erased.
// CHECK-LABEL: func.func @float_identities(
// CHECK-SAME:  %arg0: f32) -> (f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:  %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %0 = arith.addf %arg0, %cst : f32
// CHECK-NEXT:  %1 = arith.mulf %arg0, %cst : f32
// CHECK-NEXT:  return %arg0, %arg0, %arg0, %arg0, %0, %1 : f32, f32, f32, f32, f32, f32
// CHECK-NEXT:  }
func.func @float_identities(%x: f32) -> (f32, f32, f32, f32, f32, f32) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = arith.addf %x, %negzero : f32
  %1 = arith.subf %x, %zero : f32
  %2 = arith.mulf %x, %one : f32
  %3 = arith.divf %x, %one : f32
  %4 = arith.addf %x, %zero : f32
  %5 = arith.mulf %x, %zero : f32
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f32, f32
}

// Double negation.
// CHECK-LABEL: func.func @double_negf(
// CHECK-SAME:  %arg0: f32) -> f32 {
// CHECK-NEXT:  return %arg0 : f32
// CHECK-NEXT:  }
func.func @double_negf(%x: f32) -> f32 {
  %0 = arith.negf %x : f32
  %1 = arith.negf %0 : f32
  return %1 : f32
}

// cmpi of a value with itself.
// CHECK-LABEL: func.func @cmpi_same_operand(
// CHECK-SAME:  %arg0: i32) -> (i1, i1, i1, i1, i1, i1) {
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  return %true, %false, %false, %true, %false, %true : i1, i1, i1, i1, i1, i1
// CHECK-NEXT:  }
func.func @cmpi_same_operand(%x: i32) -> (i1, i1, i1, i1, i1, i1) {
  %0 = arith.cmpi eq, %x, %x : i32
  %1 = arith.cmpi ne, %x, %x : i32
  %2 = arith.cmpi slt, %x, %x : i32
  %3 = arith.cmpi sle, %x, %x : i32
  %4 = arith.cmpi ugt, %x, %x : i32
  %5 = arith.cmpi uge, %x, %x : i32
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, i1
}

// cmpf of a value with itself does not fold (NaN).
// CHECK-LABEL: func.func @cmpf_same_operand(
// CHECK-SAME:  %arg0: f32) -> i1 {
// CHECK-NEXT:  %0 = arith.cmpf oeq, %arg0, %arg0 : f32
// CHECK-NEXT:  return %0 : i1
// CHECK-NEXT:  }
func.func @cmpf_same_operand(%x: f32) -> i1 {
  %0 = arith.cmpf oeq, %x, %x : f32
  return %0 : i1
}

// Unused pure ops are erased; constants are hoisted to the entry block start
// and deduplicated.
// CHECK-LABEL: func.func @dce_and_dedup(
// CHECK-SAME:  %arg0: i32) -> i32 {
// CHECK-NEXT:  %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT:  %0 = arith.addi %arg0, %c5_i32 : i32
// CHECK-NEXT:  %1 = arith.muli %0, %c5_i32 : i32
// CHECK-NEXT:  return %1 : i32
// CHECK-NEXT:  }
func.func @dce_and_dedup(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  %c5 = arith.constant 5 : i32
  %1 = arith.addi %x, %c5 : i32
  %c5_dup = arith.constant 5 : i32
  %2 = arith.muli %1, %c5_dup : i32
  return %2 : i32
}

// select with a constant condition, with equal operands, and i1 selects of
// true/false.
// CHECK-LABEL: func.func @select_folds(
// CHECK-SAME:  %arg0: i1, %arg1: i32, %arg2: i32) -> (i32, i32, i32, i1, i1) {
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %0 = arith.xori %arg0, %true : i1
// CHECK-NEXT:  return %arg1, %arg2, %arg1, %arg0, %0 : i32, i32, i32, i1, i1
// CHECK-NEXT:  }
func.func @select_folds(%c: i1, %x: i32, %y: i32) -> (i32, i32, i32, i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %0 = arith.select %true, %x, %y : i32
  %1 = arith.select %false, %x, %y : i32
  %2 = arith.select %c, %x, %x : i32
  %3 = arith.select %c, %true, %false : i1
  %4 = arith.select %c, %false, %true : i1
  return %0, %1, %2, %3, %4 : i32, i32, i32, i1, i1
}

// Constants move to the right of commutative ops; chains of constant
// additions are reassociated. The folded constant 3 is created at the start of
// the block, before the existing constants.
// CHECK-LABEL: func.func @commute_and_reassociate(
// CHECK-SAME:  %arg0: i32) -> (i32, i32, i32) {
// CHECK-NEXT:  %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:  %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:  %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:  %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT:  %1 = arith.addi %arg0, %c3_i32 : i32
// CHECK-NEXT:  %2 = arith.muli %arg0, %c2_i32 : i32
// CHECK-NEXT:  return %0, %1, %2 : i32, i32, i32
// CHECK-NEXT:  }
func.func @commute_and_reassociate(%x: i32) -> (i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %x : i32
  %1 = arith.addi %0, %c2 : i32
  %2 = arith.muli %c2, %x : i32
  return %0, %1, %2 : i32, i32, i32
}

// (x + y) - y, (x ^ y) ^ y.
// CHECK-LABEL: func.func @add_sub_xor_cancel(
// CHECK-SAME:  %arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:  return %arg0, %arg0 : i32, i32
// CHECK-NEXT:  }
func.func @add_sub_xor_cancel(%x: i32, %y: i32) -> (i32, i32) {
  %0 = arith.addi %x, %y : i32
  %1 = arith.subi %0, %y : i32
  %2 = arith.xori %x, %y : i32
  %3 = arith.xori %2, %y : i32
  return %1, %3 : i32, i32
}

// Chains of casts.
// CHECK-LABEL: func.func @cast_chains(
// CHECK-SAME:  %arg0: i8, %arg1: index, %arg2: i64) -> (i64, i8, index, i8) {
// CHECK-NEXT:  %0 = arith.extsi %arg0 : i8 to i64
// CHECK-NEXT:  %1 = arith.trunci %arg2 : i64 to i8
// CHECK-NEXT:  return %0, %arg0, %arg1, %1 : i64, i8, index, i8
// CHECK-NEXT:  }
func.func @cast_chains(%x: i8, %i: index, %w: i64) -> (i64, i8, index, i8) {
  %0 = arith.extsi %x : i8 to i32
  %1 = arith.extsi %0 : i32 to i64
  %2 = arith.extsi %x : i8 to i32
  %3 = arith.trunci %2 : i32 to i8
  %4 = arith.index_cast %i : index to i64
  %5 = arith.index_cast %4 : i64 to index
  %6 = arith.trunci %w : i64 to i32
  %7 = arith.trunci %6 : i32 to i8
  return %1, %3, %5, %7 : i64, i8, index, i8
}

// extf(truncf x) is not folded; truncf(extf x) is.
// CHECK-LABEL: func.func @float_cast_chains(
// CHECK-SAME:  %arg0: f32, %arg1: f16) -> (f64, f16) {
// CHECK-NEXT:  %0 = arith.truncf %arg0 : f32 to f16
// CHECK-NEXT:  %1 = arith.extf %0 : f16 to f64
// CHECK-NEXT:  return %1, %arg1 : f64, f16
// CHECK-NEXT:  }
func.func @float_cast_chains(%x: f32, %h: f16) -> (f64, f16) {
  %0 = arith.truncf %x : f32 to f16
  %1 = arith.extf %0 : f16 to f64
  %2 = arith.extf %h : f16 to f32
  %3 = arith.truncf %2 : f32 to f16
  return %1, %3 : f64, f16
}

// Folding on splat and non-splat vector and tensor constants.
// CHECK-LABEL: func.func @fold_shaped(
// CHECK-SAME:  ) -> (vector<4xi32>, tensor<2xf32>, vector<4xi1>) {
// CHECK-NEXT:  %cst = arith.constant dense<[2, 3, 4, 5]> : vector<4xi32>
// CHECK-NEXT:  %cst_0 = arith.constant dense<[1.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[false, true, true, true]> : vector<4xi1>
// CHECK-NEXT:  return %cst, %cst_0, %cst_1 : vector<4xi32>, tensor<2xf32>, vector<4xi1>
// CHECK-NEXT:  }
func.func @fold_shaped() -> (vector<4xi32>, tensor<2xf32>, vector<4xi1>) {
  %a = arith.constant dense<1> : vector<4xi32>
  %b = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %0 = arith.addi %a, %b : vector<4xi32>
  %x = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = arith.mulf %x, %x : tensor<2xf32>
  %2 = arith.cmpi sgt, %b, %a : vector<4xi32>
  return %0, %1, %2 : vector<4xi32>, tensor<2xf32>, vector<4xi1>
}

// Identities on shaped values.
// CHECK-LABEL: func.func @shaped_identities(
// CHECK-SAME:  %arg0: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>) {
// CHECK-NEXT:  %cst = arith.constant dense<0> : vector<4xi32>
// CHECK-NEXT:  return %arg0, %cst : vector<4xi32>, vector<4xi32>
// CHECK-NEXT:  }
func.func @shaped_identities(%v: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>) {
  %zero = arith.constant dense<0> : vector<4xi32>
  %0 = arith.addi %v, %zero : vector<4xi32>
  %1 = arith.muli %v, %zero : vector<4xi32>
  return %0, %1 : vector<4xi32>, vector<4xi32>
}

// NaNs made by folding are the positive quiet NaN (the host may make a
// negative one); maxnumf/minnumf order -0.0 below +0.0, as LLVM.
// CHECK-LABEL: func.func @nan_and_signed_zero(
// CHECK-NEXT: %cst = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_0 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %cst_1 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT: %cst_2 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: return %cst, %cst, %cst_0, %cst_1, %cst_2, %cst : f32, f32, f32, f64, f32, f32
// CHECK-NEXT: }
func.func @nan_and_signed_zero() -> (f32, f32, f32, f64, f32, f32) {
  %z = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %d = arith.constant 0.0 : f64
  %0 = arith.divf %z, %z : f32
  %1 = arith.subf %inf, %inf : f32
  %2 = arith.maxnumf %nz, %z : f32
  %3 = arith.divf %d, %d : f64
  %4 = arith.minnumf %z, %nz : f32
  %5 = arith.mulf %z, %inf : f32
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f64, f32, f32
}

// Integer to float conversions round once.
// CHECK-LABEL: func.func @int_to_float_rounding(
// CHECK-NEXT: %cst = arith.constant 1.15292164E+18 : f32
// CHECK-NEXT: return %cst, %cst : f32, f32
// CHECK-NEXT: }
func.func @int_to_float_rounding() -> (f32, f32) {
  %c = arith.constant 1152921573326323713 : i64
  %0 = arith.sitofp %c : i64 to f32
  %1 = arith.uitofp %c : i64 to f32
  return %0, %1 : f32, f32
}

// log and sqrt of -0.0 do not fold; log of NaN does.
// CHECK-LABEL: func.func @log_sqrt_negative_zero(
// CHECK-NEXT: %cst = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %cst_0 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT: %0 = math.log %cst_0 : f32
// CHECK-NEXT: %1 = math.sqrt %cst_0 : f32
// CHECK-NEXT: return %0, %1, %cst : f32, f32, f32
// CHECK-NEXT: }
func.func @log_sqrt_negative_zero() -> (f32, f32, f32) {
  %nz = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = math.log %nz : f32
  %1 = math.sqrt %nz : f32
  %2 = math.log %nan : f32
  return %0, %1, %2 : f32, f32, f32
}

// AddISubConstantRHS/LHS, SubIRHSAddConstant, SubILHSAddConstant.
// CHECK-LABEL: func.func @add_sub_constants(
// CHECK-NEXT: %c-2_i32 = arith.constant -2 : i32
// CHECK-NEXT: %c12_i32 = arith.constant 12 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %0 = arith.addi %arg0, %c2_i32 : i32
// CHECK-NEXT: %1 = arith.subi %c12_i32, %arg0 : i32
// CHECK-NEXT: %2 = arith.addi %arg0, %c-2_i32 : i32
// CHECK-NEXT: %3 = arith.subi %c2_i32, %arg0 : i32
// CHECK-NEXT: return %0, %1, %2, %3 : i32, i32, i32, i32
// CHECK-NEXT: }
func.func @add_sub_constants(%x: i32) -> (i32, i32, i32, i32) {
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %0 = arith.subi %x, %c5 : i32
  %1 = arith.addi %0, %c7 : i32
  %2 = arith.subi %c5, %x : i32
  %3 = arith.addi %2, %c7 : i32
  %4 = arith.addi %x, %c5 : i32
  %5 = arith.subi %4, %c7 : i32
  %6 = arith.subi %c7, %4 : i32
  return %1, %3, %5, %6 : i32, i32, i32, i32
}

// SubIRHSSubConstantRHS/LHS, SubILHSSubConstantRHS/LHS, SubISubILHSRHSLHS.
// CHECK-LABEL: func.func @sub_sub_constants(
// CHECK-NEXT: %c-5_i32 = arith.constant -5 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %c-2_i32 = arith.constant -2 : i32
// CHECK-NEXT: %c12_i32 = arith.constant 12 : i32
// CHECK-NEXT: %0 = arith.subi %arg0, %c12_i32 : i32
// CHECK-NEXT: %1 = arith.subi %c-2_i32, %arg0 : i32
// CHECK-NEXT: %2 = arith.subi %c12_i32, %arg0 : i32
// CHECK-NEXT: %3 = arith.addi %arg0, %c2_i32 : i32
// CHECK-NEXT: return %0, %1, %2, %3, %c-5_i32 : i32, i32, i32, i32, i32
// CHECK-NEXT: }
func.func @sub_sub_constants(%x: i32) -> (i32, i32, i32, i32, i32) {
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %0 = arith.subi %x, %c5 : i32
  %1 = arith.subi %0, %c7 : i32
  %2 = arith.subi %c5, %x : i32
  %3 = arith.subi %2, %c7 : i32
  %4 = arith.subi %c7, %0 : i32
  %5 = arith.subi %c7, %2 : i32
  %6 = arith.subi %0, %x : i32
  return %1, %3, %4, %5, %6 : i32, i32, i32, i32, i32
}

// AddIMulNegativeOneRhs/Lhs.
// CHECK-LABEL: func.func @mul_negative_one(
// CHECK-NEXT: %0 = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT: %1 = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT: return %0, %1 : i32, i32
// CHECK-NEXT: }
func.func @mul_negative_one(%x: i32, %y: i32) -> (i32, i32) {
  %m1 = arith.constant -1 : i32
  %0 = arith.muli %y, %m1 : i32
  %1 = arith.addi %x, %0 : i32
  %2 = arith.muli %x, %m1 : i32
  %3 = arith.addi %2, %y : i32
  return %1, %3 : i32, i32
}

// XOrINotCmpI.
// CHECK-LABEL: func.func @not_cmpi(
// CHECK-NEXT: %0 = arith.cmpi sge, %arg0, %arg1 : i32
// CHECK-NEXT: return %0 : i1
// CHECK-NEXT: }
func.func @not_cmpi(%a: i32, %b: i32) -> i1 {
  %true = arith.constant true
  %0 = arith.cmpi slt, %a, %b : i32
  %1 = arith.xori %0, %true : i1
  return %1 : i1
}

// CmpIExtSI, CmpIExtUI.
// CHECK-LABEL: func.func @cmpi_ext(
// CHECK-NEXT: %0 = arith.cmpi eq, %arg0, %arg1 : i8
// CHECK-NEXT: %1 = arith.cmpi ne, %arg0, %arg1 : i8
// CHECK-NEXT: return %0, %1 : i1, i1
// CHECK-NEXT: }
func.func @cmpi_ext(%a: i8, %b: i8) -> (i1, i1) {
  %0 = arith.extsi %a : i8 to i32
  %1 = arith.extsi %b : i8 to i32
  %2 = arith.cmpi eq, %0, %1 : i32
  %3 = arith.extui %a : i8 to i32
  %4 = arith.extui %b : i8 to i32
  %5 = arith.cmpi ne, %3, %4 : i32
  return %2, %5 : i1, i1
}

// SelectNotCond, RedundantSelectTrue/False.
// CHECK-LABEL: func.func @selects(
// CHECK-NEXT: %0 = arith.select %arg0, %arg3, %arg2 : i32
// CHECK-NEXT: %1 = arith.select %arg1, %arg2, %arg4 : i32
// CHECK-NEXT: %2 = arith.select %arg1, %arg4, %arg3 : i32
// CHECK-NEXT: return %0, %1, %2 : i32, i32, i32
// CHECK-NEXT: }
func.func @selects(%c: i1, %d: i1, %x: i32, %y: i32, %z: i32) -> (i32, i32, i32) {
  %true = arith.constant true
  %0 = arith.xori %c, %true : i1
  %1 = arith.select %0, %x, %y : i32
  %2 = arith.select %d, %x, %y : i32
  %3 = arith.select %d, %2, %z : i32
  %4 = arith.select %d, %z, %2 : i32
  return %1, %3, %4 : i32, i32, i32
}

// ExtSIOfExtUI, IndexCastOfExtSI, IndexCastUIOfExtUI, TruncIExt{SI,UI}ToExt{SI,UI}.
// CHECK-LABEL: func.func @ext_casts(
// CHECK-NEXT: %0 = arith.extui %arg0 : i8 to i64
// CHECK-NEXT: %1 = arith.index_cast %arg1 : i16 to index
// CHECK-NEXT: %2 = arith.index_castui %arg1 : i16 to index
// CHECK-NEXT: %3 = arith.extsi %arg0 : i8 to i32
// CHECK-NEXT: %4 = arith.extui %arg0 : i8 to i32
// CHECK-NEXT: return %0, %1, %2, %3, %4 : i64, index, index, i32, i32
// CHECK-NEXT: }
func.func @ext_casts(%a: i8, %i: i16) -> (i64, index, index, i32, i32) {
  %0 = arith.extui %a : i8 to i16
  %1 = arith.extsi %0 : i16 to i64
  %2 = arith.extsi %i : i16 to i32
  %3 = arith.index_cast %2 : i32 to index
  %4 = arith.extui %i : i16 to i64
  %5 = arith.index_castui %4 : i64 to index
  %6 = arith.extsi %a : i8 to i64
  %7 = arith.trunci %6 : i64 to i32
  %8 = arith.extui %a : i8 to i64
  %9 = arith.trunci %8 : i64 to i32
  return %1, %3, %5, %7, %9 : i64, index, index, i32, i32
}

// AndOfExtUI, OrOfExtSI.
// CHECK-LABEL: func.func @logic_of_ext(
// CHECK-NEXT: %0 = arith.andi %arg0, %arg1 : i8
// CHECK-NEXT: %1 = arith.extui %0 : i8 to i32
// CHECK-NEXT: %2 = arith.ori %arg0, %arg1 : i8
// CHECK-NEXT: %3 = arith.extsi %2 : i8 to i32
// CHECK-NEXT: return %1, %3 : i32, i32
// CHECK-NEXT: }
func.func @logic_of_ext(%a: i8, %b: i8) -> (i32, i32) {
  %0 = arith.extui %a : i8 to i32
  %1 = arith.extui %b : i8 to i32
  %2 = arith.andi %0, %1 : i32
  %3 = arith.extsi %a : i8 to i32
  %4 = arith.extsi %b : i8 to i32
  %5 = arith.ori %3, %4 : i32
  return %2, %5 : i32, i32
}

// MulFOfNegF (keeping fast-math flags), DivFOfNegF.
// CHECK-LABEL: func.func @neg_neg(
// CHECK-NEXT: %0 = arith.mulf %arg0, %arg1 fastmath<fast> : f32
// CHECK-NEXT: %1 = arith.divf %arg0, %arg1 : f32
// CHECK-NEXT: return %0, %1 : f32, f32
// CHECK-NEXT: }
func.func @neg_neg(%a: f32, %b: f32) -> (f32, f32) {
  %0 = arith.negf %a : f32
  %1 = arith.negf %b : f32
  %2 = arith.mulf %0, %1 fastmath<fast> : f32
  %3 = arith.divf %0, %1 : f32
  return %2, %3 : f32, f32
}

// Reassociated ops keep the overflow flags both had.
// CHECK-LABEL: func.func @overflow_merge(
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %0 = arith.addi %arg0, %c3_i32 overflow<nsw> : i32
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @overflow_merge(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %x, %c1 overflow<nsw, nuw> : i32
  %1 = arith.addi %0, %c2 overflow<nsw> : i32
  return %1 : i32
}

// SelectToExtUI.
// CHECK-LABEL: func.func @select_to_ext(
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %0 = arith.extui %arg0 : i1 to i32
// CHECK-NEXT: %1 = arith.xori %arg0, %true : i1
// CHECK-NEXT: %2 = arith.extui %1 : i1 to i32
// CHECK-NEXT: return %0, %2 : i32, i32
// CHECK-NEXT: }
func.func @select_to_ext(%c: i1) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.select %c, %c1, %c0 : i32
  %1 = arith.select %c, %c0, %c1 : i32
  return %0, %1 : i32, i32
}

// XOrIOfExtUI, XOrIOfExtSI.
// CHECK-LABEL: func.func @xor_of_ext(
// CHECK-NEXT: %0 = arith.xori %arg0, %arg1 : i8
// CHECK-NEXT: %1 = arith.extui %0 : i8 to i32
// CHECK-NEXT: %2 = arith.xori %arg0, %arg1 : i8
// CHECK-NEXT: %3 = arith.extsi %2 : i8 to i32
// CHECK-NEXT: return %1, %3 : i32, i32
// CHECK-NEXT: }
func.func @xor_of_ext(%a: i8, %b: i8) -> (i32, i32) {
  %0 = arith.extui %a : i8 to i32
  %1 = arith.extui %b : i8 to i32
  %2 = arith.xori %0, %1 : i32
  %3 = arith.extsi %a : i8 to i32
  %4 = arith.extsi %b : i8 to i32
  %5 = arith.xori %3, %4 : i32
  return %2, %5 : i32, i32
}

// CmpFIntToFPConst: a fractional constant decides eq/ne, rounds the others.
// CHECK-LABEL: func.func @cmpf_fractional(
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %0 = arith.cmpi sle, %arg0, %c2_i32 : i32
// CHECK-NEXT: %1 = arith.cmpi sgt, %arg0, %c2_i32 : i32
// CHECK-NEXT: return %false, %true, %0, %1 : i1, i1, i1, i1
// CHECK-NEXT: }
func.func @cmpf_fractional(%x: i32) -> (i1, i1, i1, i1) {
  %c = arith.constant 2.5 : f32
  %0 = arith.sitofp %x : i32 to f32
  %1 = arith.cmpf oeq, %0, %c : f32
  %2 = arith.cmpf one, %0, %c : f32
  %3 = arith.cmpf olt, %0, %c : f32
  %4 = arith.cmpf oge, %0, %c : f32
  return %1, %2, %3, %4 : i1, i1, i1, i1
}

// CmpFIntToFPConst: out of the integer's range, and unsigned conversions.
// CHECK-LABEL: func.func @cmpf_range(
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: return %true, %true, %false, %true : i1, i1, i1, i1
// CHECK-NEXT: }
func.func @cmpf_range(%x: i8, %y: i16) -> (i1, i1, i1, i1) {
  %big = arith.constant 1.0e10 : f32
  %neg = arith.constant -3.0 : f32
  %0 = arith.sitofp %x : i8 to f32
  %1 = arith.cmpf olt, %0, %big : f32
  %2 = arith.uitofp %y : i16 to f32
  %3 = arith.cmpf ogt, %2, %neg : f32
  %4 = arith.cmpf ule, %2, %neg : f32
  %5 = arith.cmpf ord, %0, %big : f32
  return %1, %3, %4, %5 : i1, i1, i1, i1
}

// CmpFIntToFPConst does not fold where the conversion may round.
// CHECK-LABEL: func.func @cmpf_lossy(
// CHECK-NEXT: %cst = arith.constant 0x4B800000 : f32
// CHECK-NEXT: %0 = arith.sitofp %arg0 : i64 to f32
// CHECK-NEXT: %1 = arith.cmpf oeq, %0, %cst : f32
// CHECK-NEXT: return %1 : i1
// CHECK-NEXT: }
func.func @cmpf_lossy(%x: i64) -> i1 {
  %c = arith.constant 1.6777216E+7 : f32
  %0 = arith.sitofp %x : i64 to f32
  %1 = arith.cmpf oeq, %0, %c : f32
  return %1 : i1
}

// ori: or(x, ~x) is the xor's all-ones constant; or(a, or(a, b)) is kept
// (only andi absorbs); or(x, -1) folds to a new constant.
// CHECK-LABEL: func.func @ori_folds(
// CHECK-NEXT: %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT: %0 = arith.ori %arg0, %arg1 : i32
// CHECK-NEXT: %1 = arith.ori %arg0, %0 : i32
// CHECK-NEXT: return %1, %c-1_i32, %c-1_i32 : i32, i32, i32
// CHECK-NEXT: }
func.func @ori_folds(%a: i32, %b: i32) -> (i32, i32, i32) {
  %m1 = arith.constant -1 : i32
  %0 = arith.ori %a, %b : i32
  %1 = arith.ori %a, %0 : i32
  %2 = arith.xori %a, %m1 : i32
  %3 = arith.ori %a, %2 : i32
  %4 = arith.ori %b, %m1 : i32
  return %1, %3, %4 : i32, i32, i32
}

// andi: and(a, and(a, b)) -> and(a, b); and(x, ~x) -> 0; and(c, c) of a
// constant folds to a new constant.
// CHECK-LABEL: func.func @andi_folds(
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = arith.andi %arg0, %arg1 : i32
// CHECK-NEXT: return %0, %c0_i32, %c3_i32 : i32, i32, i32
// CHECK-NEXT: }
func.func @andi_folds(%a: i32, %b: i32) -> (i32, i32, i32) {
  %m1 = arith.constant -1 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.andi %a, %b : i32
  %1 = arith.andi %a, %0 : i32
  %2 = arith.xori %a, %m1 : i32
  %3 = arith.andi %2, %a : i32
  %4 = arith.andi %c3, %c3 : i32
  return %1, %3, %4 : i32, i32, i32
}

// Folding on vectors: an elementwise select of constants, a result whose
// elements all equal prints as a splat, reassociation leaves vectors alone.
// CHECK-LABEL: func.func @vector_folds(
// CHECK-NEXT: %cst = arith.constant dense<[0, -1, 7, -8]> : vector<4xi32>
// CHECK-NEXT: %cst_0 = arith.constant dense<1> : vector<4xi32>
// CHECK-NEXT: %cst_1 = arith.constant dense<[0, 1, 7, 1]> : vector<4xi32>
// CHECK-NEXT: %0 = arith.addi %arg0, %cst : vector<4xi32>
// CHECK-NEXT: %1 = arith.subi %0, %cst_0 : vector<4xi32>
// CHECK-NEXT: return %cst_1, %cst_0, %1 : vector<4xi32>, vector<4xi32>, vector<4xi32>
// CHECK-NEXT: }
func.func @vector_folds(%v: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>) {
  %a = arith.constant dense<[0, -1, 7, -8]> : vector<4xi32>
  %b = arith.constant dense<1> : vector<4xi32>
  %m = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %0 = arith.select %m, %a, %b : vector<4xi1>, vector<4xi32>
  %1 = arith.subi %b, %a : vector<4xi32>
  %2 = arith.addi %1, %a : vector<4xi32>
  %3 = arith.addi %v, %a : vector<4xi32>
  %4 = arith.subi %3, %b : vector<4xi32>
  return %0, %2, %4 : vector<4xi32>, vector<4xi32>, vector<4xi32>
}
