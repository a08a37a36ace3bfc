//! The `math` dialect: elementary functions on floats (MLIR's `math`),
//! and the integer ones in `integer` and the float classifications in
//! `classify`.
//!
//! The folders compute as MLIR's do: with the C library's functions
//! (Rust's `f32`/`f64` methods call the same ones; `erf` and `erfc`, which
//! Rust lacks, are called directly), for `f32` and `f64` only where MLIR
//! folds only those.

mod classify;
mod integer;

pub use classify::*;
pub use integer::*;

use strata_ir::dialect::FoldResult;
use strata_ir::ods::constraints::{FloatLike, SignlessIntegerOrIndexLike};
use strata_ir::{op, Attribute, Context, Operation};

use crate::arith::FastMathAttr;
use crate::fold;

// The C library's functions that Rust computes its own way or lacks
// (libm, which every Rust program on Linux links): the ones MLIR's folders
// call, whose NaNs and last bits Rust's own would not reproduce.
extern "C" {
    fn acosh(x: f64) -> f64;
    fn acoshf(x: f32) -> f32;
    fn asinh(x: f64) -> f64;
    fn asinhf(x: f32) -> f32;
    fn atanh(x: f64) -> f64;
    fn atanhf(x: f32) -> f32;
    fn erf(x: f64) -> f64;
    fn erff(x: f32) -> f32;
    fn erfc(x: f64) -> f64;
    fn erfcf(x: f32) -> f32;
}

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

macro_rules! binary {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:expr) => {
        #[doc = $summary]
        #[op($mnemonic,
                     traits(Pure, SameOperandsAndResultType, Elementwise),
                     format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
                     fold = $fold)]
        pub struct $name {
            lhs: Operand<FloatLike>,
            rhs: Operand<FloatLike>,
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
// SAFETY (these and erf, erfc below): pure C library functions of one
// float.
unary_folder!(fold_acosh, |x| Some(unsafe { acoshf(x) }), |x| Some(
    unsafe { acosh(x) }
));
unary_folder!(fold_asinh, |x| Some(unsafe { asinhf(x) }), |x| Some(
    unsafe { asinh(x) }
));
unary_folder!(fold_atanh, |x| Some(unsafe { atanhf(x) }), |x| Some(
    unsafe { atanh(x) }
));
unary_folder!(fold_cosh, |x| Some(x.cosh()), |x| Some(x.cosh()));
unary_folder!(fold_sinh, |x| Some(x.sinh()), |x| Some(x.sinh()));
unary_folder!(fold_exp2, |x| Some(x.exp2()), |x| Some(x.exp2()));
// As MLIR, the logarithms of a negative number (-0.0 included) do not fold.
unary_folder!(
    fold_log2,
    |x| (!x.is_sign_negative()).then(|| x.log2()),
    |x| (!x.is_sign_negative()).then(|| x.log2())
);
unary_folder!(
    fold_log10,
    |x| (!x.is_sign_negative()).then(|| x.log10()),
    |x| (!x.is_sign_negative()).then(|| x.log10())
);
unary_folder!(fold_erf, |x| Some(unsafe { erff(x) }), |x| Some(unsafe {
    erf(x)
}));
unary_folder!(fold_erfc, |x| Some(unsafe { erfcf(x) }), |x| Some(unsafe {
    erfc(x)
}));

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
    fold_erf
);
unary!(
    ErfcOp,
    "math.erfc",
    "Complementary error function of the specified value (`1 - erf(x)`).",
    fold_erfc
);
unary!(
    AcoshOp,
    "math.acosh",
    "Hyperbolic arcus cosine of the specified value.",
    fold_acosh
);
unary!(
    AsinhOp,
    "math.asinh",
    "Hyperbolic arcus sine of the specified value.",
    fold_asinh
);
unary!(
    AtanhOp,
    "math.atanh",
    "Hyperbolic arcus tangent of the specified value.",
    fold_atanh
);
unary!(
    CoshOp,
    "math.cosh",
    "Hyperbolic cosine of the specified value.",
    fold_cosh
);
unary!(
    SinhOp,
    "math.sinh",
    "Hyperbolic sine of the specified value.",
    fold_sinh
);
unary!(
    Exp2Op,
    "math.exp2",
    "Base-2 exponential of the specified value.",
    fold_exp2
);
unary!(
    Log2Op,
    "math.log2",
    "Base-2 logarithm of the specified value.",
    fold_log2
);
unary!(
    Log10Op,
    "math.log10",
    "Base-10 logarithm of the specified value.",
    fold_log10
);
unary!(
    CbrtOp,
    "math.cbrt",
    "Cube root of the specified value.",
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

binary!(
    PowFOp,
    "math.powf",
    "Floating point raised to the power of another.",
    fold_powf
);

fn fold_powf(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    fold_binary(ctx, op, consts, f32::powf, f64::powf)
}

/// `f32`/`f64` binary folders by the C library's functions.
fn fold_binary(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
    f32_fn: fn(f32, f32) -> f32,
    f64_fn: fn(f64, f64) -> f64,
) -> Option<Vec<FoldResult>> {
    let a = fold::consts(ctx, consts.first().copied().flatten()?)?;
    let b = fold::consts(ctx, consts.get(1).copied().flatten()?)?;
    ctx.float_kind(a.elem)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = match ctx.int_or_float_bit_width(a.elem)? {
        32 => fold::map2(ctx, ty, &a, &b, |x, y| {
            let r = f32_fn(f32::from_bits(x as u32), f32::from_bits(y as u32));
            Some(u128::from(r.to_bits()))
        }),
        64 => fold::map2(ctx, ty, &a, &b, |x, y| {
            let r = f64_fn(f64::from_bits(x as u64), f64::from_bits(y as u64));
            Some(u128::from(r.to_bits()))
        }),
        _ => None,
    }?;
    Some(vec![FoldResult::Attr(attr)])
}

/// As MLIR: `atan2(0, 0)` folds to NaN for every float type (MLIR checks
/// the zeros before the width); other values fold for f32 and f64 only.
fn fold_atan2(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    use strata_ir::float;
    let a = fold::consts(ctx, consts.first().copied().flatten()?)?;
    let b = fold::consts(ctx, consts.get(1).copied().flatten()?)?;
    let kind = ctx.float_kind(a.elem)?;
    let nan = float::from_f64(kind, f64::NAN);
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = fold::map2(ctx, ty, &a, &b, |y, x| {
        if float::is_zero(kind, y) && float::is_zero(kind, x) {
            return Some(nan);
        }
        match kind.bit_width() {
            32 => {
                let r = f32::from_bits(y as u32).atan2(f32::from_bits(x as u32));
                Some(u128::from(r.to_bits()))
            }
            64 => {
                let r = f64::from_bits(y as u64).atan2(f64::from_bits(x as u64));
                Some(u128::from(r.to_bits()))
            }
            _ => None,
        }
    })?;
    Some(vec![FoldResult::Attr(attr)])
}

/// The magnitude of the first operand with the sign of the second, for
/// every float type (on the bits).
fn fold_copysign(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let a = fold::consts(ctx, consts.first().copied().flatten()?)?;
    let b = fold::consts(ctx, consts.get(1).copied().flatten()?)?;
    ctx.float_kind(a.elem)?;
    let sign = 1u128 << (ctx.int_or_float_bit_width(a.elem)? - 1);
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = fold::map2(ctx, ty, &a, &b, |x, y| Some((x & !sign) | (y & sign)))?;
    Some(vec![FoldResult::Attr(attr)])
}

binary!(
    Atan2Op,
    "math.atan2",
    "2-argument arcus tangent of the specified values: the angle of `(rhs, lhs)`, in `[-π, π]`.",
    fold_atan2
);
binary!(
    CopySignOp,
    "math.copysign",
    "The magnitude of `lhs` with the sign of `rhs`.",
    fold_copysign
);

/// Clamps `value` to `[min, max]`.
#[op(
    "math.clampf",
    traits(Pure, SameOperandsAndResultType, Elementwise),
    format = "$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
)]
pub struct ClampFOp {
    value: Operand<FloatLike>,
    min: Operand<FloatLike>,
    max: Operand<FloatLike>,
    #[default = "#arith.fastmath<none>"]
    fastmath: Attr<FastMathAttr>,
    result: Result<FloatLike>,
}

/// The sine and the cosine of the specified value.
#[op(
    "math.sincos",
    traits(Pure, SameOperandsAndResultShape, Elementwise),
    all_types_match(operand, sin, cos),
    format = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($operand)",
    result_names = sincos_names
)]
pub struct SincosOp {
    operand: Operand<FloatLike>,
    #[default = "#arith.fastmath<none>"]
    fastmath: Attr<FastMathAttr>,
    sin: Result<FloatLike>,
    cos: Result<FloatLike>,
}

/// `%sin, %cos`, as MLIR names them.
fn sincos_names(ctx: &Context, op: Operation) -> Vec<(strata_ir::Value, String)> {
    ctx.results(op)
        .zip(["sin", "cos"])
        .map(|(v, n)| (v, n.to_string()))
        .collect()
}

/// A float raised to a signed integer power.
#[op(
    "math.fpowi",
    traits(Pure, SameOperandsAndResultShape, Elementwise),
    all_types_match(lhs, result),
    format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs) `,` type($rhs)"
)]
pub struct FPowIOp {
    lhs: Operand<FloatLike>,
    rhs: Operand<SignlessIntegerOrIndexLike>,
    #[default = "#arith.fastmath<none>"]
    fastmath: Attr<FastMathAttr>,
    result: Result<FloatLike>,
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
