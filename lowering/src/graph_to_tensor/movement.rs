//! Slices, concatenation and constant padding as `tensor.map`.
//!
//! A map reads every input at every point of its domain, so concat and pad
//! read each input at an index wrapped into its bounds (`(d - offset) mod
//! size`, which the map verifier can bound) and the body picks the input
//! whose range holds the point (`tensor.index`), or the pad value.

use strata_dialects::graph as g;
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::{Context, Operation, Value};

use super::scalar::{cmpi, Scalar};
use super::structured::constant_ints;
use super::{element_of, map_values, shape, static_type, Plan};

fn ints(ctx: &Context, v: Option<Value>, what: &str) -> Result<Option<Vec<i64>>, String> {
    match v {
        None => Ok(None),
        Some(v) => constant_ints(ctx, v)
            .map(Some)
            .ok_or(format!("has {what} that are not a constant")),
    }
}

fn axis_index(a: i64, rank: usize) -> Result<usize, String> {
    let n = if a < 0 { a + rank as i64 } else { a };
    usize::try_from(n)
        .ok()
        .filter(|&n| n < rank)
        .ok_or(format!("has axis {a} out of range for rank {rank}"))
}

/// `d * step + start` (simplified where step is 1 or start 0).
fn strided(d: u32, step: i64, start: i64) -> AffineExpr {
    let mut e = AffineExpr::Dim(d);
    if step != 1 {
        e = AffineExpr::Mul(Box::new(e), Box::new(AffineExpr::Constant(step)));
    }
    if start != 0 {
        e = AffineExpr::Add(Box::new(e), Box::new(AffineExpr::Constant(start)));
    }
    e
}

/// `(d - offset) mod size`: `d` wrapped into `[0, size)` (just `d` when
/// no wrap is needed).
fn wrapped(d: u32, offset: i64, size: i64, extent: i64) -> AffineExpr {
    let shifted = strided(d, 1, -offset);
    if offset == 0 && size >= extent {
        return shifted;
    }
    AffineExpr::Mod(Box::new(shifted), Box::new(AffineExpr::Constant(size)))
}

pub(super) fn plan_slice(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let slice = g::SliceOp(op);
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let in_shape = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    let out_shape = shape(ctx, ty);
    let rank = in_shape.len();
    let starts = ints(ctx, Some(ctx.operand(op, 1)), "starts")?.unwrap_or_default();
    let ends = ints(ctx, Some(ctx.operand(op, 2)), "ends")?.unwrap_or_default();
    let axes =
        ints(ctx, slice.axes(ctx), "axes")?.unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = ints(ctx, slice.steps(ctx), "steps")?.unwrap_or_else(|| vec![1; starts.len()]);
    if starts.len() != axes.len() || ends.len() != axes.len() || steps.len() != axes.len() {
        return Err("has starts, ends, axes and steps of different lengths".into());
    }
    let mut results: Vec<AffineExpr> = (0..rank as u32).map(AffineExpr::Dim).collect();
    for (i, &a) in axes.iter().enumerate() {
        let a = axis_index(a, rank)?;
        let (dim, step) = (in_shape[a], steps[i]);
        if step == 0 {
            return Err("has a step of 0".into());
        }
        let mut start = starts[i];
        if start < 0 {
            start += dim;
        }
        start = if step > 0 {
            start.clamp(0, dim)
        } else {
            start.clamp(0, (dim - 1).max(0))
        };
        if out_shape[a] > 0 {
            results[a] = strided(a as u32, step, start);
        }
    }
    let map = AffineMap::new(rank as u32, 0, results);
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let input = ctx.operand(op, 0);
        vec![map_values(ctx, op, &[input], &[map], ty, |_, a| a[0])]
    }))
}

/// `graph.split`: one map per result, reading the input along the axis
/// from the result's offset (the sum of the sizes before it, which the
/// results' static types give).
pub(super) fn plan_split(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let in_shape = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    let rank = in_shape.len();
    let axis = axis_index(g::SplitOp(op).axis(ctx), rank)?;
    let mut parts = Vec::new();
    let mut offset = 0;
    for r in ctx.results(op).collect::<Vec<_>>() {
        let ty = static_type(ctx, r)?;
        let out_shape = shape(ctx, ty);
        let mut results: Vec<AffineExpr> = (0..rank as u32).map(AffineExpr::Dim).collect();
        if out_shape[axis] > 0 {
            results[axis] = strided(axis as u32, 1, offset);
        }
        offset += out_shape[axis];
        parts.push((AffineMap::new(rank as u32, 0, results), ty));
    }
    if offset != in_shape[axis] {
        return Err(format!(
            "has results of {offset} elements along axis {axis}, but its input has {}",
            in_shape[axis]
        ));
    }
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let input = ctx.operand(op, 0);
        parts
            .iter()
            .map(|(map, ty)| {
                map_values(ctx, op, &[input], std::slice::from_ref(map), *ty, |_, a| {
                    a[0]
                })
            })
            .collect()
    }))
}

/// `tensor.index dim` in the body.
pub(super) fn index(s: &mut Scalar<'_>, dim: usize) -> Value {
    let index_type = s.ctx.index_type();
    let i64_type = s.ctx.integer_type(64);
    let attr = s.ctx.integer_attr(i64_type, dim as i128);
    s.op("tensor.index", &[], &[("dim", attr)], index_type)
}

pub(super) fn plan_concat(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let out_shape = shape(ctx, ty);
    let rank = out_shape.len();
    let axis = axis_index(g::ConcatOp(op).axis(ctx).unwrap_or_default(), rank)?;
    // (operand index, offset along the axis) of each non-empty input.
    let mut parts = Vec::new();
    let mut maps = Vec::new();
    let mut offset = 0;
    for (k, v) in ctx.operands(op).enumerate() {
        let size = shape(ctx, ctx.value_type(v))
            .get(axis)
            .copied()
            .unwrap_or(0);
        if size > 0 {
            let mut results: Vec<AffineExpr> = (0..rank as u32).map(AffineExpr::Dim).collect();
            results[axis] = wrapped(axis as u32, offset, size, out_shape[axis]);
            maps.push(AffineMap::new(rank as u32, 0, results));
            parts.push((k, offset));
        }
        offset += size;
    }
    if parts.is_empty() {
        return Err("has only empty inputs".into());
    }
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let inputs: Vec<Value> = parts.iter().map(|&(k, _)| ctx.operand(op, k)).collect();
        vec![map_values(ctx, op, &inputs, &maps, ty, |s, args| {
            let Some((&last, rest)) = args.split_last() else {
                return args[0];
            };
            if rest.is_empty() {
                return last;
            }
            let i = index(s, axis);
            let index_type = s.ctx.index_type();
            let mut v = last;
            for (k, &arg) in rest.iter().enumerate().rev() {
                let next_offset = s.int(index_type, parts[k + 1].1 as i128);
                let before = s.cmp(cmpi::SLT, i, next_offset);
                v = s.select(before, arg, v);
            }
            v
        })]
    }))
}

pub(super) fn plan_pad(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let pad = g::PadOp(op);
    if pad.mode(ctx) != "constant" {
        return Err(
            "has a mode other than 'constant', which cannot be lowered to tensor yet".into(),
        );
    }
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let input = ctx.operand(op, 0);
    let in_shape = shape(ctx, ctx.value_type(input));
    let out_shape = shape(ctx, ty);
    let rank = in_shape.len();
    let pads = ints(ctx, Some(ctx.operand(op, 1)), "pads")?.unwrap_or_default();
    let axes = ints(ctx, pad.axes(ctx), "axes")?.unwrap_or_else(|| (0..rank as i64).collect());
    if pads.len() != 2 * axes.len() {
        return Err("has pads of a length other than twice the number of axes".into());
    }
    let mut results: Vec<AffineExpr> = (0..rank as u32).map(AffineExpr::Dim).collect();
    // (dim, lo, size) of each padded dim.
    let mut padded = Vec::new();
    for (i, &a) in axes.iter().enumerate() {
        let a = axis_index(a, rank)?;
        let lo = pads[i];
        if lo == 0 && pads[i + axes.len()] == 0 {
            continue;
        }
        if in_shape[a] == 0 {
            return Err("pads an empty dimension, which cannot be lowered to tensor yet".into());
        }
        results[a] = wrapped(a as u32, lo, in_shape[a], out_shape[a]);
        padded.push((a, lo, in_shape[a]));
    }
    let mut maps = vec![AffineMap::new(rank as u32, 0, results)];
    if let Some(v) = pad.value(ctx) {
        // The pad value is one element, of any rank (ONNX allows `[1]`):
        // read it at index 0 of each of its dims.
        let value_shape = shape(ctx, ctx.value_type(v));
        if value_shape.iter().product::<i64>() != 1 {
            return Err("has a pad value that is not one element".into());
        }
        let zeros = vec![AffineExpr::Constant(0); value_shape.len()];
        maps.push(AffineMap::new(rank as u32, 0, zeros));
    }
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let pad = g::PadOp(op);
        let mut inputs = vec![ctx.operand(op, 0)];
        inputs.extend(pad.value(ctx));
        vec![map_values(ctx, op, &inputs, &maps, ty, |s, args| {
            let fill = match args.get(1) {
                Some(&v) => v,
                None => s.constant(element, 0.0),
            };
            let index_type = s.ctx.index_type();
            let mut inside: Option<Value> = None;
            for &(d, lo, size) in &padded {
                let i = index(s, d);
                let l = s.int(index_type, lo as i128);
                let h = s.int(index_type, (lo + size) as i128);
                let ge = s.cmp(cmpi::SGE, i, l);
                let lt = s.cmp(cmpi::SLT, i, h);
                let both = s.bin("arith.andi", ge, lt);
                inside = Some(match inside {
                    Some(prev) => s.bin("arith.andi", prev, both),
                    None => both,
                });
            }
            match inside {
                Some(c) => s.select(c, args[0], fill),
                None => args[0],
            }
        })]
    }))
}
