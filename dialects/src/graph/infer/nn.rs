//! Shape functions of the neural-network ops: `matmul`, `gemm`,
//! convolutions and pools (with their window arithmetic), softmax,
//! normalizations, `dropout` and `attention`.

use strata_ir::{Context, Operation};

use super::{
    attr_bool, attr_i64, attr_i64_array, attr_str, is_scalar, norm_axis, operand, same_elem, ty,
    Inferred, OperandInfo, ResultElem,
};
use crate::graph::shape::{broadcast, Dim, Shape};

pub(in crate::graph) fn infer_matmul(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (a, b) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, a, b)?;
    let (Some(x), Some(y)) = (a.shape.dims(), b.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(a.elem))]);
    };
    if x.is_empty() || y.is_empty() {
        return Err("operands must have rank 1 or more".into());
    }
    let x: Vec<Dim> = if x.len() == 1 {
        vec![Dim::Known(1), x[0].clone()]
    } else {
        x.to_vec()
    };
    let y: Vec<Dim> = if y.len() == 1 {
        vec![y[0].clone(), Dim::Known(1)]
    } else {
        y.to_vec()
    };
    let (m, k1) = (&x[x.len() - 2], &x[x.len() - 1]);
    let (k2, n) = (&y[y.len() - 2], &y[y.len() - 1]);
    if k1.provably_ne(k2) {
        return Err(format!(
            "contraction dimensions differ: {} vs {} (shapes {} and {})",
            k1, k2, a.shape, b.shape
        ));
    }
    let batch = broadcast(
        &Shape::ranked(x[..x.len() - 2].to_vec()),
        &Shape::ranked(y[..y.len() - 2].to_vec()),
    )
    .map_err(|e| format!("batch dimensions: {e}"))?;
    let mut dims = batch.dims().map(<[Dim]>::to_vec).unwrap_or_default();
    if a.shape.rank() != Some(1) {
        dims.push(m.clone());
    }
    if b.shape.rank() != Some(1) {
        dims.push(n.clone());
    }
    Ok(vec![(Shape::ranked(dims), ResultElem::Of(a.elem))])
}

pub(in crate::graph) fn infer_gemm(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (a, b) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, a, b)?;
    let (Some(x), Some(y)) = (a.shape.dims(), b.shape.dims()) else {
        return Ok(vec![(
            Shape::ranked(vec![Dim::Unknown; 2]),
            ResultElem::Of(a.elem),
        )]);
    };
    if x.len() != 2 || y.len() != 2 {
        return Err(format!(
            "operands 'a' and 'b' must be 2-D, but have shapes {} and {}",
            a.shape, b.shape
        ));
    }
    let (m, k1) = if attr_bool(ctx, op, "transA") {
        (&x[1], &x[0])
    } else {
        (&x[0], &x[1])
    };
    let (k2, n) = if attr_bool(ctx, op, "transB") {
        (&y[1], &y[0])
    } else {
        (&y[0], &y[1])
    };
    if k1.provably_ne(k2) {
        return Err(format!(
            "contraction dimensions differ: {k1} vs {k2} (shapes {} and {})",
            a.shape, b.shape
        ));
    }
    let out = Shape::ranked(vec![m.clone(), n.clone()]);
    if let Some(c) = ops.get(2) {
        same_elem(ctx, a, c)?;
        let b = broadcast(&out, &c.shape)
            .map_err(|e| format!("'c' does not broadcast to the result: {e}"))?;
        if b.rank() != Some(2) && b.rank().is_some() {
            return Err(format!(
                "'c' of shape {} does not broadcast to {out}",
                c.shape
            ));
        }
    }
    Ok(vec![(out, ResultElem::Of(a.elem))])
}

/// The output size of a sliding window over `input` (ONNX's formula,
/// computed without overflow).
fn window_out(
    input: &Dim,
    k: i64,
    s: i64,
    pads: (i64, i64),
    d: i64,
    ceil: bool,
) -> Result<Dim, String> {
    if k < 1 || s < 1 || d < 1 {
        return Err("kernel sizes, strides and dilations must be positive".into());
    }
    let Dim::Known(n) = input else {
        return Ok(Dim::Unknown);
    };
    let (n, k, s, d) = (i128::from(*n), i128::from(k), i128::from(s), i128::from(d));
    let (begin, end) = (i128::from(pads.0), i128::from(pads.1));
    let span = d * (k - 1) + 1;
    let padded = n + begin + end;
    if padded < span {
        return Err(format!(
            "window of size {span} does not fit the padded input of size {padded}"
        ));
    }
    let num = padded - span;
    let mut out = if ceil {
        (num + s - 1) / s + 1
    } else {
        num / s + 1
    };
    // As ONNX: the last window must start inside the input or the begin
    // padding.
    if ceil && (out - 1) * s >= n + begin {
        out -= 1;
    }
    i64::try_from(out)
        .map(Dim::Known)
        .map_err(|_| format!("output size {out} is too large"))
}

/// Strides, pads and dilations of a window op.
type WindowAttrs = (Vec<i64>, Vec<i64>, Vec<i64>);

/// `graph.col2im`: `[N, C * prod(block), L]` -> `[N, C, *image_shape]`,
/// the sizes known where `image_shape` and `block_shape` are.
pub(in crate::graph) fn infer_col2im(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, image, block) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    for (name, v) in [("image_shape", image), ("block_shape", block)] {
        if v.shape.rank().is_some_and(|r| r != 1) {
            return Err(format!("{name} must be 1-D, but has shape {}", v.shape));
        }
    }
    let rank_of = |v: &OperandInfo| match (&v.value, v.shape.dims()) {
        (Some(values), _) => Some(values.len()),
        (None, Some([Dim::Known(n)])) => Some(*n as usize),
        _ => None,
    };
    let d = match (rank_of(image), rank_of(block)) {
        (Some(a), Some(b)) if a != b => {
            return Err(format!(
                "image_shape has {a} entries but block_shape has {b}"
            ))
        }
        (a, b) => a.or(b),
    };
    if let Some(d) = d {
        if d == 0 {
            return Err("image_shape and block_shape must have at least one entry".into());
        }
        for (name, want) in [("dilations", d), ("strides", d), ("pads", 2 * d)] {
            if let Some(v) = attr_i64_array(ctx, op, name) {
                if v.len() != want {
                    return Err(format!(
                        "{name} must have {want} entries, but has {}",
                        v.len()
                    ));
                }
            }
        }
    }
    if let Some(v) = &block.value {
        if v.iter().any(|&k| k < 1) {
            return Err(format!("block_shape must be positive, but is {v:?}"));
        }
    }
    if let Some(v) = &image.value {
        if v.iter().any(|&s| s < 0) {
            return Err(format!("image_shape has a negative size: {v:?}"));
        }
    }
    for name in ["dilations", "strides"] {
        if let Some(v) = attr_i64_array(ctx, op, name) {
            if v.iter().any(|&x| x < 1) {
                return Err(format!("{name} must be positive, but is {v:?}"));
            }
        }
    }
    if let Some(v) = attr_i64_array(ctx, op, "pads") {
        if v.iter().any(|&x| x < 0) {
            return Err(format!("pads must not be negative, but is {v:?}"));
        }
    }
    if let Some(dims) = x.shape.dims() {
        if dims.len() != 3 {
            return Err(format!(
                "input must be 3-D ([N, C * prod(block_shape), L]), but has shape {}",
                x.shape
            ));
        }
    }
    let Some(d) = d else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(x.elem))]);
    };
    let (n, c) = match x.shape.dims() {
        Some(dims) => {
            let c = match (&dims[1], &block.value) {
                (Dim::Known(cols), Some(b)) => {
                    let k = b
                        .iter()
                        .try_fold(1i64, |a, &x| a.checked_mul(x))
                        .ok_or_else(|| format!("block_shape {b:?} has too many elements"))?;
                    if cols % k != 0 {
                        return Err(format!(
                            "input's dimension 1 ({cols}) must be a multiple of the block's size ({k})"
                        ));
                    }
                    Dim::Known(cols / k)
                }
                _ => Dim::Unknown,
            };
            (dims[0].clone(), c)
        }
        None => (Dim::Unknown, Dim::Unknown),
    };
    let mut out = vec![n, c];
    match &image.value {
        Some(v) => out.extend(v.iter().map(|&s| Dim::Known(s))),
        None => out.extend(std::iter::repeat_n(Dim::Unknown, d)),
    }
    Ok(vec![(Shape::ranked(out), ResultElem::Of(x.elem))])
}

fn window_attrs(ctx: &Context, op: Operation, kernel: &[i64]) -> Result<WindowAttrs, String> {
    let strides = attr_i64_array(ctx, op, "strides").unwrap_or_else(|| vec![1, 1]);
    let pads = attr_i64_array(ctx, op, "pads").unwrap_or_else(|| vec![0; 4]);
    let dilations = attr_i64_array(ctx, op, "dilations").unwrap_or_else(|| vec![1, 1]);
    if kernel.len() != 2 || strides.len() != 2 || dilations.len() != 2 || pads.len() != 4 {
        return Err("expects 2 kernel sizes, 2 strides, 2 dilations and 4 pads".into());
    }
    if pads.iter().any(|&p| p < 0) {
        return Err("pads must not be negative".into());
    }
    Ok((strides, pads, dilations))
}

fn spatial(
    input: &[Dim],
    kernel: &[i64],
    strides: &[i64],
    pads: &[i64],
    dilations: &[i64],
    ceil: bool,
) -> Result<Vec<Dim>, String> {
    (0..2)
        .map(|i| {
            window_out(
                &input[2 + i],
                kernel[i],
                strides[i],
                (pads[i], pads[i + 2]),
                dilations[i],
                ceil,
            )
        })
        .collect()
}

/// The kernel sizes of a convolution weight `[_, _, kH, kW]`, which must be
/// static.
fn static_kernel(wd: &[Dim]) -> Result<Vec<i64>, String> {
    wd[2..]
        .iter()
        .map(|d| {
            d.known()
                .ok_or_else(|| "the weight's kernel dimensions must be static".to_string())
        })
        .collect()
}

/// The channels of an NCHW convolution's input `xd` and weight `wd` (`[M,
/// C / group, ...]`) against its `group` (positive): the input's are the
/// weight's times the groups, the output's divide into them.
fn check_groups(xd: &[Dim], wd: &[Dim], group: i64) -> Result<(), String> {
    if let (Dim::Known(c), Dim::Known(wc)) = (&xd[1], &wd[1]) {
        if i128::from(*c) != i128::from(*wc) * i128::from(group) {
            return Err(format!(
                "input has {c} channels but the weight expects {wc} x {group} groups"
            ));
        }
    }
    if let Dim::Known(m) = &wd[0] {
        if m % group != 0 {
            return Err(format!(
                "{m} output channels are not divisible into {group} groups"
            ));
        }
    }
    Ok(())
}

pub(in crate::graph) fn infer_conv2d(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, w) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, x, w)?;
    let (Some(xd), Some(wd)) = (x.shape.dims(), w.shape.dims()) else {
        return Ok(vec![(
            Shape::ranked(vec![Dim::Unknown; 4]),
            ResultElem::Of(x.elem),
        )]);
    };
    let last = channels_last(ctx, op)?;
    if xd.len() != 4 || wd.len() != 4 {
        let layouts = if last { "NHWC, MkHkWC" } else { "NCHW, MCkHkW" };
        return Err(format!(
            "input and weight must be 4-D ({layouts}), but have shapes {} and {}",
            x.shape, w.shape
        ));
    }
    let (xd, wd) = (&to_nchw(xd, last)[..], &to_nchw(wd, last)[..]);
    let group = attr_i64(ctx, op, "group").unwrap_or(1);
    if group < 1 {
        return Err(format!("group must be positive, but is {group}"));
    }
    check_groups(xd, wd, group)?;
    let kernel = static_kernel(wd)?;
    let (strides, pads, dilations) = window_attrs(ctx, op, &kernel)?;
    if let Some(bias) = ops.get(2) {
        same_elem(ctx, x, bias)?;
        if bias.shape.rank().is_some_and(|r| r != 1) {
            return Err(format!("bias must be 1-D, but has shape {}", bias.shape));
        }
    }
    let mut dims = vec![xd[0].clone(), wd[0].clone()];
    dims.extend(spatial(xd, &kernel, &strides, &pads, &dilations, false)?);
    Ok(vec![(
        Shape::ranked(from_nchw(&dims, last)),
        ResultElem::Of(x.elem),
    )])
}

/// `[N, M, OH, OW]` for `graph.deform_conv2d`, after checking the
/// channels against the groups and the offset's and mask's shapes.
pub(in crate::graph) fn infer_deform_conv2d(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, w, off) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, x, w)?;
    same_elem(ctx, x, off)?;
    let (Some(xd), Some(wd)) = (x.shape.dims(), w.shape.dims()) else {
        return Ok(vec![(
            Shape::ranked(vec![Dim::Unknown; 4]),
            ResultElem::Of(x.elem),
        )]);
    };
    if xd.len() != 4 || wd.len() != 4 {
        return Err(format!(
            "input and weight must be 4-D (NCHW, MCkHkW), but have shapes {} and {}",
            x.shape, w.shape
        ));
    }
    let group = attr_i64(ctx, op, "group").unwrap_or(1);
    let offset_group = attr_i64(ctx, op, "offset_group").unwrap_or(1);
    if group < 1 || offset_group < 1 {
        return Err(format!(
            "group and offset_group must be positive, but are {group} and {offset_group}"
        ));
    }
    check_groups(xd, wd, group)?;
    if let Dim::Known(c) = &xd[1] {
        if c % offset_group != 0 {
            return Err(format!(
                "{c} input channels are not divisible into {offset_group} offset groups"
            ));
        }
    }
    let kernel = static_kernel(wd)?;
    let (strides, pads, dilations) = window_attrs(ctx, op, &kernel)?;
    let mut dims = vec![xd[0].clone(), wd[0].clone()];
    dims.extend(spatial(xd, &kernel, &strides, &pads, &dilations, false)?);
    let taps = i128::from(kernel[0]) * i128::from(kernel[1]) * i128::from(offset_group);
    // The offsets and the mask: one map of the output's size per tap (two
    // for the offsets).
    let check = |name: &str, info: &OperandInfo, per: i128| -> Result<(), String> {
        let Some(d) = info.shape.dims() else {
            return Ok(());
        };
        let channels = i64::try_from(taps * per).map_err(|_| "too many kernel taps".to_string())?;
        let want = [
            dims[0].clone(),
            Dim::Known(channels),
            dims[2].clone(),
            dims[3].clone(),
        ];
        if d.len() != 4 || d.iter().zip(&want).any(|(a, b)| a.provably_ne(b)) {
            return Err(format!(
                "{name} has shape {}, but must be {}",
                info.shape,
                Shape::ranked(want.to_vec())
            ));
        }
        Ok(())
    };
    check("offset", off, 2)?;
    let segments = super::operand_segments(ctx, op);
    let present = |g: usize| {
        segments
            .as_ref()
            .is_some_and(|s| s.get(g).copied().unwrap_or(0) > 0)
    };
    let mut next = 3;
    if present(3) {
        let b = operand(ops, next)?;
        same_elem(ctx, x, b)?;
        if b.shape.rank().is_some_and(|r| r != 1) {
            return Err(format!("bias must be 1-D, but has shape {}", b.shape));
        }
        next += 1;
    }
    if present(4) {
        let m = operand(ops, next)?;
        same_elem(ctx, x, m)?;
        check("mask", m, 1)?;
    }
    Ok(vec![(Shape::ranked(dims), ResultElem::Of(x.elem))])
}

/// Whether a convolution's or pool's `layout` is `"nhwc"` (channels last);
/// `"nchw"` when absent.
fn channels_last(ctx: &Context, op: Operation) -> Result<bool, String> {
    match attr_str(ctx, op, "layout").as_deref() {
        None | Some("nchw") => Ok(false),
        Some("nhwc") => Ok(true),
        Some(other) => Err(format!(
            "layout must be \"nchw\" or \"nhwc\", but is \"{other}\""
        )),
    }
}

/// 4-D `dims` in NCHW order: moved from NHWC when `last`.
fn to_nchw(dims: &[Dim], last: bool) -> Vec<Dim> {
    if last {
        [0, 3, 1, 2].iter().map(|&i| dims[i].clone()).collect()
    } else {
        dims.to_vec()
    }
}

/// 4-D NCHW `dims` in the op's layout: moved to NHWC when `last`.
fn from_nchw(dims: &[Dim], last: bool) -> Vec<Dim> {
    if last {
        [0, 2, 3, 1].iter().map(|&i| dims[i].clone()).collect()
    } else {
        dims.to_vec()
    }
}

pub(in crate::graph) fn infer_conv_transpose2d(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, w) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, x, w)?;
    if let Some(bias) = ops.get(2) {
        same_elem(ctx, x, bias)?;
        if bias.shape.rank().is_some_and(|r| r != 1) {
            return Err(format!("bias must be 1-D, but has shape {}", bias.shape));
        }
    }
    let elem = ResultElem::Of(x.elem);
    let (Some(xd), Some(wd)) = (x.shape.dims(), w.shape.dims()) else {
        return Ok(vec![(Shape::ranked(vec![Dim::Unknown; 4]), elem)]);
    };
    if xd.len() != 4 || wd.len() != 4 {
        return Err(format!(
            "input and weight must be 4-D (NCHW, CMkHkW), but have shapes {} and {}",
            x.shape, w.shape
        ));
    }
    let group = attr_i64(ctx, op, "group").unwrap_or(1);
    if group < 1 {
        return Err(format!("group must be positive, but is {group}"));
    }
    if xd[1].provably_ne(&wd[0]) {
        return Err(format!(
            "input has {} channels but the weight has {}",
            xd[1], wd[0]
        ));
    }
    if let Dim::Known(c) = &xd[1] {
        if c % group != 0 {
            return Err(format!(
                "{c} input channels are not divisible into {group} groups"
            ));
        }
    }
    let kernel = static_kernel(wd)?;
    let (strides, pads, dilations) = window_attrs(ctx, op, &kernel)?;
    if kernel.iter().any(|&k| k < 1) {
        return Err(format!("the kernel {kernel:?} must not be empty"));
    }
    if strides.iter().chain(&dilations).any(|&v| v < 1) {
        return Err("strides and dilations must be positive".into());
    }
    let output_padding = attr_i64_array(ctx, op, "output_padding").unwrap_or_else(|| vec![0, 0]);
    if output_padding.len() != 2 || output_padding.iter().any(|&p| p < 0) {
        return Err(format!(
            "output_padding must have 2 entries that are not negative, not {output_padding:?}"
        ));
    }
    let channels = wd[1].mul(&Dim::Known(group));
    if let Some([b]) = ops.get(2).and_then(|b| b.shape.dims()) {
        if b.provably_ne(&channels) {
            return Err(format!(
                "bias has {b} elements for {channels} output channels"
            ));
        }
    }
    let mut dims = vec![xd[0].clone(), channels];
    match attr_i64_array(ctx, op, "output_shape") {
        Some(shape) => {
            if shape.len() != 2 || shape.iter().any(|&d| d < 0) {
                return Err(format!(
                    "output_shape must have 2 sizes that are not negative, not {shape:?}"
                ));
            }
            dims.extend(shape.iter().map(|&d| Dim::Known(d)));
        }
        None => {
            for i in 0..2 {
                // stride * in + c, with c the constant part.
                let (s, k, d) = (
                    i128::from(strides[i]),
                    i128::from(kernel[i]),
                    i128::from(dilations[i]),
                );
                let c = i128::from(output_padding[i]) + (k - 1) * d + 1
                    - s
                    - i128::from(pads[i])
                    - i128::from(pads[i + 2]);
                dims.push(match &xd[2 + i] {
                    Dim::Known(n) => {
                        let out = s * i128::from(*n) + c;
                        if out < 0 {
                            return Err(format!(
                                "padding leaves spatial dimension {i} with size {out}"
                            ));
                        }
                        Dim::Known(i64::try_from(out).map_err(|_| "output too large")?)
                    }
                    sym if c == 0 => sym.mul(&Dim::Known(strides[i])),
                    _ => Dim::Unknown,
                });
            }
        }
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(in crate::graph) fn infer_pool(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let Some(xd) = x.shape.dims() else {
        let unknown = Shape::ranked(vec![Dim::Unknown; 4]);
        let mut out = vec![(unknown.clone(), ResultElem::Of(x.elem))];
        if ctx.results(op).count() == 2 {
            out.push((unknown, ResultElem::I64));
        }
        return Ok(out);
    };
    let last = channels_last(ctx, op)?;
    if xd.len() != 4 {
        let layout = if last { "NHWC" } else { "NCHW" };
        return Err(format!(
            "input must be 4-D ({layout}), but has shape {}",
            x.shape
        ));
    }
    if last && ctx.results(op).count() == 2 {
        return Err("an indices result needs the \"nchw\" layout".into());
    }
    let xd = &to_nchw(xd, last)[..];
    let kernel = attr_i64_array(ctx, op, "kernel_shape").ok_or("requires 'kernel_shape'")?;
    let (strides, pads, dilations) = window_attrs(ctx, op, &kernel)?;
    if (0..2).any(|i| pads[i] >= kernel[i] || pads[i + 2] >= kernel[i]) {
        return Err("pads must be smaller than the kernel".into());
    }
    let mut dims = vec![xd[0].clone(), xd[1].clone()];
    dims.extend(spatial(
        xd,
        &kernel,
        &strides,
        &pads,
        &dilations,
        attr_bool(ctx, op, "ceil_mode"),
    )?);
    let dims = from_nchw(&dims, last);
    let mut out = vec![(Shape::ranked(dims.clone()), ResultElem::Of(x.elem))];
    // max_pool2d's optional indices.
    if ctx.results(op).count() == 2 {
        out.push((Shape::ranked(dims), ResultElem::I64));
    }
    Ok(out)
}

pub(in crate::graph) fn infer_global_pool(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(x.elem))]);
    };
    if xd.len() < 3 {
        return Err(format!(
            "input must have rank 3 or more, but has shape {}",
            x.shape
        ));
    }
    let mut dims = xd[..2].to_vec();
    dims.resize(xd.len(), Dim::Known(1));
    Ok(vec![(Shape::ranked(dims), ResultElem::Of(x.elem))])
}

pub(in crate::graph) fn infer_axis_same(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    if let Some(rank) = x.shape.rank() {
        let axis = attr_i64(ctx, op, "axis").unwrap_or(-1);
        if rank == 0 {
            return Err("input must have rank 1 or more".into());
        }
        norm_axis(axis, rank, "axis")?;
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

pub(in crate::graph) fn infer_norm(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let r = infer_axis_same(ctx, op, ops)?;
    let x = operand(ops, 0)?;
    for p in &ops[1..] {
        same_elem(ctx, x, p)?;
    }
    Ok(r)
}

pub(in crate::graph) fn infer_batch_norm(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    if x.shape.rank().is_some_and(|r| r < 2) {
        return Err(format!(
            "input must have rank 2 or more, but has shape {}",
            x.shape
        ));
    }
    let channels = x.shape.dims().map(|d| d[1].clone());
    for p in &ops[1..] {
        same_elem(ctx, x, p)?;
        match (p.shape.dims(), &channels) {
            (Some([d]), Some(c)) if d.provably_ne(c) => {
                return Err(format!(
                    "parameters must have {c} elements, but one has {d}"
                ))
            }
            (Some(d), _) if d.len() != 1 => {
                return Err(format!(
                    "parameters must be 1-D, but one has shape {}",
                    p.shape
                ))
            }
            _ => {}
        }
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

pub(in crate::graph) fn infer_dropout(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, ratio) = (operand(ops, 0)?, operand(ops, 1)?);
    if !is_scalar(&ratio.shape) {
        return Err(format!(
            "ratio must be a scalar, but has shape {}",
            ratio.shape
        ));
    }
    if let Some(training) = ops.get(2) {
        if !is_scalar(&training.shape) {
            return Err(format!(
                "training must be a scalar, but has shape {}",
                training.shape
            ));
        }
    }
    let mut out = vec![(x.shape.clone(), ResultElem::Of(x.elem))];
    if ctx.results(op).count() == 2 {
        out.push((x.shape.clone(), ResultElem::I1));
    }
    Ok(out)
}

pub(in crate::graph) fn infer_attention(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (q, k, v) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, q, k)?;
    same_elem(ctx, q, v)?;
    let (Some(qd), Some(kd), Some(vd)) = (q.shape.dims(), k.shape.dims(), v.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(q.elem))]);
    };
    if qd.len() < 2 || kd.len() < 2 || vd.len() < 2 {
        return Err("q, k and v must have rank 2 or more".into());
    }
    let (l, e) = (&qd[qd.len() - 2], &qd[qd.len() - 1]);
    let (s, ek) = (&kd[kd.len() - 2], &kd[kd.len() - 1]);
    let (sv, ev) = (&vd[vd.len() - 2], &vd[vd.len() - 1]);
    if e.provably_ne(ek) {
        return Err(format!("q and k have different head sizes: {e} vs {ek}"));
    }
    if s.provably_ne(sv) {
        return Err(format!(
            "k and v have different sequence lengths: {s} vs {sv}"
        ));
    }
    // Grouped-query attention: 4-D operands whose key/value head count
    // divides the query head count share each key/value head.
    let grouped = qd.len() == 4
        && kd.len() == 4
        && vd.len() == 4
        && matches!((&qd[1], &kd[1], &vd[1]), (Dim::Known(h), Dim::Known(g), Dim::Known(gv))
            if g == gv && *g > 0 && h % g == 0 && h != g);
    let batch = if grouped {
        broadcast(
            &broadcast(
                &Shape::ranked(qd[..1].to_vec()),
                &Shape::ranked(kd[..1].to_vec()),
            )?,
            &Shape::ranked(vd[..1].to_vec()),
        )
        .map(|b| {
            let mut d = b.dims().map(<[Dim]>::to_vec).unwrap_or_default();
            d.push(qd[1].clone());
            Shape::ranked(d)
        })?
    } else {
        broadcast(
            &broadcast(
                &Shape::ranked(qd[..qd.len() - 2].to_vec()),
                &Shape::ranked(kd[..kd.len() - 2].to_vec()),
            )?,
            &Shape::ranked(vd[..vd.len() - 2].to_vec()),
        )?
    };
    let mut dims = batch.dims().map(<[Dim]>::to_vec).unwrap_or_default();
    dims.push(l.clone());
    dims.push(ev.clone());
    let out = Shape::ranked(dims);
    if let Some(m) = ops.get(3) {
        if !strata_ir::ods::constraints::is_i1(ctx, m.elem) && m.elem != q.elem {
            return Err(format!(
                "mask must be i1 or have q's element type {}, but has {}",
                ty(ctx, q.elem),
                ty(ctx, m.elem)
            ));
        }
        let scores = {
            let mut d = batch.dims().map(<[Dim]>::to_vec).unwrap_or_default();
            d.push(l.clone());
            d.push(s.clone());
            Shape::ranked(d)
        };
        broadcast(&scores, &m.shape).map_err(|e| format!("mask: {e}"))?;
    }
    Ok(vec![(out, ResultElem::Of(q.elem))])
}
