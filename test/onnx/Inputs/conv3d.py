"""Writes conv3d.onnx and its data: a 3-D Conv (groups, strides, dilations,
asymmetric pads, bias) and one with auto_pad=SAME_UPPER, with onnxruntime's
outputs. Run with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/conv3d.py
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(3)
x = rng.standard_normal((2, 4, 7, 6, 5)).astype(np.float32)
w = rng.standard_normal((6, 2, 3, 2, 3)).astype(np.float32)
b = rng.standard_normal(6).astype(np.float32)
w2 = rng.standard_normal((3, 4, 2, 3, 3)).astype(np.float32)

nodes = [
    helper.make_node(
        "Conv", ["x", "w", "b"], ["y"], name="conv/Conv", group=2,
        strides=[2, 1, 2], dilations=[2, 1, 1], pads=[1, 0, 1, 2, 1, 0],
    ),
    helper.make_node("Conv", ["x", "w2"], ["z"], name="same/Conv", auto_pad="SAME_UPPER", strides=[2, 2, 1]),
]
graph = helper.make_graph(
    nodes,
    "conv3d",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 7, 6, 5])],
    [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 6, 3, 6, 2]),
        helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3, 4, 3, 5]),
    ],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"), numpy_helper.from_array(w2, "w2")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(model)
path = os.path.join(here, "conv3d.onnx")
onnx.save(model, path)
s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
y, z = s.run(None, {"x": x})
np.save(os.path.join(here, "conv3d-x.npy"), x)
np.save(os.path.join(here, "conv3d-y.npy"), y)
np.save(os.path.join(here, "conv3d-z.npy"), z)
print(y.shape, z.shape)
