// scf.while's canonicalization patterns that drop or reorder loop-carried
// and forwarded values (MLIR's RemoveLoopInvariantArgsFromBeforeBlock,
// RemoveLoopInvariantValueYielded, WhileRemoveUnusedArgs,
// WhileOpAlignBeforeArgs) and WhileCmpCond, which knows a comparison the
// condition made. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @invariant_before(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     %0 = scf.while (%arg2 = %arg1) : (i32) -> i32 {
// CHECK-NEXT:       %1 = "test.cond"(%arg0, %arg2) : (i32, i32) -> i1
// CHECK-NEXT:       scf.condition(%1) %arg2 : i32
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg2: i32):
// CHECK-NEXT:       %1 = "test.next"(%arg2) : (i32) -> i32
// CHECK-NEXT:       scf.yield %1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @invariant_yielded(%arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:     %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
// CHECK-NEXT:       %1 = "test.cond"(%arg2) : (i32) -> i1
// CHECK-NEXT:       scf.condition(%1) %arg2 : i32
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg2: i32):
// CHECK-NEXT:       %1 = "test.next"(%arg2, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:       scf.yield %1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0, %arg1 : i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @cmp_cond(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     %false = arith.constant false
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
// CHECK-NEXT:       %1 = arith.cmpi slt, %arg2, %arg1 : i32
// CHECK-NEXT:       scf.condition(%1) %arg2 : i32
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg2: i32):
// CHECK-NEXT:       %1 = arith.cmpi sgt, %arg2, %arg1 : i32
// CHECK-NEXT:       %2 = "test.next"(%arg2, %true, %false, %1) : (i32, i1, i1, i1) -> i32
// CHECK-NEXT:       scf.yield %2 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @unused_args(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     %0 = scf.while (%arg2 = %arg0) : (i32) -> i32 {
// CHECK-NEXT:       %1 = "test.cond"(%arg2) : (i32) -> i1
// CHECK-NEXT:       scf.condition(%1) %arg2 : i32
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg2: i32):
// CHECK-NEXT:       %1 = "test.next"(%arg2) : (i32) -> i32
// CHECK-NEXT:       %2 = "test.next"(%arg2) : (i32) -> i32
// CHECK-NEXT:       scf.yield %1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @align(%arg0: i32, %arg1: i64) -> (i32, i64) {
// CHECK-NEXT:     %0:2 = scf.while (%arg2 = %arg0, %arg3 = %arg1) : (i32, i64) -> (i32, i64) {
// CHECK-NEXT:       %1 = "test.cond"(%arg2, %arg3) : (i32, i64) -> i1
// CHECK-NEXT:       scf.condition(%1) %arg2, %arg3 : i32, i64
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg2: i32, %arg3: i64):
// CHECK-NEXT:       %1:2 = "test.next"(%arg3, %arg2) : (i64, i32) -> (i32, i64)
// CHECK-NEXT:       scf.yield %1#0, %1#1 : i32, i64
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0#0, %0#1 : i32, i64
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @invariant_before(%a: i32, %b: i32) -> i32 {
  %0:2 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i32, i32) {
    %c = "test.cond"(%x, %y) : (i32, i32) -> i1
    scf.condition(%c) %y, %x : i32, i32
  } do {
  ^bb0(%u: i32, %v: i32):
    %n = "test.next"(%u) : (i32) -> i32
    scf.yield %v, %n : i32, i32
  }
  return %0#0 : i32
}

func.func @invariant_yielded(%a: i32, %b: i32) -> (i32, i32) {
  %0:2 = scf.while (%x = %a) : (i32) -> (i32, i32) {
    %c = "test.cond"(%x) : (i32) -> i1
    scf.condition(%c) %x, %b : i32, i32
  } do {
  ^bb0(%u: i32, %v: i32):
    %n = "test.next"(%u, %v) : (i32, i32) -> i32
    scf.yield %n : i32
  }
  return %0#0, %0#1 : i32, i32
}

func.func @cmp_cond(%a: i32, %lim: i32) -> i32 {
  %0 = scf.while (%x = %a) : (i32) -> (i32) {
    %c = arith.cmpi slt, %x, %lim : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%u: i32):
    %t = arith.cmpi slt, %u, %lim : i32
    %f = arith.cmpi sge, %u, %lim : i32
    %o = arith.cmpi sgt, %u, %lim : i32
    %n = "test.next"(%u, %t, %f, %o) : (i32, i1, i1, i1) -> i32
    scf.yield %n : i32
  }
  return %0 : i32
}

func.func @unused_args(%a: i32, %b: i32) -> i32 {
  %0 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i32) {
    %c = "test.cond"(%x) : (i32) -> i1
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%u: i32):
    %n = "test.next"(%u) : (i32) -> i32
    %m = "test.next"(%u) : (i32) -> i32
    scf.yield %n, %m : i32, i32
  }
  return %0 : i32
}

func.func @align(%a: i32, %b: i64) -> (i32, i64) {
  %0:2 = scf.while (%x = %a, %y = %b) : (i32, i64) -> (i64, i32) {
    %c = "test.cond"(%x, %y) : (i32, i64) -> i1
    scf.condition(%c) %y, %x : i64, i32
  } do {
  ^bb0(%u: i64, %v: i32):
    %n:2 = "test.next"(%u, %v) : (i64, i32) -> (i32, i64)
    scf.yield %n#0, %n#1 : i32, i64
  }
  return %0#1, %0#0 : i32, i64
}
