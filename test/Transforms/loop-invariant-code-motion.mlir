// loop-invariant-code-motion: ops of scf.for, scf.while, scf.parallel and
// scf.forall bodies that compute the same value on every iteration move
// before the loop, innermost loops first, when they have no memory effect
// and may run speculatively (divisions only by a constant that cannot trap,
// scf.if and unit-step scf.for when their bodies may). The CHECK lines are
// mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --loop-invariant-code-motion | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @divs(%arg0: i32, %arg1: index, %arg2: i1) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c2 = arith.constant 2 : index
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:     %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:     %0 = arith.floordivsi %arg0, %c7_i32 : i32
// CHECK-NEXT:     %1 = arith.remsi %arg0, %c7_i32 : i32
// CHECK-NEXT:     %2 = arith.remui %arg0, %c7_i32 : i32
// CHECK-NEXT:     %3 = arith.ceildivsi %arg0, %c7_i32 : i32
// CHECK-NEXT:     %4 = arith.divui %arg0, %c-1_i32 : i32
// CHECK-NEXT:     %5 = arith.addi %0, %1 : i32
// CHECK-NEXT:     %6 = arith.muli %5, %2 : i32
// CHECK-NEXT:     scf.for %arg3 = %c0 to %arg1 step %c1 {
// CHECK-NEXT:       %11 = arith.divsi %arg0, %c-1_i32 : i32
// CHECK-NEXT:       "test.use"(%11, %3, %4, %6) : (i32, i32, i32, i32) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     %7 = arith.addi %arg0, %c7_i32 : i32
// CHECK-NEXT:     %8 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:     %9 = scf.for %arg3 = %c0 to %arg1 step %c1 iter_args(%arg4 = %arg0) -> (i32) {
// CHECK-NEXT:       %11 = arith.addi %arg4, %7 : i32
// CHECK-NEXT:       scf.yield %11 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     %10 = scf.if %arg2 -> (i32) {
// CHECK-NEXT:       scf.yield %arg0 : i32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %c7_i32 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.for %arg3 = %c0 to %arg1 step %c2 {
// CHECK-NEXT:       "test.use"(%9, %10) : (i32, i32) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @divs2(%arg0: i32, %arg1: index, %arg2: vector<4xi32>) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %cst = arith.constant dense<3> : vector<4xi32>
// CHECK-NEXT:     %0 = arith.floordivsi %arg0, %c-1_i32 : i32
// CHECK-NEXT:     %1 = arith.remsi %arg0, %c-1_i32 : i32
// CHECK-NEXT:     %2 = arith.remui %arg0, %c0_i32 : i32
// CHECK-NEXT:     %3 = arith.ceildivui %arg0, %c-1_i32 : i32
// CHECK-NEXT:     %4 = arith.divsi %arg2, %cst : vector<4xi32>
// CHECK-NEXT:     %5 = arith.divui %arg2, %cst : vector<4xi32>
// CHECK-NEXT:     scf.for %arg3 = %c0 to %arg1 step %c1 {
// CHECK-NEXT:       "test.use"(%0, %1, %2, %3, %4, %5) : (i32, i32, i32, i32, vector<4xi32>, vector<4xi32>) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.for %arg3 = %c0 to %arg1 step %arg1 {
// CHECK-NEXT:       %6 = scf.for %arg4 = %c0 to %arg1 step %arg1 iter_args(%arg5 = %arg0) -> (i32) {
// CHECK-NEXT:         scf.yield %arg5 : i32
// CHECK-NEXT:       }
// CHECK-NEXT:       %7 = scf.while (%arg4 = %arg0) : (i32) -> i32 {
// CHECK-NEXT:         %10 = arith.cmpi slt, %arg4, %arg0 : i32
// CHECK-NEXT:         scf.condition(%10) %arg4 : i32
// CHECK-NEXT:       } do {
// CHECK-NEXT:       ^bb0(%arg4: i32):
// CHECK-NEXT:         scf.yield %arg4 : i32
// CHECK-NEXT:       }
// CHECK-NEXT:       %8 = scf.execute_region -> i32 {
// CHECK-NEXT:         scf.yield %arg0 : i32
// CHECK-NEXT:       }
// CHECK-NEXT:       %9 = scf.index_switch %arg1 -> i32{{ $}}
// CHECK-NEXT:       case 1 {
// CHECK-NEXT:         scf.yield %arg0 : i32
// CHECK-NEXT:       }
// CHECK-NEXT:       default {
// CHECK-NEXT:         scf.yield %arg0 : i32
// CHECK-NEXT:       }
// CHECK-NEXT:       "test.use"(%6, %7, %8, %9) : (i32, i32, i32, i32) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @while_and_parallel(%arg0: i32, %arg1: index, %arg2: i1) -> i32 {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:     %0 = arith.muli %arg0, %c3_i32 : i32
// CHECK-NEXT:     %1 = arith.addi %arg0, %c3_i32 : i32
// CHECK-NEXT:     %2 = scf.while (%arg3 = %arg0) : (i32) -> i32 {
// CHECK-NEXT:       %5 = arith.cmpi slt, %arg3, %0 : i32
// CHECK-NEXT:       scf.condition(%5) %arg3 : i32
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg3: i32):
// CHECK-NEXT:       %5 = arith.addi %arg3, %1 : i32
// CHECK-NEXT:       scf.yield %5 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     %3 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:     scf.parallel (%arg3, %arg4) = (%c0, %c0) to (%arg1, %arg1) step (%c1, %c1) {
// CHECK-NEXT:       %5 = arith.addi %arg3, %arg4 : index
// CHECK-NEXT:       "test.use"(%3, %5) : (i32, index) -> ()
// CHECK-NEXT:       scf.reduce{{ $}}
// CHECK-NEXT:     }
// CHECK-NEXT:     %4 = arith.subi %arg0, %c3_i32 : i32
// CHECK-NEXT:     scf.forall (%arg3) in (%arg1) {
// CHECK-NEXT:       "test.use"(%4, %arg3) : (i32, index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.for %arg3 = %c0 to %arg1 step %c1 {
// CHECK-NEXT:       %5 = func.call @make() : () -> i32
// CHECK-NEXT:       %6 = scf.if %arg2 -> (i32) {
// CHECK-NEXT:         scf.yield %5 : i32
// CHECK-NEXT:       } else {
// CHECK-NEXT:         scf.yield %arg0 : i32
// CHECK-NEXT:       }
// CHECK-NEXT:       "test.use"(%6) : (i32) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return %2 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @make() -> i32
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @divs(%a: i32, %n: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %m1 = arith.constant -1 : i32
  %k = arith.constant 7 : i32
  scf.for %i = %c0 to %n step %c1 {
    %0 = arith.floordivsi %a, %k : i32
    %1 = arith.remsi %a, %k : i32
    %2 = arith.remui %a, %k : i32
    %3 = arith.divsi %a, %m1 : i32
    %4 = arith.ceildivsi %a, %k : i32
    %5 = arith.divui %a, %m1 : i32
    %6 = arith.addi %0, %1 : i32
    %7 = arith.muli %6, %2 : i32
    "test.use"(%3, %4, %5, %7) : (i32, i32, i32, i32) -> ()
  }
  scf.for %i = %c0 to %n step %c2 {
    %0 = arith.addi %a, %k : i32
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%x = %a) -> i32 {
      %s = arith.addi %x, %0 : i32
      %t = arith.muli %a, %a : i32
      scf.yield %s : i32
    }
    %q = scf.if %cond -> i32 {
      scf.yield %a : i32
    } else {
      scf.yield %k : i32
    }
    "test.use"(%r, %q) : (i32, i32) -> ()
  }
  return
}

func.func @divs2(%a: i32, %n: index, %v: vector<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m1 = arith.constant -1 : i32
  %z = arith.constant 0 : i32
  %sv = arith.constant dense<3> : vector<4xi32>
  scf.for %i = %c0 to %n step %c1 {
    %0 = arith.floordivsi %a, %m1 : i32
    %1 = arith.remsi %a, %m1 : i32
    %2 = arith.remui %a, %z : i32
    %3 = arith.ceildivui %a, %m1 : i32
    %4 = arith.divsi %v, %sv : vector<4xi32>
    %5 = arith.divui %v, %sv : vector<4xi32>
    "test.use"(%0, %1, %2, %3, %4, %5) : (i32, i32, i32, i32, vector<4xi32>, vector<4xi32>) -> ()
  }
  scf.for %i = %c0 to %n step %n {
    %r = scf.for %j = %c0 to %n step %n iter_args(%x = %a) -> i32 {
      scf.yield %x : i32
    }
    %w = scf.while (%y = %a) : (i32) -> i32 {
      %cc = arith.cmpi slt, %y, %a : i32
      scf.condition(%cc) %y : i32
    } do {
    ^bb0(%y: i32):
      scf.yield %y : i32
    }
    %e = scf.execute_region -> i32 {
      scf.yield %a : i32
    }
    %s = scf.index_switch %n -> i32
    case 1 {
      scf.yield %a : i32
    }
    default {
      scf.yield %a : i32
    }
    "test.use"(%r, %w, %e, %s) : (i32, i32, i32, i32) -> ()
  }
  return
}

func.func @while_and_parallel(%a: i32, %n: index, %true_c: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 3 : i32
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %lim = arith.muli %a, %k : i32
    %c = arith.cmpi slt, %x, %lim : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    %s = arith.addi %a, %k : i32
    %t = arith.addi %y, %s : i32
    scf.yield %t : i32
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %v = arith.addi %a, %a : i32
    %w = arith.addi %i, %j : index
    "test.use"(%v, %w) : (i32, index) -> ()
  }
  scf.forall (%i) in (%n) {
    %v = arith.subi %a, %k : i32
    "test.use"(%v, %i) : (i32, index) -> ()
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = func.call @make() : () -> i32
    %u = scf.if %true_c -> i32 {
      scf.yield %v : i32
    } else {
      scf.yield %a : i32
    }
    "test.use"(%u) : (i32) -> ()
  }
  return %r : i32
}

func.func private @make() -> i32
