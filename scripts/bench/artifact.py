#!/usr/bin/env python3
"""Artifacts and precision recipes, measured (docs/performance.md).

For each model (MODEL.onnx=INPUT.npy): the wall time of `strata compile -o
m.strata` (the whole pipeline, then the artifact written), of `strata run
m.strata` (read, check, JIT-compile the kernels' bitcode, run once), and of
`strata run MODEL --mode graph` (import, the whole pipeline, JIT, run
once), medians of --runs processes, with the artifact's size; then the
graph-mode latency (`strata bench`, one thread, medians) with the default
recipe and with recipes/fp16.toml and a bf16 one. Needs a release build
(`cargo build --release -p strata`). Run from the repository root:

    python3 scripts/bench/artifact.py [--runs N] MODEL.onnx=INPUT.npy ...
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATA = os.path.join(ROOT, "target", "release", "strata")


def wall(cmd, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def bench(model, x, recipe, runs):
    cmd = [STRATA, "bench", model, "--input", f"x={x}", "--threads", "1",
           "--runs", str(runs), "--warmup", "3", "--json"]
    if recipe:
        cmd += ["--recipe", recipe]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["p50_ms"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+", help="MODEL.onnx=INPUT.npy")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    bf16 = os.path.join(tmp, "bf16.toml")
    with open(bf16, "w") as f:
        f.write('[codegen]\nprecision = "bf16"\n')
    print("| model | compile -o (ms) | run artifact (ms) | run model, graph (ms) | artifact bytes | latency f32 / f16 / bf16 (ms) |")
    print("|---|---:|---:|---:|---:|---|")
    for spec in args.models:
        model, x = spec.split("=")
        art = os.path.join(tmp, os.path.basename(model) + ".strata")
        compile_ms = wall([STRATA, "compile", model, "--input", f"x={x}", "-o", art], args.runs)
        load_ms = wall([STRATA, "run", art, "--input", f"x={x}", "--threads", "1"], args.runs)
        graph_ms = wall([STRATA, "run", model, "--mode", "graph", "--input", f"x={x}", "--threads", "1"], args.runs)
        size = os.path.getsize(art)
        lat = [bench(model, x, r, 30) for r in (None, os.path.join(ROOT, "recipes", "fp16.toml"), bf16)]
        name = os.path.basename(model)
        print(f"| {name} | {compile_ms:.0f} | {load_ms:.0f} | {graph_ms:.0f} | {size:,} | "
              + " / ".join(f"{v:.2f}" for v in lat) + " |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
