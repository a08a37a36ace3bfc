// Verifier and parser errors of the scf dialect, with mlir-opt's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// scf.for bounds: one integer or index type for all three.
func.func @for_float_bounds(%a: f32) {
  // expected-error @+1 {{'scf.for' op operand #0 must be signless integer or index, but got 'f32'}}
  scf.for %i = %a to %a step %a : f32 {
  }
  return
}

// -----

func.func @for_bound_types(%lb: index, %ub: i32, %step: index) {
  // expected-error @+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%lb, %ub, %step) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @for_iv_type(%lb: index) {
  // expected-error @+1 {{'scf.for' op expected induction variable to be same type as bounds and step}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%i: i32):
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

// No induction variable: mlir-opt computes the iter_args count as 0 - 1 and
// prints it as an unsigned 64-bit number.
func.func @for_no_iv(%lb: index) {
  // expected-error @+1 {{'scf.for' op different number of inits and region iter_args: 0 != 18446744073709551615}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0:
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

// (mlir-opt 22 accepts a constant zero step; it is not tested here.)
// iter_args: one result and one region argument per initial value.
func.func @for_iter_args_results(%lb: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op mismatch in number of loop-carried values and defined values}}
  %0:2 = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index, %a: f32):
    scf.yield %a : f32
  }) : (index, index, index, f32) -> (f32, f32)
  return
}

// -----

func.func @for_iter_args_region_args(%lb: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op different number of inits and region iter_args: 1 != 0}}
  %0 = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @for_iter_arg_type(%lb: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op 0-th init and 0-th region iter_arg have different type: 'f32' != 'f64'}}
  %0 = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index, %a: f64):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @for_result_type(%lb: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op 0-th region iter_arg and 0-th loop result have different type: 'f32' != 'f64'}}
  %0 = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index, %a: f32):
    scf.yield %a : f32
  }) : (index, index, index, f32) -> f64
  return
}

// -----

// The body's scf.yield matches the loop-carried values.
func.func @for_yield_count(%lb: index, %x: f32) -> f32 {
  // expected-error @+1 {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    // expected-note @+1 {{region branch point}}
    scf.yield
  }
  return %0 : f32
}

// -----

func.func @for_yield_type(%lb: index, %x: f32, %y: f64) -> f32 {
  // expected-error @+1 {{'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'f64'}}
  %0 = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    scf.yield %y : f64
  }
  return %0 : f32
}

// -----

// A missing yield is added by the parser (without operands), then fails to verify.
func.func @for_missing_yield(%lb: index, %x: f32) {
  // expected-error @+2 {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  // expected-note @+1 {{region branch point}}
  %0 = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    %1 = arith.addf %a, %a : f32
  }
  return
}

// -----

// Parse errors: iter_args without result types, missing step.
func.func @for_iter_args_no_types(%lb: index, %x: f32) {
  // expected-error @+1 {{expected '->'}}
  %0 = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) {
    scf.yield %a : f32
  }
  return
}

// -----

func.func @for_missing_step(%lb: index) {
  // expected-error @+1 {{custom op 'scf.for' expected 'step'}}
  scf.for %i = %lb to %lb {
  }
  return
}

// -----

// scf.if: results need an else region.
func.func @if_results_no_else(%c: i1, %x: f32) {
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %0 = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @if_condition_type(%c: i32) {
  // expected-error @+1 {{'scf.if' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "scf.if"(%c) ({
    scf.yield
  }, {
  }) : (i32) -> ()
  return
}

// -----

func.func @if_yield_count(%c: i1, %x: f32) {
  // expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    // expected-note @+1 {{region branch point}}
    scf.yield
  }
  return
}

// -----

func.func @if_yield_type(%c: i1, %x: f32, %y: i32) {
  // expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %0 = scf.if %c -> (f32) {
    // expected-note @+1 {{region branch point}}
    scf.yield %y : i32
  } else {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @if_then_args(%c: i1) {
  // expected-error @+1 {{'scf.if' op region #0 should have no arguments}}
  "scf.if"(%c) ({
  ^bb0(%a: i32):
    scf.yield
  }, {
  }) : (i1) -> ()
  return
}

// -----

// Terminators only inside their parent ops.
func.func @yield_outside() {
  // expected-error @+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
  scf.yield
}

// -----

func.func @condition_outside(%c: i1) {
  // expected-error @+1 {{'scf.condition' op expects parent op 'scf.while'}}
  scf.condition(%c)
}

// -----

// scf.while: scf.condition ends the before region, takes an i1 and forwards
// values of the op's result types; the after region takes those values and
// yields the before region's argument types.
func.func @while_condition_type(%x: i32) {
  %0 = scf.while (%a = %x) : (i32) -> i32 {
    // expected-error @+1 {{'scf.condition' op operand #0 must be 1-bit signless integer, but got 'i32'}}
    "scf.condition"(%a, %a) : (i32, i32) -> ()
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return
}

// -----

func.func @while_before_terminator(%x: i32) {
  // expected-error @+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  %0 = scf.while (%a = %x) : (i32) -> i32 {
    // expected-note @+1 {{terminator here}}
    scf.yield %a : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return
}

// -----

func.func @while_condition_args(%x: i32, %c: i1) {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.condition to parent: successor operand type #0 'i64' should match successor input type #0 'i32'}}
  %0 = scf.while (%a = %x) : (i32) -> i32 {
    %w = arith.extsi %a : i32 to i64
    // expected-note @+1 {{region branch point}}
    scf.condition(%c) %w : i64
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return
}

// -----

func.func @while_condition_count(%x: i32, %c: i1) {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.condition to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = scf.while (%a = %x) : (i32) -> i32 {
    // expected-note @+1 {{region branch point}}
    scf.condition(%c)
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return
}

// -----

func.func @while_after_args(%x: i32, %c: i1) {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %0 = scf.while (%a = %x) : (i32) -> i32 {
    // expected-note @+1 {{region branch point}}
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: f32):
    scf.yield %x : i32
  }
  return
}

// -----

func.func @while_yield_type(%x: i32, %c: i1, %f: f32) {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %0 = scf.while (%a = %x) : (i32) -> i32 {
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    // expected-note @+1 {{region branch point}}
    scf.yield %f : f32
  }
  return
}

// -----

func.func @while_init_count(%x: i32, %c: i1) {
  // expected-error @+2 {{'scf.while' op along control flow edge from parent to Region #0: region branch point has 2 operands, but region successor needs 1 inputs}}
  // expected-note @+1 {{region branch point}}
  %0 = "scf.while"(%x, %x) ({
  ^bb0(%a: i32):
    scf.condition(%c) %a : i32
  }, {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }) : (i32, i32) -> i32
  return
}

// -----

// The default dialect inside an scf region is not func: a bare `call` there
// does not parse. (mlir-opt's note goes on with the list of its registered
// dialects; only its start is checked.)
func.func private @f(index)

func.func @bare_call_in_for(%n: index) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %n {
    // expected-error @+2 {{Dialect `' not found for custom op 'call'  (tried '.call' as well)}}
    // expected-note @+1 {{Available dialects: }}
    call @f(%i) : (index) -> ()
  }
  return
}

// -----

func.func @while_types(%x: index) {
  // expected-error @+1 {{custom op 'scf.while' expected as many input types as operands (expected 2 got 1)}}
  scf.while (%a = %x, %b = %x) : (index) -> () {
    scf.condition(%c) %a : index
  } do {
  ^bb0(%a2: index):
    scf.yield %a2 : index
  }
  return
}

// -----

// AllTypesMatch is checked before the region's block count.
func.func @bound_types(%i: index, %n: i32) {
  // expected-error @+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%i, %n, %i) ({}) : (index, i32, index) -> ()
  return
}

// -----

func.func @yield_count(%i: index, %x: f32) {
  // expected-error @+1 {{'scf.for' op different number of region iter_args and yielded values: 2 != 1}}
  %a, %b = "scf.for"(%i, %i, %i, %x, %x) ({
  ^bb0(%iv: index, %p: f32, %q: f32):
    scf.yield %p : f32
  }) : (index, index, index, f32, f32) -> (f32, f32)
  return
}
