// Verifier and parser errors of scf.forall and scf.forall.in_parallel,
// with mlir-opt 22's messages (this file passes --verify-diagnostics with
// both tools).
// RUN: strata-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @combining_op(%t: tensor<4xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    // expected-error @+1 {{'scf.forall.in_parallel' op expected only ParallelCombiningOpInterface ops}}
    scf.forall.in_parallel {
      %c = arith.constant 1 : index
    }
  }
  return
}

// -----

func.func @mapping_kind() {
  // expected-error @+1 {{'scf.forall' op attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute}}
  scf.forall (%i) in (4) {
  } {mapping = [1]}
  return
}

// -----

func.func @step_count() {
  // expected-error @+1 {{expected 1 step values, got 2}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1, 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({}) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @result_count(%t: tensor<4xf32>) {
  // expected-error @+1 {{'scf.forall' op produces 2 results, but has only 1 outputs}}
  %r:2 = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index, %o: tensor<4xf32>):
    "scf.forall.in_parallel"() ({}) : () -> ()
  }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @argument_count(%t: tensor<4xf32>) {
  // expected-error @+1 {{'scf.forall' op region expects 1 arguments}}
  %r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({}) : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @output_type(%t: tensor<4xf32>) {
  // expected-error @+1 {{'scf.forall' op type mismatch between 0-th output and corresponding block argument}}
  %r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index, %o: tensor<5xf32>):
    "scf.forall.in_parallel"() ({}) : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @index_argument() {
  // expected-error @+1 {{'scf.forall' op expects 0-th block argument to be an index}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: i32):
    "scf.forall.in_parallel"() ({}) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @terminator() {
  // expected-error @+2 {{'scf.forall' op expects regions to end with 'scf.forall.in_parallel', found 'test.foo'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'scf.forall.in_parallel'}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index):
    "test.foo"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @in_parallel_parent() {
  // expected-error @+1 {{'scf.forall.in_parallel' op expects parent op 'scf.forall'}}
  "scf.forall.in_parallel"() ({
  ^bb0:
  }) : () -> ()
  return
}

// -----

func.func @dynamic_count() {
  // expected-error @+1 {{expected 1 dynamic upper bound values}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({}) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @shared_out_count(%t: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'scf.forall' number of operands and types do not match: got 2 operands and 1 types}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t, %p = %t) -> (tensor<4xf32>) {
  }
  return
}
