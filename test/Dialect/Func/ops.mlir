// Round trip of the func dialect's custom assembly: the body below is exactly
// what mlir-opt prints for it (comments aside), in the pretty form, after a
// second pass, and after going through the generic form.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace

// CHECK: module {
module {
  // A declaration: private, no body.
  // CHECK-LABEL: func.func private @decl(
  // CHECK-SAME: i32, f32) -> i64
  func.func private @decl(i32, f32) -> i64

  // Nested visibility is a keyword too.
  // CHECK-LABEL: func.func nested @nested_decl()
  func.func nested @nested_decl()

  // No arguments, no results.
  // CHECK-LABEL: func.func @empty(
  // CHECK-SAME: ) {
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  func.func @empty() {
    return
  }

  // A single result prints without parentheses, several with.
  // CHECK-LABEL: func.func @one_result(
  // CHECK-SAME: %arg0: i32) -> i32 {
  // CHECK-NEXT: return %arg0 : i32
  // CHECK-NEXT: }
  func.func @one_result(%arg0: i32) -> i32 {
    return %arg0 : i32
  }

  // CHECK-LABEL: func.func @two_results(
  // CHECK-SAME: %arg0: i32, %arg1: f32) -> (i32, f32) {
  // CHECK-NEXT: return %arg0, %arg1 : i32, f32
  // CHECK-NEXT: }
  func.func @two_results(%arg0: i32, %arg1: f32) -> (i32, f32) {
    return %arg0, %arg1 : i32, f32
  }

  // A result type that is itself a function type is parenthesized.
  // CHECK-LABEL: func.func private @returns_function_type(
  // CHECK-SAME: ) -> ((i32) -> i32)
  func.func private @returns_function_type() -> ((i32) -> i32)

  // Argument and result attributes.
  // CHECK-LABEL: func.func @arg_attrs(
  // CHECK-SAME: %arg0: i32 {my.foo = 1 : i64}, %arg1: f32 {my.bar, my.baz = "x"}) -> (i32 {my.res}, f32) {
  // CHECK-NEXT: return %arg0, %arg1 : i32, f32
  // CHECK-NEXT: }
  func.func @arg_attrs(%arg0: i32 {my.foo = 1 : i64}, %arg1: f32 {my.bar, my.baz = "x"}) -> (i32 {my.res}, f32) {
    return %arg0, %arg1 : i32, f32
  }

  // CHECK-LABEL: func.func private @decl_attrs(
  // CHECK-SAME: i32 {my.a}, f32) -> (f32 {my.b})
  func.func private @decl_attrs(i32 {my.a}, f32) -> (f32 {my.b})

  // Function attributes go after `attributes`.
  // CHECK-LABEL: func.func @with_attrs(
  // CHECK-SAME: %arg0: i32) -> i32 attributes {my.flag, my.level = 3 : i32} {
  // CHECK-NEXT: return %arg0 : i32
  // CHECK-NEXT: }
  func.func @with_attrs(%arg0: i32) -> i32 attributes {my.flag, my.level = 3 : i32} {
    return %arg0 : i32
  }

  // CHECK-LABEL: func.func private @decl_with_attrs(
  // CHECK-SAME: ) attributes {my.extern = "c"}
  func.func private @decl_with_attrs() attributes {my.extern = "c"}

  // Calls: direct, with no results, with several.
  // CHECK-LABEL: func.func @calls(
  // CHECK-SAME: %arg0: i32, %arg1: f32) -> (i32, f32) {
  // CHECK-NEXT: %0 = call @decl(%arg0, %arg1) : (i32, f32) -> i64
  // CHECK-NEXT: call @empty() : () -> ()
  // CHECK-NEXT: %1:2 = call @two_results(%arg0, %arg1) : (i32, f32) -> (i32, f32)
  // CHECK-NEXT: %2 = call @one_result(%1#0) : (i32) -> i32
  // CHECK-NEXT: return %2, %1#1 : i32, f32
  // CHECK-NEXT: }
  func.func @calls(%arg0: i32, %arg1: f32) -> (i32, f32) {
    %0 = call @decl(%arg0, %arg1) : (i32, f32) -> i64
    call @empty() : () -> ()
    %1:2 = call @two_results(%arg0, %arg1) : (i32, f32) -> (i32, f32)
    %2 = call @one_result(%1#0) : (i32) -> i32
    return %2, %1#1 : i32, f32
  }

  // Recursion.
  // CHECK-LABEL: func.func @recursive(
  // CHECK-SAME: %arg0: index) -> index {
  // CHECK-NEXT: %0 = call @recursive(%arg0) : (index) -> index
  // CHECK-NEXT: return %0 : index
  // CHECK-NEXT: }
  func.func @recursive(%arg0: index) -> index {
    %0 = call @recursive(%arg0) : (index) -> index
    return %0 : index
  }

  // Shaped and other types in signatures.
  // CHECK-LABEL: func.func @shaped(
  // CHECK-SAME: %arg0: tensor<?x4xf32>, %arg1: memref<8xi32>, %arg2: vector<[4]xf16>, %arg3: tuple<i32, f32>, %arg4: complex<f64>) -> tensor<?x4xf32> {
  // CHECK-NEXT: return %arg0 : tensor<?x4xf32>
  // CHECK-NEXT: }
  func.func @shaped(%arg0: tensor<?x4xf32>, %arg1: memref<8xi32>, %arg2: vector<[4]xf16>, %arg3: tuple<i32, f32>, %arg4: complex<f64>) -> tensor<?x4xf32> {
    return %arg0 : tensor<?x4xf32>
  }
}
