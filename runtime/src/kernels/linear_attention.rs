//! Linear attention (ONNX `LinearAttention`, opset 27): a recurrent state
//! per key/value head, updated token by token and read by each query.

use super::{invalid, require_float, require_same_dtype, shape_mismatch, KResult};
use crate::Tensor;

/// How `linear_attention` updates its state (see `graph.linear_attention`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The state decays by `exp(decay)` before each write.
    pub gated: bool,
    /// The write is `beta * (v - Sᵀk)` instead of `v`.
    pub delta: bool,
}

/// The operands and attributes of one linear attention.
pub struct LinearAttention<'a> {
    /// `[batch, seq, q_heads * d_k]`.
    pub query: &'a Tensor,
    /// `[batch, seq, kv_heads * d_k]`.
    pub key: &'a Tensor,
    /// `[batch, seq, kv_heads * d_v]`.
    pub value: &'a Tensor,
    /// `[batch, kv_heads, d_k, d_v]`; zeros when absent.
    pub past_state: Option<&'a Tensor>,
    /// `[batch, seq, kv_heads]` or `[batch, seq, kv_heads * d_k]`.
    pub decay: Option<&'a Tensor>,
    /// `[batch, seq, kv_heads]` or `[batch, seq, 1]`.
    pub beta: Option<&'a Tensor>,
    /// The update rule.
    pub rule: Rule,
    /// Query heads, a multiple of `kv_heads`.
    pub q_heads: usize,
    /// Key/value heads.
    pub kv_heads: usize,
    /// The output scale (`1 / sqrt(d_k)` when `None`).
    pub scale: Option<f64>,
}

const OP: &str = "linear_attention";

/// A rank-3 operand's sizes.
fn dims3(name: &str, t: &Tensor) -> KResult<[usize; 3]> {
    match *t.shape() {
        [a, b, c] => Ok([a, b, c]),
        ref s => Err(shape_mismatch(
            OP,
            format!("{name} must be [batch, seq, heads * size], got {s:?}"),
        )),
    }
}

/// `(output, present_state)`: for each token `t`, the state `S` of each
/// key/value head (in f32, as ONNX's reference) is decayed by
/// `exp(g_t)`, written with `k_t ⊗ v_t` (or `k_t ⊗ β_t (v_t - Sᵀ k_t)`
/// by the delta rules), and each query head of its group reads
/// `scale * q_tᵀ S`. The output has the query's dtype, the state the
/// past state's (the query's without one).
pub fn linear_attention(a: &LinearAttention<'_>) -> KResult<(Tensor, Tensor)> {
    let dt = a.query.dtype();
    require_float(OP, dt)?;
    for t in [a.key, a.value].into_iter().chain(a.decay).chain(a.beta) {
        require_same_dtype(OP, dt, t.dtype())?;
    }
    let (hq, hkv) = (a.q_heads, a.kv_heads);
    if hq == 0 || hkv == 0 || hq % hkv != 0 {
        return Err(invalid(
            OP,
            format!("q_heads ({hq}) must be a positive multiple of kv_heads ({hkv})"),
        ));
    }
    let [b, t, qw] = dims3("query", a.query)?;
    let [kb, kt, kw] = dims3("key", a.key)?;
    let [vb, vt, vw] = dims3("value", a.value)?;
    if (kb, kt, vb, vt) != (b, t, b, t) {
        return Err(shape_mismatch(
            OP,
            format!(
                "query {:?}, key {:?} and value {:?} differ in batch or sequence size",
                a.query.shape(),
                a.key.shape(),
                a.value.shape()
            ),
        ));
    }
    if qw % hq != 0 || vw % hkv != 0 || kw != qw / hq * hkv {
        return Err(shape_mismatch(
            OP,
            format!(
                "query {:?}, key {:?} and value {:?} do not pack {hq} query and {hkv} key/value heads",
                a.query.shape(),
                a.key.shape(),
                a.value.shape()
            ),
        ));
    }
    let (dk, dv) = (qw / hq, vw / hkv);
    let per_token = |name: &str, x: Option<&Tensor>, allowed: [usize; 2]| -> KResult<usize> {
        let Some(x) = x else { return Ok(0) };
        let [xb, xt, w] = dims3(name, x)?;
        if (xb, xt) != (b, t) || !allowed.contains(&w) {
            return Err(shape_mismatch(
                OP,
                format!(
                    "{name} {:?} must be [{b}, {t}, {}] or [{b}, {t}, {}]",
                    x.shape(),
                    allowed[0],
                    allowed[1]
                ),
            ));
        }
        Ok(w)
    };
    let gw = per_token("decay", a.decay, [hkv, hkv * dk])?;
    let bw = per_token("beta", a.beta, [hkv, 1])?;
    if a.rule.gated != a.decay.is_some() || a.rule.delta != a.beta.is_some() {
        return Err(invalid(
            OP,
            "the update rule's decay and beta operands are missing or extra",
        ));
    }
    let state_len = b * hkv * dk * dv;
    let mut state: Vec<f32> = match a.past_state {
        Some(p) => {
            if p.shape() != [b, hkv, dk, dv] {
                return Err(shape_mismatch(
                    OP,
                    format!(
                        "past_state {:?} must be [{b}, {hkv}, {dk}, {dv}]",
                        p.shape()
                    ),
                ));
            }
            f32s(p)
        }
        None => vec![0.0; state_len],
    };
    let (q, k, v) = (f32s(a.query), f32s(a.key), f32s(a.value));
    let (g, beta) = (a.decay.map(f32s), a.beta.map(f32s));
    let scale = a.scale.unwrap_or(1.0 / (dk as f64).sqrt()) as f32;
    let group = hq / hkv;
    let mut out = vec![0.0f32; b * t * hq * dv];
    let mut write = vec![0.0f32; dv];
    for bi in 0..b {
        for ti in 0..t {
            let token = bi * t + ti;
            for h in 0..hkv {
                let s = &mut state[(bi * hkv + h) * dk * dv..][..dk * dv];
                let kt = &k[token * hkv * dk + h * dk..][..dk];
                let vt = &v[token * hkv * dv + h * dv..][..dv];
                if let Some(g) = &g {
                    for d in 0..dk {
                        let x = if gw == hkv {
                            g[token * gw + h]
                        } else {
                            g[token * gw + h * dk + d]
                        };
                        let f = x.exp();
                        s[d * dv..][..dv].iter_mut().for_each(|y| *y *= f);
                    }
                }
                write.copy_from_slice(vt);
                if let Some(beta) = &beta {
                    let bt = beta[token * bw + if bw == 1 { 0 } else { h }];
                    for (m, w) in write.iter_mut().enumerate() {
                        let retrieved: f32 = (0..dk).map(|d| s[d * dv + m] * kt[d]).sum();
                        *w = bt * (*w - retrieved);
                    }
                }
                for d in 0..dk {
                    for m in 0..dv {
                        s[d * dv + m] += kt[d] * write[m];
                    }
                }
                for qh in h * group..(h + 1) * group {
                    let qt = &q[token * hq * dk + qh * dk..][..dk];
                    let o = &mut out[token * hq * dv + qh * dv..][..dv];
                    for (m, o) in o.iter_mut().enumerate() {
                        let dot: f32 = (0..dk).map(|d| qt[d] * s[d * dv + m]).sum();
                        *o = scale * dot;
                    }
                }
            }
        }
    }
    let state_dt = a.past_state.map_or(dt, Tensor::dtype);
    let widen = |x: Vec<f32>| -> Vec<f64> { x.into_iter().map(f64::from).collect() };
    Ok((
        Tensor::from_f64_vec(dt, &[b, t, hq * dv], &widen(out)),
        Tensor::from_f64_vec(state_dt, &[b, hkv, dk, dv], &widen(state)),
    ))
}

/// A float tensor's elements as f32 (the reference's compute type).
fn f32s(t: &Tensor) -> Vec<f32> {
    t.to_f64_vec().into_iter().map(|x| x as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    fn t(shape: &[usize], v: &[f64]) -> Tensor {
        Tensor::from_f64_vec(DType::F32, shape, v)
    }

    fn args<'a>(q: &'a Tensor, k: &'a Tensor, v: &'a Tensor) -> LinearAttention<'a> {
        LinearAttention {
            query: q,
            key: k,
            value: v,
            past_state: None,
            decay: None,
            beta: None,
            rule: Rule {
                gated: false,
                delta: false,
            },
            q_heads: 1,
            kv_heads: 1,
            scale: Some(1.0),
        }
    }

    /// The delta rule writes only what the state does not hold yet: a
    /// repeated key/value pair leaves the state as it was.
    #[test]
    fn delta_rule_does_not_rewrite_what_is_held() {
        let (q, k, v) = (
            t(&[1, 2, 1], &[1.0, 1.0]),
            t(&[1, 2, 1], &[1.0, 1.0]),
            t(&[1, 2, 1], &[3.0, 3.0]),
        );
        let beta = t(&[1, 2, 1], &[1.0, 1.0]);
        let mut a = args(&q, &k, &v);
        a.beta = Some(&beta);
        a.rule.delta = true;
        let (o, s) = linear_attention(&a).map_err(|e| e.to_string()).unwrap();
        assert_eq!(o.to_f64_vec(), vec![3.0, 3.0]);
        assert_eq!(s.to_f64_vec(), vec![3.0]);
    }

    /// Shapes that disagree, and a rule without its operand, are errors.
    #[test]
    fn bad_operands_are_errors() {
        let (q, k) = (t(&[1, 2, 2], &[0.0; 4]), t(&[1, 2, 1], &[0.0; 2]));
        assert!(linear_attention(&args(&q, &k, &k)).is_err());
        let q = t(&[1, 2, 1], &[0.0; 2]);
        let mut a = args(&q, &q, &q);
        a.rule.gated = true;
        assert!(linear_attention(&a).is_err());
        let mut a = args(&q, &q, &q);
        a.q_heads = 2;
        assert!(linear_attention(&a).is_err());
    }
}
