#!/usr/bin/env python3
"""Convolution layout on the host: graph-mode latency of each model with
`optimize.layout = "nchw"` and `"nhwc"`, interleaved over rounds; prints the
median of each round's p50 and the ratio (docs/performance.md, "Convolution
layout").

    python3 scripts/bench/layout.py [--rounds N] MODEL.onnx=INPUT.npy ...
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATA = os.path.join(ROOT, "target", "release", "strata")


def p50(model, x, recipe):
    out = subprocess.run(
        [STRATA, "bench", model, "--input", f"x={x}", "--threads", "1", "--runs", "30",
         "--recipe", recipe, "--json"],
        check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    return r["p50_ms"], r["kernels"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("models", nargs="+", help="MODEL.onnx=INPUT.npy")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    recipes = {}
    for layout in ("nchw", "nhwc"):
        path = os.path.join(tmp, f"{layout}.toml")
        with open(path, "w") as f:
            f.write(f'[optimize]\nlayout = "{layout}"\n')
        recipes[layout] = path
    print("| model | NCHW p50 (ms), steps | NHWC p50 (ms), steps | NHWC / NCHW |")
    print("|---|---|---|---|")
    for spec in args.models:
        model, x = spec.split("=")
        times = {"nchw": [], "nhwc": []}
        steps = {}
        for _ in range(args.rounds):
            for layout, recipe in recipes.items():
                t, s = p50(model, x, recipe)
                times[layout].append(t)
                steps[layout] = s
        a, b = statistics.median(times["nchw"]), statistics.median(times["nhwc"])
        print(f"| {os.path.basename(model)} | {a:.2f}, {steps['nchw']} | {b:.2f}, {steps['nhwc']} | {b / a:.2f} |")


if __name__ == "__main__":
    main()
