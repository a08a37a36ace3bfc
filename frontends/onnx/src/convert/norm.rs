//! Normalizations: `LayerNormalization` and `RMSNormalization`,
//! `BatchNormalization` (inference and training), and those that import as
//! compositions (`InstanceNormalization`, `GroupNormalization`,
//! `LpNormalization`, `MeanVarianceNormalization`).

use strata_dialects::graph::shape::shape_of;
use strata_ir::float::FloatKind;
use strata_ir::{Location, Value};

use super::{one, scalar_attr, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;
use crate::ConvertError;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("LayerNormalization", layer_norm),
    ("RMSNormalization", layer_norm),
    ("BatchNormalization", batch_norm),
    ("InstanceNormalization", instance_normalization),
    ("GroupNormalization", group_normalization),
    ("LpNormalization", lp_normalization),
    ("MeanVarianceNormalization", mean_variance_normalization),
];

/// `LayerNormalization` and `RMSNormalization`.
fn layer_norm(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let op = node.op_type();
    let extra = node.output.iter().skip(1).any(|o| !o.is_empty());
    if extra && op == "RMSNormalization" {
        return Err(ConvertError::unsupported(
            "with more than one output is not supported",
        ));
    }
    let mut ops = vec![im.req(node, 0)?, im.req(node, 1)?];
    let name = if op == "LayerNormalization" {
        ops.extend(im.input(node, 2)?);
        "graph.layer_norm"
    } else {
        "graph.rms_norm"
    };
    let props = vec![
        ("axis", im.i64_attr(a.int("axis").unwrap_or(-1))),
        (
            "epsilon",
            im.f64_attr(f64::from(a.float("epsilon").unwrap_or(1e-5))),
        ),
    ];
    let x = ops[0];
    let y = im.op1(name, ops, props, loc)?;
    if !extra {
        return Ok(vec![y]);
    }
    let (mean, inv_std) = im.layer_norm_stats(a, x, loc)?;
    Ok(vec![y, mean, inv_std])
}

fn batch_norm(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let mut ops = (0..5).map(|i| im.req(node, i)).collect::<Res<Vec<_>>>()?;
    let eps = im.f64_attr(f64::from(a.float("epsilon").unwrap_or(1e-5)));
    if a.int("training_mode").unwrap_or(0) == 0 {
        if node.output.iter().skip(1).any(|o| !o.is_empty()) {
            return Err("outside training mode has one output".into());
        }
        return one(im.op1("graph.batch_norm", ops, vec![("epsilon", eps)], loc));
    }
    // Training mode: normalize with the batch's statistics (over
    // every axis but the channels; the variance is the
    // population one) and update the running ones.
    let x = ops[0];
    let rank = im
        .dims_of(x)
        .map(|d| d.len())
        .ok_or("needs a ranked input")?;
    if rank < 2 {
        return Err("needs an input of rank 2 or more".into());
    }
    let elem = im.elem(x).ok_or("operand is not a tensor")?;
    let axes: Vec<i64> = std::iter::once(0).chain(2..rank as i64).collect();
    let axes = im.const_i64(&axes, loc)?;
    let keep = vec![("keepdims", im.bool_attr(true))];
    let drop = vec![("keepdims", im.bool_attr(false))];
    let mean_k = im.op1("graph.reduce_mean", vec![x, axes], keep.clone(), loc)?;
    let centered = im.op1("graph.sub", vec![x, mean_k], vec![], loc)?;
    let squared = im.op1("graph.mul", vec![centered, centered], vec![], loc)?;
    let mean = im.op1("graph.reduce_mean", vec![x, axes], drop.clone(), loc)?;
    let var = im.op1("graph.reduce_mean", vec![squared, axes], drop, loc)?;
    let (running_mean, running_var) = (ops[3], ops[4]);
    ops[3] = mean;
    ops[4] = var;
    let y = im.op1("graph.batch_norm", ops, vec![("epsilon", eps)], loc)?;
    let momentum = f64::from(a.float("momentum").unwrap_or(0.9));
    let m = im.scalar(elem, momentum, loc)?;
    let one_minus = im.scalar(elem, 1.0 - momentum, loc)?;
    let mut blend = |old: Value, new: Value| -> Res<Value> {
        let a = im.op1("graph.mul", vec![old, m], vec![], loc)?;
        let b = im.op1("graph.mul", vec![new, one_minus], vec![], loc)?;
        im.op1("graph.add", vec![a, b], vec![], loc)
    };
    let new_mean = blend(running_mean, mean)?;
    let new_var = blend(running_var, var)?;
    Ok(vec![y, new_mean, new_var])
}

fn instance_normalization(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // Per sample and channel over the spatial dims, then the
    // channel's scale and bias.
    let rank = im.rank_of(x).ok_or("needs an input of known rank")?;
    if rank < 3 {
        return Err(format!("needs an input of rank 3 or more, not {rank}").into());
    }
    let spatial: Vec<i64> = (2..rank as i64).collect();
    let eps = a.float_or("epsilon", 1e-5);
    let y = im.normalize(x, &spatial, eps, loc)?;
    let (scale, bias) = (im.req(node, 1)?, im.req(node, 2)?);
    one(im.channel_affine(y, scale, bias, rank, loc))
}

fn group_normalization(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // x: [N, C, ...] -> [N, G, C/G * ...], normalized over the
    // last dim, back to x's shape, then per-channel scale, bias.
    let rank = im.rank_of(x).ok_or("needs an input of known rank")?;
    if rank < 3 {
        return Err(format!("needs an input of rank 3 or more, not {rank}").into());
    }
    let groups = a.int("num_groups").ok_or("requires 'num_groups'")?;
    let eps = a.float_or("epsilon", 1e-5);
    let grouped_shape = im.const_i64(&[0, groups, -1], loc)?;
    let grouped = im.reshape(x, grouped_shape, loc)?;
    let y = im.normalize(grouped, &[2], eps, loc)?;
    let shape = im.op1("graph.shape_of", vec![x], vec![], loc)?;
    let y = im.reshape(y, shape, loc)?;
    let (scale, bias) = (im.req(node, 1)?, im.req(node, 2)?);
    one(im.channel_affine(y, scale, bias, rank, loc))
}

fn lp_normalization(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let axis = a.int("axis").unwrap_or(-1);
    let name = match a.int("p").unwrap_or(2) {
        1 => "graph.reduce_l1",
        2 => "graph.reduce_l2",
        p => {
            return Err(ConvertError::unsupported(format!(
                "with p = {p} is not supported (only 1 and 2)"
            )))
        }
    };
    let axes = im.const_i64(&[axis], loc)?;
    let keep = im.bool_attr(true);
    let norm = im.op1(name, vec![x, axes], vec![("keepdims", keep)], loc)?;
    // A zero norm divides by 1 (the slice is all zeros): 0, not NaN.
    let zero = im.scalar_like(x, 0.0, loc)?;
    let one = im.scalar_like(x, 1.0, loc)?;
    let is_zero = im.bin("graph.equal", norm, zero, loc)?;
    let den = im.op1("graph.where", vec![is_zero, one, norm], vec![], loc)?;
    Ok(vec![im.bin("graph.div", x, den, loc)?])
}

fn mean_variance_normalization(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // ONNX's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9).
    let axes = a.ints("axes").unwrap_or_else(|| vec![0, 2, 3]);
    let mean = im.reduce_mean(x, &axes, loc)?;
    let sq = im.bin("graph.mul", x, x, loc)?;
    let mean_sq = im.reduce_mean(sq, &axes, loc)?;
    let sq_mean = im.bin("graph.mul", mean, mean, loc)?;
    let var = im.bin("graph.sub", mean_sq, sq_mean, loc)?;
    let std = im.un("graph.sqrt", var, loc)?;
    let eps = im.scalar_like(x, 1e-9, loc)?;
    let den = im.bin("graph.add", std, eps, loc)?;
    let centered = im.bin("graph.sub", x, mean, loc)?;
    one(im.bin("graph.div", centered, den, loc))
}

impl Importer<'_> {
    /// The `Mean` and `InvStdDev` outputs of LayerNormalization, computed
    /// (in the input's type) over the normalized dimensions, kept as size 1.
    fn layer_norm_stats(&mut self, a: &Attrs, x: Value, loc: Location) -> Res<(Value, Value)> {
        if a.int("stash_type").unwrap_or(1) != 1 {
            return Err(ConvertError::unsupported(
                "with stash_type other than 1 is not supported",
            ));
        }
        let elem = self.elem(x).ok_or("operand is not a tensor")?;
        if self.ctx.float_kind(elem) != Some(FloatKind::F32) {
            return Err("with mean or inverse-deviation outputs is supported on f32 only".into());
        }
        let rank = shape_of(self.ctx, self.ctx.value_type(x))
            .and_then(|(s, _)| s.rank())
            .ok_or("with mean or inverse-deviation outputs needs a ranked input")?
            as i64;
        let axis = a.int("axis").unwrap_or(-1);
        let first = if axis < 0 { axis + rank } else { axis };
        if first < 0 || first >= rank {
            return Err(format!("axis {axis} is out of range for rank {rank}").into());
        }
        let axes: Vec<i64> = (first..rank).collect();
        let axes = self.const_i64(&axes, loc)?;
        let keep = vec![("keepdims", self.bool_attr(true))];
        let mean = self.op1("graph.reduce_mean", vec![x, axes], keep.clone(), loc)?;
        let centered = self.op1("graph.sub", vec![x, mean], vec![], loc)?;
        let squared = self.op1("graph.mul", vec![centered, centered], vec![], loc)?;
        let var = self.op1("graph.reduce_mean", vec![squared, axes], keep, loc)?;
        let eps_ty = self.ctx.tensor_type(vec![], elem);
        let eps = f64::from(a.float("epsilon").unwrap_or(1e-5));
        let eps = scalar_attr(self.ctx, eps_ty, eps).ok_or("could not build epsilon")?;
        let eps = self.constant(eps, loc)?;
        let shifted = self.op1("graph.add", vec![var, eps], vec![], loc)?;
        let inv_std = self.op1("graph.rsqrt", vec![shifted], vec![], loc)?;
        Ok((mean, inv_std))
    }

    /// `(x - mean) / sqrt(var + eps)` over `axes` (population variance).
    fn normalize(&mut self, x: Value, axes: &[i64], eps: f64, loc: Location) -> Res<Value> {
        let mean = self.reduce_mean(x, axes, loc)?;
        let centered = self.bin("graph.sub", x, mean, loc)?;
        let sq = self.bin("graph.mul", centered, centered, loc)?;
        let var = self.reduce_mean(sq, axes, loc)?;
        let eps = self.scalar_like(x, eps, loc)?;
        let shifted = self.bin("graph.add", var, eps, loc)?;
        let std = self.un("graph.sqrt", shifted, loc)?;
        self.bin("graph.div", centered, std, loc)
    }

    /// `y * scale + bias` with `[C]` parameters on dimension 1 of a
    /// rank-`rank` tensor.
    fn channel_affine(
        &mut self,
        y: Value,
        scale: Value,
        bias: Value,
        rank: usize,
        loc: Location,
    ) -> Res<Value> {
        let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
        let axes = self.const_i64(&trailing, loc)?;
        let s = self.op1("graph.unsqueeze", vec![scale, axes], vec![], loc)?;
        let b = self.op1("graph.unsqueeze", vec![bias, axes], vec![], loc)?;
        let scaled = self.bin("graph.mul", y, s, loc)?;
        self.bin("graph.add", scaled, b, loc)
    }
}
