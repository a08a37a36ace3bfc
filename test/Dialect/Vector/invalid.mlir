// Parser and verifier errors of vector.from_elements and vector.extract, with
// mlir-opt's messages.
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

// -----

func.func @extract_element_type(%v: vector<4xf32>) -> f16 {
  // expected-error @+1 {{'vector.extract' op failed to verify that operand and result have same element type}}
  %0 = vector.extract %v[1] : f16 from vector<4xf32>
  return %0 : f16
}

// -----

func.func @extract_rank(%v: vector<4xf32>) -> f32 {
  // expected-error @+1 {{'vector.extract' op expected position attribute of rank no greater than vector rank}}
  %0 = "vector.extract"(%v) <{static_position = array<i64: 1, 2>}> : (vector<4xf32>) -> f32
  return %0 : f32
}

// -----

func.func @extract_out_of_range(%v: vector<4xf32>) -> f32 {
  // expected-error @+1 {{'vector.extract' op expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %v[4] : f32 from vector<4xf32>
  return %0 : f32
}

// -----

func.func @extract_result(%w: vector<2x3xf16>) -> vector<2xf16> {
  // expected-error @+1 {{'vector.extract' op inferred type(s) 'vector<3xf16>' are incompatible with return type(s) of operation 'vector<2xf16>'}}
  %0 = vector.extract %w[1] : vector<2xf16> from vector<2x3xf16>
  return %0 : vector<2xf16>
}
