// Parser and verifier errors of vector.from_elements, with mlir-opt's
// messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @too_few(%a: f32) -> vector<2xf32> {
  // expected-error @+1 {{custom op 'vector.from_elements' number of operands and types do not match: got 1 operands and 2 types}}
  %0 = vector.from_elements %a : vector<2xf32>
  return %0 : vector<2xf32>
}

// -----

func.func @count(%a: f32) -> vector<2xf32> {
  // expected-error @+1 {{'vector.from_elements' op failed to verify that shaped type 'dest' matches 'elements' element count and types}}
  %0 = "vector.from_elements"(%a) : (f32) -> vector<2xf32>
  return %0 : vector<2xf32>
}

// -----

func.func @element_type(%a: i32, %b: i32) -> vector<2xf32> {
  // expected-error @+1 {{'vector.from_elements' op failed to verify that shaped type 'dest' matches 'elements' element count and types}}
  %0 = "vector.from_elements"(%a, %b) : (i32, i32) -> vector<2xf32>
  return %0 : vector<2xf32>
}

// -----

func.func @not_a_vector(%a: f32) -> f32 {
  // expected-error @+1 {{'vector.from_elements' op result #0 must be fixed-length vector of any type values, but got 'f32'}}
  %0 = "vector.from_elements"(%a) : (f32) -> f32
  return %0 : f32
}

// -----

func.func @scalable(%a: f32) -> vector<[1]xf32> {
  // expected-error @+1 {{'vector.from_elements' op result #0 must be fixed-length vector of any type values, but got 'vector<[1]xf32>'}}
  %0 = "vector.from_elements"(%a) : (f32) -> vector<[1]xf32>
  return %0 : vector<[1]xf32>
}

// -----

func.func @custom_not_a_vector(%a: f32) -> f32 {
  // expected-error @+1 {{custom op 'vector.from_elements' invalid kind of type specified: expected builtin.vector, but found 'f32'}}
  %0 = vector.from_elements %a : f32
  return %0 : f32
}
