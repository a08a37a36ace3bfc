// REQUIRES: strata-opt
// Verifier and type-syntax errors of the sequence and optional ops.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @construct_elem(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'graph.sequence_construct' op element #1 has type 'tensor<2xi32>', which cannot be 'tensor<?xf32>'}}
  %s = graph.sequence_construct %a, %b : (tensor<2xf32>, tensor<2xi32>) -> !graph.seq<tensor<?xf32>>
  return
}

// -----

func.func @construct_shape(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'graph.sequence_construct' op element #1 has type 'tensor<3xf32>', which cannot be 'tensor<2xf32>'}}
  %s = graph.sequence_construct %a, %b : (tensor<2xf32>, tensor<3xf32>) -> !graph.seq<tensor<2xf32>>
  return
}

// -----

func.func @construct_empty() {
  // expected-error @+1 {{'graph.sequence_construct' op needs at least one tensor (an empty sequence is graph.sequence_empty)}}
  %s = graph.sequence_construct : () -> !graph.seq<tensor<2xf32>>
  return
}

// -----

func.func @at_result(%s: !graph.seq<tensor<?xf32>>, %i: tensor<i64>) {
  // expected-error @+1 {{'graph.sequence_at' op the sequence's element type has type 'tensor<?xf32>', which cannot be 'tensor<2x2xf32>'}}
  %t = graph.sequence_at %s, %i : (!graph.seq<tensor<?xf32>>, tensor<i64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @at_position(%s: !graph.seq<tensor<?xf32>>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'graph.sequence_at' op the position must be a one-element tensor of i32 or i64, but is 'tensor<2xi64>'}}
  %t = graph.sequence_at %s, %i : (!graph.seq<tensor<?xf32>>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @at_not_seq(%s: tensor<2xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{'graph.sequence_at' op operand #0 must be sequence of tensors, but got 'tensor<2xf32>'}}
  %t = graph.sequence_at %s, %i : (tensor<2xf32>, tensor<i64>) -> tensor<?xf32>
  return
}

// -----

func.func @insert_elem(%s: !graph.seq<tensor<?xf32>>, %x: tensor<3xf16>) {
  // expected-error @+1 {{'graph.sequence_insert' op the inserted tensor has type 'tensor<3xf16>', which cannot be 'tensor<?xf32>'}}
  %t = graph.sequence_insert %s, %x : (!graph.seq<tensor<?xf32>>, tensor<3xf16>) -> !graph.seq<tensor<?xf32>>
  return
}

// -----

func.func @length_type(%s: !graph.seq<tensor<?xf32>>) {
  // expected-error @+1 {{'graph.sequence_length' op result must be tensor<i64>, got 'tensor<1xi64>'}}
  %n = graph.sequence_length %s : (!graph.seq<tensor<?xf32>>) -> tensor<1xi64>
  return
}

// -----

func.func @split_shape(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{'graph.split_to_sequence' op the element type has shape [2, 6] but its inferred shape is [2, 1] (dimension 1: 6 vs 1)}}
  %s = graph.split_to_sequence %x {axis = 1 : i64} : (tensor<2x6xf32>) -> !graph.seq<tensor<2x6xf32>>
  return
}

// -----

func.func @split_axis(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{'graph.split_to_sequence' op axis 2 is out of range for rank 2}}
  %s = graph.split_to_sequence %x {axis = 2 : i64} : (tensor<2x6xf32>) -> !graph.seq<tensor<2x6xf32>>
  return
}

// -----

func.func @concat_rank(%s: !graph.seq<tensor<?x4xf32>>) {
  // expected-error @+1 {{'graph.concat_from_sequence' op result has rank 1 but its inferred shape [?, 4] has rank 2}}
  %t = graph.concat_from_sequence %s {axis = 0 : i64} : (!graph.seq<tensor<?x4xf32>>) -> tensor<?xf32>
  return
}

// -----

func.func @optional_input(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.optional' op the input has type 'tensor<2xf32>', which cannot be '!graph.seq<tensor<2xf32>>'}}
  %o = graph.optional %x : (tensor<2xf32>) -> !graph.opt<!graph.seq<tensor<2xf32>>>
  return
}

// -----

func.func @get_element(%o: !graph.opt<tensor<2xf32>>) {
  // expected-error @+1 {{'graph.optional_get_element' op the optional's element type has type 'tensor<2xf32>', which cannot be 'tensor<3xf32>'}}
  %x = graph.optional_get_element %o : (!graph.opt<tensor<2xf32>>) -> tensor<3xf32>
  return
}

// -----

// expected-error @+1 {{the element type of 'seq' must be a tensor type, got 'f32'}}
func.func @seq_of_scalar(%s: !graph.seq<f32>) {
  return
}

// -----

// expected-error @+1 {{unknown graph type 'list' (expected 'seq', 'opt' or 'string')}}
func.func @unknown_type(%s: !graph.list<tensor<f32>>) {
  return
}

// -----

// A loop that carries a sequence still checks its stacked values and its
// tensor results.
func.func @loop_stacked_seq(%n: tensor<i64>, %c: tensor<i1>, %s: !graph.seq<tensor<?xf32>>) {
  // expected-error @+1 {{'graph.loop' op stacked value #0 must be a tensor}}
  %r:2 = graph.loop(%n, %c, %s) : (tensor<i64>, tensor<i1>, !graph.seq<tensor<?xf32>>) -> (!graph.seq<tensor<?xf32>>, !graph.seq<tensor<?xf32>>) {
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>, %a: !graph.seq<tensor<?xf32>>):
    graph.yield %cc, %a, %a : tensor<i1>, !graph.seq<tensor<?xf32>>, !graph.seq<tensor<?xf32>>
  }
  return
}

// -----

func.func @loop_tensor_result(%n: tensor<i64>, %c: tensor<i1>, %s: !graph.seq<tensor<?xf32>>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.loop' op result #1 has shape [3] but its inferred shape is [2] (dimension 0: 3 vs 2)}}
  %r:2 = graph.loop(%n, %c, %s, %x) : (tensor<i64>, tensor<i1>, !graph.seq<tensor<?xf32>>, tensor<2xf32>) -> (!graph.seq<tensor<?xf32>>, tensor<3xf32>) {
  ^bb0(%i: tensor<i64>, %cc: tensor<i1>, %a: !graph.seq<tensor<?xf32>>, %b: tensor<2xf32>):
    graph.yield %cc, %a, %b : tensor<i1>, !graph.seq<tensor<?xf32>>, tensor<2xf32>
  }
  return
}

// -----

func.func @if_kinds(%c: tensor<i1>, %s: !graph.seq<tensor<2xf32>>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.if' op value #0 of region #1 has type tensor<2xf32>, which cannot be !graph.seq<tensor<2xf32>>}}
  %r = graph.if %c : tensor<i1> -> (!graph.seq<tensor<2xf32>>) {
    graph.yield %s : !graph.seq<tensor<2xf32>>
  } else {
    graph.yield %x : tensor<2xf32>
  }
  return
}
