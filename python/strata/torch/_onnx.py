"""An ATen FX graph (one partition of it) as an ONNX model.

The graphs come from ``aot_autograd`` or ``torch.export`` after PyTorch's
core ATen decompositions: every ``call_function`` node is an ``aten`` op (or
``operator.getitem`` on a multi-output one) and carries ``meta["val"]``, a
fake tensor with its dtype and (possibly symbolic) shape. Each op maps to one
or a few ONNX nodes at opset 18. ``SUPPORTED`` is the table the partitioner
asks; an op outside it, or one whose arguments it cannot express (a
transposed convolution with output padding and groups, a tuple output used
past its first value, ...), stays with PyTorch.

Symbolic sizes: a ``SymInt`` a partition takes becomes a 1-D ``int64`` tensor
of one element, read from the shape of an input that has it (``Shape`` with
``start``/``end``) or, when none has, fed as an input of its own. Lists that
mix sizes and symbols (``view``'s shape) become ``Concat`` of those.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch._subclasses.fake_tensor import unset_fake_temporarily

OPSET = 18

aten = torch.ops.aten

_ELEM_TYPES: dict[torch.dtype, int] = {
    torch.float32: TensorProto.FLOAT,
    torch.float16: TensorProto.FLOAT16,
    torch.bfloat16: TensorProto.BFLOAT16,
    torch.float64: TensorProto.DOUBLE,
    torch.int64: TensorProto.INT64,
    torch.int32: TensorProto.INT32,
    torch.int16: TensorProto.INT16,
    torch.int8: TensorProto.INT8,
    torch.uint8: TensorProto.UINT8,
    torch.bool: TensorProto.BOOL,
}

INT64_MAX = 2**63 - 1


class Unsupported(Exception):
    """An op, or its arguments, that the conversion does not express."""


def elem_type(dtype: torch.dtype) -> int:
    try:
        return _ELEM_TYPES[dtype]
    except KeyError:
        raise Unsupported(f"dtype {dtype} has no strata counterpart") from None


def tensor_array(t: torch.Tensor) -> np.ndarray:
    """A CPU tensor's values as a numpy array (bf16 through its bits)."""
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        import ml_dtypes

        return t.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return t.numpy()


def _val(node: Any) -> Any:
    if isinstance(node, torch.fx.Node):
        return node.meta.get("val")
    return node


def _is_sym(x: Any) -> bool:
    return isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool))


@dataclass
class Builder:
    """The ONNX graph a partition becomes."""

    nodes: list[onnx.NodeProto] = field(default_factory=list)
    initializers: list[onnx.TensorProto] = field(default_factory=list)
    inputs: list[onnx.ValueInfoProto] = field(default_factory=list)
    outputs: list[onnx.ValueInfoProto] = field(default_factory=list)
    env: dict[torch.fx.Node, Any] = field(default_factory=dict)
    # symbol name -> the 1-D int64 tensor that holds its value
    symbols: dict[str, str] = field(default_factory=dict)
    # symbol name -> (ONNX input name, dimension), for the Shape reads
    dims: dict[str, tuple[str, int]] = field(default_factory=dict)
    count: int = 0

    def fresh(self, hint: str) -> str:
        self.count += 1
        return f"{hint}_{self.count}"

    def op(self, op_type: str, inputs: Sequence[str], n_out: int = 1, **attrs: Any) -> list[str]:
        outs = [self.fresh(op_type.lower()) for _ in range(n_out)]
        self.nodes.append(
            helper.make_node(op_type, list(inputs), outs, name=self.fresh("n"), **attrs)
        )
        return outs

    def op1(self, op_type: str, inputs: Sequence[str], **attrs: Any) -> str:
        return self.op(op_type, inputs, 1, **attrs)[0]

    def const(self, value: np.ndarray, hint: str = "c") -> str:
        name = self.fresh(hint)
        self.initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def ints(self, values: Sequence[int]) -> str:
        return self.const(np.asarray(list(values), dtype=np.int64), "ints")

    def scalar(self, value: Any, dtype: torch.dtype) -> str:
        """A 0-d constant of the dtype (torch's promotion already chose it)."""
        array = tensor_array(torch.tensor(value, dtype=dtype))
        return self.const(array, "scalar")

    # -- values -------------------------------------------------------

    def tensor(self, arg: Any, dtype: torch.dtype | None = None) -> str:
        """The ONNX name of an argument: a converted node, or a Python
        scalar as a constant of ``dtype``; cast to ``dtype`` when given."""
        if isinstance(arg, torch.fx.Node):
            value = self.env[arg]
            if not isinstance(value, str):
                raise Unsupported(f"'{arg.name}' is not a tensor here")
            have = _val(arg)
            if not isinstance(have, torch.Tensor):
                # a size: a 1-element int64 tensor, as a 0-d scalar here
                if not isinstance(have, (int, torch.SymInt)):
                    raise Unsupported(f"'{arg.name}' is a {type(have).__name__}")
                value = self.op1("Squeeze", [value, self.ints([0])])
                if dtype is not None and dtype != torch.int64:
                    return self.op1("Cast", [value], to=elem_type(dtype))
                return value
            if dtype is not None and have.dtype != dtype:
                return self.op1("Cast", [value], to=elem_type(dtype))
            return value
        if isinstance(arg, (bool, int, float)):
            if dtype is None:
                raise Unsupported(f"a scalar {arg!r} without a dtype")
            return self.scalar(arg, dtype)
        raise Unsupported(f"argument {arg!r}")

    def size_list(self, sizes: Sequence[Any]) -> str:
        """A shape argument (ints and symbolic sizes) as a 1-D int64 tensor."""
        if all(isinstance(s, int) for s in sizes):
            return self.ints(sizes)
        pieces = []
        for s in sizes:
            if isinstance(s, int):
                pieces.append(self.ints([s]))
            elif isinstance(s, torch.fx.Node) and isinstance(self.env.get(s), str):
                pieces.append(self.env[s])
            else:
                raise Unsupported(f"size {s!r}")
        return self.op1("Concat", pieces, axis=0)


def _arg(n: torch.fx.Node, index: int, name: str, default: Any = None) -> Any:
    """Argument ``index`` of ``n``, positional or by keyword ``name``."""
    if len(n.args) > index:
        return n.args[index]
    return n.kwargs.get(name, default)


def _rank(node: torch.fx.Node) -> int:
    return len(_val(node).shape)


def _axis(dim: int, rank: int) -> int:
    return dim + rank if dim < 0 else dim


def _out_dtype(node: torch.fx.Node) -> torch.dtype:
    val = _val(node)
    if not isinstance(val, torch.Tensor):
        raise Unsupported(f"'{node.name}' has no tensor result")
    return val.dtype


Converter = Callable[[Builder, torch.fx.Node], Any]
SUPPORTED: dict[Any, Converter] = {}


def _converts(*targets: Any) -> Callable[[Converter], Converter]:
    def register(fn: Converter) -> Converter:
        for target in targets:
            SUPPORTED[target] = fn
        return fn

    return register


def _unary(onnx_op: str) -> Converter:
    def convert(b: Builder, n: torch.fx.Node) -> str:
        # torch computes exp of an int tensor in float: cast first
        return b.op1(onnx_op, [b.tensor(n.args[0], _out_dtype(n))])

    return convert


for _target, _op in [
    (aten.relu.default, "Relu"),
    (aten.sigmoid.default, "Sigmoid"),
    (aten.tanh.default, "Tanh"),
    (aten.exp.default, "Exp"),
    (aten.log.default, "Log"),
    (aten.sqrt.default, "Sqrt"),
    (aten.neg.default, "Neg"),
    (aten.abs.default, "Abs"),
    (aten.erf.default, "Erf"),
    (aten.reciprocal.default, "Reciprocal"),
    (aten.sin.default, "Sin"),
    (aten.cos.default, "Cos"),
    (aten.floor.default, "Floor"),
    (aten.ceil.default, "Ceil"),
    (aten.logical_not.default, "Not"),
    (aten.clone.default, "Identity"),
    (aten.alias.default, "Identity"),
    (aten.detach.default, "Identity"),
    (aten.lift_fresh_copy.default, "Identity"),
]:
    SUPPORTED[_target] = _unary(_op)


@_converts(aten.rsqrt.default)
def _rsqrt(b: Builder, n: torch.fx.Node) -> str:
    return b.op1("Reciprocal", [b.op1("Sqrt", [b.tensor(n.args[0], _out_dtype(n))])])


@_converts(aten.silu.default)
def _silu(b: Builder, n: torch.fx.Node) -> str:
    x = b.tensor(n.args[0])
    return b.op1("Mul", [x, b.op1("Sigmoid", [x])])


@_converts(aten.gelu.default)
def _gelu(b: Builder, n: torch.fx.Node) -> str:
    dtype = _out_dtype(n)
    x = b.tensor(n.args[0])
    approximate = n.kwargs.get("approximate", n.args[1] if len(n.args) > 1 else "none")
    half = b.scalar(0.5, dtype)
    one = b.scalar(1.0, dtype)
    if approximate == "tanh":
        # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = b.op1("Mul", [b.op1("Mul", [x, x]), x])
        inner = b.op1("Add", [x, b.op1("Mul", [cube, b.scalar(0.044715, dtype)])])
        t = b.op1("Tanh", [b.op1("Mul", [inner, b.scalar(float(np.sqrt(2 / np.pi)), dtype)])])
    elif approximate == "none":
        t = b.op1("Erf", [b.op1("Mul", [x, b.scalar(float(1 / np.sqrt(2)), dtype)])])
    else:
        raise Unsupported(f"gelu approximate={approximate!r}")
    return b.op1("Mul", [b.op1("Mul", [x, half]), b.op1("Add", [one, t])])


@_converts(aten.hardswish.default)
def _hardswish(b: Builder, n: torch.fx.Node) -> str:
    return b.op1("HardSwish", [b.tensor(n.args[0])])


@_converts(aten.hardsigmoid.default)
def _hardsigmoid(b: Builder, n: torch.fx.Node) -> str:
    return b.op1("HardSigmoid", [b.tensor(n.args[0])], alpha=1.0 / 6, beta=0.5)


@_converts(aten.leaky_relu.default)
def _leaky_relu(b: Builder, n: torch.fx.Node) -> str:
    slope = _arg(n, 1, "negative_slope", 0.01)
    if isinstance(slope, torch.fx.Node):
        raise Unsupported("a slope computed at run time")
    return b.op1("LeakyRelu", [b.tensor(n.args[0])], alpha=float(slope))


@_converts(aten.clamp.default, aten.hardtanh.default)
def _clamp(b: Builder, n: torch.fx.Node) -> str:
    dtype = _out_dtype(n)
    if n.target == aten.hardtanh.default:
        lo, hi = _arg(n, 1, "min_val", -1.0), _arg(n, 2, "max_val", 1.0)
    else:
        lo, hi = _arg(n, 1, "min"), _arg(n, 2, "max")
    if isinstance(lo, torch.fx.Node) or isinstance(hi, torch.fx.Node):
        raise Unsupported("clamp to a tensor")
    bounds = ["" if v is None else b.scalar(v, dtype) for v in (lo, hi)]
    return b.op1("Clip", [b.tensor(n.args[0], dtype), *bounds])


def _binary(onnx_op: str, compare: bool = False) -> Converter:
    def convert(b: Builder, n: torch.fx.Node) -> str:
        x, y = n.args[0], n.args[1]
        if compare:
            dtype = torch.result_type(_val(x), _val(y))  # type: ignore[arg-type]
        else:
            dtype = _out_dtype(n)
        alpha = _arg(n, 2, "alpha", 1)
        if isinstance(alpha, torch.fx.Node):
            raise Unsupported("an alpha computed at run time")
        yt = b.tensor(y, dtype)
        if alpha != 1:
            yt = b.op1("Mul", [yt, b.scalar(alpha, dtype)])
        return b.op1(onnx_op, [b.tensor(x, dtype), yt])

    return convert


for _targets, _op, _cmp in [
    ((aten.add.Tensor, aten.add.Scalar), "Add", False),
    ((aten.sub.Tensor, aten.sub.Scalar), "Sub", False),
    ((aten.mul.Tensor, aten.mul.Scalar), "Mul", False),
    ((aten.div.Tensor, aten.div.Scalar), "Div", False),
    ((aten.pow.Tensor_Scalar, aten.pow.Tensor_Tensor), "Pow", False),
    ((aten.maximum.default,), "Max", False),
    ((aten.minimum.default,), "Min", False),
    ((aten.eq.Tensor, aten.eq.Scalar), "Equal", True),
    ((aten.lt.Tensor, aten.lt.Scalar), "Less", True),
    ((aten.le.Tensor, aten.le.Scalar), "LessOrEqual", True),
    ((aten.gt.Tensor, aten.gt.Scalar), "Greater", True),
    ((aten.ge.Tensor, aten.ge.Scalar), "GreaterOrEqual", True),
    ((aten.logical_and.default, aten.bitwise_and.Tensor), "And", False),
    ((aten.logical_or.default, aten.bitwise_or.Tensor), "Or", False),
]:
    for _target in _targets:
        SUPPORTED[_target] = _binary(_op, _cmp)


@_converts(aten.ne.Tensor, aten.ne.Scalar)
def _ne(b: Builder, n: torch.fx.Node) -> str:
    return b.op1("Not", [_binary("Equal", True)(b, n)])


@_converts(aten.where.self)
def _where(b: Builder, n: torch.fx.Node) -> str:
    dtype = _out_dtype(n)
    cond = b.tensor(n.args[0], torch.bool)
    return b.op1("Where", [cond, b.tensor(n.args[1], dtype), b.tensor(n.args[2], dtype)])


@_converts(aten.mm.default, aten.bmm.default, aten.matmul.default)
def _matmul(b: Builder, n: torch.fx.Node) -> str:
    return b.op1("MatMul", [b.tensor(n.args[0]), b.tensor(n.args[1])])


@_converts(aten.addmm.default)
def _addmm(b: Builder, n: torch.fx.Node) -> str:
    beta = float(n.kwargs.get("beta", 1))
    alpha = float(n.kwargs.get("alpha", 1))
    bias, a, m = (b.tensor(arg) for arg in n.args[:3])
    return b.op1("Gemm", [a, m, bias], alpha=alpha, beta=beta)


@_converts(aten.permute.default)
def _permute(b: Builder, n: torch.fx.Node) -> str:
    rank = _rank(n.args[0])  # type: ignore[arg-type]
    perm = [_axis(d, rank) for d in n.args[1]]  # type: ignore[union-attr]
    return b.op1("Transpose", [b.tensor(n.args[0])], perm=perm)


@_converts(aten.t.default)
def _t(b: Builder, n: torch.fx.Node) -> str:
    if _rank(n.args[0]) < 2:  # type: ignore[arg-type]
        return b.op1("Identity", [b.tensor(n.args[0])])
    return b.op1("Transpose", [b.tensor(n.args[0])], perm=[1, 0])


@_converts(aten.view.default, aten._unsafe_view.default, aten.reshape.default)
def _view(b: Builder, n: torch.fx.Node) -> str:
    # allowzero: a 0 in the target is a size 0, not "copy the input's"
    return b.op1("Reshape", [b.tensor(n.args[0]), b.size_list(n.args[1])], allowzero=1)  # type: ignore[arg-type]


@_converts(aten.expand.default)
def _expand(b: Builder, n: torch.fx.Node) -> str:
    sizes = [1 if s == -1 else s for s in n.args[1]]  # type: ignore[union-attr]
    return b.op1("Expand", [b.tensor(n.args[0]), b.size_list(sizes)])


@_converts(aten.unsqueeze.default)
def _unsqueeze(b: Builder, n: torch.fx.Node) -> str:
    rank = _rank(n.args[0]) + 1  # type: ignore[arg-type]
    return b.op1("Unsqueeze", [b.tensor(n.args[0]), b.ints([_axis(n.args[1], rank)])])  # type: ignore[arg-type]


@_converts(aten.squeeze.dims, aten.squeeze.dim, aten.squeeze.default)
def _squeeze(b: Builder, n: torch.fx.Node) -> str:
    shape = _val(n.args[0]).shape
    rank = len(shape)
    if len(n.args) > 1:
        dims = n.args[1] if isinstance(n.args[1], (list, tuple)) else [n.args[1]]
    else:
        dims = list(range(rank))
    # torch squeezes only the dimensions of size 1 among them
    if rank == 0:
        return b.op1("Identity", [b.tensor(n.args[0])])
    if not all(isinstance(d, int) for d in dims):
        raise Unsupported("squeeze of computed dimensions")
    sizes = [shape[_axis(d, rank)] for d in dims]
    if any(_is_sym(size) for size in sizes):
        raise Unsupported("squeeze of a symbolic dimension")
    axes = [_axis(d, rank) for d, size in zip(dims, sizes) if size == 1]
    if not axes:
        return b.op1("Identity", [b.tensor(n.args[0])])
    return b.op1("Squeeze", [b.tensor(n.args[0]), b.ints(axes)])


@_converts(aten.cat.default)
def _cat(b: Builder, n: torch.fx.Node) -> str:
    dtype = _out_dtype(n)
    rank = len(_val(n).shape)
    dim = n.args[1] if len(n.args) > 1 else n.kwargs.get("dim", 0)
    tensors = list(n.args[0])  # type: ignore[arg-type]
    # torch skips empty 1-D inputs of any other shape; keep one part at least
    kept = [t for t in tensors if _val(t).numel() != 0] or tensors[:1]
    parts = [b.tensor(t, dtype) for t in kept]
    return b.op1("Concat", parts, axis=_axis(dim, rank))  # type: ignore[arg-type]


def _index_tensor(b: Builder, value: Any) -> str:
    if isinstance(value, int):
        return b.ints([value])
    if isinstance(value, torch.fx.Node) and isinstance(b.env.get(value), str):
        return b.env[value]
    raise Unsupported(f"index {value!r}")


@_converts(aten.slice.Tensor)
def _slice(b: Builder, n: torch.fx.Node) -> str:
    args = list(n.args) + [None] * (5 - len(n.args))
    x, dim, start, end, step = args[:5]
    rank = _rank(x)  # type: ignore[arg-type]
    dim = _axis(dim or 0, rank)  # type: ignore[arg-type]
    start = 0 if start is None else start
    end = INT64_MAX if end is None else min(end, INT64_MAX) if isinstance(end, int) else end
    step = 1 if step is None else step
    return b.op1(
        "Slice",
        [b.tensor(x), _index_tensor(b, start), _index_tensor(b, end), b.ints([dim]), b.ints([step])],  # type: ignore[arg-type]
    )


@_converts(aten.select.int)
def _select(b: Builder, n: torch.fx.Node) -> str:
    rank = _rank(n.args[0])  # type: ignore[arg-type]
    index = n.args[2]
    if not isinstance(index, int):
        raise Unsupported("select at a symbolic index")
    idx = b.const(np.asarray(index, dtype=np.int64), "index")
    return b.op1("Gather", [b.tensor(n.args[0]), idx], axis=_axis(n.args[1], rank))  # type: ignore[arg-type]


@_converts(aten.split_with_sizes.default, aten.split.Tensor)
def _split(b: Builder, n: torch.fx.Node) -> list[str]:
    vals = _val(n)
    rank = _rank(n.args[0])  # type: ignore[arg-type]
    dim = _axis(n.args[2] if len(n.args) > 2 else n.kwargs.get("dim", 0), rank)  # type: ignore[arg-type]
    sizes = [v.shape[dim] for v in vals]
    if not all(isinstance(s, int) for s in sizes):
        raise Unsupported("split into symbolic sizes")
    return b.op("Split", [b.tensor(n.args[0]), b.ints(sizes)], len(sizes), axis=dim)


@_converts(aten._softmax.default, aten._log_softmax.default)
def _softmax(b: Builder, n: torch.fx.Node) -> str:
    op = "Softmax" if n.target == aten._softmax.default else "LogSoftmax"
    rank = _rank(n.args[0])  # type: ignore[arg-type]
    return b.op1(op, [b.tensor(n.args[0])], axis=_axis(n.args[1], rank))  # type: ignore[arg-type]


def _reduce(onnx_op: str) -> Converter:
    def convert(b: Builder, n: torch.fx.Node) -> str:
        x = n.args[0]
        rank = _rank(x)  # type: ignore[arg-type]
        dims = n.args[1] if len(n.args) > 1 and n.args[1] is not None else list(range(rank))
        if isinstance(dims, int):
            dims = [dims]
        keep = n.args[2] if len(n.args) > 2 else n.kwargs.get("keepdim", False)
        if n.kwargs.get("dtype") not in (None, _out_dtype(n)):
            raise Unsupported("a reduction with a dtype")
        axes = b.ints([_axis(d, rank) for d in dims])  # type: ignore[union-attr]
        return b.op1(onnx_op, [b.tensor(x, _out_dtype(n)), axes], keepdims=int(bool(keep)))

    return convert


SUPPORTED[aten.mean.dim] = _reduce("ReduceMean")
SUPPORTED[aten.sum.dim_IntList] = _reduce("ReduceSum")
SUPPORTED[aten.amax.default] = _reduce("ReduceMax")
SUPPORTED[aten.amin.default] = _reduce("ReduceMin")


@_converts(aten.any.dim, aten.any.dims)
def _any(b: Builder, n: torch.fx.Node) -> str:
    x = n.args[0]
    rank = _rank(x)  # type: ignore[arg-type]
    dims = _arg(n, 1, "dim", None)
    if isinstance(dims, int):
        dims = [dims]
    keep = _arg(n, 2, "keepdim", False)
    truth = b.tensor(x, torch.bool)  # nonzero (NaN included) is true
    if dims is None:
        dims = list(range(rank))
    if not dims and n.target == aten.any.dims:
        return b.op1("Identity", [truth])
    as_int = b.op1("Cast", [truth], to=TensorProto.INT32)
    axes = b.ints([_axis(d, rank) for d in dims])  # type: ignore[union-attr]
    top = b.op1("ReduceMax", [as_int, axes], keepdims=int(bool(keep)))
    return b.op1("Cast", [top], to=TensorProto.BOOL)


def _batched_2d(n: torch.fx.Node) -> None:
    if _rank(n.args[0]) != 4:  # type: ignore[arg-type]
        raise Unsupported("a 2-D window op on an unbatched input")


def _first_only(n: torch.fx.Node) -> bool:
    """Every use of a tuple-valued node reads its first value."""
    return all(u.target is operator.getitem and u.args[1] == 0 for u in n.users)


@_converts(aten.native_layer_norm.default)
def _layer_norm(b: Builder, n: torch.fx.Node) -> list[str]:
    if not _first_only(n):
        raise Unsupported("layer norm's mean or rstd used")
    x, shape, weight, bias, eps = n.args
    dtype = _val(x).dtype
    norm_shape = list(shape)  # type: ignore[arg-type]
    if not all(isinstance(d, int) for d in norm_shape):
        raise Unsupported("layer norm over a symbolic shape")
    if weight is not None:
        w = b.tensor(weight)
    else:
        w = b.const(tensor_array(torch.ones(norm_shape, dtype=dtype)))
    inputs = [b.tensor(x), w]
    if bias is not None:
        inputs.append(b.tensor(bias))
    y = b.op1("LayerNormalization", inputs, axis=-len(norm_shape), epsilon=float(eps))  # type: ignore[arg-type]
    return [y]


@_converts(aten._native_batch_norm_legit_no_training.default)
def _batch_norm(b: Builder, n: torch.fx.Node) -> list[str]:
    if not _first_only(n):
        raise Unsupported("batch norm's saved statistics used")
    x, weight, bias, mean, var, _momentum, eps = n.args
    channels = _val(x).shape[1]
    dtype = _val(x).dtype
    if not isinstance(channels, int):
        raise Unsupported("batch norm over symbolic channels")
    ones = tensor_array(torch.ones(channels, dtype=dtype))
    w = b.tensor(weight) if weight is not None else b.const(ones)
    bb = b.tensor(bias) if bias is not None else b.const(ones * 0)
    y = b.op1(
        "BatchNormalization", [b.tensor(x), w, bb, b.tensor(mean), b.tensor(var)], epsilon=float(eps)  # type: ignore[arg-type]
    )
    return [y]


@_converts(aten.convolution.default)
def _convolution(b: Builder, n: torch.fx.Node) -> str:
    x, w, bias, stride, padding, dilation, transposed, output_padding, groups = n.args
    spatial = _rank(x) - 2  # type: ignore[arg-type]

    def per_dim(v: Any) -> list[int]:
        v = list(v)  # type: ignore[arg-type]
        return v * spatial if len(v) == 1 else v

    inputs = [b.tensor(x), b.tensor(w)] + ([b.tensor(bias)] if bias is not None else [])
    pads = per_dim(padding)
    attrs: dict[str, Any] = dict(
        strides=per_dim(stride), pads=pads + pads, dilations=per_dim(dilation), group=int(groups)  # type: ignore[call-overload]
    )
    if transposed:
        attrs["output_padding"] = per_dim(output_padding)
        return b.op1("ConvTranspose", inputs, **attrs)
    if any(per_dim(output_padding)):
        raise Unsupported("output padding of a forward convolution")
    return b.op1("Conv", inputs, **attrs)


@_converts(aten.max_pool2d_with_indices.default)
def _max_pool(b: Builder, n: torch.fx.Node) -> list[str]:
    _batched_2d(n)
    if not _first_only(n):
        raise Unsupported("max pool's indices used")
    args = list(n.args) + [None] * (6 - len(n.args))
    x, kernel, stride, padding, dilation, ceil_mode = args[:6]
    kernel = list(kernel) * (2 // len(kernel))  # type: ignore[arg-type]
    stride = list(stride or kernel)
    stride = stride * (2 // len(stride))
    padding = list(padding or [0]) * (2 // len(padding or [0]))
    dilation = list(dilation or [1]) * (2 // len(dilation or [1]))
    y = b.op1(
        "MaxPool",
        [b.tensor(x)],
        kernel_shape=kernel,
        strides=stride,
        pads=padding + padding,
        dilations=dilation,
        ceil_mode=int(bool(ceil_mode)),
    )
    return [y]


@_converts(aten.avg_pool2d.default)
def _avg_pool(b: Builder, n: torch.fx.Node) -> str:
    _batched_2d(n)
    args = list(n.args) + [None] * (7 - len(n.args))
    x, kernel, stride, padding, ceil_mode, count_include_pad, divisor = args[:7]
    if divisor is not None:
        raise Unsupported("avg pool with a divisor override")
    kernel = list(kernel) * (2 // len(kernel))  # type: ignore[arg-type]
    stride = list(stride or kernel)
    stride = stride * (2 // len(stride))
    padding = list(padding or [0]) * (2 // len(padding or [0]))
    return b.op1(
        "AveragePool",
        [b.tensor(x)],
        kernel_shape=kernel,
        strides=stride,
        pads=padding + padding,
        ceil_mode=int(bool(ceil_mode)),
        count_include_pad=int(count_include_pad is None or bool(count_include_pad)),
    )


@_converts(aten._adaptive_avg_pool2d.default)
def _adaptive_avg_pool(b: Builder, n: torch.fx.Node) -> str:
    _batched_2d(n)
    shape = _val(n.args[0]).shape
    out = list(n.args[1])  # type: ignore[arg-type]
    if out == [1, 1]:
        return b.op1("GlobalAveragePool", [b.tensor(n.args[0])])
    h, w = shape[-2], shape[-1]
    if not (isinstance(h, int) and isinstance(w, int)) or h % out[0] or w % out[1]:
        raise Unsupported("adaptive pooling that is not a plain average pool")
    kernel = [h // out[0], w // out[1]]
    return b.op1("AveragePool", [b.tensor(n.args[0])], kernel_shape=kernel, strides=kernel)


@_converts(aten.embedding.default)
def _embedding(b: Builder, n: torch.fx.Node) -> str:
    return b.op1("Gather", [b.tensor(n.args[0]), b.tensor(n.args[1])], axis=0)


@_converts(aten.gather.default)
def _gather(b: Builder, n: torch.fx.Node) -> str:
    if n.kwargs.get("sparse_grad"):
        raise Unsupported("gather with sparse_grad")
    rank = _rank(n.args[0])  # type: ignore[arg-type]
    axis = _axis(n.args[1], rank)  # type: ignore[arg-type]
    return b.op1("GatherElements", [b.tensor(n.args[0]), b.tensor(n.args[2])], axis=axis)


@_converts(aten._to_copy.default)
def _to_copy(b: Builder, n: torch.fx.Node) -> str:
    return b.op1("Cast", [b.tensor(n.args[0])], to=elem_type(_out_dtype(n)))


@_converts(aten.full.default, aten.scalar_tensor.default, aten.full_like.default)
def _full(b: Builder, n: torch.fx.Node) -> str:
    dtype = _out_dtype(n)
    value = n.args[1] if n.target != aten.scalar_tensor.default else n.args[0]
    if isinstance(value, torch.fx.Node):
        raise Unsupported("a fill value computed at run time")
    fill = b.scalar(value, dtype)
    if n.target == aten.scalar_tensor.default:
        return fill
    if n.target == aten.full_like.default:
        shape = b.op1("Shape", [b.tensor(n.args[0])])
    else:
        shape = b.size_list(n.args[0])  # type: ignore[arg-type]
    return b.op1("Expand", [fill, shape])


@_converts(aten.arange.start_step, aten.arange.default, aten.arange.start)
def _arange(b: Builder, n: torch.fx.Node) -> str:
    dtype = _out_dtype(n)
    if n.target == aten.arange.default:
        args = [0, _arg(n, 0, "end"), 1]
    elif n.target == aten.arange.start:
        args = [_arg(n, 0, "start"), _arg(n, 1, "end"), 1]
    else:
        args = [_arg(n, 0, "start"), _arg(n, 1, "end"), _arg(n, 2, "step", 1)]
    if all(isinstance(a, (int, float)) for a in args):
        return b.const(tensor_array(torch.arange(*args, dtype=dtype)), "arange")
    integral = all(isinstance(a, int) or isinstance(_val(a), (int, torch.SymInt)) for a in args)
    if integral and dtype != torch.int64:
        # a range of sizes in int64 (its length then follows the size), cast
        steps = b.op1("Range", [b.tensor(a, torch.int64) for a in args])
        return b.op1("Cast", [steps], to=elem_type(dtype))
    return b.op1("Range", [b.tensor(a, dtype) for a in args])


@_converts(aten.constant_pad_nd.default)
def _pad(b: Builder, n: torch.fx.Node) -> str:
    x = n.args[0]
    rank = _rank(x)  # type: ignore[arg-type]
    pad = list(n.args[1])  # type: ignore[arg-type]
    if not all(isinstance(p, int) for p in pad):
        raise Unsupported("padding computed at run time")
    value = _arg(n, 2, "value", 0)
    begins, ends = [0] * rank, [0] * rank
    for i in range(len(pad) // 2):  # torch pads the last dimension first
        begins[rank - 1 - i], ends[rank - 1 - i] = pad[2 * i], pad[2 * i + 1]
    if any(p < 0 for p in begins + ends):
        raise Unsupported("negative padding")
    return b.op1("Pad", [b.tensor(x), b.ints(begins + ends), b.scalar(value, _out_dtype(n))], mode="constant")


@_converts(operator.getitem)
def _getitem(b: Builder, n: torch.fx.Node) -> str:
    source = b.env[n.args[0]]  # type: ignore[index]
    if not isinstance(source, list):
        raise Unsupported("getitem on a single value")
    return source[n.args[1]]  # type: ignore[index,no-any-return]


def node_supported(node: torch.fx.Node) -> bool:
    """Whether the partitioner may give this node to strata."""
    if node.op != "call_function" or node.target not in SUPPORTED:
        return False
    val = _val(node)
    values = val if isinstance(val, (list, tuple)) else [val]
    for v in values:
        if not isinstance(v, torch.Tensor) or v.device.type != "cpu" or v.dtype not in _ELEM_TYPES:
            return False
    for arg in node.all_input_nodes:
        v = _val(arg)
        if isinstance(v, torch.Tensor) and (v.device.type != "cpu" or v.dtype not in _ELEM_TYPES):
            return False
    if node.target is operator.getitem:
        source = node.args[0]
        return isinstance(source, torch.fx.Node) and node_supported(source)
    # the converter is the check: run it on a scratch graph
    probe = Builder()
    probe.env = _Probe()
    try:
        with unset_fake_temporarily():  # its constants are real tensors
            SUPPORTED[node.target](probe, node)
    except Exception:  # noqa: BLE001 - whatever it refuses stays with PyTorch
        return False
    return True


class _Probe(dict):  # type: ignore[type-arg]
    """An environment that names every value, for a converter's dry run."""

    def get(self, node: torch.fx.Node, default: Any = None) -> Any:
        return self[node]

    def __contains__(self, node: object) -> bool:
        return True

    def __missing__(self, node: torch.fx.Node) -> Any:
        val = _val(node)
        if isinstance(val, (list, tuple)):
            return [f"probe_{node.name}_{i}" for i in range(len(val))]
        return f"probe_{node.name}"


def _value_info(name: str, val: torch.Tensor, symbol_names: bool) -> onnx.ValueInfoProto:
    dims: list[Any] = []
    for d in val.shape:
        if isinstance(d, int):
            dims.append(d)
        elif symbol_names and _is_sym(d) and str(d).isidentifier():
            dims.append(str(d))
        else:
            dims.append(None)
    return helper.make_tensor_value_info(name, elem_type(val.dtype), dims)


@dataclass
class Converted:
    """A partition as an ONNX model, with how to call it."""

    model: onnx.ModelProto
    # for each ONNX input, in order: the index of the partition's placeholder
    # that feeds it (a tensor, or a SymInt fed as a 1-element int64 tensor)
    feeds: list[int]
    # the partition's outputs, in order (the ONNX model's outputs)
    output_count: int


def convert(gm: torch.fx.GraphModule, frozen: dict[int, torch.Tensor], name: str = "strata_partition") -> Converted:
    """Converts a partition: placeholders whose index is in ``frozen`` become
    initializers with those values; the others become the model's inputs."""
    b = Builder()
    feeds: list[int] = []
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    pending_symbols: list[tuple[int, torch.fx.Node]] = []
    for index, node in enumerate(placeholders):
        val = _val(node)
        if index in frozen:
            b.env[node] = b.const(tensor_array(frozen[index]), f"param{index}")
        elif isinstance(val, torch.Tensor):
            onnx_name = f"input{index}"
            b.inputs.append(_value_info(onnx_name, val, True))
            b.env[node] = onnx_name
            feeds.append(index)
            for axis, d in enumerate(val.shape):
                if _is_sym(d) and str(d).isidentifier():
                    b.dims.setdefault(str(d), (onnx_name, axis))
        elif isinstance(val, (torch.SymInt, int)):
            pending_symbols.append((index, node))
        else:
            raise Unsupported(f"placeholder '{node.name}' of type {type(val).__name__}")
    for index, node in pending_symbols:
        val = _val(node)
        key = str(val)
        if isinstance(val, int):
            b.env[node] = b.ints([val])
        elif key in b.dims:
            source, axis = b.dims[key]
            b.env[node] = b.op1("Shape", [source], start=axis, end=axis + 1)
        else:
            onnx_name = f"size{index}"
            b.inputs.append(helper.make_tensor_value_info(onnx_name, TensorProto.INT64, [1]))
            b.env[node] = onnx_name
            feeds.append(index)

    output_count = 0
    for node in gm.graph.nodes:
        if node.op == "call_function":
            b.env[node] = SUPPORTED[node.target](b, node)
        elif node.op == "output":
            results = node.args[0]
            results = results if isinstance(results, (list, tuple)) else [results]
            for i, r in enumerate(results):
                val = _val(r)
                if not isinstance(val, torch.Tensor):
                    raise Unsupported("a partition output that is not a tensor")
                source = b.tensor(r)
                out_name = f"output{i}"
                b.nodes.append(helper.make_node("Identity", [source], [out_name], name=b.fresh("n")))
                b.outputs.append(_value_info(out_name, val, False))
            output_count = len(results)
        elif node.op != "placeholder":
            raise Unsupported(f"node '{node.name}' ({node.op})")
    graph = helper.make_graph(b.nodes, name, b.inputs, b.outputs, b.initializers)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="strata.torch"
    )
    model.ir_version = 9
    return Converted(model, feeds, output_count)
