// REQUIRES: strata-opt
// Round trip of the sequence and optional ops and of the !graph.seq and
// !graph.opt types: in the pretty form, after a second pass, and through
// the generic form.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// graph-convert-precision leaves the sequence ops and their f32 elements:
// RUN: strata-opt %s --graph-convert-precision | FileCheck %s --check-prefix=F16
// graph-verify runs their verifiers and reports what only a run resolves:
// RUN: not strata-opt %s --graph-verify 2>&1 | FileCheck %s --check-prefix=VERIFY

// F16-LABEL: func.func @sequences
// F16: graph.sequence_construct %{{.*}}, %{{.*}} : (tensor<2xf32>, tensor<3xf32>) -> !graph.seq<tensor<?xf32>>
// F16: graph.concat_from_sequence %{{.*}} {axis = 0 : i64} : (!graph.seq<tensor<?xf32>>) -> tensor<?xf32>
// VERIFY: error: 'graph.sequence_at' op result #0 has an unresolved shape [?]

// CHECK-LABEL: func.func @sequences
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<i64>) -> (tensor<?xf32>, tensor<i64>, tensor<?xf32>, tensor<2x?xf32>)
// CHECK-NEXT: %[[S:.*]] = graph.sequence_construct %[[A]], %[[B]] : (tensor<2xf32>, tensor<3xf32>) -> !graph.seq<tensor<?xf32>>
// CHECK-NEXT: %[[E:.*]] = graph.sequence_empty : !graph.seq<tensor<*xf32>>
// CHECK-NEXT: %[[S2:.*]] = graph.sequence_insert %[[S]], %[[A]] at %[[I]] : (!graph.seq<tensor<?xf32>>, tensor<2xf32>, tensor<i64>) -> !graph.seq<tensor<?xf32>>
// CHECK-NEXT: %[[S3:.*]] = graph.sequence_insert %[[S2]], %[[B]] : (!graph.seq<tensor<?xf32>>, tensor<3xf32>) -> !graph.seq<tensor<?xf32>>
// CHECK-NEXT: %[[S4:.*]] = graph.sequence_erase %[[S3]] at %[[I]] : (!graph.seq<tensor<?xf32>>, tensor<i64>) -> !graph.seq<tensor<?xf32>>
// CHECK-NEXT: %[[S5:.*]] = graph.sequence_erase %[[S4]] : (!graph.seq<tensor<?xf32>>) -> !graph.seq<tensor<?xf32>>
// CHECK-NEXT: %[[T:.*]] = graph.sequence_at %[[S5]], %[[I]] : (!graph.seq<tensor<?xf32>>, tensor<i64>) -> tensor<?xf32>
// CHECK-NEXT: %[[N:.*]] = graph.sequence_length %[[E]] : (!graph.seq<tensor<*xf32>>) -> tensor<i64>
// CHECK-NEXT: %[[C:.*]] = graph.concat_from_sequence %[[S5]] {axis = 0 : i64} : (!graph.seq<tensor<?xf32>>) -> tensor<?xf32>
// CHECK-NEXT: %[[K:.*]] = graph.concat_from_sequence %[[S5]] {axis = -1 : i64, new_axis = true} : (!graph.seq<tensor<?xf32>>) -> tensor<?x?xf32>
// CHECK-NEXT: graph.split_to_sequence %[[A]] : (tensor<2xf32>) -> !graph.seq<tensor<1xf32>>
// CHECK-NEXT: graph.split_to_sequence %[[A]] {keepdims = false} : (tensor<2xf32>) -> !graph.seq<tensor<f32>>
// CHECK: graph.split_to_sequence %{{.*}} sizes %[[I]] {axis = 1 : i64} : (tensor<2x6xf32>, tensor<i64>) -> !graph.seq<tensor<2x?xf32>>
// GENERIC: "graph.sequence_insert"(%{{.*}}, %{{.*}}, %{{.*}}) : (!graph.seq<tensor<?xf32>>, tensor<2xf32>, tensor<i64>) -> !graph.seq<tensor<?xf32>>
// GENERIC: "graph.split_to_sequence"(%{{.*}}) <{axis = 0 : i64, keepdims = true}> : (tensor<2xf32>) -> !graph.seq<tensor<1xf32>>
func.func @sequences(%a: tensor<2xf32>, %b: tensor<3xf32>, %i: tensor<i64>) -> (tensor<?xf32>, tensor<i64>, tensor<?xf32>, tensor<2x?xf32>) {
  %s = graph.sequence_construct %a, %b : (tensor<2xf32>, tensor<3xf32>) -> !graph.seq<tensor<?xf32>>
  %e = graph.sequence_empty : !graph.seq<tensor<*xf32>>
  %s2 = graph.sequence_insert %s, %a at %i : (!graph.seq<tensor<?xf32>>, tensor<2xf32>, tensor<i64>) -> !graph.seq<tensor<?xf32>>
  %s3 = graph.sequence_insert %s2, %b : (!graph.seq<tensor<?xf32>>, tensor<3xf32>) -> !graph.seq<tensor<?xf32>>
  %s4 = graph.sequence_erase %s3 at %i : (!graph.seq<tensor<?xf32>>, tensor<i64>) -> !graph.seq<tensor<?xf32>>
  %s5 = graph.sequence_erase %s4 : (!graph.seq<tensor<?xf32>>) -> !graph.seq<tensor<?xf32>>
  %t = graph.sequence_at %s5, %i : (!graph.seq<tensor<?xf32>>, tensor<i64>) -> tensor<?xf32>
  %n = graph.sequence_length %e : (!graph.seq<tensor<*xf32>>) -> tensor<i64>
  %c = graph.concat_from_sequence %s5 {axis = 0 : i64} : (!graph.seq<tensor<?xf32>>) -> tensor<?xf32>
  %k = graph.concat_from_sequence %s5 {axis = -1 : i64, new_axis = true} : (!graph.seq<tensor<?xf32>>) -> tensor<?x?xf32>
  %p = graph.split_to_sequence %a : (tensor<2xf32>) -> !graph.seq<tensor<1xf32>>
  %q = graph.split_to_sequence %a {keepdims = false} : (tensor<2xf32>) -> !graph.seq<tensor<f32>>
  %z = graph.constant dense<0.0> : tensor<2x6xf32>
  %r = graph.split_to_sequence %z sizes %i {axis = 1 : i64} : (tensor<2x6xf32>, tensor<i64>) -> !graph.seq<tensor<2x?xf32>>
  %r0 = graph.sequence_at %r, %i : (!graph.seq<tensor<2x?xf32>>, tensor<i64>) -> tensor<2x?xf32>
  return %t, %n, %c, %r0 : tensor<?xf32>, tensor<i64>, tensor<?xf32>, tensor<2x?xf32>
}

// CHECK-LABEL: func.func @optionals
// CHECK-NEXT: %[[SOME:.*]] = graph.optional %{{.*}} : (tensor<2xf32>) -> !graph.opt<tensor<2xf32>>
// CHECK-NEXT: %[[NONE:.*]] = graph.optional : () -> !graph.opt<!graph.seq<tensor<*xi64>>>
// CHECK-NEXT: graph.optional_has_element %[[NONE]] : (!graph.opt<!graph.seq<tensor<*xi64>>>) -> tensor<i1>
// CHECK-NEXT: graph.optional_get_element %[[SOME]] : (!graph.opt<tensor<2xf32>>) -> tensor<2xf32>
func.func @optionals(%x: tensor<2xf32>) -> (tensor<i1>, tensor<2xf32>) {
  %some = graph.optional %x : (tensor<2xf32>) -> !graph.opt<tensor<2xf32>>
  %none = graph.optional : () -> !graph.opt<!graph.seq<tensor<*xi64>>>
  %h = graph.optional_has_element %none : (!graph.opt<!graph.seq<tensor<*xi64>>>) -> tensor<i1>
  %v = graph.optional_get_element %some : (!graph.opt<tensor<2xf32>>) -> tensor<2xf32>
  return %h, %v : tensor<i1>, tensor<2xf32>
}
