//! The shape function of `dft`.

use strata_ir::{Context, Operation};

use super::{
    attr_bool, attr_i64, group_operand, norm_axis, operand, Inferred, OperandInfo, ResultElem,
};
use crate::graph::shape::{Dim, Shape};

pub(in crate::graph) fn infer_dft(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let rank = xd.len();
    if rank < 2 || xd[rank - 1].known().is_some_and(|c| c != 1 && c != 2) {
        return Err(format!(
            "input must end in a dimension of 1 (real) or 2 (complex), not {}",
            x.shape
        ));
    }
    let axis = match group_operand(ctx, op, ops, 2) {
        Some(a) => match a.value.as_deref() {
            Some([v]) => *v,
            // A run-time axis: the rank is all that is known.
            _ => return Ok(vec![(Shape::ranked(vec![Dim::Unknown; rank]), elem)]),
        },
        None => attr_i64(ctx, op, "axis").unwrap_or(1),
    };
    let axis = norm_axis(axis, rank, "axis")?;
    if axis == rank - 1 {
        return Err("axis must not be the last (component) dimension".into());
    }
    let (inverse, onesided) = (
        attr_bool(ctx, op, "inverse"),
        attr_bool(ctx, op, "onesided"),
    );
    let n = match group_operand(ctx, op, ops, 1) {
        Some(l) => match l.value.as_deref() {
            Some([n]) if *n > 0 => Dim::Known(*n),
            Some([n]) => return Err(format!("length {n} must be positive")),
            _ => Dim::Unknown,
        },
        None if inverse && onesided => match xd[axis].known() {
            Some(s) => Dim::Known(2 * (s - 1).max(0)),
            None => Dim::Unknown,
        },
        None => xd[axis].clone(),
    };
    let mut dims = xd.to_vec();
    let (len, comps) = match (inverse, onesided) {
        (false, true) => (n.known().map_or(Dim::Unknown, |n| Dim::Known(n / 2 + 1)), 2),
        (true, true) => (n, 1),
        _ => (n, 2),
    };
    dims[axis] = len;
    dims[rank - 1] = Dim::Known(comps);
    Ok(vec![(Shape::ranked(dims), elem)])
}
