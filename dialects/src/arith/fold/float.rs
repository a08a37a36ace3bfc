//! Folders of the floating-point arithmetic and min/max ops.

use strata_ir::dialect::FoldResult;
use strata_ir::{Attribute, Context, Operation};

use crate::arith::fold::{attr_result, defined_by, float_kind, lhs, operand_consts, result_type};
use crate::arith::ops::NegFOp;
use crate::fold::{self, const_float, FloatConst};

fn float_binary_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    f: impl Fn(f64, f64) -> f64,
) -> Option<Vec<FoldResult>> {
    let a = operand_consts(ctx, c, 0)?;
    let b = operand_consts(ctx, c, 1)?;
    let kind = float_kind(ctx, &a)?;
    let ty = result_type(ctx, op);
    let value = |bits| strata_ir::float::to_f64(kind, bits);
    let is_nan = |bits| strata_ir::float::is_nan(kind, bits);
    attr_result(fold::map2(ctx, ty, &a, &b, |x, y| {
        let r = f(value(x), value(y));
        if !r.is_nan() {
            return Some(strata_ir::float::from_f64(kind, r));
        }
        // As APFloat: a NaN operand propagates (quieted); a new NaN is the
        // positive quiet NaN (the host's arithmetic may give a negative one).
        Some(if is_nan(x) {
            quiet(kind, x)
        } else if is_nan(y) {
            quiet(kind, y)
        } else {
            strata_ir::float::from_f64(kind, f64::NAN)
        })
    }))
}

/// A NaN with its quiet bit set (the top mantissa bit).
fn quiet(kind: strata_ir::float::FloatKind, bits: u128) -> u128 {
    let quiet_bit = match kind.bit_width() {
        64 => 1u128 << 51,
        32 => 1 << 22,
        16 if matches!(kind, strata_ir::float::FloatKind::BF16) => 1 << 6,
        16 => 1 << 9,
        _ => return bits,
    };
    bits | quiet_bit
}

fn float_operand(ctx: &Context, c: &[Option<Attribute>], index: usize) -> Option<FloatConst> {
    c.get(index)
        .copied()
        .flatten()
        .and_then(|a| const_float(ctx, a))
}

pub(in crate::arith) fn fold_addf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if float_operand(ctx, c, 1).is_some_and(|f| f.value == 0.0 && f.value.is_sign_negative()) {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, |a, b| a + b)
}

pub(in crate::arith) fn fold_subf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if float_operand(ctx, c, 1).is_some_and(|f| f.value == 0.0 && f.value.is_sign_positive()) {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, |a, b| a - b)
}

pub(in crate::arith) fn fold_mulf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if float_operand(ctx, c, 1).is_some_and(|f| f.value == 1.0) {
        return Some(vec![lhs(ctx, op)]);
    }
    // `mulf(x, ±0)` is that zero when NaNs and the sign of zero do not
    // matter (`nnan` and `nsz`), even for a constant `x` (as MLIR 22).
    let flags = strata_ir::ods::inherent_attr(ctx, op, "fastmath")
        .and_then(|f| crate::arith::FASTMATH.value(ctx, f))
        .unwrap_or(0);
    const NNAN_NSZ: u64 = 2 | 8;
    if flags & NNAN_NSZ == NNAN_NSZ && is_any_zero(ctx, c, 1) {
        return Some(vec![FoldResult::Value(ctx.operand(op, 1))]);
    }
    float_binary_fold(ctx, op, c, |a, b| a * b)
}

/// Whether operand `index` is a float constant whose every element is +0 or
/// -0 (MLIR's `m_AnyZeroFloat`).
fn is_any_zero(ctx: &Context, c: &[Option<Attribute>], index: usize) -> bool {
    let Some(consts) = operand_consts(ctx, c, index) else {
        return false;
    };
    if !matches!(ctx.type_kind(consts.elem), strata_ir::TypeKind::Float(_)) {
        return false;
    }
    let Some(width) = ctx.int_or_float_bit_width(consts.elem) else {
        return false;
    };
    let magnitude = if width >= 128 {
        u128::MAX >> 1
    } else {
        (1u128 << (width - 1)) - 1
    };
    consts.all(|v| v & magnitude == 0)
}

pub(in crate::arith) fn fold_divf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if float_operand(ctx, c, 1).is_some_and(|f| f.value == 1.0) {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, |a, b| a / b)
}

pub(in crate::arith) fn fold_remf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    float_binary_fold(ctx, op, c, |a, b| a % b)
}

pub(in crate::arith) fn fold_maxnumf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1)
        || float_operand(ctx, c, 1).is_some_and(|f| f.value.is_nan())
    {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, fold::maxnum)
}

pub(in crate::arith) fn fold_minnumf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1)
        || float_operand(ctx, c, 1).is_some_and(|f| f.value.is_nan())
    {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, fold::minnum)
}

pub(in crate::arith) fn fold_maximumf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1)
        || float_operand(ctx, c, 1).is_some_and(|f| f.value == f64::NEG_INFINITY)
    {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, fold::maximum)
}

pub(in crate::arith) fn fold_minimumf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1)
        || float_operand(ctx, c, 1).is_some_and(|f| f.value == f64::INFINITY)
    {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, fold::minimum)
}

pub(in crate::arith) fn fold_negf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    if let Some(inner) = defined_by(ctx, input, NegFOp::NAME) {
        return Some(vec![FoldResult::Value(inner[0])]);
    }
    let a = operand_consts(ctx, c, 0)?;
    let kind = float_kind(ctx, &a)?;
    let ty = result_type(ctx, op);
    attr_result(fold::map1(ctx, ty, &a, |x| {
        Some(strata_ir::float::from_f64(
            kind,
            -strata_ir::float::to_f64(kind, x),
        ))
    }))
}
