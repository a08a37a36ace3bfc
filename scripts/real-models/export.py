#!/usr/bin/env python3
"""Exports the real-model suite: common architectures with random weights.

usage: export.py OUT_DIR [NAME...]

Run by hand, in a venv with torch, torchvision, transformers, onnxscript,
onnx and onnxruntime from PyPI (docs/conformance.md, "Real models", says
how); CI needs none of them. Each architecture is built from a small config
(no download), with torch's own random initialization under a fixed seed,
and exported by torch.onnx twice: with the default (dynamo) exporter and
with the legacy TorchScript one (`dynamo=False`). For each export, OUT_DIR
gets a directory `<name>-<exporter>/` with:

  model.onnx       the exported graph, its large float initializers
                   stripped of their values (their name, type and shape kept),
                   and its nodes of their metadata (the exporter's stack traces)
  weights.json     how to make them again (regenerate.py): a seed, and per
                   tensor the mean and standard deviation of the exported
                   values; the SHA-256 of the values regenerate.py makes;
                   which torch and exporter made the model
  input_<i>.npy    the inputs, in the graph's input order
  output_<i>.npy   onnxruntime's outputs on the regenerated model

So the checked-in suite stays small (the weights are a seed), and what the
tests compare against is onnxruntime on exactly the weights they run. An
architecture that does not export prints why and is left out. NAME picks
architectures (a substring of their names); the default is all of them.
"""
import json
import os
import shutil
import sys
import tempfile
import traceback

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import regenerate  # noqa: E402

SEED = 0
# Float initializers with fewer elements than this keep their values (scalars,
# rotary frequency tables, small biases): they are cheap to store and some are
# not weights but parts of the computation.
STRIP_MIN_ELEMENTS = 256


def tokens(batch, length, vocab):
    g = torch.Generator().manual_seed(1)
    return torch.randint(0, vocab, (batch, length), generator=g)


# The inputs of the language models.
NAMES = ["input_ids", "attention_mask"]


def padding_mask(batch, length):
    """An attention mask whose last sequence is two tokens shorter (padded)."""
    mask = torch.ones(batch, length, dtype=torch.int64)
    mask[-1, length - 2 :] = 0
    return mask


def language_model(model, keys):
    """A language model on token ids and a padding mask, its outputs `keys`."""
    ids, mask = tokens(2, 8, 1000), padding_mask(2, 8)
    return Outputs(model, keys, NAMES), (ids, mask), NAMES


def image(*shape):
    g = torch.Generator().manual_seed(2)
    return torch.rand(*shape, generator=g)


# ---- the architectures: (name, builder) where builder() -> (module, inputs, input_names)


def bert():
    from transformers import BertConfig, BertModel

    config = BertConfig(
        vocab_size=1000,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=128,
        max_position_embeddings=64,
    )
    return language_model(BertModel(config), ("last_hidden_state", "pooler_output"))


def gpt2():
    from transformers import GPT2Config, GPT2Model

    config = GPT2Config(vocab_size=1000, n_embd=64, n_layer=2, n_head=4, n_positions=64, use_cache=False)
    return language_model(GPT2Model(config), ("last_hidden_state",))


def llama():
    from transformers import LlamaConfig, LlamaModel

    # Grouped-query attention (4 query heads, 2 key/value heads) and rotary
    # position embeddings.
    config = LlamaConfig(
        vocab_size=1000,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
        use_cache=False,
    )
    return language_model(LlamaModel(config), ("last_hidden_state",))


def t5_encoder():
    from transformers import T5Config, T5EncoderModel

    config = T5Config(vocab_size=1000, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4)
    return Outputs(T5EncoderModel(config), ("last_hidden_state",)), (tokens(2, 8, 1000),), ["input_ids"]


def vit():
    from transformers import ViTConfig, ViTModel

    config = ViTConfig(
        image_size=32,
        patch_size=8,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=128,
    )
    return Outputs(ViTModel(config), ("last_hidden_state", "pooler_output")), (image(2, 3, 32, 32),), ["pixel_values"]


def resnet():
    import torchvision

    return torchvision.models.resnet18(num_classes=10), (image(1, 3, 64, 64),), ["x"]


def mobilenet():
    import torchvision

    return torchvision.models.mobilenet_v3_small(num_classes=10), (image(1, 3, 64, 64),), ["x"]


def convnext():
    from torchvision.models.convnext import CNBlockConfig, ConvNeXt

    # ConvNeXt-T's blocks and stages, narrower and with one block per stage.
    settings = [CNBlockConfig(32, 64, 1), CNBlockConfig(64, 128, 1), CNBlockConfig(128, 256, 1), CNBlockConfig(256, None, 1)]
    return ConvNeXt(settings, num_classes=10), (image(1, 3, 64, 64),), ["x"]


def deeplab():
    import torchvision

    model = torchvision.models.segmentation.deeplabv3_mobilenet_v3_large(
        weights=None, weights_backbone=None, num_classes=4, aux_loss=False
    )
    return Outputs(model, ("out",)), (image(1, 3, 64, 64),), ["x"]


def resnet3d():
    from torchvision.models.video.resnet import BasicBlock, BasicStem, Conv3DSimple, VideoResNet

    # torchvision's r3d_18 with one block per stage instead of two.
    model = VideoResNet(BasicBlock, [Conv3DSimple] * 4, [1, 1, 1, 1], BasicStem, num_classes=10)
    return model, (image(1, 3, 4, 32, 32),), ["x"]


class Tagger(torch.nn.Module):
    """A sequence tagger: embedding, a two-layer bidirectional RNN, a projection."""

    def __init__(self, rnn):
        super().__init__()
        self.embed = torch.nn.Embedding(100, 16)
        self.rnn = rnn(16, 32, num_layers=2, bidirectional=True, batch_first=True)
        self.project = torch.nn.Linear(64, 5)

    def forward(self, ids):
        hidden, _ = self.rnn(self.embed(ids))
        return self.project(hidden)


def lstm_tagger():
    return Tagger(torch.nn.LSTM), (tokens(2, 7, 100),), ["ids"]


def gru_tagger():
    return Tagger(torch.nn.GRU), (tokens(2, 7, 100),), ["ids"]


# Exported with a dynamic batch and sequence length, as they are deployed:
# the taggers' recurrence cannot be unrolled at import, and BERT's shapes
# flow through Shape/Gather/Concat into its reshapes (what a server with
# varying requests compiles).
DYNAMIC = {"lstm-tagger-dynamic", "gru-tagger-dynamic", "bert-dynamic"}


def faster_rcnn():
    import torchvision

    model = torchvision.models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(
        weights=None, weights_backbone=None, num_classes=3
    )
    return Detections(model), (image(3, 128, 128),), ["image"]


class Outputs(torch.nn.Module):
    """A module whose output is a dict (transformers, segmentation) as a
    tuple; with `names`, the inputs are passed by name (the transformers
    models' positional order is not their input order)."""

    def __init__(self, inner, keys, names=None):
        super().__init__()
        self.inner = inner
        self.keys = keys
        self.names = names

    def forward(self, *args):
        out = self.inner(**dict(zip(self.names, args))) if self.names else self.inner(*args)
        return tuple(out[k] for k in self.keys)


class Detections(torch.nn.Module):
    """A detector on one image, its boxes, labels and scores as a tuple."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, image):
        d = self.inner([image])[0]
        return d["boxes"], d["labels"], d["scores"]


ARCHITECTURES = [
    ("bert", bert),
    ("gpt2", gpt2),
    ("llama", llama),
    ("t5-encoder", t5_encoder),
    ("vit", vit),
    ("resnet18", resnet),
    ("mobilenet-v3", mobilenet),
    ("convnext", convnext),
    ("deeplab-v3", deeplab),
    ("resnet3d", resnet3d),
    ("lstm-tagger", lstm_tagger),
    ("gru-tagger", gru_tagger),
    ("lstm-tagger-dynamic", lstm_tagger),
    ("gru-tagger-dynamic", gru_tagger),
    ("bert-dynamic", bert),
    ("faster-rcnn", faster_rcnn),
]


def export(module, inputs, names, dynamo, path, dynamic):
    kwargs = {"dynamo": dynamo, "input_names": names}
    if not dynamo:
        kwargs["opset_version"] = 17
    if dynamic and dynamo:
        dims = {0: torch.export.Dim("batch"), 1: torch.export.Dim("seq")}
        kwargs["dynamic_shapes"] = tuple(dims for _ in inputs)
    elif dynamic:
        kwargs["dynamic_axes"] = {n: {0: "batch", 1: "seq"} for n in names}
    with torch.no_grad():
        torch.onnx.export(module, inputs, path, **kwargs)


def strip(model):
    """Strips the large float initializers of `model`, and the exporter's
    per-node metadata (stack traces, which are most of a dynamo export's
    size); returns the initializers' specs."""
    for node in model.graph.node:
        del node.metadata_props[:]
        node.doc_string = ""
    tensors = []
    for i, t in enumerate(model.graph.initializer):
        a = numpy_helper.to_array(t)
        if a.dtype.kind != "f" or a.size < STRIP_MIN_ELEMENTS or not np.all(np.isfinite(a)):
            continue
        tensors.append(
            {
                "name": t.name,
                "dtype": a.dtype.name,
                "shape": list(a.shape),
                "mean": float(a.astype(np.float64).mean()),
                "std": float(a.astype(np.float64).std()),
            }
        )
        empty = onnx.TensorProto(name=t.name, data_type=t.data_type, dims=t.dims)
        model.graph.initializer[i].CopyFrom(empty)
    return tensors


def write(name, builder, dynamo, out_root):
    exporter = "dynamo" if dynamo else "torchscript"
    directory = os.path.join(out_root, f"{name}-{exporter}")
    torch.manual_seed(SEED)
    module, inputs, names = builder()
    module.eval()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.onnx")
        export(module, inputs, names, dynamo, path, name in DYNAMIC)
        model = onnx.load(path)
    # The exported model with torch's weights must compute what torch does
    # (a check of the exporter, not of strata).
    with torch.no_grad():
        expected = module(*inputs)
    expected = [expected] if isinstance(expected, torch.Tensor) else list(expected)
    graph_inputs = {i.name for i in model.graph.input}
    feeds = {n: x.numpy() for n, x in zip(names, inputs) if n in graph_inputs}
    got = run(model, feeds)
    for e, g in zip(expected, got):
        if e.shape != g.shape or not np.allclose(e.numpy(), g, rtol=1e-3, atol=1e-4):
            print(f"  note: {name}-{exporter}: onnxruntime differs from torch on the exported weights")
    specs = {"seed": SEED, "tensors": strip(model)}
    regenerated = onnx.ModelProto()
    regenerated.CopyFrom(model)
    specs["sha256"] = regenerate.fill(regenerated, specs)
    specs["export"] = {
        "architecture": name,
        "exporter": exporter,
        "torch": torch.__version__,
        "opset": max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0),
    }
    outputs = run(regenerated, feeds)
    if os.path.isdir(directory):
        shutil.rmtree(directory)
    os.makedirs(directory)
    onnx.save(model, os.path.join(directory, "model.onnx"))
    with open(os.path.join(directory, "weights.json"), "w") as f:
        json.dump(specs, f, indent=1)
        f.write("\n")
    for i, x in enumerate(feeds.values()):
        np.save(os.path.join(directory, f"input_{i}.npy"), x)
    for i, y in enumerate(outputs):
        np.save(os.path.join(directory, f"output_{i}.npy"), y)
    size = sum(os.path.getsize(os.path.join(directory, f)) for f in os.listdir(directory))
    print(f"{name}-{exporter}: opset {specs['export']['opset']}, {len(specs['tensors'])} tensors from the seed, {size / 1e3:.0f} kB")


def run(model, feeds):
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_root, wanted = argv[1], argv[2:]
    failed = 0
    for name, builder in ARCHITECTURES:
        if wanted and not any(w in name for w in wanted):
            continue
        for dynamo in (True, False):
            try:
                write(name, builder, dynamo, out_root)
            except Exception as e:  # an architecture that does not export is reported, not fatal
                failed += 1
                exporter = "dynamo" if dynamo else "torchscript"
                last = traceback.format_exception_only(type(e), e)[-1].strip()
                print(f"{name}-{exporter}: does not export: {last[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
