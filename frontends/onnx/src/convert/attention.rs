//! `Attention` (opset 23), fused into `graph.attention` or spelled out with
//! graph ops, `RotaryEmbedding`, and FlexAttention (`ai.onnx.preview`)
//! spelled out.

use strata_dialects::graph::shape::Dim;
use strata_ir::{Location, Type, Value};

use super::{one, scalar_attr, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;
use crate::ConvertError;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("Attention", attention),
    ("RotaryEmbedding", rotary_embedding),
    ("ai.onnx.preview:FlexAttention", flex_attention),
];

fn attention(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    im.convert_attention(node, a, loc)
}

fn rotary_embedding(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    one(im.rotary_embedding(node, a, x, loc))
}

/// FlexAttention (`ai.onnx.preview` 1): attention on 4-D `Q`, `K`, `V`
/// whose scores and probabilities pass through user subgraphs, spelled out
/// as ONNX's reference computes it. `Q` and `K` are each scaled by
/// `sqrt(scale)` (default `scale` `1/sqrt(E)`, the root taken in f32) before
/// `Q Kᵀ`; key and value heads repeat for grouped queries; the scores are
/// cast to the softmax precision (`softmax_precision`, else f32 for 16-bit
/// floats and the input type otherwise), go through `score_mod` (inlined),
/// a softmax over the keys and `prob_mod` (inlined), and multiply `V` in
/// that precision; the result has `V`'s type.
fn flex_attention(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let (q, k, v) = (im.req(node, 0)?, im.req(node, 1)?, im.req(node, 2)?);
    let mut dims = Vec::with_capacity(3);
    for (name, x) in [("Q", q), ("K", k), ("V", v)] {
        match im.dims_of(x) {
            Some(d) if d.len() == 4 => dims.push(d),
            _ => return Err(format!("needs a 4-D {name}").into()),
        }
    }
    let (q_elem, v_elem) = (
        im.elem(q).ok_or("needs a tensor Q")?,
        im.elem(v).ok_or("needs a tensor V")?,
    );
    let scale = match a.float("scale") {
        Some(s) => f64::from(s),
        None => match dims[0][3] {
            Dim::Known(e) if e > 0 => 1.0 / (e as f64).sqrt(),
            _ => return Err("needs a static head size of Q, or a 'scale'".into()),
        },
    };
    let (mut k, mut v) = (k, v);
    match (&dims[0][1], &dims[1][1], &dims[2][1]) {
        (Dim::Known(qh), Dim::Known(kh), Dim::Known(vh)) => {
            if kh != vh {
                return Err(format!("has {kh} key heads but {vh} value heads").into());
            }
            if qh != kh {
                k = im.repeat_heads(k, *qh, *kh, loc)?;
                v = im.repeat_heads(v, *qh, *kh, loc)?;
            }
        }
        (qh, kh, _) if qh == kh => {}
        _ => return Err("needs static head counts where Q's and K's may differ".into()),
    }
    let root = f64::from((scale as f32).sqrt());
    let root = im.scalar_like(q, root, loc)?;
    let qs = im.bin("graph.mul", q, root, loc)?;
    let ks = im.bin("graph.mul", k, root, loc)?;
    let perm = vec![("perm", im.i64_array(&[0, 1, 3, 2]))];
    let kt = im.op1("graph.transpose", vec![ks], perm, loc)?;
    let scores = im.bin("graph.matmul", qs, kt, loc)?;
    let compute = match a.int("softmax_precision") {
        Some(p) => match p {
            1 | 10 | 11 | 16 => crate::tensor::element_type(im.ctx, p as i32)
                .ok_or("has a softmax_precision this build cannot represent")?,
            _ => return Err(format!("has softmax_precision {p}, not a float type").into()),
        },
        None => {
            let f16 = crate::tensor::element_type(im.ctx, 10);
            let bf16 = crate::tensor::element_type(im.ctx, 16);
            if Some(q_elem) == f16 || Some(q_elem) == bf16 {
                im.ctx.float_type(strata_ir::float::FloatKind::F32)
            } else {
                q_elem
            }
        }
    };
    let mut scores = im.cast_to(scores, compute, loc)?;
    if let Some(g) = a.graph("score_mod") {
        let out = im.inline_subgraph(g, &[scores], loc)?;
        let [s] = out[..] else {
            return Err("has a score_mod with other than one output".into());
        };
        scores = im.cast_to(s, compute, loc)?;
    }
    let axis = vec![("axis", im.i64_attr(-1))];
    let mut probs = im.op1("graph.softmax", vec![scores], axis, loc)?;
    if let Some(g) = a.graph("prob_mod") {
        let out = im.inline_subgraph(g, &[probs], loc)?;
        let [p] = out[..] else {
            return Err("has a prob_mod with other than one output".into());
        };
        probs = im.cast_to(p, compute, loc)?;
    }
    let v = im.cast_to(v, compute, loc)?;
    let y = im.bin("graph.matmul", probs, v, loc)?;
    one(im.cast_to(y, v_elem, loc))
}

impl Importer<'_> {
    /// ONNX Attention (opset 23): 3-D inputs are split into heads and
    /// merged back, past keys and values are concatenated in front of the
    /// new ones (and returned as the present ones), and a causal mask is
    /// aligned after the past positions; the core is `graph.attention` on
    /// 4-D tensors.
    fn convert_attention(&mut self, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
        if node.input.len() > 7 {
            return Err(format!("has {} inputs (at most 7)", node.input.len()).into());
        }
        let nonpad = self.input(node, 6)?;
        let softcap = a.float("softcap").filter(|&c| c != 0.0);
        let qk_out = node.output.get(3).is_some_and(|o| !o.is_empty());
        // The fused op has no softcap, padding lengths or score output:
        // those go through the decomposed form.
        let decompose = softcap.is_some() || qk_out || nonpad.is_some();
        let (mut q, mut k, mut v) = (self.req(node, 0)?, self.req(node, 1)?, self.req(node, 2)?);
        let rank = self
            .dims_of(q)
            .map(|d| d.len())
            .ok_or("needs inputs of known rank")?;
        let three_d = rank == 3;
        if three_d {
            let qh = a
                .int("q_num_heads")
                .ok_or("on 3-D inputs requires q_num_heads")?;
            let kvh = a
                .int("kv_num_heads")
                .ok_or("on 3-D inputs requires kv_num_heads")?;
            q = self.split_heads(q, qh, loc)?;
            k = self.split_heads(k, kvh, loc)?;
            v = self.split_heads(v, kvh, loc)?;
        } else if rank != 4 {
            return Err(ConvertError::unsupported(format!(
                "on rank-{rank} inputs is not supported (3-D or 4-D)"
            )));
        }
        let axis2 = vec![("axis", self.i64_attr(2))];
        let (past_k, past_v) = (self.input(node, 4)?, self.input(node, 5)?);
        let past_len = past_k
            .and_then(|p| self.dims_of(p))
            .and_then(|d| d.get(2).cloned());
        if let (Some(pk), Some(pv)) = (past_k, past_v) {
            k = self.op1("graph.concat", vec![pk, k], axis2.clone(), loc)?;
            v = self.op1("graph.concat", vec![pv, v], axis2, loc)?;
        } else if past_k.is_some() || past_v.is_some() {
            return Err("needs both past_key and past_value, or neither".into());
        }
        let elem = self.elem(q).ok_or("operand is not a tensor")?;
        let causal = a.int("is_causal").unwrap_or(0) != 0;
        let mut mask = self.input(node, 3)?;
        // A mask shorter than the key sequence is padded (masked out).
        if let Some(m) = mask {
            let (md, kd) = (self.dims_of(m), self.dims_of(k));
            if let (Some(md), Some(kd)) = (md, kd) {
                if let (Some(Dim::Known(have)), Some(Dim::Known(want))) = (md.last(), kd.get(2)) {
                    if have < want {
                        mask = Some(self.pad_mask(m, md.len(), want - have, elem, loc)?);
                    }
                }
            }
        }
        if decompose {
            let past = match &past_len {
                None if past_k.is_none() => 0,
                Some(Dim::Known(p)) => *p,
                _ => {
                    return Err(ConvertError::unsupported(
                        "with a past of unknown length is not supported here",
                    ))
                }
            };
            if causal {
                mask = Some(self.causal_mask(q, k, past, mask, elem, loc)?);
            }
            let parts = AttentionParts {
                mask,
                nonpad,
                scale: a.float("scale").map(f64::from),
                softcap: softcap.map(f64::from),
                mode: a.int("qk_matmul_output_mode").unwrap_or(0),
            };
            let (mut y, scores) = self.attention_decomposed(q, k, v, parts, elem, loc)?;
            if three_d {
                y = self.merge_heads(y, loc)?;
            }
            let mut outs = vec![y, k, v];
            if qk_out {
                outs.push(scores);
            }
            return Ok(outs);
        }
        let mut props = Vec::new();
        if causal {
            let past = match &past_len {
                None if past_k.is_none() => Some(0),
                Some(Dim::Known(p)) => Some(*p),
                _ => None,
            };
            match past {
                Some(0) => props.push(("is_causal", self.bool_attr(true))),
                Some(p) => mask = Some(self.causal_mask(q, k, p, mask, elem, loc)?),
                None => {
                    return Err(ConvertError::unsupported(
                        "with is_causal and a past of unknown length is not supported",
                    ))
                }
            }
        }
        if let Some(s) = a.float("scale") {
            props.push(("scale", self.f64_attr(f64::from(s))));
        }
        let ops = [q, k, v].into_iter().chain(mask).collect();
        let mut y = self.op1("graph.attention", ops, props, loc)?;
        if three_d {
            let perm = vec![("perm", self.i64_array(&[0, 2, 1, 3]))];
            y = self.op1("graph.transpose", vec![y], perm, loc)?;
            let merged = self.const_i64(&[0, 0, -1], loc)?;
            y = self.op1("graph.reshape", vec![y, merged], vec![], loc)?;
        }
        let mut outs = vec![y];
        if node.output.get(1).is_some_and(|o| !o.is_empty())
            || node.output.get(2).is_some_and(|o| !o.is_empty())
        {
            outs.push(k);
            outs.push(v);
        }
        Ok(outs)
    }

    /// `[B, H, S, D]` to `[B, S, H * D]`.
    fn merge_heads(&mut self, y: Value, loc: Location) -> Res<Value> {
        let perm = vec![("perm", self.i64_array(&[0, 2, 1, 3]))];
        let t = self.op1("graph.transpose", vec![y], perm, loc)?;
        let merged = self.const_i64(&[0, 0, -1], loc)?;
        self.op1("graph.reshape", vec![t, merged], vec![], loc)
    }

    /// Attention spelled out with graph ops, as the ONNX reference computes
    /// it: scores `q kᵀ * scale`, softcap, plus the mask (bool masks keep
    /// where true) and the key padding of `nonpad_kv_seqlen`, softmax, times
    /// `v`; key/value heads repeat for grouped queries. Returns the output
    /// and the score output that `mode` selects.
    fn attention_decomposed(
        &mut self,
        q: Value,
        mut k: Value,
        mut v: Value,
        parts: AttentionParts,
        elem: Type,
        loc: Location,
    ) -> Res<(Value, Value)> {
        let (qd, kd) = (
            self.dims_of(q).ok_or("needs ranked q")?,
            self.dims_of(k).ok_or("needs ranked k")?,
        );
        let (Some(Dim::Known(qh)), Some(Dim::Known(kh))) = (qd.get(1).cloned(), kd.get(1).cloned())
        else {
            return Err("needs static head counts here".into());
        };
        if qh != kh {
            k = self.repeat_heads(k, qh, kh, loc)?;
            v = self.repeat_heads(v, qh, kh, loc)?;
        }
        let e = match qd.get(3) {
            Some(Dim::Known(e)) => *e,
            _ => return Err("needs a static head size here".into()),
        };
        let scale = parts.scale.unwrap_or(1.0 / (e as f64).sqrt());
        let perm = vec![("perm", self.i64_array(&[0, 1, 3, 2]))];
        let kt = self.op1("graph.transpose", vec![k], perm, loc)?;
        let raw = self.op1("graph.matmul", vec![q, kt], vec![], loc)?;
        let scale = self.scalar(elem, scale, loc)?;
        let mut scores = self.op1("graph.mul", vec![raw, scale], vec![], loc)?;
        if let Some(c) = parts.softcap {
            let cap = self.scalar(elem, c, loc)?;
            let d = self.op1("graph.div", vec![scores, cap], vec![], loc)?;
            let t = self.op1("graph.tanh", vec![d], vec![], loc)?;
            scores = self.op1("graph.mul", vec![t, cap], vec![], loc)?;
        }
        let capped = scores;
        let zero = self.scalar(elem, 0.0, loc)?;
        let ninf = self.scalar(elem, f64::NEG_INFINITY, loc)?;
        if let Some(m) = parts.mask {
            let me = self.elem(m).ok_or("mask is not a tensor")?;
            let bias = if strata_ir::ods::constraints::is_i1(self.ctx, me) {
                self.op1("graph.where", vec![m, zero, ninf], vec![], loc)?
            } else {
                m
            };
            scores = self.op1("graph.add", vec![scores, bias], vec![], loc)?;
        }
        if let Some(lens) = parts.nonpad {
            // Keys at or past each batch's length are padding.
            let s_len = match self.dims_of(k).and_then(|d| d.get(2).cloned()) {
                Some(Dim::Known(s)) => s,
                _ => return Err("with nonpad_kv_seqlen needs a static key length".into()),
            };
            let positions: Vec<i64> = (0..s_len).collect();
            let positions = self.const_i64(&positions, loc)?;
            let col = self.const_i64(&[-1, 1, 1, 1], loc)?;
            let lens = self.op1("graph.reshape", vec![lens, col], vec![], loc)?;
            let keep = self.op1("graph.less", vec![positions, lens], vec![], loc)?;
            let bias = self.op1("graph.where", vec![keep, zero, ninf], vec![], loc)?;
            scores = self.op1("graph.add", vec![scores, bias], vec![], loc)?;
        }
        let axis = vec![("axis", self.i64_attr(-1))];
        let probs = self.op1("graph.softmax", vec![scores], axis, loc)?;
        let y = self.op1("graph.matmul", vec![probs, v], vec![], loc)?;
        let selected = match parts.mode {
            0 | 1 => capped,
            2 => scores,
            3 => probs,
            m => return Err(format!("qk_matmul_output_mode {m} is not defined").into()),
        };
        Ok((y, selected))
    }

    /// Key or value heads `x` (`[B, kh, S, D]`) repeated for `qh` query
    /// heads, each in place (`[h0, h0, h1, h1, ...]`), as grouped-query
    /// attention reads them.
    fn repeat_heads(&mut self, x: Value, qh: i64, kh: i64, loc: Location) -> Res<Value> {
        if kh <= 0 || qh % kh != 0 {
            return Err(
                format!("{qh} query heads are not a multiple of {kh} key/value heads").into(),
            );
        }
        let axes = self.const_i64(&[2], loc)?;
        let u = self.op1("graph.unsqueeze", vec![x, axes], vec![], loc)?;
        // Broadcast the new axis to the group size (`expand` lowers where
        // `tile` does not yet).
        let reps = self.const_i64(&[1, 1, qh / kh, 1, 1], loc)?;
        let t = self.op1("graph.expand", vec![u, reps], vec![], loc)?;
        // [B, kh, g, S, D] to [B, qh, S, D]: B copied (0), S inferred.
        let d = match self.dims_of(x).and_then(|d| d.get(3).cloned()) {
            Some(Dim::Known(d)) => d,
            _ => return Err("with grouped heads needs a static head size here".into()),
        };
        let target = self.const_i64(&[0, qh, -1, d], loc)?;
        self.op1("graph.reshape", vec![t, target], vec![], loc)
    }

    /// `[B, S, H * D]` to `[B, H, S, D]`.
    fn split_heads(&mut self, x: Value, heads: i64, loc: Location) -> Res<Value> {
        let shape = self.const_i64(&[0, 0, heads, -1], loc)?;
        let r = self.op1("graph.reshape", vec![x, shape], vec![], loc)?;
        let perm = vec![("perm", self.i64_array(&[0, 2, 1, 3]))];
        self.op1("graph.transpose", vec![r], perm, loc)
    }

    /// `mask` padded at the end of its last axis by `amount` masked-out
    /// positions (false, or -inf).
    fn pad_mask(
        &mut self,
        mask: Value,
        rank: usize,
        amount: i64,
        elem: Type,
        loc: Location,
    ) -> Res<Value> {
        let mut pads = vec![0i64; 2 * rank];
        pads[2 * rank - 1] = amount;
        let pads = self.const_i64(&pads, loc)?;
        let mask_elem = self.elem(mask).ok_or("mask is not a tensor")?;
        let fill = if strata_ir::ods::constraints::is_i1(self.ctx, mask_elem) {
            let ty = self.ctx.tensor_type(vec![], mask_elem);
            self.ctx
                .dense_elements_attr(ty, vec![0])
                .ok_or("could not build the padding")?
        } else {
            let _ = elem;
            let ty = self.ctx.tensor_type(vec![], mask_elem);
            scalar_attr(self.ctx, ty, f64::NEG_INFINITY).ok_or_else(|| {
                ConvertError::unsupported("with a mask of this type is not supported")
            })?
        };
        let fill = self.constant(fill, loc)?;
        let seg = self.segments(&[1, 1, 1, 0]);
        self.op1(
            "graph.pad",
            vec![mask, pads, fill],
            vec![("operandSegmentSizes", seg)],
            loc,
        )
    }

    /// The causal mask after `past` positions (`j <= past + i` is kept),
    /// combined with `mask` when there is one.
    fn causal_mask(
        &mut self,
        q: Value,
        k: Value,
        past: i64,
        mask: Option<Value>,
        elem: Type,
        loc: Location,
    ) -> Res<Value> {
        let (qd, kd) = (self.dims_of(q), self.dims_of(k));
        let (Some(Dim::Known(l)), Some(Dim::Known(s))) = (
            qd.and_then(|d| d.get(2).cloned()),
            kd.and_then(|d| d.get(2).cloned()),
        ) else {
            return Err("with is_causal and a past needs static sequence lengths".into());
        };
        let (rows, cols) = (
            usize::try_from(l).map_err(|_| "bad length")?,
            usize::try_from(s).map_err(|_| "bad length")?,
        );
        let keep: Vec<u8> = (0..rows)
            .flat_map(|i| (0..cols).map(move |j| u8::from(j as i64 <= past + i as i64)))
            .collect();
        let i1 = self.ctx.integer_type(1);
        let ty = self.ctx.tensor_type(vec![l, s], i1);
        let keep = self
            .ctx
            .dense_elements_attr(ty, keep)
            .ok_or("could not build the causal mask")?;
        let keep = self.constant(keep, loc)?;
        let Some(mask) = mask else { return Ok(keep) };
        let mask_elem = self.elem(mask).ok_or("mask is not a tensor")?;
        if strata_ir::ods::constraints::is_i1(self.ctx, mask_elem) {
            return self.op1("graph.and", vec![mask, keep], vec![], loc);
        }
        let ty = self.ctx.tensor_type(vec![], elem);
        let ninf = scalar_attr(self.ctx, ty, f64::NEG_INFINITY).ok_or_else(|| {
            ConvertError::unsupported("with a mask of this type is not supported")
        })?;
        let ninf = self.constant(ninf, loc)?;
        self.op1("graph.where", vec![keep, mask, ninf], vec![], loc)
    }
}

/// The optional parts of an ONNX Attention node (see
/// `Importer::attention_decomposed`).
struct AttentionParts {
    mask: Option<Value>,
    nonpad: Option<Value>,
    scale: Option<f64>,
    softcap: Option<f64>,
    mode: i64,
}

impl Importer<'_> {
    /// RotaryEmbedding (opset 23) on `[B, H, S, D]` or `[B, S, H*D]` input:
    /// the first `rotary_embedding_dim` features of each head rotate by the
    /// cos/sin caches (indexed by `position_ids` when given), as halves or
    /// interleaved pairs. Needs a static head size.
    fn rotary_embedding(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        x: Value,
        loc: Location,
    ) -> Res<Value> {
        let (cos, sin) = (self.req(node, 1)?, self.req(node, 2)?);
        let dims = self.dims_of(x).ok_or("needs an input of known rank")?;
        let heads = a.int("num_heads").unwrap_or(0);
        // To [B, S, H, D].
        let (x4, d) = match dims.as_slice() {
            [_, _, _, d] => {
                let perm = self.i64_array(&[0, 2, 1, 3]);
                let t = self.op1("graph.transpose", vec![x], vec![("perm", perm)], loc)?;
                (t, d.known())
            }
            [_, _, hidden] => {
                if heads <= 0 {
                    return Err("with a 3-D input needs num_heads".into());
                }
                if let Some(h) = hidden.known().filter(|h| h % heads != 0) {
                    return Err(
                        format!("hidden size {h} is not divisible by num_heads {heads}").into(),
                    );
                }
                let target = self.const_i64(&[0, 0, heads, -1], loc)?;
                let r = self.reshape(x, target, loc)?;
                (r, hidden.known().map(|h| h / heads))
            }
            _ => return Err(format!("needs a 3-D or 4-D input, not {}-D", dims.len()).into()),
        };
        let d = d.ok_or("needs a static head size")?;
        let rot = match a.int("rotary_embedding_dim").unwrap_or(0) {
            0 => d,
            r => r,
        };
        if rot <= 0 || rot > d || rot % 2 != 0 {
            return Err(format!(
                "rotary_embedding_dim {rot} must be even and at most the head size {d}"
            )
            .into());
        }
        let (cos, sin) = match self.input(node, 3)? {
            Some(pos) => {
                let axis = self.i64_attr(0);
                let c = self.op1("graph.gather", vec![cos, pos], vec![("axis", axis)], loc)?;
                let axis = self.i64_attr(0);
                let s = self.op1("graph.gather", vec![sin, pos], vec![("axis", axis)], loc)?;
                (c, s)
            }
            None => (cos, sin),
        };
        // [B, S, 1, rot / 2] against [B, S, H, rot / 2].
        let cos = self.unsqueeze(cos, &[2], loc)?;
        let sin = self.unsqueeze(sin, &[2], loc)?;
        let interleaved = a.int("interleaved").unwrap_or(0) != 0;
        let half = rot / 2;
        let (x1, x2) = if interleaved {
            (
                self.slice_last(x4, 0, rot, 2, loc)?,
                self.slice_last(x4, 1, rot, 2, loc)?,
            )
        } else {
            (
                self.slice_last(x4, 0, half, 1, loc)?,
                self.slice_last(x4, half, rot, 1, loc)?,
            )
        };
        let c1 = self.bin("graph.mul", cos, x1, loc)?;
        let s2 = self.bin("graph.mul", sin, x2, loc)?;
        let real = self.bin("graph.sub", c1, s2, loc)?;
        let s1 = self.bin("graph.mul", sin, x1, loc)?;
        let c2 = self.bin("graph.mul", cos, x2, loc)?;
        let imag = self.bin("graph.add", s1, c2, loc)?;
        let mut rotated = if interleaved {
            // Pairs (real, imag) back in place: [.., rot / 2, 2] to [.., rot].
            let r = self.unsqueeze(real, &[4], loc)?;
            let i = self.unsqueeze(imag, &[4], loc)?;
            let axis = self.i64_attr(4);
            let pairs = self.op1("graph.concat", vec![r, i], vec![("axis", axis)], loc)?;
            let target = self.const_i64(&[0, 0, 0, rot], loc)?;
            self.reshape(pairs, target, loc)?
        } else {
            let axis = self.i64_attr(3);
            self.op1("graph.concat", vec![real, imag], vec![("axis", axis)], loc)?
        };
        if rot < d {
            let rest = self.slice_last(x4, rot, d, 1, loc)?;
            let axis = self.i64_attr(3);
            rotated = self.op1(
                "graph.concat",
                vec![rotated, rest],
                vec![("axis", axis)],
                loc,
            )?;
        }
        if dims.len() == 4 {
            let perm = self.i64_array(&[0, 2, 1, 3]);
            self.op1("graph.transpose", vec![rotated], vec![("perm", perm)], loc)
        } else {
            let target = self.const_i64(&[0, 0, -1], loc)?;
            self.reshape(rotated, target, loc)
        }
    }

    /// `x[..., start:end:step]` on the last of 4 dimensions.
    fn slice_last(
        &mut self,
        x: Value,
        start: i64,
        end: i64,
        step: i64,
        loc: Location,
    ) -> Res<Value> {
        let ops = vec![
            x,
            self.const_i64(&[start], loc)?,
            self.const_i64(&[end], loc)?,
            self.const_i64(&[3], loc)?,
            self.const_i64(&[step], loc)?,
        ];
        let seg = self.segments(&[1, 1, 1, 1, 1]);
        self.op1("graph.slice", ops, vec![("operandSegmentSizes", seg)], loc)
    }
}
