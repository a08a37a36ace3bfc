"""strata from Python.

strata compiles ONNX models (and MLIR in its ``graph`` dialect) for the CPU
and runs them in an exe mode: ``eager`` (op by op in the reference
interpreter), ``graph`` (one compiled plan per input shape) or ``hybrid``
(compiled segments with eager islands). The API has onnxruntime's shape::

    import numpy as np
    import strata

    session = strata.Session("model.onnx")            # graph mode
    (y,) = session.run(None, {"x": np.ones((2, 4), np.float32)})
    print(session.report()["compiles"])

See docs/python.md in the repository.
"""

from __future__ import annotations

import statistics
import time
from typing import Any, Mapping

from ._strata import (
    Artifact,
    CompileError,
    InputError,
    Model,
    ModelError,
    RunError,
    Session,
    StrataError,
    ValueInfo,
    compile,
    import_model,
)

__all__ = [
    "Artifact",
    "CompileError",
    "InputError",
    "Model",
    "ModelError",
    "RunError",
    "Session",
    "StrataError",
    "ValueInfo",
    "bench",
    "compile",
    "import_model",
]


def bench(
    session: Session,
    feeds: Mapping[str, Any],
    warmup: int = 3,
    runs: int = 20,
) -> dict[str, float]:
    """Times ``session.run(None, feeds)``: ``warmup`` runs first (the first
    compiles in graph mode), then ``runs`` timed ones. Returns the median,
    the minimum and the maximum in milliseconds."""
    if runs < 1:
        raise ValueError("runs must be at least 1")
    for _ in range(warmup):
        session.run(None, dict(feeds))
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, dict(feeds))
        times.append((time.perf_counter() - start) * 1e3)
    return {
        "median_ms": statistics.median(times),
        "min_ms": min(times),
        "max_ms": max(times),
        "runs": float(runs),
    }
