//! The shape function of `graph.rnn`, `graph.gru` and `graph.lstm`.

use strata_ir::{Context, Operation};

use super::{group_operand, operand, same_elem, Inferred, OperandInfo, ResultElem};
use crate::graph::recurrent::{operand as group, CellKind, RecurrentSpec};
use crate::graph::shape::{Dim, Shape};

/// `y` `[seq, directions, batch, hidden]` (`[batch, seq, directions,
/// hidden]` with `layout = 1`) and the last states `[directions, batch,
/// hidden]` (`[batch, directions, hidden]`), after checking the operands'
/// ranks and sizes against each other and the attributes.
pub(in crate::graph) fn infer_recurrent(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let spec = RecurrentSpec::of(ctx, op)?;
    let x = operand(ops, group::X)?;
    let dims = |name: &str, info: &OperandInfo, rank: usize| -> Result<Option<Vec<Dim>>, String> {
        match info.shape.dims() {
            None => Ok(None),
            Some(d) if d.len() == rank => Ok(Some(d.to_vec())),
            Some(d) => Err(format!(
                "operand '{name}' must have rank {rank}, but has shape {} (rank {})",
                info.shape,
                d.len()
            )),
        }
    };
    let layout1 = spec.layout == 1;
    let (mut seq, mut batch, mut input) = (Dim::Unknown, Dim::Unknown, Dim::Unknown);
    if let Some(d) = dims("x", x, 3)? {
        (seq, batch, input) = if layout1 {
            (d[1].clone(), d[0].clone(), d[2].clone())
        } else {
            (d[0].clone(), d[1].clone(), d[2].clone())
        };
    }
    let directions = Dim::Known(spec.directions() as i64);
    let hidden = Dim::Known(spec.hidden);
    let gh = Dim::Known(spec.kind.gates() * spec.hidden);
    // Each size an operand must have, with what it is called.
    let expect = |name: &str, info: &OperandInfo, want: &[(&Dim, &str)]| -> Result<(), String> {
        same_elem(ctx, x, info)?;
        let Some(d) = dims(name, info, want.len())? else {
            return Ok(());
        };
        for (i, (have, (w, what))) in d.iter().zip(want).enumerate() {
            if have.provably_ne(w) {
                return Err(format!(
                    "operand '{name}' has shape {}, but its dimension {i} must be {what} ({w})",
                    info.shape
                ));
            }
        }
        Ok(())
    };
    let need = |g: usize, name: &str| {
        group_operand(ctx, op, ops, g)
            .or_else(|| ops.get(g))
            .ok_or_else(|| format!("requires operand '{name}'"))
    };
    let w = need(group::W, "w")?;
    expect(
        "w",
        w,
        &[
            (&directions, "the number of directions"),
            (&gh, "gates * hidden_size"),
            (&input, "the input size"),
        ],
    )?;
    let r = need(group::R, "r")?;
    expect(
        "r",
        r,
        &[
            (&directions, "the number of directions"),
            (&gh, "gates * hidden_size"),
            (&hidden, "hidden_size"),
        ],
    )?;
    if let Some(b) = group_operand(ctx, op, ops, group::B) {
        let two = Dim::Known(2 * spec.kind.gates() * spec.hidden);
        expect(
            "b",
            b,
            &[
                (&directions, "the number of directions"),
                (&two, "2 * gates * hidden_size"),
            ],
        )?;
    }
    if let Some(l) = group_operand(ctx, op, ops, group::SEQUENCE_LENS) {
        if let Some(d) = dims("sequence_lens", l, 1)? {
            if d[0].provably_ne(&batch) {
                return Err(format!(
                    "operand 'sequence_lens' has shape {}, but must hold one length per batch row ({batch})",
                    l.shape
                ));
            }
        }
    }
    let state: Vec<(&Dim, &str)> = if layout1 {
        vec![
            (&batch, "the batch size"),
            (&directions, "the number of directions"),
            (&hidden, "hidden_size"),
        ]
    } else {
        vec![
            (&directions, "the number of directions"),
            (&batch, "the batch size"),
            (&hidden, "hidden_size"),
        ]
    };
    if let Some(h) = group_operand(ctx, op, ops, group::INITIAL_H) {
        expect("initial_h", h, &state)?;
    }
    if spec.kind == CellKind::Lstm {
        if let Some(c) = group_operand(ctx, op, ops, group::INITIAL_C) {
            expect("initial_c", c, &state)?;
        }
        if let Some(p) = group_operand(ctx, op, ops, group::P) {
            let three = Dim::Known(3 * spec.hidden);
            expect(
                "p",
                p,
                &[
                    (&directions, "the number of directions"),
                    (&three, "3 * hidden_size"),
                ],
            )?;
        }
    }
    let y = if layout1 {
        vec![batch.clone(), seq, directions.clone(), hidden.clone()]
    } else {
        vec![seq, directions.clone(), batch.clone(), hidden.clone()]
    };
    let last = Shape::ranked(state.iter().map(|(d, _)| (*d).clone()).collect());
    let elem = ResultElem::Of(x.elem);
    let mut results = vec![(Shape::ranked(y), elem), (last.clone(), elem)];
    if spec.kind == CellKind::Lstm {
        results.push((last, elem));
    }
    Ok(results)
}

/// `output` `[batch, seq, q_heads * d_v]` and `present_state` `[batch,
/// kv_heads, d_k, d_v]`, after checking the operands' ranks and packed
/// head sizes against each other, and the optional operands against the
/// update rule.
pub(in crate::graph) fn infer_linear_attention(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    use crate::graph::linear_attention::{operand as la, LinearAttentionSpec};
    let spec = LinearAttentionSpec::of(ctx, op)?;
    let (q, k, v) = (
        operand(ops, la::QUERY)?,
        operand(ops, la::KEY)?,
        operand(ops, la::VALUE)?,
    );
    let rank3 = |name: &str, info: &OperandInfo| -> Result<Option<Vec<Dim>>, String> {
        same_elem(ctx, q, info)?;
        match info.shape.dims() {
            None => Ok(None),
            Some(d) if d.len() == 3 => Ok(Some(d.to_vec())),
            Some(d) => Err(format!(
                "operand '{name}' must have rank 3 ([batch, seq, heads * size]), but has shape {} (rank {})",
                info.shape,
                d.len()
            )),
        }
    };
    let (qh, kvh) = (Dim::Known(spec.q_heads), Dim::Known(spec.kv_heads));
    // A packed size split into heads: the head size, where known.
    let per_head = |name: &str, packed: &Dim, heads: &Dim| -> Result<Dim, String> {
        match (packed, heads) {
            (Dim::Known(p), Dim::Known(h)) if p % h != 0 => Err(format!(
                "operand '{name}' packs {p} values per token, not a multiple of its {h} heads"
            )),
            _ => Ok(packed.div_exact(heads).unwrap_or(Dim::Unknown)),
        }
    };
    let (mut batch, mut seq) = (Dim::Unknown, Dim::Unknown);
    let (mut dk, mut dv) = (Dim::Unknown, Dim::Unknown);
    // Batch and sequence sizes agree across the rank-3 operands.
    let mut leading = |name: &str, d: &[Dim]| -> Result<(), String> {
        for (have, what, slot) in [(&d[0], "batch", &mut batch), (&d[1], "sequence", &mut seq)] {
            if have.provably_ne(slot) {
                return Err(format!(
                    "operand '{name}' has {what} size {have}, but query's is {slot}"
                ));
            }
            if slot.known().is_none() {
                *slot = have.clone();
            }
        }
        Ok(())
    };
    if let Some(d) = rank3("query", q)? {
        leading("query", &d)?;
        dk = per_head("query", &d[2], &qh)?;
    }
    if let Some(d) = rank3("key", k)? {
        leading("key", &d)?;
        let want = dk.mul(&kvh);
        if d[2].provably_ne(&want) {
            return Err(format!(
                "operand 'key' packs {} values per token, but kv_num_heads * d_k is {want}",
                d[2]
            ));
        }
        if dk.known().is_none() {
            dk = per_head("key", &d[2], &kvh)?;
        }
    }
    if let Some(d) = rank3("value", v)? {
        leading("value", &d)?;
        dv = per_head("value", &d[2], &kvh)?;
    }
    let decay = group_operand(ctx, op, ops, la::DECAY);
    let beta = group_operand(ctx, op, ops, la::BETA);
    match (spec.rule.gated(), decay.is_some()) {
        (true, false) => return Err("update rule requires a decay operand".into()),
        (false, true) => return Err("update rule takes no decay operand".into()),
        _ => {}
    }
    match (spec.rule.delta(), beta.is_some()) {
        (true, false) => return Err("update rule requires a beta operand".into()),
        (false, true) => return Err("update rule takes no beta operand".into()),
        _ => {}
    }
    if let Some(g) = decay {
        if let Some(d) = rank3("decay", g)? {
            leading("decay", &d)?;
            let per_key = kvh.mul(&dk);
            if d[2].provably_ne(&kvh) && d[2].provably_ne(&per_key) {
                return Err(format!(
                    "operand 'decay' has {} values per token; expected kv_num_heads ({kvh}) or kv_num_heads * d_k ({per_key})",
                    d[2]
                ));
            }
        }
    }
    if let Some(b) = beta {
        if let Some(d) = rank3("beta", b)? {
            leading("beta", &d)?;
            if d[2].provably_ne(&kvh) && d[2].provably_ne(&Dim::Known(1)) {
                return Err(format!(
                    "operand 'beta' has {} values per token; expected kv_num_heads ({kvh}) or 1",
                    d[2]
                ));
            }
        }
    }
    let state = vec![batch.clone(), kvh.clone(), dk.clone(), dv.clone()];
    let mut state_elem = q.elem;
    if let Some(p) = group_operand(ctx, op, ops, la::PAST_STATE) {
        state_elem = p.elem;
        if let Some(d) = p.shape.dims() {
            let fits = d.len() == 4 && d.iter().zip(&state).all(|(a, b)| !a.provably_ne(b));
            if !fits {
                return Err(format!(
                    "operand 'past_state' has shape {}, but must be [batch, kv_num_heads, d_k, d_v] ({})",
                    p.shape,
                    Shape::ranked(state)
                ));
            }
        }
    }
    let out = vec![batch, seq, qh.mul(&dv)];
    Ok(vec![
        (Shape::ranked(out), ResultElem::Of(q.elem)),
        (Shape::ranked(state), ResultElem::Of(state_elem)),
    ])
}
