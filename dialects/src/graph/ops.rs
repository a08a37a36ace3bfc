//! The ops of the `graph` dialect.
//!
//! Semantics follow the ONNX operator of the same name (opset 13 and later):
//! what ONNX passes as an input tensor (a reshape's target shape, a slice's
//! bounds, a reduction's axes) is an operand here too, so that a graph with
//! dynamic values can be represented; what ONNX passes as an attribute is a
//! property. Every op verifies its operands and declared result types with
//! its shape function (see [`super::infer`]).

use strata_ir::ods::constraints::{AnyAttr, I64Attr, StrAttr};
use strata_ir::{attr_constraint, op, type_constraint};
use strata_ir::{Context, OperationState, Type, TypeKind};

use super::fold::{fold_constant, fold_graph, reshape_patterns, transpose_patterns};
use super::infer::{self, verify_shapes, ShapeFunction};

type_constraint!(
    /// A ranked or unranked tensor of any element type.
    AnyTensor, "tensor of any type values", |ctx, ty| matches!(
        ctx.type_kind(ty),
        TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }
    )
);
type_constraint!(
    /// A tensor of floats.
    FloatTensor, "tensor of floating-point values", |ctx, ty| matches!(
        ctx.type_kind(ty),
        TypeKind::RankedTensor { element, .. } | TypeKind::UnrankedTensor { element }
            if ctx.float_kind(*element).is_some()
    )
);
type_constraint!(
    /// A tensor of `i1`.
    BoolTensor, "tensor of 1-bit signless integer values", |ctx, ty| matches!(
        ctx.type_kind(ty),
        TypeKind::RankedTensor { element, .. } | TypeKind::UnrankedTensor { element }
            if strata_ir::ods::constraints::is_i1(ctx, *element)
    )
);
type_constraint!(
    /// A tensor of integers of any width and signedness, `i1` included.
    AnyIntTensor, "tensor of integer values", |ctx, ty| matches!(
        ctx.type_kind(ty),
        TypeKind::RankedTensor { element, .. } | TypeKind::UnrankedTensor { element }
            if matches!(ctx.type_kind(*element), TypeKind::Integer { .. })
    )
);
type_constraint!(
    /// A tensor of signless integers (indices, shapes, axes).
    IntTensor, "tensor of signless integer values", |ctx, ty| matches!(
        ctx.type_kind(ty),
        TypeKind::RankedTensor { element, .. } | TypeKind::UnrankedTensor { element }
            if strata_ir::ods::constraints::is_signless_int(ctx, *element)
    )
);

attr_constraint!(
    /// `array<i64: ...>`.
    I64ArrayAttr, "i64 dense array attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::DenseArray { element, .. }
            if matches!(ctx.type_kind(*element), TypeKind::Integer { width: 64, .. })
    ),
    value: Vec<i64> = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::attributes::AttrKind::DenseArray { values, .. } => {
            Some(values.iter().map(|&v| v as i64).collect())
        }
        _ => None,
    }
);
attr_constraint!(
    /// A 64-bit float attribute.
    F64Attr, "64-bit float attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::Float { ty, .. }
            if ctx.float_kind(*ty) == Some(strata_ir::float::FloatKind::F64)
    ),
    value: f64 = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::attributes::AttrKind::Float { ty, bits }
            if ctx.float_kind(*ty) == Some(strata_ir::float::FloatKind::F64) =>
        {
            Some(f64::from_bits(*bits as u64))
        }
        _ => None,
    }
);
attr_constraint!(
    /// A boolean (`true` / `false`).
    BoolAttr, "bool attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| strata_ir::ods::constraints::is_signless_int_attr(ctx, attr, 1),
    value: bool = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::attributes::AttrKind::Integer { value, .. } => Some(*value != 0),
        _ => None,
    }
);
attr_constraint!(
    /// An elements attribute (`dense<...>`, `dense_resource<...>`).
    ElementsAttr, "constant vector/tensor attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::DenseElements { .. }
            | strata_ir::attributes::AttrKind::DenseResource { .. }
    )
);

// ----- constant -----

/// A constant tensor.
///
/// `%0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>`; the result has
/// the type of the value.
#[op("graph.constant",
     traits(Pure, ConstantLike),
     format = "attr-dict $value",
     infer = infer_constant,
     fold = fold_constant,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_constant)))]
pub struct ConstantOp {
    value: Attr<ElementsAttr>,
    output: Result<AnyTensor>,
}

fn infer_constant(ctx: &mut Context, state: &OperationState) -> Result<Vec<Type>, String> {
    let value = state
        .attributes
        .iter()
        .chain(
            state
                .properties
                .and_then(|p| match ctx.attr_kind(p) {
                    strata_ir::attributes::AttrKind::Dictionary(entries) => Some(&entries[..]),
                    _ => None,
                })
                .unwrap_or(&[]),
        )
        .find(|(n, _)| ctx.ident_str(*n) == "value")
        .map(|(_, v)| *v)
        .ok_or_else(|| "requires attribute 'value'".to_string())?;
    strata_ir::ods::constraints::attr_type(ctx, value)
        .map(|t| vec![t])
        .ok_or_else(|| "'value' must be an elements attribute".to_string())
}

// ----- elementwise -----

macro_rules! binary {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt, $c:ty $(, $trait:ident)*) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure $(, $trait)*),
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
     traits(Pure),
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
                             traits(Pure),
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
     traits(Pure),
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

macro_rules! unary_alpha {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt, $default:tt) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure),
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
     traits(Pure),
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
     traits(Pure),
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
/// nonzero value is true.
#[op("graph.cast",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_cast)))]
pub struct CastOp {
    input: Operand<AnyTensor>,
    output: Result<AnyTensor>,
}

/// Elementwise choice: `condition ? x : y`, with broadcasting of all three.
#[op("graph.where",
     traits(Pure),
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

// ----- contractions -----

/// Matrix product with NumPy's rules: 1-D operands are promoted, leading
/// (batch) dimensions broadcast.
#[op("graph.matmul",
     traits(Pure),
     format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_matmul)))]
pub struct MatMulOp {
    lhs: Operand<AnyTensor>,
    rhs: Operand<AnyTensor>,
    output: Result<AnyTensor>,
}

/// General matrix multiplication: `alpha * op(a) * op(b) + beta * c`,
/// where `op` transposes when `transA` / `transB` is set; `c` broadcasts to
/// the result.
#[op("graph.gemm",
     traits(Pure),
     format = "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gemm)))]
pub struct GemmOp {
    a: Operand<AnyTensor>,
    b: Operand<AnyTensor>,
    c: Optional<AnyTensor>,
    #[default = "1.000000e+00 : f64"]
    alpha: Attr<F64Attr>,
    #[default = "1.000000e+00 : f64"]
    beta: Attr<F64Attr>,
    #[default = "false"]
    transA: Attr<BoolAttr>,
    #[default = "false"]
    transB: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// 2-D convolution, NCHW input and `[M, C / group, kH, kW]` weights.
///
/// `pads` is `[top, left, bottom, right]`.
#[op("graph.conv2d",
     traits(Pure),
     format = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_conv2d)))]
pub struct Conv2dOp {
    input: Operand<FloatTensor>,
    weight: Operand<FloatTensor>,
    bias: Optional<FloatTensor>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "1"]
    group: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// 2-D transposed convolution (ONNX `ConvTranspose`) of `input: [N, C, H,
/// W]` with `weight: [C, M/group, kH, kW]` and an optional `bias: [M]`.
/// Each input element scatters `weight` times itself into the output at
/// `(i * stride + k * dilation - pad_begin)`; the output's spatial sizes
/// are `output_shape` when given, else `stride * (in - 1) + output_padding
/// + (kernel - 1) * dilation + 1 - pad_begin - pad_end`.
#[op("graph.conv_transpose2d",
     traits(Pure),
     format = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_conv_transpose2d)))]
pub struct ConvTranspose2dOp {
    input: Operand<FloatTensor>,
    weight: Operand<FloatTensor>,
    bias: Optional<FloatTensor>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "1"]
    group: Attr<I64Attr>,
    #[default = "array<i64: 0, 0>"]
    output_padding: Attr<I64ArrayAttr>,
    output_shape: OptionalAttr<I64ArrayAttr>,
    output: Result<AnyTensor>,
}

/// 2-D max pooling of an NCHW tensor; padding never wins.
///
/// The optional `indices` result (`i64`) holds, for each output, the
/// position of the maximum in the input flattened in row-major order, or
/// with each H x W plane in column-major order when `storage_order` is 1.
#[op("graph.max_pool2d",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_pool)))]
pub struct MaxPool2dOp {
    input: Operand<AnyTensor>,
    kernel_shape: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "false"]
    ceil_mode: Attr<BoolAttr>,
    #[default = "0"]
    storage_order: Attr<I64Attr>,
    output: Result<AnyTensor>,
    indices: OptionalResult<IntTensor>,
}

/// 2-D average pooling of an NCHW tensor.
#[op("graph.avg_pool2d",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_pool)))]
pub struct AvgPool2dOp {
    input: Operand<FloatTensor>,
    kernel_shape: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "false"]
    ceil_mode: Attr<BoolAttr>,
    #[default = "false"]
    count_include_pad: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

macro_rules! global_pool {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<FloatTensor>,
            output: Result<AnyTensor>,
        }
    };
}

global_pool!(
    GlobalAvgPoolOp,
    "graph.global_avg_pool",
    infer_global_pool,
    "Average over all spatial dimensions (2 and up), kept as size 1."
);
global_pool!(
    GlobalMaxPoolOp,
    "graph.global_max_pool",
    infer_global_pool,
    "Maximum over all spatial dimensions (2 and up), kept as size 1."
);

// ----- normalizations -----

macro_rules! softmax {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<FloatTensor>,
            #[default = "-1"]
            axis: Attr<I64Attr>,
            output: Result<AnyTensor>,
        }
    };
}

softmax!(
    SoftmaxOp,
    "graph.softmax",
    infer_axis_same,
    "Softmax along one axis."
);
softmax!(
    LogSoftmaxOp,
    "graph.log_softmax",
    infer_axis_same,
    "Logarithm of the softmax along one axis."
);

/// Layer normalization over the dimensions from `axis` on, then
/// `* scale + bias`.
#[op("graph.layer_norm",
     traits(Pure),
     format = "$input `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_norm)))]
pub struct LayerNormOp {
    input: Operand<FloatTensor>,
    scale: Operand<FloatTensor>,
    bias: Optional<FloatTensor>,
    #[default = "-1"]
    axis: Attr<I64Attr>,
    #[default = "9.9999997473787516E-6 : f64"]
    epsilon: Attr<F64Attr>,
    output: Result<AnyTensor>,
}

/// Root-mean-square normalization over the dimensions from `axis` on,
/// then `* scale`.
#[op("graph.rms_norm",
     traits(Pure),
     format = "$input `,` $scale attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_norm)))]
pub struct RmsNormOp {
    input: Operand<FloatTensor>,
    scale: Operand<FloatTensor>,
    #[default = "-1"]
    axis: Attr<I64Attr>,
    #[default = "9.9999997473787516E-6 : f64"]
    epsilon: Attr<F64Attr>,
    output: Result<AnyTensor>,
}

/// Batch normalization for inference: `(x - mean) / sqrt(var + epsilon) *
/// scale + bias`, per channel (dimension 1).
#[op("graph.batch_norm",
     traits(Pure),
     format = "$input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_batch_norm)))]
pub struct BatchNormOp {
    input: Operand<FloatTensor>,
    scale: Operand<FloatTensor>,
    bias: Operand<FloatTensor>,
    mean: Operand<FloatTensor>,
    variance: Operand<FloatTensor>,
    #[default = "9.9999997473787516E-6 : f64"]
    epsilon: Attr<F64Attr>,
    output: Result<AnyTensor>,
}

/// Dropout in training mode: each element is zeroed with probability
/// `ratio` (a scalar in `[0, 1)`) and the others are scaled by
/// `1 / (1 - ratio)`. The optional `mask` result is true where an element
/// was kept.
///
/// With the optional `training` operand (a scalar `i1`), the op drops only
/// when it is true and is the identity (mask all true) otherwise, as ONNX's
/// `training_mode` input. The draws are a function of `seed` and the
/// input's shape, so the same program gives the same result on every run.
/// Dropout known to run in inference is the identity and has no op.
#[op("graph.dropout",
     traits(Pure),
     format = "$input `,` $ratio (`training` $training^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_dropout)))]
pub struct DropoutOp {
    input: Operand<FloatTensor>,
    ratio: Operand<FloatTensor>,
    training: Optional<BoolTensor>,
    #[default = "0"]
    seed: Attr<I64Attr>,
    output: Result<AnyTensor>,
    mask: OptionalResult<BoolTensor>,
}

// ----- reductions -----

macro_rules! reduce {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt) => {
        #[doc = $summary]
        ///
        /// `axes` (an optional 1-D `i64` tensor) lists the reduced
        /// dimensions; without it, or when it is empty, every dimension is
        /// reduced unless `noop_with_empty_axes` is set.
        #[op($mnemonic,
             traits(Pure),
             format = "$input (`axes` $axes^)? attr-dict `:` functional-type(operands, results)",
             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<AnyTensor>,
            axes: Optional<IntTensor>,
            #[default = "true"]
            keepdims: Attr<BoolAttr>,
            #[default = "false"]
            noop_with_empty_axes: Attr<BoolAttr>,
            output: Result<AnyTensor>,
        }
    };
}

reduce!(
    ReduceSumOp,
    "graph.reduce_sum",
    infer_reduce,
    "Sum over the given axes."
);
reduce!(
    ReduceMeanOp,
    "graph.reduce_mean",
    infer_reduce,
    "Mean over the given axes."
);
reduce!(
    ReduceMaxOp,
    "graph.reduce_max",
    infer_reduce,
    "Maximum over the given axes."
);
reduce!(
    ReduceMinOp,
    "graph.reduce_min",
    infer_reduce,
    "Minimum over the given axes."
);
reduce!(
    ReduceProdOp,
    "graph.reduce_prod",
    infer_reduce,
    "Product over the given axes."
);
reduce!(
    ReduceSumSquareOp,
    "graph.reduce_sum_square",
    infer_reduce,
    "Sum of squares over the given axes."
);
reduce!(
    ReduceL1Op,
    "graph.reduce_l1",
    infer_reduce,
    "Sum of absolute values over the given axes."
);
reduce!(
    ReduceL2Op,
    "graph.reduce_l2",
    infer_reduce,
    "Euclidean norm over the given axes."
);
reduce!(
    ReduceLogSumExpOp,
    "graph.reduce_log_sum_exp",
    infer_reduce,
    "`log(sum(exp(x)))` over the given axes."
);

macro_rules! arg_reduce {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<AnyTensor>,
            #[default = "0"]
            axis: Attr<I64Attr>,
            #[default = "true"]
            keepdims: Attr<BoolAttr>,
            #[default = "false"]
            select_last_index: Attr<BoolAttr>,
            output: Result<IntTensor>,
        }
    };
}

arg_reduce!(
    ArgMaxOp,
    "graph.argmax",
    infer_arg_reduce,
    "Index (`i64`) of the maximum along one axis."
);
arg_reduce!(
    ArgMinOp,
    "graph.argmin",
    infer_arg_reduce,
    "Index (`i64`) of the minimum along one axis."
);

// ----- data movement -----

/// The same elements with another shape.
///
/// `shape` is a 1-D `i64` tensor; `0` copies the input's dimension (unless
/// `allowzero`), `-1` is inferred from the element count.
#[op("graph.reshape",
     traits(Pure),
     canonicalize = reshape_patterns,
     format = "$input `,` $shape attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_reshape)))]
pub struct ReshapeOp {
    input: Operand<AnyTensor>,
    shape: Operand<IntTensor>,
    #[default = "false"]
    allowzero: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// Permutes the dimensions: result dimension `i` is input dimension
/// `perm[i]` (reversed when `perm` is absent).
#[op("graph.transpose",
     traits(Pure),
     canonicalize = transpose_patterns,
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_transpose)))]
pub struct TransposeOp {
    input: Operand<AnyTensor>,
    perm: OptionalAttr<I64ArrayAttr>,
    output: Result<AnyTensor>,
}

/// Broadcasts the input to a shape (1-D `i64` tensor), with the
/// multidirectional rule.
#[op("graph.expand",
     traits(Pure),
     format = "$input `,` $shape attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_expand)))]
pub struct ExpandOp {
    input: Operand<AnyTensor>,
    shape: Operand<IntTensor>,
    output: Result<AnyTensor>,
}

/// Concatenation along one axis.
#[op("graph.concat",
     traits(Pure),
     format = "$inputs attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_concat)))]
pub struct ConcatOp {
    inputs: Variadic<AnyTensor>,
    axis: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// Splits along one axis, into the sizes of `split` (a 1-D `i64` tensor)
/// or into as many equal parts as there are results.
#[op("graph.split",
     traits(Pure),
     format = "$input (`sizes` $split^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_split)))]
pub struct SplitOp {
    input: Operand<AnyTensor>,
    split: Optional<IntTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    outputs: VariadicResult<AnyTensor>,
}

/// A strided slice: `starts`, `ends`, `axes` and `steps` are 1-D integer
/// tensors with ONNX's semantics (negative indices count from the end,
/// out-of-range bounds clamp, negative steps go backwards).
#[op("graph.slice",
     traits(Pure),
     format = "$input `,` $starts `,` $ends (`axes` $axes^)? (`steps` $steps^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_slice)))]
pub struct SliceOp {
    input: Operand<AnyTensor>,
    starts: Operand<IntTensor>,
    ends: Operand<IntTensor>,
    axes: Optional<IntTensor>,
    steps: Optional<IntTensor>,
    output: Result<AnyTensor>,
}

/// Resizes the input by interpolation (ONNX `Resize`): along `axes` (every
/// axis when absent), to `floor(scale * size)` for each of `scales`, or to
/// `sizes` (exactly one of the two is given). `mode` is `"nearest"`,
/// `"linear"` or `"cubic"`; `coordinate_transformation_mode` maps output
/// coordinates to input ones (`"half_pixel"`, `"half_pixel_symmetric"`,
/// `"pytorch_half_pixel"`, `"align_corners"`, `"asymmetric"`,
/// `"tf_crop_and_resize"`, which needs `roi`).
#[op("graph.resize",
     traits(Pure),
     format = "$input (`roi` $roi^)? (`scales` $scales^)? (`sizes` $sizes^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_resize)))]
pub struct ResizeOp {
    input: Operand<AnyTensor>,
    roi: Optional<FloatTensor>,
    scales: Optional<FloatTensor>,
    sizes: Optional<IntTensor>,
    #[default = "\"nearest\""]
    mode: Attr<StrAttr>,
    #[default = "\"half_pixel\""]
    coordinate_transformation_mode: Attr<StrAttr>,
    #[default = "\"round_prefer_floor\""]
    nearest_mode: Attr<StrAttr>,
    #[default = "-7.500000e-01 : f64"]
    cubic_coeff_a: Attr<F64Attr>,
    #[default = "false"]
    exclude_outside: Attr<BoolAttr>,
    #[default = "0.000000e+00 : f64"]
    extrapolation_value: Attr<F64Attr>,
    #[default = "false"]
    antialias: Attr<BoolAttr>,
    #[default = "\"stretch\""]
    keep_aspect_ratio_policy: Attr<StrAttr>,
    axes: OptionalAttr<I64ArrayAttr>,
    output: Result<AnyTensor>,
}

/// Samples `input: [N, C, D1..Dk]` at the normalized coordinates in `[-1,
/// 1]` of `grid: [N, H1..Hk, k]` (a point's last entry addresses the last
/// dimension): `mode` `"nearest"`, `"linear"` or `"cubic"`,
/// `padding_mode` `"zeros"`, `"border"` or `"reflection"`; the result is
/// `[N, C, H1..Hk]`.
#[op("graph.grid_sample",
     traits(Pure),
     format = "$input `,` $grid attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_grid_sample)))]
pub struct GridSampleOp {
    input: Operand<FloatTensor>,
    grid: Operand<FloatTensor>,
    #[default = "\"linear\""]
    mode: Attr<StrAttr>,
    #[default = "\"zeros\""]
    padding_mode: Attr<StrAttr>,
    #[default = "false"]
    align_corners: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// Non-maximum suppression (ONNX `NonMaxSuppression`) of `boxes: [B, N,
/// 4]` by `scores: [B, C, N]`: the `[K, 3]` `(batch, class, box)` indices
/// kept, K known only at run time. Without `max_output_boxes_per_class`
/// nothing is kept, as ONNX says.
#[op("graph.non_max_suppression",
     traits(Pure),
     format = "$boxes `,` $scores (`max_output` $max_output_boxes_per_class^)? (`iou` $iou_threshold^)? (`score` $score_threshold^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_nms)))]
pub struct NonMaxSuppressionOp {
    boxes: Operand<FloatTensor>,
    scores: Operand<FloatTensor>,
    max_output_boxes_per_class: Optional<IntTensor>,
    iou_threshold: Optional<FloatTensor>,
    score_threshold: Optional<FloatTensor>,
    #[default = "false"]
    center_point_box: Attr<BoolAttr>,
    output: Result<IntTensor>,
}

/// The discrete Fourier transform (ONNX `DFT`) along `axis` of a signal
/// whose last dimension holds real (1) or complex (2) values; `length`
/// zero-pads or truncates it; `inverse` and `onesided` as ONNX (an inverse
/// one-sided transform gives a real signal). The axis is the `axis`
/// attribute, or the scalar `axis_value` operand when given (ONNX's run-time
/// axis input).
#[op("graph.dft",
     traits(Pure),
     format = "$input (`length` $length^)? (`axis` $axis_value^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_dft)))]
pub struct DftOp {
    input: Operand<FloatTensor>,
    length: Optional<IntTensor>,
    axis_value: Optional<IntTensor>,
    #[default = "1"]
    axis: Attr<I64Attr>,
    #[default = "false"]
    inverse: Attr<BoolAttr>,
    #[default = "false"]
    onesided: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// Gathers single elements: `output[p] = input[p with p[axis] =
/// indices[p]]` (negative indices count from the end). `indices` has the
/// rank of `input`; the result has its shape.
#[op("graph.gather_elements",
     traits(Pure),
     format = "$input `[` $indices `]` attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gather_elements)))]
pub struct GatherElementsOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// Gathers slices of `input` at the index tuples in the last dimension of
/// `indices` (ONNX `GatherND`; negative entries count from the end); the
/// first `batch_dims` dimensions are shared.
#[op("graph.gather_nd",
     traits(Pure),
     format = "$input `[` $indices `]` attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gather_nd)))]
pub struct GatherNdOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    #[default = "0"]
    batch_dims: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// A copy of `input` with each element of `updates` written at
/// `p with p[axis] = indices[p]`, or combined with the element there by
/// `reduction` (`"none"`, `"add"`, `"mul"`, `"max"`, `"min"`).
#[op("graph.scatter_elements",
     traits(Pure),
     format = "$input `[` $indices `]` `,` $updates attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_scatter_elements)))]
pub struct ScatterElementsOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    updates: Operand<AnyTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    #[default = "\"none\""]
    reduction: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

/// A copy of `input` with slices of `updates` written (or combined by
/// `reduction`) at the index tuples in the last dimension of `indices`.
#[op("graph.scatter_nd",
     traits(Pure),
     format = "$input `[` $indices `]` `,` $updates attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_scatter_nd)))]
pub struct ScatterNdOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    updates: Operand<AnyTensor>,
    #[default = "\"none\""]
    reduction: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

/// Running sums along the axis given by the scalar `axis` operand;
/// `exclusive` leaves each element out of its own sum, `reverse` sums from
/// the end.
#[op("graph.cumsum",
     traits(Pure),
     format = "$input `,` $axis attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_cumsum)))]
pub struct CumsumOp {
    input: Operand<AnyTensor>,
    axis: Operand<IntTensor>,
    #[default = "false"]
    exclusive: Attr<BoolAttr>,
    #[default = "false"]
    reverse: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// Elementwise shift of unsigned integers by the bits in `rhs`
/// (`direction` `"left"` or `"right"`), with broadcasting; shifting by the
/// width or more gives 0.
#[op("graph.bit_shift",
     traits(Pure),
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

/// Running products along the axis given by the scalar `axis` operand;
/// `exclusive` leaves each element out of its own product (which starts at
/// 1), `reverse` multiplies from the end.
#[op("graph.cumprod",
     traits(Pure),
     format = "$input `,` $axis attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_cumsum)))]
pub struct CumprodOp {
    input: Operand<AnyTensor>,
    axis: Operand<IntTensor>,
    #[default = "false"]
    exclusive: Attr<BoolAttr>,
    #[default = "false"]
    reverse: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// The `k` largest (`largest`) or smallest elements along `axis`, sorted,
/// and their positions (`i64`); equal elements keep their index order and
/// NaN is larger than every number. `k` is a one-element operand.
#[op("graph.top_k",
     traits(Pure),
     format = "$input `,` $k attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_top_k)))]
pub struct TopKOp {
    input: Operand<AnyTensor>,
    k: Operand<IntTensor>,
    #[default = "-1"]
    axis: Attr<I64Attr>,
    #[default = "true"]
    largest: Attr<BoolAttr>,
    values: Result<AnyTensor>,
    indices: Result<IntTensor>,
}

/// Gathers slices of `input` along `axis` at `indices` (negative indices
/// count from the end).
#[op("graph.gather",
     traits(Pure),
     format = "$input `[` $indices `]` attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gather)))]
pub struct GatherOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// Removes dimensions of size 1: those listed in `axes` (a 1-D `i64`
/// tensor), or all of them.
#[op("graph.squeeze",
     traits(Pure),
     format = "$input (`axes` $axes^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_squeeze)))]
pub struct SqueezeOp {
    input: Operand<AnyTensor>,
    axes: Optional<IntTensor>,
    output: Result<AnyTensor>,
}

/// Inserts dimensions of size 1 at the positions of `axes` (a 1-D `i64`
/// tensor, positions in the result).
#[op("graph.unsqueeze",
     traits(Pure),
     format = "$input `,` $axes attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_unsqueeze)))]
pub struct UnsqueezeOp {
    input: Operand<AnyTensor>,
    axes: Operand<IntTensor>,
    output: Result<AnyTensor>,
}

/// Flattens to 2-D: dimensions before `axis` and from `axis` on.
#[op("graph.flatten",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_flatten)))]
pub struct FlattenOp {
    input: Operand<AnyTensor>,
    #[default = "1"]
    axis: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// Pads (or crops, with negative amounts) each dimension.
///
/// `pads` is a 1-D `i64` tensor of all the begin amounts, then all the end
/// amounts (of the dimensions listed in `axes` when given, else of every
/// dimension); `mode` is `constant` (with `value`, default 0), `reflect`,
/// `edge` or `wrap`.
#[op("graph.pad",
     traits(Pure),
     format = "$input `,` $pads (`value` $value^)? (`axes` $axes^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_pad)))]
pub struct PadOp {
    input: Operand<AnyTensor>,
    pads: Operand<IntTensor>,
    value: Optional<AnyTensor>,
    axes: Optional<IntTensor>,
    #[default = "\"constant\""]
    mode: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

/// Repeats the input `repeats[i]` times along each dimension.
#[op("graph.tile",
     traits(Pure),
     format = "$input `,` $repeats attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_tile)))]
pub struct TileOp {
    input: Operand<AnyTensor>,
    repeats: Operand<IntTensor>,
    output: Result<AnyTensor>,
}

/// The shape of the input as a 1-D `i64` tensor, dimensions
/// `[start, end)` (negative values count from the end).
#[op("graph.shape_of",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_shape_of)))]
pub struct ShapeOfOp {
    input: Operand<AnyTensor>,
    #[default = "0"]
    start: Attr<I64Attr>,
    end: OptionalAttr<I64Attr>,
    output: Result<IntTensor>,
}

/// The number of elements of the input, as an `i64` scalar tensor.
#[op("graph.size",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_size)))]
pub struct SizeOp {
    input: Operand<AnyTensor>,
    output: Result<IntTensor>,
}

/// A tensor of the given shape (a 1-D `i64` tensor) filled with `value`
/// (a one-element tensor; zero of `f32` when absent).
#[op("graph.constant_of_shape",
     traits(Pure),
     format = "$shape attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_constant_of_shape)))]
pub struct ConstantOfShapeOp {
    shape: Operand<IntTensor>,
    value: OptionalAttr<ElementsAttr>,
    output: Result<AnyTensor>,
}

/// `start, start + delta, ...` up to (excluding) `limit`; all three are
/// scalar tensors of the result's element type.
#[op("graph.range",
     traits(Pure),
     format = "$start `,` $limit `,` $delta attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_range)))]
pub struct RangeOp {
    start: Operand<AnyTensor>,
    limit: Operand<AnyTensor>,
    delta: Operand<AnyTensor>,
    output: Result<AnyTensor>,
}

// ----- attention -----

/// Scaled dot-product attention: `softmax(q kᵀ * scale + mask) v`.
///
/// `q` is `[..., L, E]`, `k` is `[..., S, E]`, `v` is `[..., S, Ev]`; an
/// `i1` mask keeps the positions where it is true, a float mask is added;
/// `scale` defaults to `1 / sqrt(E)`; `is_causal` masks positions after the
/// query's.
#[op("graph.attention",
     traits(Pure),
     format = "$q `,` $k `,` $v (`mask` $mask^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_attention)))]
pub struct AttentionOp {
    q: Operand<FloatTensor>,
    k: Operand<FloatTensor>,
    v: Operand<FloatTensor>,
    mask: Optional<AnyTensor>,
    scale: OptionalAttr<F64Attr>,
    #[default = "false"]
    is_causal: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

// ----- custom ops -----

/// A registered custom op, named by `name` and `version`; its shape
/// function and reference implementation come from the custom-op registry
/// (`strata_dialects::graph::custom`).
#[op("graph.custom",
     format = "$name `(` $inputs `)` attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_custom)))]
pub struct CustomOp {
    name: Attr<StrAttr>,
    #[default = "1"]
    version: Attr<I64Attr>,
    config: OptionalAttr<AnyAttr>,
    inputs: Variadic<AnyTensor>,
    outputs: VariadicResult<AnyTensor>,
}
