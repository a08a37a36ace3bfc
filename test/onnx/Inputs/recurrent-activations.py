"""Writes recurrent-activations.onnx: an LSTM, a bidirectional GRU and an
RNN whose activations take parameters, with ONNX's `activation_alpha` and
`activation_beta` listing values only for the activations that take them
(consumed in order), which strata's importer aligns to one value per
activation; and an input and onnxruntime's outputs. Run with the venv of
scripts/setup-onnx: .local/onnx-venv/bin/python test/onnx/Inputs/recurrent-activations.py
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(15)
T, B, I, H = 5, 2, 3, 4


def weights(name, gates, directions):
    return [
        numpy_helper.from_array(rng.uniform(-0.7, 0.7, (directions, gates * H, I)).astype(np.float32), f"{name}_W"),
        numpy_helper.from_array(rng.uniform(-0.7, 0.7, (directions, gates * H, H)).astype(np.float32), f"{name}_R"),
        numpy_helper.from_array(rng.uniform(-0.5, 0.5, (directions, 2 * gates * H)).astype(np.float32), f"{name}_B"),
    ]


inits = weights("lstm", 4, 1) + weights("gru", 3, 2) + weights("rnn", 1, 1)
nodes = [
    # alpha: HardSigmoid 0.3, LeakyRelu 0.15, ScaledTanh 0.8;
    # beta: HardSigmoid 0.45, ScaledTanh 1.2.
    helper.make_node(
        "LSTM", ["x", "lstm_W", "lstm_R", "lstm_B"], ["lstm_y"], name="LSTM",
        hidden_size=H, activations=["HardSigmoid", "LeakyRelu", "ScaledTanh"],
        activation_alpha=[0.3, 0.15, 0.8], activation_beta=[0.45, 1.2], clip=2.0,
    ),
    # alpha: Elu 0.7, HardSigmoid 0.25, Affine 0.5; beta: HardSigmoid 0.55,
    # Affine 0.1.
    helper.make_node(
        "GRU", ["x", "gru_W", "gru_R", "gru_B"], ["gru_y", "gru_h"], name="GRU",
        hidden_size=H, direction="bidirectional",
        activations=["Sigmoid", "Elu", "HardSigmoid", "Affine"],
        activation_alpha=[0.7, 0.25, 0.5], activation_beta=[0.55, 0.1],
    ),
    helper.make_node(
        "RNN", ["x", "rnn_W", "rnn_R", "rnn_B"], ["rnn_y"], name="RNN", hidden_size=H,
        activations=["ThresholdedRelu"], activation_alpha=[0.05],
    ),
]
f32 = TensorProto.FLOAT
graph = helper.make_graph(
    nodes,
    "recurrent_activations",
    [helper.make_tensor_value_info("x", f32, [T, B, I])],
    [
        helper.make_tensor_value_info("lstm_y", f32, [T, 1, B, H]),
        helper.make_tensor_value_info("gru_y", f32, [T, 2, B, H]),
        helper.make_tensor_value_info("gru_h", f32, [2, B, H]),
        helper.make_tensor_value_info("rnn_y", f32, [T, 1, B, H]),
    ],
    inits,
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
onnx.checker.check_model(model)
path = os.path.join(here, "recurrent-activations.onnx")
onnx.save(model, path)
session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
feeds = {"x": rng.standard_normal((T, B, I)).astype(np.float32)}
np.save(os.path.join(here, "recurrent-activations-x.npy"), feeds["x"])
for out, value in zip(session.get_outputs(), session.run(None, feeds)):
    np.save(os.path.join(here, f"recurrent-activations-{out.name}.npy"), value)
