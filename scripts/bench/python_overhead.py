#!/usr/bin/env python3
"""The call overhead of strata's Python Session.run (docs/python.md,
docs/performance.md): the MLP example (examples/onnx/mlp.onnx, batch 4) in
graph mode on one thread, against onnxruntime's InferenceSession.run on the
same model (one intra-op thread), in one process, alternating rounds;
median per-call times in microseconds.

Run with a Python that has a release build of the package and
onnxruntime, from the repository root:

    python scripts/bench/python_overhead.py [--runs 2000] [--rounds 5]
"""

import argparse
import os
import statistics
import time

import numpy as np
import onnxruntime as ort

import strata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = os.path.join(ROOT, "examples", "onnx", "mlp.onnx")


def per_call_us(run, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        run()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    x = np.load(os.path.join(ROOT, "examples", "onnx", "mlp_input_x.npy"))
    feeds = {"x": x}
    s = strata.Session(MODEL, mode="graph", threads=1)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    o = ort.InferenceSession(MODEL, opts, providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(s.run(None, feeds)[0], o.run(None, feeds)[0], rtol=1e-4, atol=1e-5)
    cases = {
        "strata Session.run(None, feeds)": lambda: s.run(None, feeds),
        "strata session(x)": lambda: s(x),
        "onnxruntime InferenceSession.run(None, feeds)": lambda: o.run(None, feeds),
    }
    for run in cases.values():
        for _ in range(200):
            run()
    results = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, run in cases.items():
            results[name].append(per_call_us(run, args.runs))
    print("| call | median per call (µs), rounds | median of rounds (µs) |")
    print("|---|---|---:|")
    for name, rounds in results.items():
        shown = ", ".join(f"{r:.2f}" for r in rounds)
        print(f"| {name} | {shown} | {statistics.median(rounds):.2f} |")
    report = s.report()
    assert report["compiles"] == 1, report


if __name__ == "__main__":
    main()
