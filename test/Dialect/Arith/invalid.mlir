// Verifier and parser errors of the arith dialect, with mlir-opt's messages.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// Integer ops take signless integers (or index), scalar or shaped.
func.func @addi_float(%a: f32) {
  // expected-error @+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.addi %a, %a : f32
  return
}

// -----

func.func @muli_unsigned(%a: ui32) {
  // expected-error @+1 {{'arith.muli' op operand #0 must be signless-integer-like, but got 'ui32'}}
  %0 = arith.muli %a, %a : ui32
  return
}

// -----

func.func @shli_vector_float(%a: vector<4xf32>) {
  // expected-error @+1 {{'arith.shli' op operand #0 must be signless-integer-like, but got 'vector<4xf32>'}}
  %0 = arith.shli %a, %a : vector<4xf32>
  return
}

// -----

// Float ops take floats.
func.func @addf_int(%a: i32) {
  // expected-error @+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %a, %a : i32
  return
}

// -----

func.func @negf_int(%a: i32) {
  // expected-error @+1 {{'arith.negf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.negf %a : i32
  return
}

// -----

func.func @maximumf_tensor_int(%a: tensor<4xi8>) {
  // expected-error @+1 {{'arith.maximumf' op operand #0 must be floating-point-like, but got 'tensor<4xi8>'}}
  %0 = arith.maximumf %a, %a : tensor<4xi8>
  return
}

// -----

// SameOperandsAndResultType, only expressible in the generic form.
func.func @addi_mismatch(%a: i32, %b: i64) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @addf_result_mismatch(%a: f32) {
  // expected-error @+1 {{'arith.addf' op requires the same type for all operands and results}}
  %0 = "arith.addf"(%a, %a) : (f32, f32) -> f64
  return
}

// -----

func.func @andi_shape_mismatch(%a: vector<4xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'arith.andi' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "arith.andi"(%a, %b) : (vector<4xi32>, tensor<4xi32>) -> vector<4xi32>
  return
}

// -----

func.func @subi_operand_count(%a: i32) {
  // expected-error @+1 {{'arith.subi' op expected 2 operands, but found 1}}
  %0 = "arith.subi"(%a) : (i32) -> i32
  return
}

// -----

// Flags only where the op has them.
func.func @divsi_overflow(%a: i32) {
  // expected-error @+1 {{expected ':'}}
  %0 = arith.divsi %a, %a overflow<nsw> : i32
  return
}

// -----

func.func @addi_fastmath(%a: i32) {
  // expected-error @+1 {{expected ':'}}
  %0 = arith.addi %a, %a fastmath<fast> : i32
  return
}

// -----

func.func @unknown_fastmath_flag(%a: f32) {
  // expected-error @+2 {{custom op 'arith.addf' expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  // expected-error @+1 {{custom op 'arith.addf' failed to parse Arith_FastMathAttr parameter 'value' which is to be a `::mlir::arith::FastMathFlags`}}
  %0 = arith.addf %a, %a fastmath<quick> : f32
  return
}

// -----

func.func @unknown_overflow_flag(%a: i32) {
  // expected-error @+2 {{custom op 'arith.addi' expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  // expected-error @+1 {{custom op 'arith.addi' failed to parse Arith_IntegerOverflowAttr parameter 'value' which is to be a `::mlir::arith::IntegerOverflowFlags`}}
  %0 = arith.addi %a, %a overflow<nsx> : i32
  return
}

// -----

// Casts: extf must widen.
func.func @extf_narrow(%a: f32) {
  // expected-error @+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %a : f32 to f16
  return
}

// -----

func.func @extf_same(%a: f32) {
  // expected-error @+1 {{'arith.extf' op operand type 'f32' and result type 'f32' are cast incompatible}}
  %0 = arith.extf %a : f32 to f32
  return
}

// -----

// truncf must narrow.
func.func @truncf_widen(%a: f16) {
  // expected-error @+1 {{'arith.truncf' op operand type 'f16' and result type 'f32' are cast incompatible}}
  %0 = arith.truncf %a : f16 to f32
  return
}

// -----

// extsi and extui must widen.
func.func @extsi_narrow(%a: i32) {
  // expected-error @+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @extui_same(%a: i32) {
  // expected-error @+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %a : i32 to i32
  return
}

// -----

// trunci must narrow.
func.func @trunci_widen(%a: i8) {
  // expected-error @+1 {{'arith.trunci' op operand type 'i8' and result type 'i32' are cast incompatible}}
  %0 = arith.trunci %a : i8 to i32
  return
}

// -----

func.func @extsi_to_float(%a: i32) {
  // expected-error @+1 {{'arith.extsi' op result #0 must be signless-fixed-width-integer-like, but got 'f64'}}
  %0 = arith.extsi %a : i32 to f64
  return
}

// -----

func.func @extf_from_int(%a: i32) {
  // expected-error @+1 {{'arith.extf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.extf %a : i32 to f64
  return
}

// -----

func.func @sitofp_from_float(%a: f32) {
  // expected-error @+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %0 = arith.sitofp %a : f32 to f64
  return
}

// -----

func.func @uitofp_to_int(%a: i32) {
  // expected-error @+1 {{'arith.uitofp' op result #0 must be floating-point-like, but got 'i64'}}
  %0 = arith.uitofp %a : i32 to i64
  return
}

// -----

func.func @fptosi_from_int(%a: i32) {
  // expected-error @+1 {{'arith.fptosi' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.fptosi %a : i32 to i64
  return
}

// -----

func.func @fptoui_to_float(%a: f32) {
  // expected-error @+1 {{'arith.fptoui' op result #0 must be signless-fixed-width-integer-like, but got 'f64'}}
  %0 = arith.fptoui %a : f32 to f64
  return
}

// -----

// index_cast needs an index on one side.
func.func @index_cast_no_index(%a: i32) {
  // expected-error @+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @index_castui_float(%a: f32) {
  // expected-error @+1 {{'arith.index_castui' op operand #0 must be signless-integer-like or memref of signless-integer, but got 'f32'}}
  %0 = arith.index_castui %a : f32 to index
  return
}

// -----

// bitcast needs equal bit widths.
func.func @bitcast_width(%a: i32) {
  // expected-error @+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
  %0 = arith.bitcast %a : i32 to f64
  return
}

// -----

// Casts keep the shape.
func.func @extsi_shape(%a: vector<4xi16>) {
  // expected-error @+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %a : vector<4xi16> to vector<8xi32>
  return
}

// -----

func.func @extf_scalar_to_vector(%a: f16) {
  // expected-error @+1 {{'arith.extf' op requires the same shape for all operands and results}}
  %0 = arith.extf %a : f16 to vector<4xf32>
  return
}

// -----

func.func @truncf_bad_rounding(%a: f32) {
  // expected-error @+1 {{expected ':'}}
  %0 = arith.truncf %a sideways : f32 to f16
  return
}

// -----

// select: the condition is i1 or a shaped i1 of the operands' shape.
func.func @select_cond_int(%c: i32, %a: f32) {
  // expected-error @+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = arith.select %c, %a, %a : i32, f32
  return
}

// -----

func.func @select_cond_shape(%c: vector<2xi1>, %a: vector<4xf32>) {
  // expected-error @+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %a, %a : vector<2xi1>, vector<4xf32>
  return
}

// -----

// (A vector condition with scalar operands crashes mlir-opt 22's verifier, so
// it is not tested here.)
func.func @select_container_mismatch(%c: tensor<4xi1>, %a: vector<4xf32>) {
  // expected-error @+1 {{'arith.select' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.select %c, %a, %a : tensor<4xi1>, vector<4xf32>
  return
}

// -----

func.func @select_operand_mismatch(%c: i1, %a: f32, %b: f64) {
  // expected-error @+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %a, %b) : (i1, f32, f64) -> f32
  return
}

// -----

// cmpi and cmpf predicates.
func.func @cmpi_bad_predicate(%a: i32) {
  // expected-error @+1 {{custom op 'arith.cmpi' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi foo, %a, %a : i32
  return
}

// -----

func.func @cmpf_bad_predicate(%a: f32) {
  // expected-error @+1 {{custom op 'arith.cmpf' expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  %0 = arith.cmpf slt, %a, %a : f32
  return
}

// -----

func.func @cmpi_predicate_out_of_range(%a: i32) {
  // expected-error @+1 {{invalid properties {predicate = 10 : i64} for op arith.cmpi: Invalid attribute `predicate` in property conversion: 10 : i64}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 10 : i64}> : (i32, i32) -> i1
  return
}

// -----

func.func @cmpf_predicate_out_of_range(%a: f32) {
  // expected-error @+1 {{invalid properties {predicate = 16 : i64} for op arith.cmpf: Invalid attribute `predicate` in property conversion: 16 : i64}}
  %0 = "arith.cmpf"(%a, %a) <{predicate = 16 : i64}> : (f32, f32) -> i1
  return
}

// -----

func.func @cmpi_float(%a: f32) {
  // expected-error @+1 {{custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got 'f32'}}
  %0 = arith.cmpi eq, %a, %a : f32
  return
}

// -----

func.func @cmpf_int(%a: i32) {
  // expected-error @+1 {{custom op 'arith.cmpf' 'lhs' must be floating-point-like, but got 'i32'}}
  %0 = arith.cmpf oeq, %a, %a : i32
  return
}

// -----

func.func @cmpi_result_type(%a: i32) {
  // expected-error @+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (i32, i32) -> i32
  return
}

// -----

func.func @cmpi_result_shape(%a: vector<4xi32>) {
  // expected-error @+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (vector<4xi32>, vector<4xi32>) -> vector<2xi1>
  return
}

// -----

func.func @cmpi_missing_predicate(%a: i32) {
  // expected-error @+1 {{'arith.cmpi' op requires attribute 'predicate'}}
  %0 = "arith.cmpi"(%a, %a) : (i32, i32) -> i1
  return
}

// -----

// constant: the value's type is the result type.
func.func @constant_type_mismatch() {
  // expected-error @+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i64}> : () -> i32
  return
}

// -----

func.func @constant_float_for_int() {
  %0 = arith.constant 1.5 : i32
  // expected-error @+1 {{floating point value not valid for specified type}}
  return
}

// -----

func.func @constant_unsigned() {
  // expected-error @+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 3 : ui8
  return
}

// -----

func.func @constant_dense_shape() {
  // expected-error @+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = dense<1> : vector<4xi32>}> : () -> vector<8xi32>
  return
}

// -----

func.func @constant_float_width() {
  // expected-error @+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1.0 : f32}> : () -> f64
  return
}

// -----

func.func @constant_string() {
  // expected-error @+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = "str"}> : () -> i32
  return
}

// -----

func.func @constant_missing_value() {
  // expected-error @+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i32
  return
}

// -----

func.func @constant_int_out_of_range() {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = arith.constant 256 : i8
  return
}

// -----

// bitcast takes signless integers and floats, not index.
func.func @bitcast_index(%a: index) {
  // expected-error @+1 {{'arith.bitcast' op operand #0 must be signless-integer-or-float-like or memref of signless-integer or float, but got 'index'}}
  %0 = arith.bitcast %a : index to i64
  return
}

// -----

// An untyped (string) value gives a `none` result; that is no constant.
func.func @constant_string() {
  // expected-error @+1 {{'arith.constant' op value must be an integer, float, or elements attribute}}
  %0 = arith.constant "s"
  return
}
