// REQUIRES: strata-opt
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

// -----

// Nested symbol tables, as MLIR 22's SymbolDCE: the top level and unnamed or
// private tables are hidden, so their non-public symbols start dead; a live
// public table keeps its nested-visibility symbols; `@inner::@g` keeps both
// symbols on its path; a private table nobody references goes whole; a table
// inside a function body loses its dead private symbols.
// CHECK-LABEL: module @nested {
// CHECK-NEXT:    "test.func"() <{sym_name = "pub"}> ({
// CHECK-NEXT:      "test.effect"() {r = @inner::@g}
// CHECK-NEXT:    })
// CHECK-NEXT:    module @inner {
// CHECK-NEXT:      "test.func"() <{sym_name = "g", sym_visibility = "nested"}>
// CHECK-NEXT:      })
// CHECK-NEXT:      "test.func"() <{sym_name = "k"}>
// CHECK-NEXT:      })
// CHECK-NEXT:    }
// CHECK-NEXT:    module {
// CHECK-NEXT:      "test.func"() <{sym_name = "y"}>
// CHECK-NEXT:      })
// CHECK-NEXT:    }
// CHECK-NEXT:    "test.func"() <{sym_name = "body"}> ({
// CHECK-NEXT:      builtin.module @m2 {
// CHECK-NEXT:        "test.func"() <{sym_name = "v"}>
// CHECK-NEXT:        })
// CHECK-NEXT:      }
// CHECK-NEXT:    })
// CHECK-NEXT:  }
module @nested {
  "test.func"() <{sym_name = "n", sym_visibility = "nested"}> ({}) : () -> ()
  "test.func"() <{sym_name = "p", sym_visibility = "private"}> ({}) : () -> ()
  "test.func"() <{sym_name = "pub"}> ({
    "test.effect"() {r = @inner::@g} : () -> ()
  }) : () -> ()
  module @inner {
    "test.func"() <{sym_name = "g", sym_visibility = "nested"}> ({}) : () -> ()
    "test.func"() <{sym_name = "h", sym_visibility = "private"}> ({}) : () -> ()
    "test.func"() <{sym_name = "k"}> ({}) : () -> ()
  }
  module @dead attributes {sym_visibility = "private"} {
    "test.func"() <{sym_name = "x"}> ({}) : () -> ()
  }
  module {
    "test.func"() <{sym_name = "y"}> ({}) : () -> ()
    "test.func"() <{sym_name = "z", sym_visibility = "private"}> ({}) : () -> ()
  }
  "test.func"() <{sym_name = "body"}> ({
    module @m2 {
      "test.func"() <{sym_name = "w", sym_visibility = "private"}> ({}) : () -> ()
      "test.func"() <{sym_name = "v"}> ({}) : () -> ()
    }
  }) : () -> ()
}

// -----

// Only an op of an unregistered dialect with exactly one region might be an
// unknown symbol table; with two regions it is not one (as MLIR).
// CHECK-LABEL: module @two_regions {
// CHECK-NEXT:    "foo.two"() ({
// CHECK-NEXT:    }, {
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:  }
module @two_regions {
  "foo.two"() ({}, {}) : () -> ()
  "test.func"() <{sym_name = "gone", sym_visibility = "private"}> ({}) : () -> ()
}
