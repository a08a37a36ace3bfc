"""Writes einsum.onnx: Einsum equations that exercise each path of the
decomposition (matmul with batch labels, an outer product, a trace, three
operands, two contracted labels, an implicit output, an ellipsis), on
constant inputs, and prints numpy.einsum's results for einsum.mlir. Run
with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/einsum.py
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)


def ints(*shape):
    return rng.integers(-3, 4, size=shape).astype(np.float32)


inputs = {
    "q": ints(1, 2, 3, 4),
    "k": ints(1, 2, 5, 4),
    "u": ints(3),
    "v": ints(2),
    "m": ints(3, 3),
    "a": ints(2, 3),
    "b": ints(3, 4),
    "c": ints(4, 2),
    "t": ints(2, 3, 4),
    "s": ints(3, 4, 2),
    "e": ints(2, 2, 3),
}
cases = [
    ("scores", "bhqd,bhkd->bhqk", ["q", "k"]),
    ("outer", "i,j->ij", ["u", "v"]),
    ("trace", "ii->", ["m"]),
    ("chain", "ij,jk,kl->il", ["a", "b", "c"]),
    ("double", "ijk,jkl->il", ["t", "s"]),
    ("implicit", "ij,jk", ["a", "b"]),
    ("ellipsis", "...ij,jk->...ik", ["e", "b"]),
]
nodes = [
    helper.make_node("Einsum", operands, [name], name=name, equation=eq)
    for name, eq, operands in cases
]
outputs = []
for name, eq, operands in cases:
    r = np.einsum(eq, *[inputs[o] for o in operands])
    outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(r.shape)))
    print(name, list(r.shape), r.reshape(-1).tolist())
graph = helper.make_graph(
    nodes,
    "einsum",
    [],
    outputs,
    [numpy_helper.from_array(v, k) for k, v in inputs.items()],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "einsum.onnx"))
