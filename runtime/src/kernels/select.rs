//! Ops whose result sizes depend on the values: `non_zero` and `unique`;
//! and `roi_align`, which samples regions given as values.

use std::cmp::Ordering;

use super::indexing::Values;
use super::{invalid, normalize_axis, unsupported, KResult};
use crate::tensor::checked_numel;
use crate::{Tensor, TensorData};

/// ONNX `NonZero`: the indices of the non-zero elements, `[rank, count]`
/// (`i64`), in row-major order. A 0-D input gives `[0, count]` (its one
/// element has an index of no coordinates), as ONNX's shape inference says.
pub fn non_zero(x: &Tensor) -> KResult<Tensor> {
    let values = x.to_f64_vec();
    let shape = x.shape();
    let hits: Vec<usize> = values
        .iter()
        .enumerate()
        .filter(|(_, &v)| v != 0.0)
        .map(|(i, _)| i)
        .collect();
    let rank = shape.len();
    let mut out = vec![0i64; rank * hits.len()];
    for (j, &flat) in hits.iter().enumerate() {
        let mut rest = flat;
        for d in (0..rank).rev() {
            let size = shape[d].max(1);
            out[d * hits.len() + j] = (rest % size) as i64;
            rest /= size;
        }
    }
    Ok(Tensor::from_parts(
        vec![rank, hits.len()],
        TensorData::I64(out),
    ))
}

/// The four results of [`unique`].
pub struct Unique {
    /// The unique elements (or slices along the axis).
    pub values: Tensor,
    /// The index of each one's first occurrence.
    pub indices: Tensor,
    /// For each element (or slice) of the input, the index of its value in
    /// `values`.
    pub inverse: Tensor,
    /// How often each one occurs.
    pub counts: Tensor,
}

/// ONNX `Unique`: the distinct elements of `x` (flattened), or its distinct
/// slices along `axis`; in ascending (lexicographic) order when `sorted`,
/// else in order of first occurrence.
pub fn unique(x: &Tensor, axis: Option<i64>, sorted: bool) -> KResult<Unique> {
    const OP: &str = "unique";
    if !(x.dtype().is_float() || x.dtype().is_int() || x.dtype() == crate::DType::I1) {
        return Err(unsupported(OP, format!("dtype {}", x.dtype())));
    }
    let values = Values::of(x);
    // Items: the elements, or the slices along the axis (outer x inner
    // elements each, at stride `inner` from `o * dim * inner + j * inner`).
    let (outer, dim, inner, axis) = match axis {
        None => (1, x.len(), 1, None),
        Some(a) => {
            let a = normalize_axis(OP, a, x.rank())?;
            let s = x.shape();
            (
                s[..a].iter().product::<usize>(),
                s[a],
                s[a + 1..].iter().product::<usize>(),
                Some(a),
            )
        }
    };
    let element = |item: usize, k: usize| (k / inner) * dim * inner + item * inner + k % inner;
    let width = outer * inner;
    let cmp_items = |a: usize, b: usize| -> Ordering {
        (0..width)
            .map(|k| values.compare(element(a, k), element(b, k)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    // A stable sort: each run of equal items starts at its first occurrence.
    let mut order: Vec<usize> = (0..dim).collect();
    order.sort_by(|&a, &b| cmp_items(a, b));
    let mut groups: Vec<(usize, usize)> = Vec::new(); // (first occurrence, count)
    let mut group_of = vec![0usize; dim];
    for (pos, &item) in order.iter().enumerate() {
        let new = pos == 0 || cmp_items(order[pos - 1], item).is_ne();
        if new {
            groups.push((item, 0));
        }
        let g = groups.len() - 1;
        groups[g].1 += 1;
        group_of[item] = g;
    }
    // The output order of the groups, and each group's place in it.
    let mut out_order: Vec<usize> = (0..groups.len()).collect();
    if !sorted {
        out_order.sort_by_key(|&g| groups[g].0);
    }
    let mut place = vec![0usize; groups.len()];
    for (p, &g) in out_order.iter().enumerate() {
        place[g] = p;
    }
    let u = groups.len();
    let mut shape = x.shape().to_vec();
    match axis {
        Some(a) => shape[a] = u,
        None => shape = vec![u],
    }
    checked_numel(OP, &shape)?;
    let mut offsets = Vec::with_capacity(u * width);
    for o in 0..outer {
        for &g in &out_order {
            let item = groups[g].0;
            offsets.extend((0..inner).map(|i| element(item, o * inner + i)));
        }
    }
    let first: Vec<i64> = out_order.iter().map(|&g| groups[g].0 as i64).collect();
    let counts: Vec<i64> = out_order.iter().map(|&g| groups[g].1 as i64).collect();
    let inverse: Vec<i64> = group_of.iter().map(|&g| place[g] as i64).collect();
    Ok(Unique {
        values: Tensor::from_parts(shape, x.data().select(&offsets)),
        indices: Tensor::from_parts(vec![u], TensorData::I64(first)),
        inverse: Tensor::from_parts(vec![dim], TensorData::I64(inverse)),
        counts: Tensor::from_parts(vec![u], TensorData::I64(counts)),
    })
}

/// The parameters of [`roi_align`].
#[derive(Clone, Copy, Debug)]
pub struct RoiAlign {
    /// Output height and width.
    pub output: (usize, usize),
    /// Samples per bin along each axis; 0 adapts it to the region's size.
    pub sampling_ratio: usize,
    /// The scale from region coordinates to the input's.
    pub spatial_scale: f64,
    /// `half_pixel` (shift by half a pixel) rather than `output_half_pixel`.
    pub half_pixel: bool,
    /// Max rather than average pooling of the samples.
    pub max: bool,
}

/// The most sampling points per bin side [`roi_align`] takes.
const MAX_GRID: f64 = 4096.0;

/// The most bilinear samples of one region [`roi_align`] takes (each is
/// 64 bytes).
const MAX_SAMPLES: usize = 1 << 24;

/// One bilinear sample: four flat positions in a `H x W` plane and their
/// weights (all zero outside the plane's border margin).
fn bilinear(y: f64, x: f64, h: usize, w: usize) -> ([usize; 4], [f64; 4]) {
    if y < -1.0 || y > h as f64 || x < -1.0 || x > w as f64 {
        return ([0; 4], [0.0; 4]);
    }
    let (mut y, mut x) = (y.max(0.0), x.max(0.0));
    let (mut y_low, mut x_low) = (y as usize, x as usize);
    let y_high = if y_low + 1 >= h {
        y_low = h - 1;
        y = y_low as f64;
        y_low
    } else {
        y_low + 1
    };
    let x_high = if x_low + 1 >= w {
        x_low = w - 1;
        x = x_low as f64;
        x_low
    } else {
        x_low + 1
    };
    let (ly, lx) = (y - y_low as f64, x - x_low as f64);
    let (hy, hx) = (1.0 - ly, 1.0 - lx);
    (
        [
            y_low * w + x_low,
            y_low * w + x_high,
            y_high * w + x_low,
            y_high * w + x_high,
        ],
        [hy * hx, hy * lx, ly * hx, ly * lx],
    )
}

/// ONNX `RoiAlign` (opset 16): `x: [N, C, H, W]` pooled over each region
/// `rois[r] = (x1, y1, x2, y2)` of image `batch[r]` into
/// `[R, C, output_height, output_width]`, each bin the average (or the max,
/// of the weighted corners, as the ONNX reference takes it) of bilinear
/// samples on a regular grid.
pub fn roi_align(x: &Tensor, rois: &Tensor, batch: &Tensor, p: RoiAlign) -> KResult<Tensor> {
    const OP: &str = "roi_align";
    let &[n, c, h, w] = x.shape() else {
        return Err(invalid(
            OP,
            format!("input must be 4-D, not {:?}", x.shape()),
        ));
    };
    let r = match rois.shape() {
        &[r, 4] => r,
        s => return Err(invalid(OP, format!("rois must be [R, 4], not {s:?}"))),
    };
    if batch.shape() != [r] {
        return Err(invalid(
            OP,
            format!("batch_indices must be [{r}], not {:?}", batch.shape()),
        ));
    }
    let (oh, ow) = p.output;
    let shape = vec![r, c, oh, ow];
    let total = checked_numel(OP, &shape)?;
    if total == 0 {
        return Ok(Tensor::from_f64_vec(x.dtype(), &shape, &[]));
    }
    let data = x.to_f64_vec();
    let boxes = rois.to_f64_vec();
    let images = batch.to_i64_vec();
    let mut out = vec![0.0f64; total];
    let offset = if p.half_pixel { 0.5 } else { 0.0 };
    for roi in 0..r {
        let image = usize::try_from(images[roi])
            .ok()
            .filter(|&b| b < n)
            .ok_or_else(|| {
                invalid(
                    OP,
                    format!("batch index {} is out of range for {n} images", images[roi]),
                )
            })?;
        if h == 0 || w == 0 {
            continue;
        }
        let b = &boxes[roi * 4..roi * 4 + 4];
        let (start_w, start_h) = (
            b[0] * p.spatial_scale - offset,
            b[1] * p.spatial_scale - offset,
        );
        let (mut roi_w, mut roi_h) = (
            b[2] * p.spatial_scale - offset - start_w,
            b[3] * p.spatial_scale - offset - start_h,
        );
        if !p.half_pixel {
            roi_w = roi_w.max(1.0);
            roi_h = roi_h.max(1.0);
        }
        let (bin_h, bin_w) = (roi_h / oh as f64, roi_w / ow as f64);
        let grid = |size: f64, out: usize| -> KResult<usize> {
            let g = if p.sampling_ratio > 0 {
                p.sampling_ratio as f64
            } else {
                (size / out as f64).ceil().max(0.0)
            };
            if g.is_finite() && g <= MAX_GRID {
                Ok(g as usize)
            } else {
                Err(invalid(
                    OP,
                    format!("region {roi} needs a sampling grid of {g} points per bin side (at most {MAX_GRID})"),
                ))
            }
        };
        let (gh, gw) = (grid(roi_h, oh)?, grid(roi_w, ow)?);
        let per_roi = [ow, gh, gw]
            .iter()
            .try_fold(oh, |acc, &v| acc.checked_mul(v))
            .filter(|&n| n <= MAX_SAMPLES)
            .ok_or_else(|| {
                invalid(
                    OP,
                    format!("region {roi} needs more than {MAX_SAMPLES} bilinear samples"),
                )
            })?;
        let count = (gh * gw).max(1) as f64;
        // The samples of every bin, shared by the channels.
        let mut samples = Vec::with_capacity(per_roi);
        for ph in 0..oh {
            for pw in 0..ow {
                for iy in 0..gh {
                    let y = start_h + ph as f64 * bin_h + (iy as f64 + 0.5) * bin_h / gh as f64;
                    for ix in 0..gw {
                        let xx =
                            start_w + pw as f64 * bin_w + (ix as f64 + 0.5) * bin_w / gw as f64;
                        samples.push(bilinear(y, xx, h, w));
                    }
                }
            }
        }
        let per_bin = gh * gw;
        for ch in 0..c {
            let plane = &data[(image * c + ch) * h * w..(image * c + ch + 1) * h * w];
            for bin in 0..oh * ow {
                let bin_samples = &samples[bin * per_bin..(bin + 1) * per_bin];
                let weighted = |(pos, wt): &([usize; 4], [f64; 4])| -> [f64; 4] {
                    [0, 1, 2, 3].map(|k| wt[k] * plane[pos[k]])
                };
                let value = if p.max {
                    bin_samples
                        .iter()
                        .map(|s| weighted(s).into_iter().fold(f64::NEG_INFINITY, f64::max))
                        .reduce(f64::max)
                        .unwrap_or(0.0)
                } else {
                    bin_samples
                        .iter()
                        .map(|s| weighted(s).iter().sum::<f64>())
                        .sum::<f64>()
                        / count
                };
                out[(roi * c + ch) * oh * ow + bin] = value;
            }
        }
    }
    Ok(Tensor::from_f64_vec(x.dtype(), &shape, &out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_zero_lists_indices_per_axis() {
        let x = Tensor::from_f32(vec![2, 2], vec![1.0, 0.0, 0.0, 3.0]).unwrap();
        let y = non_zero(&x).unwrap();
        assert_eq!(y.shape(), &[2, 2]);
        assert_eq!(y.to_i64_vec(), vec![0, 1, 0, 1]);
    }

    #[test]
    fn unique_sorted_and_in_first_occurrence_order() {
        let x = Tensor::from_f32(vec![6], vec![2.0, 1.0, 1.0, 3.0, 4.0, 3.0]).unwrap();
        let s = unique(&x, None, true).unwrap();
        assert_eq!(s.values.to_f64_vec(), vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.indices.to_i64_vec(), vec![1, 0, 3, 4]);
        assert_eq!(s.inverse.to_i64_vec(), vec![1, 0, 0, 2, 3, 2]);
        assert_eq!(s.counts.to_i64_vec(), vec![2, 1, 2, 1]);
        let f = unique(&x, None, false).unwrap();
        assert_eq!(f.values.to_f64_vec(), vec![2.0, 1.0, 3.0, 4.0]);
        assert_eq!(f.inverse.to_i64_vec(), vec![0, 1, 1, 2, 3, 2]);
    }

    #[test]
    fn unique_slices_along_an_axis() {
        // Rows [1, 0], [1, 0], [0, 1]: two distinct rows, sorted.
        let x = Tensor::from_f32(vec![3, 2], vec![1.0, 0.0, 1.0, 0.0, 0.0, 1.0]).unwrap();
        let u = unique(&x, Some(0), true).unwrap();
        assert_eq!(u.values.shape(), &[2, 2]);
        assert_eq!(u.values.to_f64_vec(), vec![0.0, 1.0, 1.0, 0.0]);
        assert_eq!(u.inverse.to_i64_vec(), vec![1, 1, 0]);
        assert_eq!(u.counts.to_i64_vec(), vec![1, 2]);
    }
}
