"""Writes exported.onnx: a head split and merge spelled as exporters spell
it, with shapes computed at run time (Shape, Gather, Slice, Unsqueeze,
Concat, Reshape), and declared-outputs.onnx (outputs other nodes use,
declared with symbols of their own). Run with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/exported.py
"""

import os

import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
i64 = TensorProto.INT64
nodes = [
    helper.make_node("Shape", ["x"], ["shape"], name="split/Shape"),
    helper.make_node("Gather", ["shape", "zero"], ["b"], name="split/Gather_b", axis=0),
    helper.make_node("Gather", ["shape", "one"], ["s"], name="split/Gather_s", axis=0),
    helper.make_node("Unsqueeze", ["b", "axes0"], ["b1"], name="split/Unsqueeze_b"),
    helper.make_node("Unsqueeze", ["s", "axes0"], ["s1"], name="split/Unsqueeze_s"),
    helper.make_node("Concat", ["b1", "s1", "heads"], ["target"], name="split/Concat", axis=0),
    helper.make_node("Reshape", ["x", "target"], ["split"], name="split/Reshape"),
    helper.make_node("Transpose", ["split"], ["t"], name="split/Transpose", perm=[0, 2, 1, 3]),
    helper.make_node("Transpose", ["t"], ["u"], name="merge/Transpose", perm=[0, 2, 1, 3]),
    helper.make_node("Shape", ["u"], ["ushape"], name="merge/Shape"),
    helper.make_node("Slice", ["ushape", "start", "end"], ["lead"], name="merge/Slice"),
    helper.make_node("Concat", ["lead", "minus1"], ["back"], name="merge/Concat", axis=0),
    helper.make_node("Reshape", ["u", "back"], ["y"], name="merge/Reshape"),
]
consts = [
    helper.make_tensor("zero", i64, [], [0]),
    helper.make_tensor("one", i64, [], [1]),
    helper.make_tensor("axes0", i64, [1], [0]),
    helper.make_tensor("heads", i64, [2], [2, 2]),
    helper.make_tensor("start", i64, [1], [0]),
    helper.make_tensor("end", i64, [1], [2]),
    helper.make_tensor("minus1", i64, [1], [-1]),
]
graph = helper.make_graph(
    nodes,
    "exported",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 4])],
    # The output declares only its rank: its symbols come from inference.
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None, None])],
    consts,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "exported.onnx"))

# Outputs that other nodes also use, declared with symbols of their own (as
# ONNX's shape inference names each unknown size, `unk__N`): the importer
# keeps the inferred type of a value other ops use (the ops' result types
# were inferred from it) and refines only the last one.
graph = helper.make_graph(
    [
        helper.make_node("NonZero", ["x"], ["where"], name="NonZero"),
        helper.make_node("Transpose", ["where"], ["rows"], name="Transpose", perm=[1, 0]),
    ],
    "declared",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
    [
        helper.make_tensor_value_info("where", i64, [2, "unk__1"]),
        helper.make_tensor_value_info("rows", i64, ["unk__2", 2]),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "declared-outputs.onnx"))
