//! The rules of the padding proof for ops that compute on padded values
//! (elementwise and broadcasting ops, products, norms, transposes,
//! gathers): which axes of their results are padded, or why padding
//! could reach a real value through them.

use std::collections::HashMap;

use strata_ir::{Context, Operation, TypeKind, Value};

use super::{Mask, Padded};

/// Ops that compute each element from the elements at the same position
/// of their operands (broadcast): padding stays in its rows.
const ELEMENTWISE: &[&str] = &["graph.cast", "graph.clip", "graph.where", "graph.identity"];

/// Ops that normalize or reduce along their `axis` property and keep
/// every other axis as it is.
const ALONG_AXIS: &[&str] = &["graph.softmax", "graph.log_softmax"];

/// Ops that normalize over the axes from their `axis` property to the
/// last, keeping the shape.
const TRAILING_AXES: &[&str] = &["graph.layer_norm", "graph.rms_norm"];

/// Ops that compute each sample (dimension 0) from that sample alone:
/// convolutions and pooling windows move over the other dimensions.
const PER_SAMPLE: &[&str] = &[
    "graph.conv2d",
    "graph.conv_transpose2d",
    "graph.max_pool2d",
    "graph.avg_pool2d",
];

/// Ops that reduce over the axes their `axes` operand lists.
const REDUCTIONS: &[&str] = &[
    "graph.reduce_sum",
    "graph.reduce_mean",
    "graph.reduce_max",
    "graph.reduce_min",
    "graph.reduce_prod",
    "graph.reduce_l1",
    "graph.reduce_l2",
    "graph.reduce_sum_square",
    "graph.reduce_log_sum",
    "graph.reduce_log_sum_exp",
];

pub(super) fn rank(ctx: &Context, v: Value) -> Option<usize> {
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::RankedTensor { shape, .. } => Some(shape.len()),
        _ => None,
    }
}

pub(super) fn dims_of(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::RankedTensor { shape, .. } => Some(shape.clone()),
        _ => None,
    }
}

/// Marks `axis` padded by `sym`; another symbol there is refused.
pub(super) fn mark(p: &mut Padded, axis: usize, sym: &str) -> Result<(), String> {
    match p.get(&axis) {
        Some(other) if other != sym => {
            Err(format!("pairs padded dimensions '{other}' and '{sym}'"))
        }
        _ => {
            p.insert(axis, sym.to_string());
            Ok(())
        }
    }
}

pub(super) fn int_property(ctx: &Context, op: Operation, name: &str) -> Option<i64> {
    strata_dialects::graph::infer::attr_i64(ctx, op, name)
}

/// The padded axes of `op`'s results, from those of its operands (`of`),
/// or why padding could reach real values through it. The masks it needs
/// go to `masks`.
pub(super) fn op_rule(
    ctx: &Context,
    op: Operation,
    of: &HashMap<Value, Padded>,
    masks: &mut Vec<Mask>,
) -> Result<Vec<Padded>, String> {
    let name = ctx.op_name_str(op).to_string();
    let operands: Vec<Value> = ctx.operands(op).collect();
    let first_padded = || {
        operands
            .iter()
            .find_map(|v| of.get(v))
            .and_then(|p| p.values().next().cloned())
            .unwrap_or_default()
    };
    let broadcasting = ctx
        .op_definition(op)
        .is_some_and(|d| d.traits.results_broadcastable_shape || d.traits.elementwise);
    let out = if broadcasting
        || ctx
            .op_interface::<strata_dialects::graph::scalar::ScalarFn>(op)
            .is_some()
        || ELEMENTWISE.contains(&name.as_str())
    {
        let results: Vec<Value> = ctx.results(op).collect();
        let out_rank = results.first().and_then(|&r| rank(ctx, r)).unwrap_or(0);
        let mut p = Padded::new();
        for v in &operands {
            let (Some(r), Some(pv)) = (rank(ctx, *v), of.get(v)) else {
                continue;
            };
            for (&axis, sym) in pv {
                let at = (axis + out_rank)
                    .checked_sub(r)
                    .ok_or_else(|| format!("broadcasts dimension '{sym}' oddly"))?;
                mark(&mut p, at, sym)?;
            }
        }
        // Every operand with a padded axis must be padded there by the
        // same symbol, or broadcast from size 1: a padded operand
        // meeting a real size (or another symbol) would pair padded
        // positions with real ones.
        for v in &operands {
            let Some(d) = dims_of(ctx, *v) else { continue };
            let pv = of.get(v);
            for (&at, sym) in &p {
                let Some(axis) = (at + d.len()).checked_sub(out_rank) else {
                    continue;
                };
                let same = pv.and_then(|pv| pv.get(&axis)) == Some(sym);
                if !same && d[axis] != 1 {
                    return Err(format!(
                        "pairs dimension '{sym}' with a dimension it does not pad ({})",
                        d[axis]
                    ));
                }
            }
        }
        vec![p; results.len()]
    } else if name == "graph.matmul" {
        matmul_rule(ctx, op, &operands, of, masks)?
    } else if name == "graph.gemm" {
        gemm_rule(ctx, op, &operands, of)?
    } else if name == "graph.transpose" {
        // No perm: the axes reversed.
        let perm =
            strata_dialects::graph::infer::attr_i64_array(ctx, op, "perm").unwrap_or_else(|| {
                let r = rank(ctx, operands[0]).unwrap_or(0) as i64;
                (0..r).rev().collect()
            });
        let pv = of.get(&operands[0]).cloned().unwrap_or_default();
        let mut p = Padded::new();
        for (out_axis, &from) in perm.iter().enumerate() {
            if let Some(sym) = usize::try_from(from).ok().and_then(|f| pv.get(&f)) {
                p.insert(out_axis, sym.clone());
            }
        }
        vec![p]
    } else if ALONG_AXIS.contains(&name.as_str()) || TRAILING_AXES.contains(&name.as_str()) {
        let x = operands[0];
        let r = rank(ctx, x).unwrap_or(0) as i64;
        let axis = int_property(ctx, op, "axis").unwrap_or(-1);
        let axis = usize::try_from(if axis < 0 { axis + r } else { axis }).unwrap_or(0);
        let pv = of.get(&x).cloned().unwrap_or_default();
        for (&a, sym) in &pv {
            if TRAILING_AXES.contains(&name.as_str()) && a >= axis {
                return Err(format!("normalizes over dimension '{sym}'"));
            }
            if a == axis {
                // Padded positions become -inf: exp gives them weight 0.
                masks.push(Mask {
                    op,
                    operand: 0,
                    axis: a,
                    sym: sym.clone(),
                    fill: f64::NEG_INFINITY,
                });
            }
        }
        if operands[1..].iter().any(|v| of.contains_key(v)) {
            return Err(format!(
                "takes a padded parameter (dimension '{}')",
                first_padded()
            ));
        }
        vec![pv]
    } else if PER_SAMPLE.contains(&name.as_str()) {
        per_sample_rule(ctx, op, &operands, of)?
    } else if REDUCTIONS.contains(&name.as_str()) {
        vec![reduce_rule(ctx, op, &operands, of)?]
    } else if name == "graph.batch_norm" {
        // Inference: each element from itself and its channel's
        // statistics (dimension 1); padding elsewhere stays in its rows.
        let pv = of.get(&operands[0]).cloned().unwrap_or_default();
        if let Some(sym) = pv.get(&1) {
            return Err(format!(
                "normalizes per channel, and its channels are padded (dimension '{sym}')"
            ));
        }
        if operands[1..].iter().any(|v| of.contains_key(v)) {
            return Err(format!(
                "takes a padded parameter (dimension '{}')",
                first_padded()
            ));
        }
        vec![pv]
    } else if name == "graph.gather" {
        let (data, indices) = (operands[0], operands[1]);
        let axis = int_property(ctx, op, "axis").unwrap_or(0);
        let rd = rank(ctx, data).unwrap_or(0) as i64;
        let axis = usize::try_from(if axis < 0 { axis + rd } else { axis }).unwrap_or(0);
        let ri = rank(ctx, indices).unwrap_or(0);
        let mut p = Padded::new();
        if let Some(pd) = of.get(&data) {
            for (&a, sym) in pd {
                if a == axis {
                    return Err(format!("gathers along dimension '{sym}'"));
                }
                p.insert(if a < axis { a } else { a + ri - 1 }, sym.clone());
            }
        }
        if let Some(pi) = of.get(&indices) {
            for (&a, sym) in pi {
                p.insert(axis + a, sym.clone());
            }
        }
        vec![p]
    } else {
        return Err(format!(
            "takes a value padded along dimension '{}', and nothing proves the padding stays apart",
            first_padded()
        ));
    };
    Ok(out)
}

/// `graph.matmul`: a contracted axis padded in both operands by the same
/// symbol is masked to zeros in both (the padded terms add 0); padded in
/// one only, it is refused. Batch axes must not meet a real size.
fn matmul_rule(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    of: &HashMap<Value, Padded>,
    masks: &mut Vec<Mask>,
) -> Result<Vec<Padded>, String> {
    let (a, b) = (operands[0], operands[1]);
    let (ra, rb) = (rank(ctx, a).unwrap_or(0), rank(ctx, b).unwrap_or(0));
    let out_rank = rank(ctx, ctx.result(op, 0)).unwrap_or(0);
    // out = [batch..., M (if a is 2-D+), N (if b is 2-D+)].
    let batch_rank = out_rank
        .checked_sub(usize::from(ra >= 2) + usize::from(rb >= 2))
        .ok_or_else(|| String::from("has an unexpected result rank"))?;
    // The contracted axis of each operand, and the symbol padding it.
    let (ka, kb) = (ra.saturating_sub(1), rb.saturating_sub(2));
    let contracted = |v: Value, k: usize| of.get(&v).and_then(|p| p.get(&k)).cloned();
    match (contracted(a, ka), contracted(b, kb)) {
        (None, None) => {}
        (Some(sa), Some(sb)) if sa == sb => {
            for (operand, axis) in [(0, ka), (1, kb)] {
                masks.push(Mask {
                    op,
                    operand,
                    axis,
                    sym: sa.clone(),
                    fill: 0.0,
                });
            }
        }
        (Some(sym), _) | (None, Some(sym)) => {
            return Err(format!(
                "contracts dimension '{sym}' with a dimension it does not pad"
            ))
        }
    }
    let mut p = Padded::new();
    if let Some(pa) = of.get(&a) {
        for (&axis, sym) in pa {
            if axis == ka {
                continue;
            }
            // A batch axis (aligned right), or M.
            let at = if axis + 2 == ra {
                Some(batch_rank)
            } else {
                (axis + batch_rank).checked_sub(ra - 2)
            };
            let at = at.ok_or_else(|| format!("broadcasts dimension '{sym}'"))?;
            mark(&mut p, at, sym)?;
        }
    }
    if let Some(pb) = of.get(&b) {
        for (&axis, sym) in pb {
            if axis == kb {
                continue;
            }
            let at = if axis + 1 == rb {
                Some(out_rank - 1)
            } else {
                (axis + batch_rank).checked_sub(rb - 2)
            };
            let at = at.ok_or_else(|| format!("broadcasts dimension '{sym}'"))?;
            mark(&mut p, at, sym)?;
        }
    }
    // A padded batch axis must not meet a real size in the other
    // operand (see the broadcasting ops).
    for (v, r) in [(a, ra), (b, rb)] {
        if r < 3 {
            continue;
        }
        let Some(d) = dims_of(ctx, v) else { continue };
        for (&at, sym) in p.iter().filter(|(&at, _)| at < batch_rank) {
            let Some(axis) = (at + r - 2).checked_sub(batch_rank) else {
                continue;
            };
            let same = of.get(&v).and_then(|pv| pv.get(&axis)) == Some(sym);
            if !same && d[axis] != 1 {
                return Err(format!(
                    "pairs dimension '{sym}' with a batch dimension it does not pad"
                ));
            }
        }
    }
    Ok(vec![p])
}

/// `graph.gemm`: as a matmul of 2-D operands, with a bias padded only
/// along the product's own padded axes.
fn gemm_rule(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    of: &HashMap<Value, Padded>,
) -> Result<Vec<Padded>, String> {
    // op(a) is [M, K], op(b) is [K, N]; c broadcasts to [M, N].
    let attr = strata_dialects::graph::infer::attr_bool;
    let (ta, tb) = (attr(ctx, op, "transA"), attr(ctx, op, "transB"));
    let mut p = Padded::new();
    if let Some(pa) = of.get(&operands[0]) {
        for (&axis, sym) in pa {
            if (axis == 1) != ta {
                return Err(format!("contracts dimension '{sym}'"));
            }
            mark(&mut p, 0, sym)?;
        }
    }
    if let Some(pb) = of.get(&operands[1]) {
        for (&axis, sym) in pb {
            if (axis == 0) != tb {
                return Err(format!("contracts dimension '{sym}'"));
            }
            mark(&mut p, 1, sym)?;
        }
    }
    if let Some(pc) = operands.get(2).and_then(|c| of.get(c)) {
        let rc = rank(ctx, operands[2]).unwrap_or(0);
        for (&axis, sym) in pc {
            // c's padding must be the product's own (M or N).
            let at = (axis + 2).checked_sub(rc);
            if at.and_then(|at| p.get(&at)) != Some(sym) {
                return Err(format!(
                    "adds a bias padded along dimension '{sym}' that the product does not pad"
                ));
            }
        }
    }
    Ok(vec![p])
}

/// Convolutions and pooling: a padded batch (dimension 0) stays in its
/// samples; padding anywhere else, or in a weight, is refused.
fn per_sample_rule(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    of: &HashMap<Value, Padded>,
) -> Result<Vec<Padded>, String> {
    let pv = of.get(&operands[0]).cloned().unwrap_or_default();
    if let Some((_, sym)) = pv.iter().find(|(&axis, _)| axis != 0) {
        return Err(format!(
            "moves a window over dimension '{sym}', which is padded"
        ));
    }
    if let Some(sym) = operands[1..]
        .iter()
        .find_map(|v| of.get(v).and_then(|p| p.values().next()))
    {
        return Err(format!("takes a padded weight (dimension '{sym}')"));
    }
    Ok(vec![pv; ctx.results(op).count()])
}

/// Reductions: padded axes that are not reduced stay (renumbered without
/// `keepdims`); a reduced padded axis is refused.
fn reduce_rule(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    of: &HashMap<Value, Padded>,
) -> Result<Padded, String> {
    let pv = of.get(&operands[0]).cloned().unwrap_or_default();
    if pv.is_empty() {
        return Ok(pv);
    }
    let r = rank(ctx, operands[0]).ok_or("reduces a value of unknown rank")? as i64;
    let listed = match operands.get(1) {
        Some(&axes) => strata_dialects::graph::infer::operand_info(ctx, axes)
            .and_then(|info| info.value)
            .ok_or("reduces over axes that are not constants")?,
        None => Vec::new(),
    };
    let reduced: Vec<usize> = if listed.is_empty() {
        if strata_dialects::graph::infer::attr_bool(ctx, op, "noop_with_empty_axes") {
            return Ok(pv);
        }
        (0..r as usize).collect()
    } else {
        listed
            .iter()
            .map(|&a| usize::try_from(if a < 0 { a + r } else { a }))
            .collect::<Result<_, _>>()
            .map_err(|_| "reduces over an axis out of range")?
    };
    let keepdims = strata_dialects::graph::infer::attr_bool(ctx, op, "keepdims");
    let mut out = Padded::new();
    for (&axis, sym) in &pv {
        if reduced.contains(&axis) {
            return Err(format!("reduces over dimension '{sym}', which is padded"));
        }
        let at = if keepdims {
            axis
        } else {
            axis - reduced.iter().filter(|&&a| a < axis).count()
        };
        out.insert(at, sym.clone());
    }
    Ok(out)
}
