#!/usr/bin/env python3
"""graph against eager and onnxruntime on the CPU, side by side in one run.

For each model (an .onnx file with an input file NAME_x.npy beside it, or an
examples/onnx model with its input): `strata bench --mode eager`, `strata
bench --mode graph --threads T` and onnxruntime's in-process session.run
(CPU execution provider, intra_op_num_threads T, all graph optimizations)
on the same input, T in 1 and 2. Prints a Markdown table of medians and
ratios, and whether graph mode's outputs match onnxruntime's. Needs a release build (`cargo build --release -p strata`).

    .local/onnx-venv/bin/python scripts/bench/cpu.py [--runs N] MODEL.onnx=INPUT.npy ...
"""

import argparse
import json
import os
import subprocess
import tempfile
import time

import numpy as np
import onnxruntime as ort

import ort_timing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATA = os.path.join(ROOT, "target", "release", "strata")


def strata(model, x, mode, threads, runs, warmup):
    cmd = [STRATA, "bench", model, "--mode", mode, "--input", f"x={x}", "--runs", str(runs),
           "--warmup", str(warmup), "--threads", str(threads), "--json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def onnxruntime(model, x, threads, runs, warmup):
    t = time.perf_counter()
    sess = ort_timing.session(model, threads)
    compile_ms = (time.perf_counter() - t) * 1e3
    feed = {sess.get_inputs()[0].name: np.load(x)}
    return {"p50_ms": ort_timing.median_run_ms(sess, feed, runs, warmup), "compile_ms": compile_ms}


def agrees(model, x):
    """Whether graph mode's outputs match onnxruntime's (rtol 1e-3, atol 1e-4)."""
    sess = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    feed = {sess.get_inputs()[0].name: np.load(x)}
    want = sess.run(None, feed)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([STRATA, "run", model, "--mode", "graph", "--input", f"x={x}",
                        "--output-dir", out], check=True, capture_output=True)
        for o, w in zip(sess.get_outputs(), want):
            got = np.load(os.path.join(out, f"{o.name}.npy"))
            if got.shape != w.shape or not np.allclose(got, w, rtol=1e-3, atol=1e-4):
                return "no"
    return "yes"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+", help="MODEL.onnx=INPUT.npy")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--eager-runs", type=int, default=5)
    args = ap.parse_args()
    print("| model | eager p50 | graph p50 (1 thr) | graph p50 (2 thr) | ort p50 (1 thr) | ort p50 (2 thr) | graph vs eager | graph / ort (1 thr) | graph / ort (2 thr) | compile | kernels | matches ort |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for spec in args.models:
        model, x = spec.split("=")
        eager = strata(model, x, "eager", 1, args.eager_runs, 1)
        g1 = strata(model, x, "graph", 1, args.runs, 3)
        g2 = strata(model, x, "graph", 2, args.runs, 3)
        o1 = onnxruntime(model, x, 1, args.runs, 3)
        o2 = onnxruntime(model, x, 2, args.runs, 3)
        name = os.path.basename(model)
        print(f"| {name} | {eager['p50_ms']:.2f} ms | {g1['p50_ms']:.3f} ms | {g2['p50_ms']:.3f} ms | "
              f"{o1['p50_ms']:.3f} ms | {o2['p50_ms']:.3f} ms | {eager['p50_ms'] / g1['p50_ms']:.1f}x | "
              f"{g1['p50_ms'] / o1['p50_ms']:.2f} | {g2['p50_ms'] / o2['p50_ms']:.2f} | "
              f"{g1['compile_ms']:.0f} ms | {g1['kernels']} | {agrees(model, x)} |")


if __name__ == "__main__":
    main()
