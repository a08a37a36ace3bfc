// Cases where strata-opt --cse does not yet match mlir-opt 22 (not a lit
// test: Inputs/ is excluded). Move a case back to ../cse.mlir when it matches.

// Swapped operands of a commutative op are the same expression.
// CHECK-LABEL: func.func @commuted(
// CHECK-SAME:  %arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:  %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:  return %0, %0 : i32, i32
// CHECK-NEXT:  }
func.func @commuted(%x: i32, %y: i32) -> (i32, i32) {
  %0 = arith.addi %x, %y : i32
  %1 = arith.addi %y, %x : i32
  return %0, %1 : i32, i32
}

// Identical scf.if ops (pure, with identical regions) are merged.
// CHECK-LABEL: func.func @identical_ifs(
// CHECK-SAME:  %arg0: i1, %arg1: i32, %arg2: i32) -> (i32, i32) {
// CHECK-NEXT:  %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:  scf.yield %arg1 : i32
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %arg2 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  return %0, %0 : i32, i32
// CHECK-NEXT:  }
func.func @identical_ifs(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %y : i32
  }
  %1 = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %y : i32
  }
  return %0, %1 : i32, i32
}
