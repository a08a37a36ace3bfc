"""Writes recurrent-dynamic.onnx: an LSTM (bidirectional, with
sequence_lens and initial states), a GRU (reverse, linear_before_reset) and
an RNN (forward) over an input whose sequence length and batch are dynamic
(`seq`, `batch`), which strata imports as graph.lstm, graph.gru and graph.rnn; and the
inputs and onnxruntime's outputs for two sizes. Run with the venv of
scripts/setup-onnx: .local/onnx-venv/bin/python test/onnx/Inputs/recurrent-dynamic.py
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(14)
I, H = 3, 4


def weights(name, gates, directions):
    return [
        numpy_helper.from_array(rng.uniform(-0.5, 0.5, (directions, gates * H, I)).astype(np.float32), f"{name}_W"),
        numpy_helper.from_array(rng.uniform(-0.5, 0.5, (directions, gates * H, H)).astype(np.float32), f"{name}_R"),
        numpy_helper.from_array(rng.uniform(-0.5, 0.5, (directions, 2 * gates * H)).astype(np.float32), f"{name}_B"),
    ]


inits = weights("lstm", 4, 2) + weights("gru", 3, 1) + weights("rnn", 1, 1)
nodes = [
    helper.make_node(
        "LSTM",
        ["x", "lstm_W", "lstm_R", "lstm_B", "lens", "h0", "c0"],
        ["lstm_y", "lstm_h", "lstm_c"],
        name="LSTM",
        hidden_size=H,
        direction="bidirectional",
    ),
    helper.make_node(
        "GRU", ["x", "gru_W", "gru_R", "gru_B"], ["gru_y", "gru_h"], name="GRU",
        hidden_size=H, direction="reverse", linear_before_reset=1,
    ),
    helper.make_node("RNN", ["x", "rnn_W", "rnn_R", "rnn_B"], ["rnn_y"], name="RNN", hidden_size=H),
]
f32 = TensorProto.FLOAT
graph = helper.make_graph(
    nodes,
    "recurrent_dynamic",
    [
        helper.make_tensor_value_info("x", f32, ["seq", "batch", I]),
        helper.make_tensor_value_info("lens", TensorProto.INT32, ["batch"]),
        helper.make_tensor_value_info("h0", f32, [2, "batch", H]),
        helper.make_tensor_value_info("c0", f32, [2, "batch", H]),
    ],
    [
        helper.make_tensor_value_info("lstm_y", f32, ["seq", 2, "batch", H]),
        helper.make_tensor_value_info("lstm_h", f32, [2, "batch", H]),
        helper.make_tensor_value_info("lstm_c", f32, [2, "batch", H]),
        helper.make_tensor_value_info("gru_y", f32, ["seq", 1, "batch", H]),
        helper.make_tensor_value_info("gru_h", f32, [1, "batch", H]),
        helper.make_tensor_value_info("rnn_y", f32, ["seq", 1, "batch", H]),
    ],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
onnx.checker.check_model(model)
path = os.path.join(here, "recurrent-dynamic.onnx")
onnx.save(model, path)
session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
for tag, (t, b) in {"a": (5, 3), "b": (2, 1)}.items():
    feeds = {
        "x": rng.standard_normal((t, b, I)).astype(np.float32),
        "lens": rng.integers(1, t + 1, b).astype(np.int32),
        "h0": rng.standard_normal((2, b, H)).astype(np.float32),
        "c0": rng.standard_normal((2, b, H)).astype(np.float32),
    }
    for name, value in feeds.items():
        np.save(os.path.join(here, f"recurrent-dynamic-{tag}-{name}.npy"), value)
    for out, value in zip(session.get_outputs(), session.run(None, feeds)):
        np.save(os.path.join(here, f"recurrent-dynamic-{tag}-{out.name}.npy"), value)
