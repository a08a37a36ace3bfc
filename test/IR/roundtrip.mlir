// The generic output reads back and prints identically, blocks and branches
// included.
// RUN: strata-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.mlir
// RUN: strata-opt --allow-unregistered-dialect --mlir-print-op-generic %t.mlir > %t.again.mlir
// RUN: diff %t.mlir %t.again.mlir
// RUN: FileCheck %s < %t.again.mlir

// CHECK:      "foo.func"() ({
// CHECK-NEXT: ^bb0(%arg0: i1, %arg1: i32):
// CHECK-NEXT:   "foo.cond_br"(%arg0, %arg1)[^bb1, ^bb2] : (i1, i32) -> ()
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT:   "foo.br"(%arg1)[^bb2] : (i32) -> ()
// CHECK-NEXT: ^bb2(%0: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:   "foo.return"(%0) : (i32) -> ()
// CHECK-NEXT: }) : () -> ()
"foo.func"() ({
^entry(%cond: i1, %x: i32):
  "foo.cond_br"(%cond, %x)[^then, ^exit] : (i1, i32) -> ()
^then:
  "foo.br"(%x)[^exit] : (i32) -> ()
^exit(%result: i32):
  "foo.return"(%result) : (i32) -> ()
}) : () -> ()
