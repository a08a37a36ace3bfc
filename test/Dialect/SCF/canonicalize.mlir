// scf canonicalization patterns; the CHECK lines are exactly what
// mlir-opt --canonicalize prints for each function.
// RUN: strata-opt %s --canonicalize | FileCheck %s

// An scf.if without effects and without used results is erased.
// CHECK-LABEL: func.func @dead_if(
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @dead_if(%c: i1, %x: i32) {
  scf.if %c {
  }
  %0 = scf.if %c -> (i32) {
    %1 = arith.addi %x, %x : i32
    scf.yield %1 : i32
  } else {
    scf.yield %x : i32
  }
  return
}

// RemoveStaticCondition: the taken branch replaces the op.
// CHECK-LABEL: func.func @static_if(
// CHECK-NEXT: %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT: %1 = arith.muli %arg0, %arg1 : i32
// CHECK-NEXT: return %0, %1 : i32, i32
// CHECK-NEXT: }
func.func @static_if(%x: i32, %y: i32) -> (i32, i32) {
  %true = arith.constant true
  %false = arith.constant false
  %0 = scf.if %true -> (i32) {
    %a = arith.addi %x, %y : i32
    scf.yield %a : i32
  } else {
    scf.yield %y : i32
  }
  %1 = scf.if %false -> (i32) {
    scf.yield %x : i32
  } else {
    %b = arith.muli %x, %y : i32
    scf.yield %b : i32
  }
  return %0, %1 : i32, i32
}

// ConvertTrivialIfToSelect: values defined outside become selects.
// CHECK-LABEL: func.func @trivial_if(
// CHECK-NEXT: %0 = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT: return %0, %arg1 : i32, i32
// CHECK-NEXT: }
func.func @trivial_if(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  %0:2 = scf.if %c -> (i32, i32) {
    scf.yield %x, %x : i32, i32
  } else {
    scf.yield %y, %x : i32, i32
  }
  return %0#0, %0#1 : i32, i32
}

// i1 results yielding true/false become the condition or its negation.
// CHECK-LABEL: func.func @bool_if(
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %0 = arith.xori %arg0, %true : i1
// CHECK-NEXT: return %arg0, %0 : i1, i1
// CHECK-NEXT: }
func.func @bool_if(%c: i1) -> (i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %0:2 = scf.if %c -> (i1, i1) {
    scf.yield %true, %false : i1, i1
  } else {
    scf.yield %false, %true : i1, i1
  }
  return %0#0, %0#1 : i1, i1
}

// SimplifyTrivialLoops: zero trips give the inits, one trip inlines the body.
// CHECK-LABEL: func.func @trivial_loops(
// CHECK-NEXT: return %arg0, %arg0 : i32, i32
// CHECK-NEXT: }
func.func @trivial_loops(%x: i32, %n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c0 to %c0 step %c1 iter_args(%a = %x) -> (i32) {
    %s = arith.addi %a, %a : i32
    scf.yield %s : i32
  }
  %1 = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> (i32) {
    %t = arith.index_cast %i : index to i32
    %s = arith.addi %a, %t : i32
    scf.yield %s : i32
  }
  return %0, %1 : i32, i32
}

// A loop-carried value yielded back unchanged is the init; the loop drops it.
// CHECK-LABEL: func.func @forwarded_iter_arg(
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %0 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %arg1) -> (i32) {
// CHECK-NEXT: %1 = arith.addi %arg4, %arg4 : i32
// CHECK-NEXT: scf.yield %1 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %arg0, %0 : i32, i32
// CHECK-NEXT: }
func.func @forwarded_iter_arg(%x: i32, %y: i32, %n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y) -> (i32, i32) {
    %s = arith.addi %b, %b : i32
    scf.yield %a, %s : i32, i32
  }
  return %0#0, %0#1 : i32, i32
}

// Only the hoistable results become selects; the rest stay in a smaller scf.if.
// CHECK-LABEL: func.func @partial_hoist(
// CHECK-NEXT: %0 = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT: %1 = scf.if %arg0 -> (i32) {
// CHECK-NEXT: %2 = arith.addi %arg1, %arg2 : i32
// CHECK-NEXT: scf.yield %2 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %1, %0 : i32, i32
// CHECK-NEXT: }
func.func @partial_hoist(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  %0:2 = scf.if %c -> (i32, i32) {
    %a = arith.addi %x, %y : i32
    scf.yield %a, %x : i32, i32
  } else {
    scf.yield %y, %y : i32, i32
  }
  return %0#0, %0#1 : i32, i32
}

// A loop whose results are unused and whose body has no effects is erased.
// CHECK-LABEL: func.func @unused_for_result(
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @unused_for_result(%x: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
    %s = arith.addi %a, %a : i32
    scf.yield %s : i32
  }
  return
}

// scf.while is kept.
// CHECK-LABEL: func.func @while_loop(
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c10_i32 = arith.constant 10 : i32
// CHECK-NEXT: %0 = scf.while (%arg1 = %arg0) : (i32) -> i32 {
// CHECK-NEXT: %1 = arith.cmpi slt, %arg1, %c10_i32 : i32
// CHECK-NEXT: scf.condition(%1) %arg1 : i32
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%arg1: i32):
// CHECK-NEXT: %1 = arith.addi %arg1, %c1_i32 : i32
// CHECK-NEXT: scf.yield %1 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @while_loop(%x: i32) -> i32 {
  %c10 = arith.constant 10 : i32
  %0 = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.cmpi slt, %a, %c10 : i32
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    %c1 = arith.constant 1 : i32
    %n = arith.addi %b, %c1 : i32
    scf.yield %n : i32
  }
  return %0 : i32
}

// A loop of several trips is kept.
// CHECK-LABEL: func.func @three_trip(
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %0 = scf.for %arg1 = %c0 to %c3 step %c1 iter_args(%arg2 = %arg0) -> (i32) {
// CHECK-NEXT: %1 = arith.addi %arg2, %arg2 : i32
// CHECK-NEXT: scf.yield %1 : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @three_trip(%x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (i32) {
    %s = arith.addi %a, %a : i32
    scf.yield %s : i32
  }
  return %0 : i32
}

// Nested static conditions.
// CHECK-LABEL: func.func @nested_static(
// CHECK-NEXT: return %arg0 : i32
// CHECK-NEXT: }
func.func @nested_static(%x: i32) -> i32 {
  %true = arith.constant true
  %0 = scf.if %true -> (i32) {
    %1 = scf.if %true -> (i32) {
      scf.yield %x : i32
    } else {
      scf.yield %x : i32
    }
    scf.yield %1 : i32
  } else {
    scf.yield %x : i32
  }
  return %0 : i32
}

// RemoveEmptyElseBranch: an else that only yields goes (ops without results).
// CHECK-LABEL: func.func @empty_else(
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: func.call @use(%arg1) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func private @use(i32)
func.func @empty_else(%c: i1, %x: i32) {
  scf.if %c {
    func.call @use(%x) : (i32) -> ()
  } else {
  }
  return
}

// ConditionPropagation: the condition is true in `then`, false in `else`.
// The calls keep the scf.if alive although its result became a value from
// outside (ConvertTrivialIfToSelect moves the bodies to a result-less if).
// CHECK-LABEL: func.func @propagate(
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: func.call @use_i1(%true) : (i1) -> ()
// CHECK-NEXT: } else {
// CHECK-NEXT: func.call @use_i1(%false) : (i1) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return %arg1 : i32
// CHECK-NEXT: }
func.func private @use_i1(i1)
func.func @propagate(%c: i1, %x: i32) -> i32 {
  %0 = scf.if %c -> (i32) {
    func.call @use_i1(%c) : (i1) -> ()
    %1 = arith.select %c, %x, %x : i32
    scf.yield %1 : i32
  } else {
    func.call @use_i1(%c) : (i1) -> ()
    scf.yield %x : i32
  }
  return %0 : i32
}

// CombineIfs: consecutive scf.ifs on one condition merge (the first one's results
// used in the second become its yielded values); then their hoistable
// results become selects.
// CHECK-LABEL: func.func @combine(
// CHECK-NEXT: %0 = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT: %1 = arith.select %arg0, %arg2, %arg1 : i32
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: func.call @use_i32(%arg1) : (i32) -> ()
// CHECK-NEXT: func.call @use_i32(%arg2) : (i32) -> ()
// CHECK-NEXT: } else {
// CHECK-NEXT: func.call @use_i32(%arg1) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return %0, %1 : i32, i32
// CHECK-NEXT: }
// CHECK-LABEL: func.func @combine_noresult(
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: func.call @use_i32(%arg1) : (i32) -> ()
// CHECK-NEXT: func.call @use_i32(%arg1) : (i32) -> ()
// CHECK-NEXT: } else {
// CHECK-NEXT: func.call @use_i32(%arg1) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func private @use_i32(i32)
func.func @combine(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  %0 = scf.if %c -> (i32) {
    func.call @use_i32(%x) : (i32) -> ()
    scf.yield %x : i32
  } else {
    scf.yield %y : i32
  }
  %1 = scf.if %c -> (i32) {
    func.call @use_i32(%y) : (i32) -> ()
    scf.yield %y : i32
  } else {
    func.call @use_i32(%x) : (i32) -> ()
    scf.yield %x : i32
  }
  return %0, %1 : i32, i32
}
func.func @combine_noresult(%c: i1, %x: i32) {
  scf.if %c {
    func.call @use_i32(%x) : (i32) -> ()
  }
  scf.if %c {
    func.call @use_i32(%x) : (i32) -> ()
  } else {
    func.call @use_i32(%x) : (i32) -> ()
  }
  return
}

// CombineNestedIfs: an scf.if alone in another one's then block.
// CHECK-LABEL: func.func @nested_ifs(
// CHECK-NEXT: %0 = arith.andi %arg0, %arg1 : i1
// CHECK-NEXT: scf.if %0 {
// CHECK-NEXT: func.call @use_i32(%arg2) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @nested_ifs(%a: i1, %b: i1, %x: i32) {
  scf.if %a {
    scf.if %b {
      func.call @use_i32(%x) : (i32) -> ()
    }
  }
  return
}

// Unused scf.if results go; the bodies (with a call) stay.
// CHECK-LABEL: func.func @unused_if_result(
// CHECK-NEXT: %0 = arith.select %arg0, %arg2, %arg1 : i32
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: func.call @use_i32(%arg1) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return %0 : i32
// CHECK-NEXT: }
func.func @unused_if_result(%c: i1, %x: i32, %y: i32) -> i32 {
  %0:2 = scf.if %c -> (i32, i32) {
    func.call @use_i32(%x) : (i32) -> ()
    scf.yield %x, %y : i32, i32
  } else {
    scf.yield %y, %x : i32, i32
  }
  return %0#1 : i32
}

// Loop-carried values: unused result and argument (dead), and a yield of
// the init value itself (the result is the init).
// CHECK-LABEL: func.func @dead_iter_args(
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: scf.for %arg3 = %c0 to %arg2 step %c1 {
// CHECK-NEXT: func.call @use_i32(%arg1) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return %arg1 : i32
// CHECK-NEXT: }
func.func @dead_iter_args(%x: i32, %y: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y) -> (i32, i32) {
    func.call @use_i32(%y) : (i32) -> ()
    scf.yield %x, %y : i32, i32
  }
  return %0#1 : i32
}
