#!/usr/bin/env python3
"""The real-model suite through TOSA and upstream MLIR.

For each model of test/models (weights regenerated into target/real-models/
as the real-model test does): `strata compile --stop-after graph` with the
model's stored inputs (static shapes), `strata-translate --export=tosa`,
then `scripts/tosa-oracle` on the TOSA (upstream MLIR's own lowering run by
mlir-runner against strata's eager and graph mode on that TOSA), and the
time and peak memory of `strata import` of the TOSA against `mlir-opt`
parsing and printing it (`/usr/bin/time`, medians of --runs). Prints a
Markdown table. Needs release builds of strata and strata-translate.

    .local/onnx-venv/bin/python scripts/bench/tosa_models.py [--runs 3] [NAME ...]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import onnxruntime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from real_models import MODELS, ROOT, prepare  # noqa: E402

RELEASE = os.path.join(ROOT, "target", "release")
MLIR_OPT = os.path.join(os.environ.get("STRATA_LLVM_BIN", "/usr/lib/llvm-22/bin"), "mlir-opt")


def timed(cmd):
    """Seconds and peak KiB of `cmd`, or None if it fails."""
    done = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return None
    secs, kib = done.stderr.strip().splitlines()[-1].split()
    return float(secs), int(kib)


def one(name, work, runs):
    out = prepare(name)
    model = os.path.join(out, "model.onnx")
    sess = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    inputs = []
    for k, i in enumerate(sess.get_inputs()):
        inputs += ["--input", f"{i.name}={os.path.join(out, f'input_{k}.npy')}"]
    graph = os.path.join(work, f"{name}.graph.mlir")
    tosa = os.path.join(work, f"{name}.tosa.mlir")
    done = subprocess.run([os.path.join(RELEASE, "strata"), "compile", model, "--stop-after", "graph", "-o", graph]
                          + inputs, capture_output=True, text=True)
    if done.returncode != 0:
        return f"| {name} | graph stage fails | | | | |"
    done = subprocess.run([os.path.join(RELEASE, "strata-translate"), "--export=tosa", graph, "-o", tosa],
                          capture_output=True, text=True)
    if done.returncode != 0:
        reason = done.stderr.strip().splitlines()[0].split("error: ", 1)[-1][:90]
        return f"| {name} | not exported: {reason} | | | | |"
    size = os.path.getsize(tosa) / 2**20
    oracle = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "tosa-oracle"), tosa,
                             "--strata", os.path.join(RELEASE, "strata")], capture_output=True, text=True)
    lines = oracle.stdout.splitlines()
    matched = sum("matches upstream" in l for l in lines)
    verdict = f"{matched} of {len(lines)} match" if lines else "oracle failed"
    ours = [timed([os.path.join(RELEASE, "strata"), "import", tosa, "-o", os.devnull]) for _ in range(runs)]
    theirs = [timed([MLIR_OPT, tosa, "-o", os.devnull]) for _ in range(runs)]
    if None in ours or None in theirs:
        return f"| {name} | {size:.1f} MiB | {verdict} | import failed | | |"
    t_ours = statistics.median(t for t, _ in ours)
    t_theirs = statistics.median(t for t, _ in theirs)
    m_ours = statistics.median(m for _, m in ours) / 1024
    m_theirs = statistics.median(m for _, m in theirs) / 1024
    return (f"| {name} | {size:.1f} MiB | {verdict} | {t_ours:.2f} s / {t_theirs:.2f} s "
            f"| {m_ours:.0f} / {m_theirs:.0f} MiB | {t_ours / t_theirs:.2f}× time, {m_ours / m_theirs:.2f}× memory |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    names = a.names or sorted(n for n in os.listdir(MODELS) if os.path.isdir(os.path.join(MODELS, n)))
    print("| model | TOSA | oracle (eager, graph per output) | strata import / mlir-opt | peak memory | ratio |")
    print("|---|---:|---|---:|---:|---|")
    with tempfile.TemporaryDirectory(prefix="tosa-models-") as work:
        for name in names:
            print(one(name, work, a.runs), flush=True)


if __name__ == "__main__":
    main()
