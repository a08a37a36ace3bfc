"""strata.torch: the torch.compile backend and ahead-of-time compilation,
against eager PyTorch on the CPU."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Iterator

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # models are built from configurations
torch = pytest.importorskip("torch")  # scripts/setup-python installs it; a skip says so

import torch.nn as nn  # noqa: E402
from torch._dynamo.testing import CompileCounterWithBackend  # noqa: E402

import strata  # noqa: E402
import strata.torch as st  # noqa: E402
from torch_models import MLP, ConvNet, transformer_block  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_dynamo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("STRATA_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    torch.manual_seed(0)
    yield
    torch._dynamo.reset()


def counted(model: nn.Module, **options: Any) -> tuple[Any, CompileCounterWithBackend]:
    counter = CompileCounterWithBackend("strata")
    if options:
        counter.backend = lambda gm, ex: st.backend(gm, ex, options)  # type: ignore[assignment]
    return torch.compile(model, backend=counter), counter


def test_the_backend_is_registered_by_name() -> None:
    from torch._dynamo import list_backends

    assert "strata" in list_backends(exclude_tags=())


@pytest.mark.parametrize(
    "make, shape",
    [(MLP, (4, 16)), (ConvNet, (2, 3, 16, 16)), (transformer_block, (2, 7, 32))],
    ids=["mlp", "convnet", "transformer"],
)
def test_models_match_eager_pytorch(make: Any, shape: tuple[int, ...]) -> None:
    torch.backends.mha.set_fastpath_enabled(False)  # the fast path is one fused op
    model = make().eval()
    x = torch.randn(*shape)
    compiled, counter = counted(model, strict=True)
    with torch.no_grad():
        want = model(x)
        torch.testing.assert_close(compiled(x), want, rtol=1e-4, atol=1e-5)
        torch.testing.assert_close(compiled(x), want, rtol=1e-4, atol=1e-5)
    assert counter.frame_count == 1
    live = st.partitions()
    assert live and live[-1].session.report()["compiles"] == 1
    # parameters and buffers are constants of the partition: x is its only input
    assert len(live[-1].feeds) == 1


def test_pre_norm_transformer_and_half_precision() -> None:
    torch.backends.mha.set_fastpath_enabled(False)
    model = transformer_block(norm_first=True).eval()
    x = torch.randn(2, 5, 32)
    compiled, _ = counted(model, strict=True)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    mlp = MLP().eval().to(torch.float16)
    x16 = torch.randn(4, 16, dtype=torch.float16)
    compiled16, _ = counted(mlp, strict=True)
    with torch.no_grad():
        got = compiled16(x16)
        assert got.dtype == torch.float16
        torch.testing.assert_close(got, mlp(x16), rtol=2e-2, atol=2e-2)


def test_ops_strata_does_not_take_stay_with_pytorch() -> None:
    class Cumulative(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(8, 8)

        def forward(self, x: Any) -> Any:
            return torch.relu(torch.cumsum(self.fc(x), dim=1)) * 2

    model = Cumulative().eval()
    x = torch.randn(3, 8)
    compiled, _ = counted(model)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    ops = sorted(op for p in st.partitions() for op in p.ops)
    assert "aten.cumsum.default" not in ops and "aten.addmm.default" in ops
    torch._dynamo.reset()
    strict, _ = counted(model, strict=True)
    with torch.no_grad(), pytest.raises(Exception, match=r"ops left to PyTorch: aten\.cumsum"):
        strict(x)


def test_the_fused_transformer_fast_path_stays_with_pytorch() -> None:
    torch.backends.mha.set_fastpath_enabled(True)
    try:
        model = transformer_block().eval()
        x = torch.randn(2, 5, 32)
        compiled, _ = counted(model)
        with torch.no_grad():
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    finally:
        torch.backends.mha.set_fastpath_enabled(False)


def test_a_graph_break_compiles_two_graphs() -> None:
    model = MLP().eval()

    def forward(x: Any) -> Any:
        y = model(x)
        torch._dynamo.graph_break()
        return torch.tanh(y) + 1

    counter = CompileCounterWithBackend("strata")
    compiled = torch.compile(forward, backend=counter)
    x = torch.randn(4, 16)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), torch.tanh(model(x)) + 1, rtol=1e-4, atol=1e-5)
    assert counter.frame_count == 2


def test_a_dynamic_batch_compiles_once_in_dynamo() -> None:
    model = ConvNet().eval()
    compiled, counter = counted(model, strict=True)
    with torch.no_grad():
        for batch in (2, 3, 5, 3):
            x = torch.randn(batch, 3, 16, 16)
            if batch == 3:
                torch._dynamo.mark_dynamic(x, 0)
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    # one graph for batch 2, one dynamic graph for every other batch
    assert counter.frame_count == 2
    report = st.partitions()[-1].session.report()
    assert report["compiles"] == 2  # batches 3 and 5: one plan per size


def test_a_dynamic_batch_is_served_from_buckets() -> None:
    model = MLP().eval()
    compiled, counter = counted(model, strict=True, buckets=[4, 8])
    with torch.no_grad():
        for batch in (3, 4, 5, 7):
            x = torch.randn(batch, 16)
            torch._dynamo.mark_dynamic(x, 0)
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    assert counter.frame_count == 1
    assert st.partitions()[-1].session.report()["compiles"] == 2  # buckets 4 and 8


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown option 'stric'"):
        st.Options.parse({"stric": True})
    with pytest.raises(ValueError, match="mode 'fast'"):
        st.Options.parse({"mode": "fast"})


def test_hybrid_mode_and_a_recipe() -> None:
    model = MLP().eval()
    compiled, _ = counted(model, mode="hybrid", recipe={"codegen": {"threads": 1}})
    x = torch.randn(4, 16)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    assert st.partitions()[-1].session.mode == "hybrid"


def test_ahead_of_time_compile() -> None:
    model = ConvNet().eval()
    x = torch.randn(2, 3, 16, 16)
    compiled = st.compile(model, (x,))
    assert compiled.partitions == 1 and compiled.torch_ops == []
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    batch = torch.export.Dim("batch", min=1, max=64)
    dynamic = st.compile(model, (x,), dynamic_shapes=({0: batch},), buckets=[4, 8], strict=True)
    with torch.no_grad():
        for n in (3, 4, 5):
            xn = torch.randn(n, 3, 16, 16)
            torch.testing.assert_close(dynamic(xn), model(xn), rtol=1e-4, atol=1e-5)
    assert st.partitions()[-1].session.report()["compiles"] == 2  # buckets 4 and 8


def test_a_second_process_loads_its_plans_from_the_cache(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import torch, torch.nn as nn, strata.torch as st
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).eval()
        compiled = torch.compile(model, backend="strata", options={{"cache_dir": {str(tmp_path)!r}}})
        with torch.no_grad():
            x = torch.randn(4, 16)
            torch.testing.assert_close(compiled(x), model(x))
        report = st.partitions()[-1].session.report()
        print(report["compiles"], report["cache"]["disk_hits"])
        """
    )
    runs = [
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
    assert runs[0].stdout.split() == ["1", "0"]
    assert runs[1].stdout.split() == ["0", "1"]


def test_training_graphs_are_left_to_pytorch() -> None:
    model = MLP().train()
    x = torch.randn(4, 16)
    compiled, _ = counted(model)
    y = compiled(x)
    y.sum().backward()
    assert model.fc1.weight.grad is not None
    torch._dynamo.reset()
    strict, _ = counted(model, strict=True)
    with pytest.raises(Exception, match="needs gradients"):
        strict(x)
    assert isinstance(strata.StrataError("x"), Exception)


@pytest.mark.parametrize("arch", ["bert", "gpt2"])
def test_hugging_face_models_match_eager_pytorch(arch: str) -> None:
    transformers = pytest.importorskip("transformers")
    if arch == "bert":
        config = transformers.BertConfig(
            vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=64, max_position_embeddings=64,
        )
        model = transformers.BertModel(config).eval()
    else:
        config = transformers.GPT2Config(
            vocab_size=100, n_embd=32, n_layer=2, n_head=4, n_positions=64,
            bos_token_id=0, eos_token_id=0,
        )
        model = transformers.GPT2Model(config).eval()
    ids = torch.randint(0, 100, (2, 9))
    compiled, counter = counted(model, strict=True)
    with torch.no_grad():
        want = model(ids).last_hidden_state
        torch.testing.assert_close(compiled(ids).last_hidden_state, want, rtol=1e-4, atol=1e-5)
    assert counter.frame_count == 1


def test_another_instance_through_the_same_graph_gets_its_own_parameters() -> None:
    first, second = MLP().eval(), MLP().eval()
    x = torch.randn(4, 16)
    with torch.no_grad():
        a = torch.compile(first, backend="strata")
        b = torch.compile(second, backend="strata")
        torch.testing.assert_close(a(x), first(x), rtol=1e-4, atol=1e-5)
        with pytest.warns(UserWarning, match="parameters differ from the ones compiled in"):
            torch.testing.assert_close(b(x), second(x), rtol=1e-4, atol=1e-5)
        first.fc2.bias.add_(1.0)  # in place, after compiling
        torch.testing.assert_close(a(x), first(x), rtol=1e-4, atol=1e-5)


def test_a_buffer_updated_in_forward_is_not_frozen() -> None:
    class Counter(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("steps", torch.zeros(()))

        def forward(self, x: Any) -> Any:
            self.steps += 1
            return x * self.steps

    model, reference = Counter(), Counter()
    compiled, _ = counted(model)
    x = torch.randn(3)
    with torch.no_grad():
        for _ in range(3):
            torch.testing.assert_close(compiled(x), reference(x))
    with pytest.raises(strata.CompileError, match="changes buffers or inputs in place"):
        st.compile(Counter(), (x,))


def test_any_arange_and_scalar_arguments_follow_torch() -> None:
    class Mixed(nn.Module):
        def forward(self, x: Any) -> Any:
            positions = torch.arange(x.shape[1], dtype=x.dtype)
            nonzero = torch.any(x, dim=1, keepdim=True)
            y = torch.add(x, positions, alpha=3) * nonzero
            return nn.functional.hardtanh(y, min_val=-2.0, max_val=2.5), nonzero

    model = Mixed()
    compiled, counter = counted(model, strict=True)
    x = torch.tensor([[0.0, 0.0, 0.0, 0.0], [float("nan"), 0.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 0.0]])
    with torch.no_grad():
        got, want = compiled(x), model(x)
        torch.testing.assert_close(got, want, equal_nan=True)
        wider = torch.randn(2, 7)
        torch._dynamo.mark_dynamic(wider, 1)
        torch.testing.assert_close(compiled(wider), model(wider))
    assert counter.frame_count == 2
