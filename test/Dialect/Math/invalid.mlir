// Verifier and parser errors of the math dialect, with mlir-opt's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// The ops in scope take floats (scalar, vector or tensor).
func.func @exp_int(%a: i32) {
  // expected-error @+1 {{'math.exp' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = math.exp %a : i32
  return
}

// -----

func.func @log_vector_int(%a: vector<4xi32>) {
  // expected-error @+1 {{'math.log' op operand #0 must be floating-point-like, but got 'vector<4xi32>'}}
  %0 = math.log %a : vector<4xi32>
  return
}

// -----

func.func @erf_index(%a: index) {
  // expected-error @+1 {{'math.erf' op operand #0 must be floating-point-like, but got 'index'}}
  %0 = math.erf %a : index
  return
}

// -----

func.func @cos_complex(%a: complex<f32>) {
  // expected-error @+1 {{'math.cos' op operand #0 must be floating-point-like, but got 'complex<f32>'}}
  %0 = math.cos %a : complex<f32>
  return
}

// -----

func.func @absf_int(%a: i64) {
  // expected-error @+1 {{'math.absf' op operand #0 must be floating-point-like, but got 'i64'}}
  %0 = math.absf %a : i64
  return
}

// -----

func.func @powf_int(%a: i32) {
  // expected-error @+1 {{'math.powf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = math.powf %a, %a : i32
  return
}

// -----

func.func @fma_int(%a: i32) {
  // expected-error @+1 {{'math.fma' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = math.fma %a, %a, %a : i32
  return
}

// -----

// SameOperandsAndResultType, in the generic form.
func.func @sqrt_result_mismatch(%a: f32) {
  // expected-error @+1 {{'math.sqrt' op requires the same type for all operands and results}}
  %0 = "math.sqrt"(%a) : (f32) -> f64
  return
}

// -----

func.func @powf_operand_mismatch(%a: f32, %b: f64) {
  // expected-error @+1 {{'math.powf' op requires the same type for all operands and results}}
  %0 = "math.powf"(%a, %b) : (f32, f64) -> f32
  return
}

// -----

func.func @fma_operand_mismatch(%a: vector<4xf32>, %b: vector<8xf32>) {
  // expected-error @+1 {{'math.fma' op requires the same type for all operands and results}}
  %0 = "math.fma"(%a, %b, %a) : (vector<4xf32>, vector<8xf32>, vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @fma_operand_count(%a: f32) {
  // expected-error @+1 {{'math.fma' op expected 3 operands, but found 2}}
  %0 = "math.fma"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @tanh_results(%a: f32) {
  // expected-error @+1 {{'math.tanh' op requires one result}}
  %0:2 = "math.tanh"(%a) : (f32) -> (f32, f32)
  return
}

// -----

// Flags: fastmath only, with the arith flag names.
func.func @rsqrt_bad_fastmath(%a: f32) {
  // expected-error @+2 {{custom op 'math.rsqrt' expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  // expected-error @+1 {{custom op 'math.rsqrt' failed to parse Arith_FastMathAttr parameter 'value' which is to be a `::mlir::arith::FastMathFlags`}}
  %0 = math.rsqrt %a fastmath<fastest> : f32
  return
}

// -----

func.func @sin_overflow(%a: f32) {
  // expected-error @+1 {{expected ':'}}
  %0 = math.sin %a overflow<nsw> : f32
  return
}

// -----

func.func @exp_fastmath_property(%a: f32) {
  // expected-error @+1 {{invalid properties {fastmath = 1 : i32} for op math.exp: Invalid attribute `fastmath` in property conversion: 1 : i32}}
  %0 = "math.exp"(%a) <{fastmath = 1 : i32}> : (f32) -> f32
  return
}

// -----

// A classification gives i1 in the operand's shape.
func.func @isnan_result(%x: f32) {
  // expected-error @+1 {{'math.isnan' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isnan"(%x) : (f32) -> vector<2xi1>
  return
}

// -----

func.func @sincos_types(%x: f32) {
  // expected-error @+1 {{'math.sincos' op failed to verify that all of {operand, sin, cos} have same type}}
  %0:2 = "math.sincos"(%x) : (f32) -> (f32, f64)
  return
}

// -----

func.func @fpowi_shape(%x: f32, %i: vector<2xi32>) {
  // expected-error @+1 {{'math.fpowi' op requires the same shape for all operands and results}}
  %0 = "math.fpowi"(%x, %i) : (f32, vector<2xi32>) -> f32
  return
}

// -----

func.func @absi_float(%x: f32) {
  // expected-error @+1 {{'math.absi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "math.absi"(%x) : (f32) -> f32
  return
}

// -----

func.func @atan2_types(%x: f32, %y: f64) {
  // expected-error @+1 {{'math.atan2' op requires the same type for all operands and results}}
  %0 = "math.atan2"(%x, %y) : (f32, f64) -> f32
  return
}
