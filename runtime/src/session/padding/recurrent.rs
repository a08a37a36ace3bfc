//! The padding proof for `graph.rnn`, `graph.gru` and `graph.lstm`.
//!
//! A batch row of a recurrent layer never meets another: padding along the
//! batch stays in its rows. Padding along the sequence would run the cell
//! over padded steps, which changes the last state (`y_h`, `y_c`) and
//! everything the reverse direction computes. The layer's own
//! `sequence_lens` is what ONNX gives for this: a row stops at its length
//! (later outputs are 0, the last state is the one at the length, the
//! reverse direction starts there). A layer without one gets the real
//! length of the padded symbol as its `sequence_lens` ([`SequenceLens`]);
//! one that has its own (at most the real length, as the model requires)
//! already stops before the padding.

use strata_dialects::graph::emit::Emitter;
use strata_dialects::graph::infer::{attr_i64, operand_segments};
use strata_dialects::graph::recurrent::{operand as group, operand_value as operand, CellKind};
use strata_ir::attributes::AttrKind;
use strata_ir::{Context, Operation, Value};

use super::rules::dims_of;
use super::shapes::{Fact, Facts};
use super::Padded;

/// A recurrent layer whose sequence axis is padded by `sym` and that runs
/// with the symbol's real length as its `sequence_lens`.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceLens {
    /// The layer.
    pub op: Operation,
    /// The symbol padding its sequence.
    pub sym: String,
}

/// The axes of the input (`[sequence, batch, input]`, or `[batch,
/// sequence, input]` with `layout = 1`) and of the states (`[directions,
/// batch, hidden]` or `[batch, directions, hidden]`).
struct Axes {
    seq: usize,
    batch: usize,
    state_batch: usize,
    layout1: bool,
}

fn axes(ctx: &Context, op: Operation) -> Axes {
    let layout1 = attr_i64(ctx, op, "layout").unwrap_or(0) == 1;
    Axes {
        seq: usize::from(layout1),
        batch: usize::from(!layout1),
        state_batch: usize::from(!layout1),
        layout1,
    }
}

/// The facts of a layer's results, and the symbol whose real length it
/// must take as `sequence_lens`.
type Outcome = (Vec<Fact>, Option<String>);

/// What padding makes of a recurrent layer's results (`y`, then `y_h`
/// and `y_c`), and the symbol whose real length it must take as
/// `sequence_lens`; `None` for other ops.
pub(crate) fn rule(ctx: &Context, op: Operation, facts: &Facts) -> Option<Result<Outcome, String>> {
    CellKind::of_op_name(ctx.op_name_str(op))?;
    Some(prove(ctx, op, facts))
}

fn prove(ctx: &Context, op: Operation, facts: &Facts) -> Result<Outcome, String> {
    if let Some(why) = ctx.operands(op).find_map(|v| facts.opaque(v)) {
        return Err(format!("takes a value that {why}"));
    }
    let a = axes(ctx, op);
    let padded = |v: Option<Value>| -> Padded {
        v.and_then(|v| facts.padded.get(&v).cloned())
            .unwrap_or_default()
    };
    let x = operand(ctx, op, group::X).ok_or("has no input")?;
    let px = padded(Some(x));
    if let Some(sym) = px.get(&2) {
        return Err(format!("takes its input size from dimension '{sym}'"));
    }
    let (seq, batch) = (px.get(&a.seq).cloned(), px.get(&a.batch).cloned());
    for g in [group::W, group::R, group::B, group::P] {
        if let Some(sym) = padded(operand(ctx, op, g)).values().next() {
            return Err(format!("takes weights padded along dimension '{sym}'"));
        }
    }
    // The states and the lengths are per batch row: padded along the
    // batch exactly where the input is.
    let rows = [
        (group::INITIAL_H, a.state_batch, "an initial state"),
        (group::INITIAL_C, a.state_batch, "an initial state"),
        (group::SEQUENCE_LENS, 0, "sequence lengths"),
    ];
    for (g, axis, what) in rows {
        let Some(v) = operand(ctx, op, g) else {
            continue;
        };
        let p = padded(Some(v));
        let mut want = Padded::new();
        if let Some(b) = &batch {
            want.insert(axis, b.clone());
        }
        if p != want {
            return Err(format!(
                "takes {what} padded along {:?} where its input's batch is padded along {:?}",
                p.values().collect::<Vec<_>>(),
                batch.iter().collect::<Vec<_>>()
            ));
        }
    }
    let own_lens = operand(ctx, op, group::SEQUENCE_LENS).is_some();
    let mut y = Padded::new();
    if let Some(s) = &seq {
        y.insert(a.seq, s.clone());
    }
    if let Some(b) = &batch {
        y.insert(if a.layout1 { 0 } else { 2 }, b.clone());
    }
    let mut state = Padded::new();
    if let Some(b) = &batch {
        state.insert(a.state_batch, b.clone());
    }
    let mut out = vec![Fact::padded(y)];
    for _ in 1..ctx.results(op).count() {
        out.push(Fact::padded(state.clone()));
    }
    Ok((out, seq.filter(|_| !own_lens)))
}

/// Gives `l.op` the real length `length` (a 0-D `i64` argument) of its
/// padded sequence as its `sequence_lens`, one per batch row.
pub(crate) fn insert_lens(
    ctx: &mut Context,
    l: &SequenceLens,
    length: Value,
) -> Result<(), String> {
    let op = l.op;
    let a = axes(ctx, op);
    let x = operand(ctx, op, group::X).ok_or("a recurrent layer has no input")?;
    let batch = dims_of(ctx, x)
        .and_then(|d| d.get(a.batch).copied())
        .ok_or("a recurrent layer's input has no static batch")?;
    let segments = operand_segments(ctx, op).ok_or("a recurrent layer has no operand groups")?;
    let i32t = ctx.integer_type(32);
    let mut e = Emitter::before(ctx, op);
    let narrow = e.cast_to(length, i32t)?;
    let shape = e.const_i64(&[batch])?;
    let lens = e.op1("graph.expand", &[narrow, shape], &[])?;
    let all: Vec<Value> = ctx.operands(op).collect();
    let (mut operands, mut sizes, mut at) = (Vec::new(), Vec::new(), 0);
    for (g, &n) in segments.iter().enumerate() {
        let group_values = all
            .get(at..at + n)
            .ok_or("a recurrent layer's operand groups do not add up")?;
        at += n;
        if g == group::SEQUENCE_LENS {
            operands.push(lens);
            sizes.push(1u64);
        } else {
            operands.extend_from_slice(group_values);
            sizes.push(n as u64);
        }
    }
    ctx.set_operands(op, &operands);
    let segments = ctx.intern_attr(AttrKind::DenseArray {
        element: i32t,
        values: sizes.into(),
    });
    ctx.set_op_property(op, "operandSegmentSizes", segments);
    Ok(())
}
