// Verifier and parser errors of func.constant and func.call_indirect, with
// mlir-opt's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @undefined() {
  // expected-error @+1 {{'func.constant' op reference to undefined function 'nope'}}
  %f = func.constant @nope : () -> ()
  return
}

// -----

func.func private @g(i32)
func.func @mismatch() {
  // expected-error @+1 {{'func.constant' op reference to function with mismatched type}}
  %f = func.constant @g : () -> ()
  return
}

// -----

func.func @not_function(%x: i32) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.function, but found 'i32'}}
  %0 = func.call_indirect %x() : i32
  return
}

// -----

func.func @count(%f: (i32) -> i32) {
  // expected-error @+1 {{number of operands and types do not match: got 0 operands and 1 types}}
  %0 = func.call_indirect %f() : (i32) -> i32
  return
}

// -----

func.func @generic_types(%f: (i32) -> i32, %x: i64) {
  // expected-error @+1 {{'func.call_indirect' op failed to verify that callee input types match argument types}}
  %0 = "func.call_indirect"(%f, %x) : ((i32) -> i32, i64) -> i32
  return
}

// -----

func.func @generic_results(%f: (i32) -> i32, %x: i32) {
  // expected-error @+1 {{'func.call_indirect' op failed to verify that callee result types match result types}}
  %0 = "func.call_indirect"(%f, %x) : ((i32) -> i32, i32) -> i64
  return
}

// -----

func.func @generic_callee(%f: i32) {
  // expected-error @+1 {{'func.call_indirect' op operand #0 must be function type, but got 'i32'}}
  "func.call_indirect"(%f) : (i32) -> ()
  return
}
