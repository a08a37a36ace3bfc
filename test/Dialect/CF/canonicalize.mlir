// cf's canonicalization patterns, as mlir-opt 22 applies them: a branch to
// a block only it reaches merges that block in; a branch through a block
// that only branches on goes straight on (not around a cycle of such
// blocks); a known condition, or one destination with differing operands
// (an arith.select), gives a cf.br; the same condition again is known; the
// condition is a constant in a block only its edge reaches; an assertion
// of true goes. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @merge(%arg0: i32) -> i32 {
// CHECK-NEXT:     return %arg0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @pass_through(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:     cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2(%arg2 : i32)
// CHECK-NEXT:   ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb3
// CHECK-NEXT:     cf.br ^bb3(%0 : i32)
// CHECK-NEXT:   ^bb2(%1: i32):  // pred: ^bb0
// CHECK-NEXT:     cf.br ^bb3(%1 : i32)
// CHECK-NEXT:   ^bb3(%2: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:     "test.use"(%2) : (i32) -> ()
// CHECK-NEXT:     cf.br ^bb1(%2 : i32)
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @known(%arg0: i32, %arg1: i32, %arg2: i1) -> (i32, i32) {
// CHECK-NEXT:     %0 = arith.select %arg2, %arg0, %arg1 : i32
// CHECK-NEXT:     return %arg0, %0 : i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @same_condition(%arg0: i1) -> i1 {
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     %false = arith.constant false
// CHECK-NEXT:     cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:   ^bb1:  // pred: ^bb0
// CHECK-NEXT:     "test.use"(%true) : (i1) -> ()
// CHECK-NEXT:     "test.a"() : () -> ()
// CHECK-NEXT:     return %true : i1
// CHECK-NEXT:   ^bb2:  // pred: ^bb0
// CHECK-NEXT:     "test.use"(%false) : (i1) -> ()
// CHECK-NEXT:     return %false : i1
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @assertions(%arg0: i1) {
// CHECK-NEXT:     cf.assert %arg0, "sometimes"
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

// A branch to a block only it reaches: the block is merged in.
func.func @merge(%x: i32) -> i32 {
  cf.br ^bb1(%x : i32)
^bb1(%y: i32):
  return %y : i32
}

// A branch through a block that only branches on goes straight on.
func.func @pass_through(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2(%b : i32)
^bb1(%x: i32):
  cf.br ^bb3(%x : i32)
^bb2(%y: i32):
  cf.br ^bb3(%y : i32)
^bb3(%z: i32):
  "test.use"(%z) : (i32) -> ()
  cf.br ^bb1(%z : i32)
}

// Known conditions; one destination with operands that differ.
func.func @known(%a: i32, %b: i32, %c: i1) -> (i32, i32) {
  %true = arith.constant true
  cf.cond_br %true, ^bb1(%a : i32), ^bb2(%b : i32)
^bb1(%x: i32):
  cf.cond_br %c, ^bb3(%x, %a : i32, i32), ^bb3(%x, %b : i32, i32)
^bb2(%y: i32):
  return %y, %y : i32, i32
^bb3(%p: i32, %q: i32):
  return %p, %q : i32, i32
}

// The same condition again, and its value in the blocks it alone reaches.
func.func @same_condition(%c: i1) -> i1 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  "test.use"(%c) : (i1) -> ()
  cf.cond_br %c, ^bb3, ^bb4
^bb2:
  "test.use"(%c) : (i1) -> ()
  return %c : i1
^bb3:
  "test.a"() : () -> ()
  return %c : i1
^bb4:
  "test.b"() : () -> ()
  return %c : i1
}

func.func @assertions(%c: i1) {
  %true = arith.constant true
  cf.assert %true, "always"
  cf.assert %c, "sometimes"
  return
}
