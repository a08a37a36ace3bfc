// Verifier and parser errors of scf.parallel, scf.reduce,
// scf.reduce.return and scf.execute_region, and the single-block rule of
// scf.while, with mlir-opt 22's messages (this file passes
// --verify-diagnostics with both tools).
// RUN: strata-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @bound_count(%a: index) {
  // expected-error @+1 {{custom op 'scf.parallel' expected 2 operands}}
  scf.parallel (%i, %j) = (%a) to (%a, %a) step (%a, %a) {
  }
  return
}

// -----

func.func @no_dimension() {
  // expected-error @+1 {{'scf.parallel' op needs at least one tuple element for lowerBound, upperBound and step}}
  "scf.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>}> ({
    scf.reduce
  }) : () -> ()
  return
}

// -----

func.func @zero_step(%a: index) {
  %zero = arith.constant 0 : index
  // expected-error @+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i) = (%a) to (%a) step (%zero) {
  }
  return
}

// -----

func.func @iv_count(%a: index) {
  // expected-error @+1 {{'scf.parallel' op expects the same number of induction variables: 1 as bound and step values: 2}}
  "scf.parallel"(%a, %a, %a, %a, %a, %a) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @iv_type(%a: index) {
  // expected-error @+1 {{'scf.parallel' op expects arguments for the induction variable to be of index type}}
  "scf.parallel"(%a, %a, %a) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: i64):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @yield_in_body(%a: index) {
  // expected-error @+1 {{'scf.parallel' op expects body to terminate with 'scf.reduce'}}
  scf.parallel (%i) = (%a) to (%a) step (%a) {
    // expected-note @+1 {{terminator here}}
    scf.yield
  }
  return
}

// -----

func.func @missing_reduction(%a: index, %x: f32) {
  // expected-error @+1 {{'scf.parallel' op expects number of results: 1 to be the same as number of reductions: 0}}
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
  }
  return
}

// -----

func.func @missing_init(%a: index, %x: f32) {
  // expected-error @+1 {{custom op 'scf.parallel' number of operands and types do not match: got 0 operands and 1 types}}
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// -----

func.func @reduced_type(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @+1 {{'scf.reduce' op expects type of 0-th reduction operand: 'index' to be the same as the 0-th result type: 'f32'}}
    scf.reduce(%i : index) {
    ^bb0(%l: index, %r: index):
      scf.reduce.return %l : index
    }
  }
  return
}

// -----

func.func @reduce_outside(%x: f32) {
  // expected-error @+1 {{'scf.reduce' op expects parent op 'scf.parallel'}}
  scf.reduce(%x : f32) {
  ^bb0(%l: f32, %r: f32):
    scf.reduce.return %l : f32
  }
  return
}

// -----

func.func @reduction_arguments(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @+1 {{'scf.reduce' op expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: i32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// -----

func.func @reduction_terminator(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @+1 {{'scf.reduce' op reduction bodies must be terminated with an 'scf.reduce.return' op}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      "test.end"() : () -> ()
    }
  }
  return
}

// -----

func.func @reduce_return_type(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      // expected-error @+1 {{'scf.reduce.return' op must have type 'f32' (the type of the reduction inputs)}}
      scf.reduce.return %i : index
    }
  }
  return
}

// -----

func.func @reduce_return_outside(%x: f32) {
  // expected-error @+1 {{'scf.reduce.return' op expects parent op 'scf.reduce'}}
  scf.reduce.return %x : f32
}

// -----

func.func @execute_region_arguments() {
  // expected-error @+1 {{'scf.execute_region' op region cannot have any arguments}}
  "scf.execute_region"() ({
  ^bb0(%x: i32):
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @execute_region_empty() {
  // expected-error @+1 {{'scf.execute_region' op region needs to have at least one block}}
  "scf.execute_region"() ({
  }) : () -> ()
  return
}

// -----

func.func @while_empty_block() {
  // expected-error @+1 {{'scf.while' op expects a non-empty block}}
  scf.while : () -> () {
  ^bb0:
  } do {
  ^bb0:
  }
  return
}

// -----

func.func @while_before_terminator() {
  // expected-error @+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  scf.while : () -> () {
    // expected-note @+1 {{terminator here}}
    "test.end"() : () -> ()
  } do {
    scf.yield
  }
  return
}
