//! Signal processing: `DFT`, `STFT` (framed, windowed DFTs, imported as a
//! composition), the Hann, Hamming and Blackman windows and
//! `MelWeightMatrix`; and `ImageDecoder`.

use strata_ir::float::FloatKind;
use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;
use crate::tensor::element_type;
use crate::ConvertError;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("DFT", dft),
    ("STFT", stft),
    ("HannWindow", window),
    ("HammingWindow", window),
    ("BlackmanWindow", window),
    ("MelWeightMatrix", mel_weight_matrix),
    ("ImageDecoder", image_decoder),
];

/// ImageDecoder (opset 20): `graph.image_decode` of the encoded bytes.
fn image_decoder(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let mut props = Vec::new();
    if let Some(format) = a.string("pixel_format") {
        props.push(("pixel_format", im.ctx.string_attr(&format)));
    }
    one(im.op1("graph.image_decode", vec![x], props, loc))
}

fn dft(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    // The axis is an attribute (default 1) before opset 20, an
    // input (default -2) from 20: a constant one becomes the
    // attribute, a run-time one the op's axis operand.
    let x = im.req(node, 0)?;
    let length = im.input(node, 1)?;
    let (axis, axis_value) = if im.opset >= 20 {
        match im.input(node, 2)? {
            Some(v) => match im.const_int(v).and_then(|v| v.first().copied()) {
                Some(c) => (c, None),
                None => (-2, Some(v)),
            },
            None => (-2, None),
        }
    } else {
        (a.int("axis").unwrap_or(1), None)
    };
    let seg = im.segments(&[
        1,
        i32::from(length.is_some()),
        i32::from(axis_value.is_some()),
    ]);
    let props = vec![
        ("operandSegmentSizes", seg),
        ("axis", im.i64_attr(axis)),
        ("inverse", im.bool_attr(a.int("inverse").unwrap_or(0) != 0)),
        (
            "onesided",
            im.bool_attr(a.int("onesided").unwrap_or(0) != 0),
        ),
    ];
    let ops = std::iter::once(x).chain(length).chain(axis_value).collect();
    one(im.op1("graph.dft", ops, props, loc))
}

fn stft(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    // Frames of frame_length every frame_step (a gather of
    // i * step + j), times the window, then a DFT of each frame
    // (one-sided unless onesided = 0).
    if im.rank_of(x) != Some(3) {
        return Err("needs a signal [batch, length, 1 or 2]".into());
    }
    let step = im.req(node, 1)?;
    let step = im.scalar_i64(step, loc)?;
    let window = im.input(node, 2)?;
    let length = match (im.input(node, 3)?, window) {
        (Some(l), _) => im.scalar_i64(l, loc)?,
        (None, Some(w)) => im.dim_scalar(w, 0, loc)?,
        (None, None) => im.dim_scalar(x, 1, loc)?,
    };
    let total = im.dim_scalar(x, 1, loc)?;
    let one = im.const_i64_scalar(1, loc)?;
    let rest = im.bin("graph.sub", total, length, loc)?;
    let steps = im.bin("graph.div", rest, step, loc)?;
    let frames = im.bin("graph.add", steps, one, loc)?;
    let starts = im.iota(frames, 1, loc)?;
    let starts = im.bin("graph.mul", starts, step, loc)?;
    let offsets = im.iota(length, 0, loc)?;
    let idx = im.bin("graph.add", starts, offsets, loc)?;
    let axis = im.i64_attr(1);
    let mut framed = im.op1("graph.gather", vec![x, idx], vec![("axis", axis)], loc)?;
    if let Some(w) = window {
        let w = im.unsqueeze(w, &[1], loc)?;
        framed = im.bin("graph.mul", framed, w, loc)?;
    }
    let props = vec![
        ("axis", im.i64_attr(2)),
        (
            "onesided",
            im.bool_attr(a.int("onesided").unwrap_or(1) != 0),
        ),
        ("operandSegmentSizes", im.segments(&[1, 0, 0])),
    ];
    Ok(vec![im.op1("graph.dft", vec![framed], props, loc)?])
}

/// `HannWindow`, `HammingWindow` and `BlackmanWindow`.
fn window(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    one(im.window(node.op_type(), a, x, loc))
}

/// MelWeightMatrix (opset 17): the `[dft_length / 2 + 1, num_mel_bins]`
/// triangular filters from linear to mel frequency, computed in f64 as
/// ONNX's reference does: `num_mel_bins + 2` points evenly spaced in mel
/// (its step divides the mel span by `num_mel_bins + 2`, as the reference
/// does), converted to hertz and to spectrogram bins, the floor of
/// `(dft_length + 1) * hz / sample_rate`; filter `i` rises from bin `i` to
/// bin `i + 1` and falls to bin `i + 2`. Every input may be a run-time
/// value; the result's sizes then are too.
fn mel_weight_matrix(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let f64t = im.ctx.float_type(FloatKind::F64);
    let bins = im.req(node, 0)?;
    let bins = im.scalar_i64(bins, loc)?;
    let dft = im.req(node, 1)?;
    let dft = im.scalar_i64(dft, loc)?;
    let mut real = Vec::with_capacity(3);
    for i in 2..5 {
        let x = im.req(node, i)?;
        let x = im.cast_to(x, f64t, loc)?;
        let shape = im.const_i64(&[], loc)?;
        real.push(im.reshape(x, shape, loc)?);
    }
    let (rate, lower, upper) = (real[0], real[1], real[2]);
    let c = |im: &mut Importer, v: f64| im.scalar(f64t, v, loc);

    // Mel of a frequency: 2595 * log10(1 + hz / 700).
    let mel = |im: &mut Importer, hz: Value| -> Res<Value> {
        let k700 = c(im, 700.0)?;
        let ratio = im.bin("graph.div", hz, k700, loc)?;
        let unit = c(im, 1.0)?;
        let shifted = im.bin("graph.add", ratio, unit, loc)?;
        let ln = im.un("graph.log", shifted, loc)?;
        let k = c(im, 2595.0 / std::f64::consts::LN_10)?;
        im.bin("graph.mul", ln, k, loc)
    };
    let low = mel(im, lower)?;
    let high = mel(im, upper)?;
    let two = im.const_i64_scalar(2, loc)?;
    let points = im.bin("graph.add", bins, two, loc)?;
    let points = im.cast_to(points, f64t, loc)?;
    let span = im.bin("graph.sub", high, low, loc)?;
    let step = im.bin("graph.div", span, points, loc)?;
    let zero = im.const_i64_scalar(0, loc)?;
    let unit = im.const_i64_scalar(1, loc)?;
    let filters = im.op1("graph.range", vec![zero, bins, unit], vec![], loc)?;
    let filters = im.cast_to(filters, f64t, loc)?;
    let dft1 = im.bin("graph.add", dft, unit, loc)?;
    let dft1 = im.cast_to(dft1, f64t, loc)?;
    // The spectrogram bin of mel point `filters + offset`.
    let bin = |im: &mut Importer, offset: f64| -> Res<Value> {
        let off = c(im, offset)?;
        let k = im.bin("graph.add", filters, off, loc)?;
        let m = im.bin("graph.mul", k, step, loc)?;
        let m = im.bin("graph.add", m, low, loc)?;
        let k2595 = c(im, 2595.0)?;
        let e = im.bin("graph.div", m, k2595, loc)?;
        let ten = c(im, 10.0)?;
        let p = im.bin("graph.pow", ten, e, loc)?;
        let unit = c(im, 1.0)?;
        let p = im.bin("graph.sub", p, unit, loc)?;
        let k700 = c(im, 700.0)?;
        let hz = im.bin("graph.mul", p, k700, loc)?;
        let scaled = im.bin("graph.mul", dft1, hz, loc)?;
        let q = im.bin("graph.div", scaled, rate, loc)?;
        im.un("graph.floor", q, loc)
    };
    let (left, center, right) = (bin(im, 0.0)?, bin(im, 1.0)?, bin(im, 2.0)?);

    // Rows: the spectrogram bins j, as a column against the filters.
    let rows = im.bin("graph.div", dft, two, loc)?;
    let rows = im.bin("graph.add", rows, unit, loc)?;
    let j = im.op1("graph.range", vec![zero, rows, unit], vec![], loc)?;
    let j = im.cast_to(j, f64t, loc)?;
    let j = im.unsqueeze(j, &[1], loc)?;
    let fzero = c(im, 0.0)?;
    let fone = c(im, 1.0)?;
    let rise = im.bin("graph.sub", center, left, loc)?;
    let fall = im.bin("graph.sub", right, center, loc)?;
    let rises = im.bin("graph.greater", rise, fzero, loc)?;
    let falls = im.bin("graph.greater", fall, fzero, loc)?;
    // Rising edge, left <= j <= center: (j - left) / (center - left).
    let from = im.bin("graph.greater_equal", j, left, loc)?;
    let to = im.bin("graph.less_equal", j, center, loc)?;
    let inside = im.bin("graph.and", from, to, loc)?;
    let inside = im.bin("graph.and", inside, rises, loc)?;
    let up = im.bin("graph.sub", j, left, loc)?;
    let rise_div = im.bin("graph.max", rise, fone, loc)?;
    let up = im.bin("graph.div", up, rise_div, loc)?;
    let w = im.op1("graph.where", vec![inside, up, fzero], vec![], loc)?;
    // A filter whose rise is empty has 1 at its center.
    let flat = im.bin("graph.equal", rise, fzero, loc)?;
    let at = im.bin("graph.equal", j, center, loc)?;
    let peak = im.bin("graph.and", at, flat, loc)?;
    let w = im.op1("graph.where", vec![peak, fone, w], vec![], loc)?;
    // Falling edge, center <= j < right: (right - j) / (right - center).
    let from = im.bin("graph.greater_equal", j, center, loc)?;
    let to = im.bin("graph.less", j, right, loc)?;
    let inside = im.bin("graph.and", from, to, loc)?;
    let inside = im.bin("graph.and", inside, falls, loc)?;
    let down = im.bin("graph.sub", right, j, loc)?;
    let fall_div = im.bin("graph.max", fall, fone, loc)?;
    let down = im.bin("graph.div", down, fall_div, loc)?;
    let w = im.op1("graph.where", vec![inside, down, w], vec![], loc)?;
    one(im.cast_to_output_datatype(w, a, loc))
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
        self.cast_to_output_datatype(w, a, loc)
    }

    /// `x` cast to the node's `output_datatype` (f32 by default).
    fn cast_to_output_datatype(&mut self, x: Value, a: &Attrs, loc: Location) -> Res<Value> {
        let dt = a.int("output_datatype").unwrap_or(1);
        let out = i32::try_from(dt)
            .ok()
            .and_then(|t| element_type(self.ctx, t))
            .ok_or_else(|| {
                ConvertError::unsupported(format!("output_datatype {dt} is not supported"))
            })?;
        self.cast_to(x, out, loc)
    }
}
