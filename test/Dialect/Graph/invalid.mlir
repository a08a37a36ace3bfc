// REQUIRES: strata-opt
// Verifier and parser errors of the graph dialect: each shape-function rule
// (dialects/src/graph/infer.rs), the checks of declared result types against
// inferred ones, the ODS type and attribute constraints, and the parser of
// #graph.dims.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// Element types and broadcasting of elementwise ops.

func.func @add_elem(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'graph.add' op operands must have the same element type, but got f32 and f16}}
  %0 = graph.add %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @add_bcast(%a: tensor<4x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.add' op shapes [4, 3] and [4] are not broadcastable: 3 vs 4 in dimension 1}}
  %0 = graph.add %a, %b : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_elem(%a: tensor<2x4xf32>, %b: tensor<2x4xi32>) {
  // expected-error @+1 {{'graph.concat' op operands must have the same element type, but got f32 and i32}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xi32>) -> tensor<4x4xf32>
  return
}

// -----

// Declared result types must agree with the inferred ones: element type, rank,
// and each dimension (a static size, or a symbol, that contradicts the
// inferred one).

func.func @add_result_elem(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.add' op result #0 must have element type f32, but got f16}}
  %0 = graph.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @equal_result_elem(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.equal' op result #0 must have element type i1, but got f32}}
  %0 = graph.equal %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @argmax_result_elem(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.argmax' op result #0 must have element type i64, but got i32}}
  %0 = graph.argmax %a : (tensor<4x8xf32>) -> tensor<1x8xi32>
  return
}

// -----

func.func @cof_elem() {
  %s = graph.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error @+1 {{'graph.constant_of_shape' op result #0 must have element type f32, but got f16}}
  %0 = graph.constant_of_shape %s : (tensor<2xi64>) -> tensor<2x3xf16>
  return
}

// -----

func.func @result_shape(%a: tensor<?x16xf32, #graph.dims<batch>>) {
  // expected-error @+1 {{'graph.relu' op result #0 has shape [batch, 32] but its inferred shape is [batch, 16] (dimension 1: 32 vs 16)}}
  %0 = graph.relu %a : (tensor<?x16xf32, #graph.dims<batch>>) -> tensor<?x32xf32, #graph.dims<batch>>
  return
}

// -----

func.func @result_rank(%a: tensor<4x16xf32>) {
  // expected-error @+1 {{'graph.exp' op result #0 has rank 1 but its inferred shape [4, 16] has rank 2}}
  %0 = graph.exp %a : (tensor<4x16xf32>) -> tensor<64xf32>
  return
}

// -----

func.func @result_symbol(%a: tensor<?x16xf32, #graph.dims<batch>>) {
  // expected-error @+1 {{'graph.exp' op result #0 has shape [seq, 16] but its inferred shape is [batch, 16] (dimension 0: seq vs batch)}}
  %0 = graph.exp %a : (tensor<?x16xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<seq>>
  return
}

// -----

func.func @result_static_for_symbol(%a: tensor<?x16xf32, #graph.dims<batch>>) {
  // expected-error @+1 {{'graph.exp' op result #0 has shape [8, 16] but its inferred shape is [batch, 16] (dimension 0: 8 vs batch)}}
  %0 = graph.exp %a : (tensor<?x16xf32, #graph.dims<batch>>) -> tensor<8x16xf32>
  return
}

// -----

// Type constraints of operands and results.

func.func @sqrt_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'graph.sqrt' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = graph.sqrt %a : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @and_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.and' op operand #0 must be tensor of 1-bit, 8-bit, 16-bit, 32-bit or 64-bit integer values, but got 'tensor<4xf32>'}}
  %0 = graph.and %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @add_scalar(%a: f32) {
  // expected-error @+1 {{'graph.add' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit, 8-bit, 16-bit, 32-bit or 64-bit integer or index values, but got 'f32'}}
  %0 = graph.add %a, %a : (f32, f32) -> tensor<f32>
  return
}

// -----

func.func @reshape_shape_float(%a: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{'graph.reshape' op operand #1 must be tensor of 1-bit, 8-bit, 16-bit, 32-bit or 64-bit signless integer values, but got 'tensor<1xf32>'}}
  %0 = graph.reshape %a, %s : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_cond(%c: tensor<4xi32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.where' op operand #0 must be tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = graph.where %c, %a, %a : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @argmax_float_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.argmax' op result #0 must be tensor of 1-bit, 8-bit, 16-bit, 32-bit or 64-bit signless integer values, but got 'tensor<1xf32>'}}
  %0 = graph.argmax %a : (tensor<4xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @conv_int(%x: tensor<1x3x32x32xi8>, %w: tensor<8x3x3x3xi8>) {
  // expected-error @+1 {{'graph.conv2d' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<1x3x32x32xi8>'}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x32x32xi8>, tensor<8x3x3x3xi8>) -> tensor<1x8x30x30xi8>
  return
}

// -----

func.func @constant_vector() {
  // expected-error @+1 {{'graph.constant' op result #0 must be tensor of a graph element type or of 8-bit float, 4-bit float, 4-bit or 2-bit integer values, but got 'vector<2xi64>'}}
  %0 = graph.constant dense<1> : vector<2xi64>
  return
}

// -----

// Attribute constraints.

func.func @gelu_approx_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.gelu' op attribute 'approximate' failed to satisfy constraint: string attribute}}
  %0 = graph.gelu %x {approximate = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @leaky_alpha_f32(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.leaky_relu' op attribute 'alpha' failed to satisfy constraint: 64-bit float attribute}}
  %0 = graph.leaky_relu %x {alpha = 0.1 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @pool_kernel_missing(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{'graph.max_pool2d' op requires attribute 'kernel_shape'}}
  %0 = graph.max_pool2d %x : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @concat_no_axis(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{'graph.concat' op requires attribute 'axis'}}
  %0 = graph.concat %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

// Contractions.

func.func @matmul_contraction(%a: tensor<?x64xf32, #graph.dims<batch>>, %b: tensor<32x10xf32>) {
  // expected-error @+1 {{'graph.matmul' op contraction dimensions differ: 64 vs 32 (shapes [batch, 64] and [32, 10])}}
  %0 = graph.matmul %a, %b : (tensor<?x64xf32, #graph.dims<batch>>, tensor<32x10xf32>) -> tensor<?x10xf32, #graph.dims<batch>>
  return
}

// -----

func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.matmul' op operands must have rank 1 or more}}
  %0 = graph.matmul %a, %b : (tensor<f32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x5xf32>) {
  // expected-error @+1 {{'graph.matmul' op batch dimensions: shapes [2] and [3] are not broadcastable: 2 vs 3 in dimension 0}}
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x4x5xf32>
  return
}

// -----

func.func @gemm_rank(%a: tensor<2x4x8xf32>, %b: tensor<8x5xf32>) {
  // expected-error @+1 {{'graph.gemm' op operands 'a' and 'b' must be 2-D, but have shapes [2, 4, 8] and [8, 5]}}
  %0 = graph.gemm %a, %b : (tensor<2x4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @gemm_contraction(%a: tensor<4x8xf32>, %b: tensor<5x8xf32>) {
  // expected-error @+1 {{'graph.gemm' op contraction dimensions differ: 8 vs 5}}
  %0 = graph.gemm %a, %b : (tensor<4x8xf32>, tensor<5x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gemm_c(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'graph.gemm' op 'c' of shape [2, 4, 5] does not broadcast to [4, 5]}}
  %0 = graph.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x5xf32>, tensor<2x4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @gemm_c_bcast(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<3xf32>) {
  // expected-error @+1 {{'graph.gemm' op 'c' does not broadcast to the result: shapes [4, 5] and [3] are not broadcastable: 5 vs 3 in dimension 1}}
  %0 = graph.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x5xf32>, tensor<3xf32>) -> tensor<4x5xf32>
  return
}

// -----

// Convolution and pooling.

func.func @conv_rank(%x: tensor<1x3x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op input and weight must be 4-D (NCHW, MCkHkW), but have shapes [1, 3, 32] and [8, 3, 3, 3]}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x3x32x32xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op input has 3 channels but the weight expects 4 x 1 groups}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv_group_channels(%x: tensor<1x6x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op input has 6 channels but the weight expects 3 x 3 groups}}
  %0 = graph.conv2d %x, %w {group = 3 : i64} : (tensor<1x6x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv_group_outputs(%x: tensor<1x6x32x32xf32>, %w: tensor<9x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op 9 output channels are not divisible into 2 groups}}
  %0 = graph.conv2d %x, %w {group = 2 : i64} : (tensor<1x6x32x32xf32>, tensor<9x3x3x3xf32>) -> tensor<1x9x30x30xf32>
  return
}

// -----

func.func @conv_group_zero(%x: tensor<1x6x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op group must be positive, but is 0}}
  %0 = graph.conv2d %x, %w {group = 0 : i64} : (tensor<1x6x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv_dynamic_kernel(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x?x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op the weight's kernel dimensions must be static}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<8x3x?x3xf32>) -> tensor<1x8x?x30xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+1 {{'graph.conv2d' op bias must be 1-D, but has shape [1, 8]}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<1x8xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x3x2x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op window of size 3 does not fit the padded input of size 2}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x2x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x1x30xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op kernel sizes, strides and dilations must be positive}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 0, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv_pads_count(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op expects 2 kernel sizes, 2 strides, 2 dilations and 4 pads}}
  %0 = graph.conv2d %x, %w {pads = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @conv_pads_negative(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op pads must not be negative}}
  %0 = graph.conv2d %x, %w {pads = array<i64: -1, 0, 0, 0>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x29x30xf32>
  return
}

// -----

func.func @pool_pads(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{'graph.max_pool2d' op pads must be smaller than the kernel}}
  %0 = graph.max_pool2d %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 2, 0, 0, 0>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x33x31xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<8x32x32xf32>) {
  // expected-error @+1 {{'graph.avg_pool2d' op input must be 4-D (NCHW), but has shape [8, 32, 32]}}
  %0 = graph.avg_pool2d %x {kernel_shape = array<i64: 2, 2>} : (tensor<8x32x32xf32>) -> tensor<8x31x31xf32>
  return
}

// -----

func.func @pool_kernel_count(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{'graph.max_pool2d' op expects 2 kernel sizes, 2 strides, 2 dilations and 4 pads}}
  %0 = graph.max_pool2d %x {kernel_shape = array<i64: 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x31x31xf32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<8x32xf32>) {
  // expected-error @+1 {{'graph.global_avg_pool' op input must have rank 3 or more, but has shape [8, 32]}}
  %0 = graph.global_avg_pool %x : (tensor<8x32xf32>) -> tensor<8x1xf32>
  return
}

// -----

// Normalizations.

func.func @softmax_axis(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{'graph.softmax' op axis 2 is out of range for rank 2 (expected [-2, 1])}}
  %0 = graph.softmax %x {axis = 2 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @softmax_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'graph.softmax' op input must have rank 1 or more}}
  %0 = graph.softmax %x : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @layer_norm_elem(%x: tensor<4x16xf32>, %s: tensor<16xf16>) {
  // expected-error @+1 {{'graph.layer_norm' op operands must have the same element type, but got f32 and f16}}
  %0 = graph.layer_norm %x, %s : (tensor<4x16xf32>, tensor<16xf16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @batch_norm_rank(%x: tensor<8xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op input must have rank 2 or more, but has shape [8]}}
  %0 = graph.batch_norm %x, %p, %p, %p, %p : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @batch_norm_channels(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %q: tensor<4xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op parameters must have 8 elements, but one has 4}}
  %0 = graph.batch_norm %x, %p, %p, %q, %p : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @batch_norm_param_rank(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %q: tensor<1x8xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op parameters must be 1-D, but one has shape [1, 8]}}
  %0 = graph.batch_norm %x, %p, %q, %p, %p : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<1x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

// Reductions (axes are normalized, then must be distinct).

func.func @reduce_axis_repeated(%x: tensor<4x16xf32>) {
  %axes = graph.constant dense<[1, -1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.reduce_sum' op axis -1 is repeated}}
  %0 = graph.reduce_sum %x axes %axes : (tensor<4x16xf32>, tensor<2xi64>) -> tensor<4x1xf32>
  return
}

// -----

func.func @reduce_axis_range(%x: tensor<4x16xf32>) {
  %axes = graph.constant dense<2> : tensor<1xi64>
  // expected-error @+1 {{'graph.reduce_max' op axis 2 is out of range for rank 2 (expected [-2, 1])}}
  %0 = graph.reduce_max %x axes %axes : (tensor<4x16xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  return
}

// -----

func.func @reduce_axes_rank(%x: tensor<4x16xf32>, %axes: tensor<1x1xi64>) {
  // expected-error @+1 {{'graph.reduce_mean' op axes must be a 1-D tensor, but has rank 2}}
  %0 = graph.reduce_mean %x axes %axes : (tensor<4x16xf32>, tensor<1x1xi64>) -> tensor<4x1xf32>
  return
}

// -----

func.func @argmin_axis(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{'graph.argmin' op axis -3 is out of range for rank 2 (expected [-2, 1])}}
  %0 = graph.argmin %x {axis = -3 : i64} : (tensor<4x16xf32>) -> tensor<1x16xi64>
  return
}

// -----

// reshape.

func.func @reshape_two_minus_one(%x: tensor<4x16xf32>) {
  %s = graph.constant dense<[-1, -1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op shape has more than one -1}}
  %0 = graph.reshape %x, %s : (tensor<4x16xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<4x16xf32>) {
  %s = graph.constant dense<[8, 16]> : tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op cannot reshape [4, 16] (64 elements) into 128 elements}}
  %0 = graph.reshape %x, %s : (tensor<4x16xf32>, tensor<2xi64>) -> tensor<8x16xf32>
  return
}

// -----

func.func @reshape_indivisible(%x: tensor<4x16xf32>) {
  %s = graph.constant dense<[5, -1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op cannot reshape 64 elements into [5, -1]}}
  %0 = graph.reshape %x, %s : (tensor<4x16xf32>, tensor<2xi64>) -> tensor<5x?xf32>
  return
}

// -----

func.func @reshape_copy_out_of_rank(%x: tensor<64xf32>) {
  %s = graph.constant dense<[-1, 0]> : tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op shape copies dimension 1 (0) but the input has rank 1}}
  %0 = graph.reshape %x, %s : (tensor<64xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_negative(%x: tensor<64xf32>) {
  %s = graph.constant dense<[-2, 32]> : tensor<2xi64>
  // expected-error @+1 {{'graph.reshape' op shape has the invalid size -2}}
  %0 = graph.reshape %x, %s : (tensor<64xf32>, tensor<2xi64>) -> tensor<?x32xf32>
  return
}

// -----

func.func @reshape_shape_rank(%x: tensor<64xf32>, %s: tensor<2x1xi64>) {
  // expected-error @+1 {{'graph.reshape' op shape must be a 1-D tensor, but has rank 2}}
  %0 = graph.reshape %x, %s : (tensor<64xf32>, tensor<2x1xi64>) -> tensor<*xf32>
  return
}

// -----

// transpose.

func.func @transpose_perm_len(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.transpose' op perm has 2 entries but the input has rank 3}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

func.func @transpose_perm_dup(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.transpose' op perm [0, 0, 1] is not a permutation of 0..3}}
  %0 = graph.transpose %x {perm = array<i64: 0, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<2x2x3xf32>
  return
}

// -----

func.func @transpose_perm_range(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.transpose' op perm [0, 3, 1] is not a permutation of 0..3}}
  %0 = graph.transpose %x {perm = array<i64: 0, 3, 1>} : (tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  return
}

// -----

// expand and concat.

func.func @expand_negative(%x: tensor<1x4xf32>) {
  %s = graph.constant dense<[-1, 4]> : tensor<2xi64>
  // expected-error @+1 {{'graph.expand' op shape [-1, 4] has a negative size}}
  %0 = graph.expand %x, %s : (tensor<1x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  return
}

// -----

func.func @expand_bcast(%x: tensor<3x4xf32>) {
  %s = graph.constant dense<[2, 4]> : tensor<2xi64>
  // expected-error @+1 {{'graph.expand' op shapes [3, 4] and [2, 4] are not broadcastable: 3 vs 2 in dimension 0}}
  %0 = graph.expand %x, %s : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.concat' op inputs must have the same rank, but have ranks 2 and 1}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @concat_dim(%a: tensor<2x4xf32>, %b: tensor<2x5xf32>) {
  // expected-error @+1 {{'graph.concat' op inputs differ in dimension 1: 4 vs 5}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x5xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'graph.concat' op requires at least one input}}
  %0 = graph.concat {axis = 0 : i64} : () -> tensor<4xf32>
  return
}

// -----

// split.

func.func @split_count(%x: tensor<10x4xf32>) {
  %s = graph.constant dense<[5, 5]> : tensor<2xi64>
  // expected-error @+1 {{'graph.split' op split has 2 sizes but the op has 3 results}}
  %0:3 = graph.split %x sizes %s : (tensor<10x4xf32>, tensor<2xi64>) -> (tensor<5x4xf32>, tensor<5x4xf32>, tensor<0x4xf32>)
  return
}

// -----

func.func @split_sum(%x: tensor<10x4xf32>) {
  %s = graph.constant dense<[4, 4]> : tensor<2xi64>
  // expected-error @+1 {{'graph.split' op split sizes add up to 8 but dimension 0 is 10}}
  %0:2 = graph.split %x sizes %s : (tensor<10x4xf32>, tensor<2xi64>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return
}

// -----

func.func @split_negative(%x: tensor<10x4xf32>) {
  %s = graph.constant dense<[12, -2]> : tensor<2xi64>
  // expected-error @+1 {{'graph.split' op split sizes [12, -2] must not be negative}}
  %0:2 = graph.split %x sizes %s : (tensor<10x4xf32>, tensor<2xi64>) -> (tensor<12x4xf32>, tensor<?x4xf32>)
  return
}

// -----

func.func @split_none(%x: tensor<10x4xf32>) {
  // expected-error @+1 {{'graph.split' op requires at least one result}}
  graph.split %x : (tensor<10x4xf32>) -> ()
  return
}

// -----

// slice, gather, squeeze, unsqueeze, flatten.

func.func @slice_len(%x: tensor<10x4xf32>) {
  %s = graph.constant dense<0> : tensor<1xi64>
  %e = graph.constant dense<[4, 2]> : tensor<2xi64>
  // expected-error @+1 {{'graph.slice' op starts has 1 entries but ends has 2}}
  %0 = graph.slice %x, %s, %e : (tensor<10x4xf32>, tensor<1xi64>, tensor<2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @slice_axes_len(%x: tensor<10x4xf32>) {
  %s = graph.constant dense<0> : tensor<1xi64>
  %a = graph.constant dense<[0, 1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.slice' op starts, ends, axes and steps must have the same length}}
  %0 = graph.slice %x, %s, %s axes %a : (tensor<10x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<0x4xf32>
  return
}

// -----

func.func @slice_step(%x: tensor<10x4xf32>) {
  %s = graph.constant dense<0> : tensor<1xi64>
  %e = graph.constant dense<4> : tensor<1xi64>
  // expected-error @+1 {{'graph.slice' op slice step cannot be 0}}
  %0 = graph.slice %x, %s, %e axes %s steps %s : (tensor<10x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x4xf32>
  return
}

// -----

func.func @gather_scalar(%x: tensor<f32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'graph.gather' op input must have rank 1 or more}}
  %0 = graph.gather %x[%i] : (tensor<f32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_axis(%x: tensor<4x8xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'graph.gather' op axis 2 is out of range for rank 2 (expected [-2, 1])}}
  %0 = graph.gather %x[%i] {axis = 2 : i64} : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @squeeze_non_one(%x: tensor<4x1xf32>) {
  %a = graph.constant dense<0> : tensor<1xi64>
  // expected-error @+1 {{'graph.squeeze' op cannot squeeze dimension 0 of size 4}}
  %0 = graph.squeeze %x axes %a : (tensor<4x1xf32>, tensor<1xi64>) -> tensor<1xf32>
  return
}

// -----

func.func @unsqueeze_axis(%x: tensor<4xf32>) {
  %a = graph.constant dense<2> : tensor<1xi64>
  // expected-error @+1 {{'graph.unsqueeze' op axis 2 is out of range for rank 2 (expected [-2, 1])}}
  %0 = graph.unsqueeze %x, %a : (tensor<4xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  return
}

// -----

func.func @flatten_axis(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.flatten' op axis 4 is out of range for rank 3 (expected [-3, 3])}}
  %0 = graph.flatten %x {axis = 4 : i64} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
  return
}

// -----

// pad and tile.

func.func @pad_mode(%x: tensor<4xf32>) {
  %p = graph.constant dense<[1, 1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.pad' op mode must be one of "constant", "reflect", "edge", "wrap", but is "symmetric"}}
  %0 = graph.pad %x, %p {mode = "symmetric"} : (tensor<4xf32>, tensor<2xi64>) -> tensor<6xf32>
  return
}

// -----

func.func @pad_count(%x: tensor<4x4xf32>) {
  %p = graph.constant dense<[1, 1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.pad' op pads has 2 entries but the input has rank 2}}
  %0 = graph.pad %x, %p : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  return
}

// -----

func.func @pad_crop(%x: tensor<4xf32>) {
  %p = graph.constant dense<[-3, -2]> : tensor<2xi64>
  // expected-error @+1 {{'graph.pad' op pads crop dimension 0 below zero}}
  %0 = graph.pad %x, %p : (tensor<4xf32>, tensor<2xi64>) -> tensor<0xf32>
  return
}

// -----

func.func @pad_value_elem(%x: tensor<4xf32>, %v: tensor<i32>) {
  %p = graph.constant dense<[1, 1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.pad' op operands must have the same element type, but got f32 and i32}}
  %0 = graph.pad %x, %p value %v : (tensor<4xf32>, tensor<2xi64>, tensor<i32>) -> tensor<6xf32>
  return
}

// -----

func.func @tile_repeats(%x: tensor<4x4xf32>) {
  %r = graph.constant dense<[2, -1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.tile' op repeats [2, -1] must have 2 non-negative entries}}
  %0 = graph.tile %x, %r : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<8x4xf32>
  return
}

// -----

func.func @tile_repeats_len(%x: tensor<4x4xf32>) {
  %r = graph.constant dense<2> : tensor<1xi64>
  // expected-error @+1 {{'graph.tile' op repeats [2] must have 2 non-negative entries}}
  %0 = graph.tile %x, %r : (tensor<4x4xf32>, tensor<1xi64>) -> tensor<8x4xf32>
  return
}

// -----

// clip and gelu.

func.func @clip_bounds(%x: tensor<4x4xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'graph.clip' op bounds must be scalars, but one has shape [4]}}
  %0 = graph.clip %x min %m : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @clip_elem(%x: tensor<4x4xf32>, %m: tensor<i32>) {
  // expected-error @+1 {{'graph.clip' op operands must have the same element type, but got f32 and i32}}
  %0 = graph.clip %x max %m : (tensor<4x4xf32>, tensor<i32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @gelu_approx(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.gelu' op approximate must be "none" or "tanh", but is "fast"}}
  %0 = graph.gelu %x {approximate = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// constant_of_shape and range.

func.func @cof_value(%s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.constant_of_shape' op 'value' must have one element, but has shape [2]}}
  %0 = graph.constant_of_shape %s {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @cof_negative() {
  %s = graph.constant dense<[2, -3]> : tensor<2xi64>
  // expected-error @+1 {{'graph.constant_of_shape' op shape [2, -3] has a negative size}}
  %0 = graph.constant_of_shape %s : (tensor<2xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @range_scalar(%a: tensor<2xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'graph.range' op start, limit and delta must be scalars, but one has shape [2]}}
  %0 = graph.range %b, %a, %b : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<?xf32>
  return
}

// -----

func.func @range_delta() {
  %s = graph.constant dense<0> : tensor<i64>
  %l = graph.constant dense<8> : tensor<i64>
  // expected-error @+1 {{'graph.range' op delta cannot be 0}}
  %0 = graph.range %s, %l, %s : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----

func.func @range_elem(%a: tensor<i64>, %b: tensor<i32>) {
  // expected-error @+1 {{'graph.range' op operands must have the same element type, but got i64 and i32}}
  %0 = graph.range %a, %b, %a : (tensor<i64>, tensor<i32>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----

// attention.

func.func @attn_rank(%q: tensor<64xf32>) {
  // expected-error @+1 {{'graph.attention' op q, k and v must have rank 2 or more}}
  %0 = graph.attention %q, %q, %q : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return
}

// -----

func.func @attn_head(%q: tensor<8x64xf32>, %k: tensor<8x32xf32>) {
  // expected-error @+1 {{'graph.attention' op q and k have different head sizes: 64 vs 32}}
  %0 = graph.attention %q, %k, %k : (tensor<8x64xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @attn_seq(%q: tensor<8x64xf32>, %k: tensor<16x64xf32>, %v: tensor<12x64xf32>) {
  // expected-error @+1 {{'graph.attention' op k and v have different sequence lengths: 16 vs 12}}
  %0 = graph.attention %q, %k, %v : (tensor<8x64xf32>, tensor<16x64xf32>, tensor<12x64xf32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @attn_mask(%q: tensor<8x64xf32>, %k: tensor<16x64xf32>, %m: tensor<8x8xi1>) {
  // expected-error @+1 {{'graph.attention' op mask: shapes [8, 16] and [8, 8] are not broadcastable: 16 vs 8 in dimension 1}}
  %0 = graph.attention %q, %k, %k mask %m : (tensor<8x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<8x8xi1>) -> tensor<8x64xf32>
  return
}

// -----

func.func @attn_mask_elem(%q: tensor<8x64xf32>, %k: tensor<16x64xf32>, %m: tensor<8x16xf16>) {
  // expected-error @+1 {{'graph.attention' op mask must be i1 or have q's element type f32, but has f16}}
  %0 = graph.attention %q, %k, %k mask %m : (tensor<8x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<8x16xf16>) -> tensor<8x64xf32>
  return
}

// -----

// graph.custom: the name must be registered (strata-opt registers none), with or
// without a version and a config.

func.func @custom(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.custom' op custom op 'my.op' is not registered}}
  %0 = graph.custom "my.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_v(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.custom' op custom op 'my.op' is not registered}}
  %0:2 = graph.custom "my.op"(%x, %x) {config = {k = 3 : i64}, version = 2 : i64} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// #graph.dims: each item is '?' or a product of symbols and positive integers.

// expected-error @+1 {{'2' is a static size: write it in the tensor's shape}}
func.func @dims_static(%x: tensor<?xf32, #graph.dims<2>>) {
  return
}

// -----

// expected-error @+1 {{invalid symbolic size 'a+b'}}
func.func @dims_plus(%x: tensor<?xf32, #graph.dims<a+b>>) {
  return
}

// -----

// expected-error @+1 {{invalid symbolic size 'a+b'}}
func.func @dims_second_item(%x: tensor<?x?xf32, #graph.dims<batch, a+b>>) {
  return
}

// -----

// expected-error @+1 {{a factor of a symbolic size must be positive}}
func.func @dims_zero(%x: tensor<?xf32, #graph.dims<0*seq>>) {
  return
}

// -----

// expected-error @+1 {{expected a symbol, an integer or '?'}}
func.func @dims_empty_factor(%x: tensor<?x?xf32, #graph.dims<batch, seq*>>) {
  return
}

// -----

// expected-error @+1 {{expected a symbol, an integer or '?'}}
func.func @dims_star(%x: tensor<?xf32, #graph.dims<*>>) {
  return
}

// -----

// expected-error @+1 {{invalid symbolic size '-seq'}}
func.func @dims_negative(%x: tensor<?xf32, #graph.dims<-seq>>) {
  return
}

// -----

// expected-error @+1 {{invalid symbolic size '2seq'}}
func.func @dims_digit_start(%x: tensor<?xf32, #graph.dims<2seq>>) {
  return
}

// -----

// expected-error @+1 {{integer '99999999999999999999' is too large}}
func.func @dims_big(%x: tensor<?xf32, #graph.dims<99999999999999999999*seq>>) {
  return
}

// -----

// expected-error @+1 {{symbolic size overflows}}
func.func @dims_overflow(%x: tensor<?xf32, #graph.dims<4294967296*4294967296*seq>>) {
  return
}

// -----

// expected-error @+1 {{unknown attribute `shape` in dialect `graph`}}
func.func @dims_unknown(%x: tensor<?xf32, #graph.shape<seq>>) {
  return
}

// -----
// Extreme sizes are errors, not overflows.

func.func @pad_overflow(%x: tensor<4xf32>) {
  %p = graph.constant dense<[9223372036854775807, 1]> : tensor<2xi64>
  // expected-error @+1 {{'graph.pad' op padded dimension 0 is too large}}
  %0 = graph.pad %x, %p : (tensor<4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @split_overflow(%x: tensor<4xf32>) {
  %s = graph.constant dense<[9223372036854775807, 9223372036854775807]> : tensor<2xi64>
  // expected-error @+1 {{'graph.split' op split sizes add up to 18446744073709551614 but dimension 0 is 4}}
  %0, %1 = graph.split %x sizes %s : (tensor<4xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @conv_group_overflow(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op input has 4 channels but the weight expects 1 x 4611686018427387904 groups}}
  %0 = graph.conv2d %x, %w {group = 4611686018427387904 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @pool_dilation_overflow(%x: tensor<1x1x8x8xf32>) {
  // expected-error @+1 {{'graph.max_pool2d' op window of size 9223372036854775808 does not fit the padded input of size 8}}
  %0 = graph.max_pool2d %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 9223372036854775807, 1>} : (tensor<1x1x8x8xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_pads_overflow(%x: tensor<1x1x8x8xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op output size 9223372036854775814 is too large}}
  %0 = graph.conv2d %x, %w {pads = array<i64: 9223372036854775807, 0, 1, 0>} : (tensor<1x1x8x8xf32>, tensor<1x1x3x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @range_overflow() {
  %s = graph.constant dense<-9223372036854775807> : tensor<i64>
  %l = graph.constant dense<9223372036854775807> : tensor<i64>
  %d = graph.constant dense<1> : tensor<i64>
  // expected-error @+1 {{'graph.range' op range of 18446744073709551614 elements is too large}}
  %0 = graph.range %s, %l, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----
// #graph.dims names each dynamic dimension, and at least one symbol.

func.func @dims_count(%x: tensor<?x4xf32, #graph.dims<a, b>>) {
  // expected-error @+1 {{'graph.relu' op type 'tensor<?x4xf32, #graph.dims<a, b>>' names 2 dimension(s) in #graph.dims but has 1 dynamic dimension(s)}}
  %0 = graph.relu %x : (tensor<?x4xf32, #graph.dims<a, b>>) -> tensor<?x4xf32, #graph.dims<a, b>>
  return
}

// -----

func.func @dims_no_symbol(%x: tensor<?x?xf32, #graph.dims<?, ?>>) {
  // expected-error @+1 {{'graph.relu' op type 'tensor<?x?xf32, #graph.dims<?, ?>>' names no symbol in #graph.dims: leave the encoding out}}
  %0 = graph.relu %x : (tensor<?x?xf32, #graph.dims<?, ?>>) -> tensor<?x?xf32, #graph.dims<?, ?>>
  return
}

// -----

// expected-error @+1 {{expected '<' and the list of dimensions after 'dims'}}
func.func @dims_no_list(%x: tensor<?xf32, #graph.dims>) {
  return
}

// -----

// dropout.

func.func @dropout_ratio(%x: tensor<4x4xf32>, %r: tensor<2xf32>) {
  // expected-error @+1 {{'graph.dropout' op ratio must be a scalar, but has shape [2]}}
  %0 = graph.dropout %x, %r : (tensor<4x4xf32>, tensor<2xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @dropout_mask(%x: tensor<4x4xf32>, %r: tensor<f32>) {
  // expected-error @+1 {{'graph.dropout' op result #1 must be tensor of 1-bit signless integer values, but got 'tensor<4x4xf32>'}}
  %0:2 = graph.dropout %x, %r : (tensor<4x4xf32>, tensor<f32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return
}

// -----

func.func @dropout_training(%x: tensor<4x4xf32>, %r: tensor<f32>, %t: tensor<4xi1>) {
  // expected-error @+1 {{'graph.dropout' op training must be a scalar, but has shape [4]}}
  %0 = graph.dropout %x, %r training %t : (tensor<4x4xf32>, tensor<f32>, tensor<4xi1>) -> tensor<4x4xf32>
  return
}

// -----

// gather_elements, scatters, cumsum and top_k.

func.func @gather_elements_rank(%x: tensor<4x4xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{'graph.gather_elements' op indices must have the rank of the input (2), but have rank 1}}
  %0 = graph.gather_elements %x[%i] : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_elements_size(%x: tensor<4x4xf32>, %i: tensor<5x1xi64>) {
  // expected-error @+1 {{'graph.gather_elements' op indices have size 5 in dimension 0, larger than the input's 4}}
  %0 = graph.gather_elements %x[%i] {axis = 1 : i64} : (tensor<4x4xf32>, tensor<5x1xi64>) -> tensor<5x1xf32>
  return
}

// -----

func.func @scatter_elements_updates(%x: tensor<4x4xf32>, %i: tensor<2x2xi64>, %u: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.scatter_elements' op indices [2, 2] and updates [2, 3] must have the same shape}}
  %0 = graph.scatter_elements %x[%i], %u : (tensor<4x4xf32>, tensor<2x2xi64>, tensor<2x3xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @scatter_reduction(%x: tensor<4x4xf32>, %i: tensor<2x2xi64>, %u: tensor<2x2xf32>) {
  // expected-error @+1 {{'graph.scatter_elements' op reduction must be "none", "add", "mul", "max" or "min", not "sum"}}
  %0 = graph.scatter_elements %x[%i], %u {reduction = "sum"} : (tensor<4x4xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @scatter_nd_updates(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.scatter_nd' op updates must have shape [3, 5], but have [3, 4]}}
  %0 = graph.scatter_nd %x[%i], %u : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_nd_tuple(%x: tensor<4x5xf32>, %i: tensor<3x3xi64>, %u: tensor<3xf32>) {
  // expected-error @+1 {{'graph.scatter_nd' op index tuples have 3 entries, more than the input's rank 2}}
  %0 = graph.scatter_nd %x[%i], %u : (tensor<4x5xf32>, tensor<3x3xi64>, tensor<3xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @cumsum_axis(%x: tensor<4x5xf32>) {
  %a = graph.constant dense<2> : tensor<i64>
  // expected-error @+1 {{'graph.cumsum' op axis 2 is out of range for rank 2}}
  %0 = graph.cumsum %x, %a : (tensor<4x5xf32>, tensor<i64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @top_k_too_many(%x: tensor<4x5xf32>) {
  %k = graph.constant dense<6> : tensor<1xi64>
  // expected-error @+1 {{'graph.top_k' op k = 6 is out of range for dimension 1 of size 5}}
  %0:2 = graph.top_k %x, %k : (tensor<4x5xf32>, tensor<1xi64>) -> (tensor<4x6xf32>, tensor<4x6xi64>)
  return
}

// -----

// resize.

func.func @resize_both(%x: tensor<1x1x4x4xf32>, %s: tensor<4xf32>, %z: tensor<4xi64>) {
  // expected-error @+1 {{'graph.resize' op needs exactly one of scales and sizes}}
  %0 = graph.resize %x scales %s sizes %z : (tensor<1x1x4x4xf32>, tensor<4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_mode(%x: tensor<1x1x4x4xf32>, %z: tensor<4xi64>) {
  // expected-error @+1 {{'graph.resize' op mode must be one of ["nearest", "linear", "cubic"], not "bilinear"}}
  %0 = graph.resize %x sizes %z {mode = "bilinear"} : (tensor<1x1x4x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_roi(%x: tensor<1x1x4x4xf32>, %z: tensor<4xi64>) {
  // expected-error @+1 {{'graph.resize' op tf_crop_and_resize needs a roi}}
  %0 = graph.resize %x sizes %z {coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x4x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_scale(%x: tensor<1x1x4x4xf32>) {
  %s = graph.constant dense<[1.0, 1.0, 0.0, 2.0]> : tensor<4xf32>
  // expected-error @+1 {{'graph.resize' op scale 0 of axis 2 is not positive}}
  %0 = graph.resize %x scales %s : (tensor<1x1x4x4xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_count(%x: tensor<1x1x4x4xf32>, %z: tensor<3xi64>) {
  // expected-error @+1 {{'graph.resize' op has 3 scales or sizes for 4 axes}}
  %0 = graph.resize %x sizes %z : (tensor<1x1x4x4xf32>, tensor<3xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

// conv_transpose2d.

func.func @conv_transpose_channels(%x: tensor<1x8x4x4xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose2d' op input has 8 channels but the weight has 6}}
  %0 = graph.conv_transpose2d %x, %w : (tensor<1x8x4x4xf32>, tensor<6x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  return
}

// -----

func.func @conv_transpose_bias(%x: tensor<1x8x4x4xf32>, %w: tensor<8x2x3x3xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'graph.conv_transpose2d' op bias has 8 elements for 2 output channels}}
  %0 = graph.conv_transpose2d %x, %w, %b : (tensor<1x8x4x4xf32>, tensor<8x2x3x3xf32>, tensor<8xf32>) -> tensor<1x2x6x6xf32>
  return
}

// -----

func.func @conv_transpose_pads(%x: tensor<1x8x4x4xf32>, %w: tensor<8x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose2d' op padding leaves spatial dimension 0 with size -2}}
  %0 = graph.conv_transpose2d %x, %w {pads = array<i64: 4, 0, 4, 0>} : (tensor<1x8x4x4xf32>, tensor<8x2x3x3xf32>) -> tensor<1x2x?x6xf32>
  return
}

// -----

func.func @conv_transpose_result(%x: tensor<1x8x4x4xf32>, %w: tensor<8x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose2d' op result #0 has shape [1, 2, 5, 6] but its inferred shape is [1, 2, 6, 6] (dimension 2: 5 vs 6)}}
  %0 = graph.conv_transpose2d %x, %w : (tensor<1x8x4x4xf32>, tensor<8x2x3x3xf32>) -> tensor<1x2x5x6xf32>
  return
}

// -----

// Shifts need a direction.

func.func @shift_direction(%a: tensor<4xui8>) {
  // expected-error @+1 {{'graph.bit_shift' op direction must be "left" or "right", not "up"}}
  %0 = graph.bit_shift %a, %a {direction = "up"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return
}

// -----

// gather_nd.

func.func @gather_nd_tuple(%x: tensor<4x5xf32>, %i: tensor<3x3xi64>) {
  // expected-error @+1 {{'graph.gather_nd' op index tuples of 3 entries do not fit an input of rank 2 after 0 batch dimensions}}
  %0 = graph.gather_nd %x[%i] : (tensor<4x5xf32>, tensor<3x3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_nd_batch(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+1 {{'graph.gather_nd' op batch dimension 0 differs: 4 vs 3}}
  %0 = graph.gather_nd %x[%i] {batch_dims = 1 : i64} : (tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return
}

// -----

// grid_sample.

func.func @grid_sample_points(%x: tensor<1x3x4x4xf32>, %g: tensor<1x8x8x3xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op grid [1, 8, 8, 3] does not fit input [1, 3, 4, 4] (it must be [N, H1..Hk, 2])}}
  %0 = graph.grid_sample %x, %g : (tensor<1x3x4x4xf32>, tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @grid_sample_padding(%x: tensor<1x3x4x4xf32>, %g: tensor<1x8x8x2xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op padding_mode must be "zeros", "border" or "reflection", not "wrap"}}
  %0 = graph.grid_sample %x, %g {padding_mode = "wrap"} : (tensor<1x3x4x4xf32>, tensor<1x8x8x2xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @nms_boxes(%b: tensor<1x10x5xf32>, %s: tensor<1x2x10xf32>) {
  // expected-error @+1 {{'graph.non_max_suppression' op boxes must be [B, N, 4] and scores [B, C, N], not [1, 10, 5] and [1, 2, 10]}}
  %0 = graph.non_max_suppression %b, %s : (tensor<1x10x5xf32>, tensor<1x2x10xf32>) -> tensor<?x3xi64>
  return
}

// -----

func.func @dft_components(%x: tensor<1x16x3xf32>) {
  // expected-error @+1 {{'graph.dft' op input must end in a dimension of 1 (real) or 2 (complex), not [1, 16, 3]}}
  %0 = graph.dft %x : (tensor<1x16x3xf32>) -> tensor<1x16x2xf32>
  return
}

// -----

func.func @conv_layout(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op layout must be "nchw" or "nhwc", but is "chwn"}}
  %0 = graph.conv2d %x, %w {layout = "chwn"} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<*xf32>
  return
}

// -----

// Channels last: the input's last dim against the weight's.
func.func @conv_nhwc_channels(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x2xf32>) {
  // expected-error @+1 {{'graph.conv2d' op input has 3 channels but the weight expects 2 x 1 groups}}
  %0 = graph.conv2d %x, %w {layout = "nhwc"} : (tensor<1x8x8x3xf32>, tensor<4x3x3x2xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @conv_nhwc_result(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv2d' op result #0 has shape [1, 4, 6, 6] but its inferred shape is [1, 6, 6, 4] (dimension 1: 4 vs 6)}}
  %0 = graph.conv2d %x, %w {layout = "nhwc"} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @pool_nhwc_indices(%x: tensor<1x4x4x2xf32>) {
  // expected-error @+1 {{'graph.max_pool2d' op an indices result needs the "nchw" layout}}
  %0, %1 = graph.max_pool2d %x {kernel_shape = array<i64: 2, 2>, layout = "nhwc"} : (tensor<1x4x4x2xf32>) -> (tensor<*xf32>, tensor<*xi64>)
  return
}

// -----

func.func @roi_align_rois(%x: tensor<1x8x10x10xf32>, %r: tensor<3x5xf32>, %b: tensor<3xi64>) {
  // expected-error @+1 {{'graph.roi_align' op rois must be [R, 4], not [3, 5]}}
  %0 = graph.roi_align %x, %r, %b : (tensor<1x8x10x10xf32>, tensor<3x5xf32>, tensor<3xi64>) -> tensor<3x8x1x1xf32>
  return
}

// -----

func.func @roi_align_batch(%x: tensor<1x8x10x10xf32>, %r: tensor<3x4xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'graph.roi_align' op batch_indices must be [R] for rois [3, 4], not [2]}}
  %0 = graph.roi_align %x, %r, %b : (tensor<1x8x10x10xf32>, tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x8x1x1xf32>
  return
}

// -----

func.func @unique_axis(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.unique' op axis 2 is out of range for rank 2}}
  %0:4 = graph.unique %x {axis = 2 : i64} : (tensor<3x4xf32>) -> (tensor<3x?xf32>, tensor<?xi64>, tensor<4xi64>, tensor<?xi64>)
  return
}

// -----

// The 8-bit floats are storage-only: graph.cast and graph.constant take them,
// the computing ops do not.
func.func @f8_arith(%x: tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN> {
  // expected-error @+1 {{'graph.add' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit, 8-bit, 16-bit, 32-bit or 64-bit integer or index values, but got 'tensor<2xf8E4M3FN>'}}
  %0 = graph.add %x, %x : (tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}

// -----

func.func @bitcast_widths(%x: tensor<2xf32>) -> tensor<2xi16> {
  // expected-error @+1 {{'graph.bitcast' op reinterprets f32 as i16: the element types must have as many bits}}
  %0 = graph.bitcast %x : (tensor<2xf32>) -> tensor<2xi16>
  return %0 : tensor<2xi16>
}

// -----

// graph.det takes square matrices in its last two dims.
func.func @det_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.det' op input must have rank 2 or more (square matrices), but has shape [4]}}
  %0 = graph.det %x : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @det_square(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.det' op input's matrices must be square, but the shape is [2, 3, 4]}}
  %0 = graph.det %x : (tensor<2x3x4xf32>) -> tensor<2xf32>
  return
}

// -----

// graph.col2im: a 3-D input whose dim 1 the block's size divides, 1-D
// image and block shapes of one rank, attributes of that rank.
func.func @col2im_rank(%x: tensor<4x4xf32>, %i: tensor<2xi64>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'graph.col2im' op input must be 3-D ([N, C * prod(block_shape), L]), but has shape [4, 4]}}
  %0 = graph.col2im %x, %i, %b : (tensor<4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @col2im_block(%x: tensor<1x6x4xf32>, %i: tensor<2xi64>) {
  %b = graph.constant dense<[2, 2]> : tensor<2xi64>
  // expected-error @+1 {{'graph.col2im' op input's dimension 1 (6) must be a multiple of the block's size (4)}}
  %0 = graph.col2im %x, %i, %b : (tensor<1x6x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?x?x?xf32>
  return
}

// -----

func.func @col2im_ranks(%x: tensor<1x4x4xf32>, %i: tensor<3xi64>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'graph.col2im' op image_shape has 3 entries but block_shape has 2}}
  %0 = graph.col2im %x, %i, %b : (tensor<1x4x4xf32>, tensor<3xi64>, tensor<2xi64>) -> tensor<1x?x?x?x?xf32>
  return
}

// -----

func.func @col2im_pads(%x: tensor<1x4x4xf32>, %i: tensor<2xi64>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'graph.col2im' op pads must have 4 entries, but has 2}}
  %0 = graph.col2im %x, %i, %b {pads = array<i64: 1, 1>} : (tensor<1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?x?x?xf32>
  return
}

// -----

// graph.affine_grid: theta [N, 2, 3] with a size of 4 entries, or [N, 3, 4]
// with 5.
func.func @affine_grid_theta(%t: tensor<1x2x4xf32>, %s: tensor<4xi64>) {
  // expected-error @+1 {{'graph.affine_grid' op theta must be [N, 2, 3] or [N, 3, 4], but has shape [1, 2, 4]}}
  %0 = graph.affine_grid %t, %s : (tensor<1x2x4xf32>, tensor<4xi64>) -> tensor<?x?x?x2xf32>
  return
}

// -----

func.func @affine_grid_size(%t: tensor<1x2x3xf32>, %s: tensor<5xi64>) {
  // expected-error @+1 {{'graph.affine_grid' op theta [1, 2, 3] is for 2-D grids, but size has 5 entries}}
  %0 = graph.affine_grid %t, %s : (tensor<1x2x3xf32>, tensor<5xi64>) -> tensor<?x?x?x?x3xf32>
  return
}

// -----

func.func @affine_grid_batch(%t: tensor<2x2x3xf32>) {
  %s = graph.constant dense<[3, 1, 4, 4]> : tensor<4xi64>
  // expected-error @+1 {{'graph.affine_grid' op size's batch (3) differs from theta's (2)}}
  %0 = graph.affine_grid %t, %s : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<3x4x4x2xf32>
  return
}

// -----

func.func @col2im_negative(%x: tensor<1x4x4xf32>, %b: tensor<2xi64>) {
  %i = graph.constant dense<[-3, 3]> : tensor<2xi64>
  // expected-error @+1 {{'graph.col2im' op image_shape has a negative size: [-3, 3]}}
  %0 = graph.col2im %x, %i, %b : (tensor<1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?x?x?xf32>
  return
}

// -----

// graph.linear_attention: query heads a multiple of the key/value heads,
// packed sizes that split into them, the rule's decay and beta operands,
// and a past state of [batch, kv_heads, d_k, d_v].
func.func @linear_attention_heads(%q: tensor<1x2x6xf32>) {
  // expected-error @+1 {{'graph.linear_attention' op q_num_heads (3) must be a positive multiple of kv_num_heads (2)}}
  %o, %s = graph.linear_attention %q, %q, %q {q_num_heads = 3 : i64, kv_num_heads = 2 : i64, update_rule = "linear"} : (tensor<1x2x6xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @linear_attention_key(%q: tensor<1x2x8xf32>, %k: tensor<1x2x6xf32>) {
  // expected-error @+1 {{'graph.linear_attention' op operand 'key' packs 6 values per token, but kv_num_heads * d_k is 8}}
  %o, %s = graph.linear_attention %q, %k, %k {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, update_rule = "linear"} : (tensor<1x2x8xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @linear_attention_rule(%q: tensor<1x2x4xf32>) {
  // expected-error @+1 {{'graph.linear_attention' op update rule requires a decay operand}}
  %o, %s = graph.linear_attention %q, %q, %q {q_num_heads = 1 : i64, kv_num_heads = 1 : i64, update_rule = "gated"} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @linear_attention_rule_name(%q: tensor<1x2x4xf32>) {
  // expected-error @+1 {{'graph.linear_attention' op has update_rule 'fast' (expected 'linear', 'gated', 'delta' or 'gated_delta')}}
  %o, %s = graph.linear_attention %q, %q, %q {q_num_heads = 1 : i64, kv_num_heads = 1 : i64, update_rule = "fast"} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @linear_attention_state(%q: tensor<1x2x4xf32>, %p: tensor<1x1x4x2xf32>) {
  // expected-error @+1 {{'graph.linear_attention' op operand 'past_state' has shape [1, 1, 4, 2], but must be [batch, kv_num_heads, d_k, d_v] ([1, 1, 4, 4])}}
  %o, %s = graph.linear_attention %q, %q, %q past_state %p {q_num_heads = 1 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x1x4x2xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

func.func @linear_attention_beta(%q: tensor<1x2x4xf32>, %b: tensor<1x2x3xf32>) {
  // expected-error @+1 {{'graph.linear_attention' op operand 'beta' has 3 values per token; expected kv_num_heads (1) or 1}}
  %o, %s = graph.linear_attention %q, %q, %q beta %b {q_num_heads = 1 : i64, kv_num_heads = 1 : i64, update_rule = "delta"} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

// graph.deform_conv2d: offsets of two maps per kernel tap and offset group,
// at the output's size.
func.func @deform_conv_offset(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %o: tensor<1x9x2x2xf32>) {
  // expected-error @+1 {{'graph.deform_conv2d' op offset has shape [1, 9, 2, 2], but must be [1, 18, 2, 2]}}
  %0 = graph.deform_conv2d %x, %w, %o : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>, tensor<1x9x2x2xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @deform_conv_groups(%x: tensor<1x3x4x4xf32>, %w: tensor<3x3x3x3xf32>, %o: tensor<1x36x2x2xf32>) {
  // expected-error @+1 {{'graph.deform_conv2d' op 3 input channels are not divisible into 2 offset groups}}
  %0 = graph.deform_conv2d %x, %w, %o {offset_group = 2 : i64} : (tensor<1x3x4x4xf32>, tensor<3x3x3x3xf32>, tensor<1x36x2x2xf32>) -> tensor<*xf32>
  return
}
