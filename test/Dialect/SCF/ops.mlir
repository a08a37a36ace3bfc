// Round trip of the scf dialect's custom assembly: the body below is exactly
// what mlir-opt prints for it (comments aside), in the pretty form, after a
// second pass, and after going through the generic form.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace

// CHECK: module {
module {
  // scf.for without iter_args; the body's yield is implicit and not printed.
  // CHECK-LABEL: func.func @for_no_iter(
  // CHECK-SAME: %arg0: index, %arg1: index, %arg2: index, %arg3: i32) {
  // CHECK-NEXT: scf.for %arg4 = %arg0 to %arg1 step %arg2 {
  // CHECK-NEXT: %0 = arith.addi %arg3, %arg3 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  func.func @for_no_iter(%arg0: index, %arg1: index, %arg2: index, %arg3: i32) {
    scf.for %arg4 = %arg0 to %arg1 step %arg2 {
      %0 = arith.addi %arg3, %arg3 : i32
    }
    return
  }

  // scf.for with iter_args: the yield is printed, results are named %0:2.
  // CHECK-LABEL: func.func @for_iter_args(
  // CHECK-SAME: %arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> (f32, index) {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %0:2 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3, %arg6 = %c0) -> (f32, index) {
  // CHECK-NEXT: %1 = arith.addf %arg5, %arg5 : f32
  // CHECK-NEXT: %c1 = arith.constant 1 : index
  // CHECK-NEXT: %2 = arith.addi %arg6, %c1 : index
  // CHECK-NEXT: scf.yield %1, %2 : f32, index
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0#0, %0#1 : f32, index
  // CHECK-NEXT: }
  func.func @for_iter_args(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> (f32, index) {
    %c0 = arith.constant 0 : index
    %0:2 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3, %arg6 = %c0) -> (f32, index) {
      %1 = arith.addf %arg5, %arg5 : f32
      %c1 = arith.constant 1 : index
      %2 = arith.addi %arg6, %c1 : index
      scf.yield %1, %2 : f32, index
    }
    return %0#0, %0#1 : f32, index
  }

  // A single iter_arg gives a single result.
  // CHECK-LABEL: func.func @for_one_iter_arg(
  // CHECK-SAME: %arg0: index, %arg1: i32) -> i32 {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %c1 = arith.constant 1 : index
  // CHECK-NEXT: %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %arg1) -> (i32) {
  // CHECK-NEXT: %1 = arith.index_cast %arg2 : index to i32
  // CHECK-NEXT: %2 = arith.addi %arg3, %1 : i32
  // CHECK-NEXT: scf.yield %2 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0 : i32
  // CHECK-NEXT: }
  func.func @for_one_iter_arg(%arg0: index, %arg1: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %arg1) -> (i32) {
      %1 = arith.index_cast %arg2 : index to i32
      %2 = arith.addi %arg3, %1 : i32
      scf.yield %2 : i32
    }
    return %0 : i32
  }

  // Integer (non-index) induction variables print their type after the step or
  // the iter_args, with two spaces before the colon: `-> (i32)  : i32 {`.
  // CHECK-LABEL: func.func @for_integer_iv(
  // CHECK-SAME: %arg0: i32, %arg1: i32, %arg2: i32) -> i32 {
  // CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
  // CHECK-NEXT: %0 = scf.for %arg3 = %arg0 to %arg1 step %arg2 iter_args(%arg4 = %c0_i32) -> (i32)  : i32 {
  // CHECK-NEXT: %1 = arith.addi %arg4, %arg3 : i32
  // CHECK-NEXT: scf.yield %1 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0 : i32
  // CHECK-NEXT: }
  func.func @for_integer_iv(%arg0: i32, %arg1: i32, %arg2: i32) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %0 = scf.for %arg3 = %arg0 to %arg1 step %arg2 iter_args(%arg4 = %c0_i32) -> (i32)  : i32 {
      %1 = arith.addi %arg4, %arg3 : i32
      scf.yield %1 : i32
    }
    return %0 : i32
  }

  // Unsigned comparison of the bounds (`step %arg2  : i32`, two spaces again).
  // CHECK-LABEL: func.func @for_unsigned(
  // CHECK-SAME: %arg0: i32, %arg1: i32, %arg2: i32) {
  // CHECK-NEXT: scf.for unsigned %arg3 = %arg0 to %arg1 step %arg2  : i32 {
  // CHECK-NEXT: %0 = arith.addi %arg3, %arg3 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  func.func @for_unsigned(%arg0: i32, %arg1: i32, %arg2: i32) {
    scf.for unsigned %arg3 = %arg0 to %arg1 step %arg2  : i32 {
      %0 = arith.addi %arg3, %arg3 : i32
    }
    return
  }

  // Nested loops; the constant inside is %cst_0 (the suffix counter covers the
  // whole function).
  // CHECK-LABEL: func.func @for_nested(
  // CHECK-SAME: %arg0: index, %arg1: index) -> f32 {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %c1 = arith.constant 1 : index
  // CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
  // CHECK-NEXT: %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %cst) -> (f32) {
  // CHECK-NEXT: %1 = scf.for %arg4 = %c0 to %arg1 step %c1 iter_args(%arg5 = %arg3) -> (f32) {
  // CHECK-NEXT: %cst_0 = arith.constant 1.000000e+00 : f32
  // CHECK-NEXT: %2 = arith.addf %arg5, %cst_0 : f32
  // CHECK-NEXT: scf.yield %2 : f32
  // CHECK-NEXT: }
  // CHECK-NEXT: scf.yield %1 : f32
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0 : f32
  // CHECK-NEXT: }
  func.func @for_nested(%arg0: index, %arg1: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %cst) -> (f32) {
      %1 = scf.for %arg4 = %c0 to %arg1 step %c1 iter_args(%arg5 = %arg3) -> (f32) {
        %cst_0 = arith.constant 1.000000e+00 : f32
        %2 = arith.addf %arg5, %cst_0 : f32
        scf.yield %2 : f32
      }
      scf.yield %1 : f32
    }
    return %0 : f32
  }

  // scf.if without results and without else.
  // CHECK-LABEL: func.func @if_then(
  // CHECK-SAME: %arg0: i1, %arg1: i32) {
  // CHECK-NEXT: scf.if %arg0 {
  // CHECK-NEXT: %0 = arith.addi %arg1, %arg1 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  func.func @if_then(%arg0: i1, %arg1: i32) {
    scf.if %arg0 {
      %0 = arith.addi %arg1, %arg1 : i32
    }
    return
  }

  // scf.if without results, with else.
  // CHECK-LABEL: func.func @if_then_else(
  // CHECK-SAME: %arg0: i1, %arg1: i32) {
  // CHECK-NEXT: scf.if %arg0 {
  // CHECK-NEXT: %0 = arith.addi %arg1, %arg1 : i32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: %0 = arith.muli %arg1, %arg1 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  func.func @if_then_else(%arg0: i1, %arg1: i32) {
    scf.if %arg0 {
      %0 = arith.addi %arg1, %arg1 : i32
    } else {
      %0 = arith.muli %arg1, %arg1 : i32
    }
    return
  }

  // scf.if with results. Sibling regions reuse value numbers (%1 in both the
  // else region here and the then region of a following op).
  // CHECK-LABEL: func.func @if_results(
  // CHECK-SAME: %arg0: i1, %arg1: i32, %arg2: f32) -> (i32, f32) {
  // CHECK-NEXT: %0:2 = scf.if %arg0 -> (i32, f32) {
  // CHECK-NEXT: scf.yield %arg1, %arg2 : i32, f32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: %1 = arith.addi %arg1, %arg1 : i32
  // CHECK-NEXT: %2 = arith.negf %arg2 : f32
  // CHECK-NEXT: scf.yield %1, %2 : i32, f32
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0#0, %0#1 : i32, f32
  // CHECK-NEXT: }
  func.func @if_results(%arg0: i1, %arg1: i32, %arg2: f32) -> (i32, f32) {
    %0:2 = scf.if %arg0 -> (i32, f32) {
      scf.yield %arg1, %arg2 : i32, f32
    } else {
      %1 = arith.addi %arg1, %arg1 : i32
      %2 = arith.negf %arg2 : f32
      scf.yield %1, %2 : i32, f32
    }
    return %0#0, %0#1 : i32, f32
  }

  // An empty else region is kept and printed.
  // CHECK-LABEL: func.func @if_empty_else(
  // CHECK-SAME: %arg0: i1) {
  // CHECK-NEXT: scf.if %arg0 {
  // CHECK-NEXT: } else {
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  func.func @if_empty_else(%arg0: i1) {
    scf.if %arg0 {
    } else {
    }
    return
  }

  // scf.if inside scf.for, with a shaped result.
  // CHECK-LABEL: func.func @if_in_for(
  // CHECK-SAME: %arg0: index, %arg1: vector<4xf32>) -> vector<4xf32> {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %c1 = arith.constant 1 : index
  // CHECK-NEXT: %c2 = arith.constant 2 : index
  // CHECK-NEXT: %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %arg1) -> (vector<4xf32>) {
  // CHECK-NEXT: %1 = arith.remui %arg2, %c2 : index
  // CHECK-NEXT: %2 = arith.cmpi eq, %1, %c0 : index
  // CHECK-NEXT: %3 = scf.if %2 -> (vector<4xf32>) {
  // CHECK-NEXT: %4 = arith.addf %arg3, %arg3 : vector<4xf32>
  // CHECK-NEXT: scf.yield %4 : vector<4xf32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %arg3 : vector<4xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: scf.yield %3 : vector<4xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0 : vector<4xf32>
  // CHECK-NEXT: }
  func.func @if_in_for(%arg0: index, %arg1: vector<4xf32>) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0 = scf.for %arg2 = %c0 to %arg0 step %c1 iter_args(%arg3 = %arg1) -> (vector<4xf32>) {
      %1 = arith.remui %arg2, %c2 : index
      %2 = arith.cmpi eq, %1, %c0 : index
      %3 = scf.if %2 -> (vector<4xf32>) {
        %4 = arith.addf %arg3, %arg3 : vector<4xf32>
        scf.yield %4 : vector<4xf32>
      } else {
        scf.yield %arg3 : vector<4xf32>
      }
      scf.yield %3 : vector<4xf32>
    }
    return %0 : vector<4xf32>
  }

  // scf.while: the before region ends in scf.condition, the after region in
  // scf.yield; the short form binds the before-region arguments in the header.
  // CHECK-LABEL: func.func @while(
  // CHECK-SAME: %arg0: i32, %arg1: i32) -> i32 {
  // CHECK-NEXT: %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
  // CHECK-NEXT: %1 = arith.cmpi slt, %arg2, %arg1 : i32
  // CHECK-NEXT: scf.condition(%1) %arg2 : i32
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%arg2: i32):
  // CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
  // CHECK-NEXT: %1 = arith.addi %arg2, %c1_i32 : i32
  // CHECK-NEXT: scf.yield %1 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0 : i32
  // CHECK-NEXT: }
  func.func @while(%arg0: i32, %arg1: i32) -> i32 {
    %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
      %1 = arith.cmpi slt, %arg2, %arg1 : i32
      scf.condition(%1) %arg2 : i32
    } do {
    ^bb0(%arg2: i32):
      %c1_i32 = arith.constant 1 : i32
      %1 = arith.addi %arg2, %c1_i32 : i32
      scf.yield %1 : i32
    }
    return %0 : i32
  }

  // scf.while with different before/after types and several values.
  // CHECK-LABEL: func.func @while_types(
  // CHECK-SAME: %arg0: i32, %arg1: f32) -> (i64, f32) {
  // CHECK-NEXT: %0:2 = scf.while (%arg2 = %arg0, %arg3 = %arg1) : (i32, f32) -> (i64, f32) {
  // CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
  // CHECK-NEXT: %1 = arith.cmpi sgt, %arg2, %c0_i32 : i32
  // CHECK-NEXT: %2 = arith.extsi %arg2 : i32 to i64
  // CHECK-NEXT: scf.condition(%1) %2, %arg3 : i64, f32
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%arg2: i64, %arg3: f32):
  // CHECK-NEXT: %1 = arith.trunci %arg2 : i64 to i32
  // CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
  // CHECK-NEXT: %2 = arith.subi %1, %c1_i32 : i32
  // CHECK-NEXT: %3 = arith.addf %arg3, %arg3 : f32
  // CHECK-NEXT: scf.yield %2, %3 : i32, f32
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0#0, %0#1 : i64, f32
  // CHECK-NEXT: }
  func.func @while_types(%arg0: i32, %arg1: f32) -> (i64, f32) {
    %0:2 = scf.while (%arg2 = %arg0, %arg3 = %arg1) : (i32, f32) -> (i64, f32) {
      %c0_i32 = arith.constant 0 : i32
      %1 = arith.cmpi sgt, %arg2, %c0_i32 : i32
      %2 = arith.extsi %arg2 : i32 to i64
      scf.condition(%1) %2, %arg3 : i64, f32
    } do {
    ^bb0(%arg2: i64, %arg3: f32):
      %1 = arith.trunci %arg2 : i64 to i32
      %c1_i32 = arith.constant 1 : i32
      %2 = arith.subi %1, %c1_i32 : i32
      %3 = arith.addf %arg3, %arg3 : f32
      scf.yield %2, %3 : i32, f32
    }
    return %0#0, %0#1 : i64, f32
  }

  // scf.while with no loop-carried values.
  // CHECK-LABEL: func.func @while_empty(
  // CHECK-SAME: %arg0: i1) {
  // CHECK-NEXT: scf.while : () -> () {
  // CHECK-NEXT: scf.condition(%arg0)
  // CHECK-NEXT: } do {
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  func.func @while_empty(%arg0: i1) {
    scf.while : () -> () {
      scf.condition(%arg0)
    } do {
      scf.yield
    }
    return
  }

  // Inside scf regions the func dialect is not the default one: calls print as
  // `func.call` there, and as `call` directly in a function body.
  // CHECK-LABEL: func.func private @callee(
  // CHECK-SAME: index) -> i1
  func.func private @callee(index) -> i1

  // CHECK-LABEL: func.func @call_in_regions(
  // CHECK-SAME: %arg0: index) -> i1 {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %c1 = arith.constant 1 : index
  // CHECK-NEXT: %0 = call @callee(%c0) : (index) -> i1
  // CHECK-NEXT: scf.for %arg1 = %c0 to %arg0 step %c1 {
  // CHECK-NEXT: %1 = func.call @callee(%arg1) : (index) -> i1
  // CHECK-NEXT: scf.if %1 {
  // CHECK-NEXT: %2 = func.call @callee(%arg1) : (index) -> i1
  // CHECK-NEXT: }
  // CHECK-NEXT: }
  // CHECK-NEXT: return %0 : i1
  // CHECK-NEXT: }
  func.func @call_in_regions(%arg0: index) -> i1 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = call @callee(%c0) : (index) -> i1
    scf.for %arg1 = %c0 to %arg0 step %c1 {
      %1 = func.call @callee(%arg1) : (index) -> i1
      scf.if %1 {
        %2 = func.call @callee(%arg1) : (index) -> i1
      }
    }
    return %0 : i1
  }
}
