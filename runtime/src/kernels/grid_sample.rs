//! ONNX `GridSample`: samples `x: [N, C, D1, ..., Dk]` at the normalized
//! coordinates of `grid: [N, H1, ..., Hk, k]` (the last entry of a grid
//! point addresses the last spatial dimension), by nearest, linear or cubic
//! interpolation, with zeros, border or reflection padding, as the ONNX
//! reference (and PyTorch's `grid_sample`) computes it.

use super::{invalid, require_float, shape_mismatch, KResult};
use crate::tensor::checked_numel;
use crate::{Tensor, TensorData};

/// The interpolation of [`grid_sample`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridMode {
    /// The nearest element (halves to even).
    Nearest,
    /// Linear in each dimension.
    Linear,
    /// Keys' cubic (a = -0.75) in each dimension.
    Cubic,
}

/// Where [`grid_sample`] reads outside the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridPadding {
    /// Zeros.
    Zeros,
    /// The nearest edge element.
    Border,
    /// The input mirrored at its borders.
    Reflection,
}

const OP: &str = "grid_sample";

/// Samples `x` at `grid` (see the module documentation).
pub fn grid_sample(
    x: &Tensor,
    grid: &Tensor,
    mode: GridMode,
    padding: GridPadding,
    align_corners: bool,
) -> KResult<Tensor> {
    require_float(OP, x.dtype())?;
    require_float(OP, grid.dtype())?;
    let k = x.rank().saturating_sub(2);
    if k == 0 || grid.rank() != k + 2 || grid.shape()[0] != x.shape()[0] || grid.shape()[k + 1] != k
    {
        return Err(shape_mismatch(
            OP,
            format!(
                "input {:?} and grid {:?} do not fit (grid [N, H1..Hk, k] for k spatial dimensions)",
                x.shape(),
                grid.shape()
            ),
        ));
    }
    let (n, c) = (x.shape()[0], x.shape()[1]);
    let dims = &x.shape()[2..];
    if dims.contains(&0) {
        return Err(invalid(OP, "the input has an empty spatial dimension"));
    }
    let out_spatial = &grid.shape()[1..=k];
    let mut shape = vec![n, c];
    shape.extend_from_slice(out_spatial);
    let total = checked_numel(OP, &shape)?;
    let points: usize = out_spatial.iter().product();
    let plane: usize = dims.iter().product();
    let (xv, gv) = (x.to_f64_vec(), grid.to_f64_vec());
    // Row-major strides of the spatial dimensions.
    let mut strides = vec![1usize; k];
    for d in (0..k.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * dims[d + 1];
    }
    let mut out = vec![0.0; total];
    for img in 0..n {
        for p in 0..points {
            let g = &gv[(img * points + p) * k..][..k];
            // Taps per dimension: (index or None for zero, weight).
            let taps: Vec<Vec<(Option<usize>, f64)>> = (0..k)
                .map(|d| {
                    // grid entries address dimensions from the last.
                    let len = dims[d];
                    let coord = denormalize(g[k - 1 - d], len, align_corners);
                    axis_taps(coord, len, mode, padding, align_corners)
                })
                .collect();
            for ch in 0..c {
                let base = (img * c + ch) * plane;
                out[(img * c + ch) * points + p] = sample(&xv[base..base + plane], &taps, &strides);
            }
        }
    }
    Ok(Tensor::from_parts(
        shape,
        TensorData::from_f64_slice(x.dtype(), &out),
    ))
}

/// The sum over every combination of taps of the product of their weights
/// times the element they address (0 when any tap is a zero pad).
fn sample(plane: &[f64], taps: &[Vec<(Option<usize>, f64)>], strides: &[usize]) -> f64 {
    fn go(
        plane: &[f64],
        taps: &[Vec<(Option<usize>, f64)>],
        strides: &[usize],
        d: usize,
        offset: usize,
    ) -> f64 {
        if d == taps.len() {
            return plane[offset];
        }
        taps[d]
            .iter()
            .map(|&(i, w)| match i {
                Some(i) if w != 0.0 => w * go(plane, taps, strides, d + 1, offset + i * strides[d]),
                _ => 0.0,
            })
            .sum()
    }
    go(plane, taps, strides, 0, 0)
}

/// A normalized coordinate in `[-1, 1]` as an index coordinate.
fn denormalize(v: f64, len: usize, align_corners: bool) -> f64 {
    let len = len as f64;
    if align_corners {
        (v + 1.0) / 2.0 * (len - 1.0)
    } else {
        ((v + 1.0) * len - 1.0) / 2.0
    }
}

/// The borders coordinates are reflected or clamped at.
fn borders(len: usize, align_corners: bool) -> (f64, f64) {
    if align_corners {
        (0.0, len as f64 - 1.0)
    } else {
        (-0.5, len as f64 - 0.5)
    }
}

/// `x` mirrored into `[lo, hi]` (repeatedly, as the reference).
fn reflect(x: f64, lo: f64, hi: f64) -> f64 {
    let range = hi - lo;
    if range <= 0.0 {
        return lo;
    }
    let (dx, from_low) = if x < lo {
        (lo - x, true)
    } else if x > hi {
        (x - hi, false)
    } else {
        return x;
    };
    let n = (dx / range).trunc();
    let r = dx - n * range;
    let even = n % 2.0 == 0.0;
    match (from_low, even) {
        (true, true) | (false, false) => lo + r,
        _ => hi - r,
    }
}

/// The input index for an integer position, under the padding mode.
fn pad_index(i: i64, len: usize, padding: GridPadding, align_corners: bool) -> Option<usize> {
    let last = len as i64 - 1;
    match padding {
        GridPadding::Zeros => (0..=last).contains(&i).then_some(i as usize),
        GridPadding::Border => Some(i.clamp(0, last) as usize),
        GridPadding::Reflection => {
            let (lo, hi) = borders(len, align_corners);
            Some((reflect(i as f64, lo, hi).trunc() as i64).clamp(0, last) as usize)
        }
    }
}

/// The taps of one dimension for the coordinate `x`.
fn axis_taps(
    x: f64,
    len: usize,
    mode: GridMode,
    padding: GridPadding,
    align_corners: bool,
) -> Vec<(Option<usize>, f64)> {
    let mut x = if mode == GridMode::Nearest {
        x.round_ties_even()
    } else {
        x
    };
    let (lo, hi) = borders(len, align_corners);
    if x < lo || x > hi {
        match padding {
            GridPadding::Border => x = x.clamp(0.0, len as f64 - 1.0),
            GridPadding::Reflection => x = reflect(x, lo, hi),
            GridPadding::Zeros => {}
        }
    }
    if !x.is_finite() {
        return vec![(None, 0.0)];
    }
    let at = |i: i64| pad_index(i, len, padding, align_corners);
    match mode {
        GridMode::Nearest => vec![(at(x.trunc() as i64), 1.0)],
        GridMode::Linear => {
            let x0 = x.floor();
            let t = x - x0;
            let i = x0 as i64;
            vec![(at(i), 1.0 - t), (at(i + 1), t)]
        }
        GridMode::Cubic => {
            let x0 = x.floor();
            let t = x - x0;
            let i = x0 as i64;
            let a = -0.75;
            let near = |s: f64| ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0;
            let far = |s: f64| ((a * s - 5.0 * a) * s + 8.0 * a) * s - 4.0 * a;
            vec![
                (at(i - 1), far(t + 1.0)),
                (at(i), near(t)),
                (at(i + 1), near(1.0 - t)),
                (at(i + 2), far(2.0 - t)),
            ]
        }
    }
}

/// ONNX's `AffineGrid`: for each batch `n` and output point, `theta[n]`
/// (`[2, 3]` or `[3, 4]`) applied to the point's normalized coordinates
/// `(x, y[, z], 1)`, `x` along the last dim of `size` (`[N, C, H, W]` or
/// `[N, C, D, H, W]`). A dim of `s` points has coordinates
/// `-1 + (2 i + 1) / s`, or `-1 + 2 i / (s - 1)` with `align_corners` (-1
/// for a single point). Computed in `f64`, rounded to `theta`'s type.
pub fn affine_grid(theta: &Tensor, size: &[usize], align_corners: bool) -> KResult<Tensor> {
    require_float("affine_grid", theta.dtype())?;
    if theta.dtype().is_narrow() {
        return Err(super::unsupported(
            "affine_grid",
            format!("dtype {}", theta.dtype()),
        ));
    }
    let k = match size.len() {
        4 => 2,
        5 => 3,
        n => {
            return Err(invalid(
                "affine_grid",
                format!("size has {n} entries, expected 4 (2-D) or 5 (3-D)"),
            ))
        }
    };
    let n = size[0];
    if theta.shape() != [n, k, k + 1] {
        return Err(shape_mismatch(
            "affine_grid",
            format!("theta {:?} is not [{n}, {k}, {}]", theta.shape(), k + 1),
        ));
    }
    let spatial = &size[2..];
    let mut out_shape = vec![n];
    out_shape.extend_from_slice(spatial);
    out_shape.push(k);
    let total = checked_numel("affine_grid", &out_shape)?;
    if total == 0 {
        return Ok(Tensor::from_f64_vec(theta.dtype(), &out_shape, &[]));
    }
    let coords: Vec<Vec<f64>> = spatial
        .iter()
        .map(|&s| {
            (0..s)
                .map(|i| {
                    if align_corners {
                        if s > 1 {
                            -1.0 + 2.0 * i as f64 / (s - 1) as f64
                        } else {
                            -1.0
                        }
                    } else {
                        -1.0 + (2 * i + 1) as f64 / s as f64
                    }
                })
                .collect()
        })
        .collect();
    let t = theta.to_f64_vec();
    let points = checked_numel("affine_grid", spatial)?;
    let mut out = Vec::with_capacity(total);
    let mut at = vec![0; k];
    for b in 0..n {
        let m = &t[b * k * (k + 1)..(b + 1) * k * (k + 1)];
        for p in 0..points {
            // The point's index along each spatial dim (the last fastest).
            let mut rest = p;
            for d in (0..k).rev() {
                at[d] = rest % spatial[d];
                rest /= spatial[d];
            }
            // Homogeneous coordinates: x along the last dim first.
            let mut h = vec![1.0; k + 1];
            for j in 0..k {
                h[j] = coords[k - 1 - j][at[k - 1 - j]];
            }
            for r in 0..k {
                out.push((0..=k).map(|c| m[r * (k + 1) + c] * h[c]).sum());
            }
        }
    }
    Ok(Tensor::from_f64_vec(theta.dtype(), &out_shape, &out))
}

/// The operands and attributes of a 2-D deformable convolution.
pub struct DeformConv<'a> {
    /// `[N, C, H, W]`.
    pub input: &'a Tensor,
    /// `[M, C / group, kH, kW]`.
    pub weight: &'a Tensor,
    /// `[N, offset_group * 2 * kH * kW, OH, OW]`: `(dy, dx)` per tap.
    pub offset: &'a Tensor,
    /// `[M]`.
    pub bias: Option<&'a Tensor>,
    /// `[N, offset_group * kH * kW, OH, OW]`; ones when absent.
    pub mask: Option<&'a Tensor>,
    /// `[sH, sW]`.
    pub strides: [usize; 2],
    /// `[top, left, bottom, right]`.
    pub pads: [usize; 4],
    /// `[dH, dW]`.
    pub dilations: [usize; 2],
    /// Channel groups of the convolution.
    pub group: usize,
    /// Channel groups that share offsets and a mask.
    pub offset_group: usize,
}

/// A 2-D deformable convolution (ONNX `DeformConv`, as its reference
/// computes it: each tap samples the input bilinearly at its position
/// `(top + i * sH + kh * dH + dy, left + j * sW + kw * dW + dx)`, zero
/// outside the input), accumulated in f64.
pub fn deform_conv2d(a: &DeformConv<'_>) -> KResult<Tensor> {
    const OP: &str = "deform_conv2d";
    require_float(OP, a.input.dtype())?;
    let (&[n, c, h, w], &[m, cg, kh, kw]) = (a.input.shape(), a.weight.shape()) else {
        return Err(shape_mismatch(OP, "input and weight must be 4-D"));
    };
    let (g, og) = (a.group, a.offset_group);
    if g == 0 || og == 0 || cg * g != c || m % g != 0 || c % og != 0 {
        return Err(invalid(
            OP,
            format!(
                "{c} input channels, weight {:?}, group {g}, offset_group {og} disagree",
                a.weight.shape()
            ),
        ));
    }
    let &[on, oc2, oh, ow] = a.offset.shape() else {
        return Err(shape_mismatch(OP, "offset must be 4-D"));
    };
    let taps = kh * kw;
    if on != n || oc2 != og * 2 * taps {
        return Err(shape_mismatch(
            OP,
            format!(
                "offset {:?} does not fit {og} offset groups of {kh}x{kw} taps",
                a.offset.shape()
            ),
        ));
    }
    let span = |k: usize, d: usize| (k.max(1) - 1) * d + 1;
    let out = |len: usize, k: usize, s: usize, d: usize, p0: usize, p1: usize| {
        (len + p0 + p1)
            .checked_sub(span(k, d))
            .map(|x| x / s.max(1) + 1)
    };
    let [sh, sw] = a.strides;
    let [dh, dw] = a.dilations;
    if out(h, kh, sh, dh, a.pads[0], a.pads[2]) != Some(oh)
        || out(w, kw, sw, dw, a.pads[1], a.pads[3]) != Some(ow)
    {
        return Err(shape_mismatch(
            OP,
            format!(
                "offset {:?} does not have the output's spatial sizes",
                a.offset.shape()
            ),
        ));
    }
    if let Some(mk) = a.mask {
        if mk.shape() != [n, og * taps, oh, ow] {
            return Err(shape_mismatch(
                OP,
                format!(
                    "mask {:?} must be [{n}, {}, {oh}, {ow}]",
                    mk.shape(),
                    og * taps
                ),
            ));
        }
    }
    if let Some(b) = a.bias {
        if b.shape() != [m] {
            return Err(shape_mismatch(
                OP,
                format!("bias {:?} must be [{m}]", b.shape()),
            ));
        }
    }
    let total = checked_numel(OP, &[n, m, oh, ow])?;
    let (x, wt, off) = (
        a.input.to_f64_vec(),
        a.weight.to_f64_vec(),
        a.offset.to_f64_vec(),
    );
    let mask = a.mask.map(Tensor::to_f64_vec);
    let bias = a.bias.map(Tensor::to_f64_vec);
    let per_og = c / og;
    let (cpg, mpg) = (cg, m / g);
    // Bilinear sample of plane `p` at (y, x), zero outside.
    let sample = |p: &[f64], y: f64, xx: f64| -> f64 {
        let (y0, x0) = (y.floor(), xx.floor());
        let (fy, fx) = (y - y0, xx - x0);
        let mut v = 0.0;
        for (dy, wy) in [(0.0, 1.0 - fy), (1.0, fy)] {
            for (dx, wx) in [(0.0, 1.0 - fx), (1.0, fx)] {
                let (yy, xi) = (y0 + dy, x0 + dx);
                if wy * wx != 0.0 && yy >= 0.0 && xi >= 0.0 && yy < h as f64 && xi < w as f64 {
                    v += wy * wx * p[yy as usize * w + xi as usize];
                }
            }
        }
        v
    };
    let mut res = vec![0.0; total];
    for b in 0..n {
        for i in 0..oh {
            for j in 0..ow {
                for oc in 0..m {
                    let grp = oc / mpg;
                    let mut acc = bias.as_ref().map_or(0.0, |bv| bv[oc]);
                    for ci in 0..cpg {
                        let ic = grp * cpg + ci;
                        let ogi = ic / per_og;
                        let plane = &x[(b * c + ic) * h * w..][..h * w];
                        for t in 0..taps {
                            let (ki, kj) = (t / kw, t % kw);
                            let at = |ch: usize| ((b * oc2 + ch) * oh + i) * ow + j;
                            let dyv = off[at((ogi * taps + t) * 2)];
                            let dxv = off[at((ogi * taps + t) * 2 + 1)];
                            let y = (i * sh + ki * dh) as f64 - a.pads[0] as f64 + dyv;
                            let xx = (j * sw + kj * dw) as f64 - a.pads[1] as f64 + dxv;
                            let mut v = sample(plane, y, xx);
                            if let Some(mk) = &mask {
                                v *= mk[((b * og * taps + ogi * taps + t) * oh + i) * ow + j];
                            }
                            acc += v * wt[((oc * cpg + ci) * kh + ki) * kw + kj];
                        }
                    }
                    res[((b * m + oc) * oh + i) * ow + j] = acc;
                }
            }
        }
    }
    Ok(Tensor::from_parts(
        vec![n, m, oh, ow],
        TensorData::from_f64_slice(a.input.dtype(), &res),
    ))
}

#[cfg(test)]
mod tests {

    #[test]
    fn affine_grid_sizes() {
        let theta = Tensor::from_f32(vec![1, 2, 3], vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0]).expect("t");
        let g = affine_grid(&theta, &[1, 1, 1, 2], false).expect("grid");
        assert_eq!(g.shape(), &[1, 1, 2, 2]);
        assert_eq!(g.to_f64_vec(), [-0.5, 0.0, 0.5, 0.0]);
        // An empty grid with a huge other dim allocates nothing.
        let empty = Tensor::from_f32(vec![0, 2, 3], vec![]).expect("t");
        let g = affine_grid(&empty, &[0, 1, 1 << 61, 1], false).expect("empty");
        assert_eq!(g.shape(), &[0, 1usize << 61, 1, 2]);
        // A batch that differs from theta's, a size of 3 entries.
        assert!(affine_grid(&theta, &[2, 1, 2, 2], false).is_err());
        assert!(affine_grid(&theta, &[1, 2, 2], false).is_err());
    }

    use super::*;

    #[test]
    fn corners_and_centres() {
        // A 2x2 image sampled at its corners and centre.
        let x = Tensor::from_f32(vec![1, 1, 2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        let grid =
            Tensor::from_f32(vec![1, 1, 3, 2], vec![-1.0, -1.0, 1.0, 1.0, 0.0, 0.0]).unwrap();
        let y = grid_sample(&x, &grid, GridMode::Linear, GridPadding::Zeros, true).unwrap();
        assert_eq!(y.shape(), &[1, 1, 1, 3]);
        assert_eq!(y.to_f64_vec(), vec![1.0, 4.0, 2.5]);
        // Without align_corners, -1 is half a pixel outside: zeros padding
        // weighs the outside 0.
        let y = grid_sample(&x, &grid, GridMode::Linear, GridPadding::Zeros, false).unwrap();
        assert_eq!(y.to_f64_vec(), vec![0.25, 1.0, 2.5]);
        let y = grid_sample(&x, &grid, GridMode::Linear, GridPadding::Border, false).unwrap();
        assert_eq!(y.to_f64_vec(), vec![1.0, 4.0, 2.5]);
        let y = grid_sample(&x, &grid, GridMode::Nearest, GridPadding::Zeros, true).unwrap();
        assert_eq!(y.to_f64_vec()[..2], [1.0, 4.0]);
    }

    #[test]
    fn bad_shapes_are_errors() {
        let x = Tensor::from_f32(vec![1, 1, 2, 2], vec![0.0; 4]).unwrap();
        let grid = Tensor::from_f32(vec![1, 1, 1, 3], vec![0.0; 3]).unwrap();
        assert!(grid_sample(&x, &grid, GridMode::Linear, GridPadding::Zeros, true).is_err());
        assert_eq!(reflect(-1.0, -0.5, 1.5), 0.0);
        assert_eq!(reflect(2.5, -0.5, 1.5), 0.5);
    }
}
