// Round trip of the cf dialect's custom assembly: the CHECK lines are
// exactly what mlir-opt prints for the functions below, in the pretty form,
// after a second pass, and after going through the generic form. (The
// differential test also runs this file through upstream's
// canonicalize,cse inside strata-opt, against mlir-opt's.)
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @select(%arg0: i32, %arg1: i32, %arg2: i1) -> i32 {
// CHECK-NEXT:     cf.cond_br %arg2, ^bb1(%arg0 : i32), ^bb1(%arg1 : i32)
// CHECK-NEXT:   ^bb1(%0: i32):  {{//}} 2 preds: ^bb0, ^bb0
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @loop(%arg0: index) -> index {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     cf.br ^bb1(%c0 : index)
// CHECK-NEXT:   ^bb1(%0: index):  {{//}} 2 preds: ^bb0, ^bb2
// CHECK-NEXT:     %1 = arith.cmpi sge, %0, %arg0 : index
// CHECK-NEXT:     cf.cond_br %1 weights([1, 99]), ^bb3, ^bb2
// CHECK-NEXT:   ^bb2:  {{//}} pred: ^bb1
// CHECK-NEXT:     %2 = arith.addi %0, %c1 : index
// CHECK-NEXT:     cf.br ^bb1(%2 : index)
// CHECK-NEXT:   ^bb3:  {{//}} pred: ^bb1
// CHECK-NEXT:     cf.assert %1, "the loop ended early"
// CHECK-NEXT:     return %0 : index
// CHECK-NEXT:   }
// CHECK-NEXT: }

func.func @select(%a: i32, %b: i32, %flag: i1) -> i32 {
  cf.cond_br %flag, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%x : i32):
  return %x : i32
}

func.func @loop(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^head(%c0 : index)
^head(%i: index):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done weights([1, 99]), ^exit, ^body
^body:
  %next = arith.addi %i, %c1 : index
  cf.br ^head(%next : index)
^exit:
  cf.assert %done, "the loop ended early"
  return %i : index
}
