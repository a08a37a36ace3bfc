// REQUIRES: strata-opt
// RUN: strata-opt --allow-unregistered-dialect --dce %s | FileCheck %s

// Unused pure ops are erased, and so are the pure ops that only fed them.
// Ops with unknown effects (test.effect, unregistered ops) stay, and so does
// what they use.
// CHECK-LABEL: module {
// CHECK-NEXT:    %[[C:.*]] = "test.constant"() <{value = 2 : i32}>
// CHECK-NEXT:    %{{.*}} = "test.effect"(%[[C]])
// CHECK-NEXT:    %{{.*}} = "foo.unknown"()
// CHECK-NEXT:    "test.region"() ({
// CHECK-NEXT:    ^bb0:
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:  }
%c1 = "test.constant"() <{value = 1 : i32}> : () -> i32
%c2 = "test.constant"() <{value = 2 : i32}> : () -> i32
%a = "test.addi"(%c1, %c1) : (i32, i32) -> i32
%b = "test.pure"(%a) : (i32) -> i32
%e = "test.effect"(%c2) : (i32) -> i32
%u = "foo.unknown"() : () -> i32
"test.region"() ({
  %dead = "test.pure"() : () -> i32
}) : () -> ()
