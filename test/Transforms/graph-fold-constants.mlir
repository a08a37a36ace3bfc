// REQUIRES: strata-opt
// graph-fold-constants evaluates graph ops on constant operands through the
// reference interpreter, chains included, up to `max-elements` elements per
// operand and result; the constants it no longer needs are erased.
// RUN: strata-opt %s --split-input-file --graph-fold-constants | FileCheck %s
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(graph-fold-constants{max-elements=4})' | FileCheck %s --check-prefix=LIMIT
// RUN: strata-opt %s --split-input-file --canonicalize | FileCheck %s --check-prefix=CANON

// Shape arithmetic folds to one constant.
// CHECK-LABEL: func.func @constant_subgraph
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[2, 12]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0, %[[C]]
// CHECK-NEXT: return %[[R]]
// LIMIT-LABEL: func.func @constant_subgraph
// LIMIT: graph.constant dense<[2, 12]> : tensor<2xi64>
// CANON-LABEL: func.func @constant_subgraph
// CANON: graph.slice
// CANON: graph.mul
func.func @constant_subgraph(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %shape = graph.shape_of %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %s = graph.constant dense<[0]> : tensor<1xi64>
  %e = graph.constant dense<[1]> : tensor<1xi64>
  %batch = graph.slice %shape, %s, %e : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %minus1 = graph.constant dense<[-1]> : tensor<1xi64>
  %target = graph.concat %batch, %minus1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %abs = graph.abs %target : (tensor<2xi64>) -> tensor<2xi64>
  %twelve = graph.constant dense<[1, 12]> : tensor<2xi64>
  %t = graph.mul %abs, %twelve : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %r = graph.reshape %x, %t : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}

// -----

// Weights folded up to the limit: 8 elements fold by default, not with
// max-elements=4.
// CHECK-LABEL: func.func @weights
// CHECK-NEXT: %[[W:.*]] = graph.constant dense<[2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01, 1.600000e+01]> : tensor<8xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.add %arg0, %[[W]]
// CHECK-NEXT: return %[[Y]]
// LIMIT-LABEL: func.func @weights
// LIMIT-NEXT: graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]>
// LIMIT-NEXT: graph.add %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// LIMIT-NEXT: graph.add %arg0
func.func @weights(%x: tensor<8xf32>) -> tensor<8xf32> {
  %w = graph.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %w2 = graph.add %w, %w : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %y = graph.add %x, %w2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// An op with a non-constant operand stays; a constant still used stays.
// CHECK-LABEL: func.func @partly_constant
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<3> : tensor<2xi64>
// CHECK-NEXT: %[[N:.*]] = graph.constant dense<-3> : tensor<2xi64>
// CHECK-NEXT: %[[A:.*]] = graph.add %arg0, %[[C]]
// CHECK-NEXT: return %[[A]], %[[N]]
func.func @partly_constant(%x: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {
  %c = graph.constant dense<3> : tensor<2xi64>
  %n = graph.neg %c : (tensor<2xi64>) -> tensor<2xi64>
  %a = graph.add %x, %c : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %a, %n : tensor<2xi64>, tensor<2xi64>
}

// -----

// A graph.if whose condition folds (the size of a static tensor compared
// with a constant) becomes its taken branch, whose ops fold in turn.
// CHECK-LABEL: func.func @computed_if
// CHECK-SAME: (%[[X:.*]]: tensor<4xi64>)
// CHECK-NEXT: %[[N:.*]] = graph.neg %[[X]] : (tensor<4xi64>) -> tensor<?xi64>
// CHECK-NEXT: %[[Y:.*]] = graph.constant dense<[2, 3, 4, 5]> : tensor<4xi64>
// CHECK-NEXT: return %[[N]], %[[Y]]
func.func @computed_if(%x: tensor<4xi64>) -> (tensor<?xi64>, tensor<4xi64>) {
  %three = graph.constant dense<3> : tensor<i64>
  %four = graph.constant dense<4> : tensor<i64>
  %base = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %n = graph.size %x : (tensor<4xi64>) -> tensor<i64>
  %c = graph.equal %n, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = graph.if %c : tensor<i1> -> (tensor<?xi64>) {
    %one = graph.constant dense<1> : tensor<i64>
    %y = graph.add %x, %one : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
    graph.yield %y : tensor<4xi64>
  } else {
    graph.yield %x : tensor<4xi64>
  }
  %s = graph.neg %r : (tensor<?xi64>) -> tensor<?xi64>
  %c4 = graph.equal %n, %four : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %k = graph.if %c4 : tensor<i1> -> (tensor<4xi64>) {
    %one = graph.constant dense<1> : tensor<i64>
    %y = graph.add %base, %one : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
    graph.yield %y : tensor<4xi64>
  } else {
    graph.yield %base : tensor<4xi64>
  }
  return %s, %k : tensor<?xi64>, tensor<4xi64>
}

// -----

// The ops of a branch not taken go with their graph.if, nested control flow
// included (they are not visited after it is erased); the constant only
// they used is left for `dce`.
// CHECK-LABEL: func.func @nested_not_taken
// CHECK-NEXT: graph.constant dense<true> : tensor<i1>
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<2.000000e+00> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @nested_not_taken() -> tensor<2xf32> {
  %false = graph.constant dense<false> : tensor<i1>
  %true = graph.constant dense<true> : tensor<i1>
  %one = graph.constant dense<1.0> : tensor<2xf32>
  %r = graph.if %false : tensor<i1> -> (tensor<2xf32>) {
    %inner = graph.if %true : tensor<i1> -> (tensor<2xf32>) {
      %n = graph.neg %one : (tensor<2xf32>) -> tensor<2xf32>
      graph.yield %n : tensor<2xf32>
    } else {
      graph.yield %one : tensor<2xf32>
    }
    graph.yield %inner : tensor<2xf32>
  } else {
    %d = graph.add %one, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %d : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// Each op's result types are refined as the walk reaches it: the expand's
// sizes fold, so its result is known to be 1x4 and the shape read from it
// folds in the same run (a model's dimension of size 1 once left such a
// shape_of for a second round of inference and folding).
// CHECK-LABEL: func.func @refined_as_it_folds
// CHECK-NEXT: %[[S:.*]] = graph.constant dense<[1, 4]> : tensor<2xi64>
// CHECK-NEXT: %[[E:.*]] = graph.expand %arg0, %[[S]] : (tensor<1x1xf32>, tensor<2xi64>) -> tensor<1x4xf32>
// CHECK-NEXT: %[[T:.*]] = graph.constant dense<[1, 4]> : tensor<2xi64>
// CHECK-NEXT: graph.reshape %[[E]], %[[T]] : (tensor<1x4xf32>, tensor<2xi64>)
func.func @refined_as_it_folds(%x: tensor<1x1xf32>, %y: tensor<1x4xf32>) -> tensor<?x?xf32> {
  %s = graph.shape_of %y : (tensor<1x4xf32>) -> tensor<2xi64>
  %e = graph.expand %x, %s : (tensor<1x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %t = graph.shape_of %e : (tensor<?x?xf32>) -> tensor<2xi64>
  %r = graph.reshape %e, %t : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Slices that share a constant, nothing else using it, fold whatever their
// size when together they hold no more elements than it (a 3-D
// convolution's weight cut into its depth taps): the constant goes once
// the last one is folded. Overlapping slices that would hold more stay.
// LIMIT-LABEL: func.func @shared_slices
// LIMIT-NEXT: %[[A:.*]] = graph.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00]> : tensor<6xf32>
// LIMIT-NEXT: %[[B:.*]] = graph.constant dense<[6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01]> : tensor<6xf32>
// LIMIT-NEXT: return %[[A]], %[[B]]
func.func @shared_slices() -> (tensor<6xf32>, tensor<6xf32>) {
  %w = graph.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
  %s0 = graph.constant dense<0> : tensor<1xi64>
  %s1 = graph.constant dense<6> : tensor<1xi64>
  %e1 = graph.constant dense<12> : tensor<1xi64>
  %a = graph.slice %w, %s0, %s1 : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<6xf32>
  %b = graph.slice %w, %s1, %e1 : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<6xf32>
  return %a, %b : tensor<6xf32>, tensor<6xf32>
}

// LIMIT-LABEL: func.func @overlapping_slices
// LIMIT: graph.slice
// LIMIT: graph.slice
func.func @overlapping_slices() -> (tensor<8xf32>, tensor<8xf32>) {
  %w = graph.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
  %s0 = graph.constant dense<0> : tensor<1xi64>
  %s1 = graph.constant dense<4> : tensor<1xi64>
  %e0 = graph.constant dense<8> : tensor<1xi64>
  %e1 = graph.constant dense<12> : tensor<1xi64>
  %a = graph.slice %w, %s0, %e0 : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<8xf32>
  %b = graph.slice %w, %s1, %e1 : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// A constant that something else uses too (here the return, an op without
// results) keeps its slices under the limit.
// LIMIT-LABEL: func.func @slice_and_return
// LIMIT: graph.slice
// LIMIT: return
func.func @slice_and_return() -> (tensor<6xf32>, tensor<12xf32>) {
  %w = graph.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>
  %s0 = graph.constant dense<0> : tensor<1xi64>
  %s1 = graph.constant dense<6> : tensor<1xi64>
  %a = graph.slice %w, %s0, %s1 : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<6xf32>
  return %a, %w : tensor<6xf32>, tensor<12xf32>
}
