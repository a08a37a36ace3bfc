// tensor-fuse: which producer-consumer chains become one tensor.fusion
// group (one kernel), and which do not.
// REQUIRES: strata-opt
// RUN: strata-opt --tensor-fuse --split-input-file %s | FileCheck %s
// RUN: strata-opt '--pass-pipeline=builtin.module(tensor-fuse{min-ops=3})' --split-input-file %s | FileCheck %s --check-prefix=MIN3
// RUN: strata-opt '--pass-pipeline=builtin.module(tensor-fuse{max-ops=2})' --split-input-file %s | FileCheck %s --check-prefix=MAX2
// RUN: strata-opt '--pass-pipeline=builtin.module(tensor-fuse{exclude=tensor.contract})' --split-input-file %s | FileCheck %s --check-prefix=EXCL
// RUN: not strata-opt '--pass-pipeline=builtin.module(tensor-fuse{min-ops=3 max-ops=2})' %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: strata-opt --tensor-fuse --mlir-pass-statistics --split-input-file %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Softmax: max-reduce, exp(x - max), sum-reduce and the division are one
// row group, whose only output is the division.
// CHECK-LABEL: func.func @softmax(
// CHECK-NEXT:    %[[F:.*]] = tensor.fusion ins(%arg0 : tensor<5x100xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<5x100xf32>):
// CHECK-NEXT:      %[[M:.*]] = tensor.reduce ins(%[[X]] : tensor<5x100xf32>) dims [1]
// CHECK:           %[[E:.*]] = tensor.map ins(%[[X]], %[[M]] :
// CHECK:           %[[S:.*]] = tensor.reduce ins(%[[E]] : tensor<5x100xf32>) dims [1]
// CHECK:           %[[Q:.*]] = tensor.map ins(%[[E]], %[[S]] :
// CHECK:           tensor.yield %[[Q]] : tensor<5x100xf32>
// CHECK-NEXT:    } : tensor<5x100xf32>
// CHECK-NEXT:    return %[[F]]
// MIN3-LABEL: func.func @softmax(
// MIN3-NEXT:    tensor.fusion
// A group stops at max-ops: two groups of two, the second a row group of
// its own (the sum-reduce and the division).
// MAX2-LABEL: func.func @softmax(
// MAX2-NEXT:    %[[G1:.*]] = tensor.fusion ins(%arg0 : tensor<5x100xf32>) {
// MAX2:           tensor.reduce
// MAX2:           %[[E:.*]] = tensor.map
// MAX2:           tensor.yield %[[E]] : tensor<5x100xf32>
// MAX2-NEXT:    } : tensor<5x100xf32>
// MAX2-NEXT:    %[[G2:.*]] = tensor.fusion ins(%[[G1]] : tensor<5x100xf32>) {
// MAX2:           tensor.reduce
// MAX2:           %[[Q:.*]] = tensor.map
// MAX2:           tensor.yield %[[Q]] : tensor<5x100xf32>
// MAX2-NEXT:    } : tensor<5x100xf32>
// MAX2-NEXT:    return %[[G2]]

// A matmul with its bias and relu: the epilogue joins the contraction.
// CHECK-LABEL: func.func @mm(
// CHECK-NEXT:    %[[F:.*]] = tensor.fusion ins(%arg0, %arg1, %arg2 : tensor<5x100xf32>, tensor<100x40xf32>, tensor<40xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<5x100xf32>, %[[W:.*]]: tensor<100x40xf32>, %[[B:.*]]: tensor<40xf32>):
// CHECK-NEXT:      %[[C:.*]] = tensor.contract ins(%[[A]], %[[W]] :
// CHECK-NEXT:      %[[Y:.*]] = tensor.map ins(%[[C]], %[[B]] :
// CHECK:           tensor.yield %[[Y]]
// CHECK-NEXT:    } : tensor<5x40xf32>
// CHECK-NEXT:    return %[[F]]
// A group of two is below min-ops=3, and an excluded contraction stays alone
// (its epilogue alone is no group either).
// MIN3-LABEL: func.func @mm(
// MIN3-NOT:     tensor.fusion
// MIN3:         return
// EXCL-LABEL: func.func @mm(
// EXCL-NOT:     tensor.fusion
// EXCL:         return

// Two contractions never share a group: the second starts its own (and,
// alone, stays unfused).
// CHECK-LABEL: func.func @two_contractions(
// CHECK-NEXT:    %[[G:.*]] = tensor.fusion ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x8xf32>) {
// CHECK:           tensor.contract
// CHECK-NOT:       tensor.contract
// CHECK:           %[[T:.*]] = tensor.map
// CHECK:           tensor.yield %[[T]] : tensor<4x8xf32>
// CHECK-NEXT:    } : tensor<4x8xf32>
// CHECK-NEXT:    tensor.contract ins(%[[G]], %arg2 :
// CHECK-NEXT:    return

// The contraction uses %a before %b: %b cannot join %a's group (the group
// would be placed after that use), so nothing fuses.
// CHECK-LABEL: func.func @early_use(
// CHECK-NOT:     tensor.fusion
// CHECK:         return
// With the use after %b, %a and %b fuse and the group yields both.
// CHECK-LABEL: func.func @late_use(
// CHECK-NEXT:    %[[G:.*]]:2 = tensor.fusion ins(%arg0 : tensor<4x8xf32>) {
// CHECK:           tensor.yield %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:    } : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:    %[[C:.*]] = tensor.contract ins(%[[G]]#0, %arg1 :
// CHECK-NEXT:    return %[[C]], %[[G]]#1

// A map on another domain (the transposed result) does not join.
// CHECK-LABEL: func.func @other_domain(
// CHECK-NOT:     tensor.fusion
// CHECK:         return

// BAD: tensor-fuse: need 1 <= min-ops <= max-ops, got 3 and 2

// Over all the chunks: softmax, mm, two_contractions, late_use and
// constant_operand.
// STATS: (S) 6 num-groups
// STATS: (S) 14 num-fused-ops

func.func @softmax(%x: tensor<5x100xf32>) -> tensor<5x100xf32> {
  %m = tensor.reduce ins(%x : tensor<5x100xf32>) dims [1] init(0xFF800000 : f32) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    tensor.yield %r : f32
  } : tensor<5xf32>
  %e = tensor.map ins(%x, %m : tensor<5x100xf32>, tensor<5xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] {
  ^bb0(%a: f32, %mx: f32):
    %d = arith.subf %a, %mx : f32
    %ex = math.exp %d : f32
    tensor.yield %ex : f32
  } : tensor<5x100xf32>
  %s = tensor.reduce ins(%e : tensor<5x100xf32>) dims [1] init(0.0 : f32) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    tensor.yield %r : f32
  } : tensor<5xf32>
  %sm = tensor.map ins(%e, %s : tensor<5x100xf32>, tensor<5xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] {
  ^bb0(%a: f32, %t: f32):
    %q = arith.divf %a, %t : f32
    tensor.yield %q : f32
  } : tensor<5x100xf32>
  return %sm : tensor<5x100xf32>
}

// -----

func.func @mm(%x: tensor<5x100xf32>, %w: tensor<100x40xf32>, %b: tensor<40xf32>) -> tensor<5x40xf32> {
  %mm = tensor.contract ins(%x, %w : tensor<5x100xf32>, tensor<100x40xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<5x40xf32>
  %y = tensor.map ins(%mm, %b : tensor<5x40xf32>, tensor<40xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>] {
  ^bb0(%a: f32, %bias: f32):
    %z = arith.addf %a, %bias : f32
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %z, %zero : f32
    tensor.yield %relu : f32
  } : tensor<5x40xf32>
  return %y : tensor<5x40xf32>
}

// -----

func.func @two_contractions(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %v: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = tensor.contract ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x8xf32>
  %r = tensor.map ins(%a : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%p: f32):
    %t = math.tanh %p : f32
    tensor.yield %t : f32
  } : tensor<4x8xf32>
  %b = tensor.contract ins(%r, %v : tensor<4x8xf32>, tensor<8x8xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

func.func @early_use(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = tensor.map ins(%x : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%p: f32):
    %t = math.exp %p : f32
    tensor.yield %t : f32
  } : tensor<4x8xf32>
  %c = tensor.contract ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x8xf32>
  %b = tensor.map ins(%a : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%p: f32):
    %t = math.sqrt %p : f32
    tensor.yield %t : f32
  } : tensor<4x8xf32>
  return %c, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

func.func @late_use(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = tensor.map ins(%x : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%p: f32):
    %t = math.exp %p : f32
    tensor.yield %t : f32
  } : tensor<4x8xf32>
  %b = tensor.map ins(%a : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%p: f32):
    %t = math.sqrt %p : f32
    tensor.yield %t : f32
  } : tensor<4x8xf32>
  %c = tensor.contract ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<4x8xf32>
  return %c, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

func.func @other_domain(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %a = tensor.map ins(%x : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%p: f32):
    %t = math.exp %p : f32
    tensor.yield %t : f32
  } : tensor<4x8xf32>
  %b = tensor.map ins(%a : tensor<4x8xf32>) maps [affine_map<(d0, d1) -> (d1, d0)>] {
  ^bb0(%p: f32):
    tensor.yield %p : f32
  } : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}

// -----

// A splat constant that a contraction reads stays an input of the fusion
// (the kernel reads a contraction's operands by tiles from its parameters);
// the one the epilogue reads is copied in.
// CHECK-LABEL: func.func @constant_operand(
// CHECK-NEXT:    %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<3x4xf32>
// CHECK-NEXT:    arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %{{.*}} = tensor.fusion ins(%[[Z]], %arg0 : tensor<3x4xf32>, tensor<4x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[ZA:.*]]: tensor<3x4xf32>, %[[R:.*]]: tensor<4x4xf32>):
// CHECK-NEXT:      arith.constant dense<1.000000e+00> : tensor<3x4xf32>
// CHECK-NEXT:      tensor.contract ins(%[[ZA]], %[[R]] :
func.func @constant_operand(%r: tensor<4x4xf32>) -> tensor<3x4xf32> {
  %zero = arith.constant dense<0.0> : tensor<3x4xf32>
  %one = arith.constant dense<1.0> : tensor<3x4xf32>
  %mm = tensor.contract ins(%zero, %r : tensor<3x4xf32>, tensor<4x4xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<3x4xf32>
  %y = tensor.map ins(%mm, %one : tensor<3x4xf32>, tensor<3x4xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tensor.yield %s : f32
  } : tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// -----

// One splat constant read by the contraction and by the epilogue (an
// unrolled recurrent step with zero initial state: `H Rᵀ` and
// `where(live, h', H)`): it is an input of the fusion for both, not
// copied in for the epilogue, which would shadow the contraction's
// parameter.
// CHECK-LABEL: func.func @shared_constant_operand(
// CHECK-NEXT:    %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = tensor.fusion ins(%[[Z]], %arg0 : tensor<3x4xf32>, tensor<4x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[ZA:.*]]: tensor<3x4xf32>, %[[R:.*]]: tensor<4x4xf32>):
// CHECK-NEXT:      %[[C:.*]] = tensor.contract ins(%[[ZA]], %[[R]] :
// CHECK-NEXT:      tensor.map ins(%[[C]], %[[ZA]] :
func.func @shared_constant_operand(%r: tensor<4x4xf32>) -> tensor<3x4xf32> {
  %zero = arith.constant dense<0.0> : tensor<3x4xf32>
  %mm = tensor.contract ins(%zero, %r : tensor<3x4xf32>, tensor<4x4xf32>) maps [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : tensor<3x4xf32>
  %y = tensor.map ins(%mm, %zero : tensor<3x4xf32>, tensor<3x4xf32>) maps [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tensor.yield %s : f32
  } : tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
