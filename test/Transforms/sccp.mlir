// --sccp: sparse conditional constant propagation. Branches and region ops
// whose condition, flag or case is known take one way; loop-carried values
// that stay one constant, block arguments every live edge passes the same
// constant, and a private function's argument and result become
// constants; the constants are materialized at the top of the function.
// The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --sccp | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @if_const(%arg0: i32) -> i32 {
// CHECK-NEXT:     %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:     %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     return %c3_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @if_unknown(%arg0: i1) -> i32 {
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     return %c1_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @loop(%arg0: index) -> i32 {
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %0 = scf.for %arg1 = %c0 to %arg0 step %c1 iter_args(%arg2 = %c0_i32) -> (i32) {
// CHECK-NEXT:       %1 = arith.index_cast %arg1 : index to i32
// CHECK-NEXT:       %2 = arith.addi %arg2, %1 : i32
// CHECK-NEXT:       scf.yield %2 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @while_loop() -> i32 {
// CHECK-NEXT:     %false = arith.constant false
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     return %c0_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @switch(%arg0: i1) -> i32 {
// CHECK-NEXT:     %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:     %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:     %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:     cf.switch %c7_i32 : i32, [
// CHECK-NEXT:       default: ^bb1(%c3_i32 : i32),
// CHECK-NEXT:       7: ^bb2(%c4_i32 : i32)
// CHECK-NEXT:     ]
// CHECK-NEXT:   ^bb1(%0: i32):  // pred: ^bb0
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   ^bb2(%1: i32):  // pred: ^bb0
// CHECK-NEXT:     return %c4_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @callee(%arg0: i32) -> i32 {
// CHECK-NEXT:     %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:     %c6_i32 = arith.constant 6 : i32
// CHECK-NEXT:     return %c6_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @caller() -> i32 {
// CHECK-NEXT:     %c2 = arith.constant 2 : index
// CHECK-NEXT:     %c6_i32 = arith.constant 6 : i32
// CHECK-NEXT:     %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:     %0 = call @callee(%c3_i32) : (i32) -> i32
// CHECK-NEXT:     return %c6_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @if_const(%a: i32) -> i32 {
  %true = arith.constant true
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r = scf.if %true -> i32 {
    scf.yield %c1 : i32
  } else {
    scf.yield %a : i32
  }
  %s = arith.addi %r, %c2 : i32
  return %s : i32
}
func.func @if_unknown(%c: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = scf.if %c -> i32 {
    scf.yield %c1 : i32
  } else {
    scf.yield %c1 : i32
  }
  return %r : i32
}
func.func @loop(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %i0) -> i32 {
    %z = arith.addi %acc, %i0 : i32
    scf.yield %z : i32
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %i0) -> i32 {
    %ii = arith.index_cast %i : index to i32
    %z = arith.addi %acc, %ii : i32
    scf.yield %z : i32
  }
  return %r2 : i32
}
func.func @while_loop() -> i32 {
  %c0 = arith.constant 0 : i32
  %false = arith.constant false
  %r = scf.while (%x = %c0) : (i32) -> i32 {
    scf.condition(%false) %x : i32
  } do {
  ^bb0(%y: i32):
    %c5 = arith.constant 5 : i32
    scf.yield %c5 : i32
  }
  return %r : i32
}
func.func @switch(%c: i1) -> i32 {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %f = arith.constant 7 : i32
  cf.switch %f : i32, [
    default: ^bb1(%c3 : i32),
    7: ^bb2(%c4 : i32)
  ]
^bb1(%x: i32):
  return %x : i32
^bb2(%y: i32):
  return %y : i32
}
func.func private @callee(%x: i32) -> i32 {
  %r = arith.addi %x, %x : i32
  return %r : i32
}
func.func @caller() -> i32 {
  %c3 = arith.constant 3 : i32
  %r = call @callee(%c3) : (i32) -> i32
  %idx = arith.constant 2 : index
  %s = scf.index_switch %idx -> i32
  case 2 {
    scf.yield %r : i32
  }
  default {
    scf.yield %c3 : i32
  }
  return %s : i32
}
