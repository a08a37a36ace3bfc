// Verifier and parser errors of the func dialect, with mlir-opt's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// func.return must match the function's result types.
func.func @return_count() -> i32 {
  // expected-error @+1 {{'func.return' op has 0 operands, but enclosing function (@return_count) returns 1}}
  return
}

// -----

func.func @return_too_many(%a: i32) {
  // expected-error @+1 {{'func.return' op has 1 operands, but enclosing function (@return_too_many) returns 0}}
  return %a : i32
}

// -----

func.func @return_type(%a: i64) -> i32 {
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @return_type}}
  return %a : i64
}

// -----

func.func @return_second_type(%a: i32, %b: f32) -> (i32, f64) {
  // expected-error @+1 {{type of return operand 1 ('f32') doesn't match function result type ('f64') in function @return_second_type}}
  return %a, %b : i32, f32
}

// -----

// func.return only inside func.func.
// expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
func.return

// -----

func.func @return_not_last(%a: i32) -> i32 {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  "func.return"(%a) : (i32) -> ()
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}

// -----

func.func @missing_terminator(%a: i32) -> i32 {
  // expected-error @+1 {{block with no terminator, has %0 = "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32}}
  %0 = arith.addi %a, %a : i32
}

// -----

// func.call must name a function with matching types.
func.func @call_unknown() {
  // expected-error @+1 {{'func.call' op 'nope' does not reference a valid function}}
  call @nope() : () -> ()
  return
}

// -----

func.func private @callee(i32) -> f32

func.func @call_arg_type(%a: f32) {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0}}
  %0 = call @callee(%a) : (f32) -> f32
  return
}

// -----

func.func private @callee(i32) -> f32

func.func @call_arg_count(%a: i32) {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = call @callee(%a, %a) : (i32, i32) -> f32
  return
}

// -----

func.func private @callee(i32) -> f32

func.func @call_result_type(%a: i32) {
  // expected-error @+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note @+2 {{      op result types: 'i64'}}
  // expected-note @+1 {{function result types: 'f32'}}
  %0 = call @callee(%a) : (i32) -> i64
  return
}

// -----

func.func private @callee(i32) -> f32

func.func @call_result_count(%a: i32) {
  // expected-error @+1 {{'func.call' op incorrect number of results for callee}}
  call @callee(%a) : (i32) -> ()
  return
}

// -----

module @not_a_function {
}

func.func @call_non_function() {
  // expected-error @+1 {{'func.call' op 'not_a_function' does not reference a valid function}}
  call @not_a_function() : () -> ()
  return
}

// -----

func.func @call_missing_callee() {
  // expected-error @+1 {{'func.call' op requires attribute 'callee'}}
  "func.call"() : () -> ()
  return
}

// -----

// Declarations and visibility.
// expected-error @+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @public_declaration(i32)

// -----

// expected-error @+1 {{custom op 'func.func' 'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func @bad_visibility() attributes {sym_visibility = "hidden"} {
  return
}

// -----

// expected-error @+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "hidden"}}
"func.func"() <{function_type = () -> (), sym_name = "bad_visibility_generic", sym_visibility = "hidden"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-note @+1 {{see existing symbol definition here}}
func.func @dup() {
  return
}

// expected-error @+1 {{redefinition of symbol named 'dup'}}
func.func @dup() {
  return
}

// -----

// The entry block's arguments are the function's arguments (generic form).
// expected-error @+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_count"}> ({
^bb0:
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_type"}> ({
^bb0(%a: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op attribute 'function_type' failed to satisfy constraint: type attribute of function type}}
"func.func"() <{function_type = i32, sym_name = "not_a_function_type"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() <{function_type = (i32) -> (), sym_name = "arg_attrs_count", arg_attrs = [{}, {}]}> ({
^bb0(%a: i32):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op requires attribute 'sym_name'}}
"func.func"() <{function_type = () -> ()}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

// Parse errors in the signature.
// expected-error @+1 {{custom op 'func.func' expected SSA identifier}}
func.func @mixed_args(%a: i32, f32) {
  return
}

// -----

// expected-error @+1 {{expected ':'}}
func.func @missing_arg_type(%a) {
  return
}

// -----

// expected-error @+1 {{custom op 'func.func' expected valid '@'-identifier for symbol name}}
func.func () {
  return
}

// -----

// expected-error @+1 {{expected '{' in attribute dictionary}}
func.func @attributes_not_dict() attributes [1] {
  return
}

// -----

// expected-error @+1 {{custom op 'func.func' expected type instead of SSA identifier}}
func.func @types_then_names(i32, %a: i32) {
  return
}

// -----

// FunctionOpInterface: argument and result attributes are dialect
// attributes (their names have a `.`).
// expected-error @+1 {{'func.func' op arguments may only have dialect attributes}}
func.func private @plain_arg_attr(i32 {plain = 1 : i64})

// -----

// expected-error @+1 {{'func.func' op results may only have dialect attributes}}
func.func private @plain_result_attr() -> (i32 {plain})

// -----

// `arg_attrs` may be spelled in the dictionary; its length is checked.
// expected-error @+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
func.func private @arg_attrs_count(i32) attributes {arg_attrs = [{}, {}]}

// -----

// expected-error @+1 {{custom op 'func.func' expected non-empty function body}}
func.func @braces_only() {}

// -----

func.func @outer() {
  // expected-error @+1 {{'func.func' op symbol's parent must have the SymbolTable trait}}
  func.func @inner() {
    return
  }
  return
}

// -----

func.func private @pair() -> (i32, f32)

func.func @call_pair() {
  // expected-error @+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note @+2 {{      op result types: 'f32', 'i32'}}
  // expected-note @+1 {{function result types: 'i32', 'f32'}}
  %0:2 = call @pair() : () -> (f32, i32)
  return
}
