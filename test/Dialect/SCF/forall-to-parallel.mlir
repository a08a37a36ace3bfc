// scf-forall-to-parallel: each scf.forall becomes an scf.parallel with an
// empty scf.reduce; static bounds become constants before it.
// The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s --allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(scf-forall-to-parallel))' | FileCheck %s --strict-whitespace

// CHECK: module {
// CHECK-NEXT:   func.func private @callee(index, index)
// CHECK-NEXT:   func.func @two_iters(%arg0: index, %arg1: index, %arg2: index) {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c9 = arith.constant 9 : index
// CHECK-NEXT:     %c2 = arith.constant 2 : index
// CHECK-NEXT:     scf.parallel (%arg3, %arg4) = (%c1, %arg2) to (%arg0, %c9) step (%arg2, %c2) {
// CHECK-NEXT:       func.call @callee(%arg3, %arg4) : (index, index) -> ()
// CHECK-NEXT:       scf.reduce{{ $}}
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @n(%arg0: index, %arg1: index) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     scf.parallel (%arg2) = (%c0) to (%arg0) step (%c1) {
// CHECK-NEXT:       %c0_0 = arith.constant 0 : index
// CHECK-NEXT:       %c1_1 = arith.constant 1 : index
// CHECK-NEXT:       scf.parallel (%arg3) = (%c0_0) to (%arg1) step (%c1_1) {
// CHECK-NEXT:         func.call @callee(%arg2, %arg3) : (index, index) -> ()
// CHECK-NEXT:         scf.reduce{{ $}}
// CHECK-NEXT:       }
// CHECK-NEXT:       scf.reduce{{ $}}
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func private @callee(%i: index, %j: index)
func.func @two_iters(%ub1: index, %ub2: index, %s: index) {
  scf.forall (%i, %j) = (1, %s) to (%ub1, 9) step (%s, 2) {
    func.call @callee(%i, %j) : (index, index) -> ()
  }
  return
}
func.func @n(%ub1: index, %ub2: index) {
  scf.forall (%i) in (%ub1) {
    scf.forall (%k) in (%ub2) {
      func.call @callee(%i, %k) : (index, index) -> ()
    }
  }
  return
}
