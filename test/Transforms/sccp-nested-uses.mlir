// --sccp looks for the uses of a symbol table's callables in that table's
// region only: a use inside a nested symbol table (@inner) does not make
// the private @f's callers unknown, so its argument is the constant its only
// call passes. The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect --sccp | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func private @f(%arg0: i32) -> i32 {
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     return %c1_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @caller() -> i32 {
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:     %0 = call @f(%c1_i32) : (i32) -> i32
// CHECK-NEXT:     return %c1_i32 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   module @inner {
// CHECK-NEXT:     "live.user"() {uses = [@f]} : () -> ()
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func private @f(%x: i32) -> i32 {
  return %x : i32
}

func.func @caller() -> i32 {
  %c1 = arith.constant 1 : i32
  %r = call @f(%c1) : (i32) -> i32
  return %r : i32
}

module @inner {
  "live.user"() {uses = [@f]} : () -> ()
}
