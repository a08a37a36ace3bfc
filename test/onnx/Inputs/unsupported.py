"""Writes unsupported.onnx: a model with two op types strata does not
import (RandomUniformLike once, Bernoulli twice), for import-errors.mlir. Run with the
venv of scripts/setup-onnx: .local/onnx-venv/bin/python test/onnx/Inputs/unsupported.py
"""

import os

import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
nodes = [
    helper.make_node("Unsqueeze", ["x", "axes"], ["x4"], name="nchw/Unsqueeze"),
    helper.make_node("RandomUniformLike", ["x4"], ["m"], name="rand/RandomUniformLike"),
    helper.make_node("Relu", ["m"], ["r4"], name="act/Relu"),
    helper.make_node("Bernoulli", ["r4"], ["u"], name="coin/Bernoulli"),
    helper.make_node("Bernoulli", ["u"], ["y"], name="coin2/Bernoulli"),
]
graph = helper.make_graph(
    nodes,
    "unsupported",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 4])],
    [helper.make_tensor("axes", TensorProto.INT64, [2], [0, 1])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "unsupported.onnx"))
