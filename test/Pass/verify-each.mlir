// REQUIRES: strata-opt
// RUN: not strata-opt --pass-pipeline='builtin.module(test.func(test-reverse-ops))' %s 2>&1 | FileCheck %s
// RUN: strata-opt --verify-each=false --pass-pipeline='builtin.module(test.func(test-reverse-ops))' %s | FileCheck %s --check-prefix=NOVERIFY

// A pass that leaves invalid IR is reported with its name.
// CHECK: error: block with no terminator, has %0 = "test.constant"
// CHECK: note: the IR is invalid after running pass 'test-reverse-ops'

// Without --verify-each the IR is printed as the pass left it.
// NOVERIFY: "test.effect"(%0)
// NOVERIFY: %0 = "test.constant"
"test.func"() <{sym_name = "f"}> ({
^bb0:
  %c = "test.constant"() <{value = 2 : i32}> : () -> i32
  "test.effect"(%c) : (i32) -> ()
  "test.return"() : () -> ()
^bb1:
  "test.return"() : () -> ()
}) : () -> ()
