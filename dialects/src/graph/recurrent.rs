//! The semantics of `graph.rnn`, `graph.gru` and `graph.lstm` (ONNX's
//! `RNN`, `GRU` and `LSTM`): the cell kind, the activations with their
//! parameters and the attributes, read from an op and checked once
//! ([`RecurrentSpec::of`]) for the verifier, the shape function and the
//! interpreter.
//!
//! The attributes differ from ONNX's in one way: `activation_alpha` and
//! `activation_beta` hold one value per activation (aligned with
//! `activations`; ignored by the activations that take none), where ONNX
//! lists the values only for the activations that take them, in order.
//! When they are absent, every activation takes its default parameters;
//! when `activations` is absent, every direction takes the op's defaults
//! (`Tanh`; `Sigmoid, Tanh`; `Sigmoid, Tanh, Tanh`).

use strata_ir::ods::{presence, AttrAccess};
use strata_ir::{Context, Operation, Value};

use super::infer::{attr_bool, attr_f64, attr_i64, attr_str};
use super::{F64ArrayAttr, StrArrayAttr};

/// The recurrent cell of an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// `graph.rnn`: one gate, `h = f(x Wᵀ + h Rᵀ + b)`.
    Rnn,
    /// `graph.gru`: gates `z r h` in that order along `W`'s rows.
    Gru,
    /// `graph.lstm`: gates `i o f c`; peepholes `i o f`.
    Lstm,
}

impl CellKind {
    /// The cell of the op `name` (`graph.rnn`, `graph.gru`, `graph.lstm`).
    pub fn of_op_name(name: &str) -> Option<CellKind> {
        match name {
            "graph.rnn" => Some(CellKind::Rnn),
            "graph.gru" => Some(CellKind::Gru),
            "graph.lstm" => Some(CellKind::Lstm),
            _ => None,
        }
    }

    /// The number of gates (`W` has `gates * hidden_size` rows per direction).
    pub fn gates(self) -> i64 {
        match self {
            CellKind::Rnn => 1,
            CellKind::Gru => 3,
            CellKind::Lstm => 4,
        }
    }

    /// The activations each direction takes, and their defaults.
    pub fn default_activations(self) -> &'static [Activation] {
        match self {
            CellKind::Rnn => &[Activation::Tanh],
            CellKind::Gru => &[Activation::Sigmoid, Activation::Tanh],
            CellKind::Lstm => &[Activation::Sigmoid, Activation::Tanh, Activation::Tanh],
        }
    }

    /// The number of results: `Y`, `Y_h` and, for LSTM, `Y_c`.
    pub fn num_results(self) -> usize {
        if self == CellKind::Lstm {
            3
        } else {
            2
        }
    }
}

/// An activation function of the recurrent ops, by its ONNX name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// `tanh(x)`.
    Tanh,
    /// `max(0, x)`.
    Relu,
    /// `x` where positive, else `alpha * x` (alpha 0.01).
    LeakyRelu,
    /// `x` where `x > alpha`, else 0 (alpha 1).
    ThresholdedRelu,
    /// `alpha * tanh(beta * x)` (1, 1).
    ScaledTanh,
    /// `max(0, min(1, alpha * x + beta))` (0.2, 0.5).
    HardSigmoid,
    /// `x` where positive, else `alpha * (e^x - 1)` (alpha 1).
    Elu,
    /// `x / (1 + |x|)`.
    Softsign,
    /// `ln(1 + e^x)`.
    Softplus,
    /// `alpha * x + beta` (1, 0).
    Affine,
}

const ACTIVATIONS: &[(&str, Activation)] = &[
    ("Sigmoid", Activation::Sigmoid),
    ("Tanh", Activation::Tanh),
    ("Relu", Activation::Relu),
    ("LeakyRelu", Activation::LeakyRelu),
    ("ThresholdedRelu", Activation::ThresholdedRelu),
    ("ScaledTanh", Activation::ScaledTanh),
    ("HardSigmoid", Activation::HardSigmoid),
    ("Elu", Activation::Elu),
    ("Softsign", Activation::Softsign),
    ("Softplus", Activation::Softplus),
    ("Affine", Activation::Affine),
];

impl Activation {
    /// The activation named `name` (ONNX's spelling, case-insensitive).
    pub fn from_name(name: &str) -> Option<Activation> {
        ACTIVATIONS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, a)| a)
    }

    /// Its ONNX name.
    pub fn name(self) -> &'static str {
        ACTIVATIONS
            .iter()
            .find(|&&(_, a)| a == self)
            .map_or("", |&(n, _)| n)
    }

    /// Whether it takes an `alpha` and a `beta`.
    pub fn takes(self) -> (bool, bool) {
        match self {
            Activation::LeakyRelu | Activation::ThresholdedRelu | Activation::Elu => (true, false),
            Activation::ScaledTanh | Activation::HardSigmoid | Activation::Affine => (true, true),
            _ => (false, false),
        }
    }

    /// Its default `alpha` and `beta`.
    pub fn defaults(self) -> (f64, f64) {
        match self {
            Activation::LeakyRelu => (0.01, 0.0),
            Activation::HardSigmoid => (0.2, 0.5),
            Activation::ScaledTanh => (1.0, 1.0),
            Activation::Affine => (1.0, 0.0),
            _ => (1.0, 0.0),
        }
    }

    /// Its value at `x`.
    pub fn apply(self, x: f64, alpha: f64, beta: f64) -> f64 {
        match self {
            Activation::Sigmoid => 1.0 / (1.0 + (-x).exp()),
            Activation::Tanh => x.tanh(),
            Activation::Relu => x.max(0.0),
            Activation::LeakyRelu => {
                if x < 0.0 {
                    alpha * x
                } else {
                    x
                }
            }
            Activation::ThresholdedRelu => {
                if x > alpha {
                    x
                } else {
                    0.0
                }
            }
            Activation::ScaledTanh => alpha * (beta * x).tanh(),
            Activation::HardSigmoid => (alpha * x + beta).clamp(0.0, 1.0),
            Activation::Elu => {
                if x < 0.0 {
                    alpha * x.exp_m1()
                } else {
                    x
                }
            }
            Activation::Softsign => x / (1.0 + x.abs()),
            Activation::Softplus => x.exp().ln_1p(),
            Activation::Affine => alpha * x + beta,
        }
    }
}

/// An activation with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Act {
    /// The function.
    pub f: Activation,
    /// Its `alpha`.
    pub alpha: f64,
    /// Its `beta`.
    pub beta: f64,
}

impl Act {
    /// Its value at `x`.
    pub fn apply(&self, x: f64) -> f64 {
        self.f.apply(x, self.alpha, self.beta)
    }
}

/// What a recurrent op computes, from its attributes.
#[derive(Clone, Debug, PartialEq)]
pub struct RecurrentSpec {
    /// The cell.
    pub kind: CellKind,
    /// `hidden_size`.
    pub hidden: i64,
    /// Whether each direction walks the sequence backwards: `[false]`
    /// (forward), `[true]` (reverse) or `[false, true]` (bidirectional).
    pub reverse: Vec<bool>,
    /// `layout`: 0 for `[seq, batch, ...]`, 1 for `[batch, seq, ...]`.
    pub layout: i64,
    /// The activations of each direction.
    pub acts: Vec<Vec<Act>>,
    /// `clip`: the gates' inputs are clipped to `[-clip, clip]`.
    pub clip: Option<f64>,
    /// GRU's `linear_before_reset`.
    pub linear_before_reset: bool,
    /// LSTM's `input_forget`: the forget gate is `1 - i`.
    pub input_forget: bool,
}

impl RecurrentSpec {
    /// The spec of `op`, or what is wrong with its attributes.
    pub fn of(ctx: &Context, op: Operation) -> Result<RecurrentSpec, String> {
        let kind = CellKind::of_op_name(ctx.op_name_str(op)).ok_or("is not a recurrent op")?;
        let hidden = attr_i64(ctx, op, "hidden_size").ok_or("requires 'hidden_size'")?;
        if hidden <= 0 {
            return Err(format!("'hidden_size' must be positive, but is {hidden}"));
        }
        let direction = attr_str(ctx, op, "direction").unwrap_or_else(|| "forward".into());
        let reverse = match direction.as_str() {
            "forward" => vec![false],
            "reverse" => vec![true],
            "bidirectional" => vec![false, true],
            other => {
                return Err(format!(
                    "'direction' must be \"forward\", \"reverse\" or \"bidirectional\", but is \"{other}\""
                ))
            }
        };
        let layout = attr_i64(ctx, op, "layout").unwrap_or(0);
        if !matches!(layout, 0 | 1) {
            return Err(format!("'layout' must be 0 or 1, but is {layout}"));
        }
        let per = kind.default_activations().len();
        let want = per * reverse.len();
        let names: Vec<Activation> = match optional::<StrArrayAttr>(ctx, op, "activations") {
            Some(names) => names
                .iter()
                .map(|n| {
                    Activation::from_name(n).ok_or_else(|| format!("unknown activation \"{n}\""))
                })
                .collect::<Result<_, _>>()?,
            None => kind
                .default_activations()
                .iter()
                .copied()
                .cycle()
                .take(want)
                .collect(),
        };
        if names.len() != want {
            return Err(format!(
                "'activations' must hold {want} functions ({per} per direction), but holds {}",
                names.len()
            ));
        }
        let params = |key: &str| -> Result<Option<Vec<f64>>, String> {
            match optional::<F64ArrayAttr>(ctx, op, key) {
                Some(v) if v.len() != want => Err(format!(
                    "'{key}' must hold {want} values (one per activation), but holds {}",
                    v.len()
                )),
                v => Ok(v),
            }
        };
        let (alphas, betas) = (params("activation_alpha")?, params("activation_beta")?);
        let acts: Vec<Act> = names
            .iter()
            .enumerate()
            .map(|(i, &f)| {
                let (a, b) = f.defaults();
                Act {
                    f,
                    alpha: alphas.as_ref().map_or(a, |v| v[i]),
                    beta: betas.as_ref().map_or(b, |v| v[i]),
                }
            })
            .collect();
        let clip = attr_f64(ctx, op, "clip");
        if let Some(c) = clip {
            if c.is_nan() || c <= 0.0 {
                return Err(format!("'clip' must be positive, but is {c}"));
            }
        }
        Ok(RecurrentSpec {
            kind,
            hidden,
            reverse,
            layout,
            acts: acts.chunks(per).map(<[Act]>::to_vec).collect(),
            clip,
            linear_before_reset: attr_bool(ctx, op, "linear_before_reset"),
            input_forget: attr_bool(ctx, op, "input_forget"),
        })
    }

    /// The number of directions.
    pub fn directions(&self) -> usize {
        self.reverse.len()
    }

    /// `v` clipped to `[-clip, clip]` when the op clips.
    pub fn clipped(&self, v: f64) -> f64 {
        match self.clip {
            Some(c) => v.clamp(-c, c),
            None => v,
        }
    }
}

/// Operand group `g` (one of [`operand`]'s) of the recurrent `op`, if
/// present.
pub fn operand_value(ctx: &Context, op: Operation, g: usize) -> Option<Value> {
    let spec = ctx.registry().op_spec(ctx.op_name_str(op))?;
    strata_ir::ods::operand_group(ctx, op, spec, g)
        .first()
        .copied()
}

/// The operand groups of a recurrent op, in order.
pub mod operand {
    /// The input sequence `X`.
    pub const X: usize = 0;
    /// The input weights `W`, `[directions, gates * hidden, input]`.
    pub const W: usize = 1;
    /// The recurrent weights `R`, `[directions, gates * hidden, hidden]`.
    pub const R: usize = 2;
    /// The biases `B`, `[directions, 2 * gates * hidden]` (optional).
    pub const B: usize = 3;
    /// The sequence lengths, `[batch]` (optional).
    pub const SEQUENCE_LENS: usize = 4;
    /// The initial hidden state (optional).
    pub const INITIAL_H: usize = 5;
    /// LSTM's initial cell state (optional).
    pub const INITIAL_C: usize = 6;
    /// LSTM's peepholes, `[directions, 3 * hidden]` (optional).
    pub const P: usize = 7;
}

/// An optional attribute of `op` read through its constraint `C`.
fn optional<C>(ctx: &Context, op: Operation, name: &str) -> C::Output
where
    C: AttrAccess<presence::Optional>,
{
    C::get(ctx, op, name, None)
}
