//! Shape functions of the resampling ops: `resize` (sizes or scales, from
//! constants where they are known) and `grid_sample`.

use strata_ir::attributes::AttrKind;
use strata_ir::{Context, Operation, Value};

use super::{
    attr_bool, attr_i64_array, attr_str, group_index, group_operand, len_1d, operand, reduce_axes,
    target_sizes, Inferred, OperandInfo, ResultElem,
};
use crate::graph::shape::{shape_of, Dim, Shape};

/// The operand value of group `group` (see [`group_operand`]).
fn group_value(ctx: &Context, op: Operation, group: usize) -> Option<Value> {
    ctx.operands(op).nth(group_index(ctx, op, group)?)
}

/// The elements of an `f32` or `f64` `graph.constant` of at most 1024
/// elements.
fn float_constant(ctx: &Context, v: Value) -> Option<Vec<f64>> {
    let op = ctx
        .defining_op(v)
        .filter(|&op| ctx.op_name_str(op) == "graph.constant")?;
    let attr = strata_ir::ods::inherent_attr(ctx, op, "value")?;
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(attr) else {
        return None;
    };
    let (shape, elem) = shape_of(ctx, *ty)?;
    let count = usize::try_from(shape.num_elements().known()?).ok()?;
    if count > 1024 {
        return None;
    }
    let kind = ctx.float_kind(elem)?;
    let read = |i: usize| -> Option<f64> {
        let i = if data.splat { 0 } else { i };
        match kind {
            strata_ir::float::FloatKind::F32 => {
                let b = data.raw.get(i * 4..i * 4 + 4)?;
                Some(f64::from(f32::from_le_bytes(b.try_into().ok()?)))
            }
            strata_ir::float::FloatKind::F64 => {
                let b = data.raw.get(i * 8..i * 8 + 8)?;
                Some(f64::from_le_bytes(b.try_into().ok()?))
            }
            _ => None,
        }
    };
    (0..count).map(read).collect()
}

pub(in crate::graph) fn infer_resize(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let one_of = |name: &str, default: &str, allowed: &[&str]| -> Result<String, String> {
        let v = attr_str(ctx, op, name).unwrap_or_else(|| default.into());
        if allowed.contains(&v.as_str()) {
            Ok(v)
        } else {
            Err(format!("{name} must be one of {allowed:?}, not \"{v}\""))
        }
    };
    let mode = one_of("mode", "nearest", &["nearest", "linear", "cubic"])?;
    let coordinate = one_of(
        "coordinate_transformation_mode",
        "half_pixel",
        &[
            "half_pixel",
            "half_pixel_symmetric",
            "pytorch_half_pixel",
            "align_corners",
            "asymmetric",
            "tf_crop_and_resize",
        ],
    )?;
    one_of(
        "nearest_mode",
        "round_prefer_floor",
        &["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"],
    )?;
    let policy = one_of(
        "keep_aspect_ratio_policy",
        "stretch",
        &["stretch", "not_larger", "not_smaller"],
    )?;
    if mode == "nearest" && attr_bool(ctx, op, "antialias") {
        return Err("antialias needs linear or cubic mode".into());
    }
    let (scales, sizes) = (
        group_operand(ctx, op, ops, 2),
        group_operand(ctx, op, ops, 3),
    );
    if scales.is_some() == sizes.is_some() {
        return Err("needs exactly one of scales and sizes".into());
    }
    if coordinate == "tf_crop_and_resize" && group_operand(ctx, op, ops, 1).is_none() {
        return Err("tf_crop_and_resize needs a roi".into());
    }
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let axes: Vec<usize> = match attr_i64_array(ctx, op, "axes") {
        Some(a) => reduce_axes(&a, xd.len())?,
        None => (0..xd.len()).collect(),
    };
    for info in [scales, sizes].into_iter().flatten() {
        if let Some(n) = len_1d(info, "scales and sizes")? {
            if n != axes.len() {
                return Err(format!("has {n} scales or sizes for {} axes", axes.len()));
            }
        }
    }
    let mut dims = xd.to_vec();
    if let Some(s) = sizes {
        let given = target_sizes(s);
        let stretch = policy == "stretch";
        // With another policy one scale serves every axis: static inputs only.
        let known: Option<Vec<(i64, i64)>> = given.as_ref().and_then(|g| {
            axes.iter()
                .zip(g)
                .map(|(&a, d)| Some((xd[a].known()?, d.known()?)))
                .collect()
        });
        if let Some(bad) = given
            .iter()
            .flatten()
            .find_map(|d| d.known().filter(|&n| n < 0))
        {
            return Err(format!("sizes has the negative size {bad}"));
        }
        for (i, &a) in axes.iter().enumerate() {
            dims[a] = match (&given, &known) {
                (Some(g), _) if stretch => g[i].clone(),
                (_, Some(k)) => {
                    if k.iter().any(|&(n, _)| n == 0) {
                        return Err("cannot resize an empty dimension to a size".into());
                    }
                    let ratios = k.iter().map(|&(n, t)| t as f64 / n as f64);
                    let scale = if policy == "not_larger" {
                        ratios.fold(f64::INFINITY, f64::min)
                    } else {
                        ratios.fold(0.0, f64::max)
                    };
                    Dim::Known((scale * k[i].0 as f64 + 0.5).floor() as i64)
                }
                _ => Dim::Unknown,
            };
        }
    } else if let Some(values) = group_value(ctx, op, 2).and_then(|v| float_constant(ctx, v)) {
        if values.len() != axes.len() {
            return Err(format!(
                "has {} scales for {} axes",
                values.len(),
                axes.len()
            ));
        }
        for (&a, &s) in axes.iter().zip(&values) {
            if s.is_nan() || s <= 0.0 {
                return Err(format!("scale {s} of axis {a} is not positive"));
            }
            dims[a] = match &xd[a] {
                Dim::Known(n) => {
                    let out = (s * *n as f64).floor();
                    if !out.is_finite() || out > i64::MAX as f64 {
                        return Err(format!("scale {s} of axis {a} is too large"));
                    }
                    Dim::Known(out as i64)
                }
                d if s.fract() == 0.0 && s <= i64::MAX as f64 => d.mul(&Dim::Known(s as i64)),
                _ => Dim::Unknown,
            };
        }
    } else {
        for &a in &axes {
            dims[a] = Dim::Unknown;
        }
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_grid_sample(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, g) = (operand(ops, 0)?, operand(ops, 1)?);
    let mode = attr_str(ctx, op, "mode").unwrap_or_else(|| "linear".into());
    if !matches!(mode.as_str(), "nearest" | "linear" | "cubic") {
        return Err(format!(
            "mode must be \"nearest\", \"linear\" or \"cubic\", not \"{mode}\""
        ));
    }
    let pad = attr_str(ctx, op, "padding_mode").unwrap_or_else(|| "zeros".into());
    if !matches!(pad.as_str(), "zeros" | "border" | "reflection") {
        return Err(format!(
            "padding_mode must be \"zeros\", \"border\" or \"reflection\", not \"{pad}\""
        ));
    }
    let elem = ResultElem::Of(x.elem);
    let (Some(xd), Some(gd)) = (x.shape.dims(), g.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let k = xd.len().saturating_sub(2);
    if k == 0 || gd.len() != k + 2 {
        return Err(format!(
            "grid must have rank {} for an input of shape {}, but has shape {}",
            k + 2,
            x.shape,
            g.shape
        ));
    }
    if gd[k + 1].provably_ne(&Dim::Known(k as i64)) || xd[0].provably_ne(&gd[0]) {
        return Err(format!(
            "grid {} does not fit input {} (it must be [N, H1..Hk, {k}])",
            g.shape, x.shape
        ));
    }
    let mut dims = vec![xd[0].clone(), xd[1].clone()];
    dims.extend(gd[1..=k].iter().cloned());
    Ok(vec![(Shape::ranked(dims), elem)])
}

/// `graph.affine_grid`: `theta [N, 2, 3]` and `size [N, C, H, W]` give
/// `[N, H, W, 2]`; `theta [N, 3, 4]` and `size [N, C, D, H, W]` give
/// `[N, D, H, W, 3]`; sizes known where `size` is.
pub(in crate::graph) fn infer_affine_grid(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (theta, size) = (operand(ops, 0)?, operand(ops, 1)?);
    if size.shape.rank().is_some_and(|r| r != 1) {
        return Err(format!("size must be 1-D, but has shape {}", size.shape));
    }
    let from_size = match (&size.value, size.shape.dims()) {
        (Some(v), _) => Some(v.len()),
        (None, Some([Dim::Known(n)])) => Some(*n as usize),
        _ => None,
    };
    let from_theta = match theta.shape.dims() {
        Some(d) if d.len() != 3 => {
            return Err(format!(
                "theta must be [N, 2, 3] or [N, 3, 4], but has shape {}",
                theta.shape
            ))
        }
        Some([_, Dim::Known(2), Dim::Known(3)]) => Some(4),
        Some([_, Dim::Known(3), Dim::Known(4)]) => Some(5),
        Some([_, Dim::Known(_), Dim::Known(_)]) => {
            return Err(format!(
                "theta must be [N, 2, 3] or [N, 3, 4], but has shape {}",
                theta.shape
            ))
        }
        _ => None,
    };
    let rank = match (from_size, from_theta) {
        (Some(s), _) if s != 4 && s != 5 => {
            return Err(format!(
                "size must have 4 entries ([N, C, H, W]) or 5 ([N, C, D, H, W]), but has {s}"
            ))
        }
        (Some(s), Some(t)) if s != t => {
            return Err(format!(
                "theta {} is for {}-D grids, but size has {s} entries",
                theta.shape,
                t - 2
            ))
        }
        (s, t) => s.or(t),
    };
    let Some(rank) = rank else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(theta.elem))]);
    };
    if let Some(v) = &size.value {
        if v.iter().any(|&s| s < 0) {
            return Err(format!("size has a negative entry: {v:?}"));
        }
        if let Some([Dim::Known(n), ..]) = theta.shape.dims() {
            if *n != v[0] {
                return Err(format!(
                    "size's batch ({}) differs from theta's ({n})",
                    v[0]
                ));
            }
        }
    }
    let spatial = rank - 2;
    let n = match (&size.value, theta.shape.dims()) {
        (Some(v), _) => Dim::Known(v[0]),
        (None, Some(d)) => d[0].clone(),
        _ => Dim::Unknown,
    };
    let mut out = vec![n];
    match &size.value {
        Some(v) => out.extend(v[2..].iter().map(|&s| Dim::Known(s))),
        None => out.extend(std::iter::repeat_n(Dim::Unknown, spatial)),
    }
    out.push(Dim::Known(spatial as i64));
    Ok(vec![(Shape::ranked(out), ResultElem::Of(theta.elem))])
}
