//! Shape functions of the ops that read or write elements by index:
//! gathers, scatters, `non_max_suppression`, `non_zero`, `unique` and
//! `roi_align`.

use strata_ir::{Context, Operation};

use super::{
    attr_i64, attr_str, is_scalar, norm_axis, operand, same_elem, Inferred, OperandInfo, ResultElem,
};
use crate::graph::shape::{Dim, Shape};

pub(in crate::graph) fn infer_gather(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let (Some(xd), Some(id)) = (x.shape.dims(), idx.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    if xd.is_empty() {
        return Err("input must have rank 1 or more".into());
    }
    let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
    let mut dims = xd[..axis].to_vec();
    dims.extend(id.iter().cloned());
    dims.extend(xd[axis + 1..].iter().cloned());
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_gather_elements(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    if let (Some(xd), Some(id)) = (x.shape.dims(), idx.shape.dims()) {
        let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
        check_element_indices(xd, id, axis)?;
    }
    Ok(vec![(idx.shape.clone(), elem)])
}

pub(in crate::graph) fn infer_gather_nd(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let b = attr_i64(ctx, op, "batch_dims").unwrap_or(0);
    let b = usize::try_from(b).map_err(|_| format!("batch_dims {b} is negative"))?;
    let (Some(xd), Some(id)) = (x.shape.dims(), idx.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let Some((last, lead)) = id.split_last() else {
        return Err("indices must have rank 1 or more".into());
    };
    if b > lead.len() || b > xd.len() {
        return Err(format!(
            "batch_dims {b} is more than the leading dimensions of indices {} and input {}",
            idx.shape, x.shape
        ));
    }
    for d in 0..b {
        if xd[d].provably_ne(&id[d]) {
            return Err(format!(
                "batch dimension {d} differs: {} vs {}",
                xd[d], id[d]
            ));
        }
    }
    let Some(k) = last.known() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let k = usize::try_from(k)
        .ok()
        .filter(|&k| b + k <= xd.len())
        .ok_or_else(|| {
            format!(
                "index tuples of {k} entries do not fit an input of rank {} after {b} batch dimensions",
                xd.len()
            )
        })?;
    let dims: Vec<Dim> = lead.iter().chain(&xd[b + k..]).cloned().collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

/// Element-wise indices have the input's rank and, off `axis`, sizes no
/// larger than its.
fn check_element_indices(xd: &[Dim], id: &[Dim], axis: usize) -> Result<(), String> {
    if id.len() != xd.len() {
        return Err(format!(
            "indices must have the rank of the input ({}), but have rank {}",
            xd.len(),
            id.len()
        ));
    }
    for (d, (i, x)) in id.iter().zip(xd).enumerate() {
        if let (Some(i), Some(x), false) = (i.known(), x.known(), d == axis) {
            if i > x {
                return Err(format!(
                    "indices have size {i} in dimension {d}, larger than the input's {x}"
                ));
            }
        }
    }
    Ok(())
}

fn check_reduction(ctx: &Context, op: Operation) -> Result<(), String> {
    let r = attr_str(ctx, op, "reduction").unwrap_or_else(|| "none".into());
    if !matches!(r.as_str(), "none" | "add" | "mul" | "max" | "min") {
        return Err(format!(
            "reduction must be \"none\", \"add\", \"mul\", \"max\" or \"min\", not \"{r}\""
        ));
    }
    Ok(())
}

pub(in crate::graph) fn infer_scatter_elements(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx, upd) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, x, upd)?;
    check_reduction(ctx, op)?;
    if let (Some(id), Some(ud)) = (idx.shape.dims(), upd.shape.dims()) {
        if id.len() != ud.len() || id.iter().zip(ud).any(|(a, b)| a.provably_ne(b)) {
            return Err(format!(
                "indices {} and updates {} must have the same shape",
                idx.shape, upd.shape
            ));
        }
    }
    if let (Some(xd), Some(id)) = (x.shape.dims(), idx.shape.dims()) {
        let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
        check_element_indices(xd, id, axis)?;
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

pub(in crate::graph) fn infer_scatter_nd(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx, upd) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, x, upd)?;
    check_reduction(ctx, op)?;
    if let (Some(xd), Some(id), Some(ud)) = (x.shape.dims(), idx.shape.dims(), upd.shape.dims()) {
        let Some((last, lead)) = id.split_last() else {
            return Err("indices must have rank 1 or more".into());
        };
        if let Some(k) = last.known() {
            let k = usize::try_from(k)
                .ok()
                .filter(|&k| k <= xd.len())
                .ok_or_else(|| {
                    format!(
                        "index tuples have {k} entries, more than the input's rank {}",
                        xd.len()
                    )
                })?;
            let expected: Vec<Dim> = lead.iter().chain(&xd[k..]).cloned().collect();
            if ud.len() != expected.len() || ud.iter().zip(&expected).any(|(a, b)| a.provably_ne(b))
            {
                return Err(format!(
                    "updates must have shape {}, but have {}",
                    Shape::ranked(expected),
                    upd.shape
                ));
            }
        }
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

pub(in crate::graph) fn infer_nms(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (b, s) = (operand(ops, 0)?, operand(ops, 1)?);
    if let (Some(bd), Some(sd)) = (b.shape.dims(), s.shape.dims()) {
        if bd.len() != 3 || sd.len() != 3 || bd[2].provably_ne(&Dim::Known(4)) {
            return Err(format!(
                "boxes must be [B, N, 4] and scores [B, C, N], not {} and {}",
                b.shape, s.shape
            ));
        }
        if bd[0].provably_ne(&sd[0]) || bd[1].provably_ne(&sd[2]) {
            return Err(format!(
                "boxes {} and scores {} disagree on B or N",
                b.shape, s.shape
            ));
        }
    }
    for o in &ops[2..] {
        if !is_scalar(&o.shape) {
            return Err(format!(
                "thresholds and counts must be scalars, not {}",
                o.shape
            ));
        }
    }
    Ok(vec![(
        Shape::ranked(vec![Dim::Unknown, Dim::Known(3)]),
        ResultElem::I64,
    )])
}

/// `graph.non_zero`: `[rank, ?]` indices.
pub(in crate::graph) fn infer_non_zero(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let rank = x
        .shape
        .rank()
        .map_or(Dim::Unknown, |r| Dim::Known(r as i64));
    Ok(vec![(
        Shape::ranked(vec![rank, Dim::Unknown]),
        ResultElem::I64,
    )])
}

/// `graph.unique`: the distinct values (`?` along the axis, or 1-D), their
/// first indices and counts (`[?]`), and the inverse indices (one per
/// element, or per slice along the axis).
pub(in crate::graph) fn infer_unique(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let unknown = Shape::ranked(vec![Dim::Unknown]);
    let (values, inverse) = match (attr_i64(ctx, op, "axis"), x.shape.dims()) {
        (None, _) => (unknown.clone(), Shape::ranked(vec![x.shape.num_elements()])),
        (Some(_), None) => (Shape::unranked(), unknown.clone()),
        (Some(a), Some(dims)) => {
            let axis = norm_axis(a, dims.len(), "axis")?;
            let mut d = dims.to_vec();
            let along = std::mem::replace(&mut d[axis], Dim::Unknown);
            (Shape::ranked(d), Shape::ranked(vec![along]))
        }
    };
    Ok(vec![
        (values, elem),
        (unknown.clone(), ResultElem::I64),
        (inverse, ResultElem::I64),
        (unknown, ResultElem::I64),
    ])
}

/// `graph.roi_align`: `[R, C, output_height, output_width]`.
pub(in crate::graph) fn infer_roi_align(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, rois, batch) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, x, rois)?;
    let size = |name: &str| -> Result<Dim, String> {
        match attr_i64(ctx, op, name) {
            Some(v) if v >= 1 => Ok(Dim::Known(v)),
            v => Err(format!(
                "{name} must be at least 1, but is {}",
                v.unwrap_or(0)
            )),
        }
    };
    let (oh, ow) = (size("output_height")?, size("output_width")?);
    if attr_i64(ctx, op, "sampling_ratio").is_some_and(|s| s < 0) {
        return Err("sampling_ratio must not be negative".into());
    }
    match attr_str(ctx, op, "mode").as_deref() {
        Some("avg") | Some("max") | None => {}
        Some(m) => return Err(format!("mode must be 'avg' or 'max', not '{m}'")),
    }
    let mut r = Dim::Unknown;
    if let Some(d) = rois.shape.dims() {
        if d.len() != 2 || d[1].provably_ne(&Dim::Known(4)) {
            return Err(format!("rois must be [R, 4], not {}", rois.shape));
        }
        r = d[0].clone();
    }
    if let Some(d) = batch.shape.dims() {
        if d.len() != 1 || d[0].provably_ne(&r) {
            return Err(format!(
                "batch_indices must be [R] for rois {}, not {}",
                rois.shape, batch.shape
            ));
        }
    }
    let c = match x.shape.dims() {
        Some(d) if d.len() == 4 => d[1].clone(),
        Some(_) => return Err(format!("input must be 4-D, not {}", x.shape)),
        None => Dim::Unknown,
    };
    Ok(vec![(
        Shape::ranked(vec![r, c, oh, ow]),
        ResultElem::Of(x.elem),
    )])
}
