// Canonicalization of scf.parallel (MLIR's
// ParallelOpSingleOrZeroIterationDimsFolder, MergeNestedParallelLoops),
// scf.if (IfOp::fold on a negated condition, CombineIfs on a condition and
// its negation, CombineNestedIfs with results) and scf.for
// (SimplifyTrivialLoops with `ub = lb + c` and with an empty body yielding
// values from outside, loop-carried values in a cycle fed by one value).
// The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @parallel_single(%arg0: index, %arg1: index) -> (index, index) {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c3 = arith.constant 3 : index
// CHECK-NEXT:     %0 = arith.addi %arg0, %c1 : index
// CHECK-NEXT:     %1 = arith.muli %arg1, %c3 : index
// CHECK-NEXT:     return %0, %1 : index, index
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @parallel_partial(%arg0: index, %arg1: index) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     scf.parallel (%arg2) = (%arg0) to (%arg1) step (%c1) {
// CHECK-NEXT:       "test.use"(%c0, %arg2) : (index, index) -> ()
// CHECK-NEXT:       scf.reduce{{ $}}
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @parallel_zero(%arg0: index, %arg1: index, %arg2: f32) -> f32 {
// CHECK-NEXT:     return %arg2 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @parallel_nested(%arg0: index, %arg1: index, %arg2: index) {
// CHECK-NEXT:     scf.parallel (%arg3, %arg4) = (%arg0, %arg0) to (%arg1, %arg1) step (%arg2, %arg2) {
// CHECK-NEXT:       "test.use"(%arg3, %arg4) : (index, index) -> ()
// CHECK-NEXT:       scf.reduce{{ $}}
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @if_negated(%arg0: i1) -> index {
// CHECK-NEXT:     %0 = scf.if %arg0 -> (index) {
// CHECK-NEXT:       %1 = "test.else"() : () -> index
// CHECK-NEXT:       scf.yield %1 : index
// CHECK-NEXT:     } else {
// CHECK-NEXT:       %1 = "test.then"() : () -> index
// CHECK-NEXT:       scf.yield %1 : index
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : index
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @combine_negated(%arg0: i1) {
// CHECK-NEXT:     scf.if %arg0 {
// CHECK-NEXT:       "test.first"() : () -> ()
// CHECK-NEXT:     } else {
// CHECK-NEXT:       "test.second"() : () -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @nested_with_results(%arg0: i1, %arg1: i1, %arg2: i32, %arg3: i32) -> (i32, i32) {
// CHECK-NEXT:     %0 = arith.andi %arg0, %arg1 : i1
// CHECK-NEXT:     %1 = arith.select %arg0, %arg2, %arg3 : i32
// CHECK-NEXT:     %2 = scf.if %0 -> (i32) {
// CHECK-NEXT:       %3 = "test.inner"() : () -> i32
// CHECK-NEXT:       scf.yield %3 : i32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %arg3 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %2, %1 : i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @for_yields_outside(%arg0: i32) -> i32 {
// CHECK-NEXT:     %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:     return %c7_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @for_plus_one(%arg0: index) {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %0 = arith.addi %arg0, %c1 : index
// CHECK-NEXT:     scf.for %arg1 = %arg0 to %0 step %c1 {
// CHECK-NEXT:       "test.use"(%arg1) : (index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @for_cycle(%arg0: index, %arg1: index, %arg2: index, %arg3: i32, %arg4: i32) -> (i32, i32, i32) {
// CHECK-NEXT:     %0 = scf.for %arg5 = %arg0 to %arg1 step %arg2 iter_args(%arg6 = %arg3) -> (i32) {
// CHECK-NEXT:       "test.use"(%arg6, %arg4) : (i32, i32) -> ()
// CHECK-NEXT:       scf.yield %arg4 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0, %arg4, %arg4 : i32, i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @nuw_signed(%arg0: index) {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %0 = arith.addi %arg0, %c1 overflow<nuw> : index
// CHECK-NEXT:     scf.for %arg1 = %arg0 to %0 step %c1 {
// CHECK-NEXT:       "test.use"(%arg1) : (index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @nuw_unsigned(%arg0: index) {
// CHECK-NEXT:     "test.use"(%arg0) : (index) -> ()
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @nsw_unsigned(%arg0: index) {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %0 = arith.addi %arg0, %c1 overflow<nsw> : index
// CHECK-NEXT:     scf.for unsigned %arg1 = %arg0 to %0 step %c1 {
// CHECK-NEXT:       "test.use"(%arg1) : (index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @nsw_two(%arg0: index) {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c2 = arith.constant 2 : index
// CHECK-NEXT:     %0 = arith.addi %arg0, %c2 overflow<nsw> : index
// CHECK-NEXT:     scf.for %arg1 = %arg0 to %0 step %c1 {
// CHECK-NEXT:       "test.use"(%arg1) : (index) -> ()
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @nsw_neg(%arg0: index) {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @parallel_single(%a: index, %b: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %0:2 = scf.parallel (%i, %j) = (%c1, %c3) to (%c2, %c6) step (%c1, %c3) init (%a, %b) -> (index, index) {
    scf.reduce(%i, %j : index, index) {
    ^bb0(%x: index, %y: index):
      %s = arith.addi %x, %y : index
      scf.reduce.return %s : index
    }, {
    ^bb0(%x: index, %y: index):
      %p = arith.muli %x, %y : index
      scf.reduce.return %p : index
    }
  }
  return %0#0, %0#1 : index, index
}

func.func @parallel_partial(%a: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %a) to (%c1, %n) step (%c1, %c1) {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

func.func @parallel_zero(%a: index, %n: index, %x: f32) -> f32 {
  %r = scf.parallel (%i) = (%n) to (%n) step (%a) init (%x) -> f32 {
    %v = "test.produce"() : () -> f32
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %m: f32):
      %s = arith.addf %l, %m : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

func.func @parallel_nested(%a: index, %b: index, %s: index) {
  scf.parallel (%i) = (%a) to (%b) step (%s) {
    scf.parallel (%j) = (%a) to (%b) step (%s) {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  return
}

func.func @if_negated(%c: i1) -> index {
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  %r = scf.if %n -> index {
    %x = "test.then"() : () -> index
    scf.yield %x : index
  } else {
    %y = "test.else"() : () -> index
    scf.yield %y : index
  }
  return %r : index
}

func.func @combine_negated(%c: i1) {
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  scf.if %c {
    "test.first"() : () -> ()
  }
  scf.if %n {
    "test.second"() : () -> ()
  }
  return
}

func.func @nested_with_results(%a: i1, %b: i1, %x: i32, %y: i32) -> (i32, i32) {
  %r:2 = scf.if %a -> (i32, i32) {
    %s = scf.if %b -> i32 {
      %v = "test.inner"() : () -> i32
      scf.yield %v : i32
    } else {
      scf.yield %y : i32
    }
    scf.yield %s, %x : i32, i32
  } else {
    scf.yield %y, %y : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

func.func @for_yields_outside(%a: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %b = arith.constant 7 : i32
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%v = %a) -> i32 {
    scf.yield %b : i32
  }
  return %r : i32
}

func.func @for_plus_one(%lb: index) {
  %c1 = arith.constant 1 : index
  %ub = arith.addi %c1, %lb : index
  scf.for %i = %lb to %ub step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

func.func @for_cycle(%lb: index, %ub: index, %s: index, %a: i32, %b: i32) -> (i32, i32, i32) {
  %r:3 = scf.for %i = %lb to %ub step %s iter_args(%x = %a, %y = %b, %z = %b) -> (i32, i32, i32) {
    "test.use"(%x, %y) : (i32, i32) -> ()
    scf.yield %y, %z, %y : i32, i32, i32
  }
  return %r#0, %r#1, %r#2 : i32, i32, i32
}
func.func @nuw_signed(%lb: index) {
  %c1 = arith.constant 1 : index
  %ub = arith.addi %lb, %c1 overflow<nuw> : index
  scf.for %i = %lb to %ub step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  return
}
func.func @nuw_unsigned(%lb: index) {
  %c1 = arith.constant 1 : index
  %ub = arith.addi %lb, %c1 overflow<nuw> : index
  scf.for unsigned %i = %lb to %ub step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  return
}
func.func @nsw_unsigned(%lb: index) {
  %c1 = arith.constant 1 : index
  %ub = arith.addi %lb, %c1 overflow<nsw> : index
  scf.for unsigned %i = %lb to %ub step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  return
}
func.func @nsw_two(%lb: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ub = arith.addi %lb, %c2 overflow<nsw> : index
  scf.for %i = %lb to %ub step %c1 {
    "test.use"(%i) : (index) -> ()
    scf.yield
  }
  return
}
func.func @nsw_neg(%lb: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant -2 : index
  %ub = arith.addi %lb, %c2 overflow<nsw> : index
  scf.for %i = %lb to %ub step %c1 {
    "test.use"(%i) : (index) -> ()
    scf.yield
  }
  return
}
