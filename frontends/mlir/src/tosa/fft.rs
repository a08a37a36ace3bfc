//! `tosa.fft2d` and `tosa.rfft2d` as two one-axis `graph.dft`s.
//!
//! TOSA keeps a complex signal `[N, H, W]` as two tensors, real and
//! imaginary, and transforms H and W together without normalizing either
//! way. `graph.dft` (ONNX's `DFT`) transforms one axis of a signal whose
//! trailing dimension holds `[re, im]` (or `[re]`), and divides an inverse
//! by the length. So the parts are stacked into that trailing pair, H and
//! W transformed one after the other, an inverse multiplied back by `H W`,
//! and the pair split again. `rfft2d` transforms the real W axis one-sided
//! first (`W / 2 + 1` outputs), then H.

use strata_ir::Value;

use super::text::static_shape;
use super::{Importer, Node, Res, Slot};

impl Importer<'_> {
    /// `tosa.fft2d` (`inverse`) and `tosa.rfft2d`: the real and imaginary
    /// results.
    pub(super) fn fft(&mut self, node: &Node) -> Res<Vec<Slot>> {
        let loc = node.loc;
        let re = self.operand(node, 0)?;
        let shape =
            static_shape(self.ctx, self.ctx.value_type(re)).ok_or("a signal of unknown shape")?;
        let [n, h, w] = shape[..] else {
            return Err("a signal that is not [N, H, W]".into());
        };
        let real = node.name == "tosa.rfft2d";
        let inverse = !real && self.attr(node, "inverse")? == "true";
        let signal = if real {
            self.reshape(re, &[n, h, w, 1], loc)?
        } else {
            let im = self.operand(node, 1)?;
            let re = self.reshape(re, &[n, h, w, 1], loc)?;
            let im = self.reshape(im, &[n, h, w, 1], loc)?;
            self.emit(loc).concat(&[re, im], 3)?
        };
        // W first: one-sided for a real signal.
        let along_w = self.dft(signal, 2, inverse, real, loc)?;
        let mut both = self.dft(along_w, 1, inverse, false, loc)?;
        if inverse {
            // graph.dft's inverse divides by each length; TOSA's does not.
            let mut e = self.emit(loc);
            let scale = e.scalar_like(both, (h * w) as f64)?;
            both = e.bin("graph.mul", both, scale)?;
        }
        let out = static_shape(self.ctx, self.ctx.value_type(both))
            .ok_or("a transform of unknown shape")?;
        let parts = [0, 1].map(|k| -> Res<Slot> {
            let part = self.emit(loc).take(both, 3, k, k + 1)?;
            Ok(Slot::Tensor(self.reshape(part, &out[..3], loc)?))
        });
        let [re, im] = parts;
        Ok(vec![re?, im?])
    }

    fn dft(
        &mut self,
        x: Value,
        axis: i64,
        inverse: bool,
        onesided: bool,
        loc: strata_ir::Location,
    ) -> Res<Value> {
        let mut e = self.emit(loc);
        let props = [
            ("axis", e.i64_attr(axis)),
            ("inverse", e.ctx.bool_attr(inverse)),
            ("onesided", e.ctx.bool_attr(onesided)),
            ("operandSegmentSizes", e.segments(&[1, 0, 0])),
        ];
        e.op1("graph.dft", &[x], &props)
    }
}
