// Cases where strata-opt --canonicalize does not yet match mlir-opt 22 (not a lit
// test: Inputs/ is excluded). Move a case back to ../canonicalize.mlir when it matches.

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
