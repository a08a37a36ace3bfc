//! The semantics of `graph.linear_attention` (ONNX's `LinearAttention`):
//! the update rule, the head counts and the scale, read from an op and
//! checked once ([`LinearAttentionSpec::of`]) for the shape function and
//! the interpreter.

use strata_ir::{Context, Operation};

use super::infer::{attr_f64, attr_i64, attr_str};

/// The operand groups of `graph.linear_attention`, in order.
pub mod operand {
    /// `query`, `[batch, seq, q_heads * d_k]`.
    pub const QUERY: usize = 0;
    /// `key`, `[batch, seq, kv_heads * d_k]`.
    pub const KEY: usize = 1;
    /// `value`, `[batch, seq, kv_heads * d_v]`.
    pub const VALUE: usize = 2;
    /// `past_state`, `[batch, kv_heads, d_k, d_v]` (optional).
    pub const PAST_STATE: usize = 3;
    /// `decay`, `[batch, seq, kv_heads]` or `[batch, seq, kv_heads * d_k]`
    /// (the gated rules).
    pub const DECAY: usize = 4;
    /// `beta`, `[batch, seq, kv_heads]` or `[batch, seq, 1]` (the delta
    /// rules).
    pub const BETA: usize = 5;
}

/// How the state is updated from one token to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateRule {
    /// `S = S + k ⊗ v`.
    Linear,
    /// `S = exp(g) S + k ⊗ v`.
    Gated,
    /// `S = S + β k ⊗ (v - Sᵀ k)`.
    Delta,
    /// `S = exp(g) S + β k ⊗ (v - exp(g) Sᵀ k)`.
    GatedDelta,
}

impl UpdateRule {
    /// The rule named `name`, as ONNX spells it.
    pub fn parse(name: &str) -> Option<UpdateRule> {
        match name {
            "linear" => Some(UpdateRule::Linear),
            "gated" => Some(UpdateRule::Gated),
            "delta" => Some(UpdateRule::Delta),
            "gated_delta" => Some(UpdateRule::GatedDelta),
            _ => None,
        }
    }

    /// Whether the state decays by `exp(decay)` (which the rule requires).
    pub fn gated(self) -> bool {
        matches!(self, UpdateRule::Gated | UpdateRule::GatedDelta)
    }

    /// Whether the write is corrected by what the state already holds
    /// (with rate `beta`, which the rule requires).
    pub fn delta(self) -> bool {
        matches!(self, UpdateRule::Delta | UpdateRule::GatedDelta)
    }
}

/// A `graph.linear_attention`'s attributes, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearAttentionSpec {
    /// The update rule.
    pub rule: UpdateRule,
    /// Query heads: a positive multiple of `kv_heads`.
    pub q_heads: i64,
    /// Key/value heads (each state's heads).
    pub kv_heads: i64,
    /// The output scale, when given (`1 / sqrt(d_k)` otherwise).
    pub scale: Option<f64>,
}

impl LinearAttentionSpec {
    /// The attributes of `op`, checked against each other.
    pub fn of(ctx: &Context, op: Operation) -> Result<LinearAttentionSpec, String> {
        let q_heads = attr_i64(ctx, op, "q_num_heads").ok_or("requires 'q_num_heads'")?;
        let kv_heads = attr_i64(ctx, op, "kv_num_heads").ok_or("requires 'kv_num_heads'")?;
        if q_heads <= 0 || kv_heads <= 0 || q_heads % kv_heads != 0 {
            return Err(format!(
                "q_num_heads ({q_heads}) must be a positive multiple of kv_num_heads ({kv_heads})"
            ));
        }
        let name = attr_str(ctx, op, "update_rule").unwrap_or_else(|| "gated_delta".into());
        let rule = UpdateRule::parse(&name).ok_or_else(|| {
            format!(
                "has update_rule '{name}' (expected 'linear', 'gated', 'delta' or 'gated_delta')"
            )
        })?;
        let scale = attr_f64(ctx, op, "scale");
        if let Some(s) = scale {
            if !s.is_finite() {
                return Err(format!("scale must be finite, but is {s}"));
            }
        }
        Ok(LinearAttentionSpec {
            rule,
            q_heads,
            kv_heads,
            scale,
        })
    }
}
