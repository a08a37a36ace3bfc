// Sequences and optionals imported as !graph.seq / !graph.opt values and
// the graph.sequence_* and graph.optional* ops (Inputs/sequence.py writes
// the model and onnxruntime's outputs): SplitToSequence with sizes,
// SequenceInsert/Erase/At/Length, ConcatFromSequence (along an axis and
// stacked on a new one), a Loop that carries a sequence, an If whose
// branches yield sequences of different element shapes, an Optional, a
// SequenceMap whose body's input names shadow outer ones.
// Eagerly against onnxruntime (a sequence output is its elements
// `NAME.K`); graph mode reports the sequence ops at their nodes.
// RUN: strata import %S/Inputs/sequence.onnx | FileCheck %s
// RUN: strata import %S/Inputs/sequence.onnx | strata-opt | FileCheck %s
// RUN: strata run %S/Inputs/sequence.onnx --input x=%S/Inputs/sequence-x.npy --input y=%S/Inputs/sequence-y.npy --expect length=%S/Inputs/sequence-length.npy --expect last=%S/Inputs/sequence-last.npy --expect joined=%S/Inputs/sequence-joined.npy --expect stacked=%S/Inputs/sequence-stacked.npy --expect chosen_length=%S/Inputs/sequence-chosen_length.npy --expect has=%S/Inputs/sequence-has.npy --expect unwrapped=%S/Inputs/sequence-unwrapped.npy --expect mapped_joined=%S/Inputs/sequence-mapped_joined.npy --expect parts.0=%S/Inputs/sequence-parts.0.npy --expect parts.1=%S/Inputs/sequence-parts.1.npy | FileCheck %s --check-prefix=OUT
// RUN: not strata run %S/Inputs/sequence.onnx --input x=%S/Inputs/sequence-x.npy --input y=%S/Inputs/sequence-y.npy --expect parts.2=%S/Inputs/sequence-x.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not strata run %S/Inputs/sequence.onnx --mode graph --input x=%S/Inputs/sequence-x.npy --input y=%S/Inputs/sequence-y.npy 2>&1 | FileCheck %s --check-prefix=GRAPH

// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<i64> {onnx.name = "length"}, {{.*}}, !graph.seq<tensor<?x4xf32>> {onnx.name = "parts"})
// CHECK: %[[PARTS:.*]] = graph.split_to_sequence %arg0 sizes %{{.*}} : (tensor<6x4xf32>, tensor<2xi64>) -> !graph.seq<tensor<?x4xf32>>
// CHECK: %[[INS:.*]] = graph.sequence_insert %[[PARTS]], %arg1 at %{{.*}} : (!graph.seq<tensor<?x4xf32>>, tensor<1x4xf32>, tensor<i64>) -> !graph.seq<tensor<?x4xf32>>
// CHECK: %[[ERASED:.*]] = graph.sequence_erase %[[INS]] at %{{.*}} : (!graph.seq<tensor<?x4xf32>>, tensor<i64>) -> !graph.seq<tensor<?x4xf32>>
// CHECK: graph.sequence_length %[[ERASED]] : (!graph.seq<tensor<?x4xf32>>) -> tensor<i64>
// CHECK: graph.sequence_at %[[ERASED]], %{{.*}} : (!graph.seq<tensor<?x4xf32>>, tensor<i64>) -> tensor<?x4xf32>
// CHECK: graph.concat_from_sequence %[[ERASED]] {axis = 0 : i64} : (!graph.seq<tensor<?x4xf32>>) -> tensor<?x4xf32>
// CHECK: %[[EMPTY:.*]] = graph.sequence_empty : !graph.seq<tensor<*xf32>>
// CHECK: %[[ROWS:.*]] = graph.loop(%{{.*}}, %{{.*}}, %[[EMPTY]]) : (tensor<i64>, tensor<i1>, !graph.seq<tensor<*xf32>>) -> !graph.seq<tensor<*xf32>> {
// CHECK: graph.sequence_insert %{{.*}}, %{{.*}} : (!graph.seq<tensor<*xf32>>, tensor<4xf32>) -> !graph.seq<tensor<*xf32>>
// CHECK: graph.yield %{{.*}}, %{{.*}} : tensor<i1>, !graph.seq<tensor<*xf32>>
// CHECK: graph.concat_from_sequence %[[ROWS]] {axis = 1 : i64, new_axis = true} : (!graph.seq<tensor<*xf32>>) -> tensor<4x?xf32>
// CHECK: graph.if %{{.*}} : tensor<i1> -> (!graph.seq<tensor<?x4xf32>>) {
// CHECK: graph.yield %{{.*}} : !graph.seq<tensor<?x4xf32>>
// CHECK: } else {
// CHECK: graph.yield %{{.*}} : !graph.seq<tensor<1x4xf32>>
// CHECK: %[[SOME:.*]] = graph.optional %arg0 : (tensor<6x4xf32>) -> !graph.opt<tensor<6x4xf32>>
// CHECK: graph.optional_has_element %[[SOME]] : (!graph.opt<tensor<6x4xf32>>) -> tensor<i1>
// CHECK: graph.optional_get_element %[[SOME]] : (!graph.opt<tensor<6x4xf32>>) -> tensor<6x4xf32>
// SequenceMap: a loop over the pieces, element i of the sequence and y whole.
// CHECK: %[[N:.*]] = graph.sequence_length %[[PARTS]]
// CHECK: graph.loop(%[[N]], %{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i1>, !graph.seq<tensor<*xf32>>) -> !graph.seq<tensor<*xf32>> {
// CHECK: graph.sequence_at %[[PARTS]], %{{.*}} : (!graph.seq<tensor<?x4xf32>>, tensor<i64>) -> tensor<?x4xf32>
// CHECK: graph.add %{{.*}}, %arg1 : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>

// OUT: length: i64 []
// OUT: parts.0: f32 [2, 4]
// OUT: parts.1: f32 [4, 4]
// OUT: parts: a sequence of 2 tensors (parts.0 to parts.1)
// OUT: length: matches {{.*}}sequence-length.npy (exactly)
// OUT: last: matches
// OUT: joined: matches
// OUT: stacked: matches
// OUT: chosen_length: matches
// OUT: has: matches
// OUT: unwrapped: matches
// OUT: mapped_joined: matches
// OUT: parts.0: matches
// OUT: parts.1: matches

// MISSING: parts.2: no such output was produced to compare with {{.*}}sequence-x.npy

// GRAPH: sequence.onnx: node 'SplitToSequence#5': error: 'graph.split_to_sequence' op takes or makes a sequence or an optional ('!graph.seq<tensor<?x4xf32>>'), which does not lower: sequences and optionals run in eager mode
