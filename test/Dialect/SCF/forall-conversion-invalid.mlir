// scf-forall-to-for and scf-forall-to-parallel refuse an scf.forall with
// shared outputs, with a located error (mlir-opt 22 crashes or fails
// without a message on it, so this file runs strata-opt only).
// REQUIRES: strata-opt
// RUN: not strata-opt %s -pass-pipeline='builtin.module(func.func(scf-forall-to-for))' 2>&1 | FileCheck %s
// RUN: not strata-opt %s -pass-pipeline='builtin.module(func.func(scf-forall-to-parallel))' 2>&1 | FileCheck %s

// CHECK: forall-conversion-invalid.mlir:[[@LINE+3]]:8: error: 'scf.forall' op with shared outputs cannot be converted: only an scf.forall without them can
func.func private @callee(%i: index)
func.func @shared(%n: index, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.forall (%i) in (%n) shared_outs(%o = %t) -> (tensor<4xf32>) {
    func.call @callee(%i) : (index) -> ()
  }
  return %r : tensor<4xf32>
}
