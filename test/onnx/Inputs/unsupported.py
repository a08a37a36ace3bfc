"""Writes unsupported.onnx: a model with two op types strata does not
import (Einsum once, Resize twice), for import-errors.mlir. Run with the
venv of scripts/setup-onnx: .local/onnx-venv/bin/python test/onnx/Inputs/unsupported.py
"""

import os

import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
nodes = [
    helper.make_node("Einsum", ["x", "x"], ["m"], name="mix/Einsum", equation="ij,jk->ik"),
    helper.make_node("Relu", ["m"], ["r"], name="act/Relu"),
    helper.make_node("Resize", ["r", "", "scales"], ["u"], name="up/Resize"),
    helper.make_node("Resize", ["u", "", "scales"], ["y"], name="up2/Resize"),
]
graph = helper.make_graph(
    nodes,
    "unsupported",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16, 16])],
    [helper.make_tensor("scales", TensorProto.FLOAT, [2], [2.0, 2.0])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "unsupported.onnx"))
