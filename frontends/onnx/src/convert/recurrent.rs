//! `RNN`, `GRU` and `LSTM` as `graph.rnn`, `graph.gru` and `graph.lstm`:
//! the node's inputs become the op's operands, and its attributes the op's,
//! with two translations. `activation_alpha` and `activation_beta`, which
//! ONNX lists only for the activations that take them (consumed in
//! order), become one value per activation (each missing one the
//! activation's default); the activations take their canonical spelling.
//! A missing `hidden_size` is read off `W`.
//!
//! The interpreter evaluates the ops directly; `graph-decompose-recurrent`
//! expands them for the compiled modes.

use strata_dialects::graph::recurrent::{operand as group, Activation, CellKind};
use strata_ir::attributes::AttrKind;
use strata_ir::float::FloatKind;
use strata_ir::{Attribute, Location, Value};

use super::attrs::Attrs;
use super::{ConvertError, Importer, Res};
use crate::proto::NodeProto;

/// The recurrent ops.
pub(super) const OPS: &[(&str, super::Convert)] =
    &[("RNN", recurrent), ("GRU", recurrent), ("LSTM", recurrent)];

fn recurrent(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    im.convert_recurrent(node, a, loc)
}

impl Importer<'_> {
    pub(super) fn convert_recurrent(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let (name, kind) = match node.op_type() {
            "RNN" => ("graph.rnn", CellKind::Rnn),
            "GRU" => ("graph.gru", CellKind::Gru),
            _ => ("graph.lstm", CellKind::Lstm),
        };
        // The operand groups, in the op's order (ONNX's input order).
        let groups = match kind {
            CellKind::Lstm => group::P + 1,
            _ => group::INITIAL_H + 1,
        };
        let mut operands = Vec::new();
        let mut sizes = Vec::new();
        for i in 0..groups {
            let v = if i <= group::R {
                Some(self.req(node, i)?)
            } else {
                self.input(node, i)?
            };
            sizes.push(i32::from(v.is_some()));
            operands.extend(v);
        }
        let hidden = match a.int("hidden_size") {
            Some(h) => h,
            None => {
                let rows = self
                    .dims_of(operands[group::W])
                    .and_then(|d| d.get(1).and_then(|r| r.known()))
                    .ok_or("needs 'hidden_size' or a W of static sizes")?;
                rows / kind.gates()
            }
        };
        let mut props = vec![
            ("operandSegmentSizes", self.segments(&sizes)),
            ("hidden_size", self.i64_attr(hidden)),
        ];
        if let Some(d) = a.string("direction") {
            props.push(("direction", self.ctx.string_attr(&d)));
        }
        if let Some(l) = a.int("layout") {
            props.push(("layout", self.i64_attr(l)));
        }
        let directions = match a.string("direction").as_deref() {
            Some("bidirectional") => 2,
            _ => 1,
        };
        let acts = activations(kind, a, directions)?;
        if let Some(acts) = &acts {
            let names = acts
                .iter()
                .map(|f| self.ctx.string_attr(f.name()))
                .collect();
            props.push(("activations", self.ctx.array_attr(names)));
            for (key, beta) in [("activation_alpha", false), ("activation_beta", true)] {
                if let Some(values) = aligned(a, key, acts, beta) {
                    props.push((key, self.f64_array(&values)));
                }
            }
        }
        if let Some(c) = a.float("clip") {
            props.push(("clip", self.f64_attr(f64::from(c))));
        }
        match kind {
            CellKind::Gru => {
                let lbr = a.int("linear_before_reset").unwrap_or(0) != 0;
                props.push(("linear_before_reset", self.bool_attr(lbr)));
            }
            CellKind::Lstm => {
                let input_forget = a.int("input_forget").unwrap_or(0) != 0;
                props.push(("input_forget", self.bool_attr(input_forget)));
            }
            CellKind::Rnn => {}
        }
        self.op(name, operands, props, kind.num_results(), None, loc)
    }

    /// An `array<f64: ...>` attribute.
    fn f64_array(&mut self, values: &[f64]) -> Attribute {
        let element = self.ctx.float_type(FloatKind::F64);
        self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: values.iter().map(|v| v.to_bits()).collect(),
        })
    }
}

/// The node's activations (canonically spelled), `None` when it names
/// none (the op's defaults).
fn activations(kind: CellKind, a: &Attrs, directions: usize) -> Res<Option<Vec<Activation>>> {
    let names = match a.strings("activations") {
        Some(n) if !n.is_empty() => n,
        _ => return Ok(None),
    };
    let per = kind.default_activations().len();
    // RNN's schema default spells two activations even for one direction.
    let names =
        if kind == CellKind::Rnn && directions == 1 && names.len() == 2 && names[0] == names[1] {
            names[..1].to_vec()
        } else {
            names
        };
    if names.len() != per * directions {
        return Err(format!(
            "has {} activations, expected {}",
            names.len(),
            per * directions
        )
        .into());
    }
    names
        .iter()
        .map(|n| {
            Activation::from_name(n).ok_or_else(|| {
                ConvertError::unsupported(format!("activation '{n}' is not supported"))
            })
        })
        .collect::<Res<Vec<_>>>()
        .map(Some)
}

/// ONNX's `key` (`activation_alpha`, or `activation_beta` when `beta`),
/// consumed in order by the activations that take the parameter, as one
/// value per activation: the activation's default where it takes none or
/// the list has run out. `None` when the node does not give the list.
fn aligned(a: &Attrs, key: &str, acts: &[Activation], beta: bool) -> Option<Vec<f64>> {
    let given = a.floats(key).filter(|v| !v.is_empty())?;
    let mut next = given.iter().map(|&v| f64::from(v));
    Some(
        acts.iter()
            .map(|f| {
                let (takes_alpha, takes_beta) = f.takes();
                let (alpha, beta_default) = f.defaults();
                let (takes, default) = if beta {
                    (takes_beta, beta_default)
                } else {
                    (takes_alpha, alpha)
                };
                if takes {
                    next.next().unwrap_or(default)
                } else {
                    default
                }
            })
            .collect(),
    )
}
