//! Convolutions and pools: a window map reads the input at `o * stride + k
//! * dilation - pad_begin` for each output position `o` and kernel tap `k`.
//!
//! Where the window can leave the input (padding, `ceil_mode`), the map
//! reads at that index wrapped into the input (`mod size`, always in
//! bounds) and the body selects the fill value outside it, as the pad
//! lowering does. A convolution is an im2col: a map pads the input where
//! the window leaves it (so the window reads it at affine indices, without
//! `mod`), the window map over `[G, C/G, KH, KW, N, OH, OW]` (the output
//! width innermost: consecutive reads for stride 1), reshaped to
//! `[G, C/G*KH*KW, N*OH*OW]`, the weight reshaped to `[G, M/G, C/G*KH*KW]`
//! contracted with it (the group is the contraction's batch dim), and a
//! map that adds the bias and puts the result in NCHW order. A pool reduces the window map
//! `[N, C, OH, OW, KH, KW]` over its last two dims (fusion makes the map
//! the reduction's prologue) and an average divides by each position's
//! count.

use strata_dialects::graph as g;
use strata_dialects::tensor::ContractOp;
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::{Context, Operation, Type, Value};

use super::movement::index;
use super::scalar::{cmpi, Scalar};
use super::structured::{combine_parts, compute_type, reduce_values, reshape_to, Combine};
use super::{element_of, map_values, shape, static_type, Plan};

/// One spatial axis of a window: input size, output size, kernel size,
/// stride, dilation and begin padding.
#[derive(Clone, Copy, Debug)]
pub(super) struct Axis {
    pub(super) len: i64,
    pub(super) out: i64,
    pub(super) k: i64,
    pub(super) s: i64,
    pub(super) d: i64,
    pub(super) pb: i64,
}

impl Axis {
    /// Whether some tap of some output position falls outside the input.
    pub(super) fn leaves_input(&self) -> bool {
        let last = (self.out - 1) * self.s + (self.k - 1) * self.d - self.pb;
        self.pb > 0 || last >= self.len
    }

    /// The input index of output dim `o` and tap dim `t`, wrapped into the
    /// input when the window can leave it.
    pub(super) fn expr(&self, o: u32, t: u32) -> AffineExpr {
        let e = self.tap(o, t, -self.pb);
        if self.leaves_input() {
            return AffineExpr::Mod(Box::new(e), Box::new(AffineExpr::Constant(self.len)));
        }
        e
    }

    /// `o * stride + t * dilation + offset`.
    fn tap(&self, o: u32, t: u32, offset: i64) -> AffineExpr {
        let term = |d: u32, c: i64| {
            let e = AffineExpr::Dim(d);
            if c == 1 {
                e
            } else {
                AffineExpr::Mul(Box::new(e), Box::new(AffineExpr::Constant(c)))
            }
        };
        let e = AffineExpr::Add(Box::new(term(o, self.s)), Box::new(term(t, self.d)));
        if offset == 0 {
            return e;
        }
        AffineExpr::Add(Box::new(e), Box::new(AffineExpr::Constant(offset)))
    }

    /// The input index of output dim `o`, tap dim `t` in an input padded
    /// at the begin: `o * stride + t * dilation`, always inside.
    pub(super) fn padded_expr(&self, o: u32, t: u32) -> AffineExpr {
        self.tap(o, t, 0)
    }

    /// `o * stride + t * dilation` for output dim `o` and the constant tap
    /// `t`: the index in an input padded at the begin (or never left, so
    /// read unpadded, without offset).
    pub(super) fn fixed_tap(&self, o: u32, t: i64) -> AffineExpr {
        let scaled = if self.s == 1 {
            AffineExpr::Dim(o)
        } else {
            AffineExpr::Mul(
                Box::new(AffineExpr::Dim(o)),
                Box::new(AffineExpr::Constant(self.s)),
            )
        };
        if t * self.d == 0 {
            return scaled;
        }
        AffineExpr::Add(Box::new(scaled), Box::new(AffineExpr::Constant(t * self.d)))
    }

    /// The extent of this axis in an input padded for the window (the
    /// input's own extent when the window never leaves it).
    pub(super) fn padded_len(&self) -> i64 {
        if !self.leaves_input() {
            return self.len;
        }
        let reach = (self.out - 1) * self.s + (self.k - 1) * self.d + 1;
        reach.max(self.pb + self.len)
    }

    /// The input index that padded position `p` holds, wrapped into the
    /// input (the body selects the fill outside it).
    pub(super) fn unpad_expr(&self, p: u32) -> AffineExpr {
        if !self.leaves_input() {
            return AffineExpr::Dim(p);
        }
        let shifted = AffineExpr::Add(
            Box::new(AffineExpr::Dim(p)),
            Box::new(AffineExpr::Constant(-self.pb)),
        );
        AffineExpr::Mod(Box::new(shifted), Box::new(AffineExpr::Constant(self.len)))
    }

    /// How many taps of output position `o` are inside the input
    /// (`padded`: inside the padded input, without the overhang
    /// `ceil_mode` adds), as the interpreter's pool counts them.
    fn count(&self, o: i64, pe: i64, padded: bool) -> i64 {
        let start = o * self.s;
        let below = |limit: i64| {
            if start >= limit {
                0
            } else {
                self.k.min((limit - start + self.d - 1) / self.d)
            }
        };
        if padded {
            return below(self.pb + self.len + pe);
        }
        let first = if start >= self.pb {
            0
        } else {
            (self.pb - start + self.d - 1) / self.d
        };
        (below(self.pb + self.len) - first).max(0)
    }
}

/// The two spatial axes of a 2-D window op on `input_shape` (NCHW) giving
/// `out_shape`, with `[kh, kw]` taps.
pub(super) fn axes(
    input_shape: &[i64],
    out_shape: &[i64],
    kernel: &[i64],
    strides: &[i64],
    dilations: &[i64],
    pads: &[i64],
) -> Result<[Axis; 2], String> {
    if input_shape.len() != 4 || out_shape.len() != 4 {
        return Err("has an input or result that is not 4-D".into());
    }
    if kernel.len() != 2 || strides.len() != 2 || dilations.len() != 2 || pads.len() != 4 {
        return Err("has window attributes of the wrong lengths".into());
    }
    let axis = |i: usize| -> Result<Axis, String> {
        let a = Axis {
            len: input_shape[2 + i],
            out: out_shape[2 + i],
            k: kernel[i],
            s: strides[i],
            d: dilations[i],
            pb: pads[i],
        };
        if a.k < 1 || a.s < 1 || a.d < 1 || a.pb < 0 || pads[i + 2] < 0 {
            return Err("has a non-positive kernel, stride or dilation, or a negative pad".into());
        }
        if a.len == 0 || a.out == 0 {
            return Err(
                "has an empty spatial dimension, which cannot be lowered to tensor yet".into(),
            );
        }
        Ok(a)
    };
    Ok([axis(0)?, axis(1)?])
}

/// In the body: whether the input index of output dim `o`, tap dim `t` on
/// `axis` is inside the input (`None` when it always is).
fn inside(s: &mut Scalar<'_>, axis: &Axis, o: usize, t: usize) -> Option<Value> {
    if !axis.leaves_input() {
        return None;
    }
    let it = s.ctx.index_type();
    let scaled = |s: &mut Scalar<'_>, dim: usize, c: i64| {
        let v = index(s, dim);
        if c == 1 {
            return v;
        }
        let cv = s.int(it, i128::from(c));
        s.bin("arith.muli", v, cv)
    };
    let a = scaled(s, o, axis.s);
    let b = scaled(s, t, axis.d);
    let sum = s.bin("arith.addi", a, b);
    let pb = s.int(it, i128::from(axis.pb));
    let lo = s.cmp(cmpi::SGE, sum, pb);
    let end = s.int(it, i128::from(axis.pb + axis.len));
    let hi = s.cmp(cmpi::SLT, sum, end);
    Some(s.bin("arith.andi", lo, hi))
}

/// In the body of the padding map: whether padded position `dim` on
/// `axis` holds an input element (`None` when every position does).
pub(super) fn inside_padded(s: &mut Scalar<'_>, axis: &Axis, dim: usize) -> Option<Value> {
    if !axis.leaves_input() {
        return None;
    }
    let it = s.ctx.index_type();
    let p = index(s, dim);
    let pb = s.int(it, i128::from(axis.pb));
    let lo = s.cmp(cmpi::SGE, p, pb);
    let end = s.int(it, i128::from(axis.pb + axis.len));
    let hi = s.cmp(cmpi::SLT, p, end);
    Some(s.bin("arith.andi", lo, hi))
}

/// The body's value: `x` where both axes are inside the input, else `fill`.
fn windowed(s: &mut Scalar<'_>, x: Value, fill: f64, axes: &[Axis; 2], dims: [usize; 4]) -> Value {
    let h = inside(s, &axes[0], dims[0], dims[1]);
    let w = inside(s, &axes[1], dims[2], dims[3]);
    select_inside(s, x, fill, h, w)
}

/// `x` where both conditions hold (an absent one always does), else `fill`.
pub(super) fn select_inside(
    s: &mut Scalar<'_>,
    x: Value,
    fill: f64,
    h: Option<Value>,
    w: Option<Value>,
) -> Value {
    let cond = match (h, w) {
        (Some(a), Some(b)) => s.bin("arith.andi", a, b),
        (Some(c), None) | (None, Some(c)) => c,
        (None, None) => return x,
    };
    let ty = s.ctx.value_type(x);
    let f = s.constant(ty, fill);
    s.select(cond, x, f)
}

pub(super) fn plan_conv(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let conv = g::Conv2dOp(op);
    match conv.layout(ctx).as_str() {
        "nchw" => {}
        "nhwc" => return super::conv_nhwc::plan_conv_nhwc(ctx, op),
        other => return Err(format!("has an unknown layout \"{other}\"")),
    }
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    let x_shape = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    let w_shape = shape(ctx, ctx.value_type(ctx.operand(op, 1)));
    let out_shape = shape(ctx, ty);
    if w_shape.len() != 4 {
        return Err("has a weight that is not 4-D".into());
    }
    let kernel = [w_shape[2], w_shape[3]];
    let ax = axes(
        &x_shape,
        &out_shape,
        &kernel,
        &conv.strides(ctx),
        &conv.dilations(ctx),
        &conv.pads(ctx),
    )?;
    let groups = conv.group(ctx);
    let (n, c, m) = (x_shape[0], x_shape[1], w_shape[0]);
    if groups < 1 || c % groups != 0 || m % groups != 0 || w_shape[1] * groups != c {
        return Err("has channels that do not divide into its groups".into());
    }
    let (cg, mg) = (c / groups, m / groups);
    if groups > 1 && cg == 1 && kernel[0] * kernel[1] <= MAX_TAPS {
        return Ok(depthwise_conv(ctx, op, ax, mg, ty, element));
    }
    let (oh, ow) = (ax[0].out, ax[1].out);
    let (kh, kw) = (kernel[0], kernel[1]);
    let d = AffineExpr::Dim;
    let c_ = |v: i64| Box::new(AffineExpr::Constant(v));
    // The padded input, when a window leaves the input: `[N, C, HP, WP]`
    // with the input at `pad_begin` and zeros around it, so that the im2col
    // map reads it at affine indices (no `mod`, no select): consecutive
    // along the output width for stride 1.
    let padded = ax.iter().any(Axis::leaves_input);
    // im2col, transposed: (g, c, kh, kw, n, oh, ow) -> xp[n, g * cg + c,
    // oh * sh + kh * dh, ow * sw + kw * dw] (offset by -pad_begin when the
    // input is read unpadded).
    let channel = if groups == 1 {
        d(1)
    } else {
        AffineExpr::Add(
            Box::new(AffineExpr::Mul(Box::new(d(0)), c_(cg))),
            Box::new(d(1)),
        )
    };
    let tap = |a: &Axis, o: u32, t: u32| {
        if padded {
            a.padded_expr(o, t)
        } else {
            a.expr(o, t)
        }
    };
    let x_map = AffineMap::new(
        7,
        0,
        vec![d(4), channel, tap(&ax[0], 5, 2), tap(&ax[1], 6, 3)],
    );
    let cols_ty = ctx.tensor_type(vec![groups, cg, kh, kw, n, oh, ow], element);
    let rhs_ty = ctx.tensor_type(vec![groups, cg * kh * kw, n * oh * ow], element);
    let lhs_ty = ctx.tensor_type(vec![groups, mg, cg * kh * kw], element);
    let prod_ty = ctx.tensor_type(vec![groups, mg, n * oh * ow], element);
    let split_ty = ctx.tensor_type(vec![groups, mg, n, oh, ow], element);
    // (g, m, p, k): w[g, m, k] * cols[g, k, p] -> prod[g, m, p].
    let contract_maps = [
        AffineMap::new(4, 0, vec![d(0), d(1), d(3)]),
        AffineMap::new(4, 0, vec![d(0), d(3), d(2)]),
        AffineMap::new(4, 0, vec![d(0), d(1), d(2)]),
    ];
    // (n, m, oh, ow) -> prod[m / mg, m mod mg, n, oh, ow], bias[m].
    let (group_of, within) = if groups == 1 {
        (AffineExpr::Constant(0), d(1))
    } else {
        (
            AffineExpr::FloorDiv(Box::new(d(1)), c_(mg)),
            AffineExpr::Mod(Box::new(d(1)), c_(mg)),
        )
    };
    let mut out_maps = vec![AffineMap::new(
        4,
        0,
        vec![group_of, within, d(0), d(2), d(3)],
    )];
    if conv.bias(ctx).is_some() {
        out_maps.push(AffineMap::new(4, 0, vec![d(1)]));
    }
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let (mut x, w) = (ctx.operand(op, 0), ctx.operand(op, 1));
        x = pad_window(ctx, op, x, &ax, Layout::NCHW, element, 0.0);
        let cols = map_values(
            ctx,
            op,
            &[x],
            std::slice::from_ref(&x_map),
            cols_ty,
            |_, a| a[0],
        );
        let rhs = reshape_to(ctx, op, cols, rhs_ty);
        let lhs = reshape_to(ctx, op, w, lhs_ty);
        let loc = ctx.op_loc(op);
        let c = ContractOp::build_with_maps(ctx, loc, lhs, rhs, &contract_maps, prod_ty);
        ctx.insert_op_before(op, c.op());
        let prod = c.result(ctx);
        let split = reshape_to(ctx, op, prod, split_ty);
        vec![with_bias(ctx, op, split, &out_maps, ty, element)]
    }))
}

/// A convolution whose groups each read one input channel (depthwise,
/// channel multiplier `mg`), with at most [`MAX_TAPS`] taps: one
/// elementwise map over the output, `y[n, m, oh, ow] = bias[m] + Σ
/// x[n, m / mg, oh * s + i * d, ow * s + j * d] · w[m, 0, i, j]` over the
/// taps `(i, j)`, reading the input padded once (at affine indices,
/// consecutive along the output width for stride 1). No im2col copy and
/// no product of `C` one-row matrices.
fn depthwise_conv(
    ctx: &mut Context,
    op: Operation,
    ax: [Axis; 2],
    mg: i64,
    ty: Type,
    element: Type,
) -> Plan {
    let d = AffineExpr::Dim;
    let channel = if mg == 1 {
        d(1)
    } else {
        AffineExpr::FloorDiv(Box::new(d(1)), Box::new(AffineExpr::Constant(mg)))
    };
    let mut maps = Vec::new();
    for i in 0..ax[0].k {
        for j in 0..ax[1].k {
            maps.push(AffineMap::new(
                4,
                0,
                vec![
                    d(0),
                    channel.clone(),
                    ax[0].fixed_tap(2, i),
                    ax[1].fixed_tap(3, j),
                ],
            ));
            let (ci, cj) = (AffineExpr::Constant(i), AffineExpr::Constant(j));
            maps.push(AffineMap::new(
                4,
                0,
                vec![d(1), AffineExpr::Constant(0), ci, cj],
            ));
        }
    }
    let has_bias = g::Conv2dOp(op).bias(ctx).is_some();
    if has_bias {
        maps.push(AffineMap::new(4, 0, vec![d(1)]));
    }
    Box::new(move |ctx: &mut Context, op: Operation| {
        let (mut x, w) = (ctx.operand(op, 0), ctx.operand(op, 1));
        x = pad_window(ctx, op, x, &ax, Layout::NCHW, element, 0.0);
        let taps = (ax[0].k * ax[1].k) as usize;
        let mut inputs = Vec::with_capacity(2 * taps + 1);
        for _ in 0..taps {
            inputs.extend([x, w]);
        }
        inputs.extend(g::Conv2dOp(op).bias(ctx));
        vec![map_values(ctx, op, &inputs, &maps, ty, |s, a| {
            let cty = compute_type(s.ctx, element);
            // Fused multiply-adds from +0, as the interpreter's product
            // accumulates (a sum of -0 products is +0, and a product is not
            // rounded, nor overflows, before it is added).
            let mut y = s.float(cty, 0.0);
            for pair in a[..2 * taps].chunks(2) {
                let (xv, wv) = (s.convert(pair[0], cty), s.convert(pair[1], cty));
                y = s.op("math.fma", &[xv, wv, y], &[], cty);
            }
            if let Some(&bias) = a.get(2 * taps) {
                let b = s.convert(bias, cty);
                y = s.bin("arith.addf", y, b);
            }
            s.convert(y, element)
        })]
    })
}

/// Where a 4-D window op keeps its channels: second (NCHW) or last
/// (NHWC). `h`, `w` and `c` are the dims' positions.
#[derive(Clone, Copy, Debug)]
struct Layout {
    h: u32,
    w: u32,
    c: u32,
}

impl Layout {
    const NCHW: Layout = Layout { h: 2, w: 3, c: 1 };
    const NHWC: Layout = Layout { h: 1, w: 2, c: 3 };

    fn of(name: &str) -> Result<Layout, String> {
        match name {
            "nchw" => Ok(Layout::NCHW),
            "nhwc" => Ok(Layout::NHWC),
            other => Err(format!("has an unknown layout \"{other}\"")),
        }
    }

    /// `n, c, h, w` in this layout's order.
    fn place<T>(&self, n: T, c: T, h: T, w: T) -> Vec<T> {
        let mut slots = [Some(n), None, None, None];
        slots[self.c as usize] = Some(c);
        slots[self.h as usize] = Some(h);
        slots[self.w as usize] = Some(w);
        slots.into_iter().flatten().collect()
    }

    /// Dims `[N, C, H, W]` of a shape in this layout.
    fn nchw(&self, dims: &[i64]) -> Vec<i64> {
        let at = |i: u32| dims.get(i as usize).copied().unwrap_or(0);
        vec![at(0), at(self.c), at(self.h), at(self.w)]
    }
}

/// The convolution `op`'s result of type `ty`: its product `prod` read
/// through `maps[0]`, plus its bias (read through `maps[1]`) when it has
/// one, in the compute type of `element`. Inserted before `op`.
pub(super) fn with_bias(
    ctx: &mut Context,
    op: Operation,
    prod: Value,
    maps: &[AffineMap],
    ty: Type,
    element: Type,
) -> Value {
    let mut inputs = vec![prod];
    inputs.extend(g::Conv2dOp(op).bias(ctx));
    map_values(ctx, op, &inputs, maps, ty, |s, a| {
        let Some(&bias) = a.get(1) else {
            return a[0];
        };
        let cty = compute_type(s.ctx, element);
        let (p, b) = (s.convert(a[0], cty), s.convert(bias, cty));
        let y = s.bin("arith.addf", p, b);
        s.convert(y, element)
    })
}

/// What a pool computes.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Pool {
    Max,
    /// An average; `true`: the count includes the padding.
    Avg(bool),
}

pub(super) fn plan_pool(ctx: &mut Context, op: Operation, max: bool) -> Result<Plan, String> {
    let (kernel, strides, pads, dilations, how, layout) = if max {
        let p = g::MaxPool2dOp(op);
        if ctx.num_results(op) > 1 {
            return Err("has an indices result, which cannot be lowered to tensor yet".into());
        }
        let k = p.kernel_shape(ctx).ok_or("has no kernel_shape")?;
        let l = Layout::of(&p.layout(ctx))?;
        (
            k,
            p.strides(ctx),
            p.pads(ctx),
            p.dilations(ctx),
            Pool::Max,
            l,
        )
    } else {
        let p = g::AvgPool2dOp(op);
        let k = p.kernel_shape(ctx).ok_or("has no kernel_shape")?;
        let how = Pool::Avg(p.count_include_pad(ctx));
        let l = Layout::of(&p.layout(ctx))?;
        (k, p.strides(ctx), p.pads(ctx), p.dilations(ctx), how, l)
    };
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    let x_shape = layout.nchw(&shape(ctx, ctx.value_type(ctx.operand(op, 0))));
    let out_shape = layout.nchw(&shape(ctx, ty));
    let ax = axes(&x_shape, &out_shape, &kernel, &strides, &dilations, &pads)?;
    let float = super::scalar::is_float(ctx, element);
    if !float && how != Pool::Max {
        return Err("averages integers, which cannot be lowered to tensor yet".into());
    }
    let d = AffineExpr::Dim;
    // (n, c, oh, ow in the layout's order, kh, kw) -> x[n, c, oh * sh + kh
    // * dh - ph, ...] (in the layout's order).
    let (lh, lw) = (layout.h, layout.w);
    let x_map = AffineMap::new(
        6,
        0,
        layout.place(d(0), d(layout.c), ax[0].expr(lh, 4), ax[1].expr(lw, 5)),
    );
    let (n, c, oh, ow) = (x_shape[0], x_shape[1], ax[0].out, ax[1].out);
    // The divisor of each output position (`[OH, OW]`).
    let counts: Vec<i64> = match how {
        Pool::Max => Vec::new(),
        Pool::Avg(padded) => (0..oh)
            .flat_map(|y| {
                let ch = ax[0].count(y, pads[2], padded);
                let (w_axis, w_end) = (ax[1], pads[3]);
                (0..ow).map(move |x| ch * w_axis.count(x, w_end, padded))
            })
            .collect(),
    };
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let x = ctx.operand(op, 0);
        let cty = if how == Pool::Max {
            element
        } else {
            compute_type(ctx, element)
        };
        let (fill, combine) = match how {
            Pool::Max if float => (f64::NEG_INFINITY, Combine::Max),
            Pool::Max => {
                let width = ctx.int_or_float_bit_width(element).unwrap_or(64).min(64);
                (-(2f64.powi(width as i32 - 1)), Combine::Max)
            }
            Pool::Avg(_) => (0.0, Combine::Sum),
        };
        let taps = ax[0].k * ax[1].k;
        let r = if taps <= MAX_TAPS {
            tap_pool(ctx, op, x, &ax, layout, cty, (fill, combine))
        } else {
            let mut win = layout.place(n, c, oh, ow);
            win.extend([ax[0].k, ax[1].k]);
            let win_ty = ctx.tensor_type(win, cty);
            let win = map_values(
                ctx,
                op,
                &[x],
                std::slice::from_ref(&x_map),
                win_ty,
                |s, a| {
                    let v = s.convert(a[0], cty);
                    windowed(s, v, fill, &ax, [lh as usize, 4, lw as usize, 5])
                },
            );
            reduce_values(ctx, op, win, &[4, 5], combine)
        };
        if how == Pool::Max {
            return vec![r];
        }
        let id = AffineMap::identity(4);
        let uniform = counts.iter().all(|&k| Some(&k) == counts.first());
        if uniform {
            let k = counts.first().copied().unwrap_or(1) as f64;
            return vec![map_values(ctx, op, &[r], &[id], ty, |s, a| {
                let kv = s.float(cty, k);
                let y = s.bin("arith.divf", a[0], kv);
                s.convert(y, element)
            })];
        }
        let counts_ty = ctx.tensor_type(vec![oh, ow], cty);
        let values: Vec<f64> = counts.iter().map(|&k| k as f64).collect();
        let table = float_constant(ctx, op, counts_ty, &values);
        let table_map = AffineMap::new(4, 0, vec![d(lh), d(lw)]);
        vec![map_values(
            ctx,
            op,
            &[r, table],
            &[id, table_map],
            ty,
            |s, a| {
                let y = s.bin("arith.divf", a[0], a[1]);
                s.convert(y, element)
            },
        )]
    }))
}

/// `x` (in `layout`) padded with `fill` where the window of `ax` leaves it,
/// converted to `ty` (`[N, C, HP, WP]` in `layout`, the input at
/// `pad_begin`), so that the taps read it at affine indices without `mod`
/// or select; `x` itself when the window never leaves it. Inserted before
/// `op`.
fn pad_window(
    ctx: &mut Context,
    op: Operation,
    x: Value,
    ax: &[Axis; 2],
    layout: Layout,
    ty: Type,
    fill: f64,
) -> Value {
    if !ax.iter().any(Axis::leaves_input) {
        return x;
    }
    let x_shape = layout.nchw(&shape(ctx, ctx.value_type(x)));
    let (lh, lw) = (layout.h, layout.w);
    let pad_shape = layout.place(
        x_shape[0],
        x_shape[1],
        ax[0].padded_len(),
        ax[1].padded_len(),
    );
    let pad_ty = ctx.tensor_type(pad_shape, ty);
    let d = AffineExpr::Dim;
    let pad_map = AffineMap::new(
        4,
        0,
        layout.place(
            d(0),
            d(layout.c),
            ax[0].unpad_expr(lh),
            ax[1].unpad_expr(lw),
        ),
    );
    let axes = *ax;
    map_values(ctx, op, &[x], &[pad_map], pad_ty, |s, a| {
        let v = s.convert(a[0], ty);
        let h = inside_padded(s, &axes[0], lh as usize);
        let w = inside_padded(s, &axes[1], lw as usize);
        select_inside(s, v, fill, h, w)
    })
}

/// The most taps a pool combines in one map; larger windows reduce.
const MAX_TAPS: i64 = 64;

/// A pool of `x` (in `layout`) as one elementwise map over the output: the
/// input padded with `fill` where the window leaves it, read once per tap
/// at affine indices (`[oh * stride + kh * dilation, ...]`, consecutive
/// along the output width for stride 1) and combined by `combine` in the
/// body. Inserted before `op`; the result is `[N, C, OH, OW]` (in
/// `layout`) of `cty`.
fn tap_pool(
    ctx: &mut Context,
    op: Operation,
    x: Value,
    ax: &[Axis; 2],
    layout: Layout,
    cty: Type,
    (fill, combine): (f64, Combine),
) -> Value {
    let x_shape = layout.nchw(&shape(ctx, ctx.value_type(x)));
    let (n, c) = (x_shape[0], x_shape[1]);
    let (lh, lw) = (layout.h, layout.w);
    let d = AffineExpr::Dim;
    let input = pad_window(ctx, op, x, ax, layout, cty, fill);
    let mut maps = Vec::new();
    for i in 0..ax[0].k {
        for j in 0..ax[1].k {
            maps.push(AffineMap::new(
                4,
                0,
                layout.place(
                    d(0),
                    d(layout.c),
                    ax[0].fixed_tap(lh, i),
                    ax[1].fixed_tap(lw, j),
                ),
            ));
        }
    }
    let inputs = vec![input; maps.len()];
    let out_ty = ctx.tensor_type(layout.place(n, c, ax[0].out, ax[1].out), cty);
    let (_, combiner) = combine_parts(ctx, combine, cty);
    map_values(ctx, op, &inputs, &maps, out_ty, |s, a| {
        let mut acc = s.convert(a[0], cty);
        for &v in &a[1..] {
            let v = s.convert(v, cty);
            acc = s.bin(combiner, acc, v);
        }
        acc
    })
}

/// Inserts before `op` an `arith.constant dense<values>` of the `f32` or
/// `f64` tensor type `ty`.
fn float_constant(ctx: &mut Context, op: Operation, ty: Type, values: &[f64]) -> Value {
    let wide = element_of(ctx, ty).and_then(|e| ctx.int_or_float_bit_width(e)) == Some(64);
    let raw: Vec<u8> = values
        .iter()
        .flat_map(|&v| {
            if wide {
                v.to_le_bytes().to_vec()
            } else {
                (v as f32).to_le_bytes().to_vec()
            }
        })
        .collect();
    let attr = ctx
        .dense_elements_attr(ty, raw)
        .unwrap_or_else(|| ctx.float_attr(ty, 0.0));
    let loc = ctx.op_loc(op);
    let c = strata_dialects::arith::ConstantOp::build(ctx, loc, attr, ty);
    ctx.insert_op_before(op, c.op());
    c.result(ctx)
}

/// `global_avg_pool` / `global_max_pool`: a reduction of the dims after the
/// first two, kept as size 1.
pub(super) fn plan_global_pool(
    ctx: &mut Context,
    op: Operation,
    max: bool,
) -> Result<Plan, String> {
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    let x_shape = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    if x_shape.len() < 3 {
        return Err("has an input of rank below 3".into());
    }
    let dims: Vec<i64> = (2..x_shape.len() as i64).collect();
    let count: i64 = x_shape[2..].iter().product();
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let x = ctx.operand(op, 0);
        let cty = compute_type(ctx, element);
        let wide = super::structured::convert_tensor(ctx, op, x, cty);
        let how = if max { Combine::Max } else { Combine::Sum };
        let r = reduce_values(ctx, op, wide, &dims, how);
        let r_shape = shape(ctx, ctx.value_type(r));
        let out_ty = ctx.tensor_type(r_shape.clone(), element);
        let id = AffineMap::identity(r_shape.len() as u32);
        let y = map_values(ctx, op, &[r], &[id], out_ty, |s, a| {
            let v = if max {
                a[0]
            } else {
                let k = s.float(cty, count as f64);
                s.bin("arith.divf", a[0], k)
            };
            s.convert(v, element)
        });
        vec![reshape_to(ctx, op, y, ty)]
    }))
}
