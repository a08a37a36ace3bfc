// REQUIRES: strata-opt
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --inline %s | FileCheck %s
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --inline='default-pipeline=' %s | FileCheck %s --check-prefix=NOOPT

// Calls to a private function are inlined and the function, now unused,
// erased; the callee was first simplified with the default pipeline
// (canonicalize), as mlir-opt's inliner does. A recursive call stays.
// CHECK-LABEL: module {
// CHECK-NOT:     sym_name = "add"
// CHECK:         "test.func"() <{sym_name = "main"}> ({
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32):
// CHECK-NEXT:      %[[A:.*]] = "test.addi"(%[[X]], %[[X]])
// CHECK-NEXT:      %[[B:.*]] = "test.addi"(%[[A]], %[[X]])
// CHECK-NEXT:      "foo.use"(%[[B]])
// CHECK-NEXT:      "test.return"(%[[B]])
// CHECK:         "test.func"() <{sym_name = "rec"}> ({
// CHECK:           "test.call"(%{{.*}}) <{callee = @rec}>

// Without the default pipeline the callee's `+ 0` stays.
// NOOPT:         "test.func"() <{sym_name = "main"}> ({
// NOOPT:           "test.constant"() <{value = 0 : i32}>
// NOOPT-NOT:       "test.call"
// NOOPT:           "test.return"
"test.func"() <{sym_name = "add", sym_visibility = "private"}> ({
^bb0(%a: i32, %b: i32):
  %c = "test.addi"(%a, %b) : (i32, i32) -> i32
  %d = "test.constant"() <{value = 0 : i32}> : () -> i32
  %e = "test.addi"(%c, %d) : (i32, i32) -> i32
  "test.return"(%e) : (i32) -> ()
}) : () -> ()
"test.func"() <{sym_name = "main"}> ({
^bb0(%x: i32):
  %0 = "test.call"(%x, %x) <{callee = @add}> : (i32, i32) -> i32
  %1 = "test.call"(%0, %x) <{callee = @add}> : (i32, i32) -> i32
  "foo.use"(%1) : (i32) -> ()
  "test.return"(%1) : (i32) -> ()
}) : () -> ()
"test.func"() <{sym_name = "rec"}> ({
^bb0(%x: i32):
  %0 = "test.call"(%x) <{callee = @rec}> : (i32) -> i32
  "test.return"(%0) : (i32) -> ()
}) : () -> ()

// -----

// A callee with an unregistered op is not inlined (it may not be legal to
// inline), and stays because it is still called.
// CHECK-LABEL: module {
// CHECK:         "test.func"() <{sym_name = "opaque", sym_visibility = "private"}>
// CHECK:         "test.call"() <{callee = @opaque}>
"test.func"() <{sym_name = "opaque", sym_visibility = "private"}> ({
  "foo.op"() : () -> ()
  "test.return"() : () -> ()
}) : () -> ()
"test.func"() <{sym_name = "caller"}> ({
  "test.call"() <{callee = @opaque}> : () -> ()
  "test.return"() : () -> ()
}) : () -> ()
