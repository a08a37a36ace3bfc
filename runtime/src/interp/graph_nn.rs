//! Reference evaluation of the neural-network `graph` ops: convolutions,
//! pooling, normalizations, resampling, attention and the like.

use std::borrow::Cow;

use strata_dialects::graph as g;

use super::graph::GraphArgs;
use super::{check_size, kerr, usizes};
use crate::kernels as k;
use crate::{DType, Tensor};

/// `graph.conv2d`.
pub(super) fn eval_conv2d(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, conv) = (e.ctx, g::Conv2dOp(e.op));
    let (strides, pads, dilations) = (
        usizes(&conv.strides(ctx), "strides")?,
        usizes(&conv.pads(ctx), "pads")?,
        usizes(&conv.dilations(ctx), "dilations")?,
    );
    let group = usize::try_from(conv.group(ctx)).map_err(|_| "group must be positive")?;
    let last = channels_last(&conv.layout(ctx))?;
    let (input, weight) = (to_nchw(e.arg(0)?, last)?, to_nchw(e.arg(1)?, last)?);
    let (input, weight) = (&input, &weight);
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
    let y = k::conv2d(
        input,
        weight,
        e.x.get(2).copied(),
        &strides,
        &pads,
        &dilations,
        group,
    )
    .map_err(kerr)?;
    Ok(vec![from_nchw(y, last)?])
}

/// Whether a window op's `layout` is `"nhwc"`.
fn channels_last(layout: &str) -> Result<bool, String> {
    match layout {
        "nchw" => Ok(false),
        "nhwc" => Ok(true),
        other => Err(format!("has an unknown layout \"{other}\"")),
    }
}

/// A 4-D operand in NCHW order (moved from NHWC when `last`; a weight's
/// `[M, kH, kW, C]` moves to `[M, C, kH, kW]` the same way).
fn to_nchw(x: &Tensor, last: bool) -> Result<Cow<'_, Tensor>, String> {
    if !last {
        return Ok(Cow::Borrowed(x));
    }
    Ok(Cow::Owned(k::transpose(x, &[0, 3, 1, 2]).map_err(kerr)?))
}

/// An NCHW result in the op's layout (moved to NHWC when `last`).
fn from_nchw(y: Tensor, last: bool) -> Result<Tensor, String> {
    if !last {
        return Ok(y);
    }
    k::transpose(&y, &[0, 2, 3, 1]).map_err(kerr)
}

/// `graph.conv_transpose2d`.
pub(super) fn eval_conv_transpose2d(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, conv) = (e.ctx, g::ConvTranspose2dOp(e.op));
    let params = k::ConvTransposeParams {
        strides: usizes(&conv.strides(ctx), "strides")?,
        pads: usizes(&conv.pads(ctx), "pads")?,
        dilations: usizes(&conv.dilations(ctx), "dilations")?,
        group: usize::try_from(conv.group(ctx)).map_err(|_| "group must be positive")?,
        output_padding: usizes(&conv.output_padding(ctx), "output_padding")?,
        output_shape: match conv.output_shape(ctx) {
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
    let (ctx, pool) = (e.ctx, g::MaxPool2dOp(e.op));
    if ctx.results(e.op).count() == 2 {
        return eval_max_pool2d_with_indices(e);
    }
    let last = channels_last(&pool.layout(ctx))?;
    let y = k::max_pool2d(
        &*to_nchw(e.arg(0)?, last)?,
        &usizes(&pool.kernel_shape(ctx).unwrap_or_default(), "kernel_shape")?,
        &usizes(&pool.strides(ctx), "strides")?,
        &usizes(&pool.pads(ctx), "pads")?,
        &usizes(&pool.dilations(ctx), "dilations")?,
        pool.ceil_mode(ctx),
    )
    .map_err(kerr)?;
    Ok(vec![from_nchw(y, last)?])
}

/// `graph.max_pool2d` with its `indices` result.
fn eval_max_pool2d_with_indices(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, pool) = (e.ctx, g::MaxPool2dOp(e.op));
    let (values, indices) = k::max_pool2d_with_indices(
        e.arg(0)?,
        &usizes(&pool.kernel_shape(ctx).unwrap_or_default(), "kernel_shape")?,
        &usizes(&pool.strides(ctx), "strides")?,
        &usizes(&pool.pads(ctx), "pads")?,
        &usizes(&pool.dilations(ctx), "dilations")?,
        pool.ceil_mode(ctx),
    )
    .map_err(kerr)?;
    if pool.storage_order(ctx) == 1 {
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
    let (ctx, pool) = (e.ctx, g::AvgPool2dOp(e.op));
    let last = channels_last(&pool.layout(ctx))?;
    let y = k::avg_pool2d(
        &*to_nchw(e.arg(0)?, last)?,
        &usizes(&pool.kernel_shape(ctx).unwrap_or_default(), "kernel_shape")?,
        &usizes(&pool.strides(ctx), "strides")?,
        &usizes(&pool.pads(ctx), "pads")?,
        &usizes(&pool.dilations(ctx), "dilations")?,
        pool.ceil_mode(ctx),
        pool.count_include_pad(ctx),
    )
    .map_err(kerr)?;
    Ok(vec![from_nchw(y, last)?])
}

/// `graph.col2im`.
pub(super) fn eval_col2im(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let op = g::Col2ImOp(e.op);
    let sizes = |t: &Tensor, what: &str| -> Result<Vec<usize>, String> {
        t.to_i64_vec()
            .into_iter()
            .map(|v| usize::try_from(v).map_err(|_| format!("{what} has a negative entry {v}")))
            .collect()
    };
    let image = sizes(e.arg(1)?, "image_shape")?;
    let block = sizes(e.arg(2)?, "block_shape")?;
    let d = image.len();
    let attr = |v: Option<Vec<i64>>,
                default: Vec<usize>,
                what: &str|
     -> Result<Vec<usize>, String> {
        match v {
            None => Ok(default),
            Some(v) => v
                .into_iter()
                .map(|x| usize::try_from(x).map_err(|_| format!("{what} has a negative entry {x}")))
                .collect(),
        }
    };
    let dilations = attr(op.dilations(e.ctx), vec![1; d], "dilations")?;
    let pads = attr(op.pads(e.ctx), vec![0; 2 * d], "pads")?;
    let strides = attr(op.strides(e.ctx), vec![1; d], "strides")?;
    Ok(vec![k::col2im(
        e.arg(0)?,
        &image,
        &block,
        &dilations,
        &pads,
        &strides,
    )
    .map_err(kerr)?])
}

/// `graph.log_softmax`.
pub(super) fn eval_log_softmax(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    Ok(vec![k::log_softmax(
        e.arg(0)?,
        g::LogSoftmaxOp(e.op).axis(e.ctx),
    )
    .map_err(kerr)?])
}

/// `graph.layer_norm`.
pub(super) fn eval_layer_norm(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, norm) = (e.ctx, g::LayerNormOp(e.op));
    Ok(vec![k::layer_norm(
        e.arg(0)?,
        e.arg(1)?,
        e.x.get(2).copied(),
        norm.axis(ctx),
        norm.epsilon(ctx),
    )
    .map_err(kerr)?])
}

/// `graph.rms_norm`.
pub(super) fn eval_rms_norm(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, norm) = (e.ctx, g::RmsNormOp(e.op));
    Ok(vec![k::rms_norm(
        e.arg(0)?,
        e.arg(1)?,
        norm.axis(ctx),
        norm.epsilon(ctx),
    )
    .map_err(kerr)?])
}

/// `graph.batch_norm`.
pub(super) fn eval_batch_norm(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    Ok(vec![k::batch_norm(
        e.arg(0)?,
        e.arg(1)?,
        e.arg(2)?,
        e.arg(3)?,
        e.arg(4)?,
        g::BatchNormOp(e.op).epsilon(e.ctx),
    )
    .map_err(kerr)?])
}

/// `graph.resize`.
pub(super) fn eval_resize(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, g::ResizeOp(e.op));
    let mut p = k::ResizeParams::of_op(ctx, op);
    p.max_bytes = e.limits.max_bytes;
    let axes = op.axes(ctx).unwrap_or_default();
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

/// `graph.image_decode`.
pub(super) fn eval_image_decode(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let format = match g::ImageDecodeOp(e.op).pixel_format(e.ctx).as_deref() {
        None | Some("RGB") => k::PixelFormat::Rgb,
        Some("BGR") => k::PixelFormat::Bgr,
        Some("Grayscale") => k::PixelFormat::Grayscale,
        Some(other) => return Err(format!("has pixel_format \"{other}\"")),
    };
    Ok(vec![k::image_decode(e.arg(0)?, format).map_err(kerr)?])
}

/// `graph.dft`.
pub(super) fn eval_dft(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, g::DftOp(e.op));
    let length = e.opt(1).and_then(|t| t.to_i64_vec().first().copied());
    let axis = match e.opt(2) {
        Some(t) => t.to_i64_vec().first().copied().ok_or("axis is empty")?,
        None => op.axis(ctx),
    };
    Ok(vec![k::dft(
        e.arg(0)?,
        axis,
        length,
        op.inverse(ctx),
        op.onesided(ctx),
    )
    .map_err(kerr)?])
}

/// `graph.non_max_suppression`.
pub(super) fn eval_non_max_suppression(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
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
        g::NonMaxSuppressionOp(e.op).center_point_box(e.ctx),
    )
    .map_err(kerr)?])
}

/// `graph.grid_sample`.
pub(super) fn eval_grid_sample(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, g::GridSampleOp(e.op));
    let mode = match op.mode(ctx).as_str() {
        "nearest" => k::GridMode::Nearest,
        "cubic" => k::GridMode::Cubic,
        _ => k::GridMode::Linear,
    };
    let padding = match op.padding_mode(ctx).as_str() {
        "border" => k::GridPadding::Border,
        "reflection" => k::GridPadding::Reflection,
        _ => k::GridPadding::Zeros,
    };
    let align = op.align_corners(ctx);
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
    let (ctx, op) = (e.ctx, g::TopKOp(e.op));
    let count = match e.arg(1)?.to_i64_vec().as_slice() {
        &[n] => n,
        _ => return Err("k must hold one element".into()),
    };
    let (values, indices) =
        k::top_k(e.arg(0)?, count, op.axis(ctx), op.largest(ctx)).map_err(kerr)?;
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
    let seed = g::DropoutOp(op).seed(ctx) as u64;
    let (values, mask) = k::dropout(e.arg(0)?, ratio, seed).map_err(kerr)?;
    if ctx.results(op).count() == 2 {
        return Ok(vec![values, mask]);
    }
    Ok(vec![values])
}

/// `graph.deform_conv2d`.
pub(super) fn eval_deform_conv2d(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, g::DeformConv2dOp(e.op));
    let pair = |v: Vec<i64>, what: &str| -> Result<[usize; 2], String> {
        match usizes(&v, what)?[..] {
            [a, b] if a > 0 && b > 0 => Ok([a, b]),
            _ => Err(format!("{what} must hold 2 positive values")),
        }
    };
    let strides = pair(op.strides(ctx), "strides")?;
    let dilations = pair(op.dilations(ctx), "dilations")?;
    let pads: [usize; 4] = usizes(&op.pads(ctx), "pads")?
        .try_into()
        .map_err(|_| "pads must hold 4 values")?;
    let group = usize::try_from(op.group(ctx)).map_err(|_| "group must be positive")?;
    let offset_group =
        usize::try_from(op.offset_group(ctx)).map_err(|_| "offset_group must be positive")?;
    let (x, w) = (e.arg(0)?, e.arg(1)?);
    if let (&[n, _, _, _], &[m, ..], &[.., oh, ow]) = (x.shape(), w.shape(), e.arg(2)?.shape()) {
        check_size(&[n, m, oh, ow], DType::F64, e.limits.max_bytes)?;
    }
    let args = k::DeformConv {
        input: x,
        weight: w,
        offset: e.arg(2)?,
        bias: e.opt(3),
        mask: e.opt(4),
        strides,
        pads,
        dilations,
        group,
        offset_group,
    };
    Ok(vec![k::deform_conv2d(&args).map_err(kerr)?])
}

/// `graph.random_uniform_like`.
pub(super) fn eval_random_uniform_like(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, g::RandomUniformLikeOp(e.op));
    let shape = e.arg(0)?.shape().to_vec();
    let dtype = e.result_dtype(0)?;
    let (low, high, seed) = (op.low(ctx), op.high(ctx), op.seed(ctx) as u64);
    Ok(vec![
        k::random_uniform(dtype, &shape, low, high, seed).map_err(kerr)?
    ])
}

/// `graph.attention`.
pub(super) fn eval_attention(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, g::AttentionOp(e.op));
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
        op.scale(ctx),
        op.is_causal(ctx),
    )
    .map_err(kerr)?])
}

/// `graph.argmax`, or `graph.argmin` when not `max`.
pub(super) fn eval_arg_reduce(e: &GraphArgs<'_>, max: bool) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let (f, axis, keepdims, select_last_index): (fn(_, _, _, _) -> _, _, _, _) = if max {
        let op = g::ArgMaxOp(op);
        (
            k::argmax,
            op.axis(ctx),
            op.keepdims(ctx),
            op.select_last_index(ctx),
        )
    } else {
        let op = g::ArgMinOp(op);
        (
            k::argmin,
            op.axis(ctx),
            op.keepdims(ctx),
            op.select_last_index(ctx),
        )
    };
    Ok(vec![
        f(e.arg(0)?, axis, keepdims, select_last_index).map_err(kerr)?
    ])
}

/// `graph.roi_align`.
pub(super) fn eval_roi_align(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, g::RoiAlignOp(e.op));
    let size = |v: i64, what: &str| {
        usize::try_from(v)
            .ok()
            .filter(|&v| v >= 1)
            .ok_or_else(|| format!("{what} must be at least 1, but is {v}"))
    };
    let params = k::RoiAlign {
        output: (
            size(op.output_height(ctx), "output_height")?,
            size(op.output_width(ctx), "output_width")?,
        ),
        sampling_ratio: usize::try_from(op.sampling_ratio(ctx))
            .map_err(|_| "sampling_ratio must not be negative")?,
        spatial_scale: op.spatial_scale(ctx),
        half_pixel: op.half_pixel(ctx),
        max: op.mode(ctx) == "max",
    };
    let (x, rois) = (e.arg(0)?, e.arg(1)?);
    let mut shape = vec![rois.shape().first().copied().unwrap_or(0)];
    shape.extend([x.shape().get(1).copied().unwrap_or(0)]);
    shape.extend([params.output.0, params.output.1]);
    // The kernel computes in f64.
    check_size(&shape, DType::F64, e.limits.max_bytes)?;
    Ok(vec![k::roi_align(x, rois, e.arg(2)?, params).map_err(kerr)?])
}
