//! The stateful sequence ops: `LinearAttention` (opset 27) as
//! `graph.linear_attention`; `CausalConvWithState` (27) spelled out with
//! graph ops (as ONNX's own function body for it does), and
//! `TensorScatter` (24, a KV-cache update) as a `scatter_elements`.

use strata_dialects::graph::shape::Dim;
use strata_ir::{Location, Value};

use super::attrs::Attrs;
use super::{ConvertError, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, super::Convert)] = &[
    ("LinearAttention", linear_attention),
    ("CausalConvWithState", causal_conv),
    ("TensorScatter", tensor_scatter),
];

fn tensor_scatter(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    im.convert_tensor_scatter(node, a, loc)
}

fn linear_attention(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    im.convert_linear_attention(node, a, loc)
}

fn causal_conv(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    im.convert_causal_conv(node, a, loc)
}

impl Importer<'_> {
    /// ONNX LinearAttention: the node's inputs are the op's operands
    /// (`past_state`, `decay` and `beta` optional) and its attributes the
    /// op's; `chunk_size`, a tuning hint that does not change the result,
    /// is dropped, and a `scale` of 0 (ONNX's "derive it") is no `scale`.
    fn convert_linear_attention(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        if node.input.len() > 6 {
            return Err(format!("has {} inputs (at most 6)", node.input.len()).into());
        }
        let q_heads = a.int("q_num_heads").ok_or("requires q_num_heads")?;
        let kv_heads = a.int("kv_num_heads").ok_or("requires kv_num_heads")?;
        let rule = a
            .string("update_rule")
            .unwrap_or_else(|| "gated_delta".into());
        let mut operands = vec![self.req(node, 0)?, self.req(node, 1)?, self.req(node, 2)?];
        let mut sizes: Vec<i32> = vec![1, 1, 1];
        for i in 3..6 {
            let v = self.input(node, i)?;
            sizes.push(i32::from(v.is_some()));
            operands.extend(v);
        }
        let rule_attr = self.ctx.string_attr(&rule);
        let mut props = vec![
            ("q_num_heads", self.i64_attr(q_heads)),
            ("kv_num_heads", self.i64_attr(kv_heads)),
            ("update_rule", rule_attr),
            ("operandSegmentSizes", self.segments(&sizes)),
        ];
        if let Some(s) = a.float("scale").filter(|&s| s != 0.0) {
            props.push(("scale", self.f64_attr(f64::from(s))));
        }
        self.op("graph.linear_attention", operands, props, 2, None, loc)
    }

    /// ONNX CausalConvWithState as ONNX's function body spells it: the
    /// input behind the past state (or `k - 1` zeros), a depthwise
    /// convolution of it without padding (`graph.conv2d` on a unit
    /// height, `group` the channel count), SiLU for `activation = silu`
    /// or `swish`; the present state is the padded input's last `k - 1`
    /// positions.
    fn convert_causal_conv(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        if node.input.len() > 4 {
            return Err(format!("has {} inputs (at most 4)", node.input.len()).into());
        }
        let activation = a.string("activation").unwrap_or_else(|| "none".into());
        if !matches!(activation.as_str(), "none" | "silu" | "swish") {
            return Err(format!(
                "has activation '{activation}' (expected 'none', 'silu' or 'swish')"
            )
            .into());
        }
        let (x, w) = (self.req(node, 0)?, self.req(node, 1)?);
        let (bias, past) = (self.input(node, 2)?, self.input(node, 3)?);
        let rank3 = |im: &Self, v: Value, what: &str| -> Res<Vec<Dim>> {
            match im.dims_of(v) {
                Some(d) if d.len() == 3 => Ok(d),
                Some(d) => Err(format!("needs a rank-3 {what}, got rank {}", d.len()).into()),
                None => Err(format!("needs a {what} of known rank").into()),
            }
        };
        let xd = rank3(self, x, "input")?;
        let wd = rank3(self, w, "weight")?;
        let k = wd[2]
            .known()
            .ok_or("needs a weight of known kernel size (its dimension 2)")?;
        let channels = wd[0]
            .known()
            .or_else(|| xd[1].known())
            .ok_or("needs a known channel count (the weight's dimension 0)")?;
        if k < 1 || channels < 1 {
            return Err(ConvertError::from(format!(
                "needs a positive kernel size and channel count, got {k} and {channels}"
            )));
        }
        let padded = match past {
            Some(p) => {
                let axis = self.i64_attr(2);
                self.op1("graph.concat", vec![p, x], vec![("axis", axis)], loc)?
            }
            None => {
                let pads = self.const_i64(&[0, 0, k - 1, 0, 0, 0], loc)?;
                let seg = self.segments(&[1, 1, 0, 0]);
                self.op1(
                    "graph.pad",
                    vec![x, pads],
                    vec![("operandSegmentSizes", seg)],
                    loc,
                )?
            }
        };
        let ux = self.unsqueeze(padded, &[2], loc)?;
        let uw = self.unsqueeze(w, &[2], loc)?;
        let mut operands = vec![ux, uw];
        operands.extend(bias);
        let props = vec![
            ("strides", self.i64_array(&[1, 1])),
            ("pads", self.i64_array(&[0, 0, 0, 0])),
            ("dilations", self.i64_array(&[1, 1])),
            ("group", self.i64_attr(channels)),
        ];
        let conv = self.op1("graph.conv2d", operands, props, loc)?;
        let axis2 = self.const_i64(&[2], loc)?;
        let mut out = self.op1("graph.squeeze", vec![conv, axis2], vec![], loc)?;
        if activation != "none" {
            out = self.un("graph.silu", out, loc)?;
        }
        // The last k - 1 positions (none for k = 1: a start past the end).
        let start = if k == 1 { i64::MAX } else { 1 - k };
        let starts = self.const_i64(&[start], loc)?;
        let ends = self.const_i64(&[i64::MAX], loc)?;
        let axes = self.const_i64(&[2], loc)?;
        let seg = self.segments(&[1, 1, 1, 1, 0]);
        let present = self.op1(
            "graph.slice",
            vec![padded, starts, ends, axes],
            vec![("operandSegmentSizes", seg)],
            loc,
        )?;
        Ok(vec![out, present])
    }

    /// ONNX TensorScatter: `update` written into `past_cache` along `axis`
    /// (not 0, the batch) from each batch row's `write_indices` entry (0
    /// without them), as `scatter_elements` whose indices along `axis`
    /// are `write_index + position` (modulo the cache's length in
    /// `circular` mode: the write index wraps, as the ONNX text says; its
    /// reference's pseudocode takes the modulo of the whole index, which
    /// differs only for leading indices past the cache's length).
    fn convert_tensor_scatter(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let (past, update) = (self.req(node, 0)?, self.req(node, 1)?);
        let write = self.input(node, 2)?;
        let mode = a.string("mode").unwrap_or_else(|| "linear".into());
        if !matches!(mode.as_str(), "linear" | "circular") {
            return Err(format!("has mode '{mode}' (expected 'linear' or 'circular')").into());
        }
        let (Some(pd), Some(ud)) = (self.dims_of(past), self.dims_of(update)) else {
            return Err("needs a cache and an update of known rank".into());
        };
        let rank = pd.len();
        if ud.len() != rank || rank < 2 {
            return Err(format!(
                "needs a cache and an update of one rank, 2 or more (got {} and {})",
                rank,
                ud.len()
            )
            .into());
        }
        let axis = a.int("axis").unwrap_or(-2);
        let r = rank as i64;
        if axis >= r || axis < -r || axis.rem_euclid(r) == 0 {
            return Err(format!(
                "has axis {axis}: expected a dimension of the rank-{rank} cache other than 0"
            )
            .into());
        }
        let axis = axis.rem_euclid(r) as usize;
        let seq = ud[axis]
            .known()
            .ok_or("needs an update of known length along axis")?;
        // The positions along the axis, [1, ..., seq, ..., 1].
        let positions: Vec<i64> = (0..seq).collect();
        let mut pos = self.const_i64(&positions, loc)?;
        let mut along = vec![1; rank];
        along[axis] = seq;
        let shape = self.const_i64(&along, loc)?;
        pos = self.reshape(pos, shape, loc)?;
        if let Some(w) = write {
            let mut rows = vec![1; rank];
            rows[0] = -1;
            let shape = self.const_i64(&rows, loc)?;
            let w = self.reshape(w, shape, loc)?;
            pos = self.bin("graph.add", w, pos, loc)?;
        }
        if mode == "circular" {
            let len = pd[axis]
                .known()
                .ok_or("in circular mode needs a cache of known length along axis")?;
            if len < 1 {
                return Err("in circular mode needs a cache of positive length along axis".into());
            }
            let l = self.const_i64_scalar(len, loc)?;
            pos = self.bin("graph.mod", pos, l, loc)?;
        }
        let shape = self.op1("graph.shape_of", vec![update], vec![], loc)?;
        let idx = self.op1("graph.expand", vec![pos, shape], vec![], loc)?;
        let none = self.ctx.string_attr("none");
        let props = vec![("axis", self.i64_attr(axis as i64)), ("reduction", none)];
        let out = self.op1(
            "graph.scatter_elements",
            vec![past, idx, update],
            props,
            loc,
        )?;
        Ok(vec![out])
    }
}
