// Generic printing of unregistered ops: the implicit module, renumbered values
// and block arguments, sorted attributes with their types, properties.
// RUN: strata-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s

// CHECK-LABEL: "builtin.module"() ({
// CHECK-NEXT:    %0 = "foo.const"() <{value = 42 : i32}> : () -> i32
%c = "foo.const"() <{value = 42 : i32}> : () -> i32
// CHECK-NEXT:    %1:2 = "foo.split"(%0) {axis = 0 : i64, name = "s"} : (i32) -> (f32, f32)
%parts:2 = "foo.split"(%c) {name = "s", axis = 0} : (i32) -> (f32, f32)
// CHECK-NEXT:    "foo.loop"(%1#1) ({
// CHECK-NEXT:    ^bb0(%arg0: index, %arg1: f32):
// CHECK-NEXT:      %2 = "foo.add"(%arg1, %1#0) : (f32, f32) -> f32
// CHECK-NEXT:      "foo.yield"(%2) : (f32) -> ()
// CHECK-NEXT:    }) : (f32) -> ()
"foo.loop"(%parts#1) ({
^body(%iv: index, %acc: f32):
  %sum = "foo.add"(%acc, %parts#0) : (f32, f32) -> f32
  "foo.yield"(%sum) : (f32) -> ()
}) : (f32) -> ()
// CHECK-NEXT:  }) : () -> ()
