//! `tosa.conv3d` as 2-D convolutions, one per kernel depth.
//!
//! Output depth `od` sums, over the kernel depths `kd`, the 2-D convolution
//! of input depth `od * sD + kd * dD` (after the depth padding) with the
//! weight's slice `kd`. So the input `[N, D, H, W, C]` is padded along D,
//! sliced for each `kd` (every `sD`-th depth from `kd * dD`, `OD` of them),
//! its depths folded into the batch (`[N * OD, H, W, C]`, channels last as
//! `graph.conv2d`'s `nhwc` takes them), convolved with `w[:, kd]`, and the
//! results summed, unfolded to `[N, OD, OH, OW, OC]` and the bias added.
//! Every op of it is one graph mode lowers.

use strata_ir::Value;

use super::text::static_shape;
use super::{Importer, Node, Res, Slot};

impl Importer<'_> {
    /// `tosa.conv3d`: NDHWC input, weight `[OC, KD, KH, KW, IC]`, `pad =
    /// [front, back, top, bottom, left, right]`.
    pub(super) fn convolution_3d(&mut self, node: &Node) -> Res<Slot> {
        let loc = node.loc;
        let x = self.operand(node, 0)?;
        let weight = self.operand(node, 1)?;
        let bias = self.operand(node, 2)?;
        for i in 3..node.operands.len() {
            self.require_zero(node, i, "zero point")?;
        }
        let pad = self.ints(node, "pad")?;
        let stride = self.ints(node, "stride")?;
        let dilation = self.ints(node, "dilation")?;
        let (&[front, back, top, bottom, left, right], &[sd, sh, sw], &[dd, dh, dw]) =
            (&pad[..], &stride[..], &dilation[..])
        else {
            return Err("'pad', 'stride' or 'dilation' is not of 6, 3 and 3 integers".into());
        };
        let xs =
            static_shape(self.ctx, self.ctx.value_type(x)).ok_or("an input of unknown shape")?;
        let ws = static_shape(self.ctx, self.ctx.value_type(weight))
            .ok_or("a weight of unknown shape")?;
        let (&[n, d, h, w, c], &[oc, kd, kh, kw, _]) = (&xs[..], &ws[..]) else {
            return Err("an input or weight that is not rank 5".into());
        };
        // TOSA's own limits are far below these; they keep the arithmetic
        // on the sizes below from overflowing.
        let limit = i64::from(i32::MAX);
        if [sd, sh, sw, dd, dh, dw]
            .iter()
            .any(|&v| !(1..=limit).contains(&v))
            || pad.iter().any(|&p| !(0..=limit).contains(&p))
        {
            return Err(format!(
                "a pad {pad:?}, stride {stride:?} or dilation {dilation:?} out of range"
            ));
        }
        let padded_depth = d + front + back;
        let od = (padded_depth - (kd - 1) * dd - 1).div_euclid(sd) + 1;
        if od <= 0 {
            return Err(format!(
                "a depth of {d} padded by [{front}, {back}] is shorter than the kernel"
            ));
        }
        let padded = if front == 0 && back == 0 {
            x
        } else {
            let pads = self.const_i64(&[0, front, 0, 0, 0, 0, back, 0, 0, 0], loc)?;
            let mode = self.ctx.string_attr("constant");
            let segments = self.segments(&[1, 1, 0, 0]);
            self.build(
                "graph.pad",
                vec![x, pads],
                vec![("mode", mode), ("operandSegmentSizes", segments)],
                loc,
            )?
        };
        let mut sum: Option<Value> = None;
        for k in 0..kd {
            // Depths k * dD, k * dD + sD, ... (OD of them).
            let start = k * dd;
            let depths =
                self.strided_slice(padded, 1, start, start + (od - 1) * sd + 1, sd, loc)?;
            let plane = self.reshape(depths, &[n * od, h, w, c], loc)?;
            let tap = self.strided_slice(weight, 1, k, k + 1, 1, loc)?;
            let tap = self.reshape(tap, &[oc, kh, kw, ws[4]], loc)?;
            let props = vec![
                ("strides", self.i64_array(&[sh, sw])),
                ("pads", self.i64_array(&[top, left, bottom, right])),
                ("dilations", self.i64_array(&[dh, dw])),
                ("layout", self.ctx.string_attr("nhwc")),
            ];
            let y = self.build("graph.conv2d", vec![plane, tap], props, loc)?;
            sum = Some(match sum {
                Some(s) => self.build("graph.add", vec![s, y], vec![], loc)?,
                None => y,
            });
        }
        let sum = sum.ok_or("a kernel of depth 0")?;
        let planes = static_shape(self.ctx, self.ctx.value_type(sum))
            .ok_or("a convolution of unknown shape")?;
        let [_, oh, ow, _] = planes[..] else {
            return Err("a 2-D convolution that is not rank 4".into());
        };
        let y = self.reshape(sum, &[n, od, oh, ow, oc], loc)?;
        Ok(Slot::Tensor(self.build(
            "graph.add",
            vec![y, bias],
            vec![],
            loc,
        )?))
    }

    /// `x[start:end:step]` along `axis`.
    fn strided_slice(
        &mut self,
        x: Value,
        axis: i64,
        start: i64,
        end: i64,
        step: i64,
        loc: strata_ir::Location,
    ) -> Res<Value> {
        let starts = self.const_i64(&[start], loc)?;
        let ends = self.const_i64(&[end], loc)?;
        let axes = self.const_i64(&[axis], loc)?;
        let steps = self.const_i64(&[step], loc)?;
        let segments = self.segments(&[1, 1, 1, 1, 1]);
        self.build(
            "graph.slice",
            vec![x, starts, ends, axes, steps],
            vec![("operandSegmentSizes", segments)],
            loc,
        )
    }
}
