// REQUIRES: strata-opt
// RUN: strata-opt --split-input-file --inline %s | FileCheck %s

// Mutually recursive callables form one call-graph SCC; inlining either call
// would unroll the cycle without end, so both calls stay.
// CHECK-LABEL: module {
// CHECK:         "test.func"() <{sym_name = "a"}> ({
// CHECK:           "test.call"(%{{.*}}) <{callee = @b}>
// CHECK:         "test.func"() <{sym_name = "b"}> ({
// CHECK:           "test.call"(%{{.*}}) <{callee = @a}>
"test.func"() <{sym_name = "a"}> ({
^bb0(%x: i32):
  %0 = "test.call"(%x) <{callee = @b}> : (i32) -> i32
  "test.return"(%0) : (i32) -> ()
}) : () -> ()
"test.func"() <{sym_name = "b"}> ({
^bb0(%x: i32):
  %0 = "test.call"(%x) <{callee = @a}> : (i32) -> i32
  "test.return"(%0) : (i32) -> ()
}) : () -> ()

// -----

// A callee is looked up in the nearest symbol table: the call inside @inner
// names @inner's private @f (the identity), not the top-level @f. Once
// inlined, the private @f has no uses left and is erased from @inner.
// CHECK-LABEL: module {
// CHECK:         "test.func"() <{sym_name = "f"}> ({
// CHECK:           "test.addi"
// CHECK:         module @inner {
// CHECK-NOT:       sym_name = "f"
// CHECK:           "test.func"() <{sym_name = "g"}> ({
// CHECK-NEXT:      ^bb0(%[[X:.*]]: i32):
// CHECK-NEXT:        "test.return"(%[[X]])
"test.func"() <{sym_name = "f"}> ({
^bb0(%x: i32):
  %0 = "test.addi"(%x, %x) : (i32, i32) -> i32
  "test.return"(%0) : (i32) -> ()
}) : () -> ()
module @inner {
  "test.func"() <{sym_name = "f", sym_visibility = "private"}> ({
  ^bb0(%x: i32):
    "test.return"(%x) : (i32) -> ()
  }) : () -> ()
  "test.func"() <{sym_name = "g"}> ({
  ^bb0(%x: i32):
    %0 = "test.call"(%x) <{callee = @f}> : (i32) -> i32
    "test.return"(%0) : (i32) -> ()
  }) : () -> ()
}

// -----

// A nested reference from outside (`@inner::@f`) keeps @inner's private @f.
// CHECK-LABEL: module {
// CHECK:         module @inner {
// CHECK-NEXT:      "test.func"() <{sym_name = "f", sym_visibility = "private"}>
"test.func"() <{sym_name = "main"}> ({
  "test.effect"() {callee = @inner::@f} : () -> ()
}) : () -> ()
module @inner {
  "test.func"() <{sym_name = "f", sym_visibility = "private"}> ({
  }) : () -> ()
}
