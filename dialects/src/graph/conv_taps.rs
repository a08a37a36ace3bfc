//! `graph.conv2d` canonicalization: kernel taps that read only padding.
//!
//! A tap `t` of a spatial axis reads input position `o * stride + t *
//! dilation - pad_begin` for output position `o`. When no output position
//! puts it inside the input, the tap multiplies zeros: a dilated 3x3
//! convolution on a feature map smaller than its dilation (the atrous
//! branches of DeepLab's ASPP on a 4x4 map, dilations 12 to 36) is a 1x1
//! convolution in disguise, and its im2col and product are nine times
//! larger than they need be. `DropDeadTaps` slices the weight to the live
//! taps (a contiguous range: dead taps sit at the ends) and moves the
//! padding so that every live tap reads the same position as before; the
//! output is unchanged. The slice of a constant weight folds at compile
//! time (`graph-fold-constants`).

use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Operation, Value};

use super::emit::Emitter;
use super::infer::{attr_i64, attr_i64_array, attr_str};
use super::shape::shape_of;

/// Canonicalization patterns of `graph.conv2d`.
pub(super) fn conv_patterns(patterns: &mut RewritePatternSet) {
    patterns.add(FnPattern::new(
        "graph.conv2d",
        "DropDeadTaps",
        drop_dead_taps,
    ));
}

/// The live taps `[first, last]` of one spatial axis and its new pads, or
/// `None` when every tap is live (or none is, or the pads would go
/// negative).
fn live_taps(
    len: i64,
    out: i64,
    k: i64,
    s: i64,
    d: i64,
    pads: [i64; 2],
) -> Option<(i64, i64, [i64; 2])> {
    let live = |t: i64| (0..out).any(|o| (0..len).contains(&(o * s + t * d - pads[0])));
    let first = (0..k).find(|&t| live(t))?;
    let last = (0..k).rev().find(|&t| live(t))?;
    if first == 0 && last == k - 1 {
        return None;
    }
    let new = [pads[0] - first * d, pads[1] - (k - 1 - last) * d];
    (new[0] >= 0 && new[1] >= 0).then_some((first, last, new))
}

fn drop_dead_taps(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let operands: Vec<Value> = ctx.operands(op).collect();
    let static_dims = |v: Value| -> Option<Vec<i64>> {
        let (shape, _) = shape_of(ctx, ctx.value_type(v))?;
        shape.dims()?.iter().map(|d| d.known()).collect()
    };
    let (Some(x), Some(w), Some(y)) = (
        static_dims(operands[0]),
        static_dims(operands[1]),
        static_dims(ctx.result(op, 0)),
    ) else {
        return false;
    };
    if x.len() != 4 || w.len() != 4 || y.len() != 4 {
        return false;
    }
    // Spatial axes of the input/result and of the weight.
    let (spatial, taps) = match attr_str(ctx, op, "layout").as_deref() {
        None | Some("nchw") => ([2, 3], [2, 3]),
        Some("nhwc") => ([1, 2], [1, 2]),
        Some(_) => return false,
    };
    let strides = attr_i64_array(ctx, op, "strides").unwrap_or_else(|| vec![1, 1]);
    let dilations = attr_i64_array(ctx, op, "dilations").unwrap_or_else(|| vec![1, 1]);
    let pads = attr_i64_array(ctx, op, "pads").unwrap_or_else(|| vec![0; 4]);
    if strides.len() != 2
        || dilations.len() != 2
        || pads.len() != 4
        || attr_i64(ctx, op, "group").is_none_or(|g| g < 1)
    {
        return false;
    }
    let mut new_pads = pads.clone();
    let mut cuts = Vec::new();
    for a in 0..2 {
        let Some((first, last, p)) = live_taps(
            x[spatial[a]],
            y[spatial[a]],
            w[taps[a]],
            strides[a],
            dilations[a],
            [pads[a], pads[a + 2]],
        ) else {
            continue;
        };
        new_pads[a] = p[0];
        new_pads[a + 2] = p[1];
        cuts.push((taps[a] as i64, first, last + 1));
    }
    if cuts.is_empty() {
        return false;
    }
    let ctx = rewriter.ctx_mut();
    let mut e = Emitter::before(ctx, op);
    let mut weight = operands[1];
    for (axis, start, end) in cuts {
        match e.take(weight, axis, start, end) {
            Ok(v) => weight = v,
            Err(_) => return false,
        }
    }
    let pads_attr = e.i64_array(&new_pads);
    rewriter.modify_op_in_place(op, |ctx| {
        ctx.set_operand(op, 1, weight);
        ctx.set_op_property(op, "pads", pads_attr);
    });
    true
}

#[cfg(test)]
mod tests {
    use super::live_taps;

    #[test]
    fn taps_that_read_only_padding_are_found() {
        // A 3x3 tap row, dilation 12, pads 12 on a 4-wide axis: only the
        // centre tap reads the input, with no padding left.
        assert_eq!(live_taps(4, 4, 3, 1, 12, [12, 12]), Some((1, 1, [0, 0])));
        // Dilation 2 on 4: every tap reads some input.
        assert_eq!(live_taps(4, 4, 3, 1, 2, [2, 2]), None);
        // Dilation 6, pads 6, a 7-wide axis: the outer taps still reach it.
        assert_eq!(live_taps(7, 7, 3, 1, 6, [6, 6]), None);
        // Dilation 6, pads 6, 4 wide: the centre only.
        assert_eq!(live_taps(4, 4, 3, 1, 6, [6, 6]), Some((1, 1, [0, 0])));
    }
}
