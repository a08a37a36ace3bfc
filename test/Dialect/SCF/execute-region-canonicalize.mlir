// scf.execute_region's canonicalization: a single block is inlined in
// place; several blocks are inlined into a function's (or an enclosing
// execute_region's) CFG, the scf.yields branching to the rest of the block;
// `no_inline` keeps it; one with no results and nothing with effects inside
// is erased. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @single(%arg0: i64) -> i64 {
// CHECK-NEXT:     "test.foo"() : () -> ()
// CHECK-NEXT:     %0 = "test.val"(%arg0) : (i64) -> i64
// CHECK-NEXT:     "test.bar"(%0) : (i64) -> ()
// CHECK-NEXT:     return %0 : i64
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @multi(%arg0: i1) -> i64 {
// CHECK-NEXT:     "test.foo"() : () -> ()
// CHECK-NEXT:     cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:   ^bb1:  // pred: ^bb0
// CHECK-NEXT:     %0 = "test.val1"() : () -> i64
// CHECK-NEXT:     cf.br ^bb3(%0 : i64)
// CHECK-NEXT:   ^bb2:  // pred: ^bb0
// CHECK-NEXT:     %1 = "test.val2"() : () -> i64
// CHECK-NEXT:     cf.br ^bb3(%1 : i64)
// CHECK-NEXT:   ^bb3(%2: i64):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:     "test.bar"(%2) : (i64) -> ()
// CHECK-NEXT:     return %2 : i64
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @kept() -> i64 {
// CHECK-NEXT:     %0 = scf.execute_region -> i64 no_inline {
// CHECK-NEXT:       %1 = "test.val"() : () -> i64
// CHECK-NEXT:       scf.yield %1 : i64
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : i64
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @single(%a: i64) -> i64 {
  "test.foo"() : () -> ()
  %v = scf.execute_region -> i64 {
    %x = "test.val"(%a) : (i64) -> i64
    scf.yield %x : i64
  }
  "test.bar"(%v) : (i64) -> ()
  return %v : i64
}

func.func @multi(%c: i1) -> i64 {
  "test.foo"() : () -> ()
  %v = scf.execute_region -> i64 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %x = "test.val1"() : () -> i64
    scf.yield %x : i64
  ^bb2:
    %y = "test.val2"() : () -> i64
    scf.yield %y : i64
  }
  "test.bar"(%v) : (i64) -> ()
  return %v : i64
}

func.func @kept() -> i64 {
  %v = scf.execute_region -> i64 no_inline {
    %x = "test.val"() : () -> i64
    scf.yield %x : i64
  }
  scf.execute_region no_inline {
    scf.yield
  }
  return %v : i64
}
