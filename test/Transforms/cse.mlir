// REQUIRES: strata-opt
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --cse %s | FileCheck %s

// Identical pure ops are merged; the duplicate's uses go to the first one.
// CHECK-LABEL: "test.func"() <{sym_name = "simple"}>
// CHECK:      %[[C:.*]] = "test.constant"() <{value = 1 : i32}>
// CHECK-NOT:  "test.constant"
// CHECK:      %[[A:.*]] = "test.addi"(%[[C]], %[[C]])
// CHECK-NOT:  "test.addi"
// CHECK:      "test.effect"(%[[A]], %[[A]])
"test.func"() <{sym_name = "simple"}> ({
  %c1 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %c2 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %a = "test.addi"(%c1, %c2) : (i32, i32) -> i32
  %b = "test.addi"(%c1, %c2) : (i32, i32) -> i32
  "test.effect"(%a, %b) : (i32, i32) -> ()
}) : () -> ()

// -----

// Different attributes, types or operands are different expressions.
// CHECK-LABEL: "test.func"() <{sym_name = "different"}>
// CHECK-COUNT-3: "test.constant"
// CHECK: "test.effect"
"test.func"() <{sym_name = "different"}> ({
  %c1 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %c2 = "test.constant"() <{value = 2 : i32}> : () -> i32
  %c3 = "test.constant"() <{value = 1 : i64}> : () -> i64
  "test.effect"(%c1, %c2, %c3) : (i32, i32, i64) -> ()
}) : () -> ()

// -----

// Ops with unknown effects (test.effect, every unregistered op) are never merged.
// CHECK-LABEL: "test.func"() <{sym_name = "effects"}>
// CHECK-COUNT-2: "test.effect"() : () -> i32
// CHECK-COUNT-2: "foo.unknown"() : () -> i32
"test.func"() <{sym_name = "effects"}> ({
  %a = "test.effect"() : () -> i32
  %b = "test.effect"() : () -> i32
  %c = "foo.unknown"() : () -> i32
  %d = "foo.unknown"() : () -> i32
  "test.effect"(%a, %b, %c, %d) : (i32, i32, i32, i32) -> ()
}) : () -> ()

// -----

// A value from a dominating block is reused; one from a sibling branch is not.
// CHECK-LABEL: "test.func"() <{sym_name = "dominance"}>
// CHECK:      %[[C:.*]] = "test.constant"() <{value = 7 : i32}>
// CHECK:      ^bb1:
// CHECK-NEXT:   "test.effect"(%[[C]])
// CHECK:      ^bb2:
// CHECK-NEXT:   %[[D:.*]] = "test.constant"() <{value = 8 : i32}>
// CHECK-NEXT:   "test.effect"(%[[C]], %[[D]])
// CHECK:      ^bb3:
// CHECK-NEXT:   %[[E:.*]] = "test.constant"() <{value = 8 : i32}>
// CHECK-NEXT:   "test.effect"(%[[E]])
"test.func"() <{sym_name = "dominance"}> ({
  %c = "test.constant"() <{value = 7 : i32}> : () -> i32
  "foo.br"()[^bb1, ^bb3] : () -> ()
^bb1:
  %c2 = "test.constant"() <{value = 7 : i32}> : () -> i32
  "test.effect"(%c2) : (i32) -> ()
  "foo.br"()[^bb2] : () -> ()
^bb2:
  %d = "test.constant"() <{value = 8 : i32}> : () -> i32
  "test.effect"(%c, %d) : (i32, i32) -> ()
  "foo.ret"() : () -> ()
^bb3:
  %e = "test.constant"() <{value = 8 : i32}> : () -> i32
  "test.effect"(%e) : (i32) -> ()
  "foo.ret"() : () -> ()
}) : () -> ()

// -----

// Expressions are visible in nested regions, but not across an
// isolated-from-above op, nor into an unregistered op (which might be one).
// CHECK-LABEL: "test.func"() <{sym_name = "outer"}>
// CHECK:         %[[C:.*]] = "test.constant"() <{value = 3 : i32}>
// CHECK:         "test.region"() ({
// CHECK-NEXT:      "test.effect"(%[[C]])
// CHECK:         "foo.region"() ({
// CHECK-NEXT:      %[[F:.*]] = "test.constant"() <{value = 3 : i32}>
// CHECK-NEXT:      "test.effect"(%[[F]])
// CHECK:         "test.func"() <{sym_name = "inner"}> ({
// CHECK-NEXT:      %[[I:.*]] = "test.constant"() <{value = 3 : i32}>
// CHECK-NEXT:      "test.effect"(%[[I]])
"test.func"() <{sym_name = "outer"}> ({
  %c = "test.constant"() <{value = 3 : i32}> : () -> i32
  "test.effect"(%c) : (i32) -> ()
  "test.region"() ({
    %c1 = "test.constant"() <{value = 3 : i32}> : () -> i32
    "test.effect"(%c1) : (i32) -> ()
  }) : () -> ()
  "foo.region"() ({
    %c2 = "test.constant"() <{value = 3 : i32}> : () -> i32
    "test.effect"(%c2) : (i32) -> ()
  }) : () -> ()
  "test.func"() <{sym_name = "inner"}> ({
    %c3 = "test.constant"() <{value = 3 : i32}> : () -> i32
    "test.effect"(%c3) : (i32) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// Dead pure ops met on the way are erased, as MLIR's CSE does.
// CHECK-LABEL: "test.func"() <{sym_name = "dead"}>
// CHECK-NOT: "test.pure"
"test.func"() <{sym_name = "dead"}> ({
  %c = "test.constant"() <{value = 3 : i32}> : () -> i32
  %unused = "test.pure"(%c) : (i32) -> i32
}) : () -> ()
