#!/usr/bin/env python3
"""Gives an ONNX model seeded random weights, and runs it with onnxruntime.

usage: randomize-weights.py MODEL.onnx SEED OUT_DIR

Every float initializer, float `Constant` node and `ConstantOfShape` node
of a constant shape (how the light/ models store their weights) gets new
values of its shape from a generator seeded with SEED: tensors of rank 2 and more
(weights) uniform in +-sqrt(6 / fan_in) (He's initialization, so that the
activations of deep ReLU networks neither vanish nor explode), rank 0 and 1
(biases, normalization parameters and statistics) uniform in [0.5, 1.5]
(positive, so that a variance stays one). Integer tensors (shapes, axes)
are left as they are. Writes OUT_DIR/model.onnx, OUT_DIR/input_<i>.npy
(onnx's runner's made-up input: arange(n) / n in the input's shape) and
OUT_DIR/output_<i>.npy (onnxruntime's outputs, graph optimizations off).
Run it with the venv of scripts/setup-onnx (.local/onnx-venv/bin/python);
test/tests/onnx_models.rs uses it for the light/ models.
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper


def randomized(t, rng):
    a = numpy_helper.to_array(t)
    if a.dtype.kind != "f":
        return t
    if a.ndim >= 2:
        fan_in = int(np.prod(a.shape[1:])) or 1
        bound = np.sqrt(6.0 / fan_in)
        values = rng.uniform(-bound, bound, a.shape)
    else:
        values = rng.uniform(0.5, 1.5, a.shape)
    return numpy_helper.from_array(values.astype(a.dtype), t.name)


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, seed, out = argv[1], int(argv[2]), argv[3]
    model = onnx.load(path)
    rng = np.random.default_rng(seed)
    graph = model.graph
    for i, t in enumerate(graph.initializer):
        graph.initializer[i].CopyFrom(randomized(t, rng))
    # ConstantOfShape of a constant shape: an initializer of random values.
    shapes = {t.name: numpy_helper.to_array(t) for t in graph.initializer if t.data_type == onnx.TensorProto.INT64}
    kept = []
    for node in graph.node:
        value = next((a.t for a in node.attribute if a.name == "value"), None)
        if node.op_type == "ConstantOfShape" and node.input[0] in shapes and value is not None:
            filled = np.zeros(shapes[node.input[0]].astype(np.int64), dtype=numpy_helper.to_array(value).dtype)
            t = numpy_helper.from_array(filled, node.output[0])
            graph.initializer.append(randomized(t, rng))
        else:
            kept.append(node)
    del graph.node[:]
    graph.node.extend(kept)
    for node in graph.node:
        if node.op_type == "Constant":
            for attr in node.attribute:
                if attr.name == "value":
                    attr.t.CopyFrom(randomized(attr.t, rng))
    os.makedirs(out, exist_ok=True)
    onnx.save(model, os.path.join(out, "model.onnx"))
    weights = {t.name for t in graph.initializer}
    feeds = {}
    for i, x in enumerate(v for v in graph.input if v.name not in weights):
        shape = tuple(d.dim_value if d.HasField("dim_value") else 1 for d in x.type.tensor_type.shape.dim)
        n = int(np.prod(shape))
        feeds[x.name] = (np.arange(n).reshape(shape) / n).astype(np.float32)
        np.save(os.path.join(out, f"input_{i}.npy"), feeds[x.name])
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(os.path.join(out, "model.onnx"), options, providers=["CPUExecutionProvider"])
    for i, value in enumerate(session.run(None, feeds)):
        np.save(os.path.join(out, f"output_{i}.npy"), value)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
