//! The padding proof's rules for ops shaped by sizes ([`super::shapes`]):
//! `range`, `constant_of_shape`, `expand`, `reshape`, `flatten`,
//! `(un)squeeze`, `slice`, `gather_elements`, and `gather` by positions or
//! at position 0; and arithmetic on positions.

use std::collections::BTreeMap;

use strata_dialects::graph::infer::{attr_bool, attr_i64};
use strata_dialects::graph::shape::Dim;
use strata_ir::{Context, Operation, Value};

use super::rules::{dims_of, rank};
use super::shapes::{
    evaluate, product, shown, simple, slice_group, Fact, Facts, Merged, Positions,
};
use super::Padded;

/// What padding makes of `op`'s results when `op` computes with sizes,
/// positions or merged values, or is shaped by them; `None` when none of
/// these rules applies (the plain rules then decide).
pub(crate) fn rule(
    ctx: &Context,
    op: Operation,
    facts: &Facts,
) -> Option<Result<Vec<Fact>, String>> {
    if let Some(sizes) = evaluate(ctx, op, facts) {
        return Some(sizes.map(|s| vec![Fact::sizes(s)]));
    }
    let operands: Vec<Value> = ctx.operands(op).collect();
    let one = |r: Result<Fact, String>| Some(r.map(|f| vec![f]));
    match ctx.op_name_str(op) {
        "graph.range" => one(range(ctx, &operands, facts)),
        "graph.constant_of_shape" => one(constant_of_shape(ctx, &operands, facts)),
        "graph.expand" => one(expand(ctx, &operands, facts)),
        "graph.reshape" => one(reshape(ctx, op, &operands, facts)),
        "graph.flatten" => one(flatten(ctx, op, &operands, facts)),
        "graph.unsqueeze" | "graph.squeeze" => one(squeeze(ctx, op, &operands, facts)),
        "graph.slice" => one(slice(ctx, op, &operands, facts)),
        "graph.gather_elements" => one(gather_elements(ctx, op, &operands, facts)),
        "graph.gather" => gather(ctx, op, &operands, facts).map(|r| r.map(|f| vec![f])),
        "graph.add" | "graph.mul" | "graph.cast" | "graph.identity"
            if operands.iter().any(|v| facts.positions_of(*v).is_some()) =>
        {
            match positions_arith(ctx, op, &operands, facts) {
                Ok(f) => Some(Ok(vec![f])),
                // Plain padded values (positions with static steps) may
                // still be plain data to the elementwise rules.
                Err(_) if operands.iter().all(|v| facts.opaque(*v).is_none()) => None,
                Err(e) => Some(Err(e)),
            }
        }
        _ => None,
    }
}

/// Positions computed from static sizes only (`range(0, 4)`, moved and
/// scaled): recorded so that they may meet padded sizes later; `None`
/// for other ops.
pub(crate) fn static_positions(ctx: &Context, op: Operation, facts: &Facts) -> Option<Fact> {
    let operands: Vec<Value> = ctx.operands(op).collect();
    match ctx.op_name_str(op) {
        "graph.range" => range(ctx, &operands, facts).ok(),
        "graph.unsqueeze" | "graph.squeeze" if facts.positions_of(operands[0]).is_some() => {
            squeeze(ctx, op, &operands, facts).ok()
        }
        "graph.add" | "graph.mul" | "graph.cast" | "graph.identity"
            if operands.iter().any(|v| facts.positions_of(*v).is_some()) =>
        {
            positions_arith(ctx, op, &operands, facts).ok()
        }
        _ => None,
    }
}

/// The padded axes of a shape: those sized by one padded symbol; a
/// product of them (`batch*seq`) is refused.
fn padded_axes(dims: &[Dim]) -> Result<Padded, String> {
    let mut p = Padded::new();
    for (axis, d) in dims.iter().enumerate() {
        match d {
            Dim::Known(_) => {}
            _ => match simple(d) {
                Some(sym) => {
                    p.insert(axis, sym.to_string());
                }
                None => {
                    return Err(format!(
                        "sizes a dimension by '{d}', which merges padded dimensions"
                    ))
                }
            },
        }
    }
    Ok(p)
}

/// The sizes of `v`, or an error naming what they were for.
fn sizes_of(ctx: &Context, facts: &Facts, v: Value, what: &str) -> Result<Vec<Dim>, String> {
    facts.elems(ctx, v).ok_or_else(|| {
        format!("takes a {what} computed from padded values in a way the proof does not follow")
    })
}

/// `range(0, size, 1)`: the positions along a padded axis, its real ones
/// first.
fn range(ctx: &Context, operands: &[Value], facts: &Facts) -> Result<Fact, String> {
    let scalar = |i: usize| -> Result<Dim, String> {
        let v = sizes_of(ctx, facts, operands[i], "range bound")?;
        match v.as_slice() {
            [d] => Ok(d.clone()),
            _ => Err("takes a range bound that is not a scalar".into()),
        }
    };
    let (start, limit, delta) = (scalar(0)?, scalar(1)?, scalar(2)?);
    match (start, simple(&limit).or(limit.known().map(|_| "")), delta) {
        (Dim::Known(0), Some(sym), Dim::Known(1)) => Ok(Fact {
            padded: if sym.is_empty() {
                Padded::new()
            } else {
                [(0, sym.to_string())].into_iter().collect()
            },
            positions: Some(Positions {
                terms: [(0, Dim::Known(1))].into_iter().collect(),
                offset: 0,
                shape: vec![limit.clone()],
            }),
            ..Fact::default()
        }),
        (start, _, delta) => Err(format!(
            "makes a range from {start} to the size '{limit}' by {delta}: only 0 to a padded size by 1 keeps the real positions first"
        )),
    }
}

/// A constant fill, padded along the axes a padded size gives it.
fn constant_of_shape(ctx: &Context, operands: &[Value], facts: &Facts) -> Result<Fact, String> {
    let shape = sizes_of(ctx, facts, operands[0], "shape")?;
    Ok(Fact::padded(padded_axes(&shape)?))
}

/// Broadcast to a shape whose padded elements meet a size-1 axis or the
/// same padded axis.
fn expand(ctx: &Context, operands: &[Value], facts: &Facts) -> Result<Fact, String> {
    if let Some(why) = facts.opaque(operands[0]) {
        return Err(format!("expands a value that {why}"));
    }
    let x = facts
        .dims(ctx, operands[0])
        .ok_or("expands a value of unknown shape")?;
    let shape = sizes_of(ctx, facts, operands[1], "shape")?;
    let r = x.len().max(shape.len());
    let mut out = Vec::with_capacity(r);
    for o in 0..r {
        let xd = (o + x.len()).checked_sub(r).map(|a| x[a].clone());
        let sd = (o + shape.len()).checked_sub(r).map(|a| shape[a].clone());
        out.push(match (xd, sd) {
            (Some(d), None) | (None, Some(d)) => d,
            (Some(Dim::Known(1)), Some(b)) => b,
            (Some(a), Some(b)) if b == Dim::Known(1) || a == b => a,
            (Some(a), Some(b)) => {
                return Err(format!("expands dimension '{a}' to '{b}'"));
            }
            (None, None) => Dim::Known(1),
        });
    }
    Ok(Fact::padded(padded_axes(&out)?))
}

/// Whether a reshape from `from` to `to` (sizes, `1`s dropped) keeps
/// every padded dimension whole: between consecutive padded dimensions
/// the static sizes multiply to the same product on both sides, and the
/// padded dimensions come in the same order. Row-major order then maps
/// each real position to the same real position.
fn keeps_padded_whole(from: &[Dim], to: &[Dim]) -> bool {
    let run = |dims: &[Dim], i: &mut usize| -> Option<(i64, Option<Dim>)> {
        let mut p: i64 = 1;
        while let Some(d) = dims.get(*i) {
            *i += 1;
            match d {
                Dim::Known(n) => p = p.checked_mul(*n)?,
                _ => return simple(d).map(|_| (p, Some(d.clone()))),
            }
        }
        Some((p, None))
    };
    let (mut i, mut j) = (0, 0);
    loop {
        match (run(from, &mut i), run(to, &mut j)) {
            (Some((pa, a)), Some((pb, b))) if pa == pb && a == b => {
                if a.is_none() {
                    return true;
                }
            }
            _ => return false,
        }
    }
}

/// The target of a reshape of `from`, its `0`s (unless `allowzero`)
/// copied and its `-1` inferred.
fn reshape_target(from: &[Dim], target: &[Dim], allowzero: bool) -> Result<Vec<Dim>, String> {
    let mut out: Vec<Dim> = target
        .iter()
        .enumerate()
        .map(|(i, d)| match d {
            Dim::Known(0) if !allowzero => from.get(i).cloned().unwrap_or(Dim::Known(0)),
            _ => d.clone(),
        })
        .collect();
    if let Some(at) = out.iter().position(|d| *d == Dim::Known(-1)) {
        let known = product(
            &out.iter()
                .enumerate()
                .filter(|&(i, _)| i != at)
                .map(|(_, d)| d.clone())
                .collect::<Vec<_>>(),
        );
        out[at] = product(from)
            .div_exact(&known)
            .filter(|d| *d != Dim::Unknown)
            .ok_or_else(|| {
                format!(
                    "infers a dimension of {} from {} that the proof cannot follow",
                    shown(target),
                    shown(from)
                )
            })?;
    }
    Ok(out)
}

/// A reshape that keeps the padded dimensions whole, merges them into a
/// leading axis ([`Merged`]), or splits a merged axis back.
fn reshape(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    facts: &Facts,
) -> Result<Fact, String> {
    if let Some(why) = facts.opaque_except(operands[0], true, false) {
        return Err(format!("reshapes a value that {why}"));
    }
    let merged = facts.merged_of(operands[0]);
    let from: Vec<Dim> = match merged {
        Some(m) => m
            .dims
            .iter()
            .cloned()
            .chain(m.tail.iter().map(|&n| Dim::Known(n)))
            .collect(),
        None => facts
            .dims(ctx, operands[0])
            .ok_or("reshapes a value of unknown shape")?,
    };
    let target = sizes_of(ctx, facts, operands[1], "shape")?;
    let to = reshape_target(
        &facts.dims(ctx, operands[0]).unwrap_or_default(),
        &target,
        attr_bool(ctx, op, "allowzero"),
    )?;
    let not_one = |d: &&Dim| **d != Dim::Known(1);
    let (a, b): (Vec<Dim>, Vec<Dim>) = (
        from.iter().filter(not_one).cloned().collect(),
        to.iter().filter(not_one).cloned().collect(),
    );
    if keeps_padded_whole(&a, &b) {
        return Ok(Fact::padded(padded_axes(&to)?));
    }
    // Everything merged into the leading axis, static axes after it.
    if let Some(merged) = merge(&from, &to) {
        return Ok(merged);
    }
    let sym = from.iter().find(|d| d.known().is_none());
    Err(format!(
        "merges or splits dimension '{}' ({} to {})",
        sym.map_or_else(|| "?".to_string(), ToString::to_string),
        shown(&from),
        shown(&to)
    ))
}

/// `from` reshaped to `to` = `[merged, tail...]` where the tail is static
/// and ends `from`: the leading dimensions merged.
fn merge(from: &[Dim], to: &[Dim]) -> Option<Fact> {
    let (first, tail) = to.split_first()?;
    let tail: Vec<i64> = tail.iter().map(Dim::known).collect::<Option<_>>()?;
    let want: i64 = tail.iter().product();
    let (mut j, mut have) = (from.len(), 1i64);
    while have != want {
        j = j.checked_sub(1)?;
        have = have.checked_mul(from[j].known()?)?;
        if have > want {
            return None;
        }
    }
    let dims = from[..j].to_vec();
    (product(&dims) == *first).then(|| leading(dims, tail))
}

/// A value whose first axis merges `dims`: padded along it if only one
/// padded dimension (and no other size) is merged.
fn leading(dims: Vec<Dim>, tail: Vec<i64>) -> Fact {
    let rest: Vec<&Dim> = dims.iter().filter(|d| **d != Dim::Known(1)).collect();
    match rest.as_slice() {
        [] => Fact::default(),
        // One padded dimension (the others 1): padded along the merged
        // axis, and still known as merged for a gather by positions.
        [d] if simple(d).is_some() => Fact {
            padded: [(0, simple(d).unwrap_or_default().to_string())]
                .into_iter()
                .collect(),
            merged: Some(Merged {
                dims: dims.clone(),
                tail,
            }),
            ..Fact::default()
        },
        _ if rest.iter().all(|d| d.known().is_some()) => Fact::default(),
        _ => Fact {
            merged: Some(Merged { dims, tail }),
            ..Fact::default()
        },
    }
}

/// `flatten(x, axis)`: the axes before `axis` merged into the first, the
/// others (which must not be padded) into the second.
fn flatten(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    facts: &Facts,
) -> Result<Fact, String> {
    if let Some(why) = facts.opaque(operands[0]) {
        return Err(format!("flattens a value that {why}"));
    }
    let dims = facts
        .dims(ctx, operands[0])
        .ok_or("flattens a value of unknown shape")?;
    let r = dims.len() as i64;
    let axis = attr_i64(ctx, op, "axis").unwrap_or(1);
    let axis = usize::try_from(if axis < 0 { axis + r } else { axis })
        .ok()
        .filter(|&a| a <= dims.len())
        .ok_or("has an axis out of range")?;
    let tail: Option<Vec<i64>> = dims[axis..].iter().map(Dim::known).collect();
    let Some(tail) = tail else {
        return Err(format!(
            "merges padded dimensions after axis {axis} ({})",
            shown(&dims)
        ));
    };
    Ok(leading(dims[..axis].to_vec(), vec![tail.iter().product()]))
}

/// `unsqueeze` and `squeeze`: padded axes and positions move with the
/// axes around them; a squeezed axis must not be padded.
fn squeeze(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    facts: &Facts,
) -> Result<Fact, String> {
    if let Some(why) = facts.opaque_except(operands[0], false, true) {
        return Err(format!("moves the axes of a value that {why}"));
    }
    let dims = facts
        .dims(ctx, operands[0])
        .ok_or("moves the axes of a value of unknown shape")?;
    let out_rank = rank(ctx, ctx.result(op, 0)).ok_or("has an unranked result")?;
    // Input axis -> result axis.
    let mut to = BTreeMap::new();
    if ctx.op_name_str(op) == "graph.unsqueeze" {
        let axes = sizes_of(ctx, facts, operands[1], "list of axes")?;
        let mut inserted = Vec::new();
        for a in &axes {
            let a = a.known().ok_or("inserts axes computed from sizes")?;
            let a = if a < 0 { a + out_rank as i64 } else { a };
            inserted.push(usize::try_from(a).map_err(|_| "inserts an axis out of range")?);
        }
        let mut next = 0;
        for o in 0..out_rank {
            if !inserted.contains(&o) {
                to.insert(next, o);
                next += 1;
            }
        }
    } else {
        let removed: Vec<usize> = match operands.get(1) {
            Some(&v) => {
                let axes = sizes_of(ctx, facts, v, "list of axes")?;
                let r = dims.len() as i64;
                axes.iter()
                    .map(|a| {
                        let a = a.known().ok_or("squeezes axes computed from sizes")?;
                        usize::try_from(if a < 0 { a + r } else { a })
                            .map_err(|_| "squeezes an axis out of range")
                    })
                    .collect::<Result<_, _>>()?
            }
            None => {
                // Which axes go depends on the sizes: a padded one of real
                // size 1 would go in the real run only.
                if let Some(d) = dims.iter().find(|d| d.known().is_none()) {
                    return Err(format!(
                        "squeezes every axis of size 1 of a value sized by '{d}'"
                    ));
                }
                let stat = dims_of(ctx, operands[0]).unwrap_or_default();
                (0..stat.len()).filter(|&a| stat[a] == 1).collect()
            }
        };
        let mut next = 0;
        for (a, d) in dims.iter().enumerate() {
            if removed.contains(&a) {
                if d.known().is_none() {
                    return Err(format!("squeezes dimension '{d}'"));
                }
                continue;
            }
            to.insert(a, next);
            next += 1;
        }
    }
    let mut padded = Padded::new();
    for (a, sym) in facts.padded.get(&operands[0]).into_iter().flatten() {
        padded.insert(
            *to.get(a).ok_or("moves a padded axis out of range")?,
            sym.clone(),
        );
    }
    let positions = facts.positions_of(operands[0]).map(|p| {
        let mut shape = vec![Dim::Known(1); out_rank];
        for (a, d) in p.shape.iter().enumerate() {
            if let Some(&o) = to.get(&a) {
                shape[o] = d.clone();
            }
        }
        Positions {
            terms: p
                .terms
                .iter()
                .filter_map(|(a, c)| to.get(a).map(|&o| (o, c.clone())))
                .collect(),
            offset: p.offset,
            shape,
        }
    });
    Ok(Fact {
        padded,
        positions,
        ..Fact::default()
    })
}

/// A slice that keeps a padded axis whole (`0` to its size, or to the
/// end), or cuts a static axis to a padded size from its start (position
/// ids from a table): the real positions come first either way.
fn slice(ctx: &Context, op: Operation, operands: &[Value], facts: &Facts) -> Result<Fact, String> {
    if let Some(why) = facts.opaque(operands[0]) {
        return Err(format!("slices a value that {why}"));
    }
    let dims = facts
        .dims(ctx, operands[0])
        .ok_or("slices a value of unknown shape")?;
    let group = |g: usize, what: &str| -> Result<Option<Vec<Dim>>, String> {
        slice_group(ctx, op, facts, g).ok_or_else(|| {
            format!(
                "takes slice {what} computed from padded values in a way the proof does not follow"
            )
        })
    };
    let starts = group(1, "starts")?.unwrap_or_default();
    let ends = group(2, "ends")?.unwrap_or_default();
    let r = dims.len() as i64;
    let axes: Vec<usize> = match group(3, "axes")? {
        Some(a) => a
            .iter()
            .map(|d| {
                let a = d.known().ok_or("slices axes computed from sizes")?;
                usize::try_from(if a < 0 { a + r } else { a })
                    .map_err(|_| "slices an axis out of range")
            })
            .collect::<Result<_, _>>()?,
        None => (0..starts.len()).collect(),
    };
    let steps = group(4, "steps")?.unwrap_or_else(|| vec![Dim::Known(1); axes.len()]);
    let out = dims_of(ctx, ctx.result(op, 0)).ok_or("has an unranked result")?;
    let mut padded = facts.padded.get(&operands[0]).cloned().unwrap_or_default();
    for (i, &axis) in axes.iter().enumerate() {
        let (start, end, step) = (
            starts.get(i).ok_or("has fewer starts than axes")?,
            ends.get(i).ok_or("has fewer ends than axes")?,
            steps.get(i).ok_or("has fewer steps than axes")?,
        );
        let dim = dims.get(axis).ok_or("slices an axis out of range")?;
        let whole = |e: &Dim| e == dim || e.known().is_some_and(|e| e >= i64::from(i32::MAX));
        let from_start = *start == Dim::Known(0) && *step == Dim::Known(1);
        match (dim.known(), simple(end)) {
            // A padded axis kept whole.
            (None, _) if from_start && whole(end) => {}
            // A static axis cut to a padded size: the bucket's size must
            // fit in it (the real size then does too).
            (Some(_), Some(sym)) if from_start => {
                if facts.bucket_size(sym) != out.get(axis).copied() {
                    return Err(format!(
                        "slices {} elements of an axis of {} for dimension '{sym}'",
                        facts.bucket_size(sym).unwrap_or(-1),
                        dim
                    ));
                }
                padded.insert(axis, sym.to_string());
            }
            // A static axis sliced by static bounds stays static.
            (Some(_), None) if [start, end, step].iter().all(|d| d.known().is_some()) => {}
            _ => {
                return Err(format!(
                    "slices dimension '{dim}' from {start} to {end} by {step}"
                ))
            }
        }
    }
    Ok(Fact::padded(padded))
}

/// `gather_elements` along an axis that is not padded in its data: the
/// result is padded where its indices are; other axes pair equal padding.
fn gather_elements(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    facts: &Facts,
) -> Result<Fact, String> {
    for v in operands {
        if let Some(why) = facts.opaque(*v) {
            return Err(format!("gathers with a value that {why}"));
        }
    }
    let (data, indices) = (operands[0], operands[1]);
    let r = rank(ctx, data).unwrap_or(0) as i64;
    let axis = attr_i64(ctx, op, "axis").unwrap_or(0);
    let axis = usize::try_from(if axis < 0 { axis + r } else { axis })
        .map_err(|_| "has an axis out of range")?;
    let (pd, pi) = (
        facts.padded.get(&data).cloned().unwrap_or_default(),
        facts.padded.get(&indices).cloned().unwrap_or_default(),
    );
    if let Some(sym) = pd.get(&axis) {
        return Err(format!("gathers along dimension '{sym}'"));
    }
    for (a, sym) in &pd {
        if pi.get(a) != Some(sym) {
            return Err(format!(
                "pairs dimension '{sym}' of its data with indices it does not pad"
            ));
        }
    }
    for (a, sym) in &pi {
        if *a != axis && pd.get(a) != Some(sym) {
            let d = dims_of(ctx, data).and_then(|d| d.get(*a).copied());
            return Err(format!(
                "pairs dimension '{sym}' of its indices with a data dimension of {}",
                d.unwrap_or(-1)
            ));
        }
    }
    Ok(Fact::padded(pi))
}

/// `gather` from a merged value by positions that undo the merge, or at
/// position 0 along a padded axis (the first token); `None` for the
/// plain rule.
fn gather(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    facts: &Facts,
) -> Option<Result<Fact, String>> {
    let (data, indices) = (operands[0], operands[1]);
    let rd = rank(ctx, data).unwrap_or(0) as i64;
    let axis = attr_i64(ctx, op, "axis").unwrap_or(0);
    let axis = usize::try_from(if axis < 0 { axis + rd } else { axis }).unwrap_or(0);
    if let Some(m) = facts.merged_of(data) {
        return Some(match (axis, facts.positions_of(indices)) {
            (0, Some(p)) => unmerge(m, p),
            // Merged from one padded dimension: a padded value as well.
            _ if facts.padded.contains_key(&data) => return None,
            _ => Err(format!(
                "gathers from merged padded dimensions {} by indices the proof cannot follow",
                shown(&m.dims)
            )),
        });
    }
    if let Some(why) = past_the_end(ctx, data, axis, indices, facts) {
        return Some(Err(why));
    }
    let pd = facts.padded.get(&data)?;
    pd.get(&axis)?;
    if facts.reached(indices) {
        return None;
    }
    let at_zero = facts
        .elems(ctx, indices)
        .is_some_and(|v| v.iter().all(|d| *d == Dim::Known(0)));
    if !at_zero {
        return None;
    }
    let ri = rank(ctx, indices).unwrap_or(0);
    let mut p = Padded::new();
    for (&a, sym) in pd {
        if a != axis {
            p.insert(if a < axis { a } else { a + ri - 1 }, sym.clone());
        }
    }
    Some(Ok(Fact::padded(p)))
}

/// Why the positions `indices` would run past the end of `data`'s static
/// `axis` at the bucket's sizes, if they would: the padded run would then
/// fail where the real one (smaller positions) succeeds.
fn past_the_end(
    ctx: &Context,
    data: Value,
    axis: usize,
    indices: Value,
    facts: &Facts,
) -> Option<String> {
    let p = facts.positions_of(indices)?;
    let limit = *dims_of(ctx, data)?.get(axis)?;
    if facts
        .padded
        .get(&data)
        .is_some_and(|d| d.contains_key(&axis))
    {
        return None;
    }
    let (mut max, mut padded) = (p.offset, false);
    for (a, c) in &p.terms {
        let c = c.known().filter(|&c| c >= 0)?;
        let n = match p.shape.get(*a)? {
            Dim::Known(n) => *n,
            d => {
                padded = true;
                facts.bucket_size(simple(d)?)?
            }
        };
        max = max.checked_add(c.checked_mul(n.checked_sub(1)?)?)?;
    }
    (padded && max >= limit).then(|| {
        format!("gathers position {max} of an axis of {limit} at the bucket's sizes, past its end")
    })
}

/// A gather from `m` by positions `Σ stride(k) * position(axis k)`, each
/// `axis k` as long as merged dimension `k`: it reads element
/// `[position(axis 0), position(axis 1), ...]` of the unmerged value, the
/// same real element in the padded run as in the real one.
fn unmerge(m: &Merged, p: &Positions) -> Result<Fact, String> {
    let refuse = || {
        let terms: Vec<String> = p
            .terms
            .iter()
            .map(|(a, c)| format!("{c}*position({a})"))
            .collect();
        Err(format!(
            "gathers from merged dimensions {} at {} + {}, which the proof cannot match to them",
            shown(&m.dims),
            terms.join(" + "),
            p.offset
        ))
    };
    if p.offset != 0 {
        return refuse();
    }
    let mut terms: BTreeMap<usize, Dim> = p
        .terms
        .iter()
        .filter(|(a, _)| p.shape.get(**a) != Some(&Dim::Known(1)))
        .map(|(a, c)| (*a, c.clone()))
        .collect();
    for k in 0..m.dims.len() {
        if m.dims[k] == Dim::Known(1) {
            continue;
        }
        let stride = product(&m.dims[k + 1..]);
        let found = terms
            .iter()
            .find(|(a, c)| **c == stride && p.shape.get(**a) == Some(&m.dims[k]))
            .map(|(a, _)| *a);
        match found {
            Some(a) => {
                terms.remove(&a);
            }
            None => return refuse(),
        }
    }
    if !terms.is_empty() {
        return refuse();
    }
    Ok(Fact::padded(padded_axes(&p.shape)?))
}

/// Positions scaled by a size, offset by a constant, added to other
/// positions, or cast.
fn positions_arith(
    ctx: &Context,
    op: Operation,
    operands: &[Value],
    facts: &Facts,
) -> Result<Fact, String> {
    let name = ctx.op_name_str(op);
    let out_rank = rank(ctx, ctx.result(op, 0)).ok_or("has an unranked result")?;
    // A positions operand aligned to the result's rank (broadcasting).
    let aligned = |v: Value| -> Option<Positions> {
        let p = facts.positions_of(v)?;
        let shift = out_rank.checked_sub(p.shape.len())?;
        let mut shape = vec![Dim::Known(1); shift];
        shape.extend(p.shape.iter().cloned());
        Some(Positions {
            terms: p
                .terms
                .iter()
                .map(|(a, c)| (a + shift, c.clone()))
                .collect(),
            offset: p.offset,
            shape,
        })
    };
    let scalar = |v: Value| -> Option<Dim> {
        match facts.elems(ctx, v)?.as_slice() {
            [d] => Some(d.clone()),
            _ => None,
        }
    };
    let refuse = || {
        Err(format!(
            "computes '{}' on positions in a way the proof does not follow",
            name.trim_start_matches("graph.")
        ))
    };
    let out = match name {
        "graph.cast" | "graph.identity" => match aligned(operands[0]) {
            // Positions (of sizes that fit in 32 bits) survive a cast to
            // a wide integer type only.
            Some(p)
                if super::shapes::int_width(ctx, ctx.result(op, 0)).is_some_and(|w| w >= 32) =>
            {
                p
            }
            _ => return refuse(),
        },
        "graph.mul" => {
            let (p, s) = match (aligned(operands[0]), aligned(operands[1])) {
                (Some(p), None) => (p, scalar(operands[1])),
                (None, Some(p)) => (p, scalar(operands[0])),
                _ => return refuse(),
            };
            let Some(s) = s else { return refuse() };
            let offset = match (p.offset, s.known()) {
                (0, _) => 0,
                (o, Some(k)) => match o.checked_mul(k) {
                    Some(v) => v,
                    None => return refuse(),
                },
                _ => return refuse(),
            };
            let mut terms = BTreeMap::new();
            for (a, c) in &p.terms {
                let c = c.mul(&s);
                if c == Dim::Unknown {
                    return refuse();
                }
                terms.insert(*a, c);
            }
            Positions {
                terms,
                offset,
                shape: p.shape,
            }
        }
        "graph.add" => match (aligned(operands[0]), aligned(operands[1])) {
            (Some(a), Some(b)) => {
                let mut shape = Vec::with_capacity(out_rank);
                for (x, y) in a.shape.iter().zip(&b.shape) {
                    shape.push(match (x, y) {
                        _ if x == y => x.clone(),
                        (Dim::Known(1), _) => y.clone(),
                        (_, Dim::Known(1)) => x.clone(),
                        _ => return refuse(),
                    });
                }
                let mut terms = a.terms.clone();
                for (ax, c) in b.terms {
                    let sum = terms.get(&ax).map_or(c.clone(), |t| t.add(&c));
                    if sum == Dim::Unknown {
                        return refuse();
                    }
                    terms.insert(ax, sum);
                }
                let Some(offset) = a.offset.checked_add(b.offset) else {
                    return refuse();
                };
                Positions {
                    terms,
                    offset,
                    shape,
                }
            }
            (Some(p), None) | (None, Some(p)) => {
                let other = if facts.positions_of(operands[0]).is_some() {
                    operands[1]
                } else {
                    operands[0]
                };
                let Some(k) = scalar(other).and_then(|d| d.known()) else {
                    return refuse();
                };
                let Some(offset) = p.offset.checked_add(k) else {
                    return refuse();
                };
                Positions { offset, ..p }
            }
            _ => return refuse(),
        },
        _ => return refuse(),
    };
    // Positions with static coefficients are the same numbers in the real
    // run: plain padded values as well.
    let plain = out.terms.values().all(|c| c.known().is_some());
    let padded = if plain {
        padded_axes(&out.shape)?
    } else {
        Padded::new()
    };
    Ok(Fact {
        padded,
        positions: Some(out),
        ..Fact::default()
    })
}
