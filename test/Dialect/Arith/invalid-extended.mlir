// Verifier errors of the arith ops of two results, ceildivui and the
// scaling casts, with mlir-opt's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @scaling_extf_narrows(%x: f32, %s: f8E8M0FNU) {
  // expected-error @+1 {{'arith.scaling_extf' op operand types 'f32', 'f8E8M0FNU' and result type 'f16' are cast incompatible}}
  %0 = arith.scaling_extf %x, %s : f32, f8E8M0FNU to f16
  return
}

// -----

func.func @scaling_truncf_widens(%x: f16, %s: f8E8M0FNU) {
  // expected-error @+1 {{'arith.scaling_truncf' op operand types 'f16', 'f8E8M0FNU' and result type 'f32' are cast incompatible}}
  %0 = arith.scaling_truncf %x, %s : f16, f8E8M0FNU to f32
  return
}

// -----

func.func @overflow_scalar(%x: vector<2xi32>) {
  // expected-error @+1 {{'arith.addui_extended' op if an operand is non-scalar, then all results must be non-scalar}}
  %0:2 = "arith.addui_extended"(%x, %x) : (vector<2xi32>, vector<2xi32>) -> (vector<2xi32>, i1)
  return
}

// -----

func.func @overflow_not_bool(%x: i32) {
  // expected-error @+1 {{'arith.addui_extended' op result #1 must be bool-like, but got 'i32'}}
  %0:2 = "arith.addui_extended"(%x, %x) : (i32, i32) -> (i32, i32)
  return
}

// -----

func.func @mul_types(%x: i32, %y: i64) {
  // expected-error @+1 {{'arith.mulsi_extended' op failed to verify that all of {lhs, rhs, low, high} have same type}}
  %0:2 = "arith.mulsi_extended"(%x, %y) : (i32, i64) -> (i32, i32)
  return
}
