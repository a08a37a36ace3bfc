//! Quantization, imported as compositions of other `graph` ops: quantize and
//! dequantize (per tensor, per axis and blocked), `DynamicQuantizeLinear`,
//! and the integer and quantized-linear convolutions and products, exact in
//! i32 (or f64) as the ONNX reference computes them.

use strata_dialects::graph::shape::Dim;
use strata_ir::float::FloatKind;
use strata_ir::types::TypeKind;
use strata_ir::{Location, Type, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;
use crate::tensor::element_type;
use crate::ConvertError;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("DequantizeLinear", dequantize_linear),
    ("QuantizeLinear", quantize_linear),
    ("DynamicQuantizeLinear", dynamic_quantize_linear),
    ("ConvInteger", conv_integer),
    ("QLinearConv", qlinear_conv),
    ("MatMulInteger", matmul_integer),
    ("QLinearMatMul", qlinear_matmul),
];

fn dequantize_linear(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // (x - zero_point) * scale computed in f32 (f64 for an f64
    // scale), as the reference, then in the scale's type (or
    // output_dtype).
    let scale = im.req(node, 1)?;
    let elem = im.elem(scale).ok_or("operand is not a tensor")?;
    let work = im.work_float(elem);
    let q = im.quant_layout(a, x)?;
    let scale = im.quant_param(scale, x, q, loc)?;
    let scale = im.cast_to(scale, work, loc)?;
    let mut v = im.cast_to(x, work, loc)?;
    if let Some(zp) = im.input(node, 2)? {
        // Cast first: the zero point may be of a storage-only type (i4,
        // f8E4M3FN) that the reshaping ops do not take.
        let zp = im.cast_to(zp, work, loc)?;
        let zp = im.quant_param(zp, x, q, loc)?;
        v = im.bin("graph.sub", v, zp, loc)?;
    }
    let y = im.bin("graph.mul", v, scale, loc)?;
    let out = match a.int("output_dtype").filter(|&t| t != 0) {
        Some(t) => i32::try_from(t)
            .ok()
            .and_then(|t| element_type(im.ctx, t))
            .filter(|&t| {
                matches!(
                    im.ctx.float_kind(t),
                    Some(FloatKind::F32 | FloatKind::F16 | FloatKind::BF16)
                )
            })
            .ok_or_else(|| {
                ConvertError::unsupported(format!(
                    "output_dtype {t} is not supported (FLOAT, FLOAT16, BFLOAT16)"
                ))
            })?,
        None => elem,
    };
    one(im.cast_to(y, out, loc))
}

fn quantize_linear(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // saturate(round(x / scale) + zero_point), computed in f32
    // (f64 for f64 input or a 32-bit result).
    let elem = im.elem(x).ok_or("operand is not a tensor")?;
    let zp = im.input(node, 2)?;
    let out = match (zp, a.int("output_dtype").filter(|&t| t != 0)) {
        (Some(z), _) => im.elem(z).ok_or("operand is not a tensor")?,
        (None, Some(t)) => i32::try_from(t)
            .ok()
            .and_then(|t| element_type(im.ctx, t))
            .ok_or_else(|| {
                ConvertError::unsupported(format!("output_dtype {t} is not supported"))
            })?,
        (None, None) => im.ctx.unsigned_integer_type(8),
    };
    if matches!(im.ctx.type_kind(out), TypeKind::Float(_)) {
        if !strata_dialects::graph::is_narrow_element(im.ctx, out) {
            return Err(ConvertError::unsupported(format!(
                "to {} is not a quantized type (8- and 4-bit floats and integers)",
                strata_ir::printer::type_to_string(im.ctx, out)
            )));
        }
        return quantize_to_float(im, node, a, x, out, loc);
    }
    let (lo, hi) = im.int_bounds(out)?;
    let work = if hi > f64::from(u16::MAX) {
        im.ctx.float_type(FloatKind::F64)
    } else {
        im.work_float(elem)
    };
    let q = im.quant_layout(a, x)?;
    let scale = im.req(node, 1)?;
    let scale = im.quant_param(scale, x, q, loc)?;
    let scale = im.cast_to(scale, work, loc)?;
    let xw = im.cast_to(x, work, loc)?;
    let scaled = im.bin("graph.div", xw, scale, loc)?;
    let mut v = im.un("graph.round", scaled, loc)?;
    if let Some(zp) = zp {
        // Cast first: the zero point may be of a storage-only type (i4,
        // f8E4M3FN) that the reshaping ops do not take.
        let zp = im.cast_to(zp, work, loc)?;
        let zp = im.quant_param(zp, x, q, loc)?;
        v = im.bin("graph.add", v, zp, loc)?;
    }
    let v = im.saturate(v, lo, hi, loc)?;
    one(im.cast_to(v, out, loc))
}

/// `QuantizeLinear` to an 8- or 4-bit float, as the reference: `x /
/// scale` in the type NumPy divides them in (x's when the scale has it,
/// else f32, f64 if either is; `precision` when given), rounded to nearest
/// even by the cast, saturated (the `saturate` attribute, default 1) or
/// not; the zero point is added for `f4E2M1FN` and ignored for the float8
/// types (whose zero points are 0).
fn quantize_to_float(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    x: Value,
    out: Type,
    loc: Location,
) -> Res<Vec<Value>> {
    let elem = im.elem(x).ok_or("operand is not a tensor")?;
    let scale = im.req(node, 1)?;
    let scale_elem = im.elem(scale).ok_or("operand is not a tensor")?;
    let f64t = im.ctx.float_type(FloatKind::F64);
    let precision = a
        .int("precision")
        .filter(|&t| t != 0)
        .map(|t| {
            i32::try_from(t)
                .ok()
                .and_then(|t| element_type(im.ctx, t))
                .ok_or_else(|| ConvertError::unsupported(format!("precision {t} is not supported")))
        })
        .transpose()?;
    let work = match precision {
        Some(p) => p,
        None if elem == f64t || scale_elem == f64t => f64t,
        None if elem == scale_elem => elem,
        None => im.ctx.float_type(FloatKind::F32),
    };
    let q = im.quant_layout(a, x)?;
    let scale = im.quant_param(scale, x, q, loc)?;
    let scale = im.cast_to(scale, work, loc)?;
    let xw = im.cast_to(x, work, loc)?;
    let mut v = im.bin("graph.div", xw, scale, loc)?;
    let zero_point = im.input(node, 2)?;
    let adds_zero_point = im.ctx.float_kind(out) == Some(FloatKind::F4E2M1FN);
    if let Some(zp) = zero_point.filter(|_| adds_zero_point) {
        // Cast first: the zero point may be of a storage-only type (i4,
        // f8E4M3FN) that the reshaping ops do not take.
        let zp = im.cast_to(zp, work, loc)?;
        let zp = im.quant_param(zp, x, q, loc)?;
        v = im.bin("graph.add", v, zp, loc)?;
    }
    let saturate = a.int("saturate").unwrap_or(1) != 0;
    one(im.cast_saturating(v, out, saturate, loc))
}

fn dynamic_quantize_linear(
    im: &mut Importer,
    node: &NodeProto,
    _a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    im.dynamic_quantize(x, loc)
}

fn conv_integer(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let (w, xzp, wzp) = (im.req(node, 1)?, im.input(node, 2)?, im.input(node, 3)?);
    one(im.integer_conv(node, x, xzp, w, wzp, None, loc))
}

fn qlinear_conv(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // The integer convolution (with the i32 bias), times
    // x_scale * w_scale / y_scale (w_scale per output channel),
    // plus y_zero_point, saturated and rounded, as the reference.
    let (x_scale, xzp) = (im.req(node, 1)?, im.input(node, 2)?);
    let (w, w_scale, wzp) = (im.req(node, 3)?, im.req(node, 4)?, im.input(node, 5)?);
    let (y_scale, yzp, bias) = (im.req(node, 6)?, im.input(node, 7)?, im.input(node, 8)?);
    let res = im.integer_conv(node, x, xzp, w, wzp, bias, loc)?;
    let rank = im.rank_of(res).ok_or("needs an input of known rank")?;
    let w_scale = match im.dims_of(w_scale).as_deref() {
        Some([n]) if *n != Dim::Known(1) => {
            let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
            im.unsqueeze(w_scale, &trailing, loc)?
        }
        _ => w_scale,
    };
    let xw = im.bin("graph.mul", x_scale, w_scale, loc)?;
    let factor = im.bin("graph.div", xw, y_scale, loc)?;
    one(im.requantize(res, factor, yzp, x, loc))
}

fn matmul_integer(
    im: &mut Importer,
    node: &NodeProto,
    _a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // (a - a_zero_point) @ (b - b_zero_point) in i32.
    let (b, azp, bzp) = (im.req(node, 1)?, im.input(node, 2)?, im.input(node, 3)?);
    one(im.integer_matmul(x, azp, b, bzp, loc))
}

fn qlinear_matmul(
    im: &mut Importer,
    node: &NodeProto,
    _a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // The integer product, scaled by a_scale * b_scale / y_scale
    // (in the scales' type, then f64), plus y_zero_point,
    // rounded (halves to even) and saturated, as the reference.
    let (a_scale, azp) = (im.req(node, 1)?, im.input(node, 2)?);
    let (b, b_scale, bzp) = (im.req(node, 3)?, im.req(node, 4)?, im.input(node, 5)?);
    let (y_scale, yzp) = (im.req(node, 6)?, im.input(node, 7)?);
    let c = im.integer_matmul(x, azp, b, bzp, loc)?;
    let a_scale = im.per_row(a_scale, loc)?;
    let ab = im.bin("graph.mul", a_scale, b_scale, loc)?;
    let factor = im.bin("graph.div", ab, y_scale, loc)?;
    one(im.requantize(c, factor, yzp, x, loc))
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
            TypeKind::Integer { width, signedness } if matches!(width, 2 | 4 | 8 | 16 | 32) => {
                let w = *width as i32;
                Ok(if *signedness == strata_ir::types::Signedness::Unsigned {
                    (0.0, 2f64.powi(w) - 1.0)
                } else {
                    (-(2f64.powi(w - 1)), 2f64.powi(w - 1) - 1.0)
                })
            }
            _ => Err(ConvertError::unsupported(format!(
                "to {} is not supported (2-, 4-, 8-, 16- and 32-bit integers, 8- and 4-bit floats)",
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
