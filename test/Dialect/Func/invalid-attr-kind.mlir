// An attribute of the wrong kind where an op's format or properties expect
// a string or a flat symbol reference, with mlir-opt 22's messages (this
// file passes --verify-diagnostics with both tools).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @constant_of_string() {
  // expected-error @+1 {{custom op 'func.constant' invalid kind of attribute specified}}
  %0 = func.constant "" : index
  return
}

// -----

func.func @call_property_string() {
  // expected-error @+1 {{invalid properties {callee = "f"} for op func.call: Invalid attribute `callee` in property conversion: "f"}}
  "func.call"() <{callee = "f"}> : () -> ()
  return
}

// -----

func.func @call_nested_symbol() {
  // expected-error @+1 {{custom op 'func.call' invalid kind of attribute specified}}
  func.call @a::@b() : () -> ()
  return
}
