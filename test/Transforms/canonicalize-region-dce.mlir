// --canonicalize's region simplification erases dead code (MLIR's
// runRegionDCE): ops without effects whose results nothing live uses, and
// the arguments of non-entry blocks nothing live uses, with the operands
// cf.br, cf.cond_br and cf.switch pass them, also around loops. The CHECK
// lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @loop(%arg0: i32, %arg1: f32) -> i32 {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     cf.br ^bb1(%c0_i32 : i32)
// CHECK-NEXT:   ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:     %1 = arith.addi %0, %c1_i32 : i32
// CHECK-NEXT:     %2 = arith.cmpi sge, %1, %arg0 : i32
// CHECK-NEXT:     cf.cond_br %2, ^bb2, ^bb1(%1 : i32)
// CHECK-NEXT:   ^bb2:  // pred: ^bb1
// CHECK-NEXT:     return %1 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @branches(%arg0: i1, %arg1: i32, %arg2: f32) {
// CHECK-NEXT:     %0 = math.exp %arg2 : f32
// CHECK-NEXT:     cf.cond_br %arg0, ^bb1(%0 : f32), ^bb2
// CHECK-NEXT:   ^bb1(%1: f32):  // pred: ^bb0
// CHECK-NEXT:     cf.switch %arg1 : i32, [
// CHECK-NEXT:       default: ^bb3,
// CHECK-NEXT:       3: ^bb4(%1 : f32)
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb2:  // pred: ^bb0
// CHECK-NEXT:     return
// CHECK-NEXT:   ^bb3:  // pred: ^bb1
// CHECK-NEXT:     return
// CHECK-NEXT:   ^bb4(%2: f32):  // pred: ^bb1
// CHECK-NEXT:     "test.use"(%2) : (f32) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

// A value only passed around a loop, never used otherwise: the loop-carried
// argument and the ops computing it go, with the operands that fed it.
func.func @loop(%n: i32, %x: f32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^bb1(%c0, %x : i32, f32)
^bb1(%i: i32, %acc: f32):
  %next_acc = math.exp %acc : f32
  %next = arith.addi %i, %c1 : i32
  %done = arith.cmpi sge, %next, %n : i32
  cf.cond_br %done, ^bb2, ^bb1(%next, %next_acc : i32, f32)
^bb2:
  return %next : i32
}

// Dead arguments of both successors of a cond_br and of a switch.
func.func @branches(%p: i1, %f: i32, %x: f32) {
  %e = math.exp %x : f32
  cf.cond_br %p, ^a(%e : f32), ^b(%e, %x : f32, f32)
^a(%0: f32):
  cf.switch %f : i32, [
    default: ^c(%0 : f32),
    3: ^d(%x, %0 : f32, f32)
  ]
^b(%1: f32, %2: f32):
  return
^c(%3: f32):
  return
^d(%4: f32, %5: f32):
  "test.use"(%5) : (f32) -> ()
  return
}
