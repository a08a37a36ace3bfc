// REQUIRES: strata-opt
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --canonicalize %s | FileCheck %s
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --canonicalize='region-simplify=disabled' %s | FileCheck %s --check-prefix=OFF

// Blocks no path from the entry reaches are erased, cycles among them
// included (mlir-opt 22 gives the same output); region-simplify=disabled
// keeps them.
// CHECK-LABEL: "foo.func"() ({
// CHECK-NEXT:  ^bb0(%[[A:.*]]: i32):
// CHECK-NEXT:    "foo.br"(%[[A]])[^bb1] : (i32) -> ()
// CHECK-NEXT:  ^bb1(%[[B:.*]]: i32):  // pred: ^bb0
// CHECK-NEXT:    "foo.ret"(%[[B]]) : (i32) -> ()
// CHECK-NEXT:  }) : () -> ()
// OFF:         "foo.op"
// OFF:         ^bb3(
"foo.func"() ({
^bb0(%a: i32):
  "foo.br"(%a)[^bb2] : (i32) -> ()
^bb1(%x: i32):
  %y = "foo.op"(%x) : (i32) -> i32
  "foo.br"(%y)[^bb3] : (i32) -> ()
^bb2(%b: i32):
  "foo.ret"(%b) : (i32) -> ()
^bb3(%c: i32):
  "foo.br"(%c)[^bb1] : (i32) -> ()
}) : () -> ()

// -----

// Regions nested in reachable blocks are simplified too.
// CHECK-LABEL: "foo.outer"() ({
// CHECK-NEXT:    "foo.inner"() ({
// CHECK-NEXT:      "foo.ret"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:  }) : () -> ()
"foo.outer"() ({
  "foo.inner"() ({
    "foo.ret"() : () -> ()
  ^bb1:
    "foo.dead"() : () -> ()
    "foo.ret"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A use nested in an unreachable block is not checked against the
// definitions outside it (anything dominates an unreachable block, as in
// MLIR), so this verifies; the block is then erased.
// CHECK-LABEL: "foo.func"() ({
// CHECK-NEXT:  ^bb0(%[[A:.*]]: i32):
// CHECK-NEXT:    "foo.ret"(%[[A]]) : (i32) -> ()
// CHECK-NEXT:  }) : () -> ()
"foo.func"() ({
^bb0(%a: i32):
  "foo.ret"(%a) : (i32) -> ()
^bb1:
  "foo.wrap"() ({
    "foo.use"(%a) : (i32) -> ()
    "foo.yield"() : () -> ()
  }) : () -> ()
  "foo.ret"(%a) : (i32) -> ()
}) : () -> ()
