//! Scaled dot-product attention as two contractions around a softmax:
//! `scores = q kᵀ` (batched over the leading dims), a map scaling the
//! scores and applying the mask (`-inf` where an `i1` mask is false or, with
//! `is_causal`, after the query's position; a float mask is added), the
//! softmax over the key positions, and `probs v`. Keys and values whose
//! leading dims broadcast, or that hold fewer heads than the queries
//! (grouped-query attention: query head `h` reads key head `h / (H / G)`),
//! are first read into the queries' batch shape.

use strata_dialects::graph as g;
use strata_dialects::tensor::ContractOp;
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::{Context, Operation, Value};

use super::movement::index;
use super::scalar::{cmpi, is_float};
use super::structured::{compute_type, convert_tensor, softmax_values};
use super::{broadcast_map, element_of, map_values, shape, static_type, Plan};

/// How a key or value operand of `shape` is read at an index of the
/// batch shape `batch` followed by its own last two dims: `None` when it
/// has that shape already.
fn operand_map(shape: &[i64], batch: &[i64], what: &str) -> Result<Option<AffineMap>, String> {
    let n = batch.len();
    let d = AffineExpr::Dim;
    let mut results = Vec::with_capacity(n + 2);
    for (i, (&have, &want)) in shape[..n].iter().zip(batch).enumerate() {
        results.push(if have == want {
            d(i as u32)
        } else if have == 1 {
            AffineExpr::Constant(0)
        } else if i == 1 && n == 2 && have > 0 && want % have == 0 {
            let group = AffineExpr::Constant(want / have);
            AffineExpr::FloorDiv(Box::new(d(1)), Box::new(group))
        } else {
            return Err(format!(
                "has {what} of shape {shape:?}, whose leading dims do not broadcast to {batch:?}"
            ));
        });
    }
    results.push(d(n as u32));
    results.push(d(n as u32 + 1));
    let map = AffineMap::new(n as u32 + 2, 0, results);
    Ok((!map.is_identity()).then_some(map))
}

pub(super) fn plan_attention(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let att = g::AttentionOp(op);
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    if !is_float(ctx, element) {
        return Err("attends over non-float values".into());
    }
    let mut shapes = Vec::with_capacity(3);
    for i in 0..3 {
        let t = static_type(ctx, ctx.operand(op, i))?;
        shapes.push(shape(ctx, t));
    }
    let (qs, ks, vs) = (&shapes[0], &shapes[1], &shapes[2]);
    let r = qs.len();
    if ks.len() != r || vs.len() != r {
        return Err(
            "has q, k and v of different ranks, which cannot be lowered to tensor yet".into(),
        );
    }
    let out = shape(ctx, ty);
    let batch = out[..r - 2].to_vec();
    if qs[..r - 2] != batch[..] {
        return Err(
            "has queries whose leading dims broadcast, which cannot be lowered to tensor yet"
                .into(),
        );
    }
    let (l, e, s, ev) = (qs[r - 2], qs[r - 1], ks[r - 2], vs[r - 1]);
    let k_map = operand_map(ks, &batch, "keys")?;
    let v_map = operand_map(vs, &batch, "values")?;
    let scale = att.scale(ctx).unwrap_or(1.0 / (e as f64).sqrt());
    let causal = att.is_causal(ctx);
    let mut scores_shape = batch.clone();
    scores_shape.extend([l, s]);
    let mask = match att.mask(ctx) {
        None => None,
        Some(m) => {
            let mt = static_type(ctx, m)?;
            let msh = shape(ctx, mt);
            let fits = msh.len() <= scores_shape.len()
                && msh
                    .iter()
                    .rev()
                    .zip(scores_shape.iter().rev())
                    .all(|(&a, &b)| a == 1 || a == b);
            if !fits {
                return Err(format!(
                    "has a mask of shape {msh:?} that does not broadcast to the scores {scores_shape:?}"
                ));
            }
            let me = element_of(ctx, mt).ok_or("has a mask without an element type")?;
            let boolean = ctx.int_or_float_bit_width(me) == Some(1) && !is_float(ctx, me);
            if !boolean && !is_float(ctx, me) {
                return Err("has an integer mask, which cannot be lowered to tensor yet".into());
            }
            Some((broadcast_map(&msh, &scores_shape), boolean))
        }
    };
    let n = batch.len() as u32;
    let d = AffineExpr::Dim;
    let batch_dims: Vec<AffineExpr> = (0..n).map(d).collect();
    let with = |tail: &[u32]| {
        let mut v = batch_dims.clone();
        v.extend(tail.iter().map(|&t| d(t)));
        v
    };
    // (b.., l, s, e): q[b.., l, e] k[b.., s, e] -> scores[b.., l, s]
    let qk_maps = [
        AffineMap::new(n + 3, 0, with(&[n, n + 2])),
        AffineMap::new(n + 3, 0, with(&[n + 1, n + 2])),
        AffineMap::new(n + 3, 0, with(&[n, n + 1])),
    ];
    // (b.., l, ev, s): probs[b.., l, s] v[b.., s, ev] -> out[b.., l, ev]
    let pv_maps = [
        AffineMap::new(n + 3, 0, with(&[n, n + 2])),
        AffineMap::new(n + 3, 0, with(&[n + 2, n + 1])),
        AffineMap::new(n + 3, 0, with(&[n, n + 1])),
    ];
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let cty = compute_type(ctx, element);
        let wide = |ctx: &mut Context, tail: [i64; 2]| {
            let mut sh = batch.clone();
            sh.extend(tail);
            ctx.tensor_type(sh, cty)
        };
        // Keys and values in the queries' batch shape, in the compute type.
        let read = |ctx: &mut Context, v: Value, map: &Option<AffineMap>, tail: [i64; 2]| match map
        {
            Some(m) => {
                let t = wide(ctx, tail);
                map_values(ctx, op, &[v], std::slice::from_ref(m), t, |s, a| {
                    s.convert(a[0], cty)
                })
            }
            None => convert_tensor(ctx, op, v, cty),
        };
        let q = convert_tensor(ctx, op, ctx.operand(op, 0), cty);
        let k = read(ctx, ctx.operand(op, 1), &k_map, [s, e]);
        let v = read(ctx, ctx.operand(op, 2), &v_map, [s, ev]);
        let loc = ctx.op_loc(op);
        let scores_ty = wide(ctx, [l, s]);
        let qk = ContractOp::build_with_maps(ctx, loc, q, k, &qk_maps, scores_ty);
        ctx.insert_op_before(op, qk.op());
        let scores = qk.result(ctx);
        let rank = n as usize + 2;
        let mut inputs = vec![scores];
        let mut maps = vec![AffineMap::identity(rank as u32)];
        if let Some((m, _)) = &mask {
            inputs.push(ctx.operand(op, 3));
            maps.push(m.clone());
        }
        let boolean = mask.as_ref().is_some_and(|(_, b)| *b);
        let w = map_values(ctx, op, &inputs, &maps, scores_ty, |sc, a| {
            let k = sc.float(cty, scale);
            let mut x = sc.bin("arith.mulf", a[0], k);
            let minus_inf = sc.float(cty, f64::NEG_INFINITY);
            if let Some(&m) = a.get(1) {
                if boolean {
                    x = sc.select(m, x, minus_inf);
                } else {
                    let m = sc.convert(m, cty);
                    x = sc.bin("arith.addf", x, m);
                }
            }
            if causal {
                let (row, col) = (index(sc, rank - 2), index(sc, rank - 1));
                let after = sc.cmp(cmpi::SGT, col, row);
                x = sc.select(after, minus_inf, x);
            }
            x
        });
        let probs = softmax_values(ctx, op, w, &[rank as i64 - 1], false);
        let out_ty = wide(ctx, [l, ev]);
        let pv = ContractOp::build_with_maps(ctx, loc, probs, v, &pv_maps, out_ty);
        ctx.insert_op_before(op, pv.op());
        let y = pv.result(ctx);
        vec![convert_tensor(ctx, op, y, element)]
    }))
}
