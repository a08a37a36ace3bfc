//! Channels-last convolutions (`graph.conv2d {layout = "nhwc"}`): input
//! `[N, H, W, C]`, weight `[M, kH, kW, C/G]`, result `[N, OH, OW, M]`.
//!
//! As the NCHW lowering, an im2col: a map pads the input where the window
//! leaves it, the window map over `[G, N, OH, OW, kH, kW, C/G]` (channels
//! innermost: consecutive reads) is reshaped to `[G, N*OH*OW, kH*kW*C/G]`
//! and contracted with the weight reshaped to `[G, M/G, kH*kW*C/G]`. The
//! product `[G, N*OH*OW, M/G]` is already the result's order: with one
//! group it is a reshape of it, so the bias and whatever elementwise ops
//! follow read the product through identity maps and fuse with it, where
//! the NCHW product needs a transposing map.

use strata_dialects::graph as g;
use strata_dialects::tensor::ContractOp;
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::{Context, Operation};

use super::structured::reshape_to;
use super::window::{axes, inside_padded, select_inside, with_bias, Axis};
use super::{element_of, map_values, shape, static_type, Plan};

/// NHWC dims `[N, H, W, C]` in NCHW order.
fn nchw(d: &[i64]) -> Vec<i64> {
    vec![d[0], d[3], d[1], d[2]]
}

pub(super) fn plan_conv_nhwc(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let conv = g::Conv2dOp(op);
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    let x_shape = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    let w_shape = shape(ctx, ctx.value_type(ctx.operand(op, 1)));
    let out_shape = shape(ctx, ty);
    if w_shape.len() != 4 || x_shape.len() != 4 || out_shape.len() != 4 {
        return Err("has an input, weight or result that is not 4-D".into());
    }
    let kernel = [w_shape[1], w_shape[2]];
    let ax = axes(
        &nchw(&x_shape),
        &nchw(&out_shape),
        &kernel,
        &conv.strides(ctx),
        &conv.dilations(ctx),
        &conv.pads(ctx),
    )?;
    let groups = conv.group(ctx);
    let (n, c, m) = (x_shape[0], x_shape[3], w_shape[0]);
    if groups < 1 || c % groups != 0 || m % groups != 0 || w_shape[3] * groups != c {
        return Err("has channels that do not divide into its groups".into());
    }
    let (cg, mg) = (c / groups, m / groups);
    let (oh, ow, kh, kw) = (ax[0].out, ax[1].out, kernel[0], kernel[1]);
    let d = AffineExpr::Dim;
    let c_ = |v: i64| Box::new(AffineExpr::Constant(v));
    // The padded input `[N, HP, WP, C]`, when a window leaves the input.
    let padded = ax.iter().any(Axis::leaves_input);
    let pad_ty = ctx.tensor_type(vec![n, ax[0].padded_len(), ax[1].padded_len(), c], element);
    let pad_map = AffineMap::new(
        4,
        0,
        vec![d(0), ax[0].unpad_expr(1), ax[1].unpad_expr(2), d(3)],
    );
    // im2col: (g, n, oh, ow, kh, kw, c) -> xp[n, oh * sh + kh * dh, ow *
    // sw + kw * dw, g * cg + c].
    let channel = if groups == 1 {
        d(6)
    } else {
        AffineExpr::Add(
            Box::new(AffineExpr::Mul(Box::new(d(0)), c_(cg))),
            Box::new(d(6)),
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
        vec![d(1), tap(&ax[0], 2, 4), tap(&ax[1], 3, 5), channel],
    );
    let (p, k) = (n * oh * ow, kh * kw * cg);
    let cols_ty = ctx.tensor_type(vec![groups, n, oh, ow, kh, kw, cg], element);
    let lhs_ty = ctx.tensor_type(vec![groups, p, k], element);
    let rhs_ty = ctx.tensor_type(vec![groups, mg, k], element);
    let prod_ty = ctx.tensor_type(vec![groups, p, mg], element);
    // (g, p, m, k): cols[g, p, k] * w[g, m, k] -> prod[g, p, m].
    let contract_maps = [
        AffineMap::new(4, 0, vec![d(0), d(1), d(3)]),
        AffineMap::new(4, 0, vec![d(0), d(2), d(3)]),
        AffineMap::new(4, 0, vec![d(0), d(1), d(2)]),
    ];
    // The product in the result's shape: a reshape with one group, else
    // `[G, N, OH, OW, M/G]` read at (n, oh, ow, m) -> [m / mg, n, oh, ow,
    // m mod mg].
    let split_ty = if groups == 1 {
        ty
    } else {
        ctx.tensor_type(vec![groups, n, oh, ow, mg], element)
    };
    let mut out_maps = vec![if groups == 1 {
        AffineMap::identity(4)
    } else {
        AffineMap::new(
            4,
            0,
            vec![
                AffineExpr::FloorDiv(Box::new(d(3)), c_(mg)),
                d(0),
                d(1),
                d(2),
                AffineExpr::Mod(Box::new(d(3)), c_(mg)),
            ],
        )
    }];
    let has_bias = conv.bias(ctx).is_some();
    if has_bias {
        out_maps.push(AffineMap::new(4, 0, vec![d(3)]));
    }
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let (mut x, w) = (ctx.operand(op, 0), ctx.operand(op, 1));
        if padded {
            x = map_values(
                ctx,
                op,
                &[x],
                std::slice::from_ref(&pad_map),
                pad_ty,
                |s, a| {
                    let h = inside_padded(s, &ax[0], 1);
                    let w = inside_padded(s, &ax[1], 2);
                    select_inside(s, a[0], 0.0, h, w)
                },
            );
        }
        let cols = map_values(
            ctx,
            op,
            &[x],
            std::slice::from_ref(&x_map),
            cols_ty,
            |_, a| a[0],
        );
        let lhs = reshape_to(ctx, op, cols, lhs_ty);
        let rhs = reshape_to(ctx, op, w, rhs_ty);
        let loc = ctx.op_loc(op);
        let c = ContractOp::build_with_maps(ctx, loc, lhs, rhs, &contract_maps, prod_ty);
        ctx.insert_op_before(op, c.op());
        let split = reshape_to(ctx, op, c.result(ctx), split_ty);
        if groups == 1 && !has_bias {
            return vec![split];
        }
        vec![with_bias(ctx, op, split, &out_maps, ty, element)]
    }))
}
