//! A 3-D `Conv` as 2-D convolutions, one per kernel depth: output depth `o`
//! sums, over `kd`, the 2-D convolution of input depth `o * sD + kd * dD`
//! (after the depth padding) with the kernel's slice `kd`. So the input is
//! padded along D, sliced for each `kd` (every `sD`-th depth from
//! `kd * dD`), its depths folded into the batch, convolved in 2-D with
//! `w[:, :, kd]`, and the `kD` results summed; the depths then move back
//! behind the channels and the bias is added. Every op of it is one that
//! graph mode lowers. A 3-D `ConvTranspose` is the same idea turned around
//! (see [`Importer::convert_conv_transpose_3d`]).

use strata_dialects::graph::shape::Dim;
use strata_ir::{Location, Value};

use super::attrs::Attrs;
use super::{ConvertError, Importer, Res};
use crate::proto::NodeProto;

/// The sizes of `dims` when all are static.
fn statics(dims: Option<Vec<Dim>>) -> Option<Vec<i64>> {
    dims?.iter().map(Dim::known).collect()
}

impl Importer<'_> {
    /// The static sizes of a 3-D convolution's `[N, C, D, H, W]` input and
    /// 5-D weight.
    fn static_sizes_3d(&self, x: Value, w: Value) -> Res<(Vec<i64>, Vec<i64>)> {
        let xs = statics(self.dims_of(x))
            .ok_or_else(|| ConvertError::unsupported("in 3-D needs an input of static sizes"))?;
        let ws = statics(self.dims_of(w))
            .filter(|d| d.len() == 5)
            .ok_or("in 3-D needs a 5-D weight of static sizes")?;
        Ok((xs, ws))
    }

    /// `y: [N, M, D, H, W]` plus a per-channel `bias: [M]`, when there is one.
    fn add_channel_bias(
        &mut self,
        y: Value,
        bias: Option<Value>,
        loc: Location,
    ) -> Res<Vec<Value>> {
        match bias {
            Some(b) => {
                let b = self.unsqueeze(b, &[1, 2, 3], loc)?;
                Ok(vec![self.bin("graph.add", y, b, loc)?])
            }
            None => Ok(vec![y]),
        }
    }

    /// `Conv` on an `[N, C, D, H, W]` input of static sizes.
    pub(super) fn convert_conv_3d(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let (x, w) = (self.req(node, 0)?, self.req(node, 1)?);
        let bias = self.input(node, 2)?;
        let (xs, ws) = self.static_sizes_3d(x, w)?;
        let (n, c, d, h, wd) = (xs[0], xs[1], xs[2], xs[3], xs[4]);
        let (m, kd, kh, kw) = (ws[0], ws[2], ws[3], ws[4]);
        if let Some(k) = a.ints("kernel_shape") {
            if k != [kd, kh, kw] {
                return Err(format!(
                    "kernel_shape {k:?} differs from the weight's {:?}",
                    &ws[2..]
                )
                .into());
            }
        }
        let strides = a.ints("strides").unwrap_or_else(|| vec![1; 3]);
        let dilations = a.ints("dilations").unwrap_or_else(|| vec![1; 3]);
        let group = a.int("group").unwrap_or(1);
        if strides.len() != 3 || dilations.len() != 3 {
            return Err("in 3-D needs 3 strides and 3 dilations".into());
        }
        if strides.iter().chain(&dilations).any(|&v| v < 1) || [kd, kh, kw].contains(&0) {
            return Err("kernel sizes, strides and dilations must be positive".into());
        }
        let spatial = [d, h, wd];
        let kernel = [kd, kh, kw];
        let pads = match a.string("auto_pad").as_deref().unwrap_or("NOTSET") {
            "NOTSET" => a.ints("pads").unwrap_or_else(|| vec![0; 6]),
            "VALID" => vec![0; 6],
            mode @ ("SAME_UPPER" | "SAME_LOWER") => {
                let mut pads = vec![0; 6];
                for i in 0..3 {
                    let out = (spatial[i] + strides[i] - 1) / strides[i];
                    let total = ((out - 1) * strides[i] + dilations[i] * (kernel[i] - 1) + 1
                        - spatial[i])
                        .max(0);
                    let (small, large) = (total / 2, total - total / 2);
                    let (begin, end) = if mode == "SAME_UPPER" {
                        (small, large)
                    } else {
                        (large, small)
                    };
                    pads[i] = begin;
                    pads[i + 3] = end;
                }
                pads
            }
            other => return Err(format!("has an unknown auto_pad '{other}'").into()),
        };
        if pads.len() != 6 || pads.iter().any(|&p| p < 0) {
            return Err("in 3-D needs 6 non-negative pads".into());
        }
        let out: Vec<i64> = (0..3)
            .map(|i| {
                (spatial[i] + pads[i] + pads[i + 3] - dilations[i] * (kernel[i] - 1) - 1)
                    / strides[i]
                    + 1
            })
            .collect();
        if out.iter().any(|&o| o < 1) {
            return Err(
                format!("the kernel does not fit the padded input: output sizes {out:?}").into(),
            );
        }
        let (od, oh, ow) = (out[0], out[1], out[2]);
        // The depth padding first; the 2-D convolutions pad H and W.
        let padded = if pads[0] > 0 || pads[3] > 0 {
            let amounts = self.const_i64(&[0, 0, pads[0], 0, 0, 0, 0, pads[3], 0, 0], loc)?;
            let mode = self.ctx.string_attr("constant");
            let seg = self.segments(&[1, 1, 0, 0]);
            self.op1(
                "graph.pad",
                vec![x, amounts],
                vec![("mode", mode), ("operandSegmentSizes", seg)],
                loc,
            )?
        } else {
            x
        };
        let slice = |im: &mut Self, v: Value, axis: i64, start: i64, end: i64, step: i64| {
            let ops = vec![
                v,
                im.const_i64(&[start], loc)?,
                im.const_i64(&[end], loc)?,
                im.const_i64(&[axis], loc)?,
                im.const_i64(&[step], loc)?,
            ];
            let seg = im.segments(&[1, 1, 1, 1, 1]);
            im.op1("graph.slice", ops, vec![("operandSegmentSizes", seg)], loc)
        };
        let transpose = |im: &mut Self, v: Value| {
            let perm = im.i64_array(&[0, 2, 1, 3, 4]);
            im.op1("graph.transpose", vec![v], vec![("perm", perm)], loc)
        };
        let mut sum: Option<Value> = None;
        for k in 0..kd {
            let start = k * dilations[0];
            let depths = slice(
                self,
                padded,
                2,
                start,
                start + (od - 1) * strides[0] + 1,
                strides[0],
            )?;
            let folded = transpose(self, depths)?;
            let shape = self.const_i64(&[n * od, c, h, wd], loc)?;
            let folded = self.reshape(folded, shape, loc)?;
            let wk = slice(self, w, 2, k, k + 1, 1)?;
            let wshape = self.const_i64(&[m, ws[1], kh, kw], loc)?;
            let wk = self.reshape(wk, wshape, loc)?;
            let props = vec![
                ("strides", self.i64_array(&strides[1..])),
                (
                    "pads",
                    self.i64_array(&[pads[1], pads[2], pads[4], pads[5]]),
                ),
                ("dilations", self.i64_array(&dilations[1..])),
                ("group", self.i64_attr(group)),
            ];
            let y = self.op1("graph.conv2d", vec![folded, wk], props, loc)?;
            sum = Some(match sum {
                None => y,
                Some(acc) => self.bin("graph.add", acc, y, loc)?,
            });
        }
        let sum = sum.ok_or("has an empty kernel")?;
        let shape = self.const_i64(&[n, od, m, oh, ow], loc)?;
        let unfolded = self.reshape(sum, shape, loc)?;
        let y = transpose(self, unfolded)?;
        self.add_channel_bias(y, bias, loc)
    }
}

impl Importer<'_> {
    /// `ConvTranspose` on an `[N, C, D, H, W]` input of static sizes: per
    /// kernel depth `kd`, a 2-D transposed convolution of every input depth
    /// (folded into the batch) with `w[:, :, kd]`; input depth `i` lands on
    /// output depth `i * sD + kd * dD - pad` (the depths spread `sD` apart
    /// with zeros between, then shifted by a pad whose negative amounts
    /// crop), and the `kD` results are summed.
    pub(super) fn convert_conv_transpose_3d(
        &mut self,
        node: &NodeProto,
        a: &Attrs,
        loc: Location,
    ) -> Res<Vec<Value>> {
        let (x, w) = (self.req(node, 0)?, self.req(node, 1)?);
        let bias = self.input(node, 2)?;
        let (xs, ws) = self.static_sizes_3d(x, w)?;
        let (n, c, d, h, wd) = (xs[0], xs[1], xs[2], xs[3], xs[4]);
        let (mg, kd, kh, kw) = (ws[1], ws[2], ws[3], ws[4]);
        let group = a.int("group").unwrap_or(1);
        let kernel = [kd, kh, kw];
        if let Some(k) = a.ints("kernel_shape") {
            if k != kernel {
                return Err(
                    format!("kernel_shape {k:?} differs from the weight's {kernel:?}").into(),
                );
            }
        }
        let strides = a.ints("strides").unwrap_or_else(|| vec![1; 3]);
        let dilations = a.ints("dilations").unwrap_or_else(|| vec![1; 3]);
        let output_padding = a.ints("output_padding").unwrap_or_else(|| vec![0; 3]);
        if strides.len() != 3 || dilations.len() != 3 || output_padding.len() != 3 {
            return Err("in 3-D needs 3 strides, dilations and output paddings".into());
        }
        if strides.iter().chain(&dilations).any(|&v| v < 1) || kernel.contains(&0) {
            return Err("kernel sizes, strides and dilations must be positive".into());
        }
        if output_padding.iter().any(|&p| p < 0) {
            return Err(format!("output_padding {output_padding:?} must not be negative").into());
        }
        let spatial = [d, h, wd];
        // output_shape may list every dimension or the spatial ones.
        let output_shape = match a.ints("output_shape") {
            None => None,
            Some(s) if s.len() == 3 || s.len() == 5 => Some(s[s.len() - 3..].to_vec()),
            Some(s) => {
                return Err(format!(
                    "has an output_shape of {} entries (3 spatial sizes, or all 5 dimensions)",
                    s.len()
                )
                .into())
            }
        };
        // Sizes in i128, so that no attribute overflows them.
        let wide = |v: i128| {
            i64::try_from(v).map_err(|_| ConvertError::from("needs sizes too large to represent"))
        };
        // The full (uncropped) size along each axis.
        let full: Vec<i64> = (0..3)
            .map(|i| {
                let [s, n, p, k, dl] = [
                    strides[i],
                    spatial[i],
                    output_padding[i],
                    kernel[i],
                    dilations[i],
                ]
                .map(i128::from);
                wide(s * (n - 1) + p + (k - 1) * dl + 1)
            })
            .collect::<Res<_>>()?;
        let auto_pad = a.string("auto_pad").unwrap_or_else(|| "NOTSET".into());
        let pads = match (auto_pad.as_str(), a.ints("pads")) {
            ("NOTSET", Some(p)) => p,
            ("NOTSET" | "VALID", _) => vec![0; 6],
            ("SAME_UPPER" | "SAME_LOWER", _) => {
                let mut pads = vec![0; 6];
                for i in 0..3 {
                    let out = match &output_shape {
                        Some(s) => s[i],
                        None => wide(i128::from(spatial[i]) * i128::from(strides[i]))?,
                    };
                    let total = wide(i128::from(full[i]) - i128::from(out))?;
                    if total < 0 {
                        return Err(ConvertError::unsupported(format!(
                            "with auto_pad={auto_pad} and a kernel smaller than its stride needs negative padding, which is not supported"
                        )));
                    }
                    let (small, large) = (total / 2, total - total / 2);
                    (pads[i], pads[i + 3]) = if auto_pad == "SAME_UPPER" {
                        (small, large)
                    } else {
                        (large, small)
                    };
                }
                pads
            }
            (other, _) => return Err(format!("has an unknown auto_pad '{other}'").into()),
        };
        if pads.len() != 6 || pads.iter().any(|&p| p < 0) {
            return Err(format!("pads {pads:?} must be 6 sizes that are not negative").into());
        }
        // The output depth: from output_shape (starting at the front pad),
        // else the full size less the pads.
        let od = match &output_shape {
            Some(s) => s[0],
            None => wide(i128::from(full[0]) - i128::from(pads[0]) - i128::from(pads[3]))?,
        };
        // The depth arithmetic below stays in range once these are.
        let nd = wide(i128::from(n) * i128::from(d))?;
        let ds = wide(i128::from(d) * i128::from(strides[0]))?;
        wide(i128::from(kd) * i128::from(dilations[0]) + i128::from(ds) + i128::from(od))?;
        if od < 1 {
            return Err(format!("gives an output depth of {od}").into());
        }
        let slice = |im: &mut Self, v: Value, start: i64| {
            let ops = vec![
                v,
                im.const_i64(&[start], loc)?,
                im.const_i64(&[start + 1], loc)?,
                im.const_i64(&[2], loc)?,
            ];
            let seg = im.segments(&[1, 1, 1, 1, 0]);
            im.op1("graph.slice", ops, vec![("operandSegmentSizes", seg)], loc)
        };
        let perm = self.i64_array(&[0, 2, 1, 3, 4]);
        let folded = self.op1("graph.transpose", vec![x], vec![("perm", perm)], loc)?;
        let shape = self.const_i64(&[nd, c, h, wd], loc)?;
        let folded = self.reshape(folded, shape, loc)?;
        let mut sum: Option<Value> = None;
        for k in 0..kd {
            let wk = slice(self, w, k)?;
            let wshape = self.const_i64(&[c, mg, kh, kw], loc)?;
            let wk = self.reshape(wk, wshape, loc)?;
            let mut props = vec![
                ("strides", self.i64_array(&strides[1..])),
                (
                    "pads",
                    self.i64_array(&[pads[1], pads[2], pads[4], pads[5]]),
                ),
                ("dilations", self.i64_array(&dilations[1..])),
                ("group", self.i64_attr(group)),
                ("output_padding", self.i64_array(&output_padding[1..])),
            ];
            if let Some(s) = &output_shape {
                props.push(("output_shape", self.i64_array(&s[1..])));
            }
            let y = self.op1("graph.conv_transpose2d", vec![folded, wk], props, loc)?;
            let ys = statics(self.dims_of(y)).ok_or("gives a dynamic 2-D result")?;
            let (m, oh, ow) = (ys[1], ys[2], ys[3]);
            let shape = self.const_i64(&[n, d, m, oh, ow], loc)?;
            let mut y = self.reshape(y, shape, loc)?;
            // Input depth i at i * sD: zeros between the depths.
            let s = strides[0];
            if s > 1 {
                let shape = self.const_i64(&[n, d, 1, m, oh, ow], loc)?;
                let lifted = self.reshape(y, shape, loc)?;
                let zero = self.scalar_like(x, 0.0, loc)?;
                let zshape = self.const_i64(&[n, d, s - 1, m, oh, ow], loc)?;
                let zeros = self.op1("graph.expand", vec![zero, zshape], vec![], loc)?;
                let axis = self.i64_attr(2);
                let spread = self.op1(
                    "graph.concat",
                    vec![lifted, zeros],
                    vec![("axis", axis)],
                    loc,
                )?;
                let shape = self.const_i64(&[n, ds, m, oh, ow], loc)?;
                y = self.reshape(spread, shape, loc)?;
            }
            // Then shifted to k * dD less the front pad, cut to the output.
            let front = wide(i128::from(k) * i128::from(dilations[0]) - i128::from(pads[0]))?;
            let back = wide(i128::from(od) - i128::from(front) - i128::from(ds))?;
            let amounts = self.const_i64(&[0, front, 0, 0, 0, 0, back, 0, 0, 0], loc)?;
            let mode = self.ctx.string_attr("constant");
            let seg = self.segments(&[1, 1, 0, 0]);
            let placed = self.op1(
                "graph.pad",
                vec![y, amounts],
                vec![("mode", mode), ("operandSegmentSizes", seg)],
                loc,
            )?;
            sum = Some(match sum {
                None => placed,
                Some(acc) => self.bin("graph.add", acc, placed, loc)?,
            });
        }
        let sum = sum.ok_or("has an empty kernel")?;
        let perm = self.i64_array(&[0, 2, 1, 3, 4]);
        let y = self.op1("graph.transpose", vec![sum], vec![("perm", perm)], loc)?;
        self.add_channel_bias(y, bias, loc)
    }
}
