"""Writes conv-transpose3d.onnx and its data: 3-D ConvTranspose with groups,
strides, dilations, asymmetric pads, output_padding and a bias; one with
auto_pad=SAME_UPPER; with onnxruntime's outputs. (Not an output_shape:
onnxruntime spreads the padding it implies over both ends, as the ONNX
text says, where the ONNX reference and strata keep the pads and cut or
extend at the end.)
Run with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/conv-transpose3d.py
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(11)
x = rng.standard_normal((2, 4, 3, 4, 3)).astype(np.float32)
w = rng.standard_normal((4, 3, 3, 2, 2)).astype(np.float32)  # C=4, M/g=3, g=2: M=6
b = rng.standard_normal(6).astype(np.float32)
w2 = rng.standard_normal((4, 2, 2, 3, 2)).astype(np.float32)

nodes = [
    helper.make_node(
        "ConvTranspose", ["x", "w", "b"], ["y"], name="up/ConvTranspose", group=2,
        strides=[2, 1, 2], dilations=[2, 1, 1], pads=[1, 0, 1, 0, 1, 0], output_padding=[1, 0, 1],
    ),
    helper.make_node("ConvTranspose", ["x", "w2"], ["z"], name="same/ConvTranspose",
                     auto_pad="SAME_UPPER", strides=[2, 2, 1]),
]
graph = helper.make_graph(
    nodes,
    "conv_transpose3d",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 3, 4, 3])],
    [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
        helper.make_tensor_value_info("z", TensorProto.FLOAT, None),
    ],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"), numpy_helper.from_array(w2, "w2")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
path = os.path.join(here, "conv-transpose3d.onnx")
onnx.save(model, path)
s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
outs = s.run(None, {"x": x})
np.save(os.path.join(here, "conv-transpose3d-x.npy"), x)
for name, v in zip("yz", outs):
    np.save(os.path.join(here, f"conv-transpose3d-{name}.npy"), v)
    print(name, v.shape)
