// func.constant and func.call_indirect: the CHECK lines are what mlir-opt
// prints for the functions below (pretty, then through the generic form),
// and, under CANON, what mlir-opt --canonicalize prints: an indirect call
// of a constant becomes a func.call (without the call's attributes), and
// a constant still used is hoisted like any constant.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --canonicalize | FileCheck %s --check-prefix=CANON --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func private @callee(i32) -> i32
// CHECK-NEXT:   func.func @a(%arg0: i32) -> (i32, i32) {
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %f = constant @callee : (i32) -> i32
// CHECK-NEXT:     %0 = call_indirect %f(%arg0) : (i32) -> i32
// CHECK-NEXT:     %f_0 = constant @callee : (i32) -> i32
// CHECK-NEXT:     %1 = call_indirect %f_0(%c1_i32) {foo} : (i32) -> i32
// CHECK-NEXT:     return %0, %1 : i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @b(%arg0: (i32) -> i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     %0 = call_indirect %arg0(%arg1) : (i32) -> i32
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @c(%arg0: i32) -> ((i32) -> i32, i32) {
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT:     %f = constant @callee : (i32) -> i32
// CHECK-NEXT:     return %f, %0 : (i32) -> i32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @d() -> (() -> (), () -> ()) {
// CHECK-NEXT:     %f = constant @d2 : () -> ()
// CHECK-NEXT:     %f_0 = constant @d2 : () -> ()
// CHECK-NEXT:     return %f, %f_0 : () -> (), () -> ()
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @d2()
// CHECK-NEXT: }

// CANON: module {
// CANON-NEXT:   func.func private @callee(i32) -> i32
// CANON-NEXT:   func.func @a(%arg0: i32) -> (i32, i32) {
// CANON-NEXT:     %c1_i32 = arith.constant 1 : i32
// CANON-NEXT:     %0 = call @callee(%arg0) : (i32) -> i32
// CANON-NEXT:     %1 = call @callee(%c1_i32) : (i32) -> i32
// CANON-NEXT:     return %0, %1 : i32, i32
// CANON-NEXT:   }
// CANON-NEXT:   func.func @b(%arg0: (i32) -> i32, %arg1: i32) -> i32 {
// CANON-NEXT:     %0 = call_indirect %arg0(%arg1) : (i32) -> i32
// CANON-NEXT:     return %0 : i32
// CANON-NEXT:   }
// CANON-NEXT:   func.func @c(%arg0: i32) -> ((i32) -> i32, i32) {
// CANON-NEXT:     %f = constant @callee : (i32) -> i32
// CANON-NEXT:     %c1_i32 = arith.constant 1 : i32
// CANON-NEXT:     %0 = arith.addi %arg0, %c1_i32 : i32
// CANON-NEXT:     return %f, %0 : (i32) -> i32, i32
// CANON-NEXT:   }
// CANON-NEXT:   func.func @d() -> (() -> (), () -> ()) {
// CANON-NEXT:     %f = constant @d2 : () -> ()
// CANON-NEXT:     return %f, %f : () -> (), () -> ()
// CANON-NEXT:   }
// CANON-NEXT:   func.func private @d2()
// CANON-NEXT: }

func.func private @callee(i32) -> i32
func.func @a(%x: i32) -> (i32, i32) {
  %c = arith.constant 1 : i32
  %f = func.constant @callee : (i32) -> i32
  %r = func.call_indirect %f(%x) : (i32) -> i32
  %g = func.constant @callee : (i32) -> i32
  %s = func.call_indirect %g(%c) {foo} : (i32) -> i32
  return %r, %s : i32, i32
}
func.func @b(%h: (i32) -> i32, %x: i32) -> i32 {
  %r = func.call_indirect %h(%x) : (i32) -> i32
  return %r : i32
}
func.func @c(%x: i32) -> ((i32) -> i32, i32) {
  %one = arith.constant 1 : i32
  %y = arith.addi %x, %one : i32
  %f = func.constant @callee : (i32) -> i32
  return %f, %y : (i32) -> i32, i32
}
func.func @d() -> (() -> (), () -> ()) {
  %f = func.constant @d2 : () -> ()
  %g = func.constant @d2 : () -> ()
  return %f, %g : () -> (), () -> ()
}
func.func private @d2()
