#!/usr/bin/env python3
"""Runs an ONNX model with onnxruntime (the reference for strata's tests).

usage: ort-run.py MODEL.onnx OUT_DIR NAME=INPUT.npy ...
Writes each output to OUT_DIR/<output name>.npy. Run it with the venv that
scripts/setup-onnx creates (.local/onnx-venv/bin/python).
"""
import os
import sys

import numpy as np
import onnxruntime as ort


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    model, out_dir = argv[1], argv[2]
    feeds = {}
    for spec in argv[3:]:
        name, _, path = spec.partition("=")
        feeds[name] = np.load(path)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    outputs = session.run(None, feeds)
    os.makedirs(out_dir, exist_ok=True)
    for meta, value in zip(session.get_outputs(), outputs):
        np.save(os.path.join(out_dir, meta.name.replace("/", "_") + ".npy"), value)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
