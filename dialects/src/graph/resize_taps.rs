//! The per-axis math of `graph.resize` (ONNX `Resize`), shared by the
//! reference interpreter (`strata-runtime`'s resize kernel) and the tensor
//! lowering (`strata-lowering`), so that both read the same input
//! positions with the same weights.
//!
//! Interpolation is separable: along each resized axis, an output position
//! maps to a source coordinate ([`source`]), which selects a window of
//! input positions (clamped to the edges) and their weights ([`taps`]).
//! Everything here is plain `f64` / `usize` arithmetic.

use strata_ir::Context;

use super::ResizeOp;

/// The interpolation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResizeMode {
    /// The nearest input element ([`NearestMode`] breaks ties).
    Nearest,
    /// Linear interpolation between the two neighbours.
    Linear,
    /// Cubic convolution over four neighbours (Keys, coefficient `a`).
    Cubic,
}

/// How an output coordinate maps to an input one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoordinateMode {
    /// `(y + 0.5) / scale - 0.5`.
    HalfPixel,
    /// As `HalfPixel`, but the centre of the output maps to the centre of
    /// the input when the output size was rounded.
    HalfPixelSymmetric,
    /// As `HalfPixel`, but `-0.5` when the output has length 1.
    PytorchHalfPixel,
    /// `y * (in - 1) / (out - 1)`.
    AlignCorners,
    /// `y / scale`.
    Asymmetric,
    /// The region of interest, scaled by `in - 1`; outside the input the
    /// result is the extrapolation value.
    TfCropAndResize,
}

/// How `Nearest` rounds a source coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NearestMode {
    /// Round, halves down.
    RoundPreferFloor,
    /// Round, halves up.
    RoundPreferCeil,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
}

/// How output sizes given by `sizes` keep the aspect ratio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AspectPolicy {
    /// Each axis gets its size.
    Stretch,
    /// One scale, the smallest, for every resized axis.
    NotLarger,
    /// One scale, the largest, for every resized axis.
    NotSmaller,
}

/// The attributes of a resize.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResizeParams {
    /// The interpolation.
    pub mode: ResizeMode,
    /// The coordinate transformation.
    pub coordinate: CoordinateMode,
    /// Rounding of `Nearest`.
    pub nearest: NearestMode,
    /// The cubic coefficient `a` (ONNX's default is -0.75).
    pub cubic_a: f64,
    /// Weights of positions outside the input become 0 (and the others are
    /// renormalized), instead of repeating the edge.
    pub exclude_outside: bool,
    /// The value outside the region of `TfCropAndResize`.
    pub extrapolation: f64,
    /// Stretch linear and cubic filters by `1 / scale` when downscaling.
    pub antialias: bool,
    /// The aspect-ratio policy of `sizes`.
    pub aspect: AspectPolicy,
    /// The largest result, in bytes of its dtype, the kernel may build.
    pub max_bytes: usize,
}

impl ResizeParams {
    /// ONNX's defaults for `mode`.
    pub fn new(mode: ResizeMode) -> ResizeParams {
        ResizeParams {
            mode,
            coordinate: CoordinateMode::HalfPixel,
            nearest: NearestMode::RoundPreferFloor,
            cubic_a: -0.75,
            exclude_outside: false,
            extrapolation: 0.0,
            antialias: false,
            aspect: AspectPolicy::Stretch,
            max_bytes: usize::MAX,
        }
    }

    /// The parameters of a `graph.resize` op, from its attributes (an
    /// unknown string takes ONNX's default; the op's verifier rejects
    /// those); `max_bytes` is unlimited.
    pub fn of_op(ctx: &Context, op: ResizeOp) -> ResizeParams {
        let mode = match op.mode(ctx).as_str() {
            "linear" => ResizeMode::Linear,
            "cubic" => ResizeMode::Cubic,
            _ => ResizeMode::Nearest,
        };
        let mut p = ResizeParams::new(mode);
        p.coordinate = match op.coordinate_transformation_mode(ctx).as_str() {
            "half_pixel_symmetric" => CoordinateMode::HalfPixelSymmetric,
            "pytorch_half_pixel" => CoordinateMode::PytorchHalfPixel,
            "align_corners" => CoordinateMode::AlignCorners,
            "asymmetric" => CoordinateMode::Asymmetric,
            "tf_crop_and_resize" => CoordinateMode::TfCropAndResize,
            _ => CoordinateMode::HalfPixel,
        };
        p.nearest = match op.nearest_mode(ctx).as_str() {
            "round_prefer_ceil" => NearestMode::RoundPreferCeil,
            "floor" => NearestMode::Floor,
            "ceil" => NearestMode::Ceil,
            _ => NearestMode::RoundPreferFloor,
        };
        p.aspect = match op.keep_aspect_ratio_policy(ctx).as_str() {
            "not_larger" => AspectPolicy::NotLarger,
            "not_smaller" => AspectPolicy::NotSmaller,
            _ => AspectPolicy::Stretch,
        };
        p.cubic_a = op.cubic_coeff_a(ctx);
        p.exclude_outside = op.exclude_outside(ctx);
        p.extrapolation = op.extrapolation_value(ctx);
        p.antialias = op.antialias(ctx);
        p
    }
}

/// What the output size of each axis is given by.
#[derive(Clone, Copy, Debug)]
pub enum ResizeTarget<'a> {
    /// A scale per resized axis: the output is `floor(scale * size)`.
    Scales(&'a [f64]),
    /// An output size per resized axis.
    Sizes(&'a [i64]),
}

/// The resized axes of a rank-`rank` input: `axes` made non-negative, or
/// every axis when empty. An error when they are out of range or repeat.
pub fn resized_axes(axes: &[i64], rank: usize) -> Result<Vec<usize>, String> {
    if axes.is_empty() {
        return Ok((0..rank).collect());
    }
    let mut seen = vec![false; rank];
    axes.iter()
        .map(|&a| {
            let r = rank as i64;
            let n = if a < 0 { a + r } else { a };
            match usize::try_from(n).ok().filter(|&n| n < rank) {
                Some(n) if !std::mem::replace(&mut seen[n], true) => Ok(n),
                _ => Err(format!(
                    "axes {axes:?} are not distinct axes of rank {rank}"
                )),
            }
        })
        .collect()
}

/// The scale and the output size of each of `axes` of an input of
/// `shape`, from `target` and the aspect-ratio policy (which applies to
/// `sizes` only). An error for a count that does not match the axes, a
/// scale that is not positive and finite, a negative size, or a nonzero
/// size for an empty dimension.
pub fn scales_and_sizes(
    shape: &[usize],
    axes: &[usize],
    target: ResizeTarget<'_>,
    aspect: AspectPolicy,
) -> Result<(Vec<f64>, Vec<usize>), String> {
    match target {
        ResizeTarget::Scales(s) => {
            if s.len() != axes.len() {
                return Err(format!("{} scales for {} axes", s.len(), axes.len()));
            }
            let sizes = axes
                .iter()
                .zip(s)
                .map(|(&a, &scale)| {
                    let out = (scale * shape[a] as f64).floor();
                    if scale.is_nan()
                        || scale <= 0.0
                        || !out.is_finite()
                        || out > (1u64 << 40) as f64
                    {
                        return Err(format!("scale {scale} for axis {a}"));
                    }
                    Ok(out as usize)
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok((s.to_vec(), sizes))
        }
        ResizeTarget::Sizes(z) => {
            if z.len() != axes.len() {
                return Err(format!("{} sizes for {} axes", z.len(), axes.len()));
            }
            let mut sizes = z
                .iter()
                .map(|&n| {
                    usize::try_from(n)
                        .ok()
                        .filter(|&n| n < (1 << 40))
                        .ok_or_else(|| format!("size {n}"))
                })
                .collect::<Result<Vec<_>, String>>()?;
            if axes
                .iter()
                .zip(&sizes)
                .any(|(&a, &n)| shape[a] == 0 && n != 0)
            {
                return Err("cannot resize an empty dimension to a nonzero size".into());
            }
            // An empty dimension stays empty (scale 1).
            let mut scales: Vec<f64> = axes
                .iter()
                .zip(&sizes)
                .map(|(&a, &n)| {
                    if shape[a] == 0 {
                        1.0
                    } else {
                        n as f64 / shape[a] as f64
                    }
                })
                .collect();
            if aspect != AspectPolicy::Stretch {
                let not_larger = aspect == AspectPolicy::NotLarger;
                let start = if not_larger { f64::INFINITY } else { 0.0 };
                let pick = scales.iter().copied().fold(start, |acc, s| {
                    if not_larger {
                        acc.min(s)
                    } else {
                        acc.max(s)
                    }
                });
                scales = vec![pick; axes.len()];
                // Round half up, as ONNX.
                sizes = axes
                    .iter()
                    .map(|&a| (pick * shape[a] as f64 + 0.5).floor() as usize)
                    .collect();
            }
            Ok((scales, sizes))
        }
    }
}

/// Whether resizing an axis of `width` positions to `out` with `scale`
/// (and the crop `region`) leaves it as it is, so that it is skipped.
pub fn is_identity(width: usize, out: usize, scale: f64, region: Option<(f64, f64)>) -> bool {
    (scale - 1.0).abs() < 1e-12 && out == width && region.is_none_or(|(a, b)| a == 0.0 && b == 1.0)
}

/// The source coordinate of output position `y` of an axis of `width`
/// input positions resized to `out` with `scale`, or `None` when it falls
/// outside the crop `region` (`TfCropAndResize`: the start and end of the
/// region, as fractions of the axis; 0 and 1 when absent).
pub fn source(
    y: usize,
    width: usize,
    out: usize,
    scale: f64,
    region: Option<(f64, f64)>,
    p: &ResizeParams,
) -> Option<f64> {
    let y = y as f64;
    let in_w = width as f64;
    let out_w = scale * in_w;
    Some(match p.coordinate {
        CoordinateMode::HalfPixel => (y + 0.5) / scale - 0.5,
        CoordinateMode::HalfPixelSymmetric => {
            let adjustment = out as f64 / out_w;
            let offset = in_w / 2.0 * (1.0 - adjustment);
            offset + (y + 0.5) / scale - 0.5
        }
        CoordinateMode::PytorchHalfPixel => {
            if out_w == 1.0 {
                -0.5
            } else {
                (y + 0.5) / scale - 0.5
            }
        }
        CoordinateMode::AlignCorners => {
            if out_w == 1.0 {
                0.0
            } else {
                y * (in_w - 1.0) / (out_w - 1.0)
            }
        }
        CoordinateMode::Asymmetric => y / scale,
        CoordinateMode::TfCropAndResize => {
            let (start, end) = region.unwrap_or((0.0, 1.0));
            let x = if out_w == 1.0 {
                (end - start) * (in_w - 1.0) / 2.0
            } else {
                y * (end - start) * (in_w - 1.0) / (out_w - 1.0)
            } + start * (in_w - 1.0);
            if x < 0.0 || x > in_w - 1.0 {
                return None;
            }
            x
        }
    })
}

/// The taps of output position `y` of an axis of `width` (nonzero) input
/// positions resized to `out` with `scale`: the input positions (clamped
/// into `[0, width)`) and their weights, or `None` outside the crop
/// `region` (where the result is the extrapolation value). The window
/// always has an even length; nearest gives two taps, one of weight 1.
pub fn taps(
    y: usize,
    width: usize,
    out: usize,
    scale: f64,
    region: Option<(f64, f64)>,
    p: &ResizeParams,
) -> Option<Vec<(usize, f64)>> {
    let x = source(y, width, out, scale, region, p)?;
    let base = x.floor();
    // The weights see the fraction in (0, 1]: an exact coordinate counts as
    // the right end of the interval before it.
    let ratio = if x == base { 1.0 } else { x - base };
    let mut weights = coefficients(ratio, scale, p);
    let n = weights.len() as i64;
    // An even window of n positions around x: the n/2 at or below x and
    // the n/2 above (an exact x takes one more below).
    let first = base as i64 - n / 2 + if x == base { 0 } else { 1 };
    let positions: Vec<i64> = (first..first + n).collect();
    if p.exclude_outside {
        for (w, &i) in weights.iter_mut().zip(&positions) {
            if i < 0 || i >= width as i64 {
                *w = 0.0;
            }
        }
        let sum: f64 = weights.iter().sum();
        let sum = if sum == 0.0 { 1.0 } else { sum };
        weights.iter_mut().for_each(|w| *w /= sum);
    }
    Some(
        positions
            .iter()
            .zip(weights)
            .map(|(&i, w)| (i.clamp(0, width as i64 - 1) as usize, w))
            .collect(),
    )
}

/// [`taps`] of every output position `0..out`: the per-axis table.
pub fn axis_taps(
    width: usize,
    out: usize,
    scale: f64,
    region: Option<(f64, f64)>,
    p: &ResizeParams,
) -> Vec<Option<Vec<(usize, f64)>>> {
    (0..out)
        .map(|y| taps(y, width, out, scale, region, p))
        .collect()
}

/// The weights of the window for a source coordinate whose fraction is
/// `ratio` (in `(0, 1]`); always an even count.
pub fn coefficients(ratio: f64, scale: f64, p: &ResizeParams) -> Vec<f64> {
    match p.mode {
        ResizeMode::Nearest => {
            if ratio == 1.0 {
                return vec![0.0, 1.0];
            }
            let right = match p.nearest {
                NearestMode::RoundPreferFloor => ratio > 0.5,
                NearestMode::RoundPreferCeil => ratio >= 0.5,
                NearestMode::Floor => false,
                NearestMode::Ceil => true,
            };
            if right {
                vec![0.0, 1.0]
            } else {
                vec![1.0, 0.0]
            }
        }
        ResizeMode::Linear if !p.antialias => vec![1.0 - ratio, ratio],
        ResizeMode::Linear => {
            let s = scale.min(1.0);
            let start = (-1.0 / s).floor() as i64 + 1;
            let footprint = 2 - 2 * start;
            let w: Vec<f64> = (start..start + footprint)
                .map(|i| (1.0 - ((i as f64 - ratio) * s).abs()).clamp(0.0, 1.0))
                .collect();
            normalized(w)
        }
        ResizeMode::Cubic if !p.antialias => {
            let a = p.cubic_a;
            let (r, q) = (ratio, 1.0 - ratio);
            vec![
                ((a * (r + 1.0) - 5.0 * a) * (r + 1.0) + 8.0 * a) * (r + 1.0) - 4.0 * a,
                ((a + 2.0) * r - (a + 3.0)) * r * r + 1.0,
                ((a + 2.0) * q - (a + 3.0)) * q * q + 1.0,
                ((a * (q + 1.0) - 5.0 * a) * (q + 1.0) + 8.0 * a) * (q + 1.0) - 4.0 * a,
            ]
        }
        ResizeMode::Cubic => {
            let a = p.cubic_a;
            let s = scale.min(1.0);
            let keys = |x: f64| {
                let x = x.abs();
                let (x2, x3) = (x * x, x * x * x);
                if x <= 1.0 {
                    (a + 2.0) * x3 - (a + 3.0) * x2 + 1.0
                } else if x < 2.0 {
                    a * x3 - 5.0 * a * x2 + 8.0 * a * x - 4.0 * a
                } else {
                    0.0
                }
            };
            let start = (-2.0 / s).floor() as i64 + 1;
            let end = 2 - start;
            normalized((start..end).map(|i| keys(s * (i as f64 - ratio))).collect())
        }
    }
}

/// `w` divided by its sum (unchanged when the sum is 0).
fn normalized(w: Vec<f64>) -> Vec<f64> {
    let sum: f64 = w.iter().sum();
    if sum == 0.0 {
        return w;
    }
    w.into_iter().map(|v| v / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_picks_one_tap() {
        let mut p = ResizeParams::new(ResizeMode::Nearest);
        p.coordinate = CoordinateMode::Asymmetric;
        // Upscaling 2 -> 6: sources 0, 1/3, 2/3, 1, 4/3, 5/3.
        let table = axis_taps(2, 6, 3.0, None, &p);
        let picked: Vec<usize> = table
            .iter()
            .map(|t| {
                let t = t.as_ref().unwrap();
                t.iter().find(|&&(_, w)| w == 1.0).unwrap().0
            })
            .collect();
        assert_eq!(picked, [0, 0, 1, 1, 1, 1]);
    }

    #[test]
    fn linear_weights_sum_to_one() {
        let p = ResizeParams::new(ResizeMode::Linear);
        for t in axis_taps(4, 7, 7.0 / 4.0, None, &p) {
            let sum: f64 = t.unwrap().iter().map(|&(_, w)| w).sum();
            assert!((sum - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn crop_outside_the_region_has_no_taps() {
        let mut p = ResizeParams::new(ResizeMode::Linear);
        p.coordinate = CoordinateMode::TfCropAndResize;
        let table = axis_taps(3, 3, 1.0, Some((0.5, 1.5)), &p);
        assert!(table[0].is_some() && table[1].is_some() && table[2].is_none());
    }

    #[test]
    fn sizes_with_a_policy_share_one_scale() {
        let (scales, sizes) = scales_and_sizes(
            &[1, 1, 4, 4],
            &[2, 3],
            ResizeTarget::Sizes(&[2, 3]),
            AspectPolicy::NotLarger,
        )
        .unwrap();
        assert_eq!(scales, [0.5, 0.5]);
        assert_eq!(sizes, [2, 2]);
        assert!(resized_axes(&[1, -3], 4).is_err());
        assert_eq!(resized_axes(&[-1], 4).unwrap(), [3]);
    }
}
