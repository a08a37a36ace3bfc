// scf-for-to-while: an scf.for becomes an scf.while carrying the induction
// variable first (compared in the before region, stepped in the after one).
// The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(scf-for-to-while))' | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func private @callee(index) -> f32
// CHECK-NEXT:   func.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> f32 {
// CHECK-NEXT:     %0:2 = scf.while (%arg4 = %arg0, %arg5 = %arg3) : (index, f32) -> (index, f32) {
// CHECK-NEXT:       %2 = arith.cmpi slt, %arg4, %arg1 : index
// CHECK-NEXT:       scf.condition(%2) %arg4, %arg5 : index, f32
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg4: index, %arg5: f32):
// CHECK-NEXT:       %2 = arith.addi %arg4, %arg2 : index
// CHECK-NEXT:       %3 = func.call @callee(%arg4) : (index) -> f32
// CHECK-NEXT:       %4 = arith.addf %arg5, %3 : f32
// CHECK-NEXT:       scf.yield %2, %4 : index, f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %1 = scf.while (%arg4 = %arg0) : (index) -> index {
// CHECK-NEXT:       %2 = arith.cmpi slt, %arg4, %arg1 : index
// CHECK-NEXT:       scf.condition(%2) %arg4 : index
// CHECK-NEXT:     } do {
// CHECK-NEXT:     ^bb0(%arg4: index):
// CHECK-NEXT:       %2 = arith.addi %arg4, %arg2 : index
// CHECK-NEXT:       %3 = scf.while (%arg5 = %arg0) : (index) -> index {
// CHECK-NEXT:         %4 = arith.cmpi slt, %arg5, %arg1 : index
// CHECK-NEXT:         scf.condition(%4) %arg5 : index
// CHECK-NEXT:       } do {
// CHECK-NEXT:       ^bb0(%arg5: index):
// CHECK-NEXT:         %4 = arith.addi %arg5, %arg2 : index
// CHECK-NEXT:         %5 = func.call @callee(%arg5) : (index) -> f32
// CHECK-NEXT:         scf.yield %4 : index
// CHECK-NEXT:       }
// CHECK-NEXT:       scf.yield %2 : index
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0#1 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func private @callee(%i: index) -> f32
func.func @f(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> f32 {
    %v = func.call @callee(%i) : (index) -> f32
    %w = arith.addf %a, %v : f32
    scf.yield %w : f32
  }
  scf.for %i = %lb to %ub step %s {
    scf.for %j = %lb to %ub step %s {
      %v = func.call @callee(%j) : (index) -> f32
    }
  }
  return %r : f32
}
