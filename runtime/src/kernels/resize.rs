//! ONNX `Resize`: nearest, linear and cubic interpolation along any axes,
//! every coordinate transformation mode, antialiasing, and the
//! crop-and-resize extrapolation.
//!
//! Interpolation is separable, so the kernel resizes one axis at a time:
//! each output position along the axis maps to a source coordinate, which
//! selects a window of input positions (clamped to the edges) and their
//! weights. Values are computed in `f64` and converted once to the dtype.

use super::{invalid, unsupported, KResult};
use crate::tensor::checked_numel;
use crate::{Tensor, TensorData};

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
}

/// What the output size of each axis is given by.
#[derive(Clone, Copy, Debug)]
pub enum ResizeTarget<'a> {
    /// A scale per resized axis: the output is `floor(scale * size)`.
    Scales(&'a [f64]),
    /// An output size per resized axis.
    Sizes(&'a [i64]),
}

const OP: &str = "resize";

/// Resizes `x` along `axes` (all axes when empty). `roi` holds the start
/// and then the end of the region of each resized axis (for
/// `TfCropAndResize`; 0 and 1 when absent).
pub fn resize(
    x: &Tensor,
    axes: &[i64],
    target: ResizeTarget<'_>,
    roi: Option<&[f64]>,
    p: &ResizeParams,
) -> KResult<Tensor> {
    if !(x.dtype().is_float() || x.dtype().is_int()) {
        return Err(unsupported(OP, format!("dtype {}", x.dtype())));
    }
    if p.antialias && p.mode == ResizeMode::Nearest {
        return Err(unsupported(OP, "antialias with nearest interpolation"));
    }
    let rank = x.rank();
    let axes: Vec<usize> = if axes.is_empty() {
        (0..rank).collect()
    } else {
        let mut seen = vec![false; rank];
        axes.iter()
            .map(|&a| {
                let r = rank as i64;
                let n = if a < 0 { a + r } else { a };
                match usize::try_from(n).ok().filter(|&n| n < rank) {
                    Some(n) if !std::mem::replace(&mut seen[n], true) => Ok(n),
                    _ => Err(invalid(
                        OP,
                        format!("axes {axes:?} are not distinct axes of rank {rank}"),
                    )),
                }
            })
            .collect::<KResult<_>>()?
    };
    let (scales, sizes) = plan(x.shape(), &axes, target, p.aspect)?;
    // The sizes come from values: refuse a result beyond the limit before
    // building it (the intermediates are no larger than it, or the input).
    let mut out_shape = x.shape().to_vec();
    for (&a, &n) in axes.iter().zip(&sizes) {
        out_shape[a] = n;
    }
    let bytes = checked_numel(OP, &out_shape)?.checked_mul(x.dtype().byte_size().max(8));
    if bytes.is_none_or(|b| b > p.max_bytes) {
        return Err(invalid(
            OP,
            format!(
                "result of shape {out_shape:?} is larger than the limit of {} bytes",
                p.max_bytes
            ),
        ));
    }
    let roi = match roi {
        Some(r) if !r.is_empty() => {
            if r.len() != 2 * axes.len() {
                return Err(invalid(
                    OP,
                    format!("roi has {} values for {} axes", r.len(), axes.len()),
                ));
            }
            Some(r)
        }
        _ => None,
    };
    if p.coordinate == CoordinateMode::TfCropAndResize && roi.is_none() {
        return Err(invalid(OP, "tf_crop_and_resize needs a roi"));
    }
    let mut shape = x.shape().to_vec();
    let mut values = x.to_f64_vec();
    for (i, &axis) in axes.iter().enumerate() {
        let region = roi.map(|r| (r[i], r[axes.len() + i]));
        let identity = (scales[i] - 1.0).abs() < 1e-12
            && sizes[i] == shape[axis]
            && region.is_none_or(|(a, b)| a == 0.0 && b == 1.0);
        if identity {
            continue;
        }
        values = resize_axis(&values, &shape, axis, sizes[i], scales[i], region, p)?;
        shape[axis] = sizes[i];
    }
    // Integers round (halves to even) and saturate, as ONNX's reference.
    if x.dtype().is_int() {
        values.iter_mut().for_each(|v| *v = v.round_ties_even());
    }
    Ok(Tensor::from_parts(
        shape,
        TensorData::from_f64_slice(x.dtype(), &values),
    ))
}

/// The scale and the output size of each resized axis.
fn plan(
    shape: &[usize],
    axes: &[usize],
    target: ResizeTarget<'_>,
    aspect: AspectPolicy,
) -> KResult<(Vec<f64>, Vec<usize>)> {
    match target {
        ResizeTarget::Scales(s) => {
            if s.len() != axes.len() {
                return Err(invalid(
                    OP,
                    format!("{} scales for {} axes", s.len(), axes.len()),
                ));
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
                        return Err(invalid(OP, format!("scale {scale} for axis {a}")));
                    }
                    Ok(out as usize)
                })
                .collect::<KResult<Vec<_>>>()?;
            Ok((s.to_vec(), sizes))
        }
        ResizeTarget::Sizes(z) => {
            if z.len() != axes.len() {
                return Err(invalid(
                    OP,
                    format!("{} sizes for {} axes", z.len(), axes.len()),
                ));
            }
            let mut sizes = z
                .iter()
                .map(|&n| {
                    usize::try_from(n)
                        .ok()
                        .filter(|&n| n < (1 << 40))
                        .ok_or_else(|| invalid(OP, format!("size {n}")))
                })
                .collect::<KResult<Vec<_>>>()?;
            if axes
                .iter()
                .zip(&sizes)
                .any(|(&a, &n)| shape[a] == 0 && n != 0)
            {
                return Err(invalid(
                    OP,
                    "cannot resize an empty dimension to a nonzero size",
                ));
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
                let pick = scales.iter().copied().fold(
                    if aspect == AspectPolicy::NotLarger {
                        f64::INFINITY
                    } else {
                        0.0
                    },
                    |acc, s| {
                        if aspect == AspectPolicy::NotLarger {
                            acc.min(s)
                        } else {
                            acc.max(s)
                        }
                    },
                );
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

/// Resizes the row-major `values` of `shape` along `axis` to `out` elements.
fn resize_axis(
    values: &[f64],
    shape: &[usize],
    axis: usize,
    out: usize,
    scale: f64,
    region: Option<(f64, f64)>,
    p: &ResizeParams,
) -> KResult<Vec<f64>> {
    let width = shape[axis];
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let mut new_shape = shape.to_vec();
    new_shape[axis] = out;
    let n = checked_numel(OP, &new_shape)?;
    if n == 0 {
        return Ok(Vec::new());
    }
    if width == 0 {
        return Err(invalid(
            OP,
            format!("cannot resize empty axis {axis} to {out}"),
        ));
    }
    // Each output position: its window of input positions and weights, or
    // the extrapolation value.
    let taps: Vec<Option<Vec<(usize, f64)>>> = (0..out)
        .map(|y| taps(y, width, out, scale, region, p))
        .collect();
    let mut result = vec![0.0; n];
    for o in 0..outer {
        for (y, tap) in taps.iter().enumerate() {
            for i in 0..inner {
                let at = (o * out + y) * inner + i;
                result[at] = match tap {
                    None => p.extrapolation,
                    Some(t) => t
                        .iter()
                        .map(|&(j, w)| w * values[(o * width + j) * inner + i])
                        .sum(),
                };
            }
        }
    }
    Ok(result)
}

/// The source coordinate of output position `y`, or `None` when it falls
/// outside the crop region.
fn source(
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

/// The input positions and weights of output position `y`.
fn taps(
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

/// The weights of the window for a source coordinate whose fraction is
/// `ratio` (in `(0, 1]`); always an even count.
fn coefficients(ratio: f64, scale: f64, p: &ResizeParams) -> Vec<f64> {
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

    fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
        Tensor::from_f32(shape.to_vec(), v.to_vec()).unwrap()
    }

    #[test]
    fn nearest_upsampling_repeats() {
        let x = f32s(&[1, 1, 2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let mut p = ResizeParams::new(ResizeMode::Nearest);
        p.coordinate = CoordinateMode::Asymmetric;
        // Sources 0, 1/3, 2/3, 1, 4/3, 5/3: rounding takes 2/3 up, floor not.
        let y = resize(
            &x,
            &[],
            ResizeTarget::Scales(&[1.0, 1.0, 2.0, 3.0]),
            None,
            &p,
        )
        .unwrap();
        assert_eq!(y.shape(), &[1, 1, 4, 6]);
        assert_eq!(y.to_f64_vec()[..6], [1.0, 1.0, 2.0, 2.0, 2.0, 2.0]);
        p.nearest = NearestMode::Floor;
        let y = resize(
            &x,
            &[],
            ResizeTarget::Scales(&[1.0, 1.0, 2.0, 3.0]),
            None,
            &p,
        )
        .unwrap();
        assert_eq!(y.to_f64_vec()[..6], [1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    }

    #[test]
    fn linear_half_pixel_and_align_corners() {
        let x = f32s(&[1, 4], &[0.0, 1.0, 2.0, 3.0]);
        let p = ResizeParams::new(ResizeMode::Linear);
        // Downscale by 2 with half_pixel: sources 0.5 and 2.5.
        let y = resize(&x, &[1], ResizeTarget::Sizes(&[2]), None, &p).unwrap();
        assert_eq!(y.to_f64_vec(), vec![0.5, 2.5]);
        let mut ac = p;
        ac.coordinate = CoordinateMode::AlignCorners;
        let y = resize(&x, &[1], ResizeTarget::Sizes(&[7]), None, &ac).unwrap();
        assert_eq!(y.to_f64_vec(), vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]);
    }

    #[test]
    fn cubic_weights_sum_to_one_and_reproduce_lines() {
        // Keys' cubic reproduces linear functions away from the edges.
        let x = f32s(&[8], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        let mut p = ResizeParams::new(ResizeMode::Cubic);
        p.coordinate = CoordinateMode::AlignCorners;
        let y = resize(&x, &[], ResizeTarget::Sizes(&[15]), None, &p).unwrap();
        for (i, v) in y.to_f64_vec().iter().enumerate().skip(2).take(10) {
            assert!((v - i as f64 / 2.0).abs() < 1e-6, "{i}: {v}");
        }
    }

    #[test]
    fn crop_and_resize_extrapolates() {
        let x = f32s(&[3], &[1.0, 2.0, 3.0]);
        let mut p = ResizeParams::new(ResizeMode::Linear);
        p.coordinate = CoordinateMode::TfCropAndResize;
        p.extrapolation = 9.0;
        let y = resize(&x, &[], ResizeTarget::Sizes(&[3]), Some(&[0.5, 1.5]), &p).unwrap();
        assert_eq!(y.to_f64_vec(), vec![2.0, 3.0, 9.0]);
    }

    #[test]
    fn integers_round_to_nearest() {
        let x = Tensor::from_u8(vec![2], vec![0, 255]).unwrap();
        let p = ResizeParams::new(ResizeMode::Linear);
        // half_pixel sources -0.25, 0.25, 0.75, 1.25: 0, 63.75, 191.25, 255.
        let y = resize(&x, &[], ResizeTarget::Sizes(&[4]), None, &p).unwrap();
        assert_eq!(y.to_i64_vec(), vec![0, 64, 191, 255]);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let x = f32s(&[2, 2], &[0.0; 4]);
        let p = ResizeParams::new(ResizeMode::Linear);
        assert!(resize(&x, &[], ResizeTarget::Scales(&[1.0]), None, &p).is_err());
        assert!(resize(&x, &[], ResizeTarget::Scales(&[0.0, 1.0]), None, &p).is_err());
        assert!(resize(&x, &[], ResizeTarget::Sizes(&[-1, 2]), None, &p).is_err());
        assert!(resize(&x, &[0, 0], ResizeTarget::Sizes(&[2, 2]), None, &p).is_err());
        let mut limited = ResizeParams::new(ResizeMode::Nearest);
        limited.max_bytes = 1 << 20;
        assert!(resize(
            &x,
            &[],
            ResizeTarget::Sizes(&[1 << 20, 1 << 20]),
            None,
            &limited
        )
        .is_err());
        let mut n = ResizeParams::new(ResizeMode::Nearest);
        n.antialias = true;
        assert!(resize(&x, &[], ResizeTarget::Sizes(&[2, 2]), None, &n).is_err());
    }
}
