#!/usr/bin/env python3
"""Builds the small ONNX example models in examples/onnx/ and their reference data.

Run with the venv made by scripts/setup-onnx:

    scripts/setup-onnx && .local/onnx-venv/bin/python examples/onnx/make_models.py

Writes, next to this script:
    mlp.onnx       encoder.onnx       convnet.onnx
    mlp_input_x.npy      mlp_expected_probs.npy
    encoder_input_x.npy  encoder_expected_y.npy
    convnet_input_x.npy  convnet_expected_probs.npy

Everything is deterministic (fixed numpy seeds). The expected outputs come from
onnxruntime (CPUExecutionProvider, graph optimizations disabled) and are also
checked against a plain numpy implementation of the same computation.
"""

import math
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 8  # the IR version that goes with opset 17 (onnx.helper.VERSION_TABLE)
OUT_DIR = os.path.dirname(os.path.abspath(__file__))
PRODUCER = "strata examples/onnx/make_models.py"


class Builder:
    """Collects nodes and initializers; every node gets an explicit name."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        self.inits = []

    def weight(self, name, shape, scale=0.1):
        arr = (self.rng.standard_normal(shape) * scale).astype(np.float32)
        self.inits.append(numpy_helper.from_array(arr, name))
        return name

    def const(self, name, value, dtype=np.float32):
        arr = np.asarray(value, dtype=dtype)
        self.inits.append(numpy_helper.from_array(arr, name))
        return name

    def node(self, op, name, inputs, outputs=None, **attrs):
        if outputs is None:
            outputs = [f"{name}_output_0"]  # PyTorch-exporter style value names
        self.nodes.append(helper.make_node(op, inputs, outputs, name=name, **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def init(self, name):
        for t in self.inits:
            if t.name == name:
                return numpy_helper.to_array(t)
        raise KeyError(name)

    def model(self, graph_name, inputs, outputs, doc):
        graph = helper.make_graph(self.nodes, graph_name, inputs, outputs, initializer=self.inits)
        model = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", OPSET)],
            ir_version=IR_VERSION,
            producer_name=PRODUCER,
            doc_string=doc,
        )
        onnx.checker.check_model(model, full_check=True)
        return model


# ---------------------------------------------------------------------------
# mlp: x[batch,16] -> MatMul+Add+Relu (16->32) -> Gemm (32->10, transB) -> Softmax

def build_mlp():
    b = Builder(seed=1)
    w1 = b.weight("fc1.weight", (16, 32))
    b1 = b.weight("fc1.bias", (32,))
    w2 = b.weight("fc2.weight", (10, 32))  # [out, in], used with transB=1
    b2 = b.weight("fc2.bias", (10,))

    h = b.node("MatMul", "fc1/MatMul", ["x", w1])
    h = b.node("Add", "fc1/Add", [h, b1])
    h = b.node("Relu", "fc1/Relu", [h])
    h = b.node("Gemm", "fc2/Gemm", [h, w2, b2], alpha=1.0, beta=1.0, transB=1)
    b.node("Softmax", "softmax/Softmax", [h], ["probs"], axis=-1)

    model = b.model(
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 16])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 10])],
        "Two-layer MLP classifier: MatMul+Add+Relu (16->32), Gemm transB (32->10), Softmax.",
    )

    def reference(x):
        h = np.maximum(x @ b.init(w1) + b.init(b1), 0.0)
        h = h @ b.init(w2).T + b.init(b2)
        return softmax(h)

    return model, reference


# ---------------------------------------------------------------------------
# encoder: one post-LayerNorm transformer encoder block (BERT / PyTorch
# nn.TransformerEncoderLayer default, norm_first=False):
#   a = LayerNorm(x + SelfAttention(x))
#   y = LayerNorm(a + FFN(a)),  FFN = Linear(32->64), GELU(erf), Linear(64->32)

D_MODEL, HEADS, HEAD_DIM, D_FF = 32, 2, 16, 64


def encoder_layer(b, x, out, prefix="", d_model=D_MODEL, heads=HEADS, d_ff=D_FF):
    """Appends one post-LayerNorm encoder layer reading `x` and writing `out`;
    node and weight names start with `prefix` (empty for the example model)."""
    head_dim = d_model // heads
    shape_heads = b.const(f"{prefix}attn/shape_heads", [0, 0, heads, head_dim], np.int64)
    shape_merge = b.const(f"{prefix}attn/shape_merge", [0, 0, d_model], np.int64)
    scale = b.const(f"{prefix}attn/scale", math.sqrt(head_dim))
    sqrt2 = b.const(f"{prefix}ffn/gelu/sqrt2", math.sqrt(2.0))
    one = b.const(f"{prefix}ffn/gelu/one", 1.0)
    half = b.const(f"{prefix}ffn/gelu/half", 0.5)

    def linear(name, t, d_in, d_out):
        w = b.weight(f"{prefix}{name}.weight", (d_in, d_out))
        bias = b.weight(f"{prefix}{name}.bias", (d_out,))
        h = b.node("MatMul", f"{prefix}{name}/MatMul", [t, w])
        return b.node("Add", f"{prefix}{name}/Add", [h, bias])

    def layer_norm(name, t, result=None):
        gamma = b.const(f"{prefix}{name}.weight", 1.0 + 0.1 * b.rng.standard_normal(d_model))
        beta = b.weight(f"{prefix}{name}.bias", (d_model,))
        node = f"{prefix}{name}/LayerNormalization"
        return b.node(
            "LayerNormalization", node, [t, gamma, beta], [result or f"{node}_output_0"], axis=-1, epsilon=1e-5,
        )

    # Multi-head self-attention.
    p = {}
    for n in ("q", "k", "v"):
        proj = linear(f"attn/{n}_proj", x, d_model, d_model)
        p[n] = b.node("Reshape", f"{prefix}attn/{n}_proj/Reshape", [proj, shape_heads])  # [b,s,h,dh]
    q = b.node("Transpose", f"{prefix}attn/q_proj/Transpose", [p["q"]], perm=[0, 2, 1, 3])  # [b,h,s,dh]
    kt = b.node("Transpose", f"{prefix}attn/k_proj/Transpose", [p["k"]], perm=[0, 2, 3, 1])  # [b,h,dh,s]
    v = b.node("Transpose", f"{prefix}attn/v_proj/Transpose", [p["v"]], perm=[0, 2, 1, 3])  # [b,h,s,dh]
    s = b.node("MatMul", f"{prefix}attn/scores/MatMul", [q, kt])  # [b,h,s,s]
    s = b.node("Div", f"{prefix}attn/scores/Div", [s, scale])
    a = b.node("Softmax", f"{prefix}attn/Softmax", [s], axis=-1)
    c = b.node("MatMul", f"{prefix}attn/context/MatMul", [a, v])  # [b,h,s,dh]
    c = b.node("Transpose", f"{prefix}attn/context/Transpose", [c], perm=[0, 2, 1, 3])  # [b,s,h,dh]
    c = b.node("Reshape", f"{prefix}attn/context/Reshape", [c, shape_merge])  # [b,s,d]
    attn = linear("attn/out_proj", c, d_model, d_model)
    r1 = b.node("Add", f"{prefix}attn/residual/Add", [x, attn])
    a = layer_norm("norm1", r1)

    # Feed-forward with erf GELU, spelled the way PyTorch exports it.
    h = linear("ffn/fc1", a, d_model, d_ff)
    g = b.node("Div", f"{prefix}ffn/gelu/Div", [h, sqrt2])
    g = b.node("Erf", f"{prefix}ffn/gelu/Erf", [g])
    g = b.node("Add", f"{prefix}ffn/gelu/Add", [g, one])
    g = b.node("Mul", f"{prefix}ffn/gelu/Mul", [h, g])
    g = b.node("Mul", f"{prefix}ffn/gelu/Mul_1", [g, half])
    f = linear("ffn/fc2", g, d_ff, d_model)
    r2 = b.node("Add", f"{prefix}ffn/residual/Add", [a, f])
    return layer_norm("norm2", r2, result=out)


def build_encoder():
    b = Builder(seed=2)
    encoder_layer(b, "x", "y")

    model = b.model(
        "encoder",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", D_MODEL])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "seq", D_MODEL])],
        "One post-LayerNorm transformer encoder block: d_model 32, 2 heads, d_ff 64, erf GELU.",
    )

    def reference(x):
        w = b.init

        def lin(prefix, t):
            return t @ w(f"{prefix}.weight") + w(f"{prefix}.bias")

        def ln(prefix, t):
            mu = t.mean(-1, keepdims=True)
            var = ((t - mu) ** 2).mean(-1, keepdims=True)
            return (t - mu) / np.sqrt(var + 1e-5) * w(f"{prefix}.weight") + w(f"{prefix}.bias")

        bs, sl, _ = x.shape
        split = lambda t: t.reshape(bs, sl, HEADS, HEAD_DIM).transpose(0, 2, 1, 3)
        q, k, v = (split(lin(f"attn/{n}_proj", x)) for n in ("q", "k", "v"))
        p = softmax(q @ k.transpose(0, 1, 3, 2) / math.sqrt(HEAD_DIM))
        c = (p @ v).transpose(0, 2, 1, 3).reshape(bs, sl, D_MODEL)
        a = ln("norm1", x + lin("attn/out_proj", c))
        h = lin("ffn/fc1", a)
        g = h * 0.5 * (1.0 + np.vectorize(math.erf)(h / math.sqrt(2.0)))
        return ln("norm2", a + lin("ffn/fc2", g))

    return model, reference


# ---------------------------------------------------------------------------
# convnet: a small CNN (conv 3x3 + relu, 2x2 max pool, conv 3x3 stride 2 +
# batch norm + relu, global average pool, linear, softmax) on 16x16 images.

def build_convnet():
    b = Builder(seed=3)
    w1 = b.weight("conv1.weight", (8, 3, 3, 3), scale=0.3)
    b1 = b.weight("conv1.bias", (8,))
    w2 = b.weight("conv2.weight", (16, 8, 3, 3), scale=0.2)
    gamma = b.const("bn2.weight", 1.0 + 0.1 * b.rng.standard_normal(16))
    beta = b.weight("bn2.bias", (16,))
    mean = b.weight("bn2.running_mean", (16,))
    var = b.const("bn2.running_var", 1.0 + 0.1 * np.abs(b.rng.standard_normal(16)))
    wf = b.weight("fc.weight", (10, 16), scale=0.3)
    bf = b.weight("fc.bias", (10,))
    h = b.node("Conv", "conv1/Conv", ["x", w1, b1], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    h = b.node("Relu", "conv1/Relu", [h])
    h = b.node("MaxPool", "pool1/MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    h = b.node("Conv", "conv2/Conv", [h, w2], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    h = b.node("BatchNormalization", "bn2/BatchNormalization", [h, gamma, beta, mean, var], epsilon=1e-5)
    h = b.node("Relu", "bn2/Relu", [h])
    h = b.node("GlobalAveragePool", "pool2/GlobalAveragePool", [h])
    h = b.node("Flatten", "flatten/Flatten", [h], axis=1)
    h = b.node("Gemm", "fc/Gemm", [h, wf, bf], transB=1)
    b.node("Softmax", "softmax/Softmax", [h], ["probs"], axis=-1)
    model = b.model(
        "convnet",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 16, 16])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 10])],
        "A small CNN: conv, max pool, strided conv with batch norm, global average pool, linear, softmax.",
    )

    def conv(x, w, stride, pad):
        n, c, hh, ww = x.shape
        o, _, kh, kw = w.shape
        xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        oh, ow = (hh + 2 * pad - kh) // stride + 1, (ww + 2 * pad - kw) // stride + 1
        out = np.zeros((n, o, oh, ow))
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]  # n c oh ow
                out += np.einsum("ncyx,oc->noyx", patch, w[:, :, i, j])
        return out

    def reference(x):
        w = b.init
        h = np.maximum(conv(x, w("conv1.weight"), 1, 1) + w("conv1.bias")[None, :, None, None], 0.0)
        n, c, hh, ww = h.shape
        h = h.reshape(n, c, hh // 2, 2, ww // 2, 2).max(axis=(3, 5))
        h = conv(h, w("conv2.weight"), 2, 1)
        g, bb, m, v = (w(f"bn2.{k}")[None, :, None, None] for k in ("weight", "bias", "running_mean", "running_var"))
        h = np.maximum((h - m) / np.sqrt(v + 1e-5) * g + bb, 0.0)
        h = h.mean(axis=(2, 3))
        return softmax(h @ w("fc.weight").T + w("fc.bias"))

    return model, reference


def softmax(t):
    e = np.exp(t - t.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def emit(name, model, reference, input_shape, seed):
    path = os.path.join(OUT_DIR, f"{name}.onnx")
    onnx.save(model, path)

    x = np.random.default_rng(seed).standard_normal(input_shape).astype(np.float32)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    (out_name,) = [o.name for o in sess.get_outputs()]
    (y,) = sess.run(None, {"x": x})

    ref = reference(x.astype(np.float64))
    err = float(np.max(np.abs(y - ref)))
    if err > 1e-4:
        sys.exit(f"{name}: onnxruntime and numpy reference differ by {err}")

    np.save(os.path.join(OUT_DIR, f"{name}_input_x.npy"), x)
    np.save(os.path.join(OUT_DIR, f"{name}_expected_{out_name}.npy"), y)
    print(f"{name}: {len(model.graph.node)} nodes, x{list(x.shape)} -> {out_name}{list(y.shape)}, "
          f"max |ort - numpy| = {err:.2e}")


def main():
    emit("mlp", *build_mlp(), input_shape=(4, 16), seed=101)
    emit("encoder", *build_encoder(), input_shape=(2, 8, D_MODEL), seed=102)
    emit("convnet", *build_convnet(), input_shape=(2, 3, 16, 16), seed=103)


if __name__ == "__main__":
    main()
