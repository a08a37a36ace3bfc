//! `graph.resize` and `graph.gather_nd` as TOSA.

use strata_ir::Operation;

use super::{Emitter, Res, T};

/// `a / b` in lowest terms (`b > 0`).
fn reduced(a: i64, b: i64) -> (i64, i64) {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 {
            a.abs()
        } else {
            gcd(b, a % b)
        }
    }
    let g = gcd(a, b).max(1);
    (a / g, b / g)
}

/// A scale as a fraction of small terms: `out / in` when it is that, else
/// the first `n / d` (d up to 1024) within a millionth of it.
fn fraction(scale: f64, input: i64, output: i64) -> Option<(i64, i64)> {
    let close = |n: i64, d: i64| (n as f64 / d as f64 - scale).abs() <= 1e-6 * scale.abs();
    if input > 0 && close(output, input) {
        return Some(reduced(output, input));
    }
    (1..=1024)
        .map(|d| ((scale * d as f64).round() as i64, d))
        .find(|&(n, d)| n > 0 && close(n, d))
        .map(|(n, d)| reduced(n, d))
}

/// TOSA's `(n, d, offset, border)` of one axis resized from `input` to
/// `output` at the scale `scale`, sampled by `coordinate` and (nearest)
/// rounded by `rounding`: TOSA samples `(o * d + offset) / n` and rounds
/// half up.
fn axis_parameters(
    scale: f64,
    input: i64,
    output: i64,
    coordinate: &str,
    rounding: Option<&str>,
) -> Res<(i64, i64, i64, i64)> {
    let (mut n, mut d) = match coordinate {
        "align_corners" if output > 1 && input > 1 => reduced(output - 1, input - 1),
        "align_corners" => (1, 1),
        _ => fraction(scale, input, output)
            .ok_or_else(|| format!("a resize scale of {scale} is no fraction of small terms"))?,
    };
    let base = match coordinate {
        "half_pixel" => d - n,
        "pytorch_half_pixel" if output > 1 => d - n,
        "pytorch_half_pixel" => {
            return Err("a pytorch_half_pixel resize to one pixel has no TOSA form".into())
        }
        "asymmetric" | "align_corners" => 0,
        other => {
            return Err(format!(
                "a resize with coordinate_transformation_mode \"{other}\" has no TOSA form"
            ))
        }
    };
    let round = match rounding {
        None | Some("round_prefer_ceil") => 0,
        Some("floor") => -n,
        Some(other) => {
            return Err(format!(
                "a nearest resize rounding \"{other}\" has no TOSA form"
            ))
        }
    };
    let mut twice = base + round;
    if twice % 2 != 0 {
        (n, d, twice) = (2 * n, 2 * d, 2 * twice);
    }
    let offset = twice / 2;
    let border = (output - 1) * d - (input - 1) * n + offset;
    Ok((n, d, offset, border))
}

impl Emitter<'_> {
    /// `graph.resize` of the two spatial axes of a rank-4 tensor (NCHW
    /// when N and C keep their sizes, else NHWC) as `tosa.resize`.
    pub(super) fn resize(&mut self, op: Operation, out: &T) -> Res<T> {
        let x = self.operand(op, 0)?;
        if x.rank() != 4 {
            return Err("only a resize of a rank-4 tensor has a TOSA form".into());
        }
        let mode = self.string(op, "mode").unwrap_or_else(|| "nearest".into());
        let coordinate = self
            .string(op, "coordinate_transformation_mode")
            .unwrap_or_else(|| "half_pixel".into());
        let rounding = self
            .string(op, "nearest_mode")
            .unwrap_or_else(|| "round_prefer_floor".into());
        let nearest = match mode.as_str() {
            "nearest" => true,
            "linear" if x.is_float() => false,
            _ => return Err(format!("a {mode} resize of {} has no TOSA form", x.elem)),
        };
        if self.flag(op, "antialias") {
            return Err("an antialiased resize has no TOSA form".into());
        }
        let scales = self.resize_scales(op, &x, out)?;
        let nchw = scales[0] == 1.0 && scales[1] == 1.0;
        let spatial: [usize; 2] = if nchw { [2, 3] } else { [1, 2] };
        let other = if nchw { [0, 1] } else { [0, 3] };
        if other
            .iter()
            .any(|&a| scales[a] != 1.0 || x.shape[a] != out.shape[a])
        {
            return Err("a resize of more than two axes has no TOSA form".into());
        }
        let mut parameters = Vec::new();
        for a in spatial {
            let rounding = nearest.then_some(rounding.as_str());
            parameters.push(axis_parameters(
                scales[a],
                x.shape[a],
                out.shape[a],
                &coordinate,
                rounding,
            )?);
        }
        let [(yn, yd, yo, yb), (xn, xd, xo, xb)] = parameters[..] else {
            return Err("a resize of other than two axes".into());
        };
        // TOSA samples at the exact fraction, graph.resize at its scale: a
        // nearest resize rounds at the exact halves, so they must agree.
        let fractions = [(spatial[0], yn, yd), (spatial[1], xn, xd)];
        if nearest
            && coordinate != "align_corners"
            && fractions
                .iter()
                .any(|&(a, n, d)| scales[a] != n as f64 / d as f64)
        {
            return Err(format!(
                "a nearest resize at scales {:?}, not exactly fractions, has no exact TOSA form",
                [scales[spatial[0]], scales[spatial[1]]]
            ));
        }
        let x = if nchw {
            self.transpose(&x, &[0, 2, 3, 1])
        } else {
            x
        };
        let shape = [
            x.shape[0],
            out.shape[spatial[0]],
            out.shape[spatial[1]],
            x.shape[3],
        ];
        let scale = self.shape(&[yn, yd, xn, xd]);
        let offset = self.shape(&[yo, xo]);
        let border = self.shape(&[yb, xb]);
        let props = format!(
            "mode = #tosa.resize_mode<{}>",
            if nearest {
                "NEAREST_NEIGHBOR"
            } else {
                "BILINEAR"
            }
        );
        let elem = x.elem.clone();
        let r = self.emit(
            "tosa.resize",
            &[&x, &scale, &offset, &border],
            &props,
            &shape,
            &elem,
        );
        Ok(if nchw {
            self.transpose(&r, &[0, 3, 1, 2])
        } else {
            r
        })
    }

    /// Each axis's scale: the `scales` operand's (through `axes`), or the
    /// ratio of the sizes.
    fn resize_scales(&mut self, op: Operation, x: &T, out: &T) -> Res<Vec<f64>> {
        let ratio: Vec<f64> = x
            .shape
            .iter()
            .zip(&out.shape)
            .map(|(&i, &o)| if i > 0 { o as f64 / i as f64 } else { 1.0 })
            .collect();
        // operandSegmentSizes: input, roi, scales, sizes.
        let segments = self
            .attr_text(op, "operandSegmentSizes")
            .unwrap_or_default();
        let counts: Vec<usize> = segments
            .trim_start_matches("array<i32:")
            .trim_end_matches('>')
            .split(',')
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        let [_, roi, scales, sizes] = counts[..] else {
            return Err("a resize without its operand segments".into());
        };
        if sizes == 1 {
            let policy = self.string(op, "keep_aspect_ratio_policy");
            if policy.is_some_and(|p| p != "stretch") {
                return Err("a resize that keeps the aspect ratio has no TOSA form".into());
            }
            return Ok(ratio);
        }
        if scales != 1 {
            return Ok(ratio);
        }
        let v = self.ctx.operand(op, 1 + roi);
        let given = self
            .ctx
            .defining_op(v)
            .filter(|&d| self.ctx.op_name_str(d) == "graph.constant")
            .and_then(|d| self.attr_text(d, "value"))
            .and_then(|t| crate::tosa::numbers(&t))
            .ok_or("a resize whose scales are not a constant")?;
        let axes: Vec<usize> = match self.ints(op, "axes") {
            Some(a) => a
                .iter()
                .map(|&a| a.rem_euclid(x.rank() as i64) as usize)
                .collect(),
            None => (0..x.rank()).collect(),
        };
        let mut all = vec![1.0; x.rank()];
        for (&a, &s) in axes.iter().zip(&given) {
            all[a] = if given.len() == 1 { given[0] } else { s };
        }
        Ok(all)
    }

    /// `graph.gather_nd` as TOSA's `gather` (values `[B, K, C]`, indices
    /// `[B, W]`): the data's batch dims folded into `B`, the `k` indexed
    /// dims into `K` and the rest into `C`; each index tuple (made
    /// non-negative) turned into its row-major offset in the `k` dims.
    pub(super) fn gather_nd(&mut self, op: Operation, out: &T) -> Res<T> {
        let data = self.operand(op, 0)?;
        let idx = self.operand(op, 1)?;
        let b =
            usize::try_from(self.int(op, "batch_dims", 0)).map_err(|_| "a negative batch_dims")?;
        let k = *idx.shape.last().ok_or("gather_nd indices of rank 0")?;
        let k = usize::try_from(k).map_err(|_| "a dynamic index depth")?;
        if idx.rank() < b + 1 || data.rank() < b + k {
            return Err("gather_nd indices deeper than the data".into());
        }
        let batch: i64 = data.shape[..b].iter().product();
        let indexed = &data.shape[b..b + k];
        let rows: i64 = indexed.iter().product();
        let c: i64 = data.shape[b + k..].iter().product();
        let w: i64 = idx.shape[b..idx.rank() - 1].iter().product();
        let values = self.reshape(&data, &[batch, rows, c]);
        let idx = if idx.elem == "i32" {
            idx
        } else {
            self.emit("tosa.cast", &[&idx], "", &idx.shape.clone(), "i32")
        };
        let tuples = self.reshape(&idx, &[batch, w, k as i64]);
        let sizes = self.constant(
            &format!(
                "dense<[[[{}]]]> : tensor<1x1x{k}xi32>",
                indexed
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            &[1, 1, k as i64],
            "i32",
        );
        let mut strides = vec![1i64; k];
        for j in (0..k.saturating_sub(1)).rev() {
            strides[j] = strides[j + 1] * indexed[j + 1];
        }
        let strides = self.constant(
            &format!(
                "dense<[[[{}]]]> : tensor<1x1x{k}xi32>",
                strides
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            &[1, 1, k as i64],
            "i32",
        );
        let shape = [batch, w, k as i64];
        let zero = self.scalar(0.0, "i32", 3);
        let negative = self.binary("tosa.greater", &zero, &tuples, &shape, "i1");
        let wrapped = self.binary("tosa.add", &tuples, &sizes, &shape, "i32");
        let tuples = self.emit(
            "tosa.select",
            &[&negative, &wrapped, &tuples],
            "",
            &shape,
            "i32",
        );
        let scaled = self.binary("tosa.mul", &tuples, &strides, &shape, "i32");
        let offsets = self.reduce("tosa.reduce_sum", &scaled, &[2]);
        let offsets = self.reshape(&offsets, &[batch, w]);
        let g = self.emit(
            "tosa.gather",
            &[&values, &offsets],
            "",
            &[batch, w, c],
            &data.elem,
        );
        Ok(self.reshape(&g, &out.shape))
    }
}

#[cfg(test)]
mod tests {
    use super::axis_parameters;

    #[test]
    fn sampling_becomes_offsets() {
        // Twice up, half-pixel: n = 2, d = 1, offset (1 - 2) / 2, doubled.
        assert_eq!(
            axis_parameters(2.0, 4, 8, "half_pixel", None),
            Ok((4, 2, -1, 1))
        );
        // PyTorch's nearest: asymmetric, floor: offset -n / 2.
        assert_eq!(
            axis_parameters(2.0, 4, 8, "asymmetric", Some("floor")),
            Ok((2, 1, -1, 0))
        );
        // Align corners: (out - 1) / (in - 1).
        assert_eq!(
            axis_parameters(1.75, 4, 7, "align_corners", None),
            Ok((2, 1, 0, 0))
        );
        // From a 1x1 map (DeepLab's pooled branch), half-pixel.
        assert_eq!(
            axis_parameters(33.0, 1, 33, "half_pixel", None),
            Ok((33, 1, -16, 16))
        );
        assert!(axis_parameters(2.0, 4, 8, "tf_crop_and_resize", None).is_err());
        assert!(axis_parameters(2.0, 4, 8, "asymmetric", Some("ceil")).is_err());
    }
}
