"""Writes not-lowered.onnx: a model that imports and runs eagerly but has an
op graph mode does not lower yet (CumSum). Run with the venv of
scripts/setup-onnx: .local/onnx-venv/bin/python test/onnx/Inputs/not-lowered.py
"""

import os

import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
nodes = [
    helper.make_node("Relu", ["x"], ["r"], name="act/Relu"),
    helper.make_node("CumSum", ["r", "axis"], ["y"], name="running/CumSum"),
]
graph = helper.make_graph(
    nodes,
    "not_lowered",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3])],
    [helper.make_tensor("axis", TensorProto.INT64, [], [1])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "not-lowered.onnx"))
