//! Recurrent layers: `rnn`, `gru` and `lstm`, ONNX's `RNN`, `GRU` and
//! `LSTM` (every direction, activation, `clip`, sequence lengths, initial
//! states, both layouts). Their semantics, and how their attributes
//! differ from ONNX's, are in [`crate::graph::recurrent`].

use strata_ir::ods::constraints::{I64Attr, StrAttr};
use strata_ir::op;

use super::{BoolAttr, F64ArrayAttr, F64Attr, FloatTensor, IntTensor, StrArrayAttr};
use crate::graph::infer::{self, verify_shapes, ShapeFunction};

/// A simple recurrent layer: for each step `t` and direction,
/// `h = f(clip(x_t Wᵀ + h Rᵀ + Wb + Rb))`.
///
/// `x` is `[seq, batch, input]` (`layout = 0`) or `[batch, seq, input]`
/// (`layout = 1`); `w` is `[directions, hidden, input]`, `r`
/// `[directions, hidden, hidden]`, `b` `[directions, 2 * hidden]` (`Wb`
/// then `Rb`). A batch row stops at its `sequence_lens` entry: later steps
/// output zeros and leave its state as it was; the reverse direction
/// starts at each row's own last step. Results: every step's hidden state
/// `y` (`[seq, directions, batch, hidden]`, or `[batch, seq, directions,
/// hidden]`) and the last one `y_h` (`[directions, batch, hidden]`, or
/// `[batch, directions, hidden]`), the layout of `initial_h` too.
#[op("graph.rnn",
     traits(Pure),
     format = "$x `,` $w `,` $r (`bias` $b^)? (`sequence_lens` $sequence_lens^)? (`initial_h` $initial_h^)? attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_recurrent)))]
pub struct RnnOp {
    x: Operand<FloatTensor>,
    w: Operand<FloatTensor>,
    r: Operand<FloatTensor>,
    b: Optional<FloatTensor>,
    sequence_lens: Optional<IntTensor>,
    initial_h: Optional<FloatTensor>,
    hidden_size: Attr<I64Attr>,
    #[default = "\"forward\""]
    direction: Attr<StrAttr>,
    #[default = "0"]
    layout: Attr<I64Attr>,
    activations: OptionalAttr<StrArrayAttr>,
    activation_alpha: OptionalAttr<F64ArrayAttr>,
    activation_beta: OptionalAttr<F64ArrayAttr>,
    clip: OptionalAttr<F64Attr>,
    y: Result<FloatTensor>,
    y_h: Result<FloatTensor>,
}

/// A gated recurrent unit: gates `z` (update) and `r` (reset) are
/// `f(clip(x_t Wᵀ + h Rᵀ + biases))`, the candidate `n = g(clip(x_t Wnᵀ +
/// Wbn + (r ⊙ h) Rnᵀ + Rbn))`, or with `linear_before_reset` `g(clip(x_t
/// Wnᵀ + Wbn + r ⊙ (h Rnᵀ + Rbn)))`, and `h = (1 - z) ⊙ n + z ⊙ h`.
///
/// `W`'s rows hold the gates in the order `z r n`; shapes, layouts and
/// sequence lengths as for `graph.rnn`, with `3 * hidden` rows per
/// direction.
#[op("graph.gru",
     traits(Pure),
     format = "$x `,` $w `,` $r (`bias` $b^)? (`sequence_lens` $sequence_lens^)? (`initial_h` $initial_h^)? attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_recurrent)))]
pub struct GruOp {
    x: Operand<FloatTensor>,
    w: Operand<FloatTensor>,
    r: Operand<FloatTensor>,
    b: Optional<FloatTensor>,
    sequence_lens: Optional<IntTensor>,
    initial_h: Optional<FloatTensor>,
    hidden_size: Attr<I64Attr>,
    #[default = "\"forward\""]
    direction: Attr<StrAttr>,
    #[default = "0"]
    layout: Attr<I64Attr>,
    activations: OptionalAttr<StrArrayAttr>,
    activation_alpha: OptionalAttr<F64ArrayAttr>,
    activation_beta: OptionalAttr<F64ArrayAttr>,
    clip: OptionalAttr<F64Attr>,
    #[default = "false"]
    linear_before_reset: Attr<BoolAttr>,
    y: Result<FloatTensor>,
    y_h: Result<FloatTensor>,
}

/// A long short-term memory layer: gates `i`, `o`, `f` are `f(clip(x_t Wᵀ
/// + h Rᵀ + biases + P ⊙ c))` (the output gate's peephole sees the new
/// cell state), the candidate `g(clip(...))`, `c = f ⊙ c + i ⊙ g` and `h =
/// o ⊙ h(c)`; with `input_forget`, `f = 1 - i`.
///
/// `W`'s rows hold the gates in the order `i o f c`, the peepholes `p`
/// (`[directions, 3 * hidden]`) the order `i o f`; shapes, layouts and
/// sequence lengths as for `graph.rnn`, with `4 * hidden` rows per
/// direction, and a third result, the last cell state `y_c`.
#[op("graph.lstm",
     traits(Pure),
     format = "$x `,` $w `,` $r (`bias` $b^)? (`sequence_lens` $sequence_lens^)? (`initial_h` $initial_h^)? (`initial_c` $initial_c^)? (`peepholes` $p^)? attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_recurrent)))]
pub struct LstmOp {
    x: Operand<FloatTensor>,
    w: Operand<FloatTensor>,
    r: Operand<FloatTensor>,
    b: Optional<FloatTensor>,
    sequence_lens: Optional<IntTensor>,
    initial_h: Optional<FloatTensor>,
    initial_c: Optional<FloatTensor>,
    p: Optional<FloatTensor>,
    hidden_size: Attr<I64Attr>,
    #[default = "\"forward\""]
    direction: Attr<StrAttr>,
    #[default = "0"]
    layout: Attr<I64Attr>,
    activations: OptionalAttr<StrArrayAttr>,
    activation_alpha: OptionalAttr<F64ArrayAttr>,
    activation_beta: OptionalAttr<F64ArrayAttr>,
    clip: OptionalAttr<F64Attr>,
    #[default = "false"]
    input_forget: Attr<BoolAttr>,
    y: Result<FloatTensor>,
    y_h: Result<FloatTensor>,
    y_c: Result<FloatTensor>,
}

/// Linear attention, ONNX's `LinearAttention`: a recurrent state per
/// key/value head, updated token by token and read by each query.
///
/// The state `S` (`[batch, kv_heads, d_k, d_v]`) is updated by one of
///
/// - `linear`: `S = S + k ⊗ v`,
/// - `gated`: `S = exp(g) S + k ⊗ v`,
/// - `delta`: `S = S + β k ⊗ (v - Sᵀ k)`,
/// - `gated_delta`: `S = exp(g) S + β k ⊗ (v - exp(g) Sᵀ k)`,
///
/// and `o = scale * qᵀ S` (`scale` defaults to `1 / sqrt(d_k)`).
///
/// `query`, `key` and `value` are `[batch, seq, heads * d]` with the heads
/// packed in the last dimension (`q_num_heads` query heads, each
/// `kv_num_heads`-th group sharing a key/value head); `decay` (`g`, in log
/// space; the gated rules only) is `[batch, seq, kv_heads]` or `[batch,
/// seq, kv_heads * d_k]`, `beta` (the delta rules only) `[batch, seq,
/// kv_heads]` or `[batch, seq, 1]`. Results: `output` `[batch, seq,
/// q_heads * d_v]` and the last state `present_state`, of `past_state`'s
/// element type (`query`'s without one; zeros are the initial state).
/// Computed in f32, as ONNX's reference.
#[op("graph.linear_attention",
     traits(Pure),
     format = "$query `,` $key `,` $value (`past_state` $past_state^)? (`decay` $decay^)? (`beta` $beta^)? attr-dict `:` functional-type(operands, results)",
     fold = crate::graph::fold::fold_graph,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_linear_attention)))]
pub struct LinearAttentionOp {
    query: Operand<FloatTensor>,
    key: Operand<FloatTensor>,
    value: Operand<FloatTensor>,
    past_state: Optional<FloatTensor>,
    decay: Optional<FloatTensor>,
    beta: Optional<FloatTensor>,
    q_num_heads: Attr<I64Attr>,
    kv_num_heads: Attr<I64Attr>,
    #[default = "\"gated_delta\""]
    update_rule: Attr<StrAttr>,
    scale: OptionalAttr<F64Attr>,
    output: Result<FloatTensor>,
    present_state: Result<FloatTensor>,
}
