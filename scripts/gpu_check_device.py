#!/usr/bin/env python3
"""The device half of scripts/gpu-check: run on the GPU machine, in the
directory `scripts/gpu-check prepare` wrote (bin/, examples/, node/, bench/).

Checks every bundle with strata-run (plain launches and a CUDA graph), times
the benchmark artifacts, measures PyTorch's baselines on the same shapes
(a device-to-device copy, cuBLAS through torch.matmul, the encoder block in
eager mode and under torch.compile, onnxruntime's CUDA execution provider
when it is installed) and writes everything to results.json.

Usage: python3 gpu_check_device.py DIR
"""

import json
import os
import subprocess
import sys
import time

DIR = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
BIN = os.path.join(DIR, "bin", "strata-run")


def run(args, timeout=600):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)


def check(kind):
    root = os.path.join(DIR, kind)
    bundles = sorted(os.path.join(root, b) for b in os.listdir(root)) if os.path.isdir(root) else []
    if not bundles:
        return {"bundles": 0, "passed": 0, "failures": []}
    # --rtol/--atol: the GPU's math library and reduction order differ from
    # the interpreter's (docs/gpu.md).
    p = run([BIN, "check", "--rtol", "1e-3", "--atol", "1e-4", *bundles])
    lines = p.stdout.splitlines()
    failures = [l for l in lines if l.startswith("FAIL ")]
    passed = sum(1 for l in lines if l.startswith("PASS "))
    return {"bundles": len(bundles), "passed": passed, "failures": failures[:50], "stderr": p.stderr[-2000:]}


def refusals():
    """Each refusal bundle must fail with eager mode's message and exit 1,
    with plain launches and from a CUDA graph."""
    root = os.path.join(DIR, "refusals")
    names = sorted(os.listdir(root)) if os.path.isdir(root) else []
    out = {"bundles": len(names), "passed": 0, "failures": []}
    for name in names:
        b = os.path.join(root, name)
        with open(os.path.join(b, "expected-error.txt")) as f:
            want = f.read().strip()
        inputs = ["--input", "t=" + os.path.join(b, "t.npy"), "--input", "i=" + os.path.join(b, "i.npy")]
        failed = None
        for graph in ([], ["--cuda-graph"]):
            p = run([BIN, "run", os.path.join(b, "model.strata"), *inputs, *graph])
            if p.returncode != 1 or want not in p.stderr:
                failed = f"{name} {' '.join(graph)}: exit {p.returncode}, wanted 1 and '{want}': {p.stderr.strip()[-500:]}"
                break
        if failed:
            out["failures"].append(failed)
        else:
            out["passed"] += 1
    return out


def bench(name, runs=20):
    p = run([BIN, "bench", os.path.join(DIR, "bench", name + ".strata"), "--runs", str(runs)])
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout).strip()[-2000:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9 if ms and ms > 0 else None


def torch_baselines(results):
    try:
        import torch
    except ImportError as e:
        return {"error": f"no PyTorch: {e}"}
    dev = torch.device("cuda")
    out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0)}

    def timed(fn, runs=20, warmup=5):
        for _ in range(warmup):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        times.sort()
        return times[len(times) // 2]

    # Device-to-device copy of the elementwise benchmark's bytes.
    x = torch.rand(8192, 8192, device=dev)
    y = torch.empty_like(x)
    ms = timed(lambda: y.copy_(x))
    out["copy_ms"] = ms
    out["copy_gbps"] = gbps(2 * x.numel() * 4, ms)
    del x, y
    # cuBLAS f16 matmul at 4096^3.
    a = torch.randn(4096, 4096, device=dev, dtype=torch.float16)
    b = torch.randn(4096, 4096, device=dev, dtype=torch.float16)
    ms = timed(lambda: torch.matmul(a, b))
    out["cublas_f16_4096_ms"] = ms
    out["cublas_f16_4096_tflops"] = 2 * 4096**3 / (ms * 1e-3) / 1e12
    del a, b
    # The encoder block: post-LayerNorm, d_model 32, 2 heads, FFN 64, GELU
    # (erf), batch 8, sequence 128, as examples/onnx/encoder.onnx (random
    # weights of the same shapes: the latency does not depend on values).
    layer = torch.nn.TransformerEncoderLayer(
        d_model=32, nhead=2, dim_feedforward=64, dropout=0.0, activation="gelu", batch_first=True
    ).to(dev).eval()
    xe = torch.randn(8, 128, 32, device=dev)
    with torch.no_grad():
        out["torch_encoder_eager_ms"] = timed(lambda: layer(xe))
        try:
            compiled = torch.compile(layer)
            out["torch_encoder_compile_ms"] = timed(lambda: compiled(xe))
        except Exception as e:  # noqa: BLE001 - report any compile failure
            out["torch_encoder_compile_error"] = str(e)[-500:]
    return out


def ort_baseline():
    try:
        import numpy as np
        import onnxruntime as ort
    except ImportError as e:
        return {"error": f"no onnxruntime: {e}"}
    if "CUDAExecutionProvider" not in ort.get_available_providers():
        return {"error": "onnxruntime has no CUDAExecutionProvider here"}
    model = os.path.join(DIR, "encoder.onnx")
    if not os.path.exists(model):
        return {"error": "encoder.onnx not copied"}
    s = ort.InferenceSession(model, providers=["CUDAExecutionProvider"])
    x = np.random.default_rng(0).standard_normal((8, 128, 32)).astype(np.float32)
    name = s.get_inputs()[0].name
    for _ in range(5):
        s.run(None, {name: x})
    times = []
    for _ in range(20):
        t = time.perf_counter()
        s.run(None, {name: x})
        times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    return {"ort_cuda_encoder_ms": times[len(times) // 2], "note": "wall time, host inputs and outputs"}


def main():
    started = time.time()
    probe = run([BIN, "probe"])
    results = {"probe": probe.stdout.strip(), "checks": {}, "bench": {}}
    for kind in ("examples", "node"):
        results["checks"][kind] = check(kind)
    results["checks"]["refusals"] = refusals()
    sizes = {
        "elementwise": 2 * 8192 * 8192 * 4,
        "softmax": 2 * 32768 * 1024 * 4,
        "layer_norm": 2 * 32768 * 1024 * 4,
    }
    for name in ("elementwise", "softmax", "layer_norm", "matmul_f16", "encoder"):
        r = bench(name)
        if name in sizes and "median_ms" in r:
            r["gbps"] = gbps(sizes[name], r["median_ms"])
        if name == "matmul_f16" and "median_ms" in r:
            r["tflops"] = 2 * 4096**3 / (r["median_ms"] * 1e-3) / 1e12
        results["bench"][name] = r
    results["torch"] = torch_baselines(results)
    results["onnxruntime"] = ort_baseline()
    t, b = results["torch"], results["bench"]
    goals = {}
    if "copy_gbps" in t and b["elementwise"].get("gbps"):
        goals["elementwise_vs_copy"] = b["elementwise"]["gbps"] / t["copy_gbps"]
    if "cublas_f16_4096_tflops" in t and b["matmul_f16"].get("tflops"):
        goals["matmul_f16_vs_cublas"] = b["matmul_f16"]["tflops"] / t["cublas_f16_4096_tflops"]
    e = b["encoder"]
    if e.get("median_ms") and e.get("median_ms_cuda_graph"):
        goals["encoder_cuda_graph_speedup"] = e["median_ms"] / e["median_ms_cuda_graph"]
    results["goals"] = goals
    results["seconds"] = time.time() - started
    path = os.path.join(DIR, "results.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=2)
    c = results["checks"]
    print(f"examples: {c['examples']['passed']}/{c['examples']['bundles']}, node tests: {c['node']['passed']}/{c['node']['bundles']}, refusals: {c['refusals']['passed']}/{c['refusals']['bundles']}")
    print(json.dumps(goals, indent=2))
    print(f"wrote {path}")
    failed = any(c[k]["passed"] != c[k]["bundles"] for k in c)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
