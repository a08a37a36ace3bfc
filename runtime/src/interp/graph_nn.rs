//! Reference evaluation of the neural-network `graph` ops: convolutions,
//! pooling, normalizations, resampling, attention and the like.

use strata_dialects::graph::infer::{attr_bool, attr_f64, attr_i64_array, attr_str};

use super::graph::GraphArgs;
use super::{check_size, kerr, usizes};
use crate::kernels as k;
use crate::{DType, Tensor};

/// `graph.conv2d`.
pub(super) fn eval_conv2d(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (strides, pads, dilations) = (
        e.window("strides", vec![1, 1])?,
        e.window("pads", vec![0; 4])?,
        e.window("dilations", vec![1, 1])?,
    );
    let group =
        usize::try_from(e.i64a("group").unwrap_or(1)).map_err(|_| "group must be positive")?;
    let (input, weight) = (e.arg(0)?, e.arg(1)?);
    // The im2col buffer can be kH * kW times the result; it holds
    // f32 (f64 for f64 inputs).
    let cols = k::conv2d_workspace(
        input.shape(),
        weight.shape(),
        &strides,
        &pads,
        &dilations,
        group,
    )
    .map_err(kerr)?;
    let width = if input.dtype() == DType::F64 { 8 } else { 4 };
    let bytes = cols.saturating_mul(width);
    if bytes > e.limits.max_bytes {
        return Err(format!(
            "needs an im2col buffer of {bytes} bytes, larger than the interpreter's limit of {} bytes",
            e.limits.max_bytes
        ));
    }
    Ok(vec![k::conv2d(
        input,
        weight,
        e.x.get(2).copied(),
        &strides,
        &pads,
        &dilations,
        group,
    )
    .map_err(kerr)?])
}

/// `graph.conv_transpose2d`.
pub(super) fn eval_conv_transpose2d(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let params = k::ConvTransposeParams {
        strides: e.window("strides", vec![1, 1])?,
        pads: e.window("pads", vec![0; 4])?,
        dilations: e.window("dilations", vec![1, 1])?,
        group: usize::try_from(e.i64a("group").unwrap_or(1))
            .map_err(|_| "group must be positive")?,
        output_padding: e.window("output_padding", vec![0, 0])?,
        output_shape: match attr_i64_array(ctx, op, "output_shape") {
            Some(s) => Some(usizes(&s, "output_shape")?),
            None => None,
        },
        max_bytes: e.limits.max_bytes,
    };
    Ok(vec![k::conv_transpose2d(
        e.arg(0)?,
        e.arg(1)?,
        e.x.get(2).copied(),
        &params,
    )
    .map_err(kerr)?])
}

/// `graph.max_pool2d`.
pub(super) fn eval_max_pool2d(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    if ctx.results(op).count() == 2 {
        return eval_max_pool2d_with_indices(e);
    }
    Ok(vec![k::max_pool2d(
        e.arg(0)?,
        &e.window("kernel_shape", vec![])?,
        &e.window("strides", vec![1, 1])?,
        &e.window("pads", vec![0; 4])?,
        &e.window("dilations", vec![1, 1])?,
        attr_bool(ctx, op, "ceil_mode"),
    )
    .map_err(kerr)?])
}

/// `graph.max_pool2d` with its `indices` result.
fn eval_max_pool2d_with_indices(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let (values, indices) = k::max_pool2d_with_indices(
        e.arg(0)?,
        &e.window("kernel_shape", vec![])?,
        &e.window("strides", vec![1, 1])?,
        &e.window("pads", vec![0; 4])?,
        &e.window("dilations", vec![1, 1])?,
        attr_bool(ctx, op, "ceil_mode"),
    )
    .map_err(kerr)?;
    if e.i64a("storage_order").unwrap_or(0) == 1 {
        // Column-major within each H x W plane.
        let (h, w) = match e.arg(0)?.shape() {
            &[_, _, h, w] => (h as i64, w as i64),
            _ => return Err("input must be 4-D".into()),
        };
        let plane = (h * w).max(1);
        let converted: Vec<i64> = indices
            .to_i64_vec()
            .iter()
            .map(|&i| {
                let (p, r) = (i / plane, i % plane);
                p * plane + (r % w.max(1)) * h + r / w.max(1)
            })
            .collect();
        let indices = Tensor::from_i64_vec(DType::I64, indices.shape(), &converted);
        return Ok(vec![values, indices]);
    }
    Ok(vec![values, indices])
}

/// `graph.avg_pool2d`.
pub(super) fn eval_avg_pool2d(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    Ok(vec![k::avg_pool2d(
        e.arg(0)?,
        &e.window("kernel_shape", vec![])?,
        &e.window("strides", vec![1, 1])?,
        &e.window("pads", vec![0; 4])?,
        &e.window("dilations", vec![1, 1])?,
        attr_bool(ctx, op, "ceil_mode"),
        attr_bool(ctx, op, "count_include_pad"),
    )
    .map_err(kerr)?])
}

/// `graph.log_softmax`.
pub(super) fn eval_log_softmax(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    Ok(vec![k::log_softmax(
        e.arg(0)?,
        e.i64a("axis").unwrap_or(-1),
    )
    .map_err(kerr)?])
}

/// `graph.layer_norm`.
pub(super) fn eval_layer_norm(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    Ok(vec![k::layer_norm(
        e.arg(0)?,
        e.arg(1)?,
        e.x.get(2).copied(),
        e.i64a("axis").unwrap_or(-1),
        attr_f64(ctx, op, "epsilon").unwrap_or(1e-5),
    )
    .map_err(kerr)?])
}

/// `graph.rms_norm`.
pub(super) fn eval_rms_norm(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    Ok(vec![k::rms_norm(
        e.arg(0)?,
        e.arg(1)?,
        e.i64a("axis").unwrap_or(-1),
        attr_f64(ctx, op, "epsilon").unwrap_or(1e-5),
    )
    .map_err(kerr)?])
}

/// `graph.batch_norm`.
pub(super) fn eval_batch_norm(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    Ok(vec![k::batch_norm(
        e.arg(0)?,
        e.arg(1)?,
        e.arg(2)?,
        e.arg(3)?,
        e.arg(4)?,
        attr_f64(ctx, op, "epsilon").unwrap_or(1e-5),
    )
    .map_err(kerr)?])
}

/// `graph.resize`.
pub(super) fn eval_resize(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let word = |n: &str, d: &str| attr_str(ctx, op, n).unwrap_or_else(|| d.into());
    let mode = match word("mode", "nearest").as_str() {
        "linear" => k::ResizeMode::Linear,
        "cubic" => k::ResizeMode::Cubic,
        _ => k::ResizeMode::Nearest,
    };
    let mut p = k::ResizeParams::new(mode);
    p.coordinate = match word("coordinate_transformation_mode", "half_pixel").as_str() {
        "half_pixel_symmetric" => k::CoordinateMode::HalfPixelSymmetric,
        "pytorch_half_pixel" => k::CoordinateMode::PytorchHalfPixel,
        "align_corners" => k::CoordinateMode::AlignCorners,
        "asymmetric" => k::CoordinateMode::Asymmetric,
        "tf_crop_and_resize" => k::CoordinateMode::TfCropAndResize,
        _ => k::CoordinateMode::HalfPixel,
    };
    p.nearest = match word("nearest_mode", "round_prefer_floor").as_str() {
        "round_prefer_ceil" => k::NearestMode::RoundPreferCeil,
        "floor" => k::NearestMode::Floor,
        "ceil" => k::NearestMode::Ceil,
        _ => k::NearestMode::RoundPreferFloor,
    };
    p.aspect = match word("keep_aspect_ratio_policy", "stretch").as_str() {
        "not_larger" => k::AspectPolicy::NotLarger,
        "not_smaller" => k::AspectPolicy::NotSmaller,
        _ => k::AspectPolicy::Stretch,
    };
    p.cubic_a = attr_f64(ctx, op, "cubic_coeff_a").unwrap_or(-0.75);
    p.exclude_outside = attr_bool(ctx, op, "exclude_outside");
    p.extrapolation = attr_f64(ctx, op, "extrapolation_value").unwrap_or(0.0);
    p.antialias = attr_bool(ctx, op, "antialias");
    p.max_bytes = e.limits.max_bytes;
    let axes = attr_i64_array(ctx, op, "axes").unwrap_or_default();
    let roi = e.opt(1).map(|t| t.to_f64_vec());
    let (scales, sizes) = (
        e.opt(2).map(|t| t.to_f64_vec()),
        e.opt(3).map(|t| t.to_i64_vec()),
    );
    let target = match (&scales, &sizes) {
        (Some(s), None) => k::ResizeTarget::Scales(s),
        (None, Some(z)) => k::ResizeTarget::Sizes(z),
        _ => return Err("needs exactly one of scales and sizes".into()),
    };
    Ok(vec![k::resize(
        e.arg(0)?,
        &axes,
        target,
        roi.as_deref(),
        &p,
    )
    .map_err(kerr)?])
}

/// `graph.dft`.
pub(super) fn eval_dft(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let length = e.opt(1).and_then(|t| t.to_i64_vec().first().copied());
    let axis = match e.opt(2) {
        Some(t) => t.to_i64_vec().first().copied().ok_or("axis is empty")?,
        None => e.i64a("axis").unwrap_or(1),
    };
    Ok(vec![k::dft(
        e.arg(0)?,
        axis,
        length,
        attr_bool(ctx, op, "inverse"),
        attr_bool(ctx, op, "onesided"),
    )
    .map_err(kerr)?])
}

/// `graph.non_max_suppression`.
pub(super) fn eval_non_max_suppression(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let first = |t: Option<&Tensor>| t.and_then(|t| t.to_f64_vec().first().copied());
    let max = e
        .opt(2)
        .and_then(|t| t.to_i64_vec().first().copied())
        .unwrap_or(0);
    Ok(vec![k::non_max_suppression(
        e.arg(0)?,
        e.arg(1)?,
        max,
        first(e.opt(3)).unwrap_or(0.0),
        first(e.opt(4)),
        attr_bool(ctx, op, "center_point_box"),
    )
    .map_err(kerr)?])
}

/// `graph.grid_sample`.
pub(super) fn eval_grid_sample(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let mode = match attr_str(ctx, op, "mode").as_deref() {
        Some("nearest") => k::GridMode::Nearest,
        Some("cubic") => k::GridMode::Cubic,
        _ => k::GridMode::Linear,
    };
    let padding = match attr_str(ctx, op, "padding_mode").as_deref() {
        Some("border") => k::GridPadding::Border,
        Some("reflection") => k::GridPadding::Reflection,
        _ => k::GridPadding::Zeros,
    };
    let align = attr_bool(ctx, op, "align_corners");
    Ok(vec![k::grid_sample(
        e.arg(0)?,
        e.arg(1)?,
        mode,
        padding,
        align,
    )
    .map_err(kerr)?])
}

/// `graph.top_k`.
pub(super) fn eval_top_k(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let count = match e.arg(1)?.to_i64_vec().as_slice() {
        &[n] => n,
        _ => return Err("k must hold one element".into()),
    };
    let (values, indices) = k::top_k(
        e.arg(0)?,
        count,
        e.i64a("axis").unwrap_or(-1),
        attr_bool(ctx, op, "largest"),
    )
    .map_err(kerr)?;
    Ok(vec![values, indices])
}

/// `graph.dropout`.
pub(super) fn eval_dropout(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let ratio = e.arg(1)?.to_f64_vec();
    let &[ratio] = ratio.as_slice() else {
        return Err("ratio must hold one element".into());
    };
    let training = match e.x.get(2) {
        Some(t) => t.to_i64_vec().first().is_some_and(|&v| v != 0),
        None => true,
    };
    // Not training: the identity, every element kept.
    let ratio = if training { ratio } else { 0.0 };
    let seed = e.i64a("seed").unwrap_or(0) as u64;
    let (values, mask) = k::dropout(e.arg(0)?, ratio, seed).map_err(kerr)?;
    if ctx.results(op).count() == 2 {
        return Ok(vec![values, mask]);
    }
    Ok(vec![values])
}

/// `graph.attention`.
pub(super) fn eval_attention(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let (q, key) = (e.arg(0)?, e.arg(1)?);
    // The scores [..., L, S] (in f64) can be far larger than the
    // result [..., L, Ev].
    if q.rank() >= 2 && key.rank() >= 2 {
        let (qr, kr) = (q.rank(), key.rank());
        // The larger of each aligned batch dimension: broadcasting,
        // and grouped-query heads repeated up to q's count.
        let (qb, kb) = (&q.shape()[..qr - 2], &key.shape()[..kr - 2]);
        let n = qb.len().max(kb.len());
        let at = |b: &[usize], i: usize| (i + b.len()).checked_sub(n).map_or(1, |j| b[j]);
        let mut scores: Vec<usize> = (0..n).map(|i| at(qb, i).max(at(kb, i))).collect();
        {
            scores.push(q.shape()[qr - 2]);
            scores.push(key.shape()[kr - 2]);
            if check_size(&scores, DType::F64, e.limits.max_bytes).is_err() {
                return Err(format!(
                    "needs attention scores of shape {scores:?}, larger than the interpreter's limit of {} bytes",
                    e.limits.max_bytes
                ));
            }
        }
    }
    Ok(vec![k::attention(
        q,
        key,
        e.arg(2)?,
        e.x.get(3).copied(),
        attr_f64(ctx, op, "scale"),
        attr_bool(ctx, op, "is_causal"),
    )
    .map_err(kerr)?])
}

/// `graph.argmax`, or `graph.argmin` when not `max`.
pub(super) fn eval_arg_reduce(e: &GraphArgs<'_>, max: bool) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let f = if max { k::argmax } else { k::argmin };
    Ok(vec![f(
        e.arg(0)?,
        e.i64a("axis").unwrap_or(0),
        attr_bool(ctx, op, "keepdims"),
        attr_bool(ctx, op, "select_last_index"),
    )
    .map_err(kerr)?])
}
