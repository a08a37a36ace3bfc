#!/usr/bin/env python3
"""Builds the benchmark models of docs/performance.md into target/bench/ (not
checked in; deterministic, random weights):

    encoder_base.onnx   one encoder block of examples/onnx/encoder.onnx's
                        structure at BERT-base width: d_model 768, 12 heads,
                        d_ff 3072 (input x: [1, 128, 768])
    bert_tiny.onnx      BERT-tiny's encoder: 2 post-LayerNorm layers, d_model
                        128, 2 heads, d_ff 512 (input x: [1, 128, 128], the
                        embeddings' output)
    resnet18.onnx       ResNet-18's layers (7x7 stem, max pool, 4 stages of 2
                        basic blocks with 64/128/256/512 channels, batch norms,
                        global average pool, 1000-way linear) on a 112x112
                        image (input x: [1, 3, 112, 112])

Run with the venv of scripts/setup-onnx:
    .local/onnx-venv/bin/python scripts/bench/models.py
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, save

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "onnx"))
import make_models as mm  # noqa: E402  (the example models' builder)

OUT = os.path.join(ROOT, "target", "bench")


def encoder_stack(name, layers, d_model, heads, d_ff, seed):
    b = mm.Builder(seed=seed)
    x = "x"
    for i in range(layers):
        out = "y" if i == layers - 1 else f"layer{i}_output"
        x = mm.encoder_layer(b, x, out, prefix=f"layer{i}/", d_model=d_model, heads=heads, d_ff=d_ff)
    return b.model(
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", d_model])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "seq", d_model])],
        f"{layers} post-LayerNorm encoder layers: d_model {d_model}, {heads} heads, d_ff {d_ff}.",
    )


def resnet18(seed):
    b = mm.Builder(seed=seed)
    rng = b.rng

    def conv_bn(name, x, c_in, c_out, k, stride, relu=True):
        w = b.weight(f"{name}.weight", (c_out, c_in, k, k), scale=(2.0 / (c_in * k * k)) ** 0.5)
        y = b.node("Conv", f"{name}/Conv", [x, w], kernel_shape=[k, k], strides=[stride, stride],
                   pads=[k // 2] * 4)
        scale = b.const(f"{name}.bn.weight", 1.0 + 0.1 * rng.standard_normal(c_out))
        bias = b.weight(f"{name}.bn.bias", (c_out,))
        mean = b.weight(f"{name}.bn.running_mean", (c_out,))
        var = b.const(f"{name}.bn.running_var", 1.0 + 0.1 * np.abs(rng.standard_normal(c_out)))
        y = b.node("BatchNormalization", f"{name}/BatchNormalization", [y, scale, bias, mean, var], epsilon=1e-5)
        return b.node("Relu", f"{name}/Relu", [y]) if relu else y

    x = conv_bn("stem", "x", 3, 64, 7, 2)
    x = b.node("MaxPool", "stem/MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    c_in = 64
    for stage, c in enumerate([64, 128, 256, 512]):
        for block in range(2):
            name = f"layer{stage + 1}.{block}"
            stride = 2 if stage > 0 and block == 0 else 1
            h = conv_bn(f"{name}.conv1", x, c_in, c, 3, stride)
            h = conv_bn(f"{name}.conv2", h, c, c, 3, 1, relu=False)
            skip = conv_bn(f"{name}.downsample", x, c_in, c, 1, stride, relu=False) if stride != 1 or c_in != c else x
            x = b.node("Relu", f"{name}/Relu", [b.node("Add", f"{name}/Add", [h, skip])])
            c_in = c
    x = b.node("GlobalAveragePool", "avgpool", [x])
    x = b.node("Flatten", "flatten", [x], axis=1)
    w = b.weight("fc.weight", (1000, 512), scale=0.05)
    bias = b.weight("fc.bias", (1000,))
    b.node("Gemm", "fc/Gemm", [x, w, bias], ["y"], transB=1)
    return b.model(
        "resnet18",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 112, 112])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1000])],
        "ResNet-18's layers on a 112x112 image, random weights.",
    )


def main():
    os.makedirs(OUT, exist_ok=True)
    models = {
        "encoder_base": (encoder_stack("encoder_base", 1, 768, 12, 3072, seed=11), (1, 128, 768)),
        "bert_tiny": (encoder_stack("bert_tiny", 2, 128, 2, 512, seed=12), (1, 128, 128)),
        "resnet18": (resnet18(seed=13), (1, 3, 112, 112)),
    }
    rng = np.random.default_rng(7)
    for name, (model, shape) in models.items():
        save(model, os.path.join(OUT, f"{name}.onnx"))
        np.save(os.path.join(OUT, f"{name}_x.npy"), rng.standard_normal(shape).astype(np.float32))
        print(f"{OUT}/{name}.onnx  x: {list(shape)}")


if __name__ == "__main__":
    main()
