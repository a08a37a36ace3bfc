//! Reference evaluation of `graph.rnn`, `graph.gru` and `graph.lstm`:
//! each batch row and direction walked step by step in f64, as the ONNX
//! definitions state them (see `strata_dialects::graph::recurrent`).

use strata_dialects::graph::recurrent::{operand as group, Act, CellKind, RecurrentSpec};

use super::graph::GraphArgs;
use crate::Tensor;

/// An operand's elements in f64, after checking its shape.
fn values(t: &Tensor, name: &str, want: &[usize]) -> Result<Vec<f64>, String> {
    if t.shape() != want {
        return Err(format!(
            "operand '{name}' has shape {:?}, expected {want:?}",
            t.shape()
        ));
    }
    Ok(t.to_f64_vec())
}

/// `graph.rnn`, `graph.gru`, `graph.lstm`: results `y`, `y_h` (and `y_c`).
pub(super) fn eval_recurrent(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let spec = RecurrentSpec::of(e.ctx, e.op)?;
    let x = e.arg(group::X)?;
    let &[a, b, input] = x.shape() else {
        return Err(format!(
            "operand 'x' must be 3-D, but has shape {:?}",
            x.shape()
        ));
    };
    let (steps, batch) = if spec.layout == 1 { (b, a) } else { (a, b) };
    let dirs = spec.directions();
    let hidden = usize::try_from(spec.hidden).map_err(|_| "hidden_size is too large")?;
    let gates = spec.kind.gates() as usize;
    let gh = gates * hidden;
    let required = |g: usize, name: &str| e.opt(g).ok_or_else(|| format!("requires '{name}'"));
    let xs = x.to_f64_vec();
    let w = values(required(group::W, "w")?, "w", &[dirs, gh, input])?;
    let r = values(required(group::R, "r")?, "r", &[dirs, gh, hidden])?;
    let bias = match e.opt(group::B) {
        Some(t) => Some(values(t, "b", &[dirs, 2 * gh])?),
        None => None,
    };
    let lens: Vec<usize> = match e.opt(group::SEQUENCE_LENS) {
        Some(t) => {
            if t.shape() != [batch] {
                return Err(format!(
                    "operand 'sequence_lens' has shape {:?}, expected [{batch}]",
                    t.shape()
                ));
            }
            t.to_i64_vec()
                .iter()
                .map(|&l| {
                    usize::try_from(l)
                        .ok()
                        .filter(|&l| l <= steps)
                        .ok_or_else(|| format!("sequence length {l} is outside [0, {steps}]"))
                })
                .collect::<Result<_, _>>()?
        }
        None => vec![steps; batch],
    };
    let state_shape = if spec.layout == 1 {
        [batch, dirs, hidden]
    } else {
        [dirs, batch, hidden]
    };
    // Index of (direction d, row n, unit j) in a state tensor.
    let at = |d: usize, n: usize, j: usize| {
        if spec.layout == 1 {
            (n * dirs + d) * hidden + j
        } else {
            (d * batch + n) * hidden + j
        }
    };
    let initial = |g: usize, name: &str| -> Result<Option<Vec<f64>>, String> {
        match e.opt(g) {
            Some(t) => Ok(Some(values(t, name, &state_shape)?)),
            None => Ok(None),
        }
    };
    let h0 = initial(group::INITIAL_H, "initial_h")?;
    let lstm = spec.kind == CellKind::Lstm;
    let c0 = if lstm {
        initial(group::INITIAL_C, "initial_c")?
    } else {
        None
    };
    let peep = match e.opt(group::P) {
        Some(t) if lstm => Some(values(t, "p", &[dirs, 3 * hidden])?),
        _ => None,
    };
    let y_shape = if spec.layout == 1 {
        [batch, steps, dirs, hidden]
    } else {
        [steps, dirs, batch, hidden]
    };
    let mut y = vec![0.0; y_shape.iter().product()];
    let mut yh = vec![0.0; state_shape.iter().product()];
    let mut yc = yh.clone();
    let x_at = |t: usize, n: usize| {
        let row = if spec.layout == 1 {
            n * steps + t
        } else {
            t * batch + n
        };
        &xs[row * input..(row + 1) * input]
    };
    for d in 0..dirs {
        let cell = Cell {
            spec: &spec,
            acts: &spec.acts[d],
            w: &w[d * gh * input..(d + 1) * gh * input],
            r: &r[d * gh * hidden..(d + 1) * gh * hidden],
            bias: bias.as_ref().map(|b| &b[d * 2 * gh..(d + 1) * 2 * gh]),
            peep: peep
                .as_ref()
                .map(|p| &p[d * 3 * hidden..(d + 1) * 3 * hidden]),
            input,
            hidden,
        };
        for n in 0..batch {
            let start = |s: &Option<Vec<f64>>| -> Vec<f64> {
                (0..hidden)
                    .map(|j| s.as_ref().map_or(0.0, |s| s[at(d, n, j)]))
                    .collect()
            };
            let (mut h, mut c) = (start(&h0), start(&c0));
            let len = lens[n];
            let order: Vec<usize> = if spec.reverse[d] {
                (0..len).rev().collect()
            } else {
                (0..len).collect()
            };
            for t in order {
                cell.step(x_at(t, n), &mut h, &mut c);
                for (j, &v) in h.iter().enumerate() {
                    let k = if spec.layout == 1 {
                        ((n * steps + t) * dirs + d) * hidden + j
                    } else {
                        ((t * dirs + d) * batch + n) * hidden + j
                    };
                    y[k] = v;
                }
            }
            for j in 0..hidden {
                yh[at(d, n, j)] = h[j];
                yc[at(d, n, j)] = c[j];
            }
        }
    }
    let dtype = x.dtype();
    let mut results = vec![
        Tensor::from_f64_vec(dtype, &y_shape, &y),
        Tensor::from_f64_vec(dtype, &state_shape, &yh),
    ];
    if lstm {
        results.push(Tensor::from_f64_vec(dtype, &state_shape, &yc));
    }
    Ok(results)
}

/// One direction's weights and activations.
struct Cell<'a> {
    spec: &'a RecurrentSpec,
    acts: &'a [Act],
    /// `[gates * hidden, input]`.
    w: &'a [f64],
    /// `[gates * hidden, hidden]`.
    r: &'a [f64],
    /// `[2 * gates * hidden]`: `Wb` then `Rb`.
    bias: Option<&'a [f64]>,
    /// `[3 * hidden]`: `i o f`.
    peep: Option<&'a [f64]>,
    input: usize,
    hidden: usize,
}

impl Cell<'_> {
    /// Row `row` of `W` dotted with `x`, plus its input bias.
    fn xw(&self, row: usize, x: &[f64]) -> f64 {
        let w = &self.w[row * self.input..(row + 1) * self.input];
        let b = self.bias.map_or(0.0, |b| b[row]);
        w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() + b
    }

    /// Row `row` of `R` dotted with `h`, plus its recurrent bias.
    fn hr(&self, row: usize, h: &[f64]) -> f64 {
        let r = &self.r[row * self.hidden..(row + 1) * self.hidden];
        // `R` is `[gates * hidden, hidden]`, and hidden is positive.
        let gh = self.r.len() / self.hidden;
        let b = self.bias.map_or(0.0, |b| b[gh + row]);
        r.iter().zip(h).map(|(a, b)| a * b).sum::<f64>() + b
    }

    /// The peephole of gate `k` (`i o f` = 0 1 2) at unit `j`.
    fn p(&self, k: usize, j: usize) -> f64 {
        self.peep.map_or(0.0, |p| p[k * self.hidden + j])
    }

    /// One step: `h` (and `c`) updated from `x`.
    fn step(&self, x: &[f64], h: &mut [f64], c: &mut [f64]) {
        let (s, hd) = (self.spec, self.hidden);
        let pre = |g: usize, j: usize| self.xw(g * hd + j, x) + self.hr(g * hd + j, h);
        let f = |a: &Act, v: f64| a.apply(s.clipped(v));
        let new_h: Vec<f64> = match s.kind {
            CellKind::Rnn => (0..hd).map(|j| f(&self.acts[0], pre(0, j))).collect(),
            CellKind::Gru => {
                let z: Vec<f64> = (0..hd).map(|j| f(&self.acts[0], pre(0, j))).collect();
                let r: Vec<f64> = (0..hd).map(|j| f(&self.acts[0], pre(1, j))).collect();
                let rh: Vec<f64> = r.iter().zip(h.iter()).map(|(r, h)| r * h).collect();
                (0..hd)
                    .map(|j| {
                        let row = 2 * hd + j;
                        let recurrent = if s.linear_before_reset {
                            r[j] * self.hr(row, h)
                        } else {
                            self.hr(row, &rh)
                        };
                        let n = f(&self.acts[1], self.xw(row, x) + recurrent);
                        (1.0 - z[j]) * n + z[j] * h[j]
                    })
                    .collect()
            }
            CellKind::Lstm => {
                let mut out = vec![0.0; hd];
                let mut new_c = vec![0.0; hd];
                for j in 0..hd {
                    let i = f(&self.acts[0], pre(0, j) + self.p(0, j) * c[j]);
                    let fg = if s.input_forget {
                        1.0 - i
                    } else {
                        f(&self.acts[0], pre(2, j) + self.p(2, j) * c[j])
                    };
                    let g = f(&self.acts[1], pre(3, j));
                    new_c[j] = fg * c[j] + i * g;
                    let o = f(&self.acts[0], pre(1, j) + self.p(1, j) * new_c[j]);
                    out[j] = o * self.acts[2].apply(new_c[j]);
                }
                c.copy_from_slice(&new_c);
                out
            }
        };
        h.copy_from_slice(&new_h);
    }
}

/// `graph.linear_attention`: `output` and `present_state`.
pub(super) fn eval_linear_attention(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    use strata_dialects::graph::linear_attention::{operand as la, LinearAttentionSpec};
    let spec = LinearAttentionSpec::of(e.ctx, e.op)?;
    let heads = |h: i64| usize::try_from(h).map_err(|_| format!("head count {h} is too large"));
    let (q_heads, kv_heads) = (heads(spec.q_heads)?, heads(spec.kv_heads)?);
    let (query, key, value) = (e.arg(la::QUERY)?, e.arg(la::KEY)?, e.arg(la::VALUE)?);
    // The state [batch, kv_heads, d_k, d_v] and the output [batch, seq,
    // q_heads * d_v], before the kernel allocates them (in f64 on the
    // way out).
    if let ([b, t, qw], [_, _, vw]) = (query.shape(), value.shape()) {
        let (dk, dv) = (qw / q_heads, vw / kv_heads);
        let limit = e.limits.max_bytes;
        super::check_size(&[*b, kv_heads, dk, dv], crate::DType::F64, limit)?;
        super::check_size(&[*b, *t, q_heads, dv], crate::DType::F64, limit)?;
    }
    let args = crate::kernels::LinearAttention {
        query,
        key,
        value,
        past_state: e.opt(la::PAST_STATE),
        decay: e.opt(la::DECAY),
        beta: e.opt(la::BETA),
        rule: crate::kernels::LinearAttentionRule {
            gated: spec.rule.gated(),
            delta: spec.rule.delta(),
        },
        q_heads,
        kv_heads,
        scale: spec.scale,
    };
    let (out, state) = crate::kernels::linear_attention(&args).map_err(super::kerr)?;
    Ok(vec![out, state])
}
