// arith folders and patterns: cmpi of an i1 with true/false, cmpi ne of an
// extension of an i1 and zero, bitcast chains (BitcastOfBitcast), and a
// division of a product with the matching no-wrap flag by one of its
// factors. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @cmpi_i1(%arg0: i1, %arg1: vector<4xi1>) -> (i1, i1, vector<4xi1>, i1) {
// CHECK-NEXT:     %false = arith.constant false
// CHECK-NEXT:     %0 = arith.cmpi eq, %arg0, %false : i1
// CHECK-NEXT:     return %arg0, %arg0, %arg1, %0 : i1, i1, vector<4xi1>, i1
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @cmpi_ext(%arg0: i1, %arg1: vector<4xi1>, %arg2: i8) -> (i1, i1, vector<4xi1>, i1, i1) {
// CHECK-NEXT:     %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT:     %0 = arith.extsi %arg0 : i1 to i64
// CHECK-NEXT:     %1 = arith.extsi %arg2 : i8 to i64
// CHECK-NEXT:     %2 = arith.cmpi ne, %1, %c0_i64 : i64
// CHECK-NEXT:     %3 = arith.cmpi eq, %0, %c0_i64 : i64
// CHECK-NEXT:     return %arg0, %arg0, %arg1, %2, %3 : i1, i1, vector<4xi1>, i1, i1
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @bitcasts(%arg0: i16, %arg1: i32) -> (i16, f16, i32) {
// CHECK-NEXT:     %0 = arith.bitcast %arg0 : i16 to f16
// CHECK-NEXT:     return %arg0, %0, %arg1 : i16, f16, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @div_of_mul(%arg0: index, %arg1: index) -> (index, index, index, index, index, index) {
// CHECK-NEXT:     %0 = arith.muli %arg0, %arg1 overflow<nsw> : index
// CHECK-NEXT:     %1 = arith.divui %0, %arg1 : index
// CHECK-NEXT:     %2 = arith.muli %arg0, %arg1 : index
// CHECK-NEXT:     %3 = arith.divsi %2, %arg0 : index
// CHECK-NEXT:     return %arg1, %arg0, %arg0, %1, %3, %arg1 : index, index, index, index, index, index
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @cmpi_i1(%x: i1, %v: vector<4xi1>) -> (i1, i1, vector<4xi1>, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %vt = arith.constant dense<true> : vector<4xi1>
  %0 = arith.cmpi eq, %x, %true : i1
  %1 = arith.cmpi ne, %x, %false : i1
  %2 = arith.cmpi eq, %v, %vt : vector<4xi1>
  %3 = arith.cmpi eq, %x, %false : i1
  return %0, %1, %2, %3 : i1, i1, vector<4xi1>, i1
}

func.func @cmpi_ext(%x: i1, %v: vector<4xi1>, %y: i8) -> (i1, i1, vector<4xi1>, i1, i1) {
  %c0 = arith.constant 0 : i64
  %v0 = arith.constant dense<0> : vector<4xi64>
  %a = arith.extsi %x : i1 to i64
  %b = arith.extui %x : i1 to i64
  %c = arith.extsi %v : vector<4xi1> to vector<4xi64>
  %d = arith.extsi %y : i8 to i64
  %0 = arith.cmpi ne, %a, %c0 : i64
  %1 = arith.cmpi ne, %b, %c0 : i64
  %2 = arith.cmpi ne, %c, %v0 : vector<4xi64>
  %3 = arith.cmpi ne, %d, %c0 : i64
  %4 = arith.cmpi eq, %a, %c0 : i64
  return %0, %1, %2, %3, %4 : i1, i1, vector<4xi1>, i1, i1
}

func.func @bitcasts(%x: i16, %y: i32) -> (i16, f16, i32) {
  %0 = arith.bitcast %x : i16 to f16
  %1 = arith.bitcast %0 : f16 to bf16
  %2 = arith.bitcast %1 : bf16 to i16
  %3 = arith.bitcast %x : i16 to bf16
  %4 = arith.bitcast %3 : bf16 to f16
  %5 = arith.bitcast %y : i32 to f32
  %6 = arith.bitcast %5 : f32 to i32
  return %2, %4, %6 : i16, f16, i32
}

func.func @div_of_mul(%a: index, %b: index) -> (index, index, index, index, index, index) {
  %0 = arith.muli %a, %b overflow<nuw> : index
  %1 = arith.divui %0, %a : index
  %2 = arith.divui %0, %b : index
  %3 = arith.muli %a, %b overflow<nsw> : index
  %4 = arith.divsi %3, %b : index
  %5 = arith.divui %3, %b : index
  %6 = arith.muli %a, %b : index
  %7 = arith.divsi %6, %a : index
  %8 = arith.muli %a, %b overflow<nsw, nuw> : index
  %9 = arith.divsi %8, %a : index
  return %1, %2, %4, %5, %7, %9 : index, index, index, index, index, index
}
