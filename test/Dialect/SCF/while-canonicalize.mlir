// scf.while's canonicalization patterns strata has (MLIR's
// WhileConditionTruth, WhileUnusedResult and WhileRemoveDuplicatedResults).
// The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @condition_truth(%arg0: i32) -> i1 {
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     %0 = scf.while : () -> i1 {
// CHECK-NEXT:       %1 = "test.cond"() : () -> i1
// CHECK-NEXT:       scf.condition(%1) %1 : i1
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg1: i1):
// CHECK-NEXT:       "test.use"(%true) : (i1) -> ()
// CHECK-NEXT:       scf.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i1
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @unused(%arg0: f32) -> i32 {
// CHECK-NEXT:     %0:2 = scf.while : () -> (i32, f32) {
// CHECK-NEXT:       %1 = "test.cond"() : () -> i1
// CHECK-NEXT:       %2 = "test.a"() : () -> i32
// CHECK-NEXT:       %3 = "test.b"() : () -> f32
// CHECK-NEXT:       %4 = "test.d"() : () -> i64
// CHECK-NEXT:       scf.condition(%1) %2, %3 : i32, f32
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg1: i32, %arg2: f32):
// CHECK-NEXT:       "test.use"(%arg2) : (f32) -> ()
// CHECK-NEXT:       scf.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0#0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @duplicated() -> (i32, i32) {
// CHECK-NEXT:     %0 = scf.while : () -> i32 {
// CHECK-NEXT:       %1 = "test.val"() : () -> i32
// CHECK-NEXT:       %2 = "test.cond"() : () -> i1
// CHECK-NEXT:       scf.condition(%2) %1 : i32
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg0: i32):
// CHECK-NEXT:       "test.use"(%arg0, %arg0) : (i32, i32) -> ()
// CHECK-NEXT:       scf.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0, %0 : i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

// The argument that receives the condition itself is true in `after`.
func.func @condition_truth(%n: i32) -> i1 {
  %r = scf.while : () -> i1 {
    %c = "test.cond"() : () -> i1
    scf.condition(%c) %c : i1
  } do {
  ^bb0(%b: i1):
    "test.use"(%b) : (i1) -> ()
    scf.yield
  }
  return %r : i1
}

// A result nothing reads, inside or out, is no longer forwarded.
func.func @unused(%x: f32) -> i32 {
  %r:3 = scf.while : () -> (i32, f32, i64) {
    %c = "test.cond"() : () -> i1
    %a = "test.a"() : () -> i32
    %b = "test.b"() : () -> f32
    %d = "test.d"() : () -> i64
    scf.condition(%c) %a, %b, %d : i32, f32, i64
  } do {
  ^bb0(%a: i32, %b: f32, %d: i64):
    "test.use"(%b) : (f32) -> ()
    scf.yield
  }
  return %r#0 : i32
}

// A value forwarded twice is forwarded once.
func.func @duplicated() -> (i32, i32) {
  %r:2 = scf.while : () -> (i32, i32) {
    %v = "test.val"() : () -> i32
    %c = "test.cond"() : () -> i1
    scf.condition(%c) %v, %v : i32, i32
  } do {
  ^bb0(%a: i32, %b: i32):
    "test.use"(%a, %b) : (i32, i32) -> ()
    scf.yield
  }
  return %r#0, %r#1 : i32, i32
}
