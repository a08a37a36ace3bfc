"""Writes edge-values.onnx (values where a careless import goes wrong:
Celu with a negative alpha, Asinh of large negative numbers, Mod with
fmod=1 on uint64 values of 2^63 and more, Shrink on int8 with a lambd
beyond the type, DynamicQuantizeLinear of all zeros, DequantizeLinear of
uint16 with an f16 scale, Einsum whose ellipsis broadcasts a contracted
dimension) and huge-blocksize.onnx (a DepthToSpace whose blocksize
overflows). Run with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/edge-values.py
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))


def const(name, array):
    return numpy_helper.from_array(np.array(array), name)


nodes = [
    helper.make_node("Celu", ["c"], ["celu"], name="celu", alpha=-1.0),
    helper.make_node("Asinh", ["s"], ["asinh"], name="asinh"),
    helper.make_node("Mod", ["m", "d"], ["mod"], name="mod", fmod=1),
    helper.make_node("Shrink", ["k"], ["shrink"], name="shrink", lambd=200.0, bias=1.0),
    helper.make_node("DynamicQuantizeLinear", ["z"], ["dq", "dq_scale", "dq_zp"], name="dyn"),
    helper.make_node("DequantizeLinear", ["q16", "s16", "zp16"], ["deq"], name="deq"),
    helper.make_node("Einsum", ["ea", "eb"], ["ein"], name="ein", equation="...i,...i->i"),
]
init = [
    const("c", np.array([1.0, -1.0], dtype=np.float32)),
    const("s", np.array([-1e4, -100.0, 0.5], dtype=np.float32)),
    const("m", np.array([2**64 - 1, 2**63], dtype=np.uint64)),
    const("d", np.array([10, 7], dtype=np.uint64)),
    const("k", np.array([10, -128, 127], dtype=np.int8)),
    const("z", np.zeros([3], dtype=np.float32)),
    const("q16", np.array([65535, 32768], dtype=np.uint16)),
    const("s16", np.array(0.001, dtype=np.float16)),
    const("zp16", np.array(32768, dtype=np.uint16)),
    const("ea", np.array([[1.0, 2.0, 3.0]], dtype=np.float32)),
    const("eb", np.arange(12, dtype=np.float32).reshape(4, 3)),
]
outputs = [
    helper.make_tensor_value_info("celu", TensorProto.FLOAT, [2]),
    helper.make_tensor_value_info("asinh", TensorProto.FLOAT, [3]),
    helper.make_tensor_value_info("mod", TensorProto.UINT64, [2]),
    helper.make_tensor_value_info("shrink", TensorProto.INT8, [3]),
    helper.make_tensor_value_info("dq", TensorProto.UINT8, [3]),
    helper.make_tensor_value_info("dq_scale", TensorProto.FLOAT, []),
    helper.make_tensor_value_info("dq_zp", TensorProto.UINT8, []),
    helper.make_tensor_value_info("deq", TensorProto.FLOAT16, [2]),
    helper.make_tensor_value_info("ein", TensorProto.FLOAT, [3]),
]
graph = helper.make_graph(nodes, "edge_values", [], outputs, init)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "edge-values.onnx"))

huge = helper.make_graph(
    [helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2**32)],
    "huge_blocksize",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 2, 2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
)
onnx.save(
    helper.make_model(huge, opset_imports=[helper.make_opsetid("", 21)]),
    os.path.join(here, "huge-blocksize.onnx"),
)
