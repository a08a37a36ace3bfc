//! Reference evaluation of the shape and indexing `graph` ops: reshapes,
//! transposes, slices, gathers and scatters, padding, ranges.

use strata_dialects::graph as g;

use super::graph::GraphArgs;
use super::{attr_tensor, check_size, kerr, norm, reshape_target, usizes};
use crate::kernels as k;
use crate::{DType, Tensor};

/// `graph.gather_nd`.
pub(super) fn eval_gather_nd(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let b = usize::try_from(g::GatherNdOp(e.op).batch_dims(e.ctx))
        .map_err(|_| "batch_dims must not be negative")?;
    // Each index tuple selects a slice: bound the result first.
    let (data, idx) = (e.arg(0)?, e.arg(1)?);
    if let Some((&k, lead)) = idx.shape().split_last() {
        let mut shape = lead.to_vec();
        shape.extend(data.shape().get(b + k..).unwrap_or(&[]));
        check_size(&shape, data.dtype(), e.limits.max_bytes)?;
    }
    Ok(vec![k::gather_nd(e.arg(0)?, e.arg(1)?, b).map_err(kerr)?])
}

/// `graph.gather_elements`.
pub(super) fn eval_gather_elements(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    Ok(vec![k::gather_elements(
        e.arg(0)?,
        e.arg(1)?,
        g::GatherElementsOp(e.op).axis(e.ctx),
    )
    .map_err(kerr)?])
}

/// `graph.reshape`.
pub(super) fn eval_reshape(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let input = e.arg(0)?;
    let allowzero = g::ReshapeOp(e.op).allowzero(e.ctx);
    let target = reshape_target(input.shape(), &e.ints(1)?, allowzero)?;
    Ok(vec![k::reshape(input, &target).map_err(kerr)?])
}

/// `graph.transpose`.
pub(super) fn eval_transpose(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let input = e.arg(0)?;
    let perm = match g::TransposeOp(e.op).perm(e.ctx) {
        Some(p) => usizes(&p, "perm")?,
        None => (0..input.rank()).rev().collect(),
    };
    Ok(vec![k::transpose(input, &perm).map_err(kerr)?])
}

/// `graph.expand`.
pub(super) fn eval_expand(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let input = e.arg(0)?;
    let shape = usizes(&e.ints(1)?, "shape")?;
    let out = k::broadcast_shapes(input.shape(), &shape).map_err(kerr)?;
    check_size(&out, input.dtype(), e.limits.max_bytes)?;
    Ok(vec![k::expand(input, &shape).map_err(kerr)?])
}

/// `graph.tile`.
pub(super) fn eval_tile(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let input = e.arg(0)?;
    let repeats = usizes(&e.ints(1)?, "repeats")?;
    let out: Vec<usize> = input
        .shape()
        .iter()
        .zip(&repeats)
        .map(|(&d, &r)| d.saturating_mul(r))
        .collect();
    check_size(&out, input.dtype(), e.limits.max_bytes)?;
    Ok(vec![k::tile(input, &repeats).map_err(kerr)?])
}

/// `graph.concat`.
pub(super) fn eval_concat(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let refs: Vec<&Tensor> = e.x.clone();
    Ok(vec![k::concat(
        &refs,
        g::ConcatOp(e.op).axis(e.ctx).ok_or("has no axis")?,
    )
    .map_err(kerr)?])
}

/// `graph.split`.
pub(super) fn eval_split(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let input = e.arg(0)?;
    let n = ctx.results(op).count();
    let axis = g::SplitOp(op).axis(ctx);
    let rank = input.rank() as i64;
    let a = if axis < 0 { axis + rank } else { axis };
    let dim = usize::try_from(a)
        .ok()
        .and_then(|a| input.shape().get(a).copied())
        .ok_or_else(|| format!("axis {axis} is out of range for rank {rank}"))?;
    let sizes = match e.x.get(1).copied() {
        Some(s) => usizes(&s.to_i64_vec(), "split sizes")?,
        None => {
            let part = dim.div_ceil(n.max(1));
            (0..n)
                .map(|i| dim.saturating_sub(i * part).min(part))
                .collect()
        }
    };
    k::split(input, axis, &sizes).map_err(kerr)
}

/// `graph.slice`.
pub(super) fn eval_slice(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let starts = e.ints(1)?;
    let ends = e.ints(2)?;
    let axes = match e.opt(3) {
        Some(t) => t.to_i64_vec(),
        None => (0..starts.len() as i64).collect(),
    };
    let steps = match e.opt(4) {
        Some(t) => t.to_i64_vec(),
        None => vec![1; starts.len()],
    };
    Ok(vec![
        k::slice(e.arg(0)?, &starts, &ends, &axes, &steps).map_err(kerr)?
    ])
}

/// `graph.gather`.
pub(super) fn eval_gather(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    // The indices may repeat large slices: bound the result first.
    let (data, idx) = (e.arg(0)?, e.arg(1)?);
    let axis = g::GatherOp(e.op).axis(e.ctx);
    let r = data.rank() as i64;
    if let Some(a) = usize::try_from(if axis < 0 { axis + r } else { axis })
        .ok()
        .filter(|&a| a < data.rank())
    {
        let mut shape = data.shape()[..a].to_vec();
        shape.extend_from_slice(idx.shape());
        shape.extend_from_slice(&data.shape()[a + 1..]);
        check_size(&shape, data.dtype(), e.limits.max_bytes)?;
    }
    Ok(vec![k::gather(data, idx, axis).map_err(kerr)?])
}

/// `graph.squeeze`.
pub(super) fn eval_squeeze(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let input = e.arg(0)?;
    let rank = input.rank() as i64;
    let axes: Vec<usize> = match e.x.get(1).copied() {
        Some(a) => a
            .to_i64_vec()
            .iter()
            .map(|&a| norm(a, rank))
            .collect::<Result<_, _>>()?,
        None => (0..input.rank())
            .filter(|&i| input.shape()[i] == 1)
            .collect(),
    };
    for &a in &axes {
        if input.shape()[a] != 1 {
            return Err(format!(
                "cannot squeeze dimension {a} of size {}",
                input.shape()[a]
            ));
        }
    }
    let shape: Vec<usize> = (0..input.rank())
        .filter(|i| !axes.contains(i))
        .map(|i| input.shape()[i])
        .collect();
    Ok(vec![k::reshape(input, &shape).map_err(kerr)?])
}

/// `graph.unsqueeze`.
pub(super) fn eval_unsqueeze(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let input = e.arg(0)?;
    let axes = e.ints(1)?;
    let rank = (input.rank() + axes.len()) as i64;
    let axes: Vec<usize> = axes
        .iter()
        .map(|&a| norm(a, rank))
        .collect::<Result<_, _>>()?;
    if (1..axes.len()).any(|i| axes[..i].contains(&axes[i])) {
        return Err(format!("axes {axes:?} repeat an axis"));
    }
    let mut rest = input.shape().iter();
    let shape: Vec<usize> = (0..rank as usize)
        .map(|i| {
            if axes.contains(&i) {
                1
            } else {
                rest.next().copied().unwrap_or(1)
            }
        })
        .collect();
    Ok(vec![k::reshape(input, &shape).map_err(kerr)?])
}

/// `graph.flatten`.
pub(super) fn eval_flatten(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let input = e.arg(0)?;
    let rank = input.rank() as i64;
    let axis = g::FlattenOp(e.op).axis(e.ctx);
    let a = if axis < 0 { axis + rank } else { axis };
    if a < 0 || a > rank {
        return Err(format!("axis {axis} is out of range for rank {rank}"));
    }
    let (outer, inner) = input.shape().split_at(a as usize);
    Ok(vec![k::reshape(
        input,
        &[outer.iter().product(), inner.iter().product()],
    )
    .map_err(kerr)?])
}

/// `graph.pad`.
pub(super) fn eval_pad(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let mode = match g::PadOp(e.op).mode(e.ctx).as_str() {
        "constant" => k::PadMode::Constant(
            e.opt(2)
                .and_then(|t| t.to_f64_vec().first().copied())
                .unwrap_or(0.0),
        ),
        "reflect" => k::PadMode::Reflect,
        "edge" => k::PadMode::Edge,
        "wrap" => k::PadMode::Wrap,
        other => return Err(format!("unknown pad mode '{other}'")),
    };
    let (input, given) = (e.arg(0)?, e.ints(1)?);
    let rank = input.rank();
    // With axes, pads lists the amounts of those axes only.
    let pads = match e.opt(3) {
        None => given,
        Some(axes) => {
            let axes = axes.to_i64_vec();
            if given.len() != 2 * axes.len() {
                return Err(format!(
                    "pads has {} entries but {} axes are padded",
                    given.len(),
                    axes.len()
                ));
            }
            let mut full = vec![0; 2 * rank];
            for (i, &a) in axes.iter().enumerate() {
                let a = norm(a, rank as i64)?;
                full[a] = given[i];
                full[a + rank] = given[i + axes.len()];
            }
            full
        }
    };
    if pads.len() == 2 * rank {
        let out: Vec<usize> = (0..rank)
            .map(|i| {
                let n = input.shape()[i] as i128 + i128::from(pads[i]) + i128::from(pads[i + rank]);
                usize::try_from(n.max(0)).unwrap_or(usize::MAX)
            })
            .collect();
        check_size(&out, input.dtype(), e.limits.max_bytes)?;
    }
    Ok(vec![k::pad(input, &pads, mode).map_err(kerr)?])
}

/// `graph.shape_of`.
pub(super) fn eval_shape_of(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let shape: Vec<i64> = e.arg(0)?.shape().iter().map(|&d| d as i64).collect();
    let r = shape.len() as i64;
    let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
    let op = g::ShapeOfOp(e.op);
    let start = clamp(op.start(e.ctx));
    let end = clamp(op.end(e.ctx).unwrap_or(r));
    let dims = shape.get(start..end.max(start)).unwrap_or(&[]).to_vec();
    Ok(vec![Tensor::from_i64_vec(DType::I64, &[dims.len()], &dims)])
}

/// `graph.constant_of_shape`.
pub(super) fn eval_constant_of_shape(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let shape = usizes(&e.ints(0)?, "shape")?;
    let (dtype, v) = match strata_ir::ods::inherent_attr(ctx, op, "value") {
        Some(a) => {
            let t = attr_tensor(ctx, a)?;
            (t.dtype(), t)
        }
        None => (DType::F32, Tensor::scalar_f64(DType::F32, 0.0)),
    };
    check_size(&shape, dtype, e.limits.max_bytes)?;
    let scalar = k::reshape(&v, &[]).map_err(kerr)?;
    Ok(vec![k::expand(&scalar, &shape).map_err(kerr)?])
}

/// `graph.range`.
pub(super) fn eval_range(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let s = |i: usize| {
        e.arg(i)
            .map(|t| t.to_f64_vec().first().copied().unwrap_or(0.0))
    };
    let dtype = e.result_dtype(0)?;
    let out = if dtype.is_float() {
        let (start, limit, delta) = (s(0)?, s(1)?, s(2)?);
        let n = ((limit - start) / delta).ceil();
        if n.is_finite() && n > 0.0 {
            check_size(
                &[n.min(usize::MAX as f64) as usize],
                dtype,
                e.limits.max_bytes,
            )?;
        }
        k::range(start, limit, delta, dtype).map_err(kerr)?
    } else {
        let g = |i: usize| {
            e.arg(i)
                .map(|t| t.to_i64_vec().first().copied().unwrap_or(0))
        };
        let (start, limit, delta) = (g(0)?, g(1)?, g(2)?);
        if delta == 0 {
            return Err("delta cannot be 0".into());
        }
        let (wide_start, wide_delta) = (i128::from(start), i128::from(delta));
        let n = ((i128::from(limit) - wide_start + wide_delta - wide_delta.signum()) / wide_delta)
            .max(0);
        check_size(
            &[usize::try_from(n).unwrap_or(usize::MAX)],
            dtype,
            e.limits.max_bytes,
        )?;
        // Every value lies between start and limit, so it fits.
        let vals: Vec<i64> = (0..n)
            .map(|i| (wide_start + i * wide_delta) as i64)
            .collect();
        Tensor::from_i64_vec(dtype, &[vals.len()], &vals)
    };
    Ok(vec![out])
}

/// `graph.scatter_elements`, or `graph.scatter_nd` when `nd`.
pub(super) fn eval_scatter(e: &GraphArgs<'_>, nd: bool) -> Result<Vec<Tensor>, String> {
    let ctx = e.ctx;
    let r = if nd {
        g::ScatterNdOp(e.op).reduction(ctx)
    } else {
        g::ScatterElementsOp(e.op).reduction(ctx)
    };
    let r =
        k::ScatterReduction::parse(&r).ok_or_else(|| format!("has an unknown reduction '{r}'"))?;
    let out = if nd {
        k::scatter_nd(e.arg(0)?, e.arg(1)?, e.arg(2)?, r).map_err(kerr)?
    } else {
        let axis = g::ScatterElementsOp(e.op).axis(ctx);
        k::scatter_elements(e.arg(0)?, e.arg(1)?, e.arg(2)?, axis, r).map_err(kerr)?
    };
    Ok(vec![out])
}

/// `graph.cumsum`, or `graph.cumprod` when `prod`.
pub(super) fn eval_cumulative(e: &GraphArgs<'_>, prod: bool) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let axis = match e.arg(1)?.to_i64_vec().as_slice() {
        &[a] => a,
        _ => return Err("axis must hold one element".into()),
    };
    let (exclusive, reverse) = if prod {
        let op = g::CumprodOp(op);
        (op.exclusive(ctx), op.reverse(ctx))
    } else {
        let op = g::CumsumOp(op);
        (op.exclusive(ctx), op.reverse(ctx))
    };
    Ok(vec![(if prod { k::cumprod } else { k::cumsum })(
        e.arg(0)?,
        axis,
        exclusive,
        reverse,
    )
    .map_err(kerr)?])
}

/// `graph.non_zero`.
pub(super) fn eval_non_zero(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    Ok(vec![k::non_zero(e.arg(0)?).map_err(kerr)?])
}

/// `graph.unique`.
pub(super) fn eval_unique(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let op = g::UniqueOp(e.op);
    let u = k::unique(e.arg(0)?, op.axis(e.ctx), op.sorted(e.ctx)).map_err(kerr)?;
    Ok(vec![u.values, u.indices, u.inverse, u.counts])
}
