//! Nodes of opsets older than the definitions the converters implement
//! ([`min_opset`](super::opset::min_opset)), converted natively by their
//! own definitions (not through onnx's version converter).
//!
//! An older definition is one of:
//! - the same as the newer one for everything the converter reads
//!   (attributes read by name, defaults that did not change): converted as
//!   it is, from the opset in [`same_since`];
//! - the newer one with attributes that later became inputs (`Clip`'s
//!   `min`/`max` before 11, `Pad`'s `pads`/`value` before 11, `Slice`'s
//!   `starts`/`ends`/`axes` before 10, `Reshape`'s `shape` before 5):
//!   the attributes become constant inputs;
//! - a different computation: binary ops with `broadcast`/`axis` before 7
//!   (the right operand aligned at `axis` of the left), `Softmax`,
//!   `LogSoftmax` and `Hardmax` before 13 (the input coerced to 2-D at
//!   `axis`, default 1), `PRelu`'s 1-D slope per channel before 7,
//!   `BatchNormalization`'s `spatial` before 9 (only `spatial = 1` is
//!   implemented).
//!
//! Anything older is an error naming the op, the node and the opset.

use strata_ir::{Location, Value};

use super::attrs::Attrs;
use super::{ConvertError, Importer, Res};
use crate::proto::{AttributeProto, NodeProto};

/// The oldest opset from which `op`'s definition converts as the newer
/// one does, when older than [`min_opset`](super::opset::min_opset).
fn same_since(op: &str) -> Option<i64> {
    Some(match op {
        // Attributes and defaults as at 11 (negative axes came at 11, and
        // `select_last_index`, `storage_order`, `ceil_mode`, `dilations`,
        // `count_include_pad` were added with their old behavior as default).
        "Conv" | "ConvTranspose" | "MaxPool" | "AveragePool" | "Flatten" | "Gather" | "MatMul"
        | "ArgMax" | "ArgMin" | "ReduceL1" | "ReduceL2" | "ReduceLogSumExp" | "ReduceMax"
        | "ReduceMean" | "ReduceMin" | "ReduceProd" | "ReduceSum" | "ReduceSumSquare"
        | "Squeeze" | "Unsqueeze" | "GlobalAveragePool" | "GlobalMaxPool" | "Transpose" => 1,
        // `p` an int from 2 (a float at 1).
        "LpPool" => 2,
        // `split` an attribute from 2 (an input at 1).
        "Split" => 2,
        // `axis` required from 4 (optional, default 1, before).
        "Concat" => 4,
        // Same-shape operands before 8: broadcasting is a superset.
        "Max" | "Min" | "Sum" | "Mean" => 6,
        // `is_test` (6) and `ratio`: inference is the identity either way.
        "Dropout" => 6,
        // `broadcast` on C before 7: unidirectional either way.
        "Gemm" => 6,
        // Unidirectional broadcasting of the slope from 7 (per channel before).
        "PRelu" => 7,
        "LeakyRelu"
        | "Elu"
        | "Selu"
        | "Relu"
        | "Sigmoid"
        | "Tanh"
        | "Exp"
        | "Log"
        | "Neg"
        | "Abs"
        | "Sqrt"
        | "Reciprocal"
        | "Floor"
        | "Ceil"
        | "HardSigmoid"
        | "Cast"
        | "InstanceNormalization" => 6,
        "Equal" | "Greater" | "Less" | "And" | "Or" | "Xor" | "Not" => 1,
        _ => return None,
    })
}

/// The binary ops that had `broadcast` and `axis` attributes before 7.
const BROADCAST_ATTR: [&str; 11] = [
    "Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less",
];

impl Importer<'_> {
    /// Converts `node`, of an opset older than `since` (the oldest whose
    /// definition the converter for its op type implements).
    pub(super) fn convert_legacy(
        &mut self,
        node: &NodeProto,
        since: i64,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let op = node.op_type();
        let a = Attrs(&node.attribute);
        let opset = self.opset;
        let refuse = |oldest: i64| {
            ConvertError::unsupported(format!(
                "at opset {opset} is not supported: strata implements {op} from opset {oldest}"
            ))
        };
        if BROADCAST_ATTR.contains(&op) {
            return self.binary_legacy(node, &a, loc);
        }
        match op {
            "Softmax" | "LogSoftmax" | "Hardmax" => return self.softmax_legacy(node, &a, loc),
            "Scan" if opset == 8 => return self.scan_v8(node, &a, loc),
            "BatchNormalization" if opset >= 6 => {
                if a.int("spatial") == Some(0) {
                    return Err(ConvertError::unsupported(
                        "spatial = 0 (statistics per element, before opset 9) is not supported",
                    ));
                }
                return self.convert_node(node, loc);
            }
            "Clip" if opset >= 6 => {
                let x = self.req(node, 0)?;
                let lo = self.scalar_like(x, a.float_or("min", f64::from(f32::MIN)), loc)?;
                let hi = self.scalar_like(x, a.float_or("max", f64::from(f32::MAX)), loc)?;
                let node = self.with_inputs(node, &[lo, hi], &["min", "max"]);
                return self.convert_node(&node, loc);
            }
            "Pad" if opset >= 2 => {
                let pads = a.ints("pads").ok_or("requires 'pads'")?;
                let x = self.req(node, 0)?;
                let pads = self.const_i64(&pads, loc)?;
                let value = self.scalar_like(x, a.float_or("value", 0.0), loc)?;
                let node = self.with_inputs(node, &[pads, value], &["pads", "value"]);
                return self.convert_node(&node, loc);
            }
            "PRelu" if opset < 7 => {
                // Before 7 a 1-D slope of the channel count is per channel
                // (axis 1), not aligned at the end as broadcasting would.
                let (x, slope) = (self.req(node, 0)?, self.req(node, 1)?);
                let rank = self.rank_of(x).ok_or("needs an input of known rank")? as i64;
                let per_channel = self.dims_of(slope).is_some_and(|d| {
                    d.len() == 1 && !matches!(d[0], strata_dialects::graph::shape::Dim::Known(1))
                });
                if rank < 3 || !per_channel {
                    return self.convert_node(node, loc);
                }
                let axes: Vec<i64> = (1..rank - 1).collect();
                let aligned = self.unsqueeze(slope, &axes, loc)?;
                let mut new = node.clone();
                let id = format!("{} (slope per channel)", node.name());
                self.values.insert(id.clone(), aligned);
                if let Some(input) = new.input.get_mut(1) {
                    *input = id;
                }
                return self.convert_node(&new, loc);
            }
            "Reshape" => {
                let shape = a.ints("shape").ok_or("requires 'shape' (before opset 5)")?;
                let shape = self.const_i64(&shape, loc)?;
                let node = self.with_inputs(node, &[shape], &["shape"]);
                return self.convert_node(&node, loc);
            }
            "Slice" => {
                let starts = a.ints("starts").ok_or("requires 'starts'")?;
                let ends = a.ints("ends").ok_or("requires 'ends'")?;
                let axes = a
                    .ints("axes")
                    .unwrap_or_else(|| (0..starts.len() as i64).collect());
                let values = [
                    self.const_i64(&starts, loc)?,
                    self.const_i64(&ends, loc)?,
                    self.const_i64(&axes, loc)?,
                ];
                let node = self.with_inputs(node, &values, &["starts", "ends", "axes"]);
                return self.convert_node(&node, loc);
            }
            _ => {}
        }
        match same_since(op) {
            Some(from) if opset >= from => self.convert_node(node, loc),
            Some(from) => Err(refuse(from)),
            None => Err(refuse(since)),
        }
    }

    /// `node` with `values` appended as inputs (named after the node and
    /// `names`) and the attributes of those names removed.
    fn with_inputs(&mut self, node: &NodeProto, values: &[Value], names: &[&str]) -> NodeProto {
        let mut new = node.clone();
        new.attribute
            .retain(|a: &AttributeProto| !names.contains(&a.name()));
        for (&v, name) in values.iter().zip(names) {
            let id = format!("{}/{name} (legacy attribute)", node.name());
            self.values.insert(id.clone(), v);
            new.input.push(id);
        }
        new
    }

    /// A binary op before 7: with `broadcast = 1` and an `axis`, the right
    /// operand's dimensions align with the left's from `axis` (trailing
    /// ones added); without an `axis` they align at the end, as
    /// broadcasting does. Without `broadcast` the shapes are equal.
    fn binary_legacy(&mut self, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
        let axis = a.int("axis");
        if a.int("broadcast") != Some(1) || axis.is_none() {
            return self.convert_node(node, loc);
        }
        let (l, r) = (self.req(node, 0)?, self.req(node, 1)?);
        let rl = self
            .rank_of(l)
            .ok_or("needs a left operand of known rank")? as i64;
        let rr = self
            .rank_of(r)
            .ok_or("needs a right operand of known rank")? as i64;
        let axis = axis.unwrap_or(0);
        let axis = if axis < 0 { axis + rl } else { axis };
        let trailing = rl - axis - rr;
        if axis < 0 || trailing < 0 {
            return Err(format!(
                "axis {axis}: a right operand of rank {rr} does not fit a left operand of rank {rl} there"
            )
            .into());
        }
        if trailing == 0 {
            return self.convert_node(node, loc);
        }
        let axes: Vec<i64> = (rr..rr + trailing).collect();
        let aligned = self.unsqueeze(r, &axes, loc)?;
        let mut new = node.clone();
        new.attribute
            .retain(|a| a.name() != "axis" && a.name() != "broadcast");
        let id = format!("{} (right operand aligned at axis {axis})", node.name());
        self.values.insert(id.clone(), aligned);
        if let Some(slot) = new.input.get_mut(1) {
            *slot = id;
        }
        self.convert_node(&new, loc)
    }

    /// `Softmax`, `LogSoftmax` and `Hardmax` before 13: the input as 2-D
    /// (the dimensions before `axis`, default 1, and from it), the op along
    /// the second, the result in the input's shape. Along the last axis
    /// that is the op along that axis.
    fn softmax_legacy(&mut self, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
        let x = self.req(node, 0)?;
        let rank = self.rank_of(x).ok_or("needs an input of known rank")? as i64;
        let axis = a.int("axis").unwrap_or(1);
        let axis = if axis < 0 { axis + rank } else { axis };
        if !(0..rank.max(1)).contains(&axis) {
            return Err(format!("axis {axis} is out of range for rank {rank}").into());
        }
        let mut new = node.clone();
        new.attribute.retain(|a| a.name() != "axis");
        let last = crate::proto::AttributeProto {
            name: Some("axis".into()),
            i: Some(if axis == rank - 1 || rank == 0 { -1 } else { 1 }),
            r#type: Some(crate::proto::attribute_proto::AttributeType::Int as i32),
            ..Default::default()
        };
        new.attribute.push(last);
        if axis == rank - 1 || rank == 0 {
            return self.convert_node(&new, loc);
        }
        let axis_attr = self.i64_attr(axis);
        let flat = self.op1("graph.flatten", vec![x], vec![("axis", axis_attr)], loc)?;
        let id = format!("{} (as 2-D at axis {axis})", node.name());
        self.values.insert(id.clone(), flat);
        if let Some(slot) = new.input.get_mut(0) {
            *slot = id;
        }
        let y = self.convert_node(&new, loc)?;
        let Some(&y) = y.first() else {
            return Err("produced no result".into());
        };
        let shape = self.op1("graph.shape_of", vec![x], vec![], loc)?;
        Ok(vec![self.reshape(y, shape, loc)?])
    }
}
