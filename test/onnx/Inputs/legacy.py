"""Writes legacy-opset6.onnx and its data: ops in the definitions of opset 6,
which strata imports natively (frontends/onnx/src/convert/legacy.rs), with
the expected output computed here by NumPy (onnxruntime takes opset 7 and
later only). Also legacy-opset1.onnx: a Concat without `axis` (opset 1),
older than strata implements. Run with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/legacy.py
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(6)
x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
b = rng.standard_normal(3).astype(np.float32)

nodes = [
    # The bias aligned at axis 1 of x (broadcast before opset 7).
    helper.make_node("Add", ["x", "b"], ["biased"], name="bias/Add", broadcast=1, axis=1),
    # Clip's bounds as attributes (before 11).
    helper.make_node("Clip", ["biased"], ["clipped"], name="clip/Clip", min=-1.0, max=1.5),
    # Pad's amounts and value as attributes (before 11): one column of 0.5
    # after the last axis.
    helper.make_node("Pad", ["clipped"], ["padded"], name="pad/Pad", pads=[0, 0, 0, 0, 0, 0, 0, 1], value=0.5),
    # Slice's bounds as attributes (before 10).
    helper.make_node("Slice", ["padded"], ["sliced"], name="slice/Slice", starts=[1], ends=[6], axes=[3]),
    # Softmax coerces its input to 2-D at axis 1 (before 13): one softmax
    # over all of [3, 4, 5] for each of the 2 rows.
    helper.make_node("Softmax", ["sliced"], ["y"], name="softmax/Softmax", axis=1),
]
graph = helper.make_graph(
    nodes,
    "legacy",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 5])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4, 5])],
    [helper.make_tensor("b", TensorProto.FLOAT, [3], b)],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 6)], ir_version=4)
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "legacy-opset6.onnx"))

biased = x + b.reshape(1, 3, 1, 1)
clipped = np.clip(biased, -1.0, 1.5)
padded = np.pad(clipped, [(0, 0), (0, 0), (0, 0), (0, 1)], constant_values=0.5)
sliced = padded[:, :, :, 1:6]
flat = sliced.reshape(2, -1)
e = np.exp(flat - flat.max(axis=1, keepdims=True))
y = (e / e.sum(axis=1, keepdims=True)).reshape(2, 3, 4, 5).astype(np.float32)
np.save(os.path.join(here, "legacy-x.npy"), x)
np.save(os.path.join(here, "legacy-y.npy"), y)

old = helper.make_graph(
    [helper.make_node("Concat", ["a", "a"], ["c"], name="join/Concat")],
    "legacy1",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 2])],
    [helper.make_tensor_value_info("c", TensorProto.FLOAT, [2, 4])],
)
onnx.save(
    helper.make_model(old, opset_imports=[helper.make_opsetid("", 1)], ir_version=3),
    os.path.join(here, "legacy-opset1.onnx"),
)

# Dropout at opset 7 (inference): its mask has the input's type (a bool
# from opset 10). Its values are ones, as the ONNX reference gives them (in
# bool); onnxruntime gives float zeros.
drop = helper.make_graph(
    [helper.make_node("Dropout", ["x"], ["y", "mask"], name="drop/Dropout", ratio=0.3)],
    "legacy7",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 5])],
    [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4, 5]),
        helper.make_tensor_value_info("mask", TensorProto.FLOAT, [2, 3, 4, 5]),
    ],
)
drop_model = helper.make_model(drop, opset_imports=[helper.make_opsetid("", 7)], ir_version=4)
onnx.checker.check_model(drop_model)
onnx.save(drop_model, os.path.join(here, "legacy-dropout7.onnx"))
np.save(os.path.join(here, "legacy-mask.npy"), np.ones_like(x))
