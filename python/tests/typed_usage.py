"""Checked by mypy --strict in test_session.py: the stubs type what a
user writes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import strata


def first_output(path: str, x: npt.NDArray[np.float32]) -> npt.NDArray[np.generic]:
    model = strata.import_model(path)
    names: list[str] = [i.name for i in model.inputs]
    session = strata.Session(model, mode="graph", threads=1)
    outputs = session.run(None, {names[0]: x})
    report: dict[str, object] = session.report()
    assert "compiles" in report
    timing: dict[str, float] = strata.bench(session, {names[0]: x}, runs=1)
    assert timing["runs"] == 1.0
    return outputs[0]


def ahead_of_time(path: str, out: str) -> dict[str, object]:
    artifact = strata.compile(path, dims={"batch": 4})
    artifact.save(out)
    session = strata.Session(strata.Artifact.load(out))
    assert session.mode == "graph"
    return artifact.inspect()


def errors() -> type[Exception]:
    return strata.StrataError
