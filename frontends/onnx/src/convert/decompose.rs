//! ONNX ops that import as a composition of other `graph` ops.
//!
//! Each of these is a small formula over ops the dialect already has
//! (activations, normalizations, masks built from `range` and comparisons),
//! so it needs no op, shape function or kernel of its own, and every later
//! stage handles it for free. The formulas follow the ONNX operator
//! definitions (and their function bodies where ONNX gives one).

use strata_dialects::graph::shape::Dim;
use strata_ir::float::FloatKind;
use strata_ir::types::TypeKind;
use strata_ir::{Location, Type, Value};

use super::{scalar_attr, Attrs, Importer, Res};
use crate::proto::NodeProto;
use crate::tensor::{dtype_name, element_type};
use crate::ConvertError;

/// The ONNX op types [`Importer::convert_decomposed`] converts.
pub(super) const DECOMPOSED_OPS: &[&str] = &[
    "Acosh",
    "Asinh",
    "Atanh",
    "BlackmanWindow",
    "Celu",
    "CenterCropPad",
    "ConvInteger",
    "Cosh",
    "DepthToSpace",
    "DequantizeLinear",
    "DynamicQuantizeLinear",
    "Einsum",
    "EyeLike",
    "GroupNormalization",
    "HammingWindow",
    "HannWindow",
    "HardSwish",
    "Hardmax",
    "InstanceNormalization",
    "IsInf",
    "IsNaN",
    "LRN",
    "LpNormalization",
    "MeanVarianceNormalization",
    "NegativeLogLikelihoodLoss",
    "MatMulInteger",
    "Mish",
    "OneHot",
    "PRelu",
    "QLinearConv",
    "QLinearMatMul",
    "QuantizeLinear",
    "ReduceLogSum",
    "RotaryEmbedding",
    "Selu",
    "Shrink",
    "Sinh",
    "STFT",
    "SoftmaxCrossEntropyLoss",
    "Softsign",
    "SpaceToDepth",
    "Swish",
    "Tan",
    "ThresholdedRelu",
    "Trilu",
];

impl Importer<'_> {
    /// Converts one of [`DECOMPOSED_OPS`].
    pub(super) fn convert_decomposed(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let op = node.op_type();
        let x = self.req(node, 0)?;
        let float = |a: &Attrs, name: &str, default: f64| a.float(name).map_or(default, f64::from);
        let y = match op {
            "PRelu" => {
                // x < 0 ? slope * x : x (slope broadcasts to x).
                let slope = self.req(node, 1)?;
                let zero = self.scalar_like(x, 0.0, loc)?;
                let neg = self.bin("graph.less", x, zero, loc)?;
                let scaled = self.bin("graph.mul", x, slope, loc)?;
                self.op1("graph.where", vec![neg, scaled, x], vec![], loc)?
            }
            "Selu" => {
                let alpha = float(a, "alpha", 1.673_263_192_176_818_8);
                let gamma = float(a, "gamma", 1.050_701_022_148_132_3);
                let elu = self.elu(x, alpha, loc)?;
                let g = self.scalar_like(x, gamma, loc)?;
                self.bin("graph.mul", elu, g, loc)?
            }
            "Celu" => {
                // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), as
                // written (alpha * elu(x / alpha) only holds for alpha > 0).
                let alpha = float(a, "alpha", 1.0);
                if alpha == 0.0 {
                    return Err("with alpha = 0 is not defined".into());
                }
                let al = self.scalar_like(x, alpha, loc)?;
                let one = self.scalar_like(x, 1.0, loc)?;
                let zero = self.scalar_like(x, 0.0, loc)?;
                let pos = self.un("graph.relu", x, loc)?;
                let scaled = self.bin("graph.div", x, al, loc)?;
                let e = self.un("graph.exp", scaled, loc)?;
                let em1 = self.bin("graph.sub", e, one, loc)?;
                let neg = self.bin("graph.mul", em1, al, loc)?;
                let neg = self.bin("graph.min", neg, zero, loc)?;
                self.bin("graph.add", pos, neg, loc)?
            }
            "ThresholdedRelu" => {
                let alpha = self.scalar_like(x, float(a, "alpha", 1.0), loc)?;
                let zero = self.scalar_like(x, 0.0, loc)?;
                let keep = self.bin("graph.greater", x, alpha, loc)?;
                self.op1("graph.where", vec![keep, x, zero], vec![], loc)?
            }
            "HardSwish" => {
                let alpha = self.f64_attr(1.0 / 6.0);
                let beta = self.f64_attr(0.5);
                let hs = self.op1(
                    "graph.hard_sigmoid",
                    vec![x],
                    vec![("alpha", alpha), ("beta", beta)],
                    loc,
                )?;
                self.bin("graph.mul", x, hs, loc)?
            }
            "Mish" => {
                let sp = self.un("graph.softplus", x, loc)?;
                let t = self.un("graph.tanh", sp, loc)?;
                self.bin("graph.mul", x, t, loc)?
            }
            "Swish" => {
                let alpha = self.scalar_like(x, float(a, "alpha", 1.0), loc)?;
                let ax = self.bin("graph.mul", x, alpha, loc)?;
                let s = self.un("graph.sigmoid", ax, loc)?;
                self.bin("graph.mul", x, s, loc)?
            }
            "Softsign" => {
                let one = self.scalar_like(x, 1.0, loc)?;
                let abs = self.un("graph.abs", x, loc)?;
                let den = self.bin("graph.add", abs, one, loc)?;
                self.bin("graph.div", x, den, loc)?
            }
            "Shrink" => {
                // x < -lambd ? x + bias : (x > lambd ? x - bias : 0)
                let lambd = float(a, "lambd", 0.5);
                let bias = float(a, "bias", 0.0);
                let lo = self.scalar_like(x, -lambd, loc)?;
                let hi = self.scalar_like(x, lambd, loc)?;
                let b = self.scalar_like(x, bias, loc)?;
                let zero = self.scalar_like(x, 0.0, loc)?;
                let below = self.bin("graph.less", x, lo, loc)?;
                let above = self.bin("graph.greater", x, hi, loc)?;
                let up = self.bin("graph.add", x, b, loc)?;
                let down = self.bin("graph.sub", x, b, loc)?;
                let inner = self.op1("graph.where", vec![above, down, zero], vec![], loc)?;
                self.op1("graph.where", vec![below, up, inner], vec![], loc)?
            }
            "IsNaN" => {
                // NaN is the only value not equal to itself.
                let eq = self.bin("graph.equal", x, x, loc)?;
                self.un("graph.not", eq, loc)?
            }
            "IsInf" => {
                let pos = a.int("detect_positive").unwrap_or(1) != 0;
                let neg = a.int("detect_negative").unwrap_or(1) != 0;
                let pinf = self.scalar_like(x, f64::INFINITY, loc)?;
                let ninf = self.scalar_like(x, f64::NEG_INFINITY, loc)?;
                let is_pos = self.bin("graph.equal", x, pinf, loc)?;
                let is_neg = self.bin("graph.equal", x, ninf, loc)?;
                match (pos, neg) {
                    (true, true) => self.bin("graph.or", is_pos, is_neg, loc)?,
                    (true, false) => is_pos,
                    (false, true) => is_neg,
                    // Nothing detected: no value is both.
                    (false, false) => self.bin("graph.and", is_pos, is_neg, loc)?,
                }
            }
            "Tan" => {
                let s = self.un("graph.sin", x, loc)?;
                let c = self.un("graph.cos", x, loc)?;
                self.bin("graph.div", s, c, loc)?
            }
            "Sinh" | "Cosh" => {
                // (e^x -+ e^-x) / 2
                let e = self.un("graph.exp", x, loc)?;
                let nx = self.un("graph.neg", x, loc)?;
                let en = self.un("graph.exp", nx, loc)?;
                let name = if op == "Sinh" {
                    "graph.sub"
                } else {
                    "graph.add"
                };
                let sum = self.bin(name, e, en, loc)?;
                let half = self.scalar_like(x, 0.5, loc)?;
                self.bin("graph.mul", sum, half, loc)?
            }
            "Asinh" => {
                // sign(x) * log(|x| + sqrt(x^2 + 1)): odd, so negative x
                // does not cancel in the sum.
                let one = self.scalar_like(x, 1.0, loc)?;
                let ax = self.un("graph.abs", x, loc)?;
                let sq = self.bin("graph.mul", x, x, loc)?;
                let inner = self.bin("graph.add", sq, one, loc)?;
                let root = self.un("graph.sqrt", inner, loc)?;
                let sum = self.bin("graph.add", ax, root, loc)?;
                let l = self.un("graph.log", sum, loc)?;
                let sign = self.un("graph.sign", x, loc)?;
                self.bin("graph.mul", sign, l, loc)?
            }
            "Acosh" => {
                // log(x + sqrt(x^2 - 1)), for x >= 1.
                let one = self.scalar_like(x, 1.0, loc)?;
                let sq = self.bin("graph.mul", x, x, loc)?;
                let inner = self.bin("graph.sub", sq, one, loc)?;
                let root = self.un("graph.sqrt", inner, loc)?;
                let sum = self.bin("graph.add", x, root, loc)?;
                self.un("graph.log", sum, loc)?
            }
            "Atanh" => {
                // log((1 + x) / (1 - x)) / 2
                let one = self.scalar_like(x, 1.0, loc)?;
                let num = self.bin("graph.add", one, x, loc)?;
                let den = self.bin("graph.sub", one, x, loc)?;
                let q = self.bin("graph.div", num, den, loc)?;
                let l = self.un("graph.log", q, loc)?;
                let half = self.scalar_like(x, 0.5, loc)?;
                self.bin("graph.mul", l, half, loc)?
            }
            "ReduceLogSum" => {
                let axes = match a.ints("axes") {
                    Some(v) => Some(self.const_i64(&v, loc)?),
                    None => self.input(node, 1)?,
                };
                let props = vec![
                    (
                        "keepdims",
                        self.bool_attr(a.int("keepdims").unwrap_or(1) != 0),
                    ),
                    (
                        "noop_with_empty_axes",
                        self.bool_attr(a.int("noop_with_empty_axes").unwrap_or(0) != 0),
                    ),
                ];
                let operands = std::iter::once(x).chain(axes).collect();
                let sum = self.op1("graph.reduce_sum", operands, props, loc)?;
                self.un("graph.log", sum, loc)?
            }
            "LpNormalization" => {
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
                let axes = self.const_i64(&[axis], loc)?;
                let keep = self.bool_attr(true);
                let norm = self.op1(name, vec![x, axes], vec![("keepdims", keep)], loc)?;
                // A zero norm divides by 1 (the slice is all zeros): 0, not NaN.
                let zero = self.scalar_like(x, 0.0, loc)?;
                let one = self.scalar_like(x, 1.0, loc)?;
                let is_zero = self.bin("graph.equal", norm, zero, loc)?;
                let den = self.op1("graph.where", vec![is_zero, one, norm], vec![], loc)?;
                self.bin("graph.div", x, den, loc)?
            }
            "MeanVarianceNormalization" => {
                // ONNX's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9).
                let axes = a.ints("axes").unwrap_or_else(|| vec![0, 2, 3]);
                let mean = self.reduce_mean(x, &axes, loc)?;
                let sq = self.bin("graph.mul", x, x, loc)?;
                let mean_sq = self.reduce_mean(sq, &axes, loc)?;
                let sq_mean = self.bin("graph.mul", mean, mean, loc)?;
                let var = self.bin("graph.sub", mean_sq, sq_mean, loc)?;
                let std = self.un("graph.sqrt", var, loc)?;
                let eps = self.scalar_like(x, 1e-9, loc)?;
                let den = self.bin("graph.add", std, eps, loc)?;
                let centered = self.bin("graph.sub", x, mean, loc)?;
                self.bin("graph.div", centered, den, loc)?
            }
            "InstanceNormalization" => {
                // Per sample and channel over the spatial dims, then the
                // channel's scale and bias.
                let rank = self.rank_of(x).ok_or("needs an input of known rank")?;
                if rank < 3 {
                    return Err(format!("needs an input of rank 3 or more, not {rank}").into());
                }
                let spatial: Vec<i64> = (2..rank as i64).collect();
                let eps = float(a, "epsilon", 1e-5);
                let y = self.normalize(x, &spatial, eps, loc)?;
                let (scale, bias) = (self.req(node, 1)?, self.req(node, 2)?);
                self.channel_affine(y, scale, bias, rank, loc)?
            }
            "GroupNormalization" => {
                // x: [N, C, ...] -> [N, G, C/G * ...], normalized over the
                // last dim, back to x's shape, then per-channel scale, bias.
                let rank = self.rank_of(x).ok_or("needs an input of known rank")?;
                if rank < 3 {
                    return Err(format!("needs an input of rank 3 or more, not {rank}").into());
                }
                let groups = a.int("num_groups").ok_or("requires 'num_groups'")?;
                let eps = float(a, "epsilon", 1e-5);
                let grouped_shape = self.const_i64(&[0, groups, -1], loc)?;
                let grouped = self.reshape(x, grouped_shape, loc)?;
                let y = self.normalize(grouped, &[2], eps, loc)?;
                let shape = self.op1("graph.shape_of", vec![x], vec![], loc)?;
                let y = self.reshape(y, shape, loc)?;
                let (scale, bias) = (self.req(node, 1)?, self.req(node, 2)?);
                self.channel_affine(y, scale, bias, rank, loc)?
            }
            "DepthToSpace" | "SpaceToDepth" => self.depth_space(node, a, x, loc)?,
            "Trilu" => {
                // Keep x[..., i, j] where j - i >= k (upper) or <= k (lower).
                let rank = self.rank_of(x).ok_or("needs an input of known rank")?;
                if rank < 2 {
                    return Err(format!("needs an input of rank 2 or more, not {rank}").into());
                }
                let k = match self.input(node, 1)? {
                    Some(k) => self.scalar_i64(k, loc)?,
                    None => self.const_i64_scalar(0, loc)?,
                };
                let diff = self.diagonal_offsets(x, rank, loc)?;
                let name = if a.int("upper").unwrap_or(1) != 0 {
                    "graph.greater_equal"
                } else {
                    "graph.less_equal"
                };
                let keep = self.bin(name, diff, k, loc)?;
                let zero = self.scalar_like(x, 0.0, loc)?;
                self.op1("graph.where", vec![keep, x, zero], vec![], loc)?
            }
            "EyeLike" => {
                // Ones where j - i == k, in the dtype given or x's.
                if self.rank_of(x) != Some(2) {
                    return Err("needs a 2-D input".into());
                }
                let k = self.const_i64_scalar(a.int("k").unwrap_or(0), loc)?;
                let diff = self.diagonal_offsets(x, 2, loc)?;
                let on = self.bin("graph.equal", diff, k, loc)?;
                let elem = match a.int("dtype") {
                    Some(dt) => i32::try_from(dt)
                        .ok()
                        .and_then(|dt| element_type(self.ctx, dt))
                        .ok_or_else(|| {
                            let name =
                                i32::try_from(dt).map_or_else(|_| dt.to_string(), dtype_name);
                            ConvertError::unsupported(format!("dtype {name} is not supported"))
                        })?,
                    None => self.elem(x).ok_or("operand is not a tensor")?,
                };
                self.cast_to(on, elem, loc)?
            }
            "OneHot" => self.one_hot(node, a, x, loc)?,
            "Hardmax" => {
                // 1 at the first maximum along the axis, 0 elsewhere.
                let rank = self.rank_of(x).ok_or("needs an input of known rank")?;
                let axis = a.int("axis").unwrap_or(-1);
                let axis = if axis < 0 { axis + rank as i64 } else { axis };
                if !(0..rank as i64).contains(&axis) {
                    return Err(format!("axis {axis} is out of range for rank {rank}").into());
                }
                let props = vec![
                    ("axis", self.i64_attr(axis)),
                    ("keepdims", self.bool_attr(true)),
                ];
                let arg = self.op1("graph.argmax", vec![x], props, loc)?;
                let n = self.dim_scalar(x, axis as usize, loc)?;
                let positions = self.iota(n, rank - axis as usize - 1, loc)?;
                let at = self.bin("graph.equal", arg, positions, loc)?;
                let elem = self.elem(x).ok_or("operand is not a tensor")?;
                self.cast_to(at, elem, loc)?
            }
            "DequantizeLinear" => {
                // (x - zero_point) * scale computed in f32 (f64 for an f64
                // scale), as the reference, then in the scale's type (or
                // output_dtype).
                let scale = self.req(node, 1)?;
                let elem = self.elem(scale).ok_or("operand is not a tensor")?;
                let work = self.work_float(elem);
                let q = self.quant_layout(a, x)?;
                let scale = self.quant_param(scale, x, q, loc)?;
                let scale = self.cast_to(scale, work, loc)?;
                let mut v = self.cast_to(x, work, loc)?;
                if let Some(zp) = self.input(node, 2)? {
                    let zp = self.quant_param(zp, x, q, loc)?;
                    let zp = self.cast_to(zp, work, loc)?;
                    v = self.bin("graph.sub", v, zp, loc)?;
                }
                let y = self.bin("graph.mul", v, scale, loc)?;
                let out = match a.int("output_dtype").filter(|&t| t != 0) {
                    Some(t) => i32::try_from(t)
                        .ok()
                        .and_then(|t| element_type(self.ctx, t))
                        .ok_or_else(|| {
                            ConvertError::unsupported(format!("output_dtype {t} is not supported"))
                        })?,
                    None => elem,
                };
                self.cast_to(y, out, loc)?
            }
            "QuantizeLinear" => {
                // saturate(round(x / scale) + zero_point), computed in f32
                // (f64 for f64 input or a 32-bit result).
                let elem = self.elem(x).ok_or("operand is not a tensor")?;
                let zp = self.input(node, 2)?;
                let out = match (zp, a.int("output_dtype").filter(|&t| t != 0)) {
                    (Some(z), _) => self.elem(z).ok_or("operand is not a tensor")?,
                    (None, Some(t)) => i32::try_from(t)
                        .ok()
                        .and_then(|t| element_type(self.ctx, t))
                        .ok_or_else(|| {
                            ConvertError::unsupported(format!("output_dtype {t} is not supported"))
                        })?,
                    (None, None) => self.ctx.unsigned_integer_type(8),
                };
                let (lo, hi) = self.int_bounds(out)?;
                let work = if hi > f64::from(u16::MAX) {
                    self.ctx.float_type(FloatKind::F64)
                } else {
                    self.work_float(elem)
                };
                let q = self.quant_layout(a, x)?;
                let scale = self.req(node, 1)?;
                let scale = self.quant_param(scale, x, q, loc)?;
                let scale = self.cast_to(scale, work, loc)?;
                let xw = self.cast_to(x, work, loc)?;
                let scaled = self.bin("graph.div", xw, scale, loc)?;
                let mut v = self.un("graph.round", scaled, loc)?;
                if let Some(zp) = zp {
                    let zp = self.quant_param(zp, x, q, loc)?;
                    let zp = self.cast_to(zp, work, loc)?;
                    v = self.bin("graph.add", v, zp, loc)?;
                }
                let v = self.saturate(v, lo, hi, loc)?;
                self.cast_to(v, out, loc)?
            }
            "DynamicQuantizeLinear" => return self.dynamic_quantize(x, loc),
            "ConvInteger" => {
                let (w, xzp, wzp) = (
                    self.req(node, 1)?,
                    self.input(node, 2)?,
                    self.input(node, 3)?,
                );
                self.integer_conv(node, x, xzp, w, wzp, None, loc)?
            }
            "QLinearConv" => {
                // The integer convolution (with the i32 bias), times
                // x_scale * w_scale / y_scale (w_scale per output channel),
                // plus y_zero_point, saturated and rounded, as the reference.
                let (x_scale, xzp) = (self.req(node, 1)?, self.input(node, 2)?);
                let (w, w_scale, wzp) =
                    (self.req(node, 3)?, self.req(node, 4)?, self.input(node, 5)?);
                let (y_scale, yzp, bias) = (
                    self.req(node, 6)?,
                    self.input(node, 7)?,
                    self.input(node, 8)?,
                );
                let res = self.integer_conv(node, x, xzp, w, wzp, bias, loc)?;
                let rank = self.rank_of(res).ok_or("needs an input of known rank")?;
                let w_scale = match self.dims_of(w_scale).as_deref() {
                    Some([n]) if *n != Dim::Known(1) => {
                        let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
                        self.unsqueeze(w_scale, &trailing, loc)?
                    }
                    _ => w_scale,
                };
                let xw = self.bin("graph.mul", x_scale, w_scale, loc)?;
                let factor = self.bin("graph.div", xw, y_scale, loc)?;
                self.requantize(res, factor, yzp, x, loc)?
            }
            "CenterCropPad" => {
                // One `pad` whose negative amounts crop: the difference to
                // the target size split with the smaller half first.
                let dims = self.dims_of(x).ok_or("needs an input of known rank")?;
                let shape = self.req(node, 1)?;
                let i64t = self.ctx.integer_type(64);
                let shape = self.cast_to(shape, i64t, loc)?;
                let rank = dims.len() as i64;
                let axes: Vec<usize> = a
                    .ints("axes")
                    .unwrap_or_else(|| (0..rank).collect())
                    .iter()
                    .map(|&ax| {
                        let n = if ax < 0 { ax + rank } else { ax };
                        usize::try_from(n)
                            .ok()
                            .filter(|&n| n < dims.len())
                            .ok_or_else(|| {
                                format!("axis {ax} is out of range for rank {rank}").into()
                            })
                    })
                    .collect::<Res<_>>()?;
                // Constant targets on static axes give constant pads.
                let static_axes = axes.iter().all(|&ax| dims[ax].known().is_some());
                let pads = match self.const_int(shape).filter(|_| static_axes) {
                    Some(target) => {
                        if axes.len() != target.len() {
                            return Err(format!(
                                "has {} sizes for {} axes",
                                target.len(),
                                axes.len()
                            )
                            .into());
                        }
                        let mut pads = vec![0i64; 2 * dims.len()];
                        for (&ax, &t) in axes.iter().zip(&target) {
                            let d = dims[ax].known().ok_or("needs static sizes on its axes")?;
                            if t < 0 {
                                return Err(format!("shape has the negative size {t}").into());
                            }
                            // Truncating halves: the smaller part first.
                            let diff = t - d;
                            pads[ax] = diff / 2;
                            pads[ax + dims.len()] = diff - diff / 2;
                        }
                        self.const_i64(&pads, loc)?
                    }
                    None => {
                        // The same at run time: diff / 2 (graph.div truncates).
                        let zero = self.const_i64(&[0], loc)?;
                        let mut begins = vec![zero; dims.len()];
                        let mut ends = vec![zero; dims.len()];
                        let two = self.const_i64(&[2], loc)?;
                        for (i, &ax) in axes.iter().enumerate() {
                            let at = self.const_i64(&[i as i64], loc)?;
                            let axis = self.i64_attr(0);
                            let t = self.op1(
                                "graph.gather",
                                vec![shape, at],
                                vec![("axis", axis)],
                                loc,
                            )?;
                            let props = vec![
                                ("start", self.i64_attr(ax as i64)),
                                ("end", self.i64_attr(ax as i64 + 1)),
                            ];
                            let d = self.op1("graph.shape_of", vec![x], props, loc)?;
                            let diff = self.bin("graph.sub", t, d, loc)?;
                            let begin = self.bin("graph.div", diff, two, loc)?;
                            begins[ax] = begin;
                            ends[ax] = self.bin("graph.sub", diff, begin, loc)?;
                        }
                        let axis = self.i64_attr(0);
                        let parts = [begins, ends].concat();
                        self.op1("graph.concat", parts, vec![("axis", axis)], loc)?
                    }
                };
                let seg = self.segments(&[1, 1, 0, 0]);
                let mode = self.ctx.string_attr("constant");
                self.op1(
                    "graph.pad",
                    vec![x, pads],
                    vec![("mode", mode), ("operandSegmentSizes", seg)],
                    loc,
                )?
            }
            "HannWindow" | "HammingWindow" | "BlackmanWindow" => self.window(op, a, x, loc)?,
            "STFT" => {
                // Frames of frame_length every frame_step (a gather of
                // i * step + j), times the window, then a DFT of each frame
                // (one-sided unless onesided = 0).
                if self.rank_of(x) != Some(3) {
                    return Err("needs a signal [batch, length, 1 or 2]".into());
                }
                let step = self.req(node, 1)?;
                let step = self.scalar_i64(step, loc)?;
                let window = self.input(node, 2)?;
                let length = match (self.input(node, 3)?, window) {
                    (Some(l), _) => self.scalar_i64(l, loc)?,
                    (None, Some(w)) => self.dim_scalar(w, 0, loc)?,
                    (None, None) => self.dim_scalar(x, 1, loc)?,
                };
                let total = self.dim_scalar(x, 1, loc)?;
                let one = self.const_i64_scalar(1, loc)?;
                let rest = self.bin("graph.sub", total, length, loc)?;
                let steps = self.bin("graph.div", rest, step, loc)?;
                let frames = self.bin("graph.add", steps, one, loc)?;
                let starts = self.iota(frames, 1, loc)?;
                let starts = self.bin("graph.mul", starts, step, loc)?;
                let offsets = self.iota(length, 0, loc)?;
                let idx = self.bin("graph.add", starts, offsets, loc)?;
                let axis = self.i64_attr(1);
                let mut framed =
                    self.op1("graph.gather", vec![x, idx], vec![("axis", axis)], loc)?;
                if let Some(w) = window {
                    let w = self.unsqueeze(w, &[1], loc)?;
                    framed = self.bin("graph.mul", framed, w, loc)?;
                }
                let props = vec![
                    ("axis", self.i64_attr(2)),
                    (
                        "onesided",
                        self.bool_attr(a.int("onesided").unwrap_or(1) != 0),
                    ),
                    ("operandSegmentSizes", self.segments(&[1, 0, 0])),
                ];
                self.op1("graph.dft", vec![framed], props, loc)?
            }
            "MatMulInteger" => {
                // (a - a_zero_point) @ (b - b_zero_point) in i32.
                let (b, azp, bzp) = (
                    self.req(node, 1)?,
                    self.input(node, 2)?,
                    self.input(node, 3)?,
                );
                self.integer_matmul(x, azp, b, bzp, loc)?
            }
            "QLinearMatMul" => {
                // The integer product, scaled by a_scale * b_scale / y_scale
                // (in the scales' type, then f64), plus y_zero_point,
                // rounded (halves to even) and saturated, as the reference.
                let (a_scale, azp) = (self.req(node, 1)?, self.input(node, 2)?);
                let (b, b_scale, bzp) =
                    (self.req(node, 3)?, self.req(node, 4)?, self.input(node, 5)?);
                let (y_scale, yzp) = (self.req(node, 6)?, self.input(node, 7)?);
                let c = self.integer_matmul(x, azp, b, bzp, loc)?;
                let a_scale = self.per_row(a_scale, loc)?;
                let ab = self.bin("graph.mul", a_scale, b_scale, loc)?;
                let factor = self.bin("graph.div", ab, y_scale, loc)?;
                self.requantize(c, factor, yzp, x, loc)?
            }
            "LRN" => {
                // x / (bias + alpha / size * sum of x^2 over `size` channels
                // around each)^beta; the channel window sum is an avg_pool2d
                // (counting padding) over [N, 1, C, rest], times size.
                let size = a.int("size").ok_or("requires 'size'")?;
                if size < 1 {
                    return Err(format!("size {size} must be positive").into());
                }
                let (alpha, beta, bias) = (
                    float(a, "alpha", 1e-4),
                    float(a, "beta", 0.75),
                    float(a, "bias", 1.0),
                );
                let dims = self.dims_of(x).ok_or("needs an input of known rank")?;
                let c = match dims.get(1).and_then(Dim::known) {
                    Some(c) if dims.len() >= 3 => c,
                    _ => return Err("needs an input [N, C, ...] with a static C".into()),
                };
                let sq = self.bin("graph.mul", x, x, loc)?;
                let target = self.const_i64(&[0, 1, c, -1], loc)?;
                let planes = self.reshape(sq, target, loc)?;
                let (before, after) = ((size - 1) / 2, size - 1 - (size - 1) / 2);
                let props = vec![
                    ("kernel_shape", self.i64_array(&[size, 1])),
                    ("pads", self.i64_array(&[before, 0, after, 0])),
                    ("count_include_pad", self.bool_attr(true)),
                ];
                let avg = self.op1("graph.avg_pool2d", vec![planes], props, loc)?;
                let shape = self.op1("graph.shape_of", vec![x], vec![], loc)?;
                let avg = self.reshape(avg, shape, loc)?;
                // alpha / size * (avg * size) = alpha * avg.
                let al = self.scalar_like(x, alpha, loc)?;
                let scaled = self.bin("graph.mul", avg, al, loc)?;
                let b = self.scalar_like(x, bias, loc)?;
                let base = self.bin("graph.add", scaled, b, loc)?;
                let be = self.scalar_like(x, beta, loc)?;
                let den = self.bin("graph.pow", base, be, loc)?;
                self.bin("graph.div", x, den, loc)?
            }
            "RotaryEmbedding" => self.rotary_embedding(node, a, x, loc)?,
            "NegativeLogLikelihoodLoss" => {
                let (target, weight) = (self.req(node, 1)?, self.input(node, 2)?);
                self.nll_loss(x, target, weight, a, loc)?
            }
            "SoftmaxCrossEntropyLoss" => {
                let (labels, weight) = (self.req(node, 1)?, self.input(node, 2)?);
                let axis = self.i64_attr(1);
                let log_prob = self.op1("graph.log_softmax", vec![x], vec![("axis", axis)], loc)?;
                let loss = self.nll_loss(log_prob, labels, weight, a, loc)?;
                return Ok(if node.output.get(1).is_some_and(|o| !o.is_empty()) {
                    vec![loss, log_prob]
                } else {
                    vec![loss]
                });
            }
            "Einsum" => {
                let eq = a.string("equation").ok_or("requires 'equation'")?;
                let inputs = (0..node.input.len())
                    .map(|i| self.req(node, i))
                    .collect::<Res<Vec<_>>>()?;
                self.einsum(&eq, &inputs, loc)?
            }
            other => return Err(format!("op type '{other}' has no decomposition").into()),
        };
        Ok(vec![y])
    }

    fn bin(&mut self, name: &str, a: Value, b: Value, loc: Location) -> Res<Value> {
        self.op1(name, vec![a, b], vec![], loc)
    }

    fn un(&mut self, name: &str, x: Value, loc: Location) -> Res<Value> {
        self.op1(name, vec![x], vec![], loc)
    }

    fn elu(&mut self, x: Value, alpha: f64, loc: Location) -> Res<Value> {
        let alpha = self.f64_attr(alpha);
        self.op1("graph.elu", vec![x], vec![("alpha", alpha)], loc)
    }

    fn reshape(&mut self, x: Value, shape: Value, loc: Location) -> Res<Value> {
        let allowzero = self.bool_attr(false);
        self.op1(
            "graph.reshape",
            vec![x, shape],
            vec![("allowzero", allowzero)],
            loc,
        )
    }

    fn reduce_mean(&mut self, x: Value, axes: &[i64], loc: Location) -> Res<Value> {
        let axes = self.const_i64(axes, loc)?;
        let keep = self.bool_attr(true);
        self.op1(
            "graph.reduce_mean",
            vec![x, axes],
            vec![("keepdims", keep)],
            loc,
        )
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

    fn rank_of(&self, x: Value) -> Option<usize> {
        self.dims_of(x).map(|d| d.len())
    }

    /// A 0-D constant of `x`'s element type.
    fn scalar_like(&mut self, x: Value, v: f64, loc: Location) -> Res<Value> {
        let elem = self.elem(x).ok_or("operand is not a tensor")?;
        let ty = self.ctx.tensor_type(vec![], elem);
        let attr = scalar_attr(self.ctx, ty, v).ok_or("has an operand of an unsupported type")?;
        self.constant(attr, loc)
    }

    fn const_i64_scalar(&mut self, v: i64, loc: Location) -> Res<Value> {
        let i64t = self.ctx.integer_type(64);
        let ty = self.ctx.tensor_type(vec![], i64t);
        let attr = self
            .ctx
            .dense_elements_attr(ty, v.to_le_bytes().to_vec())
            .ok_or("could not build a constant")?;
        self.constant(attr, loc)
    }

    fn cast_to(&mut self, x: Value, elem: Type, loc: Location) -> Res<Value> {
        if self.elem(x) == Some(elem) {
            return Ok(x);
        }
        let hint = self
            .ctx
            .intern_type(TypeKind::UnrankedTensor { element: elem });
        Ok(self.op("graph.cast", vec![x], vec![], 1, Some(hint), loc)?[0])
    }

    /// A one-element tensor (shape `[]` or `[1]`) as a 0-D `i64`.
    fn scalar_i64(&mut self, v: Value, loc: Location) -> Res<Value> {
        let i64t = self.ctx.integer_type(64);
        let v = self.cast_to(v, i64t, loc)?;
        match self.rank_of(v) {
            Some(0) => Ok(v),
            _ => {
                let shape = self.const_i64(&[], loc)?;
                self.reshape(v, shape, loc)
            }
        }
    }

    /// Dimension `axis` of `x` as a 0-D `i64`: a constant when static.
    fn dim_scalar(&mut self, x: Value, axis: usize, loc: Location) -> Res<Value> {
        if let Some(Dim::Known(n)) = self.dims_of(x).and_then(|d| d.get(axis).cloned()) {
            return self.const_i64_scalar(n, loc);
        }
        let props = vec![
            ("start", self.i64_attr(axis as i64)),
            ("end", self.i64_attr(axis as i64 + 1)),
        ];
        let d = self.op1("graph.shape_of", vec![x], props, loc)?;
        self.scalar_i64(d, loc)
    }

    /// `0, 1, ..., n - 1` (an `i64` range) shaped `[n, 1, ..., 1]` with
    /// `trailing` ones, to broadcast along one axis.
    fn iota(&mut self, n: Value, trailing: usize, loc: Location) -> Res<Value> {
        let zero = self.const_i64_scalar(0, loc)?;
        let one = self.const_i64_scalar(1, loc)?;
        let r = self.op1("graph.range", vec![zero, n, one], vec![], loc)?;
        if trailing == 0 {
            return Ok(r);
        }
        let axes: Vec<i64> = (1..=trailing as i64).collect();
        let axes = self.const_i64(&axes, loc)?;
        self.op1("graph.unsqueeze", vec![r, axes], vec![], loc)
    }

    /// `j - i` for the last two dimensions `[n, m]` of a rank-`rank` `x`,
    /// as an `[n, m]` `i64` tensor.
    fn diagonal_offsets(&mut self, x: Value, rank: usize, loc: Location) -> Res<Value> {
        let n = self.dim_scalar(x, rank - 2, loc)?;
        let m = self.dim_scalar(x, rank - 1, loc)?;
        let rows = self.iota(n, 1, loc)?;
        let cols = self.iota(m, 0, loc)?;
        self.bin("graph.sub", cols, rows, loc)
    }

    /// DepthToSpace (DCR or CRD) and SpaceToDepth on NCHW: a reshape to 6-D,
    /// a transpose, and a reshape back. Needs static C, H and W.
    fn depth_space(&mut self, node: &NodeProto, a: &Attrs, x: Value, loc: Location) -> Res<Value> {
        let b = a.int("blocksize").ok_or("requires 'blocksize'")?;
        let dims = self.dims_of(x).ok_or("needs an input of known rank")?;
        let [_, Dim::Known(c), Dim::Known(h), Dim::Known(w)] = dims.as_slice() else {
            return Err("needs a 4-D NCHW input with static C, H and W".into());
        };
        let (c, h, w) = (*c, *h, *w);
        let too_large = || format!("blocksize {b} is too large for [{c}, {h}, {w}]");
        if b <= 0 {
            return Err(format!("blocksize {b} must be positive").into());
        }
        let bb = b.checked_mul(b).ok_or_else(too_large)?;
        let (first, perm, last) = if node.op_type() == "DepthToSpace" {
            if c % bb != 0 {
                return Err(format!("channels {c} are not a multiple of blocksize^2").into());
            }
            let cb = c / bb;
            let crd = a.string("mode").is_some_and(|m| m == "CRD");
            let (first, perm) = if crd {
                (vec![0, cb, b, b, h, w], vec![0, 1, 4, 2, 5, 3])
            } else {
                (vec![0, b, b, cb, h, w], vec![0, 3, 4, 1, 5, 2])
            };
            let hb = h.checked_mul(b).ok_or_else(too_large)?;
            let wb = w.checked_mul(b).ok_or_else(too_large)?;
            (first, perm, vec![0, cb, hb, wb])
        } else {
            if h % b != 0 || w % b != 0 {
                return Err(format!("H {h} and W {w} are not multiples of blocksize {b}").into());
            }
            let cbb = c.checked_mul(bb).ok_or_else(too_large)?;
            (
                vec![0, c, h / b, b, w / b, b],
                vec![0, 3, 5, 1, 2, 4],
                vec![0, cbb, h / b, w / b],
            )
        };
        let first = self.const_i64(&first, loc)?;
        let six = self.reshape(x, first, loc)?;
        let perm = self.i64_array(&perm);
        let moved = self.op1("graph.transpose", vec![six], vec![("perm", perm)], loc)?;
        let last = self.const_i64(&last, loc)?;
        self.reshape(moved, last, loc)
    }

    /// OneHot: `values[1]` where the (wrapped) index equals the position
    /// along the new axis, `values[0]` elsewhere.
    fn one_hot(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        indices: Value,
        loc: Location,
    ) -> Res<Value> {
        let rank = self.rank_of(indices).ok_or("needs indices of known rank")?;
        let axis = a.int("axis").unwrap_or(-1);
        let axis = if axis < 0 {
            axis + rank as i64 + 1
        } else {
            axis
        };
        if !(0..=rank as i64).contains(&axis) {
            return Err(format!("axis {axis} is out of range for rank {}", rank + 1).into());
        }
        let depth = self.req(node, 1)?;
        let depth = self.scalar_i64(depth, loc)?;
        let values = self.req(node, 2)?;
        let i64t = self.ctx.integer_type(64);
        // Non-integer indices are truncated; negative ones count from depth.
        let ids = self.cast_to(indices, i64t, loc)?;
        let zero = self.const_i64_scalar(0, loc)?;
        let negative = self.bin("graph.less", ids, zero, loc)?;
        let wrapped = self.bin("graph.add", ids, depth, loc)?;
        let ids = self.op1("graph.where", vec![negative, wrapped, ids], vec![], loc)?;
        let axes = self.const_i64(&[axis], loc)?;
        let ids = self.op1("graph.unsqueeze", vec![ids, axes], vec![], loc)?;
        let positions = self.iota(depth, rank - axis as usize, loc)?;
        let on_mask = self.bin("graph.equal", ids, positions, loc)?;
        let pick = |i: i64, s: &mut Self| -> Res<Value> {
            let index = s.const_i64_scalar(i, loc)?;
            let axis = s.i64_attr(0);
            s.op1(
                "graph.gather",
                vec![values, index],
                vec![("axis", axis)],
                loc,
            )
        };
        let off = pick(0, self)?;
        let on = pick(1, self)?;
        self.op1("graph.where", vec![on_mask, on, off], vec![], loc)
    }

    /// Einsum: labels repeated within an operand take the diagonal, labels
    /// no other operand or the output needs are summed, and two operands
    /// meet in a `matmul` (batch labels first) when each side has at most
    /// one label of its own and they share at most one contracted label;
    /// otherwise they are broadcast, multiplied and summed. More operands
    /// fold from the left.
    fn einsum(&mut self, equation: &str, inputs: &[Value], loc: Location) -> Res<Value> {
        let ranks = inputs
            .iter()
            .map(|&v| {
                self.rank_of(v)
                    .ok_or_else(|| ConvertError::from("needs operands of known rank"))
            })
            .collect::<Res<Vec<_>>>()?;
        let (terms, output) = parse_einsum(equation, &ranks)?;
        let mut operands: Vec<(Value, Vec<Label>)> = Vec::new();
        for (&v, labels) in inputs.iter().zip(terms) {
            operands.push(self.einsum_diagonals(v, labels, loc)?);
        }
        let mut acc = operands.remove(0);
        while !operands.is_empty() {
            let next = operands.remove(0);
            // Labels needed after this step: the output's and the rest's.
            let mut after: Vec<Label> = output.clone();
            for (_, l) in &operands {
                after.extend(l.iter().copied());
            }
            let (x, xl) =
                self.einsum_sum_unused(acc, &[after.clone(), next.1.clone()].concat(), loc)?;
            let (y, yl) =
                self.einsum_sum_unused(next, &[after.clone(), xl.clone()].concat(), loc)?;
            acc = self.einsum_pair((x, xl), (y, yl), &after, loc)?;
        }
        let acc = self.einsum_sum_unused(acc, &output, loc)?;
        self.einsum_permute(acc, &output, loc)
    }

    /// Takes the diagonal of every label repeated within one operand.
    fn einsum_diagonals(
        &mut self,
        mut x: Value,
        mut labels: Vec<Label>,
        loc: Location,
    ) -> Res<(Value, Vec<Label>)> {
        while let Some((p, q)) = (0..labels.len())
            .flat_map(|p| (p + 1..labels.len()).map(move |q| (p, q)))
            .find(|&(p, q)| labels[p] == labels[q])
        {
            // sum_j x[.. i .. j ..] * (i == j) is x[.. i .. i ..].
            let rank = labels.len();
            let n = self.dim_scalar(x, p, loc)?;
            let rows = self.iota(n, rank - 1 - p, loc)?;
            let cols = self.iota(n, rank - 1 - q, loc)?;
            let eye = self.bin("graph.equal", rows, cols, loc)?;
            let elem = self.elem(x).ok_or("operand is not a tensor")?;
            let eye = self.cast_to(eye, elem, loc)?;
            let masked = self.bin("graph.mul", x, eye, loc)?;
            x = self.reduce_sum(masked, &[q as i64], loc)?;
            labels.remove(q);
        }
        Ok((x, labels))
    }

    /// Sums the labels of `x` that are not in `keep`.
    fn einsum_sum_unused(
        &mut self,
        (x, labels): (Value, Vec<Label>),
        keep: &[Label],
        loc: Location,
    ) -> Res<(Value, Vec<Label>)> {
        let gone: Vec<i64> = (0..labels.len())
            .filter(|&i| !keep.contains(&labels[i]))
            .map(|i| i as i64)
            .collect();
        if gone.is_empty() {
            return Ok((x, labels));
        }
        let y = self.reduce_sum(x, &gone, loc)?;
        let rest = labels.into_iter().filter(|l| keep.contains(l)).collect();
        Ok((y, rest))
    }

    fn reduce_sum(&mut self, x: Value, axes: &[i64], loc: Location) -> Res<Value> {
        let axes = self.const_i64(axes, loc)?;
        let keep = self.bool_attr(false);
        self.op1(
            "graph.reduce_sum",
            vec![x, axes],
            vec![("keepdims", keep)],
            loc,
        )
    }

    /// `x` with its labels in the order of `to` (which holds the same
    /// labels).
    fn einsum_permute(
        &mut self,
        (x, labels): (Value, Vec<Label>),
        to: &[Label],
        loc: Location,
    ) -> Res<Value> {
        let perm: Vec<i64> = to
            .iter()
            .map(|l| labels.iter().position(|m| m == l).map(|p| p as i64))
            .collect::<Option<_>>()
            .ok_or("has an output label that no operand has")?;
        if perm.iter().enumerate().all(|(i, &p)| i as i64 == p) {
            return Ok(x);
        }
        let perm = self.i64_array(&perm);
        self.op1("graph.transpose", vec![x], vec![("perm", perm)], loc)
    }

    /// The product of two operands, keeping the labels in `needed`.
    fn einsum_pair(
        &mut self,
        (x, xl): (Value, Vec<Label>),
        (y, yl): (Value, Vec<Label>),
        needed: &[Label],
        loc: Location,
    ) -> Res<(Value, Vec<Label>)> {
        let batch: Vec<Label> = xl
            .iter()
            .filter(|l| yl.contains(l) && needed.contains(l))
            .copied()
            .collect();
        let contracted: Vec<Label> = xl
            .iter()
            .filter(|l| yl.contains(l) && !needed.contains(l))
            .copied()
            .collect();
        let left: Vec<Label> = xl.iter().filter(|l| !yl.contains(l)).copied().collect();
        let right: Vec<Label> = yl.iter().filter(|l| !xl.contains(l)).copied().collect();
        // The contracted sizes must be equal for matmul (an ellipsis dimension
        // of size 1 against n broadcasts instead).
        let same_k = contracted.iter().all(|l| {
            let size = |v: Value, labels: &[Label]| {
                let at = labels.iter().position(|m| m == l)?;
                self.dims_of(v)?.get(at).cloned()
            };
            match (size(x, &xl), size(y, &yl)) {
                (Some(a), Some(b)) => a == b && a != Dim::Unknown,
                _ => false,
            }
        });
        if same_k && contracted.len() <= 1 && left.len() <= 1 && right.len() <= 1 {
            // [batch, left|1, contracted|1] x [batch, contracted|1, right|1].
            let a_order = [batch.clone(), left.clone(), contracted.clone()].concat();
            let b_order = [batch.clone(), contracted.clone(), right.clone()].concat();
            let mut a = self.einsum_permute((x, xl), &a_order, loc)?;
            let mut b = self.einsum_permute((y, yl), &b_order, loc)?;
            let nb = batch.len() as i64;
            if left.is_empty() {
                a = self.unsqueeze(a, &[nb], loc)?;
            }
            if contracted.is_empty() {
                a = self.unsqueeze(a, &[nb + 1], loc)?;
                b = self.unsqueeze(b, &[nb], loc)?;
            }
            if right.is_empty() {
                b = self.unsqueeze(b, &[nb + 1], loc)?;
            }
            let mut z = self.bin("graph.matmul", a, b, loc)?;
            let mut squeeze = Vec::new();
            if left.is_empty() {
                squeeze.push(nb);
            }
            if right.is_empty() {
                squeeze.push(nb + 1);
            }
            if !squeeze.is_empty() {
                let axes = self.const_i64(&squeeze, loc)?;
                z = self.op1("graph.squeeze", vec![z, axes], vec![], loc)?;
            }
            return Ok((z, [batch, left, right].concat()));
        }
        // Broadcast both over every label, multiply, sum the contracted ones.
        let all: Vec<Label> = [batch, left, right, contracted.clone()].concat();
        let spread = |v: Value, labels: Vec<Label>, s: &mut Self| -> Res<Value> {
            let own: Vec<Label> = all.iter().filter(|l| labels.contains(l)).copied().collect();
            let v = s.einsum_permute((v, labels), &own, loc)?;
            let missing: Vec<i64> = (0..all.len())
                .filter(|&i| !own.contains(&all[i]))
                .map(|i| i as i64)
                .collect();
            if missing.is_empty() {
                Ok(v)
            } else {
                s.unsqueeze(v, &missing, loc)
            }
        };
        let a = spread(x, xl, self)?;
        let b = spread(y, yl, self)?;
        let product = self.bin("graph.mul", a, b, loc)?;
        let n = all.len() - contracted.len();
        let summed: Vec<i64> = (n as i64..all.len() as i64).collect();
        let z = if summed.is_empty() {
            product
        } else {
            self.reduce_sum(product, &summed, loc)?
        };
        Ok((z, all[..n].to_vec()))
    }

    fn unsqueeze(&mut self, x: Value, axes: &[i64], loc: Location) -> Res<Value> {
        let axes = self.const_i64(axes, loc)?;
        self.op1("graph.unsqueeze", vec![x, axes], vec![], loc)
    }
}

/// How a quantization parameter lines up with its tensor.
#[derive(Clone, Copy)]
struct QuantLayout {
    /// The quantized axis (normalized), `None` when out of range.
    axis: Option<usize>,
    /// Elements per block along the axis (0: not blocked).
    block: i64,
}

impl Importer<'_> {
    fn quant_layout(&self, a: &Attrs, x: Value) -> Res<QuantLayout> {
        let rank = self.rank_of(x).ok_or("needs an input of known rank")?;
        let axis = a.int("axis").unwrap_or(1);
        let axis = if axis < 0 { axis + rank as i64 } else { axis };
        let block = a.int("block_size").unwrap_or(0);
        if block < 0 {
            return Err(format!("block_size {block} is negative").into());
        }
        // A per-tensor parameter ignores the axis, which may then be anything;
        // `quant_param` rejects an invalid one for the others.
        let axis = usize::try_from(axis).ok().filter(|&a| a < rank);
        Ok(QuantLayout { axis, block })
    }

    /// A scale or zero point shaped to broadcast against `x`: a scalar as
    /// it is, a 1-D per-axis one unsqueezed after the axis, a blocked one
    /// repeated `block` times along the axis (a `gather` of `i / block`).
    fn quant_param(&mut self, p: Value, x: Value, q: QuantLayout, loc: Location) -> Res<Value> {
        let rank = self.rank_of(x).ok_or("needs an input of known rank")?;
        let prank = self.rank_of(p).ok_or("needs parameters of known rank")?;
        let elements = self
            .dims_of(p)
            .map(|d| d.iter().fold(Dim::Known(1), |acc, d| acc.mul(d)));
        let axis = || {
            q.axis
                .ok_or_else(|| format!("axis is out of range for rank {rank}"))
        };
        if q.block > 0 {
            let axis = axis()?;
            if prank != rank {
                return Err("with block_size needs parameters of the input's rank".into());
            }
            let n = self.dim_scalar(x, axis, loc)?;
            let positions = self.iota(n, 0, loc)?;
            let block = self.const_i64_scalar(q.block, loc)?;
            let blocks = self.bin("graph.div", positions, block, loc)?;
            let axis = self.i64_attr(axis as i64);
            return self.op1("graph.gather", vec![p, blocks], vec![("axis", axis)], loc);
        }
        if prank == 0 || elements == Some(Dim::Known(1)) || rank <= 1 {
            return Ok(p);
        }
        if prank != 1 {
            return Err(format!("has {prank}-D parameters without block_size").into());
        }
        let trailing: Vec<i64> = (1..(rank - axis()?) as i64).collect();
        if trailing.is_empty() {
            return Ok(p);
        }
        self.unsqueeze(p, &trailing, loc)
    }

    /// The type quantization arithmetic runs in: f64 for f64, else f32.
    fn work_float(&mut self, elem: Type) -> Type {
        let kind = if self.ctx.float_kind(elem) == Some(FloatKind::F64) {
            FloatKind::F64
        } else {
            FloatKind::F32
        };
        self.ctx.float_type(kind)
    }

    /// The smallest and largest value of a quantized integer type.
    fn int_bounds(&self, elem: Type) -> Res<(f64, f64)> {
        match self.ctx.type_kind(elem) {
            TypeKind::Integer { width, signedness } if matches!(width, 8 | 16 | 32) => {
                let w = *width as i32;
                Ok(if *signedness == strata_ir::types::Signedness::Unsigned {
                    (0.0, 2f64.powi(w) - 1.0)
                } else {
                    (-(2f64.powi(w - 1)), 2f64.powi(w - 1) - 1.0)
                })
            }
            _ => Err(ConvertError::unsupported(format!(
                "to {} is not supported (8-, 16- and 32-bit integers)",
                strata_ir::printer::type_to_string(self.ctx, elem)
            ))),
        }
    }

    /// `v` clamped to `[lo, hi]` (scalars of `v`'s type).
    fn saturate(&mut self, v: Value, lo: f64, hi: f64, loc: Location) -> Res<Value> {
        let lo = self.scalar_like(v, lo, loc)?;
        let hi = self.scalar_like(v, hi, loc)?;
        let v = self.bin("graph.max", v, lo, loc)?;
        self.bin("graph.min", v, hi, loc)
    }

    /// DynamicQuantizeLinear: the uint8 scale and zero point that map
    /// `[min(x, 0), max(x, 0)]` onto `[0, 255]`, and `x` quantized with them.
    fn dynamic_quantize(&mut self, x: Value, loc: Location) -> Res<Vec<Value>> {
        let keep = self.bool_attr(false);
        let lo = self.op1("graph.reduce_min", vec![x], vec![("keepdims", keep)], loc)?;
        let keep = self.bool_attr(false);
        let hi = self.op1("graph.reduce_max", vec![x], vec![("keepdims", keep)], loc)?;
        let zero = self.scalar_like(x, 0.0, loc)?;
        let lo = self.bin("graph.min", lo, zero, loc)?;
        let hi = self.bin("graph.max", hi, zero, loc)?;
        let range = self.bin("graph.sub", hi, lo, loc)?;
        // An input without range (all zeros) gets scale 1/255, as the
        // reference, not 0.
        let one = self.scalar_like(x, 1.0, loc)?;
        let flat = self.bin("graph.equal", range, zero, loc)?;
        let range = self.op1("graph.where", vec![flat, one, range], vec![], loc)?;
        let qmax = self.scalar_like(x, 255.0, loc)?;
        let scale = self.bin("graph.div", range, qmax, loc)?;
        let shifted = self.bin("graph.div", lo, scale, loc)?;
        let shifted = self.bin("graph.sub", zero, shifted, loc)?;
        let zp = self.un("graph.round", shifted, loc)?;
        let zp = self.saturate(zp, 0.0, 255.0, loc)?;
        let scaled = self.bin("graph.div", x, scale, loc)?;
        let rounded = self.un("graph.round", scaled, loc)?;
        let y = self.bin("graph.add", rounded, zp, loc)?;
        let y = self.saturate(y, 0.0, 255.0, loc)?;
        let u8t = self.ctx.unsigned_integer_type(8);
        let y = self.cast_to(y, u8t, loc)?;
        let zp = self.cast_to(zp, u8t, loc)?;
        Ok(vec![y, scale, zp])
    }
}

impl Importer<'_> {
    /// NegativeLogLikelihoodLoss on log-probabilities `x: [N, C, d...]` and
    /// class indices `target: [N, d...]`: `-x[n, target, d...]` weighted by
    /// `weight[target]`; targets equal to `ignore_index` weigh 0. `mean`
    /// divides the sum by the sum of the applied weights.
    fn nll_loss(
        &mut self,
        x: Value,
        target: Value,
        weight: Option<Value>,
        a: &Attrs,
        loc: Location,
    ) -> Res<Value> {
        let reduction = a.string("reduction").unwrap_or_else(|| "mean".into());
        if !matches!(reduction.as_str(), "none" | "sum" | "mean") {
            return Err(format!("has an unknown reduction '{reduction}'").into());
        }
        let i64t = self.ctx.integer_type(64);
        let mut t = self.cast_to(target, i64t, loc)?;
        // Ignored targets read class 0 and weigh nothing.
        let valid = match a.int("ignore_index") {
            Some(ignore) => {
                let ig = self.const_i64_scalar(ignore, loc)?;
                let is_ignored = self.bin("graph.equal", t, ig, loc)?;
                let valid = self.un("graph.not", is_ignored, loc)?;
                let zero = self.const_i64_scalar(0, loc)?;
                t = self.op1("graph.where", vec![valid, t, zero], vec![], loc)?;
                Some(valid)
            }
            None => None,
        };
        let class_axis = self.const_i64(&[1], loc)?;
        let idx = self.op1("graph.unsqueeze", vec![t, class_axis], vec![], loc)?;
        let axis = self.i64_attr(1);
        let picked = self.op1(
            "graph.gather_elements",
            vec![x, idx],
            vec![("axis", axis)],
            loc,
        )?;
        let picked = self.op1("graph.squeeze", vec![picked, class_axis], vec![], loc)?;
        let elem = self.elem(x).ok_or("operand is not a tensor")?;
        let w = match (weight, valid) {
            (Some(w), valid) => {
                let axis = self.i64_attr(0);
                let wt = self.op1("graph.gather", vec![w, t], vec![("axis", axis)], loc)?;
                Some(match valid {
                    Some(v) => {
                        let zero = self.scalar_like(wt, 0.0, loc)?;
                        self.op1("graph.where", vec![v, wt, zero], vec![], loc)?
                    }
                    None => wt,
                })
            }
            (None, Some(v)) => Some(self.cast_to(v, elem, loc)?),
            (None, None) => None,
        };
        let weighted = match w {
            Some(w) => self.bin("graph.mul", picked, w, loc)?,
            None => picked,
        };
        let loss = self.un("graph.neg", weighted, loc)?;
        let keep = self.bool_attr(false);
        Ok(match (reduction.as_str(), w) {
            ("none", _) => loss,
            ("sum", _) => self.op1(
                "graph.reduce_sum",
                vec![loss],
                vec![("keepdims", keep)],
                loc,
            )?,
            (_, None) => self.op1(
                "graph.reduce_mean",
                vec![loss],
                vec![("keepdims", keep)],
                loc,
            )?,
            (_, Some(w)) => {
                let total = self.op1(
                    "graph.reduce_sum",
                    vec![loss],
                    vec![("keepdims", keep)],
                    loc,
                )?;
                let keep = self.bool_attr(false);
                let weights =
                    self.op1("graph.reduce_sum", vec![w], vec![("keepdims", keep)], loc)?;
                self.bin("graph.div", total, weights, loc)?
            }
        })
    }
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

impl Importer<'_> {
    /// `(a - a_zero_point) @ (b - b_zero_point)` in i32 (a zero point of
    /// `a` may be per row, one of `b` per column).
    fn integer_matmul(
        &mut self,
        a: Value,
        azp: Option<Value>,
        b: Value,
        bzp: Option<Value>,
        loc: Location,
    ) -> Res<Value> {
        let i32t = self.ctx.integer_type(32);
        let mut a = self.cast_to(a, i32t, loc)?;
        if let Some(z) = azp {
            let z = self.per_row(z, loc)?;
            let z = self.cast_to(z, i32t, loc)?;
            a = self.bin("graph.sub", a, z, loc)?;
        }
        let mut b = self.cast_to(b, i32t, loc)?;
        if let Some(z) = bzp {
            let z = self.cast_to(z, i32t, loc)?;
            b = self.bin("graph.sub", b, z, loc)?;
        }
        self.bin("graph.matmul", a, b, loc)
    }

    /// A convolution of `x - x_zero_point` by `w - w_zero_point` (per output
    /// channel when 1-D) plus an optional i32 bias, exact in i32: the node's
    /// Conv attributes drive a `Conv` on the f64 values (products of 8- and
    /// 16-bit integers sum exactly there), cast back to i32.
    #[allow(clippy::too_many_arguments)]
    fn integer_conv(
        &mut self,
        node: &NodeProto,
        x: Value,
        xzp: Option<Value>,
        w: Value,
        wzp: Option<Value>,
        bias: Option<Value>,
        loc: Location,
    ) -> Res<Value> {
        let i32t = self.ctx.integer_type(32);
        let f64t = self.ctx.float_type(FloatKind::F64);
        let mut xi = self.cast_to(x, i32t, loc)?;
        if let Some(z) = xzp {
            let z = self.cast_to(z, i32t, loc)?;
            xi = self.bin("graph.sub", xi, z, loc)?;
        }
        let mut wi = self.cast_to(w, i32t, loc)?;
        if let Some(z) = wzp {
            let wrank = self.rank_of(w).ok_or("needs weights of known rank")?;
            let z = match self.dims_of(z).as_deref() {
                Some([n]) if *n != Dim::Known(1) => {
                    let trailing: Vec<i64> = (1..wrank as i64).collect();
                    self.unsqueeze(z, &trailing, loc)?
                }
                _ => z,
            };
            let z = self.cast_to(z, i32t, loc)?;
            wi = self.bin("graph.sub", wi, z, loc)?;
        }
        let mut conv = node.clone();
        conv.op_type = Some("Conv".into());
        conv.input.clear();
        for (i, v) in [Some(xi), Some(wi), bias].into_iter().flatten().enumerate() {
            let f = self.cast_to(v, f64t, loc)?;
            // Unique among the importer's names (the node may be unnamed).
            let name = format!("{}#int{i}#{}", node.name(), self.values.len());
            self.values.insert(name.clone(), f);
            conv.input.push(name);
        }
        // The Conv conversion itself (ConvInteger and QLinearConv exist
        // from opset 10, where Conv's definition is the same).
        let out = match self.rank_of(xi) {
            Some(3) => self.convert_1d(&conv, loc, Self::convert_window)?,
            _ => self.convert_window(&conv, &Attrs(&conv.attribute), loc)?,
        };
        let out = *out.first().ok_or("the convolution gave no result")?;
        self.cast_to(out, i32t, loc)
    }

    /// An i32 accumulator back to the quantized type of `y_zero_point` (or
    /// of the input `x` without one): `acc * factor + y_zero_point` in f64,
    /// rounded (halves to even) and saturated. (Rounding before or after
    /// saturating to integer bounds gives the same values.)
    fn requantize(
        &mut self,
        acc: Value,
        factor: Value,
        yzp: Option<Value>,
        x: Value,
        loc: Location,
    ) -> Res<Value> {
        let f64t = self.ctx.float_type(FloatKind::F64);
        let factor = self.cast_to(factor, f64t, loc)?;
        let acc = self.cast_to(acc, f64t, loc)?;
        let mut v = self.bin("graph.mul", acc, factor, loc)?;
        let out = match yzp {
            Some(z) => {
                let zf = self.cast_to(z, f64t, loc)?;
                v = self.bin("graph.add", v, zf, loc)?;
                self.elem(z).ok_or("operand is not a tensor")?
            }
            None => self.elem(x).ok_or("operand is not a tensor")?,
        };
        let (lo, hi) = self.int_bounds(out)?;
        let r = self.un("graph.round", v, loc)?;
        let r = self.saturate(r, lo, hi, loc)?;
        self.cast_to(r, out, loc)
    }

    /// A 1-D parameter of more than one element is per row of `a`: give it
    /// a trailing unit dimension to broadcast over the columns.
    fn per_row(&mut self, p: Value, loc: Location) -> Res<Value> {
        match self.dims_of(p).as_deref() {
            Some([Dim::Known(n)]) if *n != 1 => self.unsqueeze(p, &[1], loc),
            _ => Ok(p),
        }
    }
}

impl Importer<'_> {
    /// The Hann, Hamming and Blackman windows of `size` points (periodic
    /// unless `periodic = 0`), computed in f64 as the ONNX reference and
    /// cast to `output_datatype` (f32 by default).
    fn window(&mut self, op: &str, a: &Attrs, size: Value, loc: Location) -> Res<Value> {
        let n = self.scalar_i64(size, loc)?;
        let zero = self.const_i64_scalar(0, loc)?;
        let one = self.const_i64_scalar(1, loc)?;
        let positions = self.op1("graph.range", vec![zero, n, one], vec![], loc)?;
        let f64t = self.ctx.float_type(FloatKind::F64);
        let ni = self.cast_to(positions, f64t, loc)?;
        let span = if a.int("periodic").unwrap_or(1) == 1 {
            n
        } else {
            self.bin("graph.sub", n, one, loc)?
        };
        let span = self.cast_to(span, f64t, loc)?;
        // The angle k * pi * n / span.
        let angle = |k: f64, s: &mut Self| -> Res<Value> {
            let c = s.scalar_like(ni, k * std::f64::consts::PI, loc)?;
            let t = s.bin("graph.mul", ni, c, loc)?;
            s.bin("graph.div", t, span, loc)
        };
        let w = match op {
            "HannWindow" => {
                let t = angle(1.0, self)?;
                let s = self.un("graph.sin", t, loc)?;
                self.bin("graph.mul", s, s, loc)?
            }
            "HammingWindow" => {
                let alpha = 25.0 / 46.0;
                let t = angle(2.0, self)?;
                let c = self.un("graph.cos", t, loc)?;
                let b = self.scalar_like(ni, 1.0 - alpha, loc)?;
                let cb = self.bin("graph.mul", c, b, loc)?;
                let al = self.scalar_like(ni, alpha, loc)?;
                self.bin("graph.sub", al, cb, loc)?
            }
            _ => {
                let t2 = angle(2.0, self)?;
                let t4 = angle(4.0, self)?;
                let c2 = self.un("graph.cos", t2, loc)?;
                let c4 = self.un("graph.cos", t4, loc)?;
                let h = self.scalar_like(ni, -0.5, loc)?;
                let e = self.scalar_like(ni, 0.08, loc)?;
                let a2 = self.bin("graph.mul", c2, h, loc)?;
                let a4 = self.bin("graph.mul", c4, e, loc)?;
                let sum = self.bin("graph.add", a2, a4, loc)?;
                let base = self.scalar_like(ni, 0.42, loc)?;
                self.bin("graph.add", sum, base, loc)?
            }
        };
        let dt = a.int("output_datatype").unwrap_or(1);
        let out = i32::try_from(dt)
            .ok()
            .and_then(|t| element_type(self.ctx, t))
            .ok_or_else(|| {
                ConvertError::unsupported(format!("output_datatype {dt} is not supported"))
            })?;
        self.cast_to(w, out, loc)
    }
}

/// An einsum label: a letter, or dimension `k` of the ellipsis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Letter(char),
    Ellipsis(usize),
}

/// The labels of each operand (the ellipsis expanded to the operand's
/// rank) and of the output (explicit, or implicit: the ellipsis, then the
/// letters used once, in alphabetical order).
fn parse_einsum(equation: &str, ranks: &[usize]) -> Res<(Vec<Vec<Label>>, Vec<Label>)> {
    let eq: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (eq.as_str(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != ranks.len() {
        return Err(format!(
            "equation '{equation}' has {} operands, but the node has {}",
            terms.len(),
            ranks.len()
        )
        .into());
    }
    let letters = |term: &str| -> Res<(Vec<char>, Option<usize>)> {
        let mut out = Vec::new();
        let mut ellipsis = None;
        let mut rest = term;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("...") {
                if ellipsis.replace(out.len()).is_some() {
                    return Err(
                        format!("equation '{equation}' has two ellipses in one term").into(),
                    );
                }
                rest = r;
                continue;
            }
            let Some(c) = rest.chars().next() else {
                break;
            };
            if !c.is_ascii_alphabetic() {
                return Err(format!("equation '{equation}' has the invalid label '{c}'").into());
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        Ok((out, ellipsis))
    };
    let mut parsed = Vec::new();
    let mut ellipsis_rank = 0;
    for (term, &rank) in terms.iter().zip(ranks) {
        let (l, e) = letters(term)?;
        let extra = rank
            .checked_sub(l.len())
            .filter(|&n| e.is_some() || n == 0)
            .ok_or_else(|| {
                format!("term '{term}' of '{equation}' does not match an operand of rank {rank}")
            })?;
        ellipsis_rank = ellipsis_rank.max(extra);
        parsed.push((l, e, extra));
    }
    let expand = |l: &[char], e: Option<usize>, extra: usize| -> Vec<Label> {
        let mut out: Vec<Label> = l.iter().map(|&c| Label::Letter(c)).collect();
        if let Some(at) = e {
            // Right-aligned, as broadcasting aligns dimensions.
            let dims = (ellipsis_rank - extra..ellipsis_rank).map(Label::Ellipsis);
            out.splice(at..at, dims);
        }
        out
    };
    let inputs: Vec<Vec<Label>> = parsed.iter().map(|(l, e, n)| expand(l, *e, *n)).collect();
    let output = match rhs {
        Some(r) => {
            // Without an ellipsis in the output, its dimensions are summed.
            let (l, e) = letters(r)?;
            let out = expand(&l, e, ellipsis_rank);
            for (k, w) in out.iter().enumerate() {
                if !inputs.iter().any(|i| i.contains(w)) {
                    return Err(format!("output of '{equation}' has a label no operand has").into());
                }
                if out[..k].contains(w) {
                    return Err(format!("output of '{equation}' repeats a label").into());
                }
            }
            out
        }
        None => {
            let mut once: Vec<char> = Vec::new();
            for c in inputs.iter().flatten().filter_map(|l| match l {
                Label::Letter(c) => Some(*c),
                Label::Ellipsis(_) => None,
            }) {
                let count = inputs
                    .iter()
                    .flatten()
                    .filter(|&&l| l == Label::Letter(c))
                    .count();
                if count == 1 && !once.contains(&c) {
                    once.push(c);
                }
            }
            once.sort_unstable();
            (0..ellipsis_rank)
                .map(Label::Ellipsis)
                .chain(once.into_iter().map(Label::Letter))
                .collect()
        }
    };
    Ok((inputs, output))
}
