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
use strata_dialects::graph::resize_taps::{axis_taps, is_identity, resized_axes, scales_and_sizes};
pub use strata_dialects::graph::resize_taps::{
    AspectPolicy, CoordinateMode, NearestMode, ResizeMode, ResizeParams, ResizeTarget,
};

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
    let axes = resized_axes(axes, rank).map_err(|m| invalid(OP, m))?;
    let (scales, sizes) =
        scales_and_sizes(x.shape(), &axes, target, p.aspect).map_err(|m| invalid(OP, m))?;
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
    if p.coordinate == CoordinateMode::TfCropAndResize {
        let Some(r) = roi else {
            return Err(invalid(OP, "tf_crop_and_resize needs a roi"));
        };
        // A NaN or infinite crop box has no pixels to read; graph mode
        // refuses it too.
        if let Some(v) = r.iter().find(|v| !v.is_finite()) {
            return Err(invalid(OP, format!("roi has a non-finite value ({v})")));
        }
    }
    let mut shape = x.shape().to_vec();
    let mut values = x.to_f64_vec();
    for (i, &axis) in axes.iter().enumerate() {
        let region = roi.map(|r| (r[i], r[axes.len() + i]));
        if is_identity(shape[axis], sizes[i], scales[i], region) {
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
    let taps = axis_taps(width, out, scale, region, p);
    let mut result = vec![0.0; n];
    for o in 0..outer {
        for (y, tap) in taps.iter().enumerate() {
            for i in 0..inner {
                let at = (o * out + y) * inner + i;
                result[at] = match tap {
                    None => p.extrapolation,
                    // Nearest reads the one pixel it selects: the ONNX
                    // reference's one-hot dot product would make an
                    // infinite or NaN neighbour NaN (0 * inf), where
                    // onnxruntime and graph mode read the pixel.
                    Some(t) => t
                        .iter()
                        .filter(|&&(_, w)| p.mode != ResizeMode::Nearest || w != 0.0)
                        .map(|&(j, w)| w * values[(o * width + j) * inner + i])
                        .sum(),
                };
            }
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
        Tensor::from_f32(shape.to_vec(), v.to_vec()).unwrap()
    }

    /// Nearest reads the pixel it selects: an infinite or NaN neighbour
    /// does not leak into it (0 * inf); a crop box that is not finite is
    /// refused.
    #[test]
    fn nearest_reads_only_its_pixel() {
        let x = f32s(&[1, 1, 1, 3], &[1.0, f32::INFINITY, f32::NAN]);
        let mut p = ResizeParams::new(ResizeMode::Nearest);
        p.coordinate = CoordinateMode::Asymmetric;
        let y = resize(
            &x,
            &[],
            ResizeTarget::Scales(&[1.0, 1.0, 1.0, 2.0]),
            None,
            &p,
        )
        .unwrap();
        let v = y.to_f64_vec();
        assert_eq!(v[..4], [1.0, 1.0, f64::INFINITY, f64::INFINITY]);
        assert!(v[4].is_nan() && v[5].is_nan());
        p.coordinate = CoordinateMode::TfCropAndResize;
        let roi = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, f64::NAN];
        let e = resize(
            &x,
            &[],
            ResizeTarget::Scales(&[1.0, 1.0, 1.0, 2.0]),
            Some(&roi),
            &p,
        );
        assert!(e
            .unwrap_err()
            .to_string()
            .contains("roi has a non-finite value"));
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
