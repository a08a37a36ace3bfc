// REQUIRES: strata-opt
// RUN: strata-opt --split-input-file --canonicalize %s | FileCheck %s
// RUN: strata-opt --split-input-file --pass-pipeline='builtin.module(canonicalize{top-down=false max-iterations=2})' %s | FileCheck %s

// Folding, constant materialization, de-duplication and hoisting, dead-code
// removal, constants moved to the right of commutative ops: the same result
// as mlir-opt's canonicalizer on the arith equivalent.
// CHECK-LABEL: "test.func"() <{sym_name = "fold"}> ({
// CHECK-NEXT:    %[[C3:.*]] = "test.constant"() <{value = 3 : i32}>
// CHECK-NEXT:    %[[C1:.*]] = "test.constant"() <{value = 1 : i32}>
// CHECK-NEXT:    %[[X:.*]] = "test.effect"()
// CHECK-NEXT:    %[[S:.*]] = "test.addi"(%[[X]], %[[C1]])
// CHECK-NEXT:    "test.effect"(%[[C3]], %[[X]], %[[S]])
// CHECK-NEXT:  }) : () -> ()
"test.func"() <{sym_name = "fold"}> ({
  %c1 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %c2 = "test.constant"() <{value = 2 : i32}> : () -> i32
  %x = "test.effect"() : () -> i32
  %a = "test.addi"(%c1, %c2) : (i32, i32) -> i32
  %zero = "test.constant"() <{value = 0 : i32}> : () -> i32
  %b = "test.addi"(%x, %zero) : (i32, i32) -> i32
  %c = "test.addi"(%c1, %x) : (i32, i32) -> i32
  %dead = "test.addi"(%c, %c) : (i32, i32) -> i32
  "test.effect"(%a, %b, %c) : (i32, i32, i32) -> ()
}) : () -> ()

// -----

// Chains fold to one constant; ops with unknown effects stay.
// CHECK-LABEL: "test.func"() <{sym_name = "chain"}> ({
// CHECK-NEXT:    %[[C:.*]] = "test.constant"() <{value = 10 : i64}>
// CHECK-NEXT:    "test.effect"(%[[C]])
// CHECK-NEXT:    "test.effect"() : () -> ()
"test.func"() <{sym_name = "chain"}> ({
  %c1 = "test.constant"() <{value = 1 : i64}> : () -> i64
  %c2 = "test.constant"() <{value = 2 : i64}> : () -> i64
  %c3 = "test.constant"() <{value = 3 : i64}> : () -> i64
  %c4 = "test.constant"() <{value = 4 : i64}> : () -> i64
  %a = "test.addi"(%c1, %c2) : (i64, i64) -> i64
  %b = "test.addi"(%a, %c3) : (i64, i64) -> i64
  %c = "test.addi"(%b, %c4) : (i64, i64) -> i64
  "test.effect"(%c) : (i64) -> ()
  "test.effect"() : () -> ()
}) : () -> ()
