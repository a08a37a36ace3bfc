// What `strata import` says about TOSA it cannot take, at each op's
// location: ops without a graph counterpart (all of them, in order), a
// module upstream's verifier rejects (its own diagnostic), and a
// quantized multiplication.
// RUN: not strata import %S/Inputs/unsupported.mlir 2>&1 | FileCheck %s --check-prefix=NOGRAPH
// RUN: not strata import %S/Inputs/invalid.mlir 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not strata import %S/Inputs/shift.mlir 2>&1 | FileCheck %s --check-prefix=SHIFT
// RUN: not strata import --from onnx2 %S/Inputs/shift.mlir 2>&1 | FileCheck %s --check-prefix=FROM
// `strata run` takes the same path.
// RUN: not strata run %S/Inputs/unsupported.mlir 2>&1 | FileCheck %s --check-prefix=NOGRAPH

// NOGRAPH: unsupported.mlir:2:8: error: 'tosa.clz' has no counterpart in the graph dialect
// NOGRAPH-NEXT: unsupported.mlir:4:8: error: 'tosa.clz' has no counterpart in the graph dialect

// INVALID: invalid.mlir:2:8: error: {{.*}}
// INVALID-NOT: panicked

// SHIFT: shift.mlir:3:8: error: 'tosa.mul': a nonzero shift is not supported (quantized TOSA)

// FROM: --from onnx2: expected `onnx` or `tosa`
