// Verifier errors of the tensor dialect, one case per message.
// REQUIRES: strata-opt
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @map_map_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op expected 1 indexing maps (one per input), but found 0}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_dims(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op indexing map #0 has 2 dims, but the iteration domain has rank 1}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0, d1) -> (d0)>] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_symbols(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op indexing map #0 must not have symbols}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0)[s0] -> (d0 + s0)>] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_results(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op indexing map #0 has 1 results, but input #0 has rank 2}}
  %r = tensor.map ins(%a : tensor<4x4xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_out_of_bounds(%a: tensor<7xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op indexing map #0 result #0 takes values in [1, 7], out of bounds of dimension 0 of input #0 (size 7)}}
  %r = tensor.map ins(%a : tensor<7xf32>) maps [affine_map<(d0) -> (d0 * 2 + 1)>] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_mod(%a: tensor<8xf32>, %n: index) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op indexing map #0 result #0 divides by a non-constant or non-positive value, which cannot be bounded}}
  %r = tensor.map ins(%a : tensor<8xf32>) maps [affine_map<(d0) -> (d0 mod 0)>] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_arg_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op expected 1 block arguments, but the body has 2}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_arg_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op block argument #0 has type 'f16', but the element type of input #0 is 'f32'}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%x: f16):
    %e = arith.extf %x : f16 to f32
    tensor.yield %e : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_yield_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op expected the body to yield 1 value(s), but it yields 2}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%x: f32):
    tensor.yield %x, %x : f32, f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @map_yield_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'tensor.map' op yielded value #0 has type 'f32', but the result element type is 'f16'}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf16>
  return %r : tensor<4xf16>
}

// -----

func.func @map_no_yield(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op expects its body to end with a 'tensor.yield'}}
  %r = "tensor.map"(%a) <{indexing_maps = [affine_map<(d0) -> (d0)>]}> ({
  ^bb0(%x: f32):
    "func.return"() : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @index_outside() -> index {
  // expected-error @+1 {{'tensor.index' op expects to be inside a 'tensor.map' or 'tensor.generic' body}}
  %i = tensor.index 0 : index
  return %i : index
}

// -----

func.func @index_dim(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%x: f32):
    // expected-error @+1 {{'tensor.index' op dimension 1 is out of bounds of the iteration domain of rank 1}}
    %i = tensor.index 1 : index
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @reduce_dim_bounds(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.reduce' op dimension 2 is out of bounds of the input of rank 2}}
  %m = tensor.reduce ins(%x : tensor<4x8xf32>) dims [2] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f32):
    tensor.yield %in : f32
  } : tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

func.func @reduce_dims_sorted(%x: tensor<4x8xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tensor.reduce' op dimensions must be sorted and unique}}
  %m = tensor.reduce ins(%x : tensor<4x8xf32>) dims [1, 0] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f32):
    tensor.yield %in : f32
  } : tensor<f32>
  return %m : tensor<f32>
}

// -----

func.func @reduce_element(%x: tensor<4x8xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'tensor.reduce' op result element type 'f16' does not match the input element type 'f32'}}
  %m = tensor.reduce ins(%x : tensor<4x8xf32>) dims [1] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f32):
    tensor.yield %in : f32
  } : tensor<4xf16>
  return %m : tensor<4xf16>
}

// -----

func.func @reduce_shape(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tensor.reduce' op result shape [8] is not the input shape [4, 8] without dimensions [1]}}
  %m = tensor.reduce ins(%x : tensor<4x8xf32>) dims [1] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f32):
    tensor.yield %in : f32
  } : tensor<8xf32>
  return %m : tensor<8xf32>
}

// -----

func.func @reduce_init(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.reduce' op init must be an integer or float attribute of the element type 'f32'}}
  %m = tensor.reduce ins(%x : tensor<4x8xf32>) dims [1] init(0 : i32) {
  ^bb0(%in: f32, %acc: f32):
    tensor.yield %in : f32
  } : tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

func.func @reduce_args(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.reduce' op block argument #1 has type 'f16', but the accumulator type is 'f32'}}
  %m = tensor.reduce ins(%x : tensor<4x8xf32>) dims [1] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f16):
    tensor.yield %in : f32
  } : tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

func.func @reduce_yield(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.reduce' op yielded value #0 has type 'f16', but the accumulator type is 'f32'}}
  %m = tensor.reduce ins(%x : tensor<4x8xf32>) dims [1] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.truncf %in : f32 to f16
    tensor.yield %t : f16
  } : tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

func.func @contract_count(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'tensor.contract' op expected 3 indexing maps (lhs, rhs, output), but found 2}}
  %c = tensor.contract ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>] : tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @contract_elements(%a: tensor<4x8xf32>, %b: tensor<8x2xf16>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'tensor.contract' op lhs, rhs and result must have the same element type}}
  %c = tensor.contract ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf16>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @contract_num_dims(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'tensor.contract' op indexing maps must have the same number of dims and no symbols}}
  %c = tensor.contract ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @contract_permutation(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'tensor.contract' op indexing map #1 must be a projected permutation}}
  %c = tensor.contract ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @contract_rank(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'tensor.contract' op indexing map #2 has 1 results, but operand #2 has rank 2}}
  %c = tensor.contract ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0)>] : tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @contract_sizes(%a: tensor<4x8xf32>, %b: tensor<7x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'tensor.contract' op domain dim d2 has size 8 in operand #0, but size 7 in operand #1}}
  %c = tensor.contract ins(%a, %b : tensor<4x8xf32>, tensor<7x2xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @contract_unused_dim(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'tensor.contract' op domain dim d3 appears in no indexing map}}
  %c = tensor.contract ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) maps [affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>] : tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

func.func @reshape_element(%x: tensor<6xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{'tensor.reshape' op source and result must have the same element type}}
  %r = tensor.reshape %x : tensor<6xf32> to tensor<2x3xf16>
  return %r : tensor<2x3xf16>
}

// -----

func.func @reshape_count(%x: tensor<6xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tensor.reshape' op source has 6 elements, but the result has 8}}
  %r = tensor.reshape %x : tensor<6xf32> to tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

func.func @fusion_args(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.fusion' op block argument #0 has type 'tensor<8xf32>', but the type of input #0 is 'tensor<4xf32>'}}
  %y = tensor.fusion ins(%x : tensor<4xf32>) {
  ^bb0(%in: tensor<8xf32>):
    tensor.yield %x : tensor<4xf32>
  } : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @fusion_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.fusion' op expected the body to yield 1 value(s), but it yields 0}}
  %y = tensor.fusion ins(%x : tensor<4xf32>) {
  ^bb0(%in: tensor<4xf32>):
    tensor.yield
  } : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @fusion_isolated(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %y = tensor.fusion ins(%x : tensor<4xf32>) {
  ^bb0(%in: tensor<4xf32>):
    // expected-error @+1 {{'tensor.yield' op using value defined outside the region}}
    tensor.yield %x : tensor<4xf32>
  } : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @yield_parent(%x: f32) {
  // expected-error @+1 {{'tensor.yield' op expects parent op to be one of 'tensor.map, tensor.reduce, tensor.generic, tensor.fusion'}}
  tensor.yield %x : f32
}

// -----

func.func @gathered_out_of_range(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op gathered input #1 is not an input of the op}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> ()>] gathered [1] {
  ^bb0(%x: tensor<4xf32>):
    %c = arith.constant 0.0 : f32
    tensor.yield %c : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @gathered_block_arg(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.map' op block argument #0 has type 'f32', but the type of gathered input #0 is 'tensor<4xf32>'}}
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> ()>] gathered [0] {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @extract_not_gathered(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = tensor.map ins(%a : tensor<4xf32>) maps [affine_map<(d0) -> (d0)>] {
  ^bb0(%x: f32):
    %i = tensor.index 0 : index
    // expected-error @+1 {{'tensor.extract' op expects its tensor to be a gathered input of the enclosing 'tensor.map'}}
    %e = tensor.extract %b[%i] : tensor<4xf32>
    tensor.yield %e : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @extract_rank(%a: tensor<4x2xf32>) -> tensor<4xf32> {
  %r = tensor.map ins(%a : tensor<4x2xf32>) maps [affine_map<(d0) -> ()>] gathered [0] {
  ^bb0(%t: tensor<4x2xf32>):
    %i = tensor.index 0 : index
    // expected-error @+1 {{'tensor.extract' op expected 2 indices (the rank of the tensor), but found 1}}
    %e = tensor.extract %t[%i] : tensor<4x2xf32>
    tensor.yield %e : f32
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @extract_empty(%a: tensor<0x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %r = tensor.map ins(%a, %i : tensor<0x4xf32>, tensor<3xi64>) maps [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0)>] gathered [0] {
  ^bb0(%t: tensor<0x4xf32>, %ii: i64):
    %row = arith.index_cast %ii : i64 to index
    %col = tensor.index 1 : index
    // expected-error @+1 {{'tensor.extract' op reads from an empty tensor (dimension 0 has size 0)}}
    %e = tensor.extract %t[%row, %col] : tensor<0x4xf32>
    tensor.yield %e : f32
  } : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

func.func @check_indices_counts(%i: tensor<3xi64>) -> tensor<3xi64> {
  // expected-error @+1 {{'tensor.check_indices' op expects as many sizes as axes, at least one (got 1 and 2)}}
  %c = tensor.check_indices %i sizes [10] axes [0, 1] {message = ""} : tensor<3xi64>
  return %c : tensor<3xi64>
}

// -----

func.func @check_indices_empty_dim(%i: tensor<3xi64>) -> tensor<3xi64> {
  // expected-error @+1 {{'tensor.check_indices' op has size 0: indices into an empty dimension cannot be valid}}
  %c = tensor.check_indices %i sizes [0] axes [0] {message = ""} : tensor<3xi64>
  return %c : tensor<3xi64>
}

// -----

func.func @check_indices_float(%i: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tensor.check_indices' op expects integer indices, got 'f32'}}
  %c = tensor.check_indices %i sizes [10] axes [0] {message = ""} : tensor<3xf32>
  return %c : tensor<3xf32>
}

// -----

func.func @check_indices_tuple(%i: tensor<3x3xi64>) -> tensor<3x3xi64> {
  // expected-error @+1 {{'tensor.check_indices' op has 2 sizes, but the last dimension of its input is not 2}}
  %c = tensor.check_indices %i sizes [10, 4] axes [0, 1] {message = ""} : tensor<3x3xi64>
  return %c : tensor<3x3xi64>
}
