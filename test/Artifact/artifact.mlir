// strata compile -o model.strata writes an artifact; strata inspect shows
// it; strata run runs it (against eager mode on the same made-up inputs) and
// refuses one that is truncated, edited, or bound to another recipe.
// RUN: rm -rf %t && mkdir -p %t
// RUN: strata compile %S/../../examples/onnx/mlp.onnx --dim batch=4 -o %t/mlp.strata
// RUN: strata inspect %t/mlp.strata | FileCheck %s --check-prefix=INSPECT
// RUN: strata inspect --json %t/mlp.strata | FileCheck %s --check-prefix=JSON
// RUN: strata run %S/../../examples/onnx/mlp.onnx --dim batch=4 --seed 7 --output-dir %t/eager
// RUN: strata run %t/mlp.strata --seed 7 --expect probs=%t/eager/probs.npy | FileCheck %s --check-prefix=OUT
// RUN: strata run %t/mlp.strata --recipe %S/../../recipes/default.toml | FileCheck %s --check-prefix=OUT
//
// The recipe given is not the one the artifact was compiled with.
// RUN: not strata run %t/mlp.strata --recipe %S/../../recipes/latency.toml 2>&1 | FileCheck %s --check-prefix=RECIPE
// A truncated file, an edited payload byte, a file that is no artifact.
// RUN: head -c 3000 %t/mlp.strata > %t/truncated.strata
// RUN: not strata run %t/truncated.strata 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: cp %t/mlp.strata %t/edited.strata
// RUN: printf 'Z' | dd of=%t/edited.strata bs=1 seek=5000 conv=notrunc 2>/dev/null
// RUN: not strata run %t/edited.strata 2>&1 | FileCheck %s --check-prefix=EDITED
// RUN: not strata inspect %s 2>&1 | FileCheck %s --check-prefix=NOT-ARTIFACT
// Inputs must have the compiled shapes; modes other than graph are refused.
// RUN: not strata run %t/mlp.strata --input x=%S/../../examples/onnx/convnet_input_x.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not strata run %t/mlp.strata --mode eager 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not strata compile %S/../../examples/onnx/mlp.onnx --dim batch=4 --emit artifact 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT

// INSPECT: mlp.strata: strata artifact, format 1
// INSPECT-NEXT: model      mlp.onnx (sha256 {{[0-9a-f]+}})
// INSPECT-NEXT: function   @main
// INSPECT-NEXT: recipe     sha256 ed9ab6af1a48867b82f98887bbe237e791c49e0516b08fa905f7c73b16d00ebc
// INSPECT-NEXT: compiler   strata {{[0-9.]+}} (build {{.+}})
// INSPECT-NEXT: target     host
// INSPECT-NEXT: input      x: f32 [4, 16]
// INSPECT-NEXT: output     probs: f32 [4, 10]
// INSPECT-NEXT: activations {{[0-9]+}} bytes planned, {{[0-9]+}} without reuse
// INSPECT: kernels ({{[0-9]+}}):
// INSPECT: (library gemm) (input#0, const#0, arena+0)
// INSPECT: (generated, grid 1x1x1)
// INSPECT: buffers ({{[0-9]+}}):
// INSPECT-NEXT: arena+0 {{[0-9]+}} bytes, steps 0..
// INSPECT: custom ops none
// INSPECT-NEXT: payload
// INSPECT-NEXT: plan.mlir
// INSPECT-NEXT: kernels.mlir
// INSPECT-NEXT: host/main_0_map.bc

// JSON: "model_sha256": "{{[0-9a-f]+}}",
// JSON: "recipe_sha256": "ed9ab6af1a48867b82f98887bbe237e791c49e0516b08fa905f7c73b16d00ebc",
// JSON: "compiler_version":
// JSON: "target": "host",
// JSON: "kernels": [
// JSON: "selection": "library",
// JSON-NEXT: "library": "gemm",
// JSON: "selection": "generated",
// JSON-NEXT: "grid": [
// JSON: "peak_activation_bytes": {{[1-9][0-9]*}},
// JSON-NEXT: "peak_activation_bytes_unplanned": {{[1-9][0-9]*}},
// JSON-NEXT: "custom_ops": [],

// OUT: probs: f32 [4, 10]
// OUT-NOT: error

// RECIPE: mlp.strata: error: the artifact was refused:
// RECIPE-NEXT: recipe: compiled with recipe sha256 ed9ab6af1a48867b82f98887bbe237e791c49e0516b08fa905f7c73b16d00ebc, but the recipe given has sha256 {{[0-9a-f]+}}
// TRUNCATED: truncated.strata: error: the artifact is truncated: its header announces {{[0-9]+}} bytes, the file has 3000
// EDITED: edited.strata: error: checksum mismatch: the artifact was modified after it was written
// NOT-ARTIFACT: artifact.mlir: error: not a strata artifact
// SHAPE: error: input 'x' ({{.*}}convnet_input_x.npy) is f32 [2, 3, 16, 16], but the artifact was compiled for f32 [4, 16]
// MODE: error: --mode eager: an artifact holds a compiled plan and runs in graph mode only
// NO-OUTPUT: --emit artifact needs an output file (-o model.strata)
