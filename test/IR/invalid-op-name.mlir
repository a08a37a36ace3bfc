// An integer type where an operation should start is "expected operation
// name in quotes", as MLIR's lexer makes `i32` a type token (this file
// passes --verify-diagnostics with both tools).
// RUN: strata-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @missing_colon() {
  // expected-error @+1 {{expected operation name in quotes}}
  %0 = arith.constant 1 i32
  return
}

// -----

// The error is at the end of the token before, as MLIR places it.
// expected-error @+1 {{expected operation name in quotes}}
func.func @signed_type_word() {
  si8
  return
}
