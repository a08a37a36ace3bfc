// RUN: strata-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --symbol-dce %s | FileCheck %s

// Private symbols that nothing live references are erased; public ones stay,
// and so does what they reference (transitively).
// CHECK-LABEL: module @live {
// CHECK-NEXT:    "test.func"() <{sym_name = "public"}>
// CHECK:         "test.func"() <{sym_name = "used", sym_visibility = "private"}>
// CHECK:         "test.func"() <{sym_name = "used_by_used", sym_visibility = "private"}>
// CHECK-NOT:     "dead"
// CHECK:       }
module @live {
  "test.func"() <{sym_name = "public"}> ({
    "test.effect"() {callee = @used} : () -> ()
  }) : () -> ()
  "test.func"() <{sym_name = "used", sym_visibility = "private"}> ({
    "test.effect"() {callees = [@used_by_used]} : () -> ()
  }) : () -> ()
  "test.func"() <{sym_name = "used_by_used", sym_visibility = "private"}> ({
  }) : () -> ()
  "test.func"() <{sym_name = "dead", sym_visibility = "private"}> ({
    "test.effect"() {callee = @dead2} : () -> ()
  }) : () -> ()
  "test.func"() <{sym_name = "dead2", sym_visibility = "private"}> ({
  }) : () -> ()
}

// -----

// An unregistered op with regions might be a symbol table: symbol uses
// cannot be computed, as in MLIR.
module {
  // expected-error @+1 {{operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses}}
  "foo.op"() ({
  }) : () -> ()
}

// -----

// An unregistered op carrying `sym_name` is not known to be a symbol, so it
// is never discarded; the registered private function beside it is.
// CHECK-LABEL: module @unregistered {
// CHECK-NEXT:    "foo.thing"() {sym_name = "kept", sym_visibility = "private"}
// CHECK-NEXT:  }
module @unregistered {
  "foo.thing"() {sym_name = "kept", sym_visibility = "private"} : () -> ()
  "test.func"() <{sym_name = "gone", sym_visibility = "private"}> ({
  }) : () -> ()
}
