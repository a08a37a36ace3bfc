//! Signal processing: `DFT`, `STFT` (framed, windowed DFTs, imported as a
//! composition) and the Hann, Hamming and Blackman windows.

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
];

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
