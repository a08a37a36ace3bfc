//! Elementwise ops: broadcasting arithmetic, logic and comparisons, the
//! unary math functions and activations, `clip`, `cast`, `where` and
//! `bit_shift`.

use strata_ir::ods::constraints::StrAttr;
use strata_ir::op;

use super::{AnyIntTensor, AnyTensor, BoolAttr, BoolTensor, CastTensor, F64Attr, FloatTensor};
use crate::graph::fold::fold_graph;
use crate::graph::infer::{self, verify_shapes, ShapeFunction};
use crate::graph::scalar::FloatScalarFn;

macro_rules! binary {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt, $c:ty $(, $trait:ident)*) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure, ResultsBroadcastableShape $(, $trait)*),
             format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            lhs: Operand<$c>,
            rhs: Operand<$c>,
            output: Result<AnyTensor>,
        }
    };
}

binary!(
    AddOp,
    "graph.add",
    infer_arith,
    "Elementwise addition, with broadcasting.",
    AnyTensor,
    Commutative
);
binary!(
    SubOp,
    "graph.sub",
    infer_arith,
    "Elementwise subtraction, with broadcasting.",
    AnyTensor
);
binary!(
    MulOp,
    "graph.mul",
    infer_arith,
    "Elementwise multiplication, with broadcasting.",
    AnyTensor,
    Commutative
);
binary!(
    DivOp,
    "graph.div",
    infer_arith,
    "Elementwise division, with broadcasting (integers truncate toward zero).",
    AnyTensor
);
binary!(
    PowOp,
    "graph.pow",
    infer_arith,
    "Elementwise power, with broadcasting.",
    AnyTensor
);
binary!(
    MaxOp,
    "graph.max",
    infer_arith,
    "Elementwise maximum of two tensors, with broadcasting.",
    AnyTensor,
    Commutative
);
binary!(
    MinOp,
    "graph.min",
    infer_arith,
    "Elementwise minimum of two tensors, with broadcasting.",
    AnyTensor,
    Commutative
);
/// Elementwise remainder, with broadcasting.
///
/// Integers take the sign of the divisor (Python's `%`) unless `fmod` is
/// set (then of the dividend, C's `%`); floats always use C's `fmod` (ONNX
/// requires `fmod` for them).
#[op("graph.mod",
     traits(Pure, ResultsBroadcastableShape),
     format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_arith)))]
pub struct ModOp {
    lhs: Operand<AnyTensor>,
    rhs: Operand<AnyTensor>,
    #[default = "false"]
    fmod: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}
binary!(
    AndOp,
    "graph.and",
    infer_arith,
    "Elementwise bitwise and of integer tensors (logical and on `i1`), with broadcasting.",
    AnyIntTensor,
    Commutative
);
binary!(
    OrOp,
    "graph.or",
    infer_arith,
    "Elementwise bitwise or of integer tensors (logical or on `i1`), with broadcasting.",
    AnyIntTensor,
    Commutative
);
binary!(
    XorOp,
    "graph.xor",
    infer_arith,
    "Elementwise bitwise exclusive or of integer tensors (logical on `i1`), with broadcasting.",
    AnyIntTensor,
    Commutative
);
binary!(
    EqualOp,
    "graph.equal",
    infer_compare,
    "Elementwise `==`, with broadcasting; the result is `i1`.",
    AnyTensor,
    Commutative
);
binary!(
    LessOp,
    "graph.less",
    infer_compare,
    "Elementwise `<`, with broadcasting; the result is `i1`.",
    AnyTensor
);
binary!(
    LessEqualOp,
    "graph.less_equal",
    infer_compare,
    "Elementwise `<=`, with broadcasting; the result is `i1`.",
    AnyTensor
);
binary!(
    GreaterOp,
    "graph.greater",
    infer_compare,
    "Elementwise `>`, with broadcasting; the result is `i1`.",
    AnyTensor
);
binary!(
    GreaterEqualOp,
    "graph.greater_equal",
    infer_compare,
    "Elementwise `>=`, with broadcasting; the result is `i1`.",
    AnyTensor
);

macro_rules! unary {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt, $c:ty) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure, ResultsBroadcastableShape),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<$c>,
            output: Result<AnyTensor>,
        }
    };
}

unary!(
    NegOp,
    "graph.neg",
    infer_same,
    "Elementwise negation.",
    AnyTensor
);
unary!(
    AbsOp,
    "graph.abs",
    infer_same,
    "Elementwise absolute value.",
    AnyTensor
);
unary!(
    SignOp,
    "graph.sign",
    infer_same,
    "Elementwise sign (-1, 0 or 1).",
    AnyTensor
);
unary!(
    SqrtOp,
    "graph.sqrt",
    infer_same,
    "Elementwise square root.",
    FloatTensor
);
unary!(
    RsqrtOp,
    "graph.rsqrt",
    infer_same,
    "Elementwise reciprocal square root.",
    FloatTensor
);
unary!(
    ReciprocalOp,
    "graph.reciprocal",
    infer_same,
    "Elementwise reciprocal.",
    FloatTensor
);
unary!(
    ExpOp,
    "graph.exp",
    infer_same,
    "Elementwise exponential.",
    FloatTensor
);
unary!(
    LogOp,
    "graph.log",
    infer_same,
    "Elementwise natural logarithm.",
    FloatTensor
);
unary!(
    ErfOp,
    "graph.erf",
    infer_same,
    "Elementwise error function.",
    FloatTensor
);
unary!(
    TanhOp,
    "graph.tanh",
    infer_same,
    "Elementwise hyperbolic tangent.",
    FloatTensor
);
unary!(
    SinOp,
    "graph.sin",
    infer_same,
    "Elementwise sine.",
    FloatTensor
);
unary!(
    CosOp,
    "graph.cos",
    infer_same,
    "Elementwise cosine.",
    FloatTensor
);
unary!(
    FloorOp,
    "graph.floor",
    infer_same,
    "Elementwise rounding down.",
    FloatTensor
);
unary!(
    CeilOp,
    "graph.ceil",
    infer_same,
    "Elementwise rounding up.",
    FloatTensor
);
unary!(
    RoundOp,
    "graph.round",
    infer_same,
    "Elementwise rounding to the nearest integer, halves to even.",
    FloatTensor
);
unary!(
    SigmoidOp,
    "graph.sigmoid",
    infer_same,
    "Elementwise logistic sigmoid `1 / (1 + exp(-x))`.",
    FloatTensor
);
unary!(
    ReluOp,
    "graph.relu",
    infer_same,
    "Elementwise `max(x, 0)`.",
    AnyTensor
);
unary!(
    SiluOp,
    "graph.silu",
    infer_same,
    "Elementwise `x * sigmoid(x)`.",
    FloatTensor
);
unary!(
    SoftplusOp,
    "graph.softplus",
    infer_same,
    "Elementwise `log(1 + exp(x))`.",
    FloatTensor
);
unary!(
    NotOp,
    "graph.not",
    infer_same,
    "Elementwise bitwise negation of an integer tensor (logical on `i1`).",
    AnyIntTensor
);
unary!(
    IdentityOp,
    "graph.identity",
    infer_same,
    "The input, unchanged.",
    AnyTensor
);

/// Elementwise Gaussian error linear unit.
///
/// `approximate = "none"` is `x * (1 + erf(x / sqrt(2))) / 2`;
/// `approximate = "tanh"` is the tanh approximation.
#[op("graph.gelu",
     traits(Pure, ResultsBroadcastableShape),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gelu)))]
pub struct GeluOp {
    input: Operand<FloatTensor>,
    #[default = "\"none\""]
    approximate: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

/// A float elementwise op whose meaning is one scalar function: its
/// declaration is all there is to it (the interpreter evaluates it through
/// its [`FloatScalarFn`]).
macro_rules! float_unary {
    ($name:ident, $mnemonic:tt, $summary:tt, $f:path) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure, ResultsBroadcastableShape),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
                             verify = verify_shapes,
                             interfaces(ShapeFunction(infer::infer_same), FloatScalarFn($f)))]
        pub struct $name {
            input: Operand<FloatTensor>,
            output: Result<AnyTensor>,
        }
    };
}

float_unary!(
    AcosOp,
    "graph.acos",
    "Elementwise arccosine, in [0, π] (NaN outside [-1, 1]).",
    f64::acos
);
float_unary!(
    AsinOp,
    "graph.asin",
    "Elementwise arcsine, in [-π/2, π/2] (NaN outside [-1, 1]).",
    f64::asin
);
float_unary!(
    AtanOp,
    "graph.atan",
    "Elementwise arctangent, in (-π/2, π/2).",
    f64::atan
);

macro_rules! unary_alpha {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt, $default:tt) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure, ResultsBroadcastableShape),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<FloatTensor>,
            #[default = $default]
            alpha: Attr<F64Attr>,
            output: Result<AnyTensor>,
        }
    };
}

unary_alpha!(
    LeakyReluOp,
    "graph.leaky_relu",
    infer_same,
    "Elementwise `x < 0 ? alpha * x : x`.",
    "1.000000e-02 : f64"
);
unary_alpha!(
    EluOp,
    "graph.elu",
    infer_same,
    "Elementwise `x < 0 ? alpha * (exp(x) - 1) : x`.",
    "1.000000e+00 : f64"
);

/// Elementwise `max(0, min(1, alpha * x + beta))`.
#[op("graph.hard_sigmoid",
     traits(Pure, ResultsBroadcastableShape),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_same)))]
pub struct HardSigmoidOp {
    input: Operand<FloatTensor>,
    #[default = "2.000000e-01 : f64"]
    alpha: Attr<F64Attr>,
    #[default = "5.000000e-01 : f64"]
    beta: Attr<F64Attr>,
    output: Result<AnyTensor>,
}

/// Elementwise clamp to `[min, max]`.
///
/// `min` and `max` are optional scalar tensors of the input's element type;
/// an absent bound does not clamp.
#[op("graph.clip",
     traits(Pure, ResultsBroadcastableShape),
     format = "$input (`min` $min^)? (`max` $max^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_clip)))]
pub struct ClipOp {
    input: Operand<AnyTensor>,
    min: Optional<AnyTensor>,
    max: Optional<AnyTensor>,
    output: Result<AnyTensor>,
}

/// Elementwise conversion to the result's element type.
///
/// Floats convert to integers by truncation toward zero; to `i1`, any
/// nonzero value is true. To an 8- or 4-bit float, values round to nearest
/// even; with `saturate` (the default, as ONNX's `Cast`) values out of its
/// range and ±Inf become its largest finite value of their sign, without
/// it they become NaN (or Inf where the type has it). To `f8E8M0FNU` (a
/// power of two) the exponent of the f32 value is rounded by `round_mode`
/// (`up`, the default, `down` or `nearest`) and kept below NaN with
/// `saturate`, as ONNX's reference.
#[op("graph.cast",
     traits(Pure, ResultsBroadcastableShape),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_cast)))]
pub struct CastOp {
    input: Operand<CastTensor>,
    #[default = "true"]
    saturate: Attr<BoolAttr>,
    #[default = "\"up\""]
    round_mode: Attr<StrAttr>,
    output: Result<CastTensor>,
}

/// Elementwise reinterpretation of each element's bits as the result's
/// element type, which has as many bits (ONNX's `BitCast`; `i1` counts as
/// the byte it is stored in). The shape is kept.
#[op("graph.bitcast",
     traits(Pure, ResultsBroadcastableShape),
     format = "$input attr-dict `:` functional-type(operands, results)",
     verify = verify_bitcast,
     interfaces(ShapeFunction(infer::infer_cast)))]
pub struct BitcastOp {
    input: Operand<CastTensor>,
    output: Result<CastTensor>,
}

/// The bits of an element type as ONNX's `BitCast` counts them (`i1`: 8).
fn bitcast_width(ctx: &strata_ir::Context, t: strata_ir::Type) -> Option<u32> {
    match ctx.type_kind(t) {
        strata_ir::TypeKind::Integer { width: 1, .. } => Some(8),
        strata_ir::TypeKind::Index => Some(64),
        _ => ctx.int_or_float_bit_width(t),
    }
}

fn verify_bitcast(
    ctx: &strata_ir::Context,
    op: strata_ir::Operation,
) -> Result<(), strata_ir::Diagnostic> {
    verify_shapes(ctx, op)?;
    let elem = |v| strata_dialects_element(ctx, ctx.value_type(v));
    let (from, to) = (elem(ctx.operand(op, 0)), elem(ctx.result(op, 0)));
    let (Some(from), Some(to)) = (from, to) else {
        return Ok(());
    };
    let (a, b) = (bitcast_width(ctx, from), bitcast_width(ctx, to));
    if a != b {
        let name = |t| strata_ir::printer::type_to_string(ctx, t);
        return Err(strata_ir::Diagnostic::op_error(
            ctx,
            op,
            format!(
                "reinterprets {} as {}: the element types must have as many bits",
                name(from),
                name(to)
            ),
        ));
    }
    Ok(())
}

/// The element type of a tensor type.
fn strata_dialects_element(
    ctx: &strata_ir::Context,
    ty: strata_ir::Type,
) -> Option<strata_ir::Type> {
    match ctx.type_kind(ty) {
        strata_ir::TypeKind::RankedTensor { element, .. }
        | strata_ir::TypeKind::UnrankedTensor { element } => Some(*element),
        _ => None,
    }
}

/// Elementwise choice: `condition ? x : y`, with broadcasting of all three.
#[op("graph.where",
     traits(Pure, ResultsBroadcastableShape),
     format = "$condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_where)))]
pub struct WhereOp {
    condition: Operand<BoolTensor>,
    x: Operand<AnyTensor>,
    y: Operand<AnyTensor>,
    output: Result<AnyTensor>,
}

/// Elementwise shift of unsigned integers by the bits in `rhs`
/// (`direction` `"left"` or `"right"`), with broadcasting; shifting by the
/// width or more gives 0.
#[op("graph.bit_shift",
     traits(Pure, ResultsBroadcastableShape),
     format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_bit_shift)))]
pub struct BitShiftOp {
    lhs: Operand<AnyIntTensor>,
    rhs: Operand<AnyIntTensor>,
    direction: Attr<StrAttr>,
    output: Result<AnyTensor>,
}
