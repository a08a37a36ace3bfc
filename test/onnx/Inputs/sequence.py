"""Writes sequence.onnx and its data: sequence and optional values, with
onnxruntime's outputs. Run with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/sequence.py

- `SplitToSequence` of x (6x4) into pieces of 2 and 4 rows, a row of y
  inserted before the last piece, the first piece erased; its length,
  its last element, and its elements concatenated along axis 0;
- a `Loop` that carries a sequence (from `SequenceEmpty`), inserting one
  row of x per iteration, stacked along a new axis 1 after it;
- an `If` whose branches yield sequences of different element shapes;
- an `Optional` of x that is checked and unwrapped;
- a `SequenceMap` over the split pieces and y whose body names its
  inputs `y` and `z` (its `y` an element, shadowing the outer y), joined;
- the split sequence itself as an output.
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(11)
x = rng.standard_normal((6, 4)).astype(np.float32)
y = rng.standard_normal((1, 4)).astype(np.float32)
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def const(name, values, elem=I64):
    arr = np.array(values)
    return helper.make_node(
        "Constant",
        [],
        [name],
        value=helper.make_tensor(name, elem, arr.shape, arr.flatten().tolist()),
    )


seq_f = helper.make_tensor_sequence_value_info

loop_body = helper.make_graph(
    [
        helper.make_node("Identity", ["c_in"], ["c_out"]),
        helper.make_node("Gather", ["x", "i"], ["row"], axis=0),
        helper.make_node("SequenceInsert", ["s_in", "row"], ["s_out"]),
    ],
    "loop_body",
    [
        helper.make_tensor_value_info("i", I64, []),
        helper.make_tensor_value_info("c_in", B, []),
        seq_f("s_in", F, [4]),
    ],
    [helper.make_tensor_value_info("c_out", B, []), seq_f("s_out", F, [4])],
)
then_g = helper.make_graph(
    [helper.make_node("SequenceConstruct", ["x", "y"], ["st"])],
    "then",
    [],
    [seq_f("st", F, [None, 4])],
)
else_g = helper.make_graph(
    [helper.make_node("SequenceConstruct", ["y"], ["se"])],
    "else",
    [],
    [seq_f("se", F, [None, 4])],
)
map_body = helper.make_graph(
    [helper.make_node("Add", ["y", "z"], ["w"])],
    "map_body",
    [
        helper.make_tensor_value_info("y", F, [None, 4]),
        helper.make_tensor_value_info("z", F, [1, 4]),
    ],
    [helper.make_tensor_value_info("w", F, [None, 4])],
)
nodes = [
    const("sizes", [2, 4]),
    const("minus1", -1),
    const("zero", 0),
    const("three", 3),
    const("true", True, B),
    helper.make_node("SplitToSequence", ["x", "sizes"], ["parts"], axis=0),
    helper.make_node("SequenceInsert", ["parts", "y", "minus1"], ["inserted"]),
    helper.make_node("SequenceErase", ["inserted", "zero"], ["erased"]),
    helper.make_node("SequenceLength", ["erased"], ["length"]),
    helper.make_node("SequenceAt", ["erased", "minus1"], ["last"]),
    helper.make_node("ConcatFromSequence", ["erased"], ["joined"], axis=0),
    helper.make_node("SequenceEmpty", [], ["empty"], dtype=F),
    helper.make_node("Loop", ["three", "true", "empty"], ["rows"], body=loop_body),
    helper.make_node("ConcatFromSequence", ["rows"], ["stacked"], axis=1, new_axis=1),
    helper.make_node("ReduceSum", ["x"], ["total"], keepdims=0),
    helper.make_node("Greater", ["total", "fzero"], ["positive"]),
    helper.make_node("If", ["positive"], ["chosen"], then_branch=then_g, else_branch=else_g),
    helper.make_node("SequenceLength", ["chosen"], ["chosen_length"]),
    helper.make_node("Optional", ["x"], ["some"]),
    helper.make_node("OptionalHasElement", ["some"], ["has"]),
    helper.make_node("OptionalGetElement", ["some"], ["unwrapped"]),
    helper.make_node("SequenceMap", ["parts", "y"], ["mapped"], body=map_body),
    helper.make_node("ConcatFromSequence", ["mapped"], ["mapped_joined"], axis=0),
]
fzero = helper.make_tensor("fzero", F, [], [0.0])
outputs = [
    helper.make_tensor_value_info("length", I64, []),
    helper.make_tensor_value_info("last", F, [None, 4]),
    helper.make_tensor_value_info("joined", F, [None, 4]),
    helper.make_tensor_value_info("stacked", F, [4, None]),
    helper.make_tensor_value_info("chosen_length", I64, []),
    helper.make_tensor_value_info("has", B, []),
    helper.make_tensor_value_info("unwrapped", F, [6, 4]),
    helper.make_tensor_value_info("mapped_joined", F, [6, 4]),
    seq_f("parts", F, [None, 4]),
]
graph = helper.make_graph(
    nodes,
    "sequences",
    [
        helper.make_tensor_value_info("x", F, [6, 4]),
        helper.make_tensor_value_info("y", F, [1, 4]),
    ],
    outputs,
    initializer=[fzero],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model, full_check=True)
onnx.save(model, os.path.join(here, "sequence.onnx"))

sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
results = sess.run(None, {"x": x, "y": y})
np.save(os.path.join(here, "sequence-x.npy"), x)
np.save(os.path.join(here, "sequence-y.npy"), y)
for out, value in zip(outputs[:-1], results[:-1]):
    np.save(os.path.join(here, f"sequence-{out.name}.npy"), np.asarray(value))
for k, part in enumerate(results[-1]):
    np.save(os.path.join(here, f"sequence-parts.{k}.npy"), part)
