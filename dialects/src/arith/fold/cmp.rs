//! Folders of `arith.cmpi`, `arith.cmpf` and `arith.select`.

use strata_ir::dialect::FoldResult;
use strata_ir::{Attribute, Context, Operation};

use crate::arith::attrs::{CMPF_PREDICATE, CMPI_PREDICATE};
use crate::arith::fold::{attr_result, float_kind, int_width, lhs, operand_consts, result_type};
use crate::arith::ops::{CmpFOp, CmpIOp};
use crate::fold::{self, const_float, const_int, IntConst};

fn cmpi_eval(predicate: u64, a: &IntConst, b: &IntConst) -> Option<bool> {
    let (s, t) = (a.signed(), b.signed());
    let (u, v) = (a.value, b.value);
    Some(match predicate {
        0 => u == v,
        1 => u != v,
        2 => s < t,
        3 => s <= t,
        4 => s > t,
        5 => s >= t,
        6 => u < v,
        7 => u <= v,
        8 => u > v,
        9 => u >= v,
        _ => return None,
    })
}

pub(in crate::arith) fn fold_cmpi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let predicate = CmpIOp(op)
        .predicate(ctx)
        .and_then(|p| CMPI_PREDICATE.value(ctx, p))?;
    let ty = result_type(ctx, op);
    if ctx.operand(op, 0) == ctx.operand(op, 1) {
        let value = matches!(predicate, 0 | 3 | 5 | 7 | 9);
        return attr_result(fold::make_attr(ctx, ty, &[value as u128]));
    }
    let lhs = ctx.operand(op, 0);
    let lhs_is_i1 = {
        let elem = strata_ir::ods::constraints::element_type_or_self(ctx, ctx.value_type(lhs));
        strata_ir::ods::constraints::is_i1(ctx, elem)
    };
    if predicate == 1 && super::operand_is(ctx, c, 1, 0) {
        // `cmpi ne, ext(x : i1), 0` is `x` (integers and vectors of them).
        for ext in [crate::arith::ExtSIOp::NAME, crate::arith::ExtUIOp::NAME] {
            if let Some([x]) = super::defined_by(ctx, lhs, ext).as_deref() {
                let ty = ctx.value_type(*x);
                let elem = match ctx.type_kind(ty) {
                    strata_ir::TypeKind::Vector { element, .. } => *element,
                    _ => ty,
                };
                if matches!(
                    ctx.type_kind(elem),
                    strata_ir::TypeKind::Integer { width: 1, .. }
                ) {
                    return Some(vec![FoldResult::Value(*x)]);
                }
            }
        }
        // `cmpi ne, x : i1, false` is `x`.
        if lhs_is_i1 {
            return Some(vec![FoldResult::Value(lhs)]);
        }
    }
    // `cmpi eq, x : i1, true` is `x`.
    if predicate == 0 && lhs_is_i1 && super::operand_is(ctx, c, 1, -1) {
        return Some(vec![FoldResult::Value(lhs)]);
    }
    // A constant on the left only: swap the operands and mirror the
    // predicate (in place), so that constants end up on the right.
    if c.first().copied().flatten().is_some() && c.get(1).copied().flatten().is_none() {
        let mirrored = match predicate {
            2 => 4,
            3 => 5,
            4 => 2,
            5 => 3,
            6 => 8,
            7 => 9,
            8 => 6,
            9 => 7,
            p => p,
        };
        let attr = CMPI_PREDICATE.attr(ctx, mirrored)?;
        let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
        ctx.set_operands(op, &[b, a]);
        let key = ctx.ident("predicate");
        let mut entries: Vec<_> = ctx
            .op_properties(op)
            .map(|p| ctx.dictionary_entries(p).to_vec())
            .unwrap_or_default();
        entries.retain(|(n, _)| *n != key);
        entries.push((key, attr));
        let props = ctx.dictionary_attr(entries);
        ctx.set_op_properties(op, Some(props));
        return Some(vec![FoldResult::Value(ctx.result(op, 0))]);
    }
    let a = operand_consts(ctx, c, 0)?;
    let b = operand_consts(ctx, c, 1)?;
    let width = int_width(ctx, &a)?;
    let int = |value| IntConst { value, width };
    attr_result(fold::map2(ctx, ty, &a, &b, |x, y| {
        cmpi_eval(predicate, &int(x), &int(y)).map(u128::from)
    }))
}

fn cmpf_eval(predicate: u64, a: f64, b: f64) -> Option<bool> {
    let unordered = a.is_nan() || b.is_nan();
    Some(match predicate {
        0 => false,
        1 => !unordered && a == b,
        2 => !unordered && a > b,
        3 => !unordered && a >= b,
        4 => !unordered && a < b,
        5 => !unordered && a <= b,
        6 => !unordered && a != b,
        7 => !unordered,
        8 => unordered || a == b,
        9 => unordered || a > b,
        10 => unordered || a >= b,
        11 => unordered || a < b,
        12 => unordered || a <= b,
        13 => unordered || a != b,
        14 => unordered,
        15 => true,
        _ => return None,
    })
}

pub(in crate::arith) fn fold_cmpf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let predicate = CmpFOp(op)
        .predicate(ctx)
        .and_then(|p| CMPF_PREDICATE.value(ctx, p))?;
    // One NaN operand decides: the other may as well be NaN (as MLIR).
    let nan_scalar = |i: usize| {
        c.get(i)
            .copied()
            .flatten()
            .and_then(|a| const_float(ctx, a))
            .is_some_and(|f| f.value.is_nan())
    };
    let (a, b) = match (nan_scalar(0), nan_scalar(1)) {
        (true, _) => (operand_consts(ctx, c, 0)?, operand_consts(ctx, c, 0)?),
        (_, true) => (operand_consts(ctx, c, 1)?, operand_consts(ctx, c, 1)?),
        _ => (operand_consts(ctx, c, 0)?, operand_consts(ctx, c, 1)?),
    };
    let kind = float_kind(ctx, &a)?;
    let ty = result_type(ctx, op);
    let value = |bits| strata_ir::float::to_f64(kind, bits);
    attr_result(fold::map2(ctx, ty, &a, &b, |x, y| {
        cmpf_eval(predicate, value(x), value(y)).map(u128::from)
    }))
}

pub(in crate::arith) fn fold_select(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (t, f) = (ctx.operand(op, 1), ctx.operand(op, 2));
    if t == f {
        return Some(vec![FoldResult::Value(t)]);
    }
    if let Some(cond) = c.first().copied().flatten().and_then(|a| const_int(ctx, a)) {
        return Some(vec![FoldResult::Value(if cond.value != 0 { t } else { f })]);
    }
    // A constant vector or tensor condition choosing between constants:
    // element by element.
    if let (Some(cond), Some(tv), Some(fv)) = (
        operand_consts(ctx, c, 0),
        operand_consts(ctx, c, 1),
        operand_consts(ctx, c, 2),
    ) {
        let n = cond.values.len().max(tv.values.len()).max(fv.values.len());
        let values: Vec<u128> = (0..n)
            .map(|i| {
                if cond.get(i) != 0 {
                    tv.get(i)
                } else {
                    fv.get(i)
                }
            })
            .collect();
        let ty = result_type(ctx, op);
        if let Some(attr) = fold::make_attr(ctx, ty, &values) {
            return Some(vec![FoldResult::Attr(attr)]);
        }
    }
    // select(cmpi eq a, b), a, b -> b; select(cmpi ne a, b), a, b -> a
    if let Some(cmp) = ctx
        .defining_op(ctx.operand(op, 0))
        .and_then(|d| CmpIOp::from_op(ctx, d))
    {
        let predicate = cmp
            .predicate(ctx)
            .and_then(|p| CMPI_PREDICATE.value(ctx, p));
        let (x, y) = (cmp.lhs(ctx), cmp.rhs(ctx));
        if matches!(predicate, Some(0 | 1)) && ((x == t && y == f) || (y == t && x == f)) {
            return Some(vec![FoldResult::Value(if predicate == Some(1) {
                t
            } else {
                f
            })]);
        }
    }
    // select(c, true, false) -> c for i1 results.
    let result = result_type(ctx, op);
    let bit = |i: usize| {
        c.get(i)
            .copied()
            .flatten()
            .and_then(|a| const_int(ctx, a))
            .map(|k| k.value)
    };
    if strata_ir::ods::constraints::is_i1(ctx, result) && bit(1) == Some(1) && bit(2) == Some(0) {
        return Some(vec![lhs(ctx, op)]);
    }
    None
}
