// strata compile --recipe and strata bench --recipe: the recipe's pipeline
// replaces the default one (here: fusion off, so no tensor.fusion and one
// kernel per op); a recipe in eager mode is an error.
// RUN: printf '[optimize.fusion]\nenabled = false\n' > %t.toml
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --dim batch=4 --stop-after tensor --recipe %t.toml | FileCheck %s --check-prefix=NOFUSE
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --dim batch=4 --stop-after tensor | FileCheck %s --check-prefix=FUSED
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --dim batch=4 --recipe %t.toml | FileCheck %s --check-prefix=KERNELS
// RUN: strata bench %S/../../examples/onnx/mlp.onnx --recipe %t.toml --runs 1 --warmup 0 --threads 1 --json | FileCheck %s --check-prefix=BENCH
// RUN: not strata bench %S/../../examples/onnx/mlp.onnx --mode eager --recipe %t.toml --runs 1 2>&1 | FileCheck %s --check-prefix=EAGER
// RUN: not strata compile %S/../../examples/onnx/mlp.onnx --recipe %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING

// NOFUSE-NOT: tensor.fusion
// NOFUSE: tensor.contract
// FUSED: tensor.fusion
// KERNELS-COUNT-8: kernel.launch
// BENCH: "mode": "graph"
// BENCH-SAME: "kernels": 10
// EAGER: --recipe: a recipe drives graph mode's compilation; eager mode compiles nothing
// MISSING: compile-bench.mlir.tmp.missing
