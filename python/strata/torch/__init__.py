"""strata as a ``torch.compile`` backend, and ahead of time for a module.

::

    import torch, strata.torch

    fast = torch.compile(model, backend="strata")         # the entry point
    fast = torch.compile(model, backend="strata", options={"strict": True})
    aot = strata.torch.compile(model, (example,))          # torch.export, now

How a graph gets here: TorchDynamo captures a graph; ``aot_autograd`` with
PyTorch's core ATen decompositions turns it into ATen ops (fake tensors carry
dtypes and symbolic sizes). The ATen graph is partitioned: the ops strata
takes (``_onnx.SUPPORTED``) are fused into partitions, each converted to an
ONNX model (parameters and buffers frozen into it as constants) and run by a
``strata.Session``; the rest stays with PyTorch. A graph that strata does not
take whole is therefore never an error, unless ``strict`` asks for one.

Options (``options={...}`` of ``torch.compile``, keywords of ``compile``):

``strict`` (False)
    Raise ``strata.CompileError`` when an op stays with PyTorch or a
    partition fails to compile, instead of leaving it to PyTorch.
``mode`` ("graph")
    The sessions' exe mode: ``graph``, ``hybrid`` or ``eager``.
``recipe`` (None)
    A recipe (a path or a dict) for every session.
``buckets`` (None)
    Shape buckets for the symbolic sizes of dynamic shapes: one list of
    sizes (or a string such as ``"pow2:1..64"``) for every symbol, or a
    dict from symbol to sizes. Without it a session compiles a plan per
    size it sees (and keeps them).
``cache_dir`` (``$STRATA_CACHE_DIR`` or ``~/.cache/strata``)
    The sessions' disk cache: a second process that compiles the same graph
    loads its plans instead of compiling them. ``False`` keeps plans in
    memory only.
``threads`` (None)
    The sessions' worker threads (the recipe's by default).

Inference only: the backend compiles the forward graph of a module called
under ``torch.no_grad()`` (or with inputs that need no gradient); a graph
that must be differentiated is left to PyTorch (``strict`` refuses it).
"""

from __future__ import annotations

import itertools
import os
import warnings
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import torch
from torch._decomp import core_aten_decompositions
from torch._subclasses.fake_tensor import unset_fake_temporarily
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

import strata

from ._onnx import Unsupported, convert, node_supported, tensor_array

__all__ = ["backend", "compile", "CompiledModule", "Options", "StrataPartition", "partitions"]

# The partitions compiled in this process that are still alive.
_LIVE: "weakref.WeakSet[StrataPartition]" = weakref.WeakSet()


def partitions() -> list["StrataPartition"]:
    """The partitions that strata runs in this process (alive ones), oldest
    first: each has ``.session`` (its ``report()``) and ``.ops``."""
    return sorted(_LIVE, key=lambda p: p.serial)

_KNOWN = {"strict", "mode", "recipe", "buckets", "cache_dir", "threads"}


@dataclass
class Options:
    """What ``options={...}`` may say (see the module's documentation)."""

    strict: bool = False
    mode: str = "graph"
    recipe: str | os.PathLike[str] | Mapping[str, Any] | None = None
    buckets: Any = None
    cache_dir: str | os.PathLike[str] | None = None
    threads: int | None = None

    @staticmethod
    def parse(options: Mapping[str, Any] | None) -> "Options":
        options = dict(options or {})
        unknown = sorted(set(options) - _KNOWN)
        if unknown:
            raise ValueError(
                f"strata backend: unknown option {', '.join(map(repr, unknown))}; "
                f"the options are {', '.join(sorted(_KNOWN))}"
            )
        parsed = Options(**options)
        if parsed.mode not in ("graph", "hybrid", "eager"):
            raise ValueError(f"strata backend: mode {parsed.mode!r} is not graph, hybrid or eager")
        if "cache_dir" not in options:
            default = os.environ.get("STRATA_CACHE_DIR") or str(Path.home() / ".cache" / "strata")
            parsed.cache_dir = default
        elif options["cache_dir"] is False:
            parsed.cache_dir = None
        return parsed

    def recipe_for(self, symbols: Sequence[str]) -> str | os.PathLike[str] | Mapping[str, Any] | None:
        if self.buckets is None or not symbols:
            return self.recipe
        if self.recipe is not None and not isinstance(self.recipe, Mapping):
            raise ValueError("strata backend: with 'buckets', give 'recipe' as a dict")
        if isinstance(self.buckets, Mapping):
            buckets = {s: self.buckets[s] for s in symbols if s in self.buckets}
        else:
            buckets = {s: self.buckets for s in symbols}
        recipe = {k: dict(v) if isinstance(v, Mapping) else v for k, v in dict(self.recipe or {}).items()}
        capture = recipe.setdefault("capture", {})
        capture["buckets"] = {**capture.get("buckets", {}), **buckets}
        return recipe


class _StrataSupport(OperatorSupportBase):
    def is_node_supported(self, submodules: Mapping[str, torch.nn.Module], node: torch.fx.Node) -> bool:
        return node_supported(node)


def _to_numpy(t: torch.Tensor) -> np.ndarray:
    if t.requires_grad:
        t = t.detach()
    if t.dtype == torch.bfloat16 or not t.is_contiguous():
        return tensor_array(t)
    return t.numpy()


def _to_torch(a: np.ndarray) -> torch.Tensor:
    if a.dtype.name == "bfloat16":
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


_SERIAL = itertools.count()


class StrataPartition(torch.nn.Module):
    """One partition of an ATen graph, run by a strata session.

    It takes the partition's arguments as PyTorch passes them (frozen
    parameters among them, which it skips) and returns its results as
    tensors that own strata's output buffers."""

    def __init__(
        self,
        session: strata.Session,
        feeds: list[int],
        single: bool,
        fallback: torch.fx.GraphModule,
        strict: bool,
        frozen: Mapping[int, torch.Tensor] | None = None,
    ) -> None:
        super().__init__()
        self.serial = next(_SERIAL)
        self.ops = sorted({str(n.target) for n in fallback.graph.nodes if n.op == "call_function"})
        """The ATen ops strata runs here."""
        _LIVE.add(self)
        self.session = session
        self.feeds = feeds
        self.single = single
        self.fallback = fallback
        self.strict = strict
        self.failed = False
        # The arguments frozen into the model: the tensor each was, and its
        # version counter then (an in-place change bumps it).
        self.frozen = [(i, t.data_ptr(), t._version) for i, t in (frozen or {}).items()]
        self.stale_warned = False

    def _frozen_still_hold(self, args: tuple[Any, ...]) -> bool:
        for index, pointer, version in self.frozen:
            arg = args[index]
            if arg.data_ptr() != pointer or arg._version != version:
                return False
        return True

    def forward(self, *args: Any) -> Any:
        if self.failed:
            return self.fallback(*args)
        if not self._frozen_still_hold(args):
            # Another module's parameters through the same Dynamo graph,
            # or a parameter changed in place: the frozen constants are
            # stale, PyTorch runs this partition with the real ones.
            if not self.stale_warned:
                warnings.warn(
                    "strata: parameters differ from the ones compiled in (another module "
                    "instance, or changed in place); PyTorch runs this partition "
                    "(torch._dynamo.reset() recompiles)",
                    stacklevel=2,
                )
                self.stale_warned = True
            return self.fallback(*args)
        arrays = []
        for index in self.feeds:
            arg = args[index]
            if isinstance(arg, torch.Tensor):
                arrays.append(_to_numpy(arg))
            else:
                arrays.append(np.asarray([int(arg)], dtype=np.int64))
        try:
            outputs = self.session(*arrays)
        except (strata.CompileError, strata.ModelError) as error:
            if self.strict:
                raise
            warnings.warn(f"strata: a partition is left to PyTorch: {error}", stacklevel=2)
            self.failed = True
            return self.fallback(*args)
        results = tuple(_to_torch(o) for o in outputs)
        return results[0] if self.single else results


@dataclass
class _Stats:
    partitions: int = 0
    strata_ops: int = 0
    torch_ops: list[str] = field(default_factory=list)


def _is_size(node: torch.fx.Node) -> bool:
    return isinstance(node.meta.get("val"), (int, torch.SymInt, torch.SymFloat, torch.SymBool))


def _compile_graph(
    gm: torch.fx.GraphModule,
    frozen: Mapping[int, torch.Tensor],
    options: Options,
) -> tuple[torch.fx.GraphModule, _Stats]:
    """Partitions an ATen graph and gives each partition to a strata session.
    ``frozen`` maps placeholder positions to the parameter values behind them."""
    stats = _Stats()
    # by name: fusing copies the graph (new nodes, the same names)
    placeholders = {n.name: i for i, n in enumerate(n for n in gm.graph.nodes if n.op == "placeholder")}
    compute = [n for n in gm.graph.nodes if n.op == "call_function"]
    # arithmetic on symbolic sizes stays in Python: its results are inputs
    stats.torch_ops = sorted(
        {str(n.target) for n in compute if not node_supported(n) and not _is_size(n)}
    )
    if stats.torch_ops and options.strict:
        raise strata.CompileError(
            "strata backend (strict): ops left to PyTorch: " + ", ".join(stats.torch_ops)
        )
    partitioner = CapabilityBasedPartitioner(gm, _StrataSupport(), allows_single_node_partition=True)
    partitions = partitioner.propose_partitions()
    if not partitions:
        return gm, stats
    fused = partitioner.fuse_partitions(partitions)
    for node in list(fused.graph.nodes):
        if node.op != "call_module" or not str(node.target).startswith("fused_"):
            continue
        sub = fused.get_submodule(str(node.target))
        assert isinstance(sub, torch.fx.GraphModule)
        sub_frozen = {
            i: frozen[placeholders[arg.name]]
            for i, arg in enumerate(node.args)
            if isinstance(arg, torch.fx.Node)
            and arg.op == "placeholder"
            and placeholders.get(arg.name) in frozen
        }
        try:
            # the compiler runs under Dynamo's fake mode: constants are real
            with unset_fake_temporarily():
                converted = convert(sub, sub_frozen, name=str(node.target))
            symbols = sorted(
                {d.dim_param for i in converted.model.graph.input for d in i.type.tensor_type.shape.dim if d.dim_param}
            )
            session = strata.Session(
                converted.model.SerializeToString(),
                recipe=options.recipe_for(symbols),
                mode=options.mode,
                threads=options.threads,
                cache_dir=options.cache_dir,
            )
        except Exception as error:  # noqa: BLE001 - a partition left to PyTorch, unless strict
            if options.strict:
                raise strata.CompileError(f"strata backend (strict): {node.target}: {error}") from error
            warnings.warn(f"strata: {node.target} is left to PyTorch: {error}", stacklevel=2)
            continue
        output = next(n for n in sub.graph.nodes if n.op == "output")
        single = not isinstance(output.args[0], (list, tuple))
        partition = StrataPartition(session, converted.feeds, single, sub, options.strict, sub_frozen)
        setattr(fused, str(node.target), partition)
        stats.partitions += 1
        stats.strata_ops += sum(1 for n in sub.graph.nodes if n.op == "call_function")
    fused.recompile()
    return fused, stats


def _frozen_positions(gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> dict[int, torch.Tensor]:
    """The inputs of a Dynamo graph that are parameters or buffers of a
    module (by Dynamo's source of each placeholder), with their values."""
    frozen: dict[int, torch.Tensor] = {}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for index, (node, value) in enumerate(zip(placeholders, example_inputs)):
        grapharg = node.meta.get("grapharg")
        source = getattr(getattr(grapharg, "source", None), "name", "")
        source = source() if callable(source) else source
        if isinstance(value, torch.Tensor) and (
            isinstance(value, torch.nn.Parameter) or "._parameters[" in source or "._buffers[" in source
        ):
            frozen[index] = value
    return frozen


def backend(
    gm: torch.fx.GraphModule, example_inputs: list[Any], options: Mapping[str, Any] | None = None
) -> Callable[..., Any]:
    """The ``torch.compile`` backend (``backend="strata"``)."""
    from torch._dynamo.backends.common import aot_autograd
    from torch._functorch.aot_autograd import make_boxed_func

    parsed = Options.parse(options)
    frozen = _frozen_positions(gm, example_inputs)

    def inference_compiler(aten_gm: torch.fx.GraphModule, aten_inputs: Sequence[Any]) -> Callable[..., Any]:
        count = sum(1 for n in aten_gm.graph.nodes if n.op == "placeholder")
        # aot_autograd's inference graph takes Dynamo's inputs in order;
        # an input the graph changes (a buffer updated in place) is not frozen
        mapping = frozen if count == len(example_inputs) else {}
        tracing = torch._guards.TracingContext.try_get()
        metadata = getattr(tracing, "fw_metadata", None)
        if metadata is None:
            mapping = {i: t for i, t in mapping.items() if isinstance(t, torch.nn.Parameter)}
        else:
            infos = metadata.input_info
            mapping = {
                i: t
                for i, t in mapping.items()
                if i < len(infos) and not (infos[i].mutates_data or infos[i].mutates_metadata)
            }
        compiled, _ = _compile_graph(aten_gm, mapping, parsed)
        return make_boxed_func(compiled)

    def refuse_training(aten_gm: torch.fx.GraphModule, aten_inputs: Sequence[Any]) -> Callable[..., Any]:
        if parsed.strict:
            raise strata.CompileError("strata backend (strict): the graph needs gradients; strata compiles inference")
        return make_boxed_func(aten_gm)

    return aot_autograd(  # type: ignore[no-any-return]
        fw_compiler=refuse_training,
        inference_compiler=inference_compiler,
        decompositions=core_aten_decompositions(),
    )(gm, example_inputs)


class CompiledModule:
    """A module compiled ahead of time by ``strata.torch.compile``: call it
    as the module (the same arguments, the same output structure)."""

    def __init__(self, gm: torch.fx.GraphModule, program: Any, stats: _Stats, user_inputs: int) -> None:
        self._gm = gm
        self._program = program
        self._user_inputs = user_inputs
        self.partitions = stats.partitions
        """How many partitions strata runs."""
        self.torch_ops = stats.torch_ops
        """The ATen ops left to PyTorch."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        import torch.utils._pytree as pytree

        flat, _ = pytree.tree_flatten((args, kwargs))
        params = self._program.params
        with torch.no_grad():
            outputs = self._gm(*params, *flat)
        return pytree.tree_unflatten(list(outputs), self._program.out_spec)


@dataclass
class _Program:
    params: list[torch.Tensor]
    out_spec: Any


def compile(
    module: torch.nn.Module,
    example_inputs: Sequence[Any],
    dynamic_shapes: Any = None,
    **options: Any,
) -> CompiledModule:
    """Compiles ``module`` ahead of time: ``torch.export`` captures it at
    ``example_inputs`` (``dynamic_shapes`` as ``torch.export`` takes it), the
    program is decomposed to core ATen and partitioned as the backend does.
    Options are the backend's, as keywords."""
    parsed = Options.parse(options)
    exported = torch.export.export(module, tuple(example_inputs), dynamic_shapes=dynamic_shapes)
    exported = exported.run_decompositions(core_aten_decompositions())
    gm = exported.graph_module
    signature = exported.graph_signature
    if signature.buffers_to_mutate or getattr(signature, "user_inputs_to_mutate", None):
        raise strata.CompileError(
            "strata.torch.compile: the module changes buffers or inputs in place "
            f"({', '.join(sorted(signature.buffers_to_mutate.values()))}); "
            "strata compiles inference without side effects (torch.compile(backend='strata') "
            "leaves such updates to PyTorch)"
        )
    state = {**exported.state_dict, **exported.constants}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    lifted = {**signature.inputs_to_parameters, **signature.inputs_to_buffers}
    lifted.update(getattr(signature, "inputs_to_lifted_tensor_constants", {}))
    params: list[torch.Tensor] = []
    frozen: dict[int, torch.Tensor] = {}
    for index, node in enumerate(placeholders):
        if node.name in lifted:
            value = state[lifted[node.name]]
            frozen[index] = value
            params.append(value)
    user = len(placeholders) - len(params)
    if any(node.name in lifted for node in placeholders[len(params):]):
        raise strata.CompileError("strata.torch.compile: parameters after user inputs")
    compiled, stats = _compile_graph(gm, frozen, parsed)
    return CompiledModule(compiled, _Program(params, exported.call_spec.out_spec), stats, user)
