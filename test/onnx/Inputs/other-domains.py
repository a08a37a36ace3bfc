"""Writes the models of import-other-domains.mlir: ops of ai.onnx.preview,
ai.onnx.preview.training and ai.onnx.ml in forms the importer refuses, a
default-domain node in a model that imports only another domain, and a
FlexAttention whose score_mod reads a value of the outer graph. Run with
the venv of scripts/setup-onnx:
.local/onnx-venv/bin/python test/onnx/Inputs/other-domains.py
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT


def save(name, nodes, inputs, outputs, opsets, initializers=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets], ir_version=10)
    onnx.save(model, os.path.join(here, f"{name}.onnx"))


# FlexAttention on 3-D Q: refused.
save(
    "flex-3d",
    [helper.make_node("FlexAttention", ["q", "k", "v"], ["y"], name="attn", domain="ai.onnx.preview")],
    [helper.make_tensor_value_info(n, F, s) for n, s in [("q", [1, 4, 8]), ("k", [1, 1, 4, 8]), ("v", [1, 1, 4, 8])]],
    [helper.make_tensor_value_info("y", F, None)],
    [("", 23), ("ai.onnx.preview", 1)],
)

# FlexAttention whose score_mod adds a bias the outer graph computes.
score_mod = helper.make_graph(
    [helper.make_node("Add", ["scores", "bias"], ["out"])],
    "score_mod",
    [helper.make_tensor_value_info("scores", F, None)],
    [helper.make_tensor_value_info("out", F, None)],
)
save(
    "flex-outer",
    [
        helper.make_node("Neg", ["b"], ["bias"], name="bias"),
        helper.make_node("FlexAttention", ["q", "k", "v"], ["y"], name="attn", domain="ai.onnx.preview", score_mod=score_mod),
    ],
    [helper.make_tensor_value_info(n, F, s) for n, s in [("q", [1, 2, 3, 4]), ("k", [1, 1, 5, 4]), ("v", [1, 1, 5, 6]), ("b", [3, 5])]],
    [helper.make_tensor_value_info("y", F, None)],
    [("", 23), ("ai.onnx.preview", 1)],
)

# Momentum with an unknown mode.
save(
    "momentum-mode",
    [
        helper.make_node(
            "Momentum", ["r", "t", "x", "g", "v"], ["x2", "v2"], name="opt", domain="ai.onnx.preview.training",
            alpha=0.9, beta=0.1, norm_coefficient=0.0, mode="heavy",
        )
    ],
    [helper.make_tensor_value_info("r", F, []), helper.make_tensor_value_info("t", TensorProto.INT64, [])]
    + [helper.make_tensor_value_info(n, F, [3]) for n in ["x", "g", "v"]],
    [helper.make_tensor_value_info(n, F, [3]) for n in ["x2", "v2"]],
    [("ai.onnx.preview.training", 1)],
)

# A default-domain node in a model that imports only ai.onnx.ml.
save(
    "no-default-opset",
    [helper.make_node("Relu", ["x"], ["y"], name="act")],
    [helper.make_tensor_value_info("x", F, [3])],
    [helper.make_tensor_value_info("y", F, [3])],
    [("ai.onnx.ml", 5)],
)

# TfIdfVectorizer over a string pool.
save(
    "tfidf-strings",
    [
        helper.make_node(
            "TfIdfVectorizer", ["x"], ["y"], name="tfidf", mode="TF", min_gram_length=1, max_gram_length=1,
            max_skip_count=0, ngram_counts=[0], ngram_indexes=[0, 1], pool_strings=["a", "b"],
        )
    ],
    [helper.make_tensor_value_info("x", TensorProto.INT64, [4])],
    [helper.make_tensor_value_info("y", F, [2])],
    [("", 21)],
)

# flex-outer's data, and its output computed here as ONNX's reference
# computes FlexAttention (its evaluator does not let a score_mod read an
# outer value, and onnxruntime has no ai.onnx.preview ops).
rng = np.random.default_rng(5)
feeds = {}
for name, shape in [("q", (1, 2, 3, 4)), ("k", (1, 1, 5, 4)), ("v", (1, 1, 5, 6)), ("b", (3, 5))]:
    feeds[name] = rng.standard_normal(shape).astype(np.float32)
    np.save(os.path.join(here, f"flex-outer-{name}.npy"), feeds[name])
q, k, v, b = (feeds[n] for n in "qkvb")
root = np.sqrt(np.float32(1 / np.sqrt(4)))
k2, v2 = np.repeat(k, 2, axis=1), np.repeat(v, 2, axis=1)
scores = (q * root) @ np.swapaxes(k2 * root, -1, -2) - b
e = np.exp(scores - scores.max(axis=-1, keepdims=True))
y = ((e / e.sum(axis=-1, keepdims=True)) @ v2).astype(np.float32)
np.save(os.path.join(here, "flex-outer-y.npy"), y)

# Binarizer on integers with a fractional threshold: compared exactly
# (x > -0.5 holds for 0, not for -1).
save(
    "binarizer-int",
    [helper.make_node("Binarizer", ["x"], ["y"], name="bin", domain="ai.onnx.ml", threshold=-0.5)],
    [helper.make_tensor_value_info("x", TensorProto.INT64, [3])],
    [helper.make_tensor_value_info("y", TensorProto.INT64, [3])],
    [("ai.onnx.ml", 1)],
)
np.save(os.path.join(here, "binarizer-int-x.npy"), np.array([0, -1, 5], dtype=np.int64))
np.save(os.path.join(here, "binarizer-int-y.npy"), np.array([1, 0, 1], dtype=np.int64))

# TfIdfVectorizer with a huge max_skip_count: only the distances that fit
# in the row are built (the import must not loop over the rest).
save(
    "tfidf-skips",
    [
        helper.make_node(
            "TfIdfVectorizer", ["x"], ["y"], name="tfidf", mode="TF", min_gram_length=2, max_gram_length=2,
            max_skip_count=10**12, ngram_counts=[0, 0], ngram_indexes=[0], pool_int64s=[1, 2],
        )
    ],
    [helper.make_tensor_value_info("x", TensorProto.INT64, [4])],
    [helper.make_tensor_value_info("y", F, [1])],
    [("", 21)],
)
np.save(os.path.join(here, "tfidf-skips-x.npy"), np.array([1, 2, 1, 2], dtype=np.int64))
# (1, 2) at distance 1 twice and at distance 3 once.
np.save(os.path.join(here, "tfidf-skips-y.npy"), np.array([3.0], dtype=np.float32))
