//! The `math` dialect: elementary functions on floats (MLIR's `math`).

use strata_ir::dialect::FoldResult;
use strata_ir::ods::constraints::FloatLike;
use strata_ir::{op, Attribute, Context, Operation};

use crate::arith::FastMathAttr;
use crate::fold;

macro_rules! unary {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:expr) => {
        #[doc = $summary]
        #[op($mnemonic,
                     traits(Pure, SameOperandsAndResultType, Elementwise),
                     format = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
                     fold = $fold)]
        pub struct $name {
            operand: Operand<FloatLike>,
            #[default = "#arith.fastmath<none>"]
            fastmath: Attr<FastMathAttr>,
            result: Result<FloatLike>,
        }
    };
}

/// Folds a unary op on f32 or f64 constants (scalars, splats or dense
/// elements) with `f32` / `f64` functions; MLIR folds these for f32 and f64
/// only.
fn fold_unary(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
    f32_fn: fn(f32) -> Option<f32>,
    f64_fn: fn(f64) -> Option<f64>,
) -> Option<Vec<FoldResult>> {
    let input = fold::consts(ctx, consts.first().copied().flatten()?)?;
    let width = ctx.int_or_float_bit_width(input.elem)?;
    ctx.float_kind(input.elem)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = match width {
        32 => fold::map1(ctx, ty, &input, |bits| {
            f32_fn(f32::from_bits(bits as u32)).map(|r| u128::from(r.to_bits()))
        }),
        64 => fold::map1(ctx, ty, &input, |bits| {
            f64_fn(f64::from_bits(bits as u64)).map(|r| u128::from(r.to_bits()))
        }),
        _ => None,
    }?;
    Some(vec![FoldResult::Attr(attr)])
}

macro_rules! unary_folder {
    ($fn_name:ident, $f32:expr, $f64:expr) => {
        fn $fn_name(
            ctx: &mut Context,
            op: Operation,
            consts: &[Option<Attribute>],
        ) -> Option<Vec<FoldResult>> {
            fold_unary(ctx, op, consts, $f32, $f64)
        }
    };
}

unary_folder!(fold_exp, |x| Some(x.exp()), |x| Some(x.exp()));
// As MLIR, log and sqrt of a negative number (-0.0 included) do not fold;
// NaN folds to NaN.
unary_folder!(fold_log, |x| (!x.is_sign_negative()).then(|| x.ln()), |x| {
    (!x.is_sign_negative()).then(|| x.ln())
});
// As MLIR, log1p does not fold where `x + 1` is negative.
unary_folder!(
    fold_log1p,
    |x| (!(x + 1.0).is_sign_negative()).then(|| x.ln_1p()),
    |x| (!(x + 1.0).is_sign_negative()).then(|| x.ln_1p())
);
unary_folder!(fold_expm1, |x| Some(x.exp_m1()), |x| Some(x.exp_m1()));
unary_folder!(fold_tanh, |x| Some(x.tanh()), |x| Some(x.tanh()));
unary_folder!(
    fold_sqrt,
    |x| (!x.is_sign_negative()).then(|| x.sqrt()),
    |x| (!x.is_sign_negative()).then(|| x.sqrt())
);
unary_folder!(fold_sin, |x| Some(x.sin()), |x| Some(x.sin()));
unary_folder!(fold_cos, |x| Some(x.cos()), |x| Some(x.cos()));

unary_folder!(fold_floor, |x| Some(x.floor()), |x| Some(x.floor()));
unary_folder!(fold_ceil, |x| Some(x.ceil()), |x| Some(x.ceil()));
unary_folder!(fold_round, |x| Some(x.round()), |x| Some(x.round()));
unary_folder!(fold_roundeven, |x| Some(x.round_ties_even()), |x| Some(
    x.round_ties_even()
));
unary_folder!(fold_trunc, |x| Some(x.trunc()), |x| Some(x.trunc()));
unary_folder!(fold_tan, |x| Some(x.tan()), |x| Some(x.tan()));
unary_folder!(fold_atan, |x| Some(x.atan()), |x| Some(x.atan()));
unary_folder!(fold_asin, |x| Some(x.asin()), |x| Some(x.asin()));
unary_folder!(fold_acos, |x| Some(x.acos()), |x| Some(x.acos()));

fn fold_absf(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let input = fold::consts(ctx, consts.first().copied().flatten()?)?;
    let width = ctx.int_or_float_bit_width(input.elem)?;
    ctx.float_kind(input.elem)?;
    let sign = 1u128 << (width - 1);
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = fold::map1(ctx, ty, &input, |bits| Some(bits & !sign))?;
    Some(vec![FoldResult::Attr(attr)])
}

fn no_fold(_: &mut Context, _: Operation, _: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    None
}

unary!(
    ExpOp,
    "math.exp",
    "Base-e exponential of the specified value.",
    fold_exp
);
unary!(
    LogOp,
    "math.log",
    "Base-e logarithm of the specified value.",
    fold_log
);
unary!(
    Log1pOp,
    "math.log1p",
    "Natural logarithm of one plus the specified value, exact for small values.",
    fold_log1p
);
unary!(
    ExpM1Op,
    "math.expm1",
    "Base-e exponential of the specified value minus 1, exact for small values.",
    fold_expm1
);
unary!(
    TanhOp,
    "math.tanh",
    "Hyperbolic tangent of the specified value.",
    fold_tanh
);
unary!(
    ErfOp,
    "math.erf",
    "Error function of the specified value.",
    no_fold
);
unary!(
    SqrtOp,
    "math.sqrt",
    "Square root of the specified value.",
    fold_sqrt
);
unary!(
    RsqrtOp,
    "math.rsqrt",
    "Reciprocal of the square root of the specified value.",
    no_fold
);
unary!(
    AbsFOp,
    "math.absf",
    "Floating point absolute-value operation.",
    fold_absf
);
unary!(SinOp, "math.sin", "Sine of the specified value.", fold_sin);
unary!(
    CosOp,
    "math.cos",
    "Cosine of the specified value.",
    fold_cos
);

unary!(
    FloorOp,
    "math.floor",
    "Floor of the specified value (rounds toward negative infinity).",
    fold_floor
);
unary!(
    CeilOp,
    "math.ceil",
    "Ceiling of the specified value (rounds toward positive infinity).",
    fold_ceil
);
unary!(
    RoundOp,
    "math.round",
    "Rounds to the nearest integer, halfway cases away from zero.",
    fold_round
);
unary!(
    RoundEvenOp,
    "math.roundeven",
    "Rounds to the nearest integer, halfway cases to even.",
    fold_roundeven
);
unary!(
    TruncOp,
    "math.trunc",
    "Rounds toward zero (drops the fractional part).",
    fold_trunc
);
unary!(
    TanOp,
    "math.tan",
    "Tangent of the specified value.",
    fold_tan
);
unary!(
    AtanOp,
    "math.atan",
    "Arcus tangent of the specified value, in (-π/2, π/2).",
    fold_atan
);
unary!(
    AsinOp,
    "math.asin",
    "Arcus sine of the specified value, in [-π/2, π/2] (NaN outside [-1, 1]).",
    fold_asin
);
unary!(
    AcosOp,
    "math.acos",
    "Arcus cosine of the specified value, in [0, π] (NaN outside [-1, 1]).",
    fold_acos
);

/// Floating point raised to the power of another.
#[op("math.powf",
     traits(Pure, SameOperandsAndResultType, Elementwise),
     format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
     fold = fold_powf)]
pub struct PowFOp {
    lhs: Operand<FloatLike>,
    rhs: Operand<FloatLike>,
    #[default = "#arith.fastmath<none>"]
    fastmath: Attr<FastMathAttr>,
    result: Result<FloatLike>,
}

fn fold_powf(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let a = fold::consts(ctx, consts.first().copied().flatten()?)?;
    let b = fold::consts(ctx, consts.get(1).copied().flatten()?)?;
    ctx.float_kind(a.elem)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = match ctx.int_or_float_bit_width(a.elem)? {
        32 => fold::map2(ctx, ty, &a, &b, |x, y| {
            let r = f32::from_bits(x as u32).powf(f32::from_bits(y as u32));
            Some(u128::from(r.to_bits()))
        }),
        64 => fold::map2(ctx, ty, &a, &b, |x, y| {
            let r = f64::from_bits(x as u64).powf(f64::from_bits(y as u64));
            Some(u128::from(r.to_bits()))
        }),
        _ => None,
    }?;
    Some(vec![FoldResult::Attr(attr)])
}

/// Fused multiply-add: `a * b + c` with a single rounding.
#[op(
    "math.fma",
    traits(Pure, SameOperandsAndResultType, Elementwise),
    format = "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
)]
pub struct FmaOp {
    a: Operand<FloatLike>,
    b: Operand<FloatLike>,
    c: Operand<FloatLike>,
    #[default = "#arith.fastmath<none>"]
    fastmath: Attr<FastMathAttr>,
    result: Result<FloatLike>,
}

/// Register the math dialect.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "math");
    ctx.registry_mut()
        .register_constant_materializer("math", crate::arith::materialize_constant);
}
