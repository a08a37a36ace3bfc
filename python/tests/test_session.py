"""The strata package against the example models (examples/onnx/): the
values onnxruntime computed (`*_expected_*.npy`), the exe modes against
each other, the errors, threads, and the plan cache on disk."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import strata

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "onnx"
MODELS = [
    ("mlp", "x", "probs"),
    ("convnet", "x", "probs"),
    ("encoder", "x", "y"),
]


def example(name: str) -> tuple[Path, np.ndarray, np.ndarray]:
    model = EXAMPLES / f"{name}.onnx"
    inputs = sorted(EXAMPLES.glob(f"{name}_input_*.npy"))
    expected = sorted(EXAMPLES.glob(f"{name}_expected_*.npy"))
    return model, np.load(inputs[0]), np.load(expected[0])


@pytest.mark.parametrize("name,input_name,output_name", MODELS)
@pytest.mark.parametrize("mode", ["graph", "eager", "hybrid"])
def test_every_mode_matches_onnxruntime(name: str, input_name: str, output_name: str, mode: str) -> None:
    model, x, want = example(name)
    session = strata.Session(model, mode=mode, threads=1)
    assert session.mode == mode
    assert [i.name for i in session.inputs] == [input_name]
    assert [o.name for o in session.outputs] == [output_name]
    (got,) = session.run(None, {input_name: x})
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    # Positional, and by output name.
    np.testing.assert_array_equal(session(x)[0], got)
    np.testing.assert_array_equal(session.run([output_name], {input_name: x})[0], got)


def test_a_model_describes_its_inputs_and_outputs() -> None:
    model = strata.import_model(EXAMPLES / "mlp.onnx")
    (x,) = model.inputs
    assert (x.name, x.dtype, x.shape) == ("x", "float32", ["batch", 16])
    assert x.type_text.startswith("tensor<?x16xf32")
    (probs,) = model.outputs
    assert (probs.name, probs.dtype) == ("probs", "float32")
    text = model.to_mlir()
    assert "func.func @main" in text and "graph.matmul" in text
    # From bytes, the same.
    again = strata.import_model((EXAMPLES / "mlp.onnx").read_bytes())
    assert [i.shape for i in again.inputs] == [["batch", 16]]
    assert "Model(" in repr(model) and "ValueInfo(" in repr(x)


def test_outputs_are_arrays_that_own_their_values() -> None:
    model, x, _ = example("mlp")
    (y,) = strata.Session(model, threads=1).run(None, {"x": x})
    assert isinstance(y, np.ndarray) and y.flags["C_CONTIGUOUS"] and y.flags["WRITEABLE"]
    # The array keeps its values alive after the session is gone.
    del model
    y[0, 0] = 7.0
    assert y[0, 0] == 7.0


def test_strided_and_fortran_ordered_inputs_are_read_as_contiguous_ones() -> None:
    model, x, want = example("mlp")
    session = strata.Session(model, threads=1)
    (contiguous,) = session.run(None, {"x": x})
    wide = np.zeros((x.shape[0], 32), np.float32)
    wide[:, ::2] = x
    strided = wide[:, ::2]
    assert not strided.flags["C_CONTIGUOUS"]
    fortran = np.asfortranarray(x)
    for layout in (strided, fortran, x.copy()):
        np.testing.assert_array_equal(session.run(None, {"x": layout})[0], contiguous)
    # The first run compiled, every later one hit the plan.
    assert session.report()["compiles"] == 1
    np.testing.assert_allclose(contiguous, want, rtol=1e-4, atol=1e-5)


class Exported:
    """An array that is not a numpy.ndarray but exports DLPack, as a
    torch tensor does."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def __dlpack__(self, **kwargs: object) -> object:
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.array.__dlpack_device__()


def test_dlpack_in_and_out() -> None:
    model, x, want = example("mlp")
    session = strata.Session(model, threads=1)
    (y,) = session.run(None, {"x": Exported(x)})
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    # The outputs export DLPack themselves (torch.from_dlpack takes them).
    again = np.from_dlpack(y)
    assert np.shares_memory(again, y)


def test_a_graph_session_compiles_once_per_shape() -> None:
    model, x, _ = example("mlp")
    session = strata.Session(model, threads=1)
    for batch in (4, 2, 4, 2):
        session.run(None, {"x": np.ones((batch, 16), np.float32)})
    report = session.report()
    assert report["exe_mode"] == "graph"
    assert report["compiles"] == 2
    assert report["cache"]["hits"] == 2


def test_errors_name_what_is_wrong() -> None:
    model, x, _ = example("mlp")
    session = strata.Session(model, threads=1)
    with pytest.raises(TypeError, match="input 'x' is float64, but the model takes float32"):
        session.run(None, {"x": x.astype(np.float64)})
    with pytest.raises(TypeError, match="input 'x' must be a numpy.ndarray, not list"):
        session.run(None, {"x": [[1.0] * 16]})
    with pytest.raises(strata.InputError, match="has shape \\[4, 15\\]"):
        session.run(None, {"x": np.ones((4, 15), np.float32)})
    with pytest.raises(strata.InputError, match="input 'x' is missing"):
        session.run(None, {})
    with pytest.raises(strata.InputError, match="the model has no input 'z'"):
        session.run(None, {"x": x, "z": x})
    with pytest.raises(strata.InputError, match="no output 'nope'"):
        session.run(["nope"], {"x": x})
    with pytest.raises(strata.InputError, match="expected 1 input"):
        session()
    with pytest.raises(ValueError, match="unknown exe mode 'fast'"):
        strata.Session(model, mode="fast")
    with pytest.raises(strata.ModelError, match="no-such.onnx"):
        strata.Session(ROOT / "no-such.onnx")
    with pytest.raises(strata.ModelError, match="not a valid ONNX model"):
        strata.import_model(b"not a model")
    with pytest.raises(TypeError, match="a model is a path, bytes or a strata.Model"):
        strata.Session(3)  # type: ignore[arg-type]
    # Every error is a StrataError (or a built-in TypeError/ValueError).
    assert issubclass(strata.InputError, strata.StrataError)
    assert issubclass(strata.ModelError, strata.StrataError)


def test_threads_share_a_session_and_run_separate_ones() -> None:
    model, _, _ = example("encoder")
    rng = np.random.default_rng(0)
    feeds = [rng.standard_normal((2, 8, 32)).astype(np.float32) for _ in range(4)]
    want = [strata.Session(model, mode="eager").run(None, {"x": f})[0] for f in feeds]
    shared = strata.Session(model, threads=1)
    results: dict[tuple[str, int], np.ndarray] = {}
    errors: list[BaseException] = []

    def work(kind: str, k: int) -> None:
        try:
            session = shared if kind == "shared" else strata.Session(model, threads=1)
            for _ in range(3):
                results[(kind, k)] = session.run(None, {"x": feeds[k]})[0]
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(kind, k)) for kind in ("shared", "own") for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for (kind, k), got in results.items():
        np.testing.assert_allclose(got, want[k], rtol=1e-4, atol=1e-5, err_msg=f"{kind} {k}")
    assert len(results) == 8


def test_a_second_session_loads_its_plan_from_the_cache_directory(tmp_path: Path) -> None:
    model, x, want = example("convnet")
    first = strata.Session(model, threads=1, cache_dir=tmp_path)
    (a,) = first.run(None, {"x": x})
    assert first.report()["cache"]["disk_writes"] == 1
    second = strata.Session(model, threads=1, cache_dir=tmp_path)
    (b,) = second.run(None, {"x": x})
    report = second.report()
    assert (report["compiles"], report["cache"]["disk_hits"]) == (0, 1)
    np.testing.assert_array_equal(a, b)


def test_hybrid_mode_reports_its_partition(tmp_path: Path) -> None:
    recipe = tmp_path / "r.toml"
    recipe.write_text('[capture]\nexclude_ops = ["softmax"]\n')
    model, x, want = example("mlp")
    session = strata.Session(model, recipe=recipe, mode="hybrid", threads=1)
    (y,) = session.run(None, {"x": x})
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    segments = session.report()["segments"]
    eager = [op for s in segments if s["kind"] == "eager" for op in s["ops"]]
    assert eager == ["graph.softmax"]


def test_a_recipe_may_be_a_dict_and_is_checked() -> None:
    model, x, want = example("mlp")
    recipe = {"runtime": {"exe_mode": "hybrid"}, "capture": {"exclude_ops": ["softmax"]}}
    session = strata.Session(model, recipe=recipe, threads=1)
    assert session.mode == "hybrid"
    np.testing.assert_allclose(session.run(None, {"x": x})[0], want, rtol=1e-4, atol=1e-5)
    with pytest.raises(strata.CompileError, match="exe_mode"):
        strata.Session(model, recipe={"runtime": {"exe_mode": "fast"}})
    with pytest.raises(TypeError, match="a recipe is a path or a dict"):
        strata.Session(model, recipe=3)  # type: ignore[arg-type]
    artifact = strata.compile(model, recipe={"codegen": {"threads": 1}}, dims={"batch": 4})
    assert artifact.inspect()["recipe_sha256"] != strata.compile(model, dims={"batch": 4}).inspect()["recipe_sha256"]


def test_bench_times_runs() -> None:
    model, x, _ = example("mlp")
    result = strata.bench(strata.Session(model, threads=1), {"x": x}, warmup=1, runs=5)
    assert result["runs"] == 5 and 0 < result["min_ms"] <= result["median_ms"] <= result["max_ms"]
    with pytest.raises(ValueError):
        strata.bench(strata.Session(model), {"x": x}, runs=0)


def test_the_type_stubs_check_with_mypy() -> None:
    usage = Path(__file__).with_name("typed_usage.py")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(usage)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MYPY_CACHE_DIR": os.devnull},
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_compile_save_load_and_run_an_artifact(tmp_path: Path) -> None:
    model, x, want = example("encoder")
    artifact = strata.compile(model, dims={"batch": 2, "seq": 8})
    info = artifact.inspect()
    assert info["model"] == "encoder.onnx" and info["target"] == "host"
    assert [i["name"] for i in info["inputs"]] == ["x"]
    assert info["inputs"][0]["shape"] == [2, 8, 32]
    path = tmp_path / "encoder.strata"
    artifact.save(path)
    assert path.read_bytes() == artifact.to_bytes()
    loaded = strata.Artifact.load(path)
    session = strata.Session(loaded, threads=1)
    assert session.mode == "graph"
    assert [(i.name, i.shape) for i in session.inputs] == [("x", [2, 8, 32])]
    (y,) = session.run(None, {"x": x})
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    assert session.report()["compiles"] == 0
    # Its shapes only, and what is wrong is said.
    with pytest.raises(strata.InputError, match="input 'of the artifact'"):
        session.run(None, {"x": np.zeros((1, 8, 32), np.float32)})
    with pytest.raises(ValueError, match="dimension 0 \\('batch'\\) needs a size"):
        strata.compile(model, dims={"seq": 8})
    # A whole shape by name does as well.
    by_shape = strata.compile(model, shapes={"x": [2, 8, 32]})
    assert by_shape.inspect()["inputs"][0]["shape"] == [2, 8, 32]
    with pytest.raises(ValueError, match="host"):
        strata.compile(model, target="sm_90", dims={"batch": 2, "seq": 8})
    damaged = tmp_path / "damaged.strata"
    damaged.write_bytes(path.read_bytes()[:100])
    with pytest.raises(strata.ModelError, match="truncated"):
        strata.Artifact.load(damaged)
