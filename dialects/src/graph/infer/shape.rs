//! Shape functions of the ops that make or move tensors without reading
//! their elements by index: constants, reshapes, transposes, broadcasts,
//! concatenation and splitting, slices, squeezes, padding, tiling, and the
//! shape queries and generators (`shape_of`, `size`, `constant_of_shape`,
//! `range`).

use strata_ir::{Context, Operation};

use super::{
    attr, attr_bool, attr_i64, attr_i64_array, attr_str, group_operand, is_scalar, len_1d,
    norm_axis, operand, reduce_axes, same_elem, target_sizes, Inferred, OperandInfo, ResultElem,
};
use crate::graph::shape::{broadcast, shape_of, Dim, Shape};

pub(in crate::graph) fn infer_constant(
    ctx: &Context,
    op: Operation,
    _: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let value = attr(ctx, op, "value").ok_or("requires attribute 'value'")?;
    let t = strata_ir::ods::constraints::attr_type(ctx, value).ok_or("'value' has no type")?;
    let (shape, elem) = shape_of(ctx, t).ok_or("'value' must be a tensor")?;
    Ok(vec![(shape, ResultElem::Of(elem))])
}

pub(in crate::graph) fn infer_reshape(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, s) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let Some(target) = target_sizes(s) else {
        return Ok(vec![(
            match len_1d(s, "shape")? {
                Some(n) => Shape::ranked(vec![Dim::Unknown; n]),
                None => Shape::unranked(),
            },
            elem,
        )]);
    };
    let allowzero = attr_bool(ctx, op, "allowzero");
    let xd = x.shape.dims();
    let mut dims = Vec::with_capacity(target.len());
    let mut infer_at = None;
    for (i, t) in target.iter().enumerate() {
        // A computed element may be 0 or -1 at run time: it stays unknown.
        let t = match t {
            Dim::Known(t) => *t,
            other => {
                dims.push(other.clone());
                continue;
            }
        };
        dims.push(match t {
            -1 => {
                if infer_at.replace(i).is_some() {
                    return Err("shape has more than one -1".into());
                }
                Dim::Unknown
            }
            0 if !allowzero => match xd {
                Some(d) => d.get(i).cloned().ok_or_else(|| {
                    format!(
                        "shape copies dimension {i} (0) but the input has rank {}",
                        d.len()
                    )
                })?,
                None => Dim::Unknown,
            },
            t if t < 0 => return Err(format!("shape has the invalid size {t}")),
            t => Dim::Known(t),
        });
    }
    let total = x.shape.num_elements();
    if let Some(i) = infer_at {
        let known = dims
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .fold(Dim::Known(1), |acc, (_, d)| acc.mul(d));
        dims[i] = total.div_exact(&known).unwrap_or(Dim::Unknown);
        if let (Dim::Known(t), Dim::Known(k)) = (&total, &known) {
            if *k == 0 || t % k != 0 {
                return Err(format!(
                    "cannot reshape {} elements into {}",
                    t,
                    Shape::ranked(target)
                ));
            }
        }
    } else {
        let out = dims.iter().fold(Dim::Known(1), |acc, d| acc.mul(d));
        if out.provably_ne(&total) {
            return Err(format!(
                "cannot reshape {} ({total} elements) into {} elements",
                x.shape, out
            ));
        }
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_transpose(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let perm: Vec<i64> =
        attr_i64_array(ctx, op, "perm").unwrap_or_else(|| (0..xd.len() as i64).rev().collect());
    if perm.len() != xd.len() {
        return Err(format!(
            "perm has {} entries but the input has rank {}",
            perm.len(),
            xd.len()
        ));
    }
    let mut seen = vec![false; xd.len()];
    let mut dims = Vec::with_capacity(xd.len());
    for &p in &perm {
        let i = usize::try_from(p)
            .ok()
            .filter(|&i| i < xd.len())
            .ok_or_else(|| format!("perm {perm:?} is not a permutation of 0..{}", xd.len()))?;
        if std::mem::replace(&mut seen[i], true) {
            return Err(format!(
                "perm {perm:?} is not a permutation of 0..{}",
                xd.len()
            ));
        }
        dims.push(xd[i].clone());
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_expand(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, s) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    match target_sizes(s) {
        Some(target) => {
            if target.iter().any(|t| t.known().is_some_and(|t| t < 0)) {
                return Err(format!(
                    "shape {} has a negative size",
                    Shape::ranked(target)
                ));
            }
            Ok(vec![(broadcast(&x.shape, &Shape::ranked(target))?, elem)])
        }
        None => Ok(vec![(
            match (len_1d(s, "shape")?, x.shape.rank()) {
                (Some(n), Some(r)) => Shape::ranked(vec![Dim::Unknown; n.max(r)]),
                _ => Shape::unranked(),
            },
            elem,
        )]),
    }
}

pub(in crate::graph) fn infer_concat(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let first = operand(ops, 0).map_err(|_| "requires at least one input".to_string())?;
    let axis = attr_i64(ctx, op, "axis").ok_or("requires 'axis'")?;
    let ranked: Vec<&[Dim]> = ops.iter().filter_map(|o| o.shape.dims()).collect();
    for o in ops {
        same_elem(ctx, first, o)?;
    }
    let Some(rank) = ranked.first().map(|d| d.len()) else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(first.elem))]);
    };
    let a = norm_axis(axis, rank, "axis")?;
    let mut dims: Vec<Dim> = ranked[0].to_vec();
    for d in &ranked[1..] {
        if d.len() != rank {
            return Err(format!(
                "inputs must have the same rank, but have ranks {rank} and {}",
                d.len()
            ));
        }
        for i in 0..rank {
            if i == a {
                continue;
            }
            if dims[i].provably_ne(&d[i]) {
                return Err(format!(
                    "inputs differ in dimension {i}: {} vs {}",
                    dims[i], d[i]
                ));
            }
            if matches!(dims[i], Dim::Unknown) {
                dims[i] = d[i].clone();
            }
        }
    }
    dims[a] = if ranked.len() == ops.len() {
        ranked
            .iter()
            .skip(1)
            .fold(ranked[0][a].clone(), |acc, d| acc.add(&d[a]))
    } else {
        Dim::Unknown
    };
    Ok(vec![(Shape::ranked(dims), ResultElem::Of(first.elem))])
}

pub(in crate::graph) fn infer_split(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let n = ctx.results(op).len();
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem); n]);
    };
    let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
    let sizes: Vec<Dim> = match ops.get(1) {
        Some(s) => match &s.value {
            Some(v) => {
                if v.len() != n {
                    return Err(format!(
                        "split has {} sizes but the op has {n} results",
                        v.len()
                    ));
                }
                if v.iter().any(|&s| s < 0) {
                    return Err(format!("split sizes {v:?} must not be negative"));
                }
                let total: i128 = v.iter().map(|&s| i128::from(s)).sum();
                let fits =
                    i64::try_from(total).is_ok_and(|t| !xd[axis].provably_ne(&Dim::Known(t)));
                if !fits {
                    return Err(format!(
                        "split sizes add up to {total} but dimension {axis} is {}",
                        xd[axis]
                    ));
                }
                v.iter().map(|&s| Dim::Known(s)).collect()
            }
            None => vec![Dim::Unknown; n],
        },
        None => {
            if n == 0 {
                return Err("requires at least one result".into());
            }
            match &xd[axis] {
                Dim::Known(d) => {
                    let (d, n) = (i128::from(*d), n as i128);
                    let part = (d + n - 1) / n;
                    // Each part is at most `d`, so it fits.
                    (0..n)
                        .map(|i| Dim::Known((d - i * part).clamp(0, part) as i64))
                        .collect()
                }
                d => vec![d.div_exact(&Dim::Known(n as i64)).unwrap_or(Dim::Unknown); n],
            }
        }
    };
    Ok(sizes
        .into_iter()
        .map(|s| {
            let mut dims = xd.to_vec();
            dims[axis] = s;
            (Shape::ranked(dims), elem)
        })
        .collect())
}

/// The size of one sliced dimension of size `dim` (ONNX's clamping);
/// `step` must not be 0.
pub fn slice_len(dim: i64, start: i64, end: i64, step: i64) -> i64 {
    if dim <= 0 {
        return 0;
    }
    let (dim, start, end, step) = (
        i128::from(dim),
        i128::from(start),
        i128::from(end),
        i128::from(step),
    );
    let norm = |v: i128| if v < 0 { v + dim } else { v };
    let (s, e) = if step > 0 {
        (norm(start).clamp(0, dim), norm(end).clamp(0, dim))
    } else {
        (
            norm(start).clamp(0, (dim - 1).max(0)),
            norm(end).clamp(-1, dim - 1),
        )
    };
    let len = if step > 0 {
        ((e - s).max(0) + step - 1) / step
    } else {
        ((s - e).max(0) + (-step) - 1) / (-step)
    };
    // At most `dim`, so it fits.
    len as i64
}

pub(in crate::graph) fn infer_slice(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let (starts, ends) = (operand(ops, 1)?, operand(ops, 2)?);
    let (axes_info, steps_info) = (
        group_operand(ctx, op, ops, 3),
        group_operand(ctx, op, ops, 4),
    );
    let (Some(st), Some(en)) = (&starts.value, &ends.value) else {
        return Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]);
    };
    if st.len() != en.len() {
        return Err(format!(
            "starts has {} entries but ends has {}",
            st.len(),
            en.len()
        ));
    }
    let axes: Vec<i64> = match axes_info {
        Some(a) => match &a.value {
            Some(v) => v.clone(),
            None => return Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]),
        },
        None => (0..st.len() as i64).collect(),
    };
    let steps: Vec<i64> = match steps_info {
        Some(s) => match &s.value {
            Some(v) => v.clone(),
            None => return Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]),
        },
        None => vec![1; st.len()],
    };
    if axes.len() != st.len() || steps.len() != st.len() {
        return Err("starts, ends, axes and steps must have the same length".into());
    }
    let axes = reduce_axes(&axes, xd.len())?;
    let mut dims = xd.to_vec();
    for (k, &a) in axes.iter().enumerate() {
        if steps[k] == 0 {
            return Err("slice step cannot be 0".into());
        }
        dims[a] = match &xd[a] {
            Dim::Known(d) => Dim::Known(slice_len(*d, st[k], en[k], steps[k])),
            // The whole dimension keeps its symbol.
            d if st[k] == 0 && steps[k] == 1 && en[k] >= i32::MAX as i64 => d.clone(),
            _ => Dim::Unknown,
        };
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_squeeze(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let axes = match ops.get(1) {
        Some(a) => match &a.value {
            Some(v) => reduce_axes(v, xd.len())?,
            None => return Ok(vec![(Shape::unranked(), elem)]),
        },
        None => {
            if xd.iter().any(|d| d.known().is_none()) {
                return Ok(vec![(Shape::unranked(), elem)]);
            }
            (0..xd.len()).filter(|&i| xd[i] == Dim::Known(1)).collect()
        }
    };
    for &a in &axes {
        if xd[a].provably_ne(&Dim::Known(1)) {
            return Err(format!("cannot squeeze dimension {a} of size {}", xd[a]));
        }
    }
    let dims = (0..xd.len())
        .filter(|i| !axes.contains(i))
        .map(|i| xd[i].clone())
        .collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_unsqueeze(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, a) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let (Some(xd), Some(axes)) = (x.shape.dims(), &a.value) else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let rank = xd.len() + axes.len();
    let axes = reduce_axes(axes, rank)?;
    let mut rest = xd.iter();
    let dims = (0..rank)
        .map(|i| {
            if axes.contains(&i) {
                Dim::Known(1)
            } else {
                rest.next().cloned().unwrap_or(Dim::Unknown)
            }
        })
        .collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_flatten(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::ranked(vec![Dim::Unknown; 2]), elem)]);
    };
    let axis = attr_i64(ctx, op, "axis").unwrap_or(1);
    let r = xd.len() as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if a < 0 || a > r {
        return Err(format!(
            "axis {axis} is out of range for rank {r} (expected [{}, {r}])",
            -r
        ));
    }
    let prod = |d: &[Dim]| d.iter().fold(Dim::Known(1), |acc, d| acc.mul(d));
    let a = a as usize;
    Ok(vec![(
        Shape::ranked(vec![prod(&xd[..a]), prod(&xd[a..])]),
        elem,
    )])
}

pub(in crate::graph) fn infer_pad(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, p) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let mode = attr_str(ctx, op, "mode").unwrap_or_else(|| "constant".into());
    if !matches!(mode.as_str(), "constant" | "reflect" | "edge" | "wrap") {
        return Err(format!(
            "mode must be one of \"constant\", \"reflect\", \"edge\", \"wrap\", but is \"{mode}\""
        ));
    }
    if let Some(v) = group_operand(ctx, op, ops, 2) {
        same_elem(ctx, x, v)?;
        if !is_scalar(&v.shape) {
            return Err(format!("value must be a scalar, but has shape {}", v.shape));
        }
    }
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let unknown = || Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]);
    let Some(given) = &p.value else {
        return unknown();
    };
    // With axes, pads lists the begin and end amounts of those axes only.
    let pads: Vec<i64> = match group_operand(ctx, op, ops, 3) {
        None => given.clone(),
        Some(a) => {
            let Some(axes) = &a.value else {
                return unknown();
            };
            if given.len() != 2 * axes.len() {
                return Err(format!(
                    "pads has {} entries but {} axes are padded",
                    given.len(),
                    axes.len()
                ));
            }
            let axes = reduce_axes(axes, xd.len())?;
            let mut full = vec![0; 2 * xd.len()];
            for (k, &a) in axes.iter().enumerate() {
                full[a] = given[k];
                full[a + xd.len()] = given[k + axes.len()];
            }
            full
        }
    };
    if pads.len() != 2 * xd.len() {
        return Err(format!(
            "pads has {} entries but the input has rank {}",
            pads.len(),
            xd.len()
        ));
    }
    let dims = xd
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let total = i128::from(pads[i]) + i128::from(pads[i + xd.len()]);
            match d {
                Dim::Known(n) if i128::from(*n) + total < 0 => {
                    Err(format!("pads crop dimension {i} below zero"))
                }
                Dim::Known(n) => i64::try_from(i128::from(*n) + total)
                    .map(Dim::Known)
                    .map_err(|_| format!("padded dimension {i} is too large")),
                d if total == 0 => Ok(d.clone()),
                _ => Ok(Dim::Unknown),
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_tile(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, r) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let Some(reps) = &r.value else {
        return Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]);
    };
    if reps.len() != xd.len() || reps.iter().any(|&r| r < 0) {
        return Err(format!(
            "repeats {reps:?} must have {} non-negative entries",
            xd.len()
        ));
    }
    let dims = xd
        .iter()
        .zip(reps)
        .map(|(d, &r)| d.mul(&Dim::Known(r)))
        .collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_shape_of(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let len = match x.shape.rank() {
        Some(r) => {
            let r = r as i64;
            let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r);
            let start = clamp(attr_i64(ctx, op, "start").unwrap_or(0));
            let end = clamp(attr_i64(ctx, op, "end").unwrap_or(r));
            Dim::Known((end - start).max(0))
        }
        None => Dim::Unknown,
    };
    Ok(vec![(Shape::ranked(vec![len]), ResultElem::I64)])
}

pub(in crate::graph) fn infer_size(
    _: &Context,
    _: Operation,
    _: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    Ok(vec![(Shape::ranked(vec![]), ResultElem::I64)])
}

pub(in crate::graph) fn infer_constant_of_shape(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let s = operand(ops, 0)?;
    let elem = match attr(ctx, op, "value") {
        Some(v) => {
            let t = strata_ir::ods::constraints::attr_type(ctx, v).ok_or("'value' has no type")?;
            let (shape, e) = shape_of(ctx, t).ok_or("'value' must be a tensor")?;
            if shape.num_elements().provably_ne(&Dim::Known(1)) {
                return Err(format!(
                    "'value' must have one element, but has shape {shape}"
                ));
            }
            ResultElem::Of(e)
        }
        None => ResultElem::F32,
    };
    let shape = match target_sizes(s) {
        Some(v) if v.iter().all(|d| d.known().is_none_or(|d| d >= 0)) => Shape::ranked(v),
        Some(v) => return Err(format!("shape {} has a negative size", Shape::ranked(v))),
        None => match len_1d(s, "shape")? {
            Some(n) => Shape::ranked(vec![Dim::Unknown; n]),
            None => Shape::unranked(),
        },
    };
    Ok(vec![(shape, elem)])
}

pub(in crate::graph) fn infer_range(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (s, l, d) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, s, l)?;
    same_elem(ctx, s, d)?;
    for o in [s, l, d] {
        if !is_scalar(&o.shape) {
            return Err(format!(
                "start, limit and delta must be scalars, but one has shape {}",
                o.shape
            ));
        }
    }
    let len = match (&s.value, &l.value, &d.value) {
        (Some(s), Some(l), Some(d)) if s.len() == 1 && l.len() == 1 && d.len() == 1 => {
            if d[0] == 0 {
                return Err("delta cannot be 0".into());
            }
            let (start, limit, delta) = (i128::from(s[0]), i128::from(l[0]), i128::from(d[0]));
            let n = ((limit - start + delta - delta.signum()) / delta).max(0);
            Dim::Known(i64::try_from(n).map_err(|_| format!("range of {n} elements is too large"))?)
        }
        // range(0, n, 1) has n elements, whatever n is.
        (Some(s), _, Some(d)) if s == &[0] && d == &[1] => match l.sizes.as_deref() {
            Some([n]) => n.clone(),
            _ => Dim::Unknown,
        },
        _ => Dim::Unknown,
    };
    Ok(vec![(Shape::ranked(vec![len]), ResultElem::Of(s.elem))])
}
