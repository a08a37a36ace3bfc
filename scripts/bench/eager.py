#!/usr/bin/env python3
"""Eager mode (the reference interpreter) against onnxruntime, side by side
in one run, on the ONNX model tests (directories with model.onnx and
test_data_set_0/input_*.pb, as the pinned onnx package ships them under
onnx/backend/test/data/), on the light/ models with random weights that
the model tests write (target/light-random/NAME: model.onnx, input_0.npy,
by scripts/randomize-weights.py; kept when the tests run with
STRATA_KEEP_LIGHT_RANDOM=1), and on any other such directory.

For each model: `strata bench --mode eager` (release build) and
onnxruntime's in-process session.run (CPU execution provider, one thread,
all graph optimizations) on the test's first data set; prints a Markdown
table of medians and their ratio. Needs `cargo build --release -p strata`.

    .local/onnx-venv/bin/python scripts/bench/eager.py [--runs N] DIR ...
"""

import argparse
import json
import os
import subprocess
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

import ort_timing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATA = os.path.join(ROOT, "target", "release", "strata")


def inputs_of(test_dir):
    """The model's graph inputs (not initializers) with the first data set's values."""
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    inits = {i.name for i in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in inits]
    data = os.path.join(test_dir, "test_data_set_0")
    values = []
    if os.path.exists(os.path.join(test_dir, "input_0.npy")):
        # scripts/randomize-weights.py's directories: input_K.npy.
        return {n: np.load(os.path.join(test_dir, f"input_{k}.npy")) for k, n in enumerate(names)}
    for k in range(len(names)):
        t = onnx.TensorProto()
        with open(os.path.join(data, f"input_{k}.pb"), "rb") as f:
            t.ParseFromString(f.read())
        values.append(numpy_helper.to_array(t))
    return dict(zip(names, values))


def strata_eager(model, feed, runs, warmup, tmp):
    cmd = [STRATA, "bench", model, "--mode", "eager", "--runs", str(runs),
           "--warmup", str(warmup), "--threads", "1", "--json"]
    for i, (name, value) in enumerate(feed.items()):
        path = os.path.join(tmp, f"in{i}.npy")
        np.save(path, value)
        cmd += ["--input", f"{name}={path}"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"
    return json.loads(out.stdout.strip().splitlines()[-1]), None


def onnxruntime(model, feed, runs, warmup):
    return ort_timing.median_run_ms(ort_timing.session(model, 1, quiet=True), feed, runs, warmup)


def fmt(ms):
    return f"{ms:.3f} ms" if ms < 10 else f"{ms:.1f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+", help="model test directories")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    args = ap.parse_args()
    print("| model | eager p50 | onnxruntime p50 (1 thr) | eager / ort |")
    print("|---|---:|---:|---:|")
    for d in args.dirs:
        name = os.path.relpath(d, os.path.dirname(os.path.dirname(d.rstrip("/"))))
        model = os.path.join(d, "model.onnx")
        feed = inputs_of(d)
        with tempfile.TemporaryDirectory() as tmp:
            eager, error = strata_eager(model, feed, args.runs, args.warmup, tmp)
        try:
            ort_ms = onnxruntime(model, feed, max(args.runs, 20), 3)
        except Exception as e:  # onnxruntime lacks an old op version
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            shown = fmt(eager["p50_ms"]) if eager else f"({error[:60]})"
            print(f"| {name} | {shown} | (onnxruntime: {first[-60:]}) | |", flush=True)
            continue
        if eager is None:
            print(f"| {name} | ({error[:60]}) | {fmt(ort_ms)} | |", flush=True)
            continue
        ratio = eager["p50_ms"] / ort_ms
        print(f"| {name} | {fmt(eager['p50_ms'])} | {fmt(ort_ms)} | {ratio:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
