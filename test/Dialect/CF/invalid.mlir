// Verifier and parser errors of the cf dialect, with mlir-opt's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @br_too_many_operands(%a: i32) {
  // expected-error @+1 {{branch has 1 operands for successor #0, but target block has 0}}
  cf.br ^bb1(%a : i32)
^bb1:
  return
}

// -----

func.func @br_type_mismatch(%a: i32) {
  // expected-error @+1 {{type mismatch for bb argument #0 of successor #0}}
  cf.br ^bb1(%a : i32)
^bb1(%x: i64):
  return
}

// -----

func.func @cond_br_false_operands(%c: i1, %a: i32) {
  // expected-error @+1 {{branch has 0 operands for successor #1, but target block has 1}}
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return
^bb2(%x: i32):
  return
}

// -----

func.func @cond_br_not_i1(%c: i32) {
  // expected-error @+1 {{'cf.cond_br' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "cf.cond_br"(%c)[^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

// A branch back to the entry block (reported at the region's op).
// expected-error @+1 {{entry block of region may not have predecessors}}
func.func @cond_br_entry() {
^bb0:
  %c = arith.constant true
  cf.cond_br %c, ^bb0, ^bb1
^bb1:
  return
}

// -----

func.func @br_not_last(%c: i1) {
  // expected-error @+1 {{operation with block successors must terminate its parent block}}
  "cf.br"()[^bb1] : () -> ()
  return
^bb1:
  return
}

// -----

func.func @weights_not_i32(%c: i1) {
  // expected-error @+1 {{invalid properties {branch_weights = array<i64: 1, 2>, operandSegmentSizes = array<i32: 1, 0, 0>} for op cf.cond_br: Invalid attribute `branch_weights` in property conversion: array<i64: 1, 2>}}
  "cf.cond_br"(%c)[^bb1, ^bb1] <{branch_weights = array<i64: 1, 2>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
^bb1:
  return
}

// -----

func.func @assert_no_message(%c: i1) {
  // expected-error @+1 {{'cf.assert' op requires attribute 'msg'}}
  "cf.assert"(%c) : (i1) -> ()
  return
}
