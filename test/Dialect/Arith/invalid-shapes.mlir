// The shape rules of arith's casts and constants, in mlir-opt 22's order:
// a ranked tensor's dimensions are compared first (the dimensions of a
// tensor operand and result must be equal, `?` included), then the shapes
// (where `?` fits any size, but a scalable vector dimension fits only a
// scalable one); a scalable vector constant must be a splat. This file
// passes --verify-diagnostics with both tools.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @rank_zero_to_one(%t: tensor<index>) {
  // expected-error @+1 {{'arith.index_cast' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.index_cast %t : tensor<index> to tensor<3xi64>
  return
}

// -----

func.func @static_to_dynamic(%t: tensor<3xi16>) {
  // expected-error @+1 {{'arith.extui' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extui %t : tensor<3xi16> to tensor<?xi32>
  return
}

// -----

func.func @static_to_dynamic_float(%t: tensor<3xf64>) {
  // expected-error @+1 {{'arith.truncf' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.truncf %t : tensor<3xf64> to tensor<?xf32>
  return
}

// -----

func.func @tensor_to_scalar(%t: tensor<f32>) {
  // expected-error @+1 {{'arith.fptosi' op requires the same shape for all operands and results}}
  %0 = arith.fptosi %t : tensor<f32> to i32
  return
}

// -----

func.func @scalable_to_fixed(%v: vector<[8]xi16>) {
  // expected-error @+1 {{'arith.sitofp' op requires the same shape for all operands and results}}
  %0 = arith.sitofp %v : vector<[8]xi16> to vector<8xf32>
  return
}

// -----

func.func @fixed_to_scalable(%v: vector<2x4xf32>) {
  // expected-error @+1 {{'arith.bitcast' op requires the same shape for all operands and results}}
  %0 = arith.bitcast %v : vector<2x4xf32> to vector<2x[4]xi32>
  return
}

// -----

func.func @scalable_ok(%v: vector<[8]xi16>, %w: vector<2x[4]xf32>) {
  %0 = arith.sitofp %v : vector<[8]xi16> to vector<[8]xf32>
  %1 = arith.bitcast %w : vector<2x[4]xf32> to vector<2x[4]xi32>
  %2 = arith.constant dense<7> : vector<[4]xi8>
  return
}

// -----

func.func @scalable_constant() {
  // expected-error @+1 {{'arith.constant' op intializing scalable vectors with elements attribute is not supported unless it's a vector splat}}
  %0 = arith.constant dense<[1, 2, 3, 4]> : vector<[4]xi8>
  return
}
