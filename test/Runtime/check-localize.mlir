// `strata run --mode graph --check` on a mismatch: the first diverging op,
// the pass step that introduced it, the IR without and with that step, the
// report's `check` object and a repro bundle that still fails.
// The recipe computes in f16 but asks for f32's tolerance, so the plan
// cannot match; the first op it touches is the query projection.
// RUN: printf '[codegen]\nprecision = "f16"\n[contracts.tolerance]\nrtol = 1e-6\natol = 1e-7\n' > %t.tight.toml
// RUN: rm -rf %t.repro %t.json
// RUN: not strata run %S/../../examples/onnx/encoder.onnx --mode graph --recipe %t.tight.toml --input x=%S/../../examples/onnx/encoder_input_x.npy --check --report %t.json --check-repro %t.repro > %t.out 2>&1
// RUN: FileCheck %s --input-file=%t.out
// RUN: python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['check']; print(c['status'], c['first_divergence']['name'], c['first_divergence']['op'], c['pass']['name'], c['pass']['kind'], c['pass']['application'] <= c['pass']['applications'])" %t.json | FileCheck %s --check-prefix=JSON
// RUN: ls %t.repro %t.repro/inputs | FileCheck %s --check-prefix=BUNDLE
// RUN: FileCheck %s --check-prefix=BEFORE --input-file=%t.repro/before.mlir
// RUN: FileCheck %s --check-prefix=AFTER --input-file=%t.repro/after.mlir
// The bundle's command fails as the model does, on the prefix alone.
// RUN: env STRATA=strata not sh %t.repro/repro.sh 2>&1 | FileCheck %s --check-prefix=REPRO
// An occupied directory is refused before anything runs; so is a budget of zero.
// RUN: not strata run %S/../../examples/onnx/encoder.onnx --mode graph --recipe %t.tight.toml --input x=%S/../../examples/onnx/encoder_input_x.npy --check --check-repro %t.repro 2>&1 | FileCheck %s --check-prefix=OCCUPIED
// RUN: not strata run %S/../../examples/onnx/encoder.onnx --mode graph --check --check-budget 0 --input x=%S/../../examples/onnx/encoder_input_x.npy 2>&1 | FileCheck %s --check-prefix=ZERO
// A budget too small to finish says how far it got.
// RUN: not strata run %S/../../examples/onnx/encoder.onnx --mode graph --recipe %t.tight.toml --input x=%S/../../examples/onnx/encoder_input_x.npy --check --check-budget 2 2>&1 | FileCheck %s --check-prefix=SPENT
// --check-reference f64: which side is further from the model run in f64.
// RUN: not strata run %S/../../examples/onnx/encoder.onnx --mode graph --recipe %t.tight.toml --input x=%S/../../examples/onnx/encoder_input_x.npy --check --check-no-localize --check-reference f64 --report %t.ref.json 2>&1 | FileCheck %s --check-prefix=REFERENCE
// RUN: python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['check']['reference']; print(r['dtype'], [o['closer'] for o in r['outputs']])" %t.ref.json | FileCheck %s --check-prefix=REFERENCE-JSON
// --check-no-localize compares the outputs only.
// RUN: not strata run %S/../../examples/onnx/encoder.onnx --mode graph --recipe %t.tight.toml --input x=%S/../../examples/onnx/encoder_input_x.npy --check --check-no-localize 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// strata compile --pass-bisect-limit numbers the same steps (required
// passes, the conversions, are never skipped).
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --input x=%S/../../examples/onnx/mlp_input_x.npy --pass-bisect-limit=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: not strata compile %S/../../examples/onnx/mlp.onnx --pass-bisect-limit=4 -o %t.strata 2>&1 | FileCheck %s --check-prefix=COMPILE-ARTIFACT

// COMPILE:      BISECT: running pass (1) canonicalize on 'builtin.module'
// COMPILE:      BISECT: running pass (4) dce on 'builtin.module'
// COMPILE-NEXT: BISECT: NOT running pass (5) tensor-fuse on 'builtin.module'
// COMPILE-NOT:  convert-
// COMPILE-ARTIFACT: --pass-bisect-limit applies to the host target's MLIR and LLVM IR output

// CHECK: encoder.onnx: check: localizing the op: the first 16 of 33 ops (probe 1)
// CHECK: encoder.onnx: check: localizing the pass: counting the optional steps
// CHECK: check: y: graph mode does not match eager mode (rtol 0.000001, atol 0.0000001): max|d|
// CHECK: check: first divergence at node 'attn/q_proj/MatMul' (graph.matmul), op 1 of 33: max|d| {{.*}} > tol (rtol 0.000001, atol 0.0000001); worst at [{{.*}}]: graph {{.*}}, eager {{.*}}; introduced by pass graph-convert-precision (application {{[0-9]+}} of {{[0-9]+}}) on 'builtin.module'
// CHECK: check: localizing took {{[0-9]+}} compiles
// CHECK: check: note: the full plan fuses this op with ops after it
// CHECK: check: repro bundle in {{.*}}.repro
// CHECK: check: wrote {{.*}}before.mlir
// CHECK: check: wrote {{.*}}after.mlir

// JSON: mismatch attn/q_proj/MatMul graph.matmul graph-convert-precision pass True

// BUNDLE-DAG: after.mlir
// BUNDLE-DAG: before.mlir
// BUNDLE-DAG: check.json
// BUNDLE-DAG: model.mlir
// BUNDLE-DAG: pipeline.txt
// BUNDLE-DAG: recipe.toml
// BUNDLE-DAG: repro.sh
// BUNDLE-DAG: input_0.npy

// BEFORE-NOT: f16
// BEFORE:     graph.matmul
// AFTER:      graph.cast {{.*}} -> tensor<2x8x32xf16>

// REPRO: check: output_0: graph mode does not match eager mode

// OCCUPIED: --check-repro {{.*}}.repro: the directory is not empty
// ZERO: --check-budget '0': a budget of zero compiles localizes nothing

// SPENT: check: first divergence among ops {{[0-9]+}} to {{[0-9]+}} (the budget of 2 compiles is spent)
// SPENT: check: the search stopped early: the budget of 2 compiles is spent

// REFERENCE: check: against an f64 reference, y: graph mode max|d| {{.*}}, eager mode max|d| {{.*}}: graph mode is further from exact than eager mode
// REFERENCE-JSON: f64 ['eager']

// OUTPUTS:     check: y: graph mode does not match eager mode
// OUTPUTS-NOT: localiz
