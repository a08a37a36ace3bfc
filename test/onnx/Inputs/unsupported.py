"""Writes unsupported.onnx: a model with two op types strata does not
import (ai.onnx.ml's Imputer once, Normalizer twice), for
import-errors.mlir. Run with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/unsupported.py
"""

import os

import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
ml = "ai.onnx.ml"
nodes = [
    helper.make_node("Relu", ["x"], ["r"], name="act/Relu"),
    helper.make_node(
        "Imputer", ["r"], ["b"], name="imp/Imputer", domain=ml,
        imputed_value_floats=[0.0], replaced_value_float=-1.0,
    ),
    helper.make_node("Normalizer", ["b"], ["n"], name="norm/Normalizer", domain=ml, norm="L2"),
    helper.make_node("Normalizer", ["n"], ["y"], name="norm2/Normalizer", domain=ml, norm="MAX"),
]
graph = helper.make_graph(
    nodes,
    "unsupported",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 4])],
)
model = helper.make_model(
    graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(ml, 3)]
)
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "unsupported.onnx"))
