//! Shape functions of the reductions: the `reduce_*` ops, `argmax` and
//! `argmin`, the cumulative sum and product, and `top_k`.

use strata_ir::{Context, Operation};

use super::{
    attr_bool, attr_i64, is_scalar, len_1d, norm_axis, operand, reduce_axes, Inferred, OperandInfo,
    ResultElem,
};
use crate::graph::shape::{Dim, Shape};

pub(in crate::graph) fn infer_reduce(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let keepdims = attr_bool(ctx, op, "keepdims");
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let axes: Option<Vec<i64>> = match ops.get(1) {
        None => Some(Vec::new()),
        Some(a) => {
            if len_1d(a, "axes")? == Some(0) {
                Some(Vec::new())
            } else {
                a.value.clone()
            }
        }
    };
    let Some(axes) = axes else {
        return Ok(vec![(
            if keepdims {
                Shape::ranked(vec![Dim::Unknown; xd.len()])
            } else {
                Shape::unranked()
            },
            elem,
        )]);
    };
    let axes = if axes.is_empty() {
        if attr_bool(ctx, op, "noop_with_empty_axes") {
            return Ok(vec![(x.shape.clone(), elem)]);
        }
        (0..xd.len()).collect()
    } else {
        reduce_axes(&axes, xd.len())?
    };
    let dims = xd
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match (axes.contains(&i), keepdims) {
            (false, _) => Some(d.clone()),
            (true, true) => Some(Dim::Known(1)),
            (true, false) => None,
        })
        .collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_arg_reduce(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), ResultElem::I64)]);
    };
    let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
    let keepdims = attr_bool(ctx, op, "keepdims");
    let dims = xd
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match (i == axis, keepdims) {
            (false, _) => Some(d.clone()),
            (true, true) => Some(Dim::Known(1)),
            (true, false) => None,
        })
        .collect();
    Ok(vec![(Shape::ranked(dims), ResultElem::I64)])
}

pub(in crate::graph) fn infer_cumsum(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, axis) = (operand(ops, 0)?, operand(ops, 1)?);
    if !is_scalar(&axis.shape) {
        return Err(format!(
            "axis must be a scalar, but has shape {}",
            axis.shape
        ));
    }
    if let (Some(rank), Some([a])) = (x.shape.rank(), axis.value.as_deref()) {
        if rank == 0 {
            return Err("input must have rank 1 or more".into());
        }
        norm_axis(*a, rank, "axis")?;
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

/// `graph.det`: `[..., M, M] -> [...]`.
pub(in crate::graph) fn infer_det(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let Some(dims) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(x.elem))]);
    };
    let rank = dims.len();
    if rank < 2 {
        return Err(format!(
            "input must have rank 2 or more (square matrices), but has shape {}",
            x.shape
        ));
    }
    let (m, n) = (&dims[rank - 2], &dims[rank - 1]);
    if let (Dim::Known(m), Dim::Known(n)) = (m, n) {
        if m != n {
            return Err(format!(
                "input's matrices must be square, but the shape is {}",
                x.shape
            ));
        }
    }
    Ok(vec![(
        Shape::ranked(dims[..rank - 2].to_vec()),
        ResultElem::Of(x.elem),
    )])
}

pub(in crate::graph) fn infer_top_k(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, k) = (operand(ops, 0)?, operand(ops, 1)?);
    if !is_scalar(&k.shape) {
        return Err(format!(
            "k must have one element, but has shape {}",
            k.shape
        ));
    }
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![
            (Shape::unranked(), ResultElem::Of(x.elem)),
            (Shape::unranked(), ResultElem::I64),
        ]);
    };
    if xd.is_empty() {
        return Err("input must have rank 1 or more".into());
    }
    let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(-1), xd.len(), "axis")?;
    let k = match k.sizes.as_deref() {
        Some([k]) => k.clone(),
        _ => Dim::Unknown,
    };
    if let Some(n) = k.known() {
        if n < 0 || xd[axis].known().is_some_and(|d| n > d) {
            return Err(format!(
                "k = {n} is out of range for dimension {axis} of size {}",
                xd[axis]
            ));
        }
    }
    let mut dims = xd.to_vec();
    dims[axis] = k;
    let shape = Shape::ranked(dims);
    Ok(vec![
        (shape.clone(), ResultElem::Of(x.elem)),
        (shape, ResultElem::I64),
    ])
}
