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
