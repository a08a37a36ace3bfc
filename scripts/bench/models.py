#!/usr/bin/env python3
"""Builds the benchmark models of docs/performance.md into target/bench/ (not
checked in; deterministic, random weights):

    encoder_base.onnx   one encoder block of examples/onnx/encoder.onnx's
                        structure at BERT-base width: d_model 768, 12 heads,
                        d_ff 3072 (input x: [1, 128, 768])
    bert_tiny.onnx      BERT-tiny's encoder: 2 post-LayerNorm layers, d_model
                        128, 2 heads, d_ff 512 (input x: [1, 128, 128], the
                        embeddings' output)

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


def main():
    os.makedirs(OUT, exist_ok=True)
    models = {
        "encoder_base": (encoder_stack("encoder_base", 1, 768, 12, 3072, seed=11), (1, 128, 768)),
        "bert_tiny": (encoder_stack("bert_tiny", 2, 128, 2, 512, seed=12), (1, 128, 128)),
    }
    rng = np.random.default_rng(7)
    for name, (model, shape) in models.items():
        save(model, os.path.join(OUT, f"{name}.onnx"))
        np.save(os.path.join(OUT, f"{name}_x.npy"), rng.standard_normal(shape).astype(np.float32))
        print(f"{OUT}/{name}.onnx  x: {list(shape)}")


if __name__ == "__main__":
    main()
