// Verifier errors of the kernel dialect.
// REQUIRES: strata-opt
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'kernel.func' op grid rank must be 1, 2 or 3, got 4}}
kernel.func @k() attributes {grid = 4 : i32} {
  kernel.return
}

// -----

// expected-error @+1 {{'kernel.func' op num_warps must be a power of two from 1 to 32, got 3}}
kernel.func @k() attributes {num_warps = 3 : i32} {
  kernel.return
}

// -----

// expected-error @+1 {{'kernel.func' op parameter #0 must be a pointer or an integer or float scalar, got 'tensor<4xf32>'}}
kernel.func @k(%a: tensor<4xf32>) {
  kernel.return
}

// -----

kernel.func @k() {
  // expected-error @+1 {{'kernel.range' op expects end > start, got 4, 4}}
  %r = kernel.range 4, 4 : tensor<0xi32>
  kernel.return
}

// -----

kernel.func @k() {
  // expected-error @+1 {{'kernel.range' op result must be tensor<8xi32>, got 'tensor<4xi32>'}}
  %r = kernel.range 0, 8 : tensor<4xi32>
  kernel.return
}

// -----

kernel.func @k(%x: f32) {
  // expected-error @+1 {{'kernel.splat' op expects a scalar of the result's element type, got 'f32' for 'tensor<4xi32>'}}
  %r = kernel.splat %x : f32 -> tensor<4xi32>
  kernel.return
}

// -----

kernel.func @k() {
  %r = kernel.range 0, 4 : tensor<4xi32>
  // expected-error @+1 {{'kernel.broadcast' op cannot broadcast 'tensor<4xi32>' to 'tensor<8xi32>'}}
  %b = kernel.broadcast %r : tensor<4xi32> -> tensor<8xi32>
  kernel.return
}

// -----

kernel.func @k() {
  %r = kernel.range 0, 4 : tensor<4xi32>
  // expected-error @+1 {{'kernel.expand_dims' op axis 2 is out of range}}
  %b = kernel.expand_dims %r axis = 2 : tensor<4xi32> -> tensor<4x1xi32>
  kernel.return
}

// -----

kernel.func @k(%p: !kernel.ptr<f32>) {
  %r = kernel.range 0, 4 : tensor<4xi32>
  // expected-error @+1 {{'kernel.addptr' op offsets 'tensor<4xi32>' must have the shape (and layout) of the pointers '!kernel.ptr<f32>'}}
  %q = kernel.addptr %p, %r : !kernel.ptr<f32>, tensor<4xi32>
  kernel.return
}

// -----

kernel.func @k(%p: !kernel.ptr<f32>) {
  // expected-error @+1 {{expected a pointer type or a tile of pointers}}
  %v = kernel.load %p : f32
  kernel.return
}

// -----

kernel.func @k(%p: !kernel.ptr<f32>, %v: f16) {
  // expected-error @+1 {{'kernel.store' op value 'f16' does not match the pointers '!kernel.ptr<f32>'}}
  "kernel.store"(%p, %v) : (!kernel.ptr<f32>, f16) -> ()
  kernel.return
}

// -----

kernel.func @k(%p: !kernel.ptr<f32>, %m: i32) {
  // expected-error @+1 {{'kernel.load' op mask 'i32' must be i1 shaped as the pointers '!kernel.ptr<f32>'}}
  %v = "kernel.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!kernel.ptr<f32>, i32) -> f32
  kernel.return
}


// -----

kernel.func @k() {
  %a = arith.constant dense<0.0> : tensor<4x8xf16>
  %c = arith.constant dense<0.0> : tensor<4x4xf32>
  // expected-error @+1 {{'kernel.dot' op shapes do not compose: 'tensor<4x8xf16>' * 'tensor<4x8xf16>' -> 'tensor<4x4xf32>'}}
  %d = kernel.dot %a, %a, %c : tensor<4x8xf16> * tensor<4x8xf16> -> tensor<4x4xf32>
  kernel.return
}

// -----

kernel.func @k() {
  %a = arith.constant dense<0.0> : tensor<4x4xf16>
  %c = arith.constant dense<0.0> : tensor<4x4xf64>
  // expected-error @+1 {{'kernel.dot' op operands of 'f16' and 'f16' need an accumulator of their type (f32 for f16 and bf16, i32 for i8), got 'f64'}}
  %d = kernel.dot %a, %a, %c : tensor<4x4xf16> * tensor<4x4xf16> -> tensor<4x4xf64>
  kernel.return
}

// -----

kernel.func @k() {
  %a = arith.constant dense<0.0> : tensor<4x8xf32>
  // expected-error @+1 {{'kernel.reduce' op result 'tensor<8xf32>' must be 'tensor<4x8xf32>' without dimension 1}}
  %r = kernel.reduce %a axis = 1 {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    kernel.yield %s : f32
  } : tensor<4x8xf32> -> tensor<8xf32>
  kernel.return
}

// -----

kernel.func @k() {
  %a = arith.constant dense<0.0> : tensor<4xf32>
  // expected-error @+1 {{'kernel.reduce' op the combiner takes two 'f32' arguments}}
  %r = kernel.reduce %a axis = 0 {
  ^bb0(%x: f32):
    kernel.yield %x : f32
  } : tensor<4xf32> -> f32
  kernel.return
}

// -----

func.func @f() {
  // expected-error @+1 {{'kernel.return' op expects parent op 'kernel.func'}}
  kernel.return
}

// -----

func.func @plan() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'kernel.launch' op 'nope' does not reference a kernel.func}}
  kernel.launch @nope grid(%c1) ()
  return
}

// -----

kernel.func @k(%p: !kernel.ptr<f32>) attributes {grid = 2 : i32} {
  kernel.return
}
func.func @plan(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'kernel.launch' op 'k' has a grid of rank 2, launched with 1 sizes}}
  kernel.launch @k grid(%c1) (%m) : memref<4xf32>
  return
}

// -----

kernel.func @k(%p: !kernel.ptr<f32>) {
  kernel.return
}
func.func @plan(%m: memref<4xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'kernel.launch' op argument #0 of type 'memref<4xf16>' does not match parameter '!kernel.ptr<f32>'}}
  kernel.launch @k grid(%c1) (%m) : memref<4xf16>
  return
}

// -----

func.func @plan() {
  %a = kernel.alloc offset 0 : memref<4xf32>
  // expected-error @+1 {{'kernel.view' op 'memref<4xf32>' and 'memref<8xf32>' must have the same element type and count}}
  %b = kernel.view %a : memref<4xf32> to memref<8xf32>
  return
}

// -----

// expected-error @+1 {{pointee must be an integer or float type, got 'tensor<4xf32>'}}
func.func @f(%p: !kernel.ptr<tensor<4xf32>>) {
  return
}

// -----

func.func @gemm(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'kernel.gemm' op rhs is read out of bounds: element 134 of 128}}
  kernel.gemm %a, %b, %c {batch = array<i64>, m = 4, n = 16, k = 8, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 17, 1>, out_strides = array<i64: 16, 1>} : memref<4x8xf32>, memref<8x16xf32>, memref<4x16xf32>
  return
}

// -----

func.func @gemm(%a: memref<4x8xf16>, %b: memref<8x16xf16>, %c: memref<4x16xf16>) {
  // expected-error @+1 {{'kernel.gemm' op operands must be f32 or f64}}
  kernel.gemm %a, %b, %c {batch = array<i64>, m = 4, n = 16, k = 8, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 16, 1>, out_strides = array<i64: 16, 1>} : memref<4x8xf16>, memref<8x16xf16>, memref<4x16xf16>
  return
}

// -----

// Strides whose farthest element overflows i64 are out of bounds, not wrapped.
func.func @gemm(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'kernel.gemm' op lhs is read out of bounds: element past the i64 range of 32}}
  kernel.gemm %a, %b, %c {batch = array<i64>, m = 4, n = 16, k = 8, lhs_strides = array<i64: 4611686018427387904, 1>, rhs_strides = array<i64: 16, 1>, out_strides = array<i64: 16, 1>} : memref<4x8xf32>, memref<8x16xf32>, memref<4x16xf32>
  return
}

// -----

func.func @gemm(%a: memref<4x8xf32>, %b: memref<8x16xf64>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'kernel.gemm' op operands must have one element type}}
  kernel.gemm %a, %b, %c {batch = array<i64>, m = 4, n = 16, k = 8, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 16, 1>, out_strides = array<i64: 16, 1>} : memref<4x8xf32>, memref<8x16xf64>, memref<4x16xf32>
  return
}

// -----

func.func @gemm(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'kernel.gemm' op out_strides must hold 2 non-negative strides}}
  kernel.gemm %a, %b, %c {batch = array<i64>, m = 4, n = 16, k = 8, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 16, 1>, out_strides = array<i64: 16>} : memref<4x8xf32>, memref<8x16xf32>, memref<4x16xf32>
  return
}

// -----

// kernel.convert_layout keeps the shape and the element type.
#l = #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert(%x: tensor<128xf32>) {
  // expected-error @+1 {{'kernel.convert_layout' op converts 'tensor<128xf32>' to 'tensor<64xf32, #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>': the shape and element type must stay}}
  %y = kernel.convert_layout %x : tensor<128xf32> -> tensor<64xf32, #l>
  return
}

// -----

// Pointer offsets, loaded values and stored values are in the pointers'
// layout.
#l = #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
kernel.func @offsets(%p: !kernel.ptr<f32>) attributes {grid = 1 : i32} {
  %r = kernel.range 0, 128 : tensor<128xi32>
  %s = kernel.splat %p : !kernel.ptr<f32> -> tensor<128x!kernel.ptr<f32>, #l>
  // expected-error @+1 {{'kernel.addptr' op offsets 'tensor<128xi32>' must have the shape (and layout) of the pointers}}
  %a = kernel.addptr %s, %r : tensor<128x!kernel.ptr<f32>, #l>, tensor<128xi32>
  kernel.return
}

// -----

#l = #nvptx.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @stored(%p: tensor<128x!kernel.ptr<f32>, #l>, %v: tensor<128xf32>) {
  // expected-error @+1 {{'kernel.store' op 'tensor<128xf32>' is not in the pointers' layout}}
  "kernel.store"(%p, %v) : (tensor<128x!kernel.ptr<f32>, #l>, tensor<128xf32>) -> ()
  return
}

// -----

func.func @check_sizes(%i: memref<3xi64>) {
  // expected-error @+1 {{'kernel.check_indices' op expects as many sizes as axes, at least one, each positive (got sizes [0], axes [0])}}
  kernel.check_indices %i {axes = array<i64: 0>, message = "", sizes = array<i64: 0>} : memref<3xi64>
  return
}

// -----

func.func @check_type(%i: memref<3x3xi64>) {
  // expected-error @+1 {{'kernel.check_indices' op expects a buffer of i32 or i64 indices whose last dimension holds the 2 sizes, got 'memref<3x3xi64>'}}
  kernel.check_indices %i {axes = array<i64: 0, 1>, message = "", sizes = array<i64: 4, 4>} : memref<3x3xi64>
  return
}

// -----

// Every output element is written once: a zero stride (or overlapping
// strides) would have several threads write one element.
func.func @gemm_out_overlap(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<1xf32>) {
  // expected-error @+1 {{'kernel.gemm' op out_strides [0, 0] write some elements of the [4, 16] output twice: output strides must not overlap}}
  kernel.gemm %a, %b, %c {batch = array<i64>, m = 4, n = 16, k = 8, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 16, 1>, out_strides = array<i64: 0, 0>} : memref<4x8xf32>, memref<8x16xf32>, memref<1xf32>
  return
}

// -----

func.func @gemm_out_rows_overlap(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<64xf32>) {
  // expected-error @+1 {{'kernel.gemm' op out_strides [8, 1] write some elements of the [4, 16] output twice: output strides must not overlap}}
  kernel.gemm %a, %b, %c {batch = array<i64>, m = 4, n = 16, k = 8, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 16, 1>, out_strides = array<i64: 8, 1>} : memref<4x8xf32>, memref<8x16xf32>, memref<64xf32>
  return
}

// -----

func.func @gemm_out_aliases(%a: memref<16x16xf32>) {
  // expected-error @+1 {{'kernel.gemm' op out must not be an operand it reads}}
  kernel.gemm %a, %a, %a {batch = array<i64>, m = 16, n = 16, k = 16, lhs_strides = array<i64: 16, 1>, rhs_strides = array<i64: 16, 1>, out_strides = array<i64: 16, 1>} : memref<16x16xf32>, memref<16x16xf32>, memref<16x16xf32>
  return
}

// -----

// Element counts are compared exactly: 2^32 x 2^32 x 0 has 0 elements,
// 2^28 x (2^36 + 1) more than 64 bits count, and they do not match.
func.func @view_overflow() {
  %c = kernel.constant dense<1.0> : tensor<2xf32> : memref<4294967296x4294967296x0xf32>
  // expected-error @+1 {{'kernel.view' op 'memref<4294967296x4294967296x0xf32>' and 'memref<268435456x68719476737xf32>' must have the same element type and count}}
  %v = kernel.view %c : memref<4294967296x4294967296x0xf32> to memref<268435456x68719476737xf32>
  return
}
