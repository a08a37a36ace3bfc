// A custom op from a shared library (strata's C ABI): eager and graph mode
// run it; an artifact records its implementation (version, library sha256)
// and refuses another one; a recipe's contracts.custom_ops must match the
// registered library.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cc -shared -fPIC -O2 -I %S/../../runtime/include %S/../../examples/custom_op_c/scaled_silu.c -o %t/libss.so -lm
// RUN: cc -shared -fPIC -O2 -I %S/../../runtime/include '-DIMPL_VERSION="1.0.1"' %S/../../examples/custom_op_c/scaled_silu.c -o %t/libss2.so -lm
// RUN: strata run %S/../../examples/custom_op_c/model.mlir --custom-op-lib %t/libss.so --dim batch=3 --output-dir %t/eager | FileCheck %s --check-prefix=EAGER
// RUN: strata run %S/../../examples/custom_op_c/model.mlir --custom-op-lib %t/libss.so --dim batch=3 --mode graph --check | FileCheck %s --check-prefix=GRAPH
// A plan that calls custom ops is not kept in the plan cache on disk (it is
// bound to the libraries this process registered), and still runs.
// RUN: strata run %S/../../examples/custom_op_c/model.mlir --custom-op-lib %t/libss.so --dim batch=3 --mode graph --cache-dir %t/cache --log-events --expect output_0=%t/eager/output_0.npy 2>&1 | FileCheck %s --check-prefix=SKIPPED
// RUN: not strata run %S/../../examples/custom_op_c/model.mlir --dim batch=3 2>&1 | FileCheck %s --check-prefix=UNREGISTERED
// RUN: not strata run %S/../../examples/custom_op_c/model.mlir --custom-op-lib %t/missing.so 2>&1 | FileCheck %s --check-prefix=MISSING
//
// The artifact.
// RUN: strata compile %S/../../examples/custom_op_c/model.mlir --custom-op-lib %t/libss.so --dim batch=3 -o %t/m.strata
// RUN: strata inspect %t/m.strata | FileCheck %s --check-prefix=INSPECT -DSHA=$(sha256sum %t/libss.so | cut -d' ' -f1)
// RUN: strata run %t/m.strata --custom-op-lib %t/libss.so --expect output_0=%t/eager/output_0.npy | FileCheck %s --check-prefix=OUT
// RUN: not strata run %t/m.strata --custom-op-lib %t/libss2.so 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not strata run %t/m.strata 2>&1 | FileCheck %s --check-prefix=NOLIB
//
// The recipe's contract.
// RUN: printf '[contracts.custom_ops]\n"example.ScaledSilu" = { version = "1.0.0", sha256 = "%%s" }\n' $(sha256sum %t/libss.so | cut -d' ' -f1) > %t/contract.toml
// RUN: strata compile %S/../../examples/custom_op_c/model.mlir --custom-op-lib %t/libss.so --dim batch=3 --recipe %t/contract.toml -o %t/c.strata
// RUN: not strata compile %S/../../examples/custom_op_c/model.mlir --custom-op-lib %t/libss2.so --dim batch=3 --recipe %t/contract.toml -o %t/c2.strata 2>&1 | FileCheck %s --check-prefix=CONTRACT

// EAGER: output_0: f32 [3, 8]
// GRAPH: check: output_0: graph mode matches eager mode
// UNREGISTERED: error: 'graph.custom' op custom op 'example.ScaledSilu' is not registered
// MISSING: error: {{.*}}missing.so
// INSPECT: kernels (3):
// INSPECT: custom op example.ScaledSilu (custom op example.ScaledSilu)
// INSPECT: custom op  example.ScaledSilu 1.0.0 (sha256 [[SHA]])
// OUT: output_0: matches
// OTHER: error: the artifact was refused:
// OTHER-NEXT: custom op 'example.ScaledSilu': compiled against version 1.0.0, but the registered implementation has version 1.0.1
// OTHER-NEXT: custom op 'example.ScaledSilu': compiled against sha256 [[SHA1:[0-9a-f]+]], but the registered implementation has sha256
// NOLIB: custom op 'example.ScaledSilu': the artifact calls it, but it is not registered
// CONTRACT: error: contracts.custom_ops: 'example.ScaledSilu' is registered at version 1.0.1, the recipe requires 1.0.0
// CONTRACT-NEXT: error: contracts.custom_ops: 'example.ScaledSilu' is registered with sha256

// SKIPPED: "event":"cache-skipped"
// SKIPPED-SAME: "reason":"not kept on disk: the plan calls custom ops"
// SKIPPED: output_0: matches
