// codegen.precision: a recipe's f16 or bf16 compute becomes
// graph-convert-precision, and `strata run --check` compares the compiled
// model with eager mode (f32) within the recipe's contracts.tolerance.
// RUN: strata recipe pipeline %S/../../recipes/fp16.toml | FileCheck %s --check-prefix=PIPELINE
// RUN: strata run %S/../../examples/onnx/encoder.onnx --mode graph --recipe %S/../../recipes/fp16.toml --input x=%S/../../examples/onnx/encoder_input_x.npy --check | FileCheck %s --check-prefix=FP16
// RUN: printf '[codegen]\nprecision = "bf16"\n[contracts.tolerance]\nrtol = 5e-2\natol = 2e-2\n' > %t.bf16.toml
// RUN: strata run %S/../../examples/onnx/convnet.onnx --mode graph --recipe %t.bf16.toml --input x=%S/../../examples/onnx/convnet_input_x.npy --check | FileCheck %s --check-prefix=BF16
// The precision is real: at f32's tolerance the f16 plan does not match.
// RUN: printf '[codegen]\nprecision = "f16"\n[contracts.tolerance]\nrtol = 1e-6\natol = 1e-7\n' > %t.tight.toml
// RUN: not strata run %S/../../examples/onnx/encoder.onnx --mode graph --recipe %t.tight.toml --input x=%S/../../examples/onnx/encoder_input_x.npy --check 2>&1 | FileCheck %s --check-prefix=TIGHT
// Without a recipe, --check uses the dtype's tolerance.
// RUN: strata run %S/../../examples/onnx/mlp.onnx --mode graph --input x=%S/../../examples/onnx/mlp_input_x.npy --check | FileCheck %s --check-prefix=F32

// PIPELINE: graph-eliminate-layout,graph-convert-precision{keep-fp32=layer_norm,softmax},graph-fold-constants
// FP16: check: y: graph mode matches eager mode (rtol 0.01, atol 0.001)
// BF16: check: probs: graph mode matches eager mode (rtol 0.05, atol 0.02)
// TIGHT: check: y: graph mode does not match eager mode (rtol 0.000001, atol 0.0000001)
// F32: check: probs: graph mode matches eager mode (rtol 0.0001, atol 0.00001)
