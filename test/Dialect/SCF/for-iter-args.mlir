// scf.for's loop-carried values: duplicates (the same init and the same
// yielded value as an earlier one) merge into it, invariant ones go (MLIR's
// ForOpIterArgsFolder). The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --canonicalize | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func @duplicates(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index) -> (index, index, index, index) {
// CHECK-NEXT:     %0:2 = scf.for %arg5 = %arg0 to %arg1 step %arg2 iter_args(%arg6 = %arg3, %arg7 = %arg4) -> (index, index) {
// CHECK-NEXT:       %1 = arith.addi %arg6, %arg7 : index
// CHECK-NEXT:       %2 = arith.addi %arg7, %arg6 : index
// CHECK-NEXT:       scf.yield %1, %2 : index, index
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0#0, %0#1, %0#1, %0#0 : index, index, index, index
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @mixed(%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
// CHECK-NEXT:     %0:2 = scf.for %arg4 = %arg0 to %arg1 step %arg2 iter_args(%arg5 = %arg3, %arg6 = %arg3) -> (index, index) {
// CHECK-NEXT:       %1 = arith.addi %arg5, %arg4 : index
// CHECK-NEXT:       %2 = arith.muli %arg6, %arg4 : index
// CHECK-NEXT:       scf.yield %1, %2 : index, index
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0#0, %0#1, %arg3 : index, index, index
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

// Two pairs of loop-carried values with the same init and the same yielded
// value: each pair becomes one.
func.func @duplicates(%lb: index, %ub: index, %step: index, %a: index, %b: index) -> (index, index, index, index) {
  %0:4 = scf.for %i = %lb to %ub step %step iter_args(%k0 = %a, %k1 = %b, %k2 = %b, %k3 = %a) -> (index, index, index, index) {
    %1 = arith.addi %k0, %k1 : index
    %2 = arith.addi %k2, %k3 : index
    scf.yield %1, %2, %2, %1 : index, index, index, index
  }
  return %0#0, %0#1, %0#2, %0#3 : index, index, index, index
}

// The same init but different yielded values stay apart; an invariant one
// goes.
func.func @mixed(%lb: index, %ub: index, %step: index, %a: index) -> (index, index, index) {
  %0:3 = scf.for %i = %lb to %ub step %step iter_args(%x = %a, %y = %a, %z = %a) -> (index, index, index) {
    %1 = arith.addi %x, %i : index
    %2 = arith.muli %y, %i : index
    scf.yield %1, %2, %z : index, index, index
  }
  return %0#0, %0#1, %0#2 : index, index, index
}
