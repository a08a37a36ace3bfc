"""Writes control.onnx and its data: If, Loop and Scan with subgraphs that
use the outer graph's values, with onnxruntime's outputs. Run with the venv
of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/control.py

- `If` on a computed condition, its branches of different shapes
  (3x4 and 2x4: the result is ?x4);
- `Loop` with a trip count, a condition computed in the body (it stops
  early), a carried value that grows each iteration (Concat), an outer
  value used in the body, and a stacked per-iteration output;
- `Scan` over two inputs along axis 1, one of them reversed, with a
  state, and an output stacked along axis 1 from the end.
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(5)
x = rng.standard_normal((3, 4)).astype(np.float32)
F = TensorProto.FLOAT


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


# If: sum(x) > 0 ? x * 2 : x[0:2] - 1
then_g = helper.make_graph(
    [helper.make_node("Mul", ["x", "two"], ["t"])], "then", [], [vi("t", F, [3, 4])]
)
else_g = helper.make_graph(
    [
        helper.make_node("Slice", ["x", "s0", "s2"], ["sl"]),
        helper.make_node("Sub", ["sl", "one"], ["e"]),
    ],
    "else",
    [],
    [vi("e", F, [2, 4])],
)

# Loop: acc (1-D, grows by one element per iteration) and a running total
# that stops the loop once it exceeds `limit`; each iteration also emits
# x[i % 3] * w (an outer value).
body = helper.make_graph(
    [
        helper.make_node("ReduceSum", ["acc_in"], ["s"], keepdims=1),
        helper.make_node("Add", ["s", "w1"], ["s1"]),
        helper.make_node("Concat", ["acc_in", "s1"], ["acc_out"], axis=0),
        helper.make_node("ReduceSum", ["acc_out"], ["total"], keepdims=0),
        helper.make_node("Less", ["total", "limit"], ["cond_out"]),
        helper.make_node("Mod", ["i", "three"], ["row"]),
        helper.make_node("Gather", ["x", "row"], ["xr"], axis=0),
        helper.make_node("Mul", ["xr", "w"], ["emit"]),
    ],
    "body",
    [vi("i", TensorProto.INT64, []), vi("cond_in", TensorProto.BOOL, []), vi("acc_in", F, ["n"])],
    [vi("cond_out", TensorProto.BOOL, []), vi("acc_out", F, ["m"]), vi("emit", F, [4])],
)

# Scan: state h (4), inputs a (3x5x4 scanned along 1) and b (3x5x4 along 1,
# reversed): h' = h + a_t * b_t (row sum over axis 0); emits h' * 0.5.
scan_body = helper.make_graph(
    [
        helper.make_node("Mul", ["at", "bt"], ["ab"]),
        helper.make_node("ReduceSum", ["ab", "axis0"], ["r"], keepdims=0),
        helper.make_node("Add", ["h", "r"], ["h2"]),
        helper.make_node("Mul", ["h2", "half"], ["o"]),
    ],
    "scan_body",
    [vi("h", F, [4]), vi("at", F, [3, 4]), vi("bt", F, [3, 4])],
    [vi("h2", F, [4]), vi("o", F, [4])],
)

nodes = [
    helper.make_node("ReduceSum", ["x"], ["sx"], keepdims=0),
    helper.make_node("Greater", ["sx", "zero"], ["c"]),
    helper.make_node("If", ["c"], ["y_if"], then_branch=then_g, else_branch=else_g),
    helper.make_node("Loop", ["trips", "true", "acc0"], ["acc", "emits"], body=body),
    helper.make_node("Scan", ["h0", "a", "b"], ["h", "outs"], body=scan_body, num_scan_inputs=2,
                     scan_input_axes=[1, 1], scan_input_directions=[0, 1],
                     scan_output_axes=[1], scan_output_directions=[1]),
]
a = rng.standard_normal((3, 5, 4)).astype(np.float32)
b = rng.standard_normal((3, 5, 4)).astype(np.float32)
inits = [
    numpy_helper.from_array(np.array(2.0, np.float32), "two"),
    numpy_helper.from_array(np.array(1.0, np.float32), "one"),
    numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
    numpy_helper.from_array(np.array(0.5, np.float32), "half"),
    numpy_helper.from_array(np.array([0], np.int64), "s0"),
    numpy_helper.from_array(np.array([2], np.int64), "s2"),
    numpy_helper.from_array(np.array([0], np.int64), "axis0"),
    numpy_helper.from_array(np.array(10, np.int64), "trips"),
    numpy_helper.from_array(np.array(True), "true"),
    numpy_helper.from_array(np.array(3, np.int64), "three"),
    numpy_helper.from_array(np.array([1.0], np.float32), "acc0"),
    numpy_helper.from_array(np.array([1.0], np.float32), "w1"),
    numpy_helper.from_array(np.array(40.0, np.float32), "limit"),
    numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "w"),
    numpy_helper.from_array(np.zeros(4, np.float32), "h0"),
    numpy_helper.from_array(a, "a"),
    numpy_helper.from_array(b, "b"),
]
graph = helper.make_graph(
    nodes,
    "control",
    [vi("x", F, [3, 4])],
    [vi("y_if", F, ["r", 4]), vi("acc", F, ["k"]), vi("emits", F, ["t", 4]), vi("h", F, [4]), vi("outs", F, [4, 5])],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
onnx.checker.check_model(model)
path = os.path.join(here, "control.onnx")
onnx.save(model, path)
s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
np.save(os.path.join(here, "control-x.npy"), x)
outs = s.run(None, {"x": x})
for name, v in zip(["y_if", "acc", "emits", "h", "outs"], outs):
    np.save(os.path.join(here, f"control-{name}.npy"), v)
    print(name, v.shape)
# The other branch: the negated input.
outs = s.run(None, {"x": -x})
np.save(os.path.join(here, "control-xneg.npy"), -x)
np.save(os.path.join(here, "control-y_if-neg.npy"), outs[0])
print("y_if (neg)", outs[0].shape)
