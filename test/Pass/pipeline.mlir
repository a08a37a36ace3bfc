// REQUIRES: strata-opt
// RUN: strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(test.func(cse),symbol-dce,dce)' --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: strata-opt --allow-unregistered-dialect --cse --dce --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLAGS
// RUN: strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(test.func(cse))' %s | FileCheck %s

// DUMP:      Pass Manager with 3 passes:
// DUMP-NEXT: builtin.module(
// DUMP-NEXT:   test.func(
// DUMP-NEXT:     cse
// DUMP-NEXT:   ),
// DUMP-NEXT:   symbol-dce,
// DUMP-NEXT:   dce
// DUMP-NEXT: )

// FLAGS:      Pass Manager with 2 passes:
// FLAGS-NEXT: builtin.module(
// FLAGS-NEXT:   cse,
// FLAGS-NEXT:   dce
// FLAGS-NEXT: )

// A nested pipeline runs on each op with its anchor name directly inside the
// module, and only there: the constants outside the functions stay.
// CHECK-LABEL: module {
// CHECK:         "test.constant"() <{value = 1 : i32}>
// CHECK-NEXT:    "test.constant"() <{value = 1 : i32}>
// CHECK:         "test.func"() <{sym_name = "f"}>
// CHECK-NEXT:      "test.constant"
// CHECK-NEXT:      "test.effect"(%[[X:.*]], %[[X]])
// CHECK:         "test.func"() <{sym_name = "g"}>
// CHECK-NEXT:      "test.constant"
// CHECK-NEXT:      "test.effect"(%[[Y:.*]], %[[Y]])
%a = "test.constant"() <{value = 1 : i32}> : () -> i32
%b = "test.constant"() <{value = 1 : i32}> : () -> i32
"test.effect"(%a, %b) : (i32, i32) -> ()
"test.func"() <{sym_name = "f"}> ({
  %c = "test.constant"() <{value = 2 : i32}> : () -> i32
  %d = "test.constant"() <{value = 2 : i32}> : () -> i32
  "test.effect"(%c, %d) : (i32, i32) -> ()
}) : () -> ()
"test.func"() <{sym_name = "g"}> ({
  %c = "test.constant"() <{value = 3 : i32}> : () -> i32
  %d = "test.constant"() <{value = 3 : i32}> : () -> i32
  "test.effect"(%c, %d) : (i32, i32) -> ()
}) : () -> ()
