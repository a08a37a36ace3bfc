// --sccp on branches and calls: a loop-carried value that every live edge
// passes as the same constant; a public function's arguments, and a private
// function's that something other than a call names, are not tracked; a
// private function only called with 4 gets 4. With the pass run on each
// function alone (prefix FUNC), calls leave the function and their results stay. The CHECK lines
// are mlir-opt 22's output.
// RUN: strata-opt %s --sccp | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(sccp))' | FileCheck %s --check-prefix=FUNC --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func private @cond() -> i1
// CHECK-NEXT:   func.func @loop(%arg0: i32) -> i32 {
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     %c20_i32 = arith.constant 20 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     cf.br ^bb1(%c1_i32 : i32)
// CHECK-NEXT:   ^bb1(%0: i32):  // 3 preds: ^bb0, ^bb2, ^bb3
// CHECK-NEXT:     %1 = call @cond() : () -> i1
// CHECK-NEXT:     cf.cond_br %1, ^bb4(%c1_i32 : i32), ^bb2
// CHECK-NEXT:   ^bb2:  // pred: ^bb1
// CHECK-NEXT:     cf.cond_br %true, ^bb1(%c1_i32 : i32), ^bb3
// CHECK-NEXT:   ^bb3:  // pred: ^bb2
// CHECK-NEXT:     %2 = arith.addi %c1_i32, %c1_i32 : i32
// CHECK-NEXT:     cf.br ^bb1(%2 : i32)
// CHECK-NEXT:   ^bb4(%3: i32):  // pred: ^bb1
// CHECK-NEXT:     return %c1_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @public_fn(%arg0: i32) -> (i32, i32) {
// CHECK-NEXT:     %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT:     return %c5_i32, %arg0 : i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @named(%arg0: i32) -> i32 {
// CHECK-NEXT:     return %arg0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @only_called(%arg0: i32) -> i32 {
// CHECK-NEXT:     %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:     %c16_i32 = arith.constant 16 : i32
// CHECK-NEXT:     return %c16_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @calls() -> (i32, i32, i32, i32) {
// CHECK-NEXT:     %f = constant @named : (i32) -> i32
// CHECK-NEXT:     %c16_i32 = arith.constant 16 : i32
// CHECK-NEXT:     %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT:     %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:     %0:2 = call @public_fn(%c4_i32) : (i32) -> (i32, i32)
// CHECK-NEXT:     %1 = call @named(%c4_i32) : (i32) -> i32
// CHECK-NEXT:     %2 = call @only_called(%c4_i32) : (i32) -> i32
// CHECK-NEXT:     %3 = call @only_called(%c4_i32) : (i32) -> i32
// CHECK-NEXT:     return %0#1, %1, %c16_i32, %c16_i32 : i32, i32, i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

// FUNC: module {
// FUNC-NEXT:   func.func private @cond() -> i1
// FUNC-NEXT:   func.func @loop(%arg0: i32) -> i32 {
// FUNC-NEXT:     %true = arith.constant true
// FUNC-NEXT:     %c20_i32 = arith.constant 20 : i32
// FUNC-NEXT:     %c1_i32 = arith.constant 1 : i32
// FUNC-NEXT:     cf.br ^bb1(%c1_i32 : i32)
// FUNC-NEXT:   ^bb1(%0: i32):  // 3 preds: ^bb0, ^bb2, ^bb3
// FUNC-NEXT:     %1 = call @cond() : () -> i1
// FUNC-NEXT:     cf.cond_br %1, ^bb4(%c1_i32 : i32), ^bb2
// FUNC-NEXT:   ^bb2:  // pred: ^bb1
// FUNC-NEXT:     cf.cond_br %true, ^bb1(%c1_i32 : i32), ^bb3
// FUNC-NEXT:   ^bb3:  // pred: ^bb2
// FUNC-NEXT:     %2 = arith.addi %c1_i32, %c1_i32 : i32
// FUNC-NEXT:     cf.br ^bb1(%2 : i32)
// FUNC-NEXT:   ^bb4(%3: i32):  // pred: ^bb1
// FUNC-NEXT:     return %c1_i32 : i32
// FUNC-NEXT:   }
// FUNC-NEXT:   func.func @public_fn(%arg0: i32) -> (i32, i32) {
// FUNC-NEXT:     %c5_i32 = arith.constant 5 : i32
// FUNC-NEXT:     return %c5_i32, %arg0 : i32, i32
// FUNC-NEXT:   }
// FUNC-NEXT:   func.func private @named(%arg0: i32) -> i32 {
// FUNC-NEXT:     return %arg0 : i32
// FUNC-NEXT:   }
// FUNC-NEXT:   func.func private @only_called(%arg0: i32) -> i32 {
// FUNC-NEXT:     %0 = arith.muli %arg0, %arg0 : i32
// FUNC-NEXT:     return %0 : i32
// FUNC-NEXT:   }
// FUNC-NEXT:   func.func @calls() -> (i32, i32, i32, i32) {
// FUNC-NEXT:     %f = constant @named : (i32) -> i32
// FUNC-NEXT:     %c4_i32 = arith.constant 4 : i32
// FUNC-NEXT:     %0:2 = call @public_fn(%c4_i32) : (i32) -> (i32, i32)
// FUNC-NEXT:     %1 = call @named(%c4_i32) : (i32) -> i32
// FUNC-NEXT:     %2 = call @only_called(%c4_i32) : (i32) -> i32
// FUNC-NEXT:     %3 = call @only_called(%c4_i32) : (i32) -> i32
// FUNC-NEXT:     return %0#1, %1, %2, %3 : i32, i32, i32, i32
// FUNC-NEXT:   }
// FUNC-NEXT: }
// FUNC-EMPTY:

// A loop whose carried value stays the constant it starts with.
func.func private @cond() -> i1

func.func @loop(%arg0 : i32) -> i32 {
  %one = arith.constant 1 : i32
  cf.br ^bb1(%one : i32)
^bb1(%iv: i32):
  %c = call @cond() : () -> i1
  cf.cond_br %c, ^bb3(%iv : i32), ^bb2
^bb2:
  %limit = arith.constant 20 : i32
  %lt = arith.cmpi ult, %iv, %limit : i32
  cf.cond_br %lt, ^bb1(%one : i32), ^bb4
^bb4:
  %next = arith.addi %iv, %one : i32
  cf.br ^bb1(%next : i32)
^bb3(%result: i32):
  return %result : i32
}

// Public: callers may be unseen, so the argument is not a constant.
func.func @public_fn(%x: i32) -> (i32, i32) {
  %c = arith.constant 5 : i32
  return %c, %x : i32, i32
}

// Private but named by something other than a call: not tracked either.
func.func private @named(%x: i32) -> i32 {
  return %x : i32
}

// Private, only called: both calls pass 4.
func.func private @only_called(%x: i32) -> i32 {
  %y = arith.muli %x, %x : i32
  return %y : i32
}

func.func @calls() -> (i32, i32, i32, i32) {
  %four = arith.constant 4 : i32
  %a:2 = call @public_fn(%four) : (i32) -> (i32, i32)
  %b = call @named(%four) : (i32) -> i32
  %c = call @only_called(%four) : (i32) -> i32
  %d = call @only_called(%four) : (i32) -> i32
  %f = func.constant @named : (i32) -> i32
  return %a#1, %b, %c, %d : i32, i32, i32, i32
}
