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
// CHECK-NEXT:   func.func @switch(%arg0: i32, %arg1: i32, %arg2: f32) -> i32 {
// CHECK-NEXT:     cf.switch %arg0 : i32, [
// CHECK-NEXT:       default: ^bb1(%arg1 : i32),
// CHECK-NEXT:       42: ^bb2(%arg1, %arg2 : i32, f32),
// CHECK-NEXT:       4294967295: ^bb3
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb1(%0: i32):  {{//}} pred: ^bb0
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   ^bb2(%1: i32, %2: f32):  {{//}} pred: ^bb0
// CHECK-NEXT:     return %1 : i32
// CHECK-NEXT:   ^bb3:  {{//}} pred: ^bb0
// CHECK-NEXT:     return %arg0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @switch_bounds(%arg0: i1, %arg1: i8, %arg2: i64) {
// CHECK-NEXT:     cf.switch %arg0 : i1, [
// CHECK-NEXT:       default: ^bb1,
// CHECK-NEXT:       1: ^bb1
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb1:  {{//}} 2 preds: ^bb0, ^bb0
// CHECK-NEXT:     cf.switch %arg1 : i8, [
// CHECK-NEXT:       default: ^bb2,
// CHECK-NEXT:       128: ^bb2,
// CHECK-NEXT:       255: ^bb2,
// CHECK-NEXT:       44: ^bb2
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb2:  {{//}} 4 preds: ^bb1, ^bb1, ^bb1, ^bb1
// CHECK-NEXT:     cf.switch %arg2 : i64, [
// CHECK-NEXT:       default: ^bb3,
// CHECK-NEXT:       9223372036854775807: ^bb3,
// CHECK-NEXT:       7: ^bb3
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb3:  {{//}} 3 preds: ^bb2, ^bb2, ^bb2
// CHECK-NEXT:     cf.switch %arg2 : i64, [
// CHECK-NEXT:       default: ^bb4]
// CHECK-NEXT:   ^bb4:  {{//}} pred: ^bb3
// CHECK-NEXT:     return
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

func.func @switch(%flag: i32, %a: i32, %b: f32) -> i32 {
  cf.switch %flag : i32, [
    default: ^bb1(%a : i32),
    42: ^bb2(%a, %b : i32, f32),
    -1: ^bb3
  ]
^bb1(%x: i32):
  return %x : i32
^bb2(%y: i32, %z: f32):
  return %y : i32
^bb3:
  return %flag : i32
}

func.func @switch_bounds(%f1: i1, %f8: i8, %f64: i64) {
  cf.switch %f1 : i1, [default: ^bb1, 1: ^bb1]
^bb1:
  cf.switch %f8 : i8, [default: ^bb2, -128: ^bb2, 255: ^bb2, 300: ^bb2]
^bb2:
  cf.switch %f64 : i64, [default: ^bb3, 9223372036854775807: ^bb3, 7: ^bb3]
^bb3:
  cf.switch %f64 : i64, [default: ^bb4]
^bb4:
  return
}
