#!/usr/bin/env python3
"""Time to first inference (docs/performance.md): strata cold, strata from a
warm plan cache on disk, and onnxruntime's session creation plus first run.

For each model (an `.onnx` file with its inputs as NAME=FILE.npy, or a
directory of the real-model suite, test/models/NAME, regenerated with its
weights into a temporary directory):

- strata cold: the wall time of the whole process `strata run MODEL --mode
  graph --threads 1 --input ... --cache-dir D` with D empty (import, the
  pipeline, code generation, the entry written, one run);
- strata warm: the same process with D as the cold run left it (the
  model's signature read, the entry read, checked and its library loaded,
  one run); the report must
  show no compile. Also in process: the report's `wall_ms` (from the start
  of `strata run`'s work to the end of its run: import, session, entry
  loaded, run), what onnxruntime's figure measures;
- onnxruntime: in a fresh Python process, the time from creating the
  InferenceSession (all graph optimizations, one intra-op thread) to the end
  of its first run, measured inside the process (interpreter start and
  `import onnxruntime`, which loads its library, excluded).

Medians of --runs each. Needs a release build (`cargo build --release -p
strata`) and the onnx venv (`scripts/setup-onnx`). Run from the repository
root with the venv's Python:

    .local/onnx-venv/bin/python3 scripts/bench/first_inference.py [--runs N] \\
        examples/onnx/mlp.onnx:x=examples/onnx/mlp_input_x.npy test/models/bert-dynamo ...
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATA = os.path.join(ROOT, "target", "release", "strata")
REGENERATE = os.path.join(ROOT, "scripts", "real-models", "regenerate.py")

ORT_FIRST = r"""
import sys, time, numpy as np, onnxruntime as ort
model, feeds = sys.argv[1], sys.argv[2:]
feed = {}
for f in feeds:
    name, path = f.split("=", 1)
    feed[name] = np.load(path)
t = time.perf_counter()
opts = ort.SessionOptions()
opts.intra_op_num_threads = 1
opts.inter_op_num_threads = 1
opts.log_severity_level = 3
s = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
s.run(None, feed)
print((time.perf_counter() - t) * 1e3)
"""


def real_model(directory, tmp):
    """The suite's model regenerated with its weights, and its inputs."""
    name = os.path.basename(os.path.normpath(directory))
    out = os.path.join(tmp, name + ".onnx")
    subprocess.run([sys.executable, REGENERATE, directory, out], check=True,
                   stdout=subprocess.DEVNULL)
    graph = onnx.load(out, load_external_data=False).graph
    initializers = {i.name for i in graph.initializer}
    names = [i.name for i in graph.input if i.name not in initializers]
    feeds = [f"{n}={os.path.join(directory, f'input_{k}.npy')}" for k, n in enumerate(names)]
    return name, out, feeds


def strata(model, feeds, cache, report, mode):
    cmd = [STRATA, "run", model, "--mode", mode, "--threads", "1",
           "--cache-dir", cache, "--report", report]
    for f in feeds:
        cmd += ["--input", f]
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ms = (time.perf_counter() - start) * 1e3
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr else "failed")
    with open(report) as f:
        rep = json.load(f)
    return ms, rep


def measure(name, model, feeds, runs, tmp, mode="graph"):
    cold, warm, warm_in, ort = [], [], [], []
    entry_bytes = 0
    for r in range(runs):
        cache = os.path.join(tmp, f"cache-{name}-{r}")
        shutil.rmtree(cache, ignore_errors=True)
        ms, rep = strata(model, feeds, cache, os.path.join(tmp, "r.json"), mode)
        assert rep["compiles"] == 1, rep
        cold.append(ms)
        entry_bytes = sum(os.path.getsize(os.path.join(cache, f))
                          for f in os.listdir(cache) if f.endswith(".strata"))
        ms, rep = strata(model, feeds, cache, os.path.join(tmp, "r.json"), mode)
        assert rep["compiles"] == 0 and rep["cache"]["disk_hits"] == 1, rep
        warm.append(ms)
        warm_in.append(rep["wall_ms"])
        out = subprocess.run([sys.executable, "-c", ORT_FIRST, model] + feeds,
                             check=True, capture_output=True, text=True).stdout
        ort.append(float(out.strip().splitlines()[-1]))
    c, w, wi, o = (statistics.median(v) for v in (cold, warm, warm_in, ort))
    shown = name if mode == "graph" else f"{name} ({mode} mode)"
    print(f"| {shown} | {c:,.0f} | {w:,.0f} | {wi:,.1f} | {o:,.1f} | {wi / o:.2f} | {c / w:.1f} "
          f"| {entry_bytes:,} |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+",
                    help="MODEL.onnx:NAME=FILE.npy[,NAME=FILE.npy] or a test/models directory")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    print("| model | strata cold, process (ms) | strata warm, process (ms) | strata warm, in process (ms) "
          "| onnxruntime create + run, in process (ms) | warm / onnxruntime, in process | cold / warm "
          "| entry bytes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    try:
        for spec in args.models:
            if os.path.isdir(spec):
                name, model, feeds = real_model(spec, tmp)
            else:
                model, _, inputs = spec.partition(":")
                name = os.path.basename(model)
                feeds = [f for f in inputs.split(",") if f]
            try:
                measure(name, model, feeds, args.runs, tmp)
            except (RuntimeError, AssertionError, subprocess.CalledProcessError) as e:
                print(f"| {name} | fails: {str(e)[:120]} | | | | | | |", flush=True)
                if "data-dependent-shape" in str(e):
                    # What graph mode refuses, hybrid mode runs: its
                    # compiled segments come from the cache as plans do.
                    try:
                        measure(name, model, feeds, args.runs, tmp, "hybrid")
                    except (RuntimeError, AssertionError, subprocess.CalledProcessError) as e:
                        print(f"| {name} (hybrid mode) | fails: {str(e)[:120]} | | | | | | |",
                              flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
