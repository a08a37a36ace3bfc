// Parser errors for memref layouts, integer widths and vector types, with
// mlir-opt 22's messages and places (this file passes --verify-diagnostics
// with both tools).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{expected list element}}
func.func @memref_empty_layout(memref<2x4xi8, >)

// -----

// expected-error @+1 {{expected ','}}
func.func private @strided_junk() -> memref<?x?xf32, strided<[]?>>

// -----

// expected-error @+1 {{expected the number of strides to match the rank}}
func.func private @strided_rank() -> memref<?x?xf32, strided<[1]>>

// -----

// expected-error @+1 {{invalid integer width}}
func.func @width_past_32_bits(i21312312323120)

// -----

// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
func.func @width_past_limit(i16777216)

// -----

// expected-error @+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
func.func @nested_vector(vector<1 x vector<1xi32>>)

// -----

// expected-error @+1 {{vector types must have positive constant sizes but got 1, 0}}
func.func @zero_size() -> vector<1x0xi32>

// -----

// expected-error @+1 {{vector types must have positive constant sizes but got 2, 0}}
func.func @zero_scalable(vector<2x[0]xi32>)
