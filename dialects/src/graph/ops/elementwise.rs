//! Elementwise ops: broadcasting arithmetic, logic and comparisons, the
//! unary math functions and activations, `clip`, `cast`, `where` and
//! `bit_shift`.

use strata_ir::ods::constraints::StrAttr;
use strata_ir::op;
use strata_ir::{Context, Operation};

use super::{AnyIntTensor, AnyTensor, BoolAttr, BoolTensor, CastTensor, F64Attr, FloatTensor};
use crate::graph::fold::fold_graph;
use crate::graph::infer::{self, verify_shapes, ShapeFunction};
use crate::graph::pow::pow_patterns;
use crate::graph::scalar::ScalarFn;

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
/// Elementwise power, with broadcasting.
#[op("graph.pow",
     traits(Pure, ResultsBroadcastableShape),
     format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
     canonicalize = pow_patterns,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_arith)))]
pub struct PowOp {
    lhs: Operand<AnyTensor>,
    rhs: Operand<AnyTensor>,
    output: Result<AnyTensor>,
}
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

/// A unary elementwise op; with a [`ScalarFn`], its meaning is that
/// formula (see [`crate::graph::scalar`]): eager evaluation, the `tensor`
/// lowering, host code and the GPU form all read it.
macro_rules! unary {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt, $c:ty $(, $scalar:expr)?) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure, ResultsBroadcastableShape),
             format = "$input attr-dict `:` functional-type(operands, results)",
             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape) $(, $scalar)?))]
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
    AnyTensor,
    ScalarFn::any(formula::neg)
);
unary!(
    AbsOp,
    "graph.abs",
    infer_same,
    "Elementwise absolute value.",
    AnyTensor,
    ScalarFn::any(formula::abs)
);
unary!(
    SignOp,
    "graph.sign",
    infer_same,
    "Elementwise sign (-1, 0 or 1).",
    AnyTensor,
    ScalarFn::any(formula::sign)
);
unary!(
    SqrtOp,
    "graph.sqrt",
    infer_same,
    "Elementwise square root.",
    FloatTensor,
    ScalarFn::float(formula::sqrt)
);
unary!(
    RsqrtOp,
    "graph.rsqrt",
    infer_same,
    "Elementwise reciprocal square root.",
    FloatTensor,
    ScalarFn::float(formula::rsqrt)
);
unary!(
    ReciprocalOp,
    "graph.reciprocal",
    infer_same,
    "Elementwise reciprocal.",
    FloatTensor,
    ScalarFn::float(formula::reciprocal)
);
unary!(
    ExpOp,
    "graph.exp",
    infer_same,
    "Elementwise exponential.",
    FloatTensor,
    ScalarFn::float(formula::exp)
);
unary!(
    LogOp,
    "graph.log",
    infer_same,
    "Elementwise natural logarithm.",
    FloatTensor,
    ScalarFn::float(formula::log)
);
unary!(
    ErfOp,
    "graph.erf",
    infer_same,
    "Elementwise error function.",
    FloatTensor,
    ScalarFn::float(formula::erf)
);
unary!(
    TanhOp,
    "graph.tanh",
    infer_same,
    "Elementwise hyperbolic tangent.",
    FloatTensor,
    ScalarFn::float(formula::tanh)
);
unary!(
    SinOp,
    "graph.sin",
    infer_same,
    "Elementwise sine.",
    FloatTensor,
    ScalarFn::float(formula::sin)
);
unary!(
    CosOp,
    "graph.cos",
    infer_same,
    "Elementwise cosine.",
    FloatTensor,
    ScalarFn::float(formula::cos)
);
unary!(
    FloorOp,
    "graph.floor",
    infer_same,
    "Elementwise rounding down.",
    FloatTensor,
    ScalarFn::float(formula::floor)
);
unary!(
    CeilOp,
    "graph.ceil",
    infer_same,
    "Elementwise rounding up.",
    FloatTensor,
    ScalarFn::float(formula::ceil)
);
unary!(
    RoundOp,
    "graph.round",
    infer_same,
    "Elementwise rounding to the nearest integer, halves to even.",
    FloatTensor,
    ScalarFn::float(formula::round)
);
unary!(
    SigmoidOp,
    "graph.sigmoid",
    infer_same,
    "Elementwise logistic sigmoid `1 / (1 + exp(-x))`.",
    FloatTensor,
    ScalarFn::float(formula::sigmoid)
);
unary!(
    ReluOp,
    "graph.relu",
    infer_same,
    "Elementwise `max(x, 0)`.",
    AnyTensor,
    ScalarFn::any(formula::relu)
);
unary!(
    SiluOp,
    "graph.silu",
    infer_same,
    "Elementwise `x * sigmoid(x)`.",
    FloatTensor,
    ScalarFn::float(formula::silu)
);
unary!(
    SoftplusOp,
    "graph.softplus",
    infer_same,
    "Elementwise `log(1 + exp(x))`.",
    FloatTensor,
    ScalarFn::float(formula::softplus)
);
unary!(
    NotOp,
    "graph.not",
    infer_same,
    "Elementwise bitwise negation of an integer tensor (logical on `i1`).",
    AnyIntTensor,
    ScalarFn::bitwise(formula::not)
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
     interfaces(ShapeFunction(infer::infer_gelu),
                ScalarFn::with_params(formula::gelu, gelu_params)))]
pub struct GeluOp {
    input: Operand<FloatTensor>,
    #[default = "\"none\""]
    approximate: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

unary!(
    AcosOp,
    "graph.acos",
    infer_same,
    "Elementwise arccosine, in [0, π] (NaN outside [-1, 1]).",
    FloatTensor,
    ScalarFn::float(formula::acos)
);
unary!(
    AsinOp,
    "graph.asin",
    infer_same,
    "Elementwise arcsine, in [-π/2, π/2] (NaN outside [-1, 1]).",
    FloatTensor,
    ScalarFn::float(formula::asin)
);
unary!(
    AtanOp,
    "graph.atan",
    infer_same,
    "Elementwise arctangent, in (-π/2, π/2).",
    FloatTensor,
    ScalarFn::float(formula::atan)
);
unary!(
    TanOp,
    "graph.tan",
    infer_same,
    "Elementwise tangent (NaN at ±inf).",
    FloatTensor,
    ScalarFn::float(formula::tan)
);

macro_rules! unary_alpha {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt, $default:tt, $formula:path, $params:ident) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure, ResultsBroadcastableShape),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
                             verify = verify_shapes,
                             interfaces(ShapeFunction(infer::$shape),
                                        ScalarFn::with_params($formula, $params)))]
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
    "1.000000e-02 : f64",
    formula::leaky_relu,
    leaky_relu_params
);
unary_alpha!(
    EluOp,
    "graph.elu",
    infer_same,
    "Elementwise `x <= 0 ? alpha * (exp(x) - 1) : x`.",
    "1.000000e+00 : f64",
    formula::elu,
    elu_params
);

/// Elementwise `max(0, min(1, alpha * x + beta))`.
#[op("graph.hard_sigmoid",
     traits(Pure, ResultsBroadcastableShape),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_same),
                ScalarFn::with_params(formula::hard_sigmoid, hard_sigmoid_params)))]
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

// The attributes the parameterized formulas read.

fn gelu_params(ctx: &Context, op: Operation) -> Vec<f64> {
    vec![f64::from(u8::from(GeluOp(op).approximate(ctx) == "tanh"))]
}

fn leaky_relu_params(ctx: &Context, op: Operation) -> Vec<f64> {
    vec![LeakyReluOp(op).alpha(ctx)]
}

fn elu_params(ctx: &Context, op: Operation) -> Vec<f64> {
    vec![EluOp(op).alpha(ctx)]
}

fn hard_sigmoid_params(ctx: &Context, op: Operation) -> Vec<f64> {
    let h = HardSigmoidOp(op);
    vec![h.alpha(ctx), h.beta(ctx)]
}

/// The formulas of the unary ops above (see [`crate::graph::scalar`]): the
/// only statement of what each computes, for eager and graph mode alike.
pub mod formula {
    use crate::graph::scalar::{Formula, Sv};

    pub fn neg(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.neg(x)
    }

    pub fn abs(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.abs(x)
    }

    /// -1, 0 or 1; keeps -0 and NaN.
    pub fn sign(f: &mut Formula<'_>, x: Sv) -> Sv {
        let (zero, one, minus) = (f.c(0.0), f.c(1.0), f.c(-1.0));
        let below = f.lt(x, zero);
        let inner = f.select(below, minus, x);
        let above = f.gt(x, zero);
        f.select(above, one, inner)
    }

    pub fn sqrt(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.sqrt(x)
    }

    pub fn rsqrt(f: &mut Formula<'_>, x: Sv) -> Sv {
        let one = f.c(1.0);
        let r = f.sqrt(x);
        f.div(one, r)
    }

    pub fn reciprocal(f: &mut Formula<'_>, x: Sv) -> Sv {
        let one = f.c(1.0);
        f.div(one, x)
    }

    pub fn exp(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.exp(x)
    }

    pub fn log(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.log(x)
    }

    pub fn erf(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.erf(x)
    }

    pub fn tanh(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.tanh(x)
    }

    pub fn sin(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.sin(x)
    }

    pub fn cos(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.cos(x)
    }

    pub fn floor(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.floor(x)
    }

    pub fn ceil(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.ceil(x)
    }

    /// ONNX `Round`: halves to even.
    pub fn round(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.round_even(x)
    }

    pub fn acos(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.acos(x)
    }

    pub fn asin(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.asin(x)
    }

    pub fn atan(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.atan(x)
    }

    /// `sin(x) / cos(x)`, as the ONNX reference computes it.
    pub fn tan(f: &mut Formula<'_>, x: Sv) -> Sv {
        let s = f.sin(x);
        let c = f.cos(x);
        f.div(s, c)
    }

    /// `1 / (1 + e^-x)` above 0 and `e^x / (1 + e^x)` below: no overflow of
    /// `e^-x` for large negative `x`.
    pub fn sigmoid(f: &mut Formula<'_>, x: Sv) -> Sv {
        let (zero, one) = (f.c(0.0), f.c(1.0));
        let nx = f.neg(x);
        let en = f.exp(nx);
        let d = f.add(one, en);
        let pos = f.div(one, d);
        let e = f.exp(x);
        let d = f.add(one, e);
        let neg = f.div(e, d);
        let c = f.ge(x, zero);
        f.select(c, pos, neg)
    }

    /// `max(x, 0)`, NaN stays NaN and -0 stays -0.
    pub fn relu(f: &mut Formula<'_>, x: Sv) -> Sv {
        let zero = f.c(0.0);
        let below = f.lt(x, zero);
        f.select(below, zero, x)
    }

    pub fn silu(f: &mut Formula<'_>, x: Sv) -> Sv {
        let s = sigmoid(f, x);
        f.mul(x, s)
    }

    /// `log(1 + e^x)` as `x + log1p(e^-x)` above 0 and `log1p(e^x)` below:
    /// no overflow, and exact where `e^x` is tiny (softplus(-20) is 2.06e-9).
    pub fn softplus(f: &mut Formula<'_>, x: Sv) -> Sv {
        let zero = f.c(0.0);
        let nx = f.neg(x);
        let en = f.exp(nx);
        let l = f.log1p(en);
        let pos = f.add(x, l);
        let e = f.exp(x);
        let neg = f.log1p(e);
        let c = f.gt(x, zero);
        f.select(c, pos, neg)
    }

    /// Bitwise (on `i1`, logical) negation.
    pub fn not(f: &mut Formula<'_>, x: Sv) -> Sv {
        f.not(x)
    }

    /// `x >= 0 ? x : alpha * x` (param 0: alpha).
    pub fn leaky_relu(f: &mut Formula<'_>, x: Sv) -> Sv {
        let (zero, alpha) = (f.c(0.0), f.param(0));
        let ax = f.mul(alpha, x);
        let c = f.ge(x, zero);
        f.select(c, x, ax)
    }

    /// `x > 0 ? x : alpha * expm1(x)` (param 0: alpha).
    pub fn elu(f: &mut Formula<'_>, x: Sv) -> Sv {
        let (zero, alpha) = (f.c(0.0), f.param(0));
        let em1 = f.expm1(x);
        let neg = f.mul(alpha, em1);
        let c = f.gt(x, zero);
        f.select(c, x, neg)
    }

    /// `min(max(alpha * x + beta, 0), 1)`, NaN stays NaN (params: alpha, beta).
    pub fn hard_sigmoid(f: &mut Formula<'_>, x: Sv) -> Sv {
        let (alpha, beta) = (f.param(0), f.param(1));
        let (zero, one) = (f.c(0.0), f.c(1.0));
        let ax = f.mul(alpha, x);
        let v = f.add(ax, beta);
        let lo = f.maximum(v, zero);
        f.minimum(lo, one)
    }

    /// `x/2 * (1 + erf(x / sqrt 2))`, or with param 0 set the tanh
    /// approximation `x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`.
    pub fn gelu(f: &mut Formula<'_>, x: Sv) -> Sv {
        let (half, one) = (f.c(0.5), f.c(1.0));
        let inner = if f.param_value(0) == 1.0 {
            let c = f.c((2.0 / std::f64::consts::PI).sqrt());
            let k = f.c(0.044715);
            let x2 = f.mul(x, x);
            let x3 = f.mul(x2, x);
            let kx3 = f.mul(k, x3);
            let sum = f.add(x, kx3);
            let arg = f.mul(c, sum);
            f.tanh(arg)
        } else {
            let r2 = f.c(std::f64::consts::SQRT_2);
            let arg = f.div(x, r2);
            f.erf(arg)
        };
        let p = f.add(one, inner);
        let hx = f.mul(half, x);
        f.mul(hx, p)
    }
}
