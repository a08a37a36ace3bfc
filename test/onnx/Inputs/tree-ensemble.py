"""Writes tree-ensemble.onnx and its data: ai.onnx.ml TreeEnsemble (5) with
two trees over three features (every comparison mode, set membership, a
NaN feature taking the true way where the node says so), aggregated by SUM,
AVERAGE, MIN and MAX, with onnxruntime's outputs; and SUM with SOFTMAX,
AVERAGE with LOGISTIC, their expected values computed here from
onnxruntime's plain SUM and AVERAGE as the ONNX spec defines the transforms
(SOFTMAX is 1, LOGISTIC 2; onnxruntime 1.32 swaps the two). Run with the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/tree-ensemble.py
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
x = np.array(
    [
        [0.5, 2.0, 3.0],
        [1.5, -1.0, 7.0],
        [np.nan, 0.0, 8.0],
        [2.5, np.nan, 1.0],
        [1.0, 4.0, np.nan],
        [-3.0, 2.5, 9.0],
    ],
    dtype=np.float32,
)

# Tree 0 (root 0), leaves of target 0:
#   n0: x0 <= 1.0 (NaN goes true) ? n1 : n2
#   n1: x1 < 2.0 ? leaf0 : leaf1
#   n2: x2 in {7, 8} ? leaf2 : n3
#   n3: x1 != 4.0 ? leaf3 : leaf4
# Tree 1 (root 4), leaf5 of target 0 (so that some rows hit target 0
# twice and target 1 never), the others of target 1:
#   n4: x2 >= 5.0 ? n5 : leaf5
#   n5: x0 > -1.0 (NaN goes true) ? leaf6 : n6
#   n6: x1 == 2.5 ? leaf7 : leaf8
LEQ, LT, GTE, GT, EQ, NEQ, MEMBER = range(7)
attrs = dict(
    nodes_modes=numpy_helper.from_array(np.array([LEQ, LT, MEMBER, NEQ, GTE, GT, EQ], dtype=np.uint8), "modes"),
    nodes_featureids=[0, 1, 2, 1, 2, 0, 1],
    nodes_splits=numpy_helper.from_array(np.array([1.0, 2.0, 0.0, 4.0, 5.0, -1.0, 2.5], dtype=np.float32), "splits"),
    nodes_truenodeids=[1, 0, 2, 3, 5, 6, 7],
    nodes_trueleafs=[0, 1, 1, 1, 0, 1, 1],
    nodes_falsenodeids=[2, 1, 3, 4, 5, 6, 8],
    nodes_falseleafs=[0, 1, 0, 1, 1, 0, 1],
    nodes_missing_value_tracks_true=[1, 0, 0, 0, 0, 1, 0],
    membership_values=numpy_helper.from_array(np.array([7.0, 8.0, np.nan], dtype=np.float32), "members"),
    leaf_targetids=[0, 0, 0, 0, 0, 0, 1, 1, 1],
    leaf_weights=numpy_helper.from_array(
        np.array([1.5, -2.0, 3.25, 0.5, 4.0, -1.0, 2.0, 0.75, -0.25], dtype=np.float32), "weights"
    ),
    tree_roots=[0, 4],
    n_targets=2,
)
ml = "ai.onnx.ml"
nodes = [
    helper.make_node("TreeEnsemble", ["x"], ["y_sum"], name="sum", domain=ml, aggregate_function=1, **attrs),
    helper.make_node("TreeEnsemble", ["x"], ["y_avg"], name="avg", domain=ml, aggregate_function=0, **attrs),
    helper.make_node("TreeEnsemble", ["x"], ["y_min"], name="min", domain=ml, aggregate_function=2, **attrs),
    helper.make_node("TreeEnsemble", ["x"], ["y_max"], name="max", domain=ml, aggregate_function=3, **attrs),
    helper.make_node(
        "TreeEnsemble", ["x"], ["y_softmax"], name="softmax", domain=ml, aggregate_function=1, post_transform=1, **attrs
    ),
    helper.make_node(
        "TreeEnsemble", ["x"], ["y_logistic"], name="logistic", domain=ml, aggregate_function=0, post_transform=2, **attrs
    ),
]
names = ["sum", "avg", "min", "max", "softmax", "logistic"]
outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [6, 2]) for n in ["y_" + n for n in names]]
graph = helper.make_graph(nodes, "tree_ensemble", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6, 3])], outputs)
model = helper.make_model(
    graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(ml, 5)], ir_version=10
)
onnx.checker.check_model(model)
path = os.path.join(here, "tree-ensemble.onnx")
onnx.save(model, path)
s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
results = s.run(None, {"x": x})
y_sum, y_avg = results[0], results[1]
e = np.exp(y_sum - y_sum.max(axis=1, keepdims=True))
results[4] = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
results[5] = (1 / (1 + np.exp(-y_avg))).astype(np.float32)
np.save(os.path.join(here, "tree-ensemble-x.npy"), x)
for name, y in zip(names, results):
    np.save(os.path.join(here, f"tree-ensemble-{name}.npy"), y)
    print(name, y.tolist())

# A node list whose tree loops (node 1's true branch goes back to node 0):
# an import error, not a hang.
bad = dict(attrs, nodes_trueleafs=[0, 0, 1, 1, 0, 1, 1], nodes_truenodeids=[1, 0, 2, 3, 5, 6, 7])
node = helper.make_node("TreeEnsemble", ["x"], ["y"], name="loop", domain=ml, **bad)
graph = helper.make_graph([node], "cycle", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [6, 2])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid(ml, 5)], ir_version=10)
onnx.save(model, os.path.join(here, "tree-ensemble-cycle.onnx"))
