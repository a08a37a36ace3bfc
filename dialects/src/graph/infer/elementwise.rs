//! Shape functions of the elementwise ops: broadcasting arithmetic and
//! comparisons, the unary ops, `clip`, `cast`, `where`, `bit_shift` and
//! `gelu`.

use strata_ir::{Context, Operation};

use super::{attr_str, is_scalar, operand, same_elem, Inferred, OperandInfo, ResultElem};
use crate::graph::shape::broadcast;

pub(in crate::graph) fn infer_arith(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (a, b) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, a, b)?;
    Ok(vec![(
        broadcast(&a.shape, &b.shape)?,
        ResultElem::Of(a.elem),
    )])
}

pub(in crate::graph) fn infer_compare(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let r = infer_arith(ctx, op, ops)?;
    Ok(r.into_iter().map(|(s, _)| (s, ResultElem::I1)).collect())
}

pub(in crate::graph) fn infer_same(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let a = operand(ops, 0)?;
    Ok(vec![(a.shape.clone(), ResultElem::Of(a.elem))])
}

pub(in crate::graph) fn infer_clip(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let a = operand(ops, 0)?;
    for bound in &ops[1..] {
        same_elem(ctx, a, bound)?;
        if !is_scalar(&bound.shape) {
            return Err(format!(
                "bounds must be scalars, but one has shape {}",
                bound.shape
            ));
        }
    }
    Ok(vec![(a.shape.clone(), ResultElem::Of(a.elem))])
}

pub(in crate::graph) fn infer_cast(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    Ok(vec![(operand(ops, 0)?.shape.clone(), ResultElem::Declared)])
}

pub(in crate::graph) fn infer_where(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (c, x, y) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, x, y)?;
    let shape = broadcast(&broadcast(&c.shape, &x.shape)?, &y.shape)?;
    Ok(vec![(shape, ResultElem::Of(x.elem))])
}

pub(in crate::graph) fn infer_bit_shift(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let d = attr_str(ctx, op, "direction").unwrap_or_default();
    if !matches!(d.as_str(), "left" | "right") {
        return Err(format!(
            "direction must be \"left\" or \"right\", not \"{d}\""
        ));
    }
    infer_arith(ctx, op, ops)
}

pub(in crate::graph) fn infer_gelu(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let approx = attr_str(ctx, op, "approximate").unwrap_or_else(|| "none".into());
    if approx != "none" && approx != "tanh" {
        return Err(format!(
            "approximate must be \"none\" or \"tanh\", but is \"{approx}\""
        ));
    }
    infer_same(ctx, op, ops)
}
