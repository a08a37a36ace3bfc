// REQUIRES: strata-opt
// RUN: strata-opt --pass-pipeline='builtin.module(builtin.module(symbol-dce))' %s | FileCheck %s

// Anchored on nested modules: an unnamed module is not a symbol, so it is
// hidden and its nested-visibility symbols are dead too; a public named
// module keeps them (mlir-opt 22 gives the same with func.func).
// CHECK-LABEL: module {
// CHECK-NEXT:    module {
// CHECK-NEXT:    }
// CHECK-NEXT:    module @a {
// CHECK-NEXT:      "test.func"() <{sym_name = "kept", sym_visibility = "nested"}>
// CHECK-NEXT:      })
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module {
  module {
    "test.func"() <{sym_name = "n", sym_visibility = "nested"}> ({}) : () -> ()
    "test.func"() <{sym_name = "p", sym_visibility = "private"}> ({}) : () -> ()
  }
  module @a {
    "test.func"() <{sym_name = "kept", sym_visibility = "nested"}> ({}) : () -> ()
    "test.func"() <{sym_name = "p", sym_visibility = "private"}> ({}) : () -> ()
  }
}
