//! `resize` as one `tensor.map` over the result with precomputed
//! coefficients: the shapes are static, so each resized axis has a table
//! of taps per output position (the interpreter's own, from
//! [`strata_dialects::graph::resize_taps`]). The map gathers the input
//! (`tensor.extract`) and reads, per axis and tap, an `i32` constant of
//! input positions and a constant of weights (in the compute type) at the
//! output coordinate of that axis; the body sums the weighted taps, one
//! axis inside the other. Nearest reads one position per axis and copies
//! the element (any dtype). A position of -1 marks an output position
//! outside the crop region of `tf_crop_and_resize`, which yields the
//! extrapolation value.

use strata_dialects::graph as g;
use strata_dialects::graph::resize_taps::{
    axis_taps, is_identity, resized_axes, scales_and_sizes, CoordinateMode, ResizeMode,
    ResizeParams, ResizeTarget,
};
use strata_dialects::tensor::MapOp;
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::float::{to_f64, FloatKind};
use strata_ir::{AttrKind, Context, Operation, Type, TypeKind, Value};

use super::movement::index;
use super::scalar::{cmpi, is_float, Scalar};
use super::structured::{compute_type, constant_ints};
use super::{element_of, shape, static_type, Plan};

/// The most tap combinations (the product over the resized axes of their
/// taps) one output element may read.
const MAX_COMBINATIONS: usize = 64;

/// One tap of a resized axis: the input position (-1 outside the crop
/// region) and weight of each output position along it.
struct Tap {
    positions: Vec<i32>,
    weights: Vec<f64>,
}

/// A resized axis: its dim, its taps, and whether some output positions
/// fall outside the crop region.
struct Axis {
    dim: usize,
    taps: Vec<Tap>,
    outside: bool,
}

/// The float elements of a constant operand (`graph.constant` or
/// `arith.constant`) of at most 1024 elements.
fn constant_floats(ctx: &Context, v: Value) -> Option<Vec<f64>> {
    let def = ctx.defining_op(v)?;
    let attr = match ctx.op_name_str(def) {
        g::ConstantOp::NAME => g::ConstantOp(def).value_attr(ctx)?,
        strata_dialects::arith::ConstantOp::NAME => {
            strata_dialects::arith::ConstantOp(def).value_attr(ctx)?
        }
        _ => return None,
    };
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(attr) else {
        return None;
    };
    let TypeKind::RankedTensor { shape, element, .. } = ctx.type_kind(*ty) else {
        return None;
    };
    let kind = ctx.float_kind(*element)?;
    if !matches!(
        kind,
        FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64
    ) {
        return None;
    }
    let count = shape.iter().try_fold(1usize, |acc, &d| {
        usize::try_from(d).ok().and_then(|d| acc.checked_mul(d))
    })?;
    if count > 1024 {
        return None;
    }
    let bytes = (kind.bit_width() as usize).div_ceil(8);
    (0..count)
        .map(|i| {
            let i = if data.splat { 0 } else { i };
            let chunk = data.raw.get(i * bytes..(i + 1) * bytes)?;
            let mut buf = [0u8; 16];
            buf.get_mut(..bytes)?.copy_from_slice(chunk);
            Some(to_f64(kind, u128::from_le_bytes(buf)))
        })
        .collect()
}

/// The output size of each resized axis, from constant `scales` or
/// `sizes`; without constant sizes (and with the `stretch` policy) the
/// static result type gives them, as it gives `reshape` its shape.
fn target_of(
    ctx: &Context,
    op: Operation,
    out_shape: &[i64],
    axes: &[usize],
    p: &ResizeParams,
) -> Result<(Option<Vec<f64>>, Vec<i64>), String> {
    let resize = g::ResizeOp(op);
    match (resize.scales(ctx), resize.sizes(ctx)) {
        (Some(s), None) => constant_floats(ctx, s)
            .map(|s| (Some(s), Vec::new()))
            .ok_or_else(|| "has scales that are not a constant".into()),
        (None, Some(z)) => match constant_ints(ctx, z) {
            Some(z) => Ok((None, z)),
            None if p.aspect == strata_dialects::graph::resize_taps::AspectPolicy::Stretch => {
                Ok((None, axes.iter().map(|&a| out_shape[a]).collect()))
            }
            None => Err(
                "has sizes that are not a constant (with a keep_aspect_ratio_policy other than 'stretch')"
                    .into(),
            ),
        },
        _ => Err("needs exactly one of scales and sizes".into()),
    }
}

/// The crop region of each resized axis (`tf_crop_and_resize` only).
fn regions(
    ctx: &Context,
    op: Operation,
    n: usize,
    p: &ResizeParams,
) -> Result<Vec<Option<(f64, f64)>>, String> {
    if p.coordinate != CoordinateMode::TfCropAndResize {
        return Ok(vec![None; n]);
    }
    let roi = g::ResizeOp(op)
        .roi(ctx)
        .ok_or("has tf_crop_and_resize without a roi")?;
    let r = constant_floats(ctx, roi).ok_or("has a roi that is not a constant")?;
    if r.len() != 2 * n {
        return Err(format!("has a roi of {} values for {n} axes", r.len()));
    }
    if let Some(v) = r.iter().find(|v| !v.is_finite()) {
        return Err(format!(
            "resize: invalid argument: roi has a non-finite value ({v})"
        ));
    }
    Ok((0..n).map(|i| Some((r[i], r[n + i]))).collect())
}

/// The taps of one axis of `width` positions resized to `out`: nearest
/// merges each output position's taps into the one of weight 1; the other
/// modes drop the taps whose weight is 0 everywhere.
fn axis_of(
    dim: usize,
    width: usize,
    out: usize,
    scale: f64,
    region: Option<(f64, f64)>,
    p: &ResizeParams,
) -> Result<Axis, String> {
    let table = axis_taps(width, out, scale, region, p);
    let outside = table.iter().any(Option::is_none);
    let n = table.iter().flatten().map(Vec::len).max().unwrap_or(0);
    let position = |i: usize| i32::try_from(i).map_err(|_| "has a dimension too large".to_string());
    let taps = if p.mode == ResizeMode::Nearest {
        let positions = table
            .iter()
            .map(|row| match row {
                None => Ok(-1),
                Some(t) => match t.iter().find(|&&(_, w)| w == 1.0) {
                    Some(&(i, _)) => position(i),
                    None => Err(
                        "has nearest taps outside the input with exclude_outside, which cannot be lowered to tensor yet"
                            .to_string(),
                    ),
                },
            })
            .collect::<Result<Vec<_>, _>>()?;
        vec![Tap {
            positions,
            weights: Vec::new(),
        }]
    } else {
        let mut taps = Vec::new();
        for t in 0..n {
            let mut tap = Tap {
                positions: Vec::with_capacity(out),
                weights: Vec::with_capacity(out),
            };
            for row in &table {
                let (i, w) = match row {
                    None => (-1, 0.0),
                    Some(r) => {
                        let &(i, w) = r.get(t).ok_or("has uneven tap windows")?;
                        (position(i)?, w)
                    }
                };
                tap.positions.push(i);
                tap.weights.push(w);
            }
            if tap.weights.iter().any(|&w| w != 0.0) {
                taps.push(tap);
            }
        }
        // Every weight 0 (all outside the region): keep one tap for the flag.
        if taps.is_empty() {
            taps.push(Tap {
                positions: vec![-1; out],
                weights: vec![0.0; out],
            });
        }
        taps
    };
    Ok(Axis { dim, taps, outside })
}

pub(super) fn plan_resize(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    let in_shape = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    let out_shape = shape(ctx, ty);
    let p = ResizeParams::of_op(ctx, g::ResizeOp(op));
    if p.antialias {
        return Err("has antialias, which cannot be lowered to tensor yet".into());
    }
    let float = is_float(ctx, element);
    if !float && p.mode != ResizeMode::Nearest {
        let e = strata_ir::printer::type_to_string(ctx, element);
        return Err(format!(
            "interpolates '{e}' elements (linear or cubic on integers), which cannot be lowered to tensor yet"
        ));
    }
    let rank = in_shape.len();
    let axes = resized_axes(&g::ResizeOp(op).axes(ctx).unwrap_or_default(), rank)
        .map_err(|m| format!("has {m}"))?;
    let (scales, sizes) = target_of(ctx, op, &out_shape, &axes, &p)?;
    let widths: Vec<usize> = in_shape.iter().map(|&d| d as usize).collect();
    let target = match &scales {
        Some(s) => ResizeTarget::Scales(s),
        None => ResizeTarget::Sizes(&sizes),
    };
    let (scales, sizes) =
        scales_and_sizes(&widths, &axes, target, p.aspect).map_err(|m| format!("has {m}"))?;
    let mut expected = in_shape.clone();
    for (&a, &n) in axes.iter().zip(&sizes) {
        expected[a] = n as i64;
    }
    if expected != out_shape {
        return Err(format!(
            "has a result of shape {out_shape:?}, but resizes to {expected:?}"
        ));
    }
    if in_shape.contains(&0) || out_shape.contains(&0) {
        return Err("has an empty input or result, which cannot be lowered to tensor yet".into());
    }
    let regions = regions(ctx, op, axes.len(), &p)?;
    let mut resized = Vec::new();
    for (i, &a) in axes.iter().enumerate() {
        if !is_identity(widths[a], sizes[i], scales[i], regions[i]) {
            resized.push(axis_of(a, widths[a], sizes[i], scales[i], regions[i], &p)?);
        }
    }
    let combinations = resized
        .iter()
        .try_fold(1usize, |acc, a| acc.checked_mul(a.taps.len()));
    if combinations.is_none_or(|c| c > MAX_COMBINATIONS) {
        return Err(format!(
            "reads more than {MAX_COMBINATIONS} taps per element, which cannot be lowered to tensor yet"
        ));
    }
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        vec![emit(ctx, op, ty, element, &resized, &p)]
    }))
}

/// Inserts before `op` an `arith.constant dense<raw>` of type `ty`.
fn dense_constant(ctx: &mut Context, op: Operation, ty: Type, raw: Vec<u8>) -> Value {
    let attr = ctx
        .dense_elements_attr(ty, raw)
        .unwrap_or_else(|| ctx.integer_attr(ty, 0));
    let loc = ctx.op_loc(op);
    let c = strata_dialects::arith::ConstantOp::build(ctx, loc, attr, ty);
    ctx.insert_op_before(op, c.op());
    c.result(ctx)
}

/// The tables of one tap, as constants: positions (`i32`) and, unless
/// nearest, weights (`wty`).
fn tap_constants(ctx: &mut Context, op: Operation, tap: &Tap, wty: Type) -> Vec<Value> {
    let n = tap.positions.len() as i64;
    let i32_type = ctx.integer_type(32);
    let pty = ctx.tensor_type(vec![n], i32_type);
    let raw = tap.positions.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut values = vec![dense_constant(ctx, op, pty, raw)];
    if !tap.weights.is_empty() {
        let wide = ctx.int_or_float_bit_width(wty) == Some(64);
        let raw = tap
            .weights
            .iter()
            .flat_map(|&w| {
                if wide {
                    w.to_le_bytes().to_vec()
                } else {
                    (w as f32).to_le_bytes().to_vec()
                }
            })
            .collect();
        let ty = ctx.tensor_type(vec![n], wty);
        values.push(dense_constant(ctx, op, ty, raw));
    }
    values
}

/// The map of the plan: the input gathered, then each tap's tables read
/// at the output coordinate of its axis.
fn emit(
    ctx: &mut Context,
    op: Operation,
    ty: Type,
    element: Type,
    axes: &[Axis],
    p: &ResizeParams,
) -> Value {
    let rank = shape(ctx, ty).len() as u32;
    let cty = compute_type(ctx, element);
    let layout = Layout {
        axes,
        rank: rank as usize,
        element,
        cty,
        extrapolation: p.extrapolation,
        nearest: p.mode == ResizeMode::Nearest,
    };
    let mut inputs = vec![ctx.operand(op, 0)];
    let mut maps = vec![AffineMap::new(rank, 0, Vec::new())];
    for axis in axes {
        let map = AffineMap::new(rank, 0, vec![AffineExpr::Dim(axis.dim as u32)]);
        for tap in &axis.taps {
            for v in tap_constants(ctx, op, tap, cty) {
                inputs.push(v);
                maps.push(map.clone());
            }
        }
    }
    let loc = ctx.op_loc(op);
    let map = MapOp::build_gathered(ctx, loc, &inputs, &maps, &[0], ty, |ctx, block, args| {
        let mut s = Scalar { ctx, block, loc };
        body(&mut s, args, &layout)
    });
    ctx.insert_op_before(op, map.op());
    map.result(ctx)
}

/// A tap's block arguments: its position, as an `index`, and its weight.
struct TapArgs {
    at: Value,
    weight: Option<Value>,
}

/// What the body needs to know of the plan.
struct Layout<'a> {
    axes: &'a [Axis],
    rank: usize,
    element: Type,
    /// The type the weighted sums compute in.
    cty: Type,
    extrapolation: f64,
    nearest: bool,
}

/// The body: the taps' positions (and whether the point is inside the
/// crop region), then the copied element or the weighted sum.
fn body(s: &mut Scalar<'_>, args: &[Value], l: &Layout<'_>) -> Value {
    let (axes, nearest, element) = (l.axes, l.nearest, l.element);
    let x = args[0];
    let index_type = s.ctx.index_type();
    let mut next = 1;
    let mut inside: Option<Value> = None;
    let mut taps: Vec<Vec<TapArgs>> = Vec::new();
    for axis in axes {
        let mut list = Vec::new();
        for (t, _) in axis.taps.iter().enumerate() {
            let pos = args[next];
            let weight = (!nearest).then(|| args[next + 1]);
            next += if nearest { 1 } else { 2 };
            if t == 0 && axis.outside {
                let i32_type = s.ctx.integer_type(32);
                let zero = s.int(i32_type, 0);
                let ok = s.cmp(cmpi::SGE, pos, zero);
                inside = Some(match inside {
                    Some(prev) => s.bin("arith.andi", prev, ok),
                    None => ok,
                });
            }
            let at = s.op("arith.index_cast", &[pos], &[], index_type);
            list.push(TapArgs { at, weight });
        }
        taps.push(list);
    }
    let dims: Vec<usize> = axes.iter().map(|a| a.dim).collect();
    // The resized dims take their taps' positions; the others the point's.
    let mut coords: Vec<Value> = (0..l.rank)
        .map(|d| match dims.iter().position(|&a| a == d) {
            Some(k) => taps[k][0].at,
            None => index(s, d),
        })
        .collect();
    let value = if nearest {
        let mut operands = vec![x];
        operands.extend(&coords);
        s.op("tensor.extract", &operands, &[], element)
    } else {
        let v = weighted(s, x, &mut coords, &dims, &taps, element, l.cty);
        s.convert(v, element)
    };
    match inside {
        None => value,
        Some(ok) => {
            let fill = if is_float(s.ctx, element) {
                l.extrapolation
            } else {
                l.extrapolation.round_ties_even()
            };
            let e = s.constant(element, fill);
            s.select(ok, value, e)
        }
    }
}

/// `sum_t w_t * (the same over the remaining axes)` at `coords`, in
/// `cty`: the first axis outermost.
fn weighted(
    s: &mut Scalar<'_>,
    x: Value,
    coords: &mut [Value],
    dims: &[usize],
    taps: &[Vec<TapArgs>],
    element: Type,
    cty: Type,
) -> Value {
    let Some((list, rest)) = taps.split_first() else {
        let mut operands = vec![x];
        operands.extend(coords.iter());
        let v = s.op("tensor.extract", &operands, &[], element);
        return s.convert(v, cty);
    };
    let mut acc: Option<Value> = None;
    for tap in list {
        coords[dims[0]] = tap.at;
        let inner = weighted(s, x, coords, &dims[1..], rest, element, cty);
        let term = match tap.weight {
            Some(w) => s.bin("arith.mulf", w, inner),
            None => inner,
        };
        acc = Some(match acc {
            Some(a) => s.bin("arith.addf", a, term),
            None => term,
        });
    }
    acc.unwrap_or_else(|| s.float(cty, 0.0))
}
