// The reference interpreter on the sequence and optional ops (values
// checked by hand): a scalar split with a smaller last piece, negative
// positions, an erase without a position (the last element), stacking on
// a new last axis, keepdims = false; and the located errors of a position
// out of range, an erase from an empty sequence and the value of an empty
// optional.
// RUN: strata run %s --function pieces --print | FileCheck %s --check-prefix=PIECES
// RUN: strata run %s --function rows --print | FileCheck %s --check-prefix=ROWS
// RUN: not strata run %s --function out_of_range 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not strata run %s --function erase_empty 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not strata run %s --function no_value 2>&1 | FileCheck %s --check-prefix=NONE

// Five rows split two by two: [2, 2, 1]; the last piece is row 4; the
// sequence without its last piece stacks along a new last axis.
// PIECES: output_0: i64 []
// PIECES-NEXT: 3
// PIECES-NEXT: output_1: f32 [1, 2]
// PIECES-NEXT: {{\[\[}}8.0, 9.0]]
// PIECES-NEXT: output_2: f32 [2, 2, 2]
// PIECES-NEXT: {{\[\[\[}}0.0, 4.0], [1.0, 5.0]], {{\[\[}}2.0, 6.0], [3.0, 7.0]]]
func.func @pieces() -> (tensor<i64>, tensor<?x2xf32>, tensor<?x2x2xf32>) {
  %x = graph.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0]]> : tensor<5x2xf32>
  %two = graph.constant dense<2> : tensor<i64>
  %last = graph.constant dense<-1> : tensor<i64>
  %s = graph.split_to_sequence %x sizes %two : (tensor<5x2xf32>, tensor<i64>) -> !graph.seq<tensor<?x2xf32>>
  %n = graph.sequence_length %s : (!graph.seq<tensor<?x2xf32>>) -> tensor<i64>
  %t = graph.sequence_at %s, %last : (!graph.seq<tensor<?x2xf32>>, tensor<i64>) -> tensor<?x2xf32>
  %e = graph.sequence_erase %s : (!graph.seq<tensor<?x2xf32>>) -> !graph.seq<tensor<?x2xf32>>
  %k = graph.concat_from_sequence %e {axis = -1 : i64, new_axis = true} : (!graph.seq<tensor<?x2xf32>>) -> tensor<?x2x2xf32>
  return %n, %t, %k : tensor<i64>, tensor<?x2xf32>, tensor<?x2x2xf32>
}

// The rows of a 3x2 tensor without keepdims, the first moved to the end
// (inserted at position 3 = the length, then erased at 0), joined.
// ROWS: output_0: f32 [6]
// ROWS-NEXT: [2.0, 3.0, 4.0, 5.0, 0.0, 1.0]
func.func @rows() -> tensor<?xf32> {
  %x = graph.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %zero = graph.constant dense<0> : tensor<i32>
  %three = graph.constant dense<3> : tensor<i64>
  %s = graph.split_to_sequence %x {keepdims = false} : (tensor<3x2xf32>) -> !graph.seq<tensor<2xf32>>
  %first = graph.sequence_at %s, %zero : (!graph.seq<tensor<2xf32>>, tensor<i32>) -> tensor<2xf32>
  %moved = graph.sequence_insert %s, %first at %three : (!graph.seq<tensor<2xf32>>, tensor<2xf32>, tensor<i64>) -> !graph.seq<tensor<2xf32>>
  %r = graph.sequence_erase %moved at %zero : (!graph.seq<tensor<2xf32>>, tensor<i32>) -> !graph.seq<tensor<2xf32>>
  %j = graph.concat_from_sequence %r {axis = 0 : i64} : (!graph.seq<tensor<2xf32>>) -> tensor<?xf32>
  return %j : tensor<?xf32>
}

// RANGE: eager-sequence.mlir:[[@LINE+5]]:8: error: 'graph.sequence_at' op position 2 is out of range for a sequence of 2 tensors (expected [-2, 1])
func.func @out_of_range() -> tensor<2xf32> {
  %x = graph.constant dense<1.0> : tensor<2xf32>
  %two = graph.constant dense<2> : tensor<i64>
  %s = graph.sequence_construct %x, %x : (tensor<2xf32>, tensor<2xf32>) -> !graph.seq<tensor<2xf32>>
  %t = graph.sequence_at %s, %two : (!graph.seq<tensor<2xf32>>, tensor<i64>) -> tensor<2xf32>
  return %t : tensor<2xf32>
}

// EMPTY: eager-sequence.mlir:[[@LINE+3]]:8: error: 'graph.sequence_erase' op cannot erase from an empty sequence
func.func @erase_empty() -> tensor<i64> {
  %s = graph.sequence_empty : !graph.seq<tensor<*xf32>>
  %e = graph.sequence_erase %s : (!graph.seq<tensor<*xf32>>) -> !graph.seq<tensor<*xf32>>
  %n = graph.sequence_length %e : (!graph.seq<tensor<*xf32>>) -> tensor<i64>
  return %n : tensor<i64>
}

// NONE: eager-sequence.mlir:[[@LINE+3]]:8: error: 'graph.optional_get_element' op the optional is empty
func.func @no_value() -> tensor<2xf32> {
  %o = graph.optional : () -> !graph.opt<tensor<2xf32>>
  %x = graph.optional_get_element %o : (!graph.opt<tensor<2xf32>>) -> tensor<2xf32>
  return %x : tensor<2xf32>
}
