//! Folders of the casts: extensions, truncations, int/float conversions,
//! index casts and bitcasts.

use strata_ir::attributes::sign_extend;
use strata_ir::dialect::FoldResult;
use strata_ir::ods::constraints::element_type_or_self;
use strata_ir::{Attribute, Context, Operation, Type};

use crate::arith::fold::{attr_result, defined_by, operand_consts, result_type};
use crate::arith::ops::{
    BitcastOp, ExtFOp, ExtSIOp, ExtUIOp, IndexCastOp, IndexCastUIOp, TruncIOp,
};
use crate::fold;

/// Folds a cast of a constant element by element: `f` maps the input bits
/// to the output bits.
fn cast_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    f: impl Fn(u128) -> Option<u128>,
) -> Option<Vec<FoldResult>> {
    let a = operand_consts(ctx, c, 0)?;
    let ty = result_type(ctx, op);
    attr_result(fold::map1(ctx, ty, &a, f))
}

/// The widths or float kinds of a cast's input and output elements.
fn cast_elements(ctx: &Context, op: Operation) -> (Type, Type) {
    let input = ctx.value_type(ctx.operand(op, 0));
    let output = result_type(ctx, op);
    (
        element_type_or_self(ctx, input),
        element_type_or_self(ctx, output),
    )
}

/// `op(op(x))` becomes `op(x)` in place (chains of the same cast).
fn fold_chain_in_place(ctx: &mut Context, op: Operation, name: &str) -> Option<Vec<FoldResult>> {
    let inner = defined_by(ctx, ctx.operand(op, 0), name)?;
    ctx.set_operand(op, 0, inner[0]);
    Some(vec![FoldResult::Value(ctx.result(op, 0))])
}

pub(in crate::arith) fn fold_extui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_chain_in_place(ctx, op, ExtUIOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, Some)
}

pub(in crate::arith) fn fold_extsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_chain_in_place(ctx, op, ExtSIOp::NAME) {
        return Some(r);
    }
    let (input, _) = cast_elements(ctx, op);
    let width = ctx.int_or_float_bit_width(input)?;
    cast_fold(ctx, op, c, |v| Some(sign_extend(v, width) as u128))
}

pub(in crate::arith) fn fold_trunci(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    let out = result_type(ctx, op);
    for ext in [ExtSIOp::NAME, ExtUIOp::NAME] {
        if let Some(inner) = defined_by(ctx, input, ext) {
            let source = inner[0];
            // trunci(ext(a)) -> a of the result's type, and -> trunci(a) in
            // place when a is wider than the result (MLIR's order).
            let width = |ctx: &Context, t: Type| {
                let e = strata_ir::ods::constraints::element_type_or_self(ctx, t);
                ctx.int_or_float_bit_width(e).unwrap_or(0)
            };
            if width(ctx, ctx.value_type(source)) > width(ctx, out) {
                ctx.set_operand(op, 0, source);
                return Some(vec![FoldResult::Value(ctx.result(op, 0))]);
            }
            if ctx.value_type(source) == out {
                return Some(vec![FoldResult::Value(source)]);
            }
        }
    }
    if let Some(r) = fold_chain_in_place(ctx, op, TruncIOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, Some)
}

/// An integer converted to float `kind` with one rounding: `f32` and `f64`
/// directly; narrower kinds through `f64` only while that is exact.
fn int_to_float(kind: strata_ir::float::FloatKind, value: i128) -> Option<u128> {
    use strata_ir::float::FloatKind;
    match kind {
        FloatKind::F32 => Some(u128::from((value as f32).to_bits())),
        FloatKind::F64 => Some(u128::from((value as f64).to_bits())),
        _ if value.unsigned_abs() <= 1 << 53 => {
            Some(strata_ir::float::from_f64(kind, value as f64))
        }
        _ => None,
    }
}

pub(in crate::arith) fn fold_sitofp(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (input, output) = cast_elements(ctx, op);
    let width = ctx.int_or_float_bit_width(input)?;
    let kind = ctx.float_kind(output).filter(|k| k.bit_width() <= 64)?;
    cast_fold(ctx, op, c, |v| int_to_float(kind, sign_extend(v, width)))
}

pub(in crate::arith) fn fold_uitofp(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    use strata_ir::float::FloatKind;
    let (_, output) = cast_elements(ctx, op);
    let kind = ctx.float_kind(output).filter(|k| k.bit_width() <= 64)?;
    cast_fold(ctx, op, c, |v| match kind {
        FloatKind::F32 => Some(u128::from((v as f32).to_bits())),
        FloatKind::F64 => Some(u128::from((v as f64).to_bits())),
        _ => i128::try_from(v).ok().and_then(|v| int_to_float(kind, v)),
    })
}

pub(in crate::arith) fn fold_fptosi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (input, output) = cast_elements(ctx, op);
    let kind = ctx.float_kind(input).filter(|k| k.bit_width() <= 64)?;
    let width = ctx
        .int_or_float_bit_width(output)
        .filter(|&w| (1..=127).contains(&w))?;
    let bound = 2f64.powi(width as i32 - 1);
    cast_fold(ctx, op, c, |v| {
        let x = strata_ir::float::to_f64(kind, v).trunc();
        (x >= -bound && x < bound).then_some(x as i128 as u128)
    })
}

pub(in crate::arith) fn fold_fptoui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (input, output) = cast_elements(ctx, op);
    let kind = ctx.float_kind(input).filter(|k| k.bit_width() <= 64)?;
    let width = ctx.int_or_float_bit_width(output).filter(|&w| w <= 127)?;
    let bound = 2f64.powi(width as i32);
    cast_fold(ctx, op, c, |v| {
        let x = strata_ir::float::to_f64(kind, v).trunc();
        (x >= 0.0 && x < bound).then_some(x as u128)
    })
}

/// `index_cast(index_cast(x))` back to `x`'s type is `x` (MLIR 22 folds
/// this even through a narrower type).
fn fold_cast_round_trip(ctx: &Context, op: Operation, name: &str) -> Option<Vec<FoldResult>> {
    let inner = defined_by(ctx, ctx.operand(op, 0), name)?;
    (ctx.value_type(inner[0]) == result_type(ctx, op)).then(|| vec![FoldResult::Value(inner[0])])
}

pub(in crate::arith) fn fold_index_cast(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_cast_round_trip(ctx, op, IndexCastOp::NAME) {
        return Some(r);
    }
    let (input, _) = cast_elements(ctx, op);
    let width = ctx.int_or_float_bit_width(input)?;
    cast_fold(ctx, op, c, |v| Some(sign_extend(v, width) as u128))
}

pub(in crate::arith) fn fold_index_castui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_cast_round_trip(ctx, op, IndexCastUIOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, Some)
}

pub(in crate::arith) fn fold_extf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (input, output) = cast_elements(ctx, op);
    let from = ctx.float_kind(input).filter(|k| k.bit_width() <= 64)?;
    let to = ctx.float_kind(output).filter(|k| k.bit_width() <= 64)?;
    cast_fold(ctx, op, c, |v| {
        Some(strata_ir::float::from_f64(
            to,
            strata_ir::float::to_f64(from, v),
        ))
    })
}

pub(in crate::arith) fn fold_truncf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    // truncf(extf(x)) -> x when it goes back to x's type.
    if let Some(inner) = defined_by(ctx, ctx.operand(op, 0), ExtFOp::NAME) {
        if ctx.value_type(inner[0]) == result_type(ctx, op) {
            return Some(vec![FoldResult::Value(inner[0])]);
        }
    }
    let (input, output) = cast_elements(ctx, op);
    let from = ctx.float_kind(input).filter(|k| k.bit_width() <= 64)?;
    let to = ctx.float_kind(output).filter(|k| k.bit_width() <= 64)?;
    cast_fold(ctx, op, c, |v| {
        let x = strata_ir::float::to_f64(from, v);
        let bits = strata_ir::float::from_f64(to, x);
        let back = strata_ir::float::to_f64(to, bits);
        // Exact conversions fold (APFloat::convert without `losesInfo`),
        // NaNs included when their payload survives.
        let exact = back == x || (x.is_nan() && back.to_bits() == x.to_bits());
        exact.then_some(bits)
    })
}

pub(in crate::arith) fn fold_bitcast(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    if ctx.value_type(input) == result_type(ctx, op) {
        return Some(vec![FoldResult::Value(input)]);
    }
    if let Some(r) = fold_cast_round_trip(ctx, op, BitcastOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, Some)
}
