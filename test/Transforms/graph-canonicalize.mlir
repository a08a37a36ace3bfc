// REQUIRES: strata-opt
// Graph-level folds and canonicalizations: no-op reshapes, casts, expands,
// identities and identity transposes fold away; transposes and reshapes
// compose; `shape_of` and `size` of static tensors fold to constants;
// `graph.if` on a constant condition becomes its taken branch; convolution
// taps that read only padding are dropped; a power by 2 or 3 multiplies.
// RUN: strata-opt %s --split-input-file --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @no_ops
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x8xf32, #graph.dims<batch>>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]] :
func.func @no_ops(%x: tensor<?x4x8xf32, #graph.dims<batch>>) -> (tensor<?x4x8xf32, #graph.dims<batch>>, tensor<?x4x8xf32, #graph.dims<batch>>, tensor<?x4x8xf32, #graph.dims<batch>>) {
  %0 = graph.identity %x : (tensor<?x4x8xf32, #graph.dims<batch>>) -> tensor<?x4x8xf32, #graph.dims<batch>>
  %1 = graph.cast %0 : (tensor<?x4x8xf32, #graph.dims<batch>>) -> tensor<?x4x8xf32, #graph.dims<batch>>
  %2 = graph.transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<?x4x8xf32, #graph.dims<batch>>) -> tensor<?x4x8xf32, #graph.dims<batch>>
  %s = graph.constant dense<[0, 4, 8]> : tensor<3xi64>
  %3 = graph.reshape %x, %s : (tensor<?x4x8xf32, #graph.dims<batch>>, tensor<3xi64>) -> tensor<?x4x8xf32, #graph.dims<batch>>
  return %1, %2, %3 : tensor<?x4x8xf32, #graph.dims<batch>>, tensor<?x4x8xf32, #graph.dims<batch>>, tensor<?x4x8xf32, #graph.dims<batch>>
}

// -----

// A transpose of a transpose is one transpose (or none).
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0 {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %arg0, %[[T]] :
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {perm = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %2 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %3 = graph.transpose %2 {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %4 = graph.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %5 = graph.transpose %4 {perm = array<i64: 1, 0, 2>} : (tensor<2x4x3xf32>) -> tensor<4x2x3xf32>
  return %1, %5 : tensor<2x3x4xf32>, tensor<4x2x3xf32>
}

// -----

// A reshape of a reshape reshapes the original (no `0` in the outer shape).
// CHECK-LABEL: func.func @reshapes
// CHECK: %[[S:.*]] = graph.constant dense<[4, 6]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0, %[[S]] : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %s1 = graph.constant dense<[6, 4]> : tensor<2xi64>
  %0 = graph.reshape %x, %s1 : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %s2 = graph.constant dense<[4, 6]> : tensor<2xi64>
  %1 = graph.reshape %0, %s2 : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// `shape_of` of a static tensor folds; ops on constants are left to
// `graph-fold-constants` (test/Transforms/graph-fold-constants.mlir).
// CHECK-LABEL: func.func @constant_operands
// CHECK-NEXT: %[[S:.*]] = graph.constant dense<[2, 3, 4]> : tensor<3xi64>
// CHECK-NEXT: %[[A:.*]] = graph.abs %[[S]]
// CHECK-NEXT: return %[[A]]
func.func @constant_operands(%x: tensor<2x3x4xf32>) -> tensor<3xi64> {
  %shape = graph.shape_of %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %abs = graph.abs %shape : (tensor<3xi64>) -> tensor<3xi64>
  return %abs : tensor<3xi64>
}

// -----

// `graph.if` on a constant condition becomes the taken branch; a result
// the branch gives a more precise type is replaced where only graph ops
// use it, and cast back to its declared type where the function returns
// it (the branch not taken may not even fit the values it would see).
// CHECK-LABEL: func.func @static_if
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[D:.*]] = graph.add %[[X]], %[[X]]
// CHECK-NEXT: %[[N:.*]] = graph.neg %[[D]] : (tensor<3xf32>) -> tensor<?xf32>
// CHECK-NEXT: %[[M:.*]] = graph.mul %[[X]], %[[X]]
// CHECK-NEXT: %[[K:.*]] = graph.cast %[[M]] : (tensor<3xf32>) -> tensor<?xf32>
// CHECK-NEXT: return %[[N]], %[[K]]
func.func @static_if(%x: tensor<3xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %true = graph.constant dense<true> : tensor<i1>
  %false = graph.constant dense<false> : tensor<i1>
  %r = graph.if %true : tensor<i1> -> (tensor<?xf32>) {
    %d = graph.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %d : tensor<3xf32>
  } else {
    graph.yield %x : tensor<3xf32>
  }
  %n = graph.neg %r : (tensor<?xf32>) -> tensor<?xf32>
  %kept = graph.if %false : tensor<i1> -> (tensor<?xf32>) {
    graph.yield %x : tensor<3xf32>
  } else {
    %d = graph.mul %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %d : tensor<3xf32>
  }
  return %n, %kept : tensor<?xf32>, tensor<?xf32>
}

// -----

// Taps of a dilated convolution that read only padding are dropped: on a
// 4x4 map, dilation 12, only the centre tap of the 3x3 kernel reads the
// input, so the weight is sliced to it and the padding goes.
// CHECK-LABEL: func.func @dead_taps
// CHECK: %[[W:.*]] = graph.slice %arg1, {{.*}} -> tensor<8x3x1x3xf32>
// CHECK: %[[W2:.*]] = graph.slice %[[W]], {{.*}} -> tensor<8x3x1x1xf32>
// CHECK: graph.conv2d %arg0, %[[W2]] {dilations = array<i64: 12, 12>} : (tensor<1x3x4x4xf32>, tensor<8x3x1x1xf32>) -> tensor<1x8x4x4xf32>
// A dilation the map can hold keeps every tap.
// CHECK: graph.conv2d %arg0, %arg1 {dilations = array<i64: 2, 2>, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x3x4x4xf32>, tensor<8x3x3x3xf32>)
func.func @dead_taps(%x: tensor<1x3x4x4xf32>, %w: tensor<8x3x3x3xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %0 = graph.conv2d %x, %w {dilations = array<i64: 12, 12>, pads = array<i64: 12, 12, 12, 12>} : (tensor<1x3x4x4xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32>
  %1 = graph.conv2d %x, %w {dilations = array<i64: 2, 2>, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x3x4x4xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32>
  return %0, %1 : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// A float power by the constant 2 or 3 is multiplications; other
// exponents, a result the exponent broadcasts into, and integers stay.
// CHECK-LABEL: func.func @pow_by_multiplication
// CHECK-DAG: %[[HALF:.*]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[WIDE:.*]] = graph.constant dense<3.000000e+00> : tensor<2x4xf32>
// CHECK: %[[SQ:.*]] = graph.mul %arg0, %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[SQ2:.*]] = graph.mul %arg0, %arg0
// CHECK-NEXT: %[[CUBE:.*]] = graph.mul %[[SQ2]], %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[ROOT:.*]] = graph.pow %arg0, %[[HALF]]
// CHECK-NEXT: %[[B:.*]] = graph.pow %arg0, %[[WIDE]]
// CHECK: %[[I:.*]] = graph.pow %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT: return %[[SQ]], %[[CUBE]], %[[ROOT]], %[[B]], %[[I]]
func.func @pow_by_multiplication(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<4xi64>) {
  %two = graph.constant dense<2.0> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<1xf32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %wide = graph.constant dense<3.0> : tensor<2x4xf32>
  %i3 = graph.constant dense<3> : tensor<i64>
  %a = graph.pow %x, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %b = graph.pow %x, %three : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  %c = graph.pow %x, %half : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %d = graph.pow %x, %wide : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %xi = graph.cast %x : (tensor<4xf32>) -> tensor<4xi64>
  %e = graph.pow %xi, %i3 : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  return %a, %b, %c, %d, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<4xi64>
}
