"""Writes decomposed.onnx: ONNX ops that strata imports as compositions of
graph ops (PRelu, Trilu with a dynamic shape, Hardmax). Run with the venv of
scripts/setup-onnx: .local/onnx-venv/bin/python test/onnx/Inputs/decomposed.py
"""

import os

import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
nodes = [
    helper.make_node("PRelu", ["x", "slope"], ["p"], name="act/PRelu"),
    helper.make_node("Trilu", ["p"], ["t"], name="mask/Trilu", upper=0),
    helper.make_node("Hardmax", ["t"], ["h"], name="pick/Hardmax"),
]
graph = helper.make_graph(
    nodes,
    "decomposed",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])],
    [
        helper.make_tensor_value_info("t", TensorProto.FLOAT, ["n", 3]),
        helper.make_tensor_value_info("h", TensorProto.FLOAT, ["n", 3]),
    ],
    [helper.make_tensor("slope", TensorProto.FLOAT, [3], [0.5, 0.25, 0.125])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "decomposed.onnx"))
