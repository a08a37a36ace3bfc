#!/usr/bin/env python3
"""torch.compile(backend="strata") against eager PyTorch and torch.compile's
default backend (inductor) on the CPU, for the three torch.nn models of the
strata.torch tests: latency (median of RUNS calls after warm-up) and compile
time (the first call, from a cold cache: Dynamo's and the backend's work).

    .local/python-venv/bin/python scripts/bench/torch_compile.py [--runs 200] [--threads 1]

Prints a Markdown table (docs/performance.md keeps the last one).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

# Cold compiles for both backends: fresh caches for this run.
os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="inductor-bench-")
os.environ["STRATA_CACHE_DIR"] = tempfile.mkdtemp(prefix="strata-bench-")

import torch  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "tests"))

from torch_models import MLP, ConvNet, transformer_block  # noqa: E402

import strata.torch  # noqa: E402,F401  (registers nothing: the entry point does)

MODELS: list[tuple[str, Callable[[], torch.nn.Module], tuple[int, ...]]] = [
    ("MLP 16-32-8, batch 32", MLP, (32, 16)),
    ("convnet, 8x3x32x32", ConvNet, (8, 3, 32, 32)),
    ("transformer block d=32, 8x64", transformer_block, (8, 64, 32)),
]


def median_us(fn: Callable[[], Any], runs: int) -> float:
    for _ in range(max(3, runs // 10)):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def first_call_s(compiled: Callable[[Any], Any], x: torch.Tensor) -> float:
    start = time.perf_counter()
    compiled(x)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.backends.mha.set_fastpath_enabled(False)
    print(f"torch {torch.__version__}, {args.threads} thread(s), median of {args.runs} runs\n")
    print("| model | eager | inductor | strata | strata / eager | strata / inductor | compile: inductor | compile: strata |")
    print("|---|---|---|---|---|---|---|---|")
    for name, make, shape in MODELS:
        torch.manual_seed(0)
        model = make().eval()
        x = torch.randn(*shape)
        with torch.no_grad():
            eager = median_us(lambda: model(x), args.runs)
            results = {}
            for backend in ("inductor", "strata"):
                torch._dynamo.reset()
                options = {"threads": args.threads} if backend == "strata" else None
                compiled = torch.compile(model, backend=backend, options=options)
                compile_s = first_call_s(compiled, x)
                torch.testing.assert_close(compiled(x), model(x), rtol=1e-3, atol=1e-4)
                results[backend] = (median_us(lambda: compiled(x), args.runs), compile_s)
        ind, ind_c = results["inductor"]
        sta, sta_c = results["strata"]
        print(
            f"| {name} | {eager:.1f} µs | {ind:.1f} µs | {sta:.1f} µs | {sta / eager:.2f} | "
            f"{sta / ind:.2f} | {ind_c:.2f} s | {sta_c:.2f} s |"
        )


if __name__ == "__main__":
    main()
