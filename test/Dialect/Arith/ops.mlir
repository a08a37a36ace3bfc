// Round trip of the arith dialect's custom assembly: the body below is exactly
// what mlir-opt prints for it (comments aside), in the pretty form, after a
// second pass, and after going through the generic form.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace

// CHECK: module {
module {
  // Constants name their results: %c<value>_<type> for integers (%c<value> for
  // index), %true/%false for i1, %cst for everything else; duplicates get _N.
  // CHECK-LABEL: func.func @constants(
  // CHECK-SAME: ) -> (i32, i1, index, f32, f64, vector<4xi32>, tensor<2x2xf32>) {
  // CHECK-NEXT: %c42_i32 = arith.constant 42 : i32
  // CHECK-NEXT: %true = arith.constant true
  // CHECK-NEXT: %c7 = arith.constant 7 : index
  // CHECK-NEXT: %cst = arith.constant 1.500000e+00 : f32
  // CHECK-NEXT: %cst_0 = arith.constant -2.500000e-01 : f64
  // CHECK-NEXT: %cst_1 = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  // CHECK-NEXT: %cst_2 = arith.constant dense<1.000000e+00> : tensor<2x2xf32>
  // CHECK-NEXT: return %c42_i32, %true, %c7, %cst, %cst_0, %cst_1, %cst_2 : i32, i1, index, f32, f64, vector<4xi32>, tensor<2x2xf32>
  // CHECK-NEXT: }
  func.func @constants() -> (i32, i1, index, f32, f64, vector<4xi32>, tensor<2x2xf32>) {
    %c42_i32 = arith.constant 42 : i32
    %true = arith.constant true
    %c7 = arith.constant 7 : index
    %cst = arith.constant 1.500000e+00 : f32
    %cst_0 = arith.constant -2.500000e-01 : f64
    %cst_1 = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
    %cst_2 = arith.constant dense<1.000000e+00> : tensor<2x2xf32>
    return %c42_i32, %true, %c7, %cst, %cst_0, %cst_1, %cst_2 : i32, i1, index, f32, f64, vector<4xi32>, tensor<2x2xf32>
  }

  // Negative values in names, i1 written as an integer, float printing forms
  // (%e, hex for NaN/inf), negative zero, nested dense elements. The _N suffix
  // counter is shared by all names in the function: %c-1_i8_0, then %cst_1.
  // CHECK-LABEL: func.func @constant_forms(
  // CHECK-SAME: ) -> (i8, i8, i1, i1, vector<2xi1>, f32, f64, f32, f32, f16, tensor<2x2xi64>) {
  // CHECK-NEXT: %c-1_i8 = arith.constant -1 : i8
  // CHECK-NEXT: %c-1_i8_0 = arith.constant -1 : i8
  // CHECK-NEXT: %false = arith.constant false
  // CHECK-NEXT: %true = arith.constant true
  // CHECK-NEXT: %cst = arith.constant dense<[true, false]> : vector<2xi1>
  // CHECK-NEXT: %cst_1 = arith.constant 1.000000e-01 : f32
  // CHECK-NEXT: %cst_2 = arith.constant 1.000000e+10 : f64
  // CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
  // CHECK-NEXT: %cst_4 = arith.constant 0x7F800000 : f32
  // CHECK-NEXT: %cst_5 = arith.constant -0.000000e+00 : f16
  // CHECK-NEXT: %cst_6 = arith.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi64>
  // CHECK-NEXT: return %c-1_i8, %c-1_i8_0, %false, %true, %cst, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5, %cst_6 : i8, i8, i1, i1, vector<2xi1>, f32, f64, f32, f32, f16, tensor<2x2xi64>
  // CHECK-NEXT: }
  func.func @constant_forms() -> (i8, i8, i1, i1, vector<2xi1>, f32, f64, f32, f32, f16, tensor<2x2xi64>) {
    %c-1_i8 = arith.constant -1 : i8
    %c-1_i8_0 = arith.constant -1 : i8
    %false = arith.constant false
    %true = arith.constant true
    %cst = arith.constant dense<[true, false]> : vector<2xi1>
    %cst_1 = arith.constant 1.000000e-01 : f32
    %cst_2 = arith.constant 1.000000e+10 : f64
    %cst_3 = arith.constant 0x7FC00000 : f32
    %cst_4 = arith.constant 0x7F800000 : f32
    %cst_5 = arith.constant -0.000000e+00 : f16
    %cst_6 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    return %c-1_i8, %c-1_i8_0, %false, %true, %cst, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5, %cst_6 : i8, i8, i1, i1, vector<2xi1>, f32, f64, f32, f32, f16, tensor<2x2xi64>
  }

  // Integer binary ops on scalars.
  // CHECK-LABEL: func.func @int_binary(
  // CHECK-SAME: %arg0: i32, %arg1: i32) -> i32 {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg1 : i32
  // CHECK-NEXT: %1 = arith.subi %0, %arg1 : i32
  // CHECK-NEXT: %2 = arith.muli %1, %arg0 : i32
  // CHECK-NEXT: %3 = arith.divsi %2, %arg1 : i32
  // CHECK-NEXT: %4 = arith.divui %3, %arg1 : i32
  // CHECK-NEXT: %5 = arith.ceildivsi %4, %arg1 : i32
  // CHECK-NEXT: %6 = arith.floordivsi %5, %arg1 : i32
  // CHECK-NEXT: %7 = arith.remsi %6, %arg1 : i32
  // CHECK-NEXT: %8 = arith.remui %7, %arg1 : i32
  // CHECK-NEXT: %9 = arith.maxsi %8, %arg1 : i32
  // CHECK-NEXT: %10 = arith.maxui %9, %arg1 : i32
  // CHECK-NEXT: %11 = arith.minsi %10, %arg1 : i32
  // CHECK-NEXT: %12 = arith.minui %11, %arg1 : i32
  // CHECK-NEXT: %13 = arith.andi %12, %arg1 : i32
  // CHECK-NEXT: %14 = arith.ori %13, %arg1 : i32
  // CHECK-NEXT: %15 = arith.xori %14, %arg1 : i32
  // CHECK-NEXT: %16 = arith.shli %15, %arg1 : i32
  // CHECK-NEXT: %17 = arith.shrsi %16, %arg1 : i32
  // CHECK-NEXT: %18 = arith.shrui %17, %arg1 : i32
  // CHECK-NEXT: return %18 : i32
  // CHECK-NEXT: }
  func.func @int_binary(%arg0: i32, %arg1: i32) -> i32 {
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = arith.subi %0, %arg1 : i32
    %2 = arith.muli %1, %arg0 : i32
    %3 = arith.divsi %2, %arg1 : i32
    %4 = arith.divui %3, %arg1 : i32
    %5 = arith.ceildivsi %4, %arg1 : i32
    %6 = arith.floordivsi %5, %arg1 : i32
    %7 = arith.remsi %6, %arg1 : i32
    %8 = arith.remui %7, %arg1 : i32
    %9 = arith.maxsi %8, %arg1 : i32
    %10 = arith.maxui %9, %arg1 : i32
    %11 = arith.minsi %10, %arg1 : i32
    %12 = arith.minui %11, %arg1 : i32
    %13 = arith.andi %12, %arg1 : i32
    %14 = arith.ori %13, %arg1 : i32
    %15 = arith.xori %14, %arg1 : i32
    %16 = arith.shli %15, %arg1 : i32
    %17 = arith.shrsi %16, %arg1 : i32
    %18 = arith.shrui %17, %arg1 : i32
    return %18 : i32
  }

  // Overflow flags on addi, subi, muli, shli; overflow<none> is not printed.
  // CHECK-LABEL: func.func @overflow_flags(
  // CHECK-SAME: %arg0: i64, %arg1: i64) -> i64 {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg1 overflow<nsw> : i64
  // CHECK-NEXT: %1 = arith.subi %0, %arg1 overflow<nuw> : i64
  // CHECK-NEXT: %2 = arith.muli %1, %arg1 overflow<nsw, nuw> : i64
  // CHECK-NEXT: %3 = arith.shli %2, %arg1 overflow<nsw> : i64
  // CHECK-NEXT: %4 = arith.addi %3, %arg1 : i64
  // CHECK-NEXT: return %4 : i64
  // CHECK-NEXT: }
  func.func @overflow_flags(%arg0: i64, %arg1: i64) -> i64 {
    %0 = arith.addi %arg0, %arg1 overflow<nsw> : i64
    %1 = arith.subi %0, %arg1 overflow<nuw> : i64
    %2 = arith.muli %1, %arg1 overflow<nsw, nuw> : i64
    %3 = arith.shli %2, %arg1 overflow<nsw> : i64
    %4 = arith.addi %3, %arg1 : i64
    return %4 : i64
  }

  // CHECK-LABEL: func.func @index_ops(
  // CHECK-SAME: %arg0: index, %arg1: index) -> index {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg1 : index
  // CHECK-NEXT: %1 = arith.muli %0, %arg1 : index
  // CHECK-NEXT: %2 = arith.floordivsi %1, %arg1 : index
  // CHECK-NEXT: return %2 : index
  // CHECK-NEXT: }
  func.func @index_ops(%arg0: index, %arg1: index) -> index {
    %0 = arith.addi %arg0, %arg1 : index
    %1 = arith.muli %0, %arg1 : index
    %2 = arith.floordivsi %1, %arg1 : index
    return %2 : index
  }

  // CHECK-LABEL: func.func @float_binary(
  // CHECK-SAME: %arg0: f32, %arg1: f32) -> f32 {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32
  // CHECK-NEXT: %1 = arith.subf %0, %arg1 : f32
  // CHECK-NEXT: %2 = arith.mulf %1, %arg1 : f32
  // CHECK-NEXT: %3 = arith.divf %2, %arg1 : f32
  // CHECK-NEXT: %4 = arith.remf %3, %arg1 : f32
  // CHECK-NEXT: %5 = arith.maxnumf %4, %arg1 : f32
  // CHECK-NEXT: %6 = arith.minnumf %5, %arg1 : f32
  // CHECK-NEXT: %7 = arith.maximumf %6, %arg1 : f32
  // CHECK-NEXT: %8 = arith.minimumf %7, %arg1 : f32
  // CHECK-NEXT: %9 = arith.negf %8 : f32
  // CHECK-NEXT: return %9 : f32
  // CHECK-NEXT: }
  func.func @float_binary(%arg0: f32, %arg1: f32) -> f32 {
    %0 = arith.addf %arg0, %arg1 : f32
    %1 = arith.subf %0, %arg1 : f32
    %2 = arith.mulf %1, %arg1 : f32
    %3 = arith.divf %2, %arg1 : f32
    %4 = arith.remf %3, %arg1 : f32
    %5 = arith.maxnumf %4, %arg1 : f32
    %6 = arith.minnumf %5, %arg1 : f32
    %7 = arith.maximumf %6, %arg1 : f32
    %8 = arith.minimumf %7, %arg1 : f32
    %9 = arith.negf %8 : f32
    return %9 : f32
  }

  // Fast-math flags print without spaces (fastmath<nnan,ninf>), all seven
  // together as fastmath<fast>; fastmath<none> is not printed.
  // CHECK-LABEL: func.func @fastmath(
  // CHECK-SAME: %arg0: f64, %arg1: f64) -> f64 {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg1 fastmath<fast> : f64
  // CHECK-NEXT: %1 = arith.subf %0, %arg1 fastmath<nnan,ninf> : f64
  // CHECK-NEXT: %2 = arith.mulf %1, %arg1 fastmath<reassoc,contract> : f64
  // CHECK-NEXT: %3 = arith.divf %2, %arg1 fastmath<arcp> : f64
  // CHECK-NEXT: %4 = arith.negf %3 fastmath<nsz> : f64
  // CHECK-NEXT: %5 = arith.maximumf %4, %arg1 fastmath<afn> : f64
  // CHECK-NEXT: %6 = arith.addf %5, %arg1 : f64
  // CHECK-NEXT: %7 = arith.remf %6, %arg1 fastmath<fast> : f64
  // CHECK-NEXT: return %7 : f64
  // CHECK-NEXT: }
  func.func @fastmath(%arg0: f64, %arg1: f64) -> f64 {
    %0 = arith.addf %arg0, %arg1 fastmath<fast> : f64
    %1 = arith.subf %0, %arg1 fastmath<nnan,ninf> : f64
    %2 = arith.mulf %1, %arg1 fastmath<reassoc,contract> : f64
    %3 = arith.divf %2, %arg1 fastmath<arcp> : f64
    %4 = arith.negf %3 fastmath<nsz> : f64
    %5 = arith.maximumf %4, %arg1 fastmath<afn> : f64
    %6 = arith.addf %5, %arg1 : f64
    %7 = arith.remf %6, %arg1 fastmath<fast> : f64
    return %7 : f64
  }

  // Every cmpi predicate.
  // CHECK-LABEL: func.func @cmpi(
  // CHECK-SAME: %arg0: i32, %arg1: i32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  // CHECK-NEXT: %0 = arith.cmpi eq, %arg0, %arg1 : i32
  // CHECK-NEXT: %1 = arith.cmpi ne, %arg0, %arg1 : i32
  // CHECK-NEXT: %2 = arith.cmpi slt, %arg0, %arg1 : i32
  // CHECK-NEXT: %3 = arith.cmpi sle, %arg0, %arg1 : i32
  // CHECK-NEXT: %4 = arith.cmpi sgt, %arg0, %arg1 : i32
  // CHECK-NEXT: %5 = arith.cmpi sge, %arg0, %arg1 : i32
  // CHECK-NEXT: %6 = arith.cmpi ult, %arg0, %arg1 : i32
  // CHECK-NEXT: %7 = arith.cmpi ule, %arg0, %arg1 : i32
  // CHECK-NEXT: %8 = arith.cmpi ugt, %arg0, %arg1 : i32
  // CHECK-NEXT: %9 = arith.cmpi uge, %arg0, %arg1 : i32
  // CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
  // CHECK-NEXT: }
  func.func @cmpi(%arg0: i32, %arg1: i32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
    %0 = arith.cmpi eq, %arg0, %arg1 : i32
    %1 = arith.cmpi ne, %arg0, %arg1 : i32
    %2 = arith.cmpi slt, %arg0, %arg1 : i32
    %3 = arith.cmpi sle, %arg0, %arg1 : i32
    %4 = arith.cmpi sgt, %arg0, %arg1 : i32
    %5 = arith.cmpi sge, %arg0, %arg1 : i32
    %6 = arith.cmpi ult, %arg0, %arg1 : i32
    %7 = arith.cmpi ule, %arg0, %arg1 : i32
    %8 = arith.cmpi ugt, %arg0, %arg1 : i32
    %9 = arith.cmpi uge, %arg0, %arg1 : i32
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
  }

  // Every cmpf predicate; cmpf takes fastmath flags.
  // CHECK-LABEL: func.func @cmpf(
  // CHECK-SAME: %arg0: f32, %arg1: f32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  // CHECK-NEXT: %0 = arith.cmpf false, %arg0, %arg1 : f32
  // CHECK-NEXT: %1 = arith.cmpf oeq, %arg0, %arg1 : f32
  // CHECK-NEXT: %2 = arith.cmpf ogt, %arg0, %arg1 : f32
  // CHECK-NEXT: %3 = arith.cmpf oge, %arg0, %arg1 : f32
  // CHECK-NEXT: %4 = arith.cmpf olt, %arg0, %arg1 : f32
  // CHECK-NEXT: %5 = arith.cmpf ole, %arg0, %arg1 : f32
  // CHECK-NEXT: %6 = arith.cmpf one, %arg0, %arg1 : f32
  // CHECK-NEXT: %7 = arith.cmpf ord, %arg0, %arg1 : f32
  // CHECK-NEXT: %8 = arith.cmpf ueq, %arg0, %arg1 : f32
  // CHECK-NEXT: %9 = arith.cmpf ugt, %arg0, %arg1 : f32
  // CHECK-NEXT: %10 = arith.cmpf uge, %arg0, %arg1 : f32
  // CHECK-NEXT: %11 = arith.cmpf ult, %arg0, %arg1 : f32
  // CHECK-NEXT: %12 = arith.cmpf ule, %arg0, %arg1 : f32
  // CHECK-NEXT: %13 = arith.cmpf une, %arg0, %arg1 : f32
  // CHECK-NEXT: %14 = arith.cmpf uno, %arg0, %arg1 : f32
  // CHECK-NEXT: %15 = arith.cmpf true, %arg0, %arg1 fastmath<nnan> : f32
  // CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
  // CHECK-NEXT: }
  func.func @cmpf(%arg0: f32, %arg1: f32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
    %0 = arith.cmpf false, %arg0, %arg1 : f32
    %1 = arith.cmpf oeq, %arg0, %arg1 : f32
    %2 = arith.cmpf ogt, %arg0, %arg1 : f32
    %3 = arith.cmpf oge, %arg0, %arg1 : f32
    %4 = arith.cmpf olt, %arg0, %arg1 : f32
    %5 = arith.cmpf ole, %arg0, %arg1 : f32
    %6 = arith.cmpf one, %arg0, %arg1 : f32
    %7 = arith.cmpf ord, %arg0, %arg1 : f32
    %8 = arith.cmpf ueq, %arg0, %arg1 : f32
    %9 = arith.cmpf ugt, %arg0, %arg1 : f32
    %10 = arith.cmpf uge, %arg0, %arg1 : f32
    %11 = arith.cmpf ult, %arg0, %arg1 : f32
    %12 = arith.cmpf ule, %arg0, %arg1 : f32
    %13 = arith.cmpf une, %arg0, %arg1 : f32
    %14 = arith.cmpf uno, %arg0, %arg1 : f32
    %15 = arith.cmpf true, %arg0, %arg1 fastmath<nnan> : f32
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
  }

  // Comparisons on vectors and tensors give i1 shaped like the operands.
  // CHECK-LABEL: func.func @cmp_shaped(
  // CHECK-SAME: %arg0: vector<4xi32>, %arg1: vector<4xi32>, %arg2: tensor<2x3xf32>, %arg3: tensor<2x3xf32>) -> (vector<4xi1>, tensor<2x3xi1>) {
  // CHECK-NEXT: %0 = arith.cmpi slt, %arg0, %arg1 : vector<4xi32>
  // CHECK-NEXT: %1 = arith.cmpf olt, %arg2, %arg3 : tensor<2x3xf32>
  // CHECK-NEXT: return %0, %1 : vector<4xi1>, tensor<2x3xi1>
  // CHECK-NEXT: }
  func.func @cmp_shaped(%arg0: vector<4xi32>, %arg1: vector<4xi32>, %arg2: tensor<2x3xf32>, %arg3: tensor<2x3xf32>) -> (vector<4xi1>, tensor<2x3xi1>) {
    %0 = arith.cmpi slt, %arg0, %arg1 : vector<4xi32>
    %1 = arith.cmpf olt, %arg2, %arg3 : tensor<2x3xf32>
    return %0, %1 : vector<4xi1>, tensor<2x3xi1>
  }

  // select prints the condition type only when it is not i1.
  // CHECK-LABEL: func.func @select(
  // CHECK-SAME: %arg0: i1, %arg1: i32, %arg2: i32, %arg3: vector<4xi1>, %arg4: vector<4xf32>, %arg5: vector<4xf32>, %arg6: tensor<8xi1>, %arg7: tensor<8xi64>, %arg8: tensor<8xi64>) -> (i32, vector<4xf32>, vector<4xf32>, tensor<8xi64>) {
  // CHECK-NEXT: %0 = arith.select %arg0, %arg1, %arg2 : i32
  // CHECK-NEXT: %1 = arith.select %arg3, %arg4, %arg5 : vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: %2 = arith.select %arg0, %arg4, %arg5 : vector<4xf32>
  // CHECK-NEXT: %3 = arith.select %arg6, %arg7, %arg8 : tensor<8xi1>, tensor<8xi64>
  // CHECK-NEXT: return %0, %1, %2, %3 : i32, vector<4xf32>, vector<4xf32>, tensor<8xi64>
  // CHECK-NEXT: }
  func.func @select(%arg0: i1, %arg1: i32, %arg2: i32, %arg3: vector<4xi1>, %arg4: vector<4xf32>, %arg5: vector<4xf32>, %arg6: tensor<8xi1>, %arg7: tensor<8xi64>, %arg8: tensor<8xi64>) -> (i32, vector<4xf32>, vector<4xf32>, tensor<8xi64>) {
    %0 = arith.select %arg0, %arg1, %arg2 : i32
    %1 = arith.select %arg3, %arg4, %arg5 : vector<4xi1>, vector<4xf32>
    %2 = arith.select %arg0, %arg4, %arg5 : vector<4xf32>
    %3 = arith.select %arg6, %arg7, %arg8 : tensor<8xi1>, tensor<8xi64>
    return %0, %1, %2, %3 : i32, vector<4xf32>, vector<4xf32>, tensor<8xi64>
  }

  // CHECK-LABEL: func.func @casts(
  // CHECK-SAME: %arg0: i8, %arg1: i32, %arg2: i64, %arg3: f16, %arg4: f32, %arg5: f64, %arg6: index) -> (i32, i32, i8, f64, f16, f32, f32, i32, i32, index, index, i64, i64, f32, i32) {
  // CHECK-NEXT: %0 = arith.extsi %arg0 : i8 to i32
  // CHECK-NEXT: %1 = arith.extui %arg0 : i8 to i32
  // CHECK-NEXT: %2 = arith.trunci %arg1 : i32 to i8
  // CHECK-NEXT: %3 = arith.extf %arg4 : f32 to f64
  // CHECK-NEXT: %4 = arith.truncf %arg4 : f32 to f16
  // CHECK-NEXT: %5 = arith.sitofp %arg1 : i32 to f32
  // CHECK-NEXT: %6 = arith.uitofp %arg2 : i64 to f32
  // CHECK-NEXT: %7 = arith.fptosi %arg5 : f64 to i32
  // CHECK-NEXT: %8 = arith.fptoui %arg3 : f16 to i32
  // CHECK-NEXT: %9 = arith.index_cast %arg1 : i32 to index
  // CHECK-NEXT: %10 = arith.index_castui %arg2 : i64 to index
  // CHECK-NEXT: %11 = arith.index_cast %arg6 : index to i64
  // CHECK-NEXT: %12 = arith.index_castui %arg6 : index to i64
  // CHECK-NEXT: %13 = arith.bitcast %arg1 : i32 to f32
  // CHECK-NEXT: %14 = arith.bitcast %arg4 : f32 to i32
  // CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14 : i32, i32, i8, f64, f16, f32, f32, i32, i32, index, index, i64, i64, f32, i32
  // CHECK-NEXT: }
  func.func @casts(%arg0: i8, %arg1: i32, %arg2: i64, %arg3: f16, %arg4: f32, %arg5: f64, %arg6: index) -> (i32, i32, i8, f64, f16, f32, f32, i32, i32, index, index, i64, i64, f32, i32) {
    %0 = arith.extsi %arg0 : i8 to i32
    %1 = arith.extui %arg0 : i8 to i32
    %2 = arith.trunci %arg1 : i32 to i8
    %3 = arith.extf %arg4 : f32 to f64
    %4 = arith.truncf %arg4 : f32 to f16
    %5 = arith.sitofp %arg1 : i32 to f32
    %6 = arith.uitofp %arg2 : i64 to f32
    %7 = arith.fptosi %arg5 : f64 to i32
    %8 = arith.fptoui %arg3 : f16 to i32
    %9 = arith.index_cast %arg1 : i32 to index
    %10 = arith.index_castui %arg2 : i64 to index
    %11 = arith.index_cast %arg6 : index to i64
    %12 = arith.index_castui %arg6 : index to i64
    %13 = arith.bitcast %arg1 : i32 to f32
    %14 = arith.bitcast %arg4 : f32 to i32
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14 : i32, i32, i8, f64, f16, f32, f32, i32, i32, index, index, i64, i64, f32, i32
  }

  // Cast flags: fastmath on extf/truncf, the rounding mode keyword on truncf
  // (before fastmath), overflow flags on trunci.
  // CHECK-LABEL: func.func @cast_flags(
  // CHECK-SAME: %arg0: f32, %arg1: f16, %arg2: i32) -> (f16, f32, f16, bf16, bf16, bf16, bf16, i8, i8) {
  // CHECK-NEXT: %0 = arith.truncf %arg0 fastmath<contract> : f32 to f16
  // CHECK-NEXT: %1 = arith.extf %arg1 fastmath<fast> : f16 to f32
  // CHECK-NEXT: %2 = arith.truncf %arg0 to_nearest_even fastmath<contract> : f32 to f16
  // CHECK-NEXT: %3 = arith.truncf %arg0 downward : f32 to bf16
  // CHECK-NEXT: %4 = arith.truncf %arg0 upward : f32 to bf16
  // CHECK-NEXT: %5 = arith.truncf %arg0 toward_zero : f32 to bf16
  // CHECK-NEXT: %6 = arith.truncf %arg0 to_nearest_away : f32 to bf16
  // CHECK-NEXT: %7 = arith.trunci %arg2 overflow<nsw> : i32 to i8
  // CHECK-NEXT: %8 = arith.trunci %arg2 overflow<nsw, nuw> : i32 to i8
  // CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f16, f32, f16, bf16, bf16, bf16, bf16, i8, i8
  // CHECK-NEXT: }
  func.func @cast_flags(%arg0: f32, %arg1: f16, %arg2: i32) -> (f16, f32, f16, bf16, bf16, bf16, bf16, i8, i8) {
    %0 = arith.truncf %arg0 fastmath<contract> : f32 to f16
    %1 = arith.extf %arg1 fastmath<fast> : f16 to f32
    %2 = arith.truncf %arg0 to_nearest_even fastmath<contract> : f32 to f16
    %3 = arith.truncf %arg0 downward : f32 to bf16
    %4 = arith.truncf %arg0 upward : f32 to bf16
    %5 = arith.truncf %arg0 toward_zero : f32 to bf16
    %6 = arith.truncf %arg0 to_nearest_away : f32 to bf16
    %7 = arith.trunci %arg2 overflow<nsw> : i32 to i8
    %8 = arith.trunci %arg2 overflow<nsw, nuw> : i32 to i8
    return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f16, f32, f16, bf16, bf16, bf16, bf16, i8, i8
  }

  // CHECK-LABEL: func.func @shaped_casts(
  // CHECK-SAME: %arg0: vector<4xi16>, %arg1: tensor<2x?xf32>, %arg2: vector<4xindex>) -> (vector<4xi64>, tensor<2x?xf64>, vector<4xi32>, vector<4xf16>, tensor<2x?xi32>) {
  // CHECK-NEXT: %0 = arith.extsi %arg0 : vector<4xi16> to vector<4xi64>
  // CHECK-NEXT: %1 = arith.extf %arg1 : tensor<2x?xf32> to tensor<2x?xf64>
  // CHECK-NEXT: %2 = arith.index_cast %arg2 : vector<4xindex> to vector<4xi32>
  // CHECK-NEXT: %3 = arith.bitcast %arg0 : vector<4xi16> to vector<4xf16>
  // CHECK-NEXT: %4 = arith.fptosi %arg1 : tensor<2x?xf32> to tensor<2x?xi32>
  // CHECK-NEXT: return %0, %1, %2, %3, %4 : vector<4xi64>, tensor<2x?xf64>, vector<4xi32>, vector<4xf16>, tensor<2x?xi32>
  // CHECK-NEXT: }
  func.func @shaped_casts(%arg0: vector<4xi16>, %arg1: tensor<2x?xf32>, %arg2: vector<4xindex>) -> (vector<4xi64>, tensor<2x?xf64>, vector<4xi32>, vector<4xf16>, tensor<2x?xi32>) {
    %0 = arith.extsi %arg0 : vector<4xi16> to vector<4xi64>
    %1 = arith.extf %arg1 : tensor<2x?xf32> to tensor<2x?xf64>
    %2 = arith.index_cast %arg2 : vector<4xindex> to vector<4xi32>
    %3 = arith.bitcast %arg0 : vector<4xi16> to vector<4xf16>
    %4 = arith.fptosi %arg1 : tensor<2x?xf32> to tensor<2x?xi32>
    return %0, %1, %2, %3, %4 : vector<4xi64>, tensor<2x?xf64>, vector<4xi32>, vector<4xf16>, tensor<2x?xi32>
  }

  // CHECK-LABEL: func.func @vector_ops(
  // CHECK-SAME: %arg0: vector<4xi32>, %arg1: vector<4xi32>, %arg2: vector<2x4xf32>, %arg3: vector<2x4xf32>) -> (vector<4xi32>, vector<2x4xf32>) {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg1 : vector<4xi32>
  // CHECK-NEXT: %1 = arith.shrui %0, %arg1 : vector<4xi32>
  // CHECK-NEXT: %2 = arith.maxsi %1, %arg0 : vector<4xi32>
  // CHECK-NEXT: %3 = arith.mulf %arg2, %arg3 fastmath<fast> : vector<2x4xf32>
  // CHECK-NEXT: %4 = arith.minimumf %3, %arg3 : vector<2x4xf32>
  // CHECK-NEXT: return %2, %4 : vector<4xi32>, vector<2x4xf32>
  // CHECK-NEXT: }
  func.func @vector_ops(%arg0: vector<4xi32>, %arg1: vector<4xi32>, %arg2: vector<2x4xf32>, %arg3: vector<2x4xf32>) -> (vector<4xi32>, vector<2x4xf32>) {
    %0 = arith.addi %arg0, %arg1 : vector<4xi32>
    %1 = arith.shrui %0, %arg1 : vector<4xi32>
    %2 = arith.maxsi %1, %arg0 : vector<4xi32>
    %3 = arith.mulf %arg2, %arg3 fastmath<fast> : vector<2x4xf32>
    %4 = arith.minimumf %3, %arg3 : vector<2x4xf32>
    return %2, %4 : vector<4xi32>, vector<2x4xf32>
  }

  // CHECK-LABEL: func.func @scalable_vector(
  // CHECK-SAME: %arg0: vector<[4]xf32>, %arg1: vector<[4]xf32>) -> vector<[4]xf32> {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : vector<[4]xf32>
  // CHECK-NEXT: return %0 : vector<[4]xf32>
  // CHECK-NEXT: }
  func.func @scalable_vector(%arg0: vector<[4]xf32>, %arg1: vector<[4]xf32>) -> vector<[4]xf32> {
    %0 = arith.addf %arg0, %arg1 : vector<[4]xf32>
    return %0 : vector<[4]xf32>
  }

  // CHECK-LABEL: func.func @tensor_ops(
  // CHECK-SAME: %arg0: tensor<4x?xi32>, %arg1: tensor<4x?xi32>, %arg2: tensor<*xf32>, %arg3: tensor<*xf32>) -> (tensor<4x?xi32>, tensor<*xf32>) {
  // CHECK-NEXT: %0 = arith.muli %arg0, %arg1 overflow<nuw> : tensor<4x?xi32>
  // CHECK-NEXT: %1 = arith.xori %0, %arg1 : tensor<4x?xi32>
  // CHECK-NEXT: %2 = arith.divf %arg2, %arg3 : tensor<*xf32>
  // CHECK-NEXT: return %1, %2 : tensor<4x?xi32>, tensor<*xf32>
  // CHECK-NEXT: }
  func.func @tensor_ops(%arg0: tensor<4x?xi32>, %arg1: tensor<4x?xi32>, %arg2: tensor<*xf32>, %arg3: tensor<*xf32>) -> (tensor<4x?xi32>, tensor<*xf32>) {
    %0 = arith.muli %arg0, %arg1 overflow<nuw> : tensor<4x?xi32>
    %1 = arith.xori %0, %arg1 : tensor<4x?xi32>
    %2 = arith.divf %arg2, %arg3 : tensor<*xf32>
    return %1, %2 : tensor<4x?xi32>, tensor<*xf32>
  }

  // i1 logic.
  // CHECK-LABEL: func.func @bool_ops(
  // CHECK-SAME: %arg0: i1, %arg1: i1) -> i1 {
  // CHECK-NEXT: %0 = arith.andi %arg0, %arg1 : i1
  // CHECK-NEXT: %1 = arith.ori %0, %arg1 : i1
  // CHECK-NEXT: %2 = arith.xori %1, %arg0 : i1
  // CHECK-NEXT: return %2 : i1
  // CHECK-NEXT: }
  func.func @bool_ops(%arg0: i1, %arg1: i1) -> i1 {
    %0 = arith.andi %arg0, %arg1 : i1
    %1 = arith.ori %0, %arg1 : i1
    %2 = arith.xori %1, %arg0 : i1
    return %2 : i1
  }
}
