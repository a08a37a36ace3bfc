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

// -----

func.func @weights_count(%c: i1) {
  // expected-error @+1 {{expects number of branch weights to match number of successors: 1 vs 2}}
  cf.cond_br %c weights([100]), ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}

// -----

func.func @weights_zero(%c: i1) {
  // expected-error @+1 {{branch weights cannot all be zero}}
  cf.cond_br %c weights([0, 0]), ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}

// -----

func.func @switch_no_default(%f: i32) {
  cf.switch %f : i32, [
    // expected-error @+1 {{expected 'default'}}
    45: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_case_not_integer(%f: i32) {
  cf.switch %f : i32, [
    default: ^bb1,
    // expected-error @+1 {{expected integer value}}
    "hello": ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_missing_comma(%f: i32) {
  cf.switch %f : i32, [
    default: ^bb1,
    // expected-error @+1 {{expected ']'}}
    45: ^bb1
    43: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_case_too_large(%f: i64) {
  cf.switch %f : i64, [
    default: ^bb1,
    // expected-error @+1 {{integer value too large}}
    18446744073709551615: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_flag_float(%f: f32) {
  // expected-error @+1 {{'cf.switch' op operand #0 must be integer, but got 'f32'}}
  "cf.switch"(%f)[^bb1] <{case_operand_segments = array<i32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (f32) -> ()
^bb1:
  return
}

// -----

func.func @switch_value_type(%f: i32) {
  // expected-error @+1 {{'cf.switch' op 'flag' type ('i32') should match case value type ('i64')}}
  "cf.switch"(%f)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[1]> : vector<1xi64>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @switch_value_count(%f: i32) {
  // expected-error @+1 {{'cf.switch' op number of case values (2) should match number of case destinations (1)}}
  "cf.switch"(%f)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0, 0>, case_values = dense<[1, 2]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @switch_segments(%f: i32, %x: i32) {
  // expected-error @+1 {{'cf.switch' op caseOperands count (1) does not match with the total size (0) specified in attribute 'case_operand_segments'}}
  "cf.switch"(%f, %x)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0, 0>, case_values = dense<[1]> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (i32, i32) -> ()
^bb1:
  return
}

// -----

func.func @switch_case_operands(%f: i32, %x: i32) {
  // expected-error @+1 {{branch has 1 operands for successor #1, but target block has 0}}
  cf.switch %f : i32, [
    default: ^bb1,
    4: ^bb1(%x : i32)
  ]
^bb1:
  return
}
