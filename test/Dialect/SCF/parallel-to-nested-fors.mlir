// scf-parallel-for-to-nested-fors: an scf.parallel without reductions
// becomes a nest of scf.for loops; one with reductions stays.
// The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(scf-parallel-for-to-nested-fors))' | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func private @callee(index, index)
// CHECK-NEXT:   func.func @p(%arg0: index, %arg1: index, %arg2: index, %arg3: f32) -> f32 {
// CHECK-NEXT:     scf.for %arg4 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT:       scf.for %arg5 = %arg0 to %arg1 step %arg2 {
// CHECK-NEXT:         func.call @callee(%arg4, %arg5) : (index, index) -> ()
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     %0 = scf.parallel (%arg4) = (%arg0) to (%arg1) step (%arg2) init (%arg3) -> f32 {
// CHECK-NEXT:       %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:       scf.reduce(%cst : f32) {
// CHECK-NEXT:       ^bb0(%arg5: f32, %arg6: f32):
// CHECK-NEXT:         %1 = arith.addf %arg5, %arg6 : f32
// CHECK-NEXT:         scf.reduce.return %1 : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     return %0 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func private @callee(%i: index, %j: index)
func.func @p(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%s, %s) {
    func.call @callee(%i, %j) : (index, index) -> ()
  }
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
    %v = arith.constant 1.0 : f32
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      scf.reduce.return %c : f32
    }
  }
  return %r : f32
}
