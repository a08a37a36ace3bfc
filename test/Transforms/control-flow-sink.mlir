// control-flow-sink: ops without memory effects whose users are all in a
// region that runs at most once (scf.if, scf.index_switch) move to the
// start of that region; not into loops or scf.execute_region, and not ops
// with effects. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --control-flow-sink | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func private @consume(i32)
// CHECK-NEXT:   func.func @if_both(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:     %0 = scf.if %arg0 -> (i32) {
// CHECK-NEXT:       %1 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:       %2 = arith.muli %1, %arg1 : i32
// CHECK-NEXT:       scf.yield %2 : i32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       %1 = arith.subi %arg1, %arg1 : i32
// CHECK-NEXT:       scf.yield %1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @used_twice(%arg0: i1, %arg1: i32) -> i32 {
// CHECK-NEXT:     %0 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:     scf.if %arg0 {
// CHECK-NEXT:       func.call @consume(%0) : (i32) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @switch(%arg0: index, %arg1: i32) {
// CHECK-NEXT:     scf.index_switch %arg0{{ $}}
// CHECK-NEXT:     case 0 {
// CHECK-NEXT:       %0 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:       func.call @consume(%0) : (i32) -> ()
// CHECK-NEXT:       scf.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     default {
// CHECK-NEXT:       %0 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:       func.call @consume(%0) : (i32) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @not_into_loops(%arg0: index, %arg1: i32) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %0 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:     scf.for %arg2 = %c0 to %arg0 step %c1 {
// CHECK-NEXT:       func.call @consume(%0) : (i32) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     %1 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:     scf.execute_region {
// CHECK-NEXT:       func.call @consume(%1) : (i32) -> ()
// CHECK-NEXT:       scf.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @effects_stay(%arg0: i1) {
// CHECK-NEXT:     %0 = call @make() : () -> i32
// CHECK-NEXT:     scf.if %arg0 {
// CHECK-NEXT:       func.call @consume(%0) : (i32) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @make() -> i32
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func private @consume(i32) -> ()

func.func @if_both(%c: i1, %a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %a : i32
  %2 = arith.subi %a, %a : i32
  %r = scf.if %c -> i32 {
    scf.yield %1 : i32
  } else {
    scf.yield %2 : i32
  }
  return %r : i32
}

func.func @used_twice(%c: i1, %a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  scf.if %c {
    func.call @consume(%0) : (i32) -> ()
  }
  return %0 : i32
}

func.func @switch(%i: index, %a: i32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %a, %a : i32
  scf.index_switch %i
  case 0 {
    func.call @consume(%0) : (i32) -> ()
    scf.yield
  }
  default {
    func.call @consume(%1) : (i32) -> ()
  }
  return
}

func.func @not_into_loops(%n: index, %a: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = arith.addi %a, %a : i32
  scf.for %i = %c0 to %n step %c1 {
    func.call @consume(%0) : (i32) -> ()
  }
  %1 = arith.muli %a, %a : i32
  scf.execute_region {
    func.call @consume(%1) : (i32) -> ()
    scf.yield
  }
  return
}

func.func @effects_stay(%c: i1) {
  %0 = func.call @make() : () -> i32
  scf.if %c {
    func.call @consume(%0) : (i32) -> ()
  }
  return
}
func.func private @make() -> i32
