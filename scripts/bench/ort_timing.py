"""onnxruntime's side of the benchmarks (eager.py, cpu.py): a CPU session
with all graph optimizations, and the median of timed session.run calls."""

import time

import numpy as np
import onnxruntime as ort


def session(model, threads, quiet=False):
    """A CPU-provider session of `model` on `threads` intra-op threads."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if quiet:
        opts.log_severity_level = 3
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])


def median_run_ms(sess, feed, runs, warmup):
    """The median of `runs` timed `sess.run(feed)` calls after `warmup`, in ms."""
    for _ in range(warmup):
        sess.run(None, feed)
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        sess.run(None, feed)
        samples.append((time.perf_counter() - t) * 1e3)
    return float(np.median(samples))
