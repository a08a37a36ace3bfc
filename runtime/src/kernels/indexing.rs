//! Element-wise indexing and its relatives: `gather_elements`,
//! `scatter_elements`, `scatter_nd`, `cumsum` and `top_k`, with ONNX's
//! semantics (negative indices count from the end of their dimension).

use std::cmp::Ordering;

use super::{dtype_mismatch, invalid, normalize_axis, shape_mismatch, unsupported, KResult};
use crate::tensor::checked_numel;
use crate::{DType, Tensor, TensorData};

/// How a scatter combines an update with the element already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScatterReduction {
    /// Replace it.
    None,
    /// Add to it.
    Add,
    /// Multiply it.
    Mul,
    /// Keep the larger.
    Max,
    /// Keep the smaller.
    Min,
}

impl ScatterReduction {
    /// The reduction ONNX names `name` (`none`, `add`, `mul`, `max`, `min`).
    pub fn parse(name: &str) -> Option<ScatterReduction> {
        Some(match name {
            "none" => ScatterReduction::None,
            "add" => ScatterReduction::Add,
            "mul" => ScatterReduction::Mul,
            "max" => ScatterReduction::Max,
            "min" => ScatterReduction::Min,
            _ => return None,
        })
    }
}

/// Row-major strides of `shape`.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

/// The multi-index of row-major position `i` in `shape`.
fn unravel(mut i: usize, shape: &[usize], out: &mut [usize]) {
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1);
        out[d] = i % n;
        i /= n;
    }
}

fn index_values(op: &'static str, indices: &Tensor) -> KResult<Vec<i64>> {
    if !matches!(indices.dtype(), DType::I32 | DType::I64) {
        return Err(unsupported(
            op,
            format!("indices of dtype {} (expected i32 or i64)", indices.dtype()),
        ));
    }
    Ok(indices.to_i64_vec())
}

/// `i` wrapped into `0..dim` (negative counts from the end), or an error.
fn wrap(op: &'static str, i: i64, dim: usize, axis: usize) -> KResult<usize> {
    let j = if i < 0 { i + dim as i64 } else { i };
    if j < 0 || j >= dim as i64 {
        return Err(invalid(
            op,
            format!("index {i} is out of range for dimension {axis} of size {dim}"),
        ));
    }
    Ok(j as usize)
}

/// `out[p] = data[p with p[axis] = indices[p]]`: the result has the shape
/// of `indices`, which has the rank of `data` and, on the other axes, sizes
/// no larger than `data`'s.
pub fn gather_elements(data: &Tensor, indices: &Tensor, axis: i64) -> KResult<Tensor> {
    const OP: &str = "gather_elements";
    let idx = index_values(OP, indices)?;
    let axis = normalize_axis(OP, axis, data.rank())?;
    check_element_shapes(OP, data.shape(), indices.shape(), axis)?;
    let (shape, ds) = (indices.shape(), strides(data.shape()));
    let mut pos = vec![0; shape.len()];
    let mut offsets = Vec::with_capacity(idx.len());
    for (i, &k) in idx.iter().enumerate() {
        unravel(i, shape, &mut pos);
        pos[axis] = wrap(OP, k, data.shape()[axis], axis)?;
        offsets.push(pos.iter().zip(&ds).map(|(p, s)| p * s).sum());
    }
    Ok(Tensor::from_parts(
        shape.to_vec(),
        data.data().select(&offsets),
    ))
}

/// Gathers slices of `data` at the index tuples in the last dimension of
/// `indices` (ONNX `GatherND`): the first `batch_dims` dimensions of both
/// are shared, and the result has shape `indices.shape[..-1] ++
/// data.shape[batch_dims + k..]` for tuples of `k` entries.
pub fn gather_nd(data: &Tensor, indices: &Tensor, batch_dims: usize) -> KResult<Tensor> {
    const OP: &str = "gather_nd";
    let idx = index_values(OP, indices)?;
    let Some((&k, lead)) = indices.shape().split_last() else {
        return Err(shape_mismatch(OP, "indices must have rank 1 or more"));
    };
    let b = batch_dims;
    if b > lead.len() || b + k > data.rank() || data.shape()[..b] != indices.shape()[..b] {
        return Err(shape_mismatch(
            OP,
            format!(
                "indices {:?} with batch_dims {b} do not fit data {:?}",
                indices.shape(),
                data.shape()
            ),
        ));
    }
    let mut shape = lead.to_vec();
    shape.extend_from_slice(&data.shape()[b + k..]);
    checked_numel(OP, &shape)?;
    let ds = strides(data.shape());
    let slice: usize = data.shape()[b + k..].iter().product();
    let batch_size: usize = data.shape()[..b].iter().product();
    let batch_stride = if b == 0 { 0 } else { ds[b - 1] };
    let per_batch: usize = lead[b..].iter().product();
    let mut offsets = Vec::with_capacity(lead.iter().product::<usize>() * slice);
    for bi in 0..batch_size {
        for t in 0..per_batch {
            let start = (bi * per_batch + t) * k;
            let mut base = bi * batch_stride;
            for (d, &i) in idx[start..start + k].iter().enumerate() {
                base += wrap(OP, i, data.shape()[b + d], b + d)? * ds[b + d];
            }
            offsets.extend(base..base + slice);
        }
    }
    Ok(Tensor::from_parts(shape, data.data().select(&offsets)))
}

/// ONNX `NonMaxSuppression` on `boxes: [B, N, 4]` and `scores: [B, C, N]`:
/// per batch and class, boxes by descending score (ties by index), each
/// kept unless its IoU with a kept box exceeds `iou_threshold`, at most
/// `max_per_class`, only scores above `score_threshold` when given. Boxes
/// are `[y1, x1, y2, x2]` (any corner order) or, with `center_point_box`,
/// `[x, y, w, h]`. The result is `[K, 3]` rows of `(batch, class, box)`.
pub fn non_max_suppression(
    boxes: &Tensor,
    scores: &Tensor,
    max_per_class: i64,
    iou_threshold: f64,
    score_threshold: Option<f64>,
    center_point_box: bool,
) -> KResult<Tensor> {
    const OP: &str = "non_max_suppression";
    let (&[b, n, four], &[sb, c, sn]) = (boxes.shape(), scores.shape()) else {
        return Err(shape_mismatch(
            OP,
            format!(
                "boxes {:?} must be [B, N, 4] and scores {:?} [B, C, N]",
                boxes.shape(),
                scores.shape()
            ),
        ));
    };
    if four != 4 || sb != b || sn != n {
        return Err(shape_mismatch(
            OP,
            format!(
                "boxes {:?} and scores {:?} do not fit",
                boxes.shape(),
                scores.shape()
            ),
        ));
    }
    // ONNX defines the op on f32 boxes and scores, and onnxruntime and the
    // ONNX reference compute the overlaps in f32: boxes of a grid (anchors)
    // overlap by exactly the threshold often enough that f64 would decide
    // differently.
    let to_f32 = |t: &Tensor| -> Vec<f32> { t.to_f64_vec().iter().map(|&v| v as f32).collect() };
    let (bv, sv) = (to_f32(boxes), to_f32(scores));
    let (iou_threshold, score_threshold) =
        (iou_threshold as f32, score_threshold.map(|t| t as f32));
    // [x_min, y_min, x_max, y_max] of each box.
    let corners = |img: usize, i: usize| -> [f32; 4] {
        let v = &bv[(img * n + i) * 4..][..4];
        if center_point_box {
            let (hw, hh) = (v[2] / 2.0, v[3] / 2.0);
            [v[0] - hw, v[1] - hh, v[0] + hw, v[1] + hh]
        } else {
            [
                v[1].min(v[3]),
                v[0].min(v[2]),
                v[1].max(v[3]),
                v[0].max(v[2]),
            ]
        }
    };
    let suppresses = |a: [f32; 4], z: [f32; 4]| -> bool {
        let (ix0, ix1) = (a[0].max(z[0]), a[2].min(z[2]));
        let (iy0, iy1) = (a[1].max(z[1]), a[3].min(z[3]));
        if ix1 <= ix0 || iy1 <= iy0 {
            return false;
        }
        let inter = (ix1 - ix0) * (iy1 - iy0);
        let area = |r: [f32; 4]| (r[2] - r[0]) * (r[3] - r[1]);
        let (a1, a2) = (area(a), area(z));
        let union = a1 + a2 - inter;
        if inter <= 0.0 || a1 <= 0.0 || a2 <= 0.0 || union <= 0.0 {
            return false;
        }
        inter / union > iou_threshold
    };
    let limit = usize::try_from(max_per_class.max(0)).unwrap_or(usize::MAX);
    let mut rows: Vec<i64> = Vec::new();
    for img in 0..b {
        for class in 0..c {
            let s = &sv[(img * c + class) * n..][..n];
            let mut order: Vec<usize> = (0..n)
                .filter(|&i| score_threshold.is_none_or(|t| s[i] > t))
                .collect();
            order.sort_by(|&p, &q| {
                s[q].partial_cmp(&s[p])
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(p.cmp(&q))
            });
            let mut kept: Vec<[f32; 4]> = Vec::new();
            for i in order {
                if kept.len() >= limit {
                    break;
                }
                let r = corners(img, i);
                if kept.iter().all(|&k| !suppresses(r, k)) {
                    kept.push(r);
                    rows.extend([img as i64, class as i64, i as i64]);
                }
            }
        }
    }
    let k = rows.len() / 3;
    Ok(Tensor::from_parts(vec![k, 3], TensorData::I64(rows)))
}

/// `indices` has the rank of `data` and no larger sizes off `axis`.
fn check_element_shapes(
    op: &'static str,
    data: &[usize],
    indices: &[usize],
    axis: usize,
) -> KResult<()> {
    if indices.len() != data.len() || (0..data.len()).any(|d| d != axis && indices[d] > data[d]) {
        return Err(shape_mismatch(
            op,
            format!("indices {indices:?} do not fit data {data:?} (off axis {axis})"),
        ));
    }
    Ok(())
}

/// The elements of a tensor in a form every reduction can combine: `f64`
/// for floats (exact for every float dtype), `i128` for integers and `i1`.
/// A tensor's elements as `f64` (floats) or `i128` (integers, `i1`).
pub(super) enum Values {
    Float(Vec<f64>),
    Int(Vec<i128>),
}

impl Values {
    pub(super) fn of(t: &Tensor) -> Values {
        if t.dtype().is_float() {
            Values::Float(t.to_f64_vec())
        } else {
            Values::Int(t.to_i128_vec())
        }
    }

    /// Orders elements `a` and `b`: floats numerically with NaN after every
    /// number (and equal to NaN), integers in order.
    pub(super) fn compare(&self, a: usize, b: usize) -> Ordering {
        match self {
            Values::Float(v) => match (v[a].is_nan(), v[b].is_nan()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                _ => v[a].partial_cmp(&v[b]).unwrap_or(Ordering::Equal),
            },
            Values::Int(v) => v[a].cmp(&v[b]),
        }
    }

    fn into_data(self, dtype: DType) -> TensorData {
        match self {
            Values::Float(v) => TensorData::from_f64_slice(dtype, &v),
            Values::Int(v) => TensorData::from_i128_slice(dtype, &v),
        }
    }

    /// Combines element `from` of `updates` into element `to`.
    fn apply(&mut self, to: usize, updates: &Values, from: usize, r: ScatterReduction) {
        match (self, updates) {
            (Values::Float(d), Values::Float(u)) => {
                let (a, b) = (d[to], u[from]);
                d[to] = match r {
                    ScatterReduction::None => b,
                    ScatterReduction::Add => a + b,
                    ScatterReduction::Mul => a * b,
                    ScatterReduction::Max => {
                        if a.is_nan() || b.is_nan() {
                            f64::NAN
                        } else {
                            a.max(b)
                        }
                    }
                    ScatterReduction::Min => {
                        if a.is_nan() || b.is_nan() {
                            f64::NAN
                        } else {
                            a.min(b)
                        }
                    }
                };
            }
            (Values::Int(d), Values::Int(u)) => {
                let (a, b) = (d[to], u[from]);
                d[to] = match r {
                    ScatterReduction::None => b,
                    ScatterReduction::Add => a.wrapping_add(b),
                    ScatterReduction::Mul => a.wrapping_mul(b),
                    ScatterReduction::Max => a.max(b),
                    ScatterReduction::Min => a.min(b),
                };
            }
            // `scatter_*` checks that the dtypes match first.
            _ => {}
        }
    }
}

fn check_updates(op: &'static str, data: &Tensor, updates: &Tensor) -> KResult<()> {
    if data.dtype() != updates.dtype() {
        return Err(dtype_mismatch(
            op,
            format!(
                "data is {} but updates are {}",
                data.dtype(),
                updates.dtype()
            ),
        ));
    }
    if data.dtype() == DType::I1 {
        return Err(unsupported(op, "i1 tensors"));
    }
    Ok(())
}

/// A copy of `data` with `updates[p]` written (or combined by `reduction`)
/// at `p with p[axis] = indices[p]`, in row-major order of `p`.
pub fn scatter_elements(
    data: &Tensor,
    indices: &Tensor,
    updates: &Tensor,
    axis: i64,
    reduction: ScatterReduction,
) -> KResult<Tensor> {
    const OP: &str = "scatter_elements";
    check_updates(OP, data, updates)?;
    let idx = index_values(OP, indices)?;
    if indices.shape() != updates.shape() {
        return Err(shape_mismatch(
            OP,
            format!(
                "indices {:?} and updates {:?} differ",
                indices.shape(),
                updates.shape()
            ),
        ));
    }
    let axis = normalize_axis(OP, axis, data.rank())?;
    check_element_shapes(OP, data.shape(), indices.shape(), axis)?;
    let (shape, ds) = (indices.shape(), strides(data.shape()));
    let mut out = Values::of(data);
    let upd = Values::of(updates);
    let mut pos = vec![0; shape.len()];
    for (i, &k) in idx.iter().enumerate() {
        unravel(i, shape, &mut pos);
        pos[axis] = wrap(OP, k, data.shape()[axis], axis)?;
        let to = pos.iter().zip(&ds).map(|(p, s)| p * s).sum();
        out.apply(to, &upd, i, reduction);
    }
    Ok(Tensor::from_parts(
        data.shape().to_vec(),
        out.into_data(data.dtype()),
    ))
}

/// A copy of `data` with slices of `updates` written (or combined) at the
/// index tuples of `indices` (shape `[..., k]`, `k <= rank(data)`);
/// `updates` has shape `indices.shape[..-1] ++ data.shape[k..]`.
pub fn scatter_nd(
    data: &Tensor,
    indices: &Tensor,
    updates: &Tensor,
    reduction: ScatterReduction,
) -> KResult<Tensor> {
    const OP: &str = "scatter_nd";
    check_updates(OP, data, updates)?;
    let idx = index_values(OP, indices)?;
    let Some((&k, lead)) = indices.shape().split_last() else {
        return Err(shape_mismatch(OP, "indices must have rank 1 or more"));
    };
    if k > data.rank() {
        return Err(shape_mismatch(
            OP,
            format!("index tuples of {k} for data of rank {}", data.rank()),
        ));
    }
    let mut expected = lead.to_vec();
    expected.extend_from_slice(&data.shape()[k..]);
    if updates.shape() != expected.as_slice() {
        return Err(shape_mismatch(
            OP,
            format!(
                "updates {:?} should have shape {expected:?}",
                updates.shape()
            ),
        ));
    }
    let ds = strides(data.shape());
    let slice: usize = data.shape()[k..].iter().product();
    let mut out = Values::of(data);
    let upd = Values::of(updates);
    for t in 0..lead.iter().product() {
        let tuple = &idx[t * k..(t + 1) * k];
        let mut base = 0;
        for (d, &i) in tuple.iter().enumerate() {
            base += wrap(OP, i, data.shape()[d], d)? * ds[d];
        }
        for j in 0..slice {
            out.apply(base + j, &upd, t * slice + j, reduction);
        }
    }
    Ok(Tensor::from_parts(
        data.shape().to_vec(),
        out.into_data(data.dtype()),
    ))
}

/// Running sums along `axis`: `exclusive` leaves each element out of its
/// own sum, `reverse` sums from the end. Floats accumulate in `f64`,
/// integers wrap at their width.
pub fn cumsum(x: &Tensor, axis: i64, exclusive: bool, reverse: bool) -> KResult<Tensor> {
    scan("cumsum", x, axis, exclusive, reverse, false)
}

/// Running products along `axis`, as [`cumsum`] (an exclusive product
/// starts at 1).
pub fn cumprod(x: &Tensor, axis: i64, exclusive: bool, reverse: bool) -> KResult<Tensor> {
    scan("cumprod", x, axis, exclusive, reverse, true)
}

fn scan(
    op: &'static str,
    x: &Tensor,
    axis: i64,
    exclusive: bool,
    reverse: bool,
    product: bool,
) -> KResult<Tensor> {
    if !(x.dtype().is_float() || x.dtype().is_int()) {
        return Err(unsupported(op, format!("dtype {}", x.dtype())));
    }
    let axis = normalize_axis(op, axis, x.rank())?;
    let dim = x.shape()[axis];
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let outer: usize = x.shape()[..axis].iter().product();
    let order: Vec<usize> = if reverse {
        (0..dim).rev().collect()
    } else {
        (0..dim).collect()
    };
    let mut values = Values::of(x);
    macro_rules! scan {
        ($v:expr, $zero:expr, $add:expr) => {{
            let v = $v;
            for o in 0..outer {
                for i in 0..inner {
                    let mut acc = $zero;
                    for &j in &order {
                        let at = (o * dim + j) * inner + i;
                        let here = v[at];
                        if exclusive {
                            v[at] = acc;
                            acc = $add(acc, here);
                        } else {
                            acc = $add(acc, here);
                            v[at] = acc;
                        }
                    }
                }
            }
        }};
    }
    match &mut values {
        Values::Float(v) if product => scan!(v, 1.0f64, |a: f64, b: f64| a * b),
        Values::Float(v) => scan!(v, 0.0f64, |a: f64, b: f64| a + b),
        Values::Int(v) if product => scan!(v, 1i128, |a: i128, b: i128| a.wrapping_mul(b)),
        Values::Int(v) => scan!(v, 0i128, |a: i128, b: i128| a.wrapping_add(b)),
    }
    Ok(Tensor::from_parts(
        x.shape().to_vec(),
        values.into_data(x.dtype()),
    ))
}

/// The `k` largest (or smallest) elements along `axis` and their indices,
/// in order (largest first, or smallest first); equal elements keep their
/// index order, and NaN counts as larger than every number.
pub fn top_k(x: &Tensor, k: i64, axis: i64, largest: bool) -> KResult<(Tensor, Tensor)> {
    const OP: &str = "top_k";
    if !(x.dtype().is_float() || x.dtype().is_int()) {
        return Err(unsupported(OP, format!("dtype {}", x.dtype())));
    }
    let axis = normalize_axis(OP, axis, x.rank())?;
    let dim = x.shape()[axis];
    let k = usize::try_from(k)
        .ok()
        .filter(|&k| k <= dim)
        .ok_or_else(|| invalid(OP, format!("k = {k} for a dimension of size {dim}")))?;
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let outer: usize = x.shape()[..axis].iter().product();
    let mut shape = x.shape().to_vec();
    shape[axis] = k;
    let n = checked_numel(OP, &shape)?;
    let values = Values::of(x);
    let cmp = |a: usize, b: usize| -> Ordering {
        let ord = values.compare(a, b);
        if largest {
            ord.reverse()
        } else {
            ord
        }
    };
    let mut offsets = vec![0; n];
    let mut positions = vec![0i64; n];
    let mut lane: Vec<usize> = Vec::with_capacity(dim);
    for o in 0..outer {
        for i in 0..inner {
            lane.clear();
            lane.extend((0..dim).map(|j| (o * dim + j) * inner + i));
            // A stable sort keeps equal elements in index order.
            lane.sort_by(|&a, &b| cmp(a, b));
            for (r, &at) in lane.iter().take(k).enumerate() {
                let out = (o * k + r) * inner + i;
                offsets[out] = at;
                positions[out] = ((at / inner) % dim.max(1)) as i64;
            }
        }
    }
    Ok((
        Tensor::from_parts(shape.clone(), x.data().select(&offsets)),
        Tensor::from_parts(shape, TensorData::I64(positions)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
        Tensor::from_f32(shape.to_vec(), v.to_vec()).unwrap()
    }

    fn i64s(shape: &[usize], v: &[i64]) -> Tensor {
        Tensor::from_i64(shape.to_vec(), v.to_vec()).unwrap()
    }

    #[test]
    fn gather_elements_follows_the_onnx_example() {
        // ONNX's example: axis 1, data [[1, 2], [3, 4]], indices [[0, 0], [1, 0]].
        let data = f32s(&[2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let idx = i64s(&[2, 2], &[0, 0, 1, 0]);
        let out = gather_elements(&data, &idx, 1).unwrap();
        assert_eq!(out.to_f64_vec(), vec![1.0, 1.0, 4.0, 3.0]);
        // Negative indices wrap; out of range is an error.
        let neg = gather_elements(&data, &i64s(&[1, 2], &[-1, -2]), 0).unwrap();
        assert_eq!(neg.to_f64_vec(), vec![3.0, 2.0]);
        assert!(gather_elements(&data, &i64s(&[1, 1], &[2]), 0).is_err());
        assert!(gather_elements(&data, &i64s(&[3, 1], &[0, 0, 0]), 1).is_err());
    }

    #[test]
    fn scatters_write_and_reduce() {
        let data = f32s(&[3, 3], &[0.0; 9]);
        let idx = i64s(&[2, 3], &[1, 0, 2, 0, 2, 1]);
        let upd = f32s(&[2, 3], &[1.0, 1.1, 1.2, 2.0, 2.1, 2.2]);
        let out = scatter_elements(&data, &idx, &upd, 0, ScatterReduction::None).unwrap();
        assert_eq!(
            out.to_f64_vec(),
            [2.0, 1.1, 0.0, 1.0, 0.0, 2.2, 0.0, 2.1, 1.2]
                .iter()
                .map(|&v: &f64| v as f32 as f64)
                .collect::<Vec<_>>()
        );
        let ones = f32s(&[1, 2], &[1.0, 1.0]);
        let twice = scatter_elements(
            &f32s(&[1, 3], &[1.0, 2.0, 3.0]),
            &i64s(&[1, 2], &[1, 1]),
            &ones,
            1,
            ScatterReduction::Add,
        )
        .unwrap();
        assert_eq!(twice.to_f64_vec(), vec![1.0, 4.0, 3.0]);

        // scatter_nd: rows 0 and 2 of a [4, 2] tensor, then a single element.
        let data = i64s(&[4, 2], &[0; 8]);
        let rows = scatter_nd(
            &data,
            &i64s(&[2, 1], &[0, 2]),
            &i64s(&[2, 2], &[5, 6, 7, 8]),
            ScatterReduction::None,
        )
        .unwrap();
        assert_eq!(rows.to_i64_vec(), vec![5, 6, 0, 0, 7, 8, 0, 0]);
        let one = scatter_nd(
            &rows,
            &i64s(&[1, 2], &[-1, 1]),
            &i64s(&[1], &[9]),
            ScatterReduction::Add,
        )
        .unwrap();
        assert_eq!(one.to_i64_vec(), vec![5, 6, 0, 0, 7, 8, 0, 9]);
        // Empty index tuples address the whole tensor.
        let whole = scatter_nd(
            &i64s(&[2], &[1, 2]),
            &i64s(&[1, 0], &[]),
            &i64s(&[1, 2], &[3, 4]),
            ScatterReduction::Mul,
        )
        .unwrap();
        assert_eq!(whole.to_i64_vec(), vec![3, 8]);
        let bad = scatter_nd(
            &data,
            &i64s(&[1, 1], &[0]),
            &i64s(&[1], &[1]),
            ScatterReduction::None,
        );
        assert!(bad.is_err());
    }

    #[test]
    fn cumsum_variants() {
        let x = f32s(&[5], &[1.0, 2.0, 3.0, 4.0, 5.0]);
        let sum = |e, r| cumsum(&x, 0, e, r).unwrap().to_f64_vec();
        assert_eq!(sum(false, false), vec![1.0, 3.0, 6.0, 10.0, 15.0]);
        assert_eq!(sum(true, false), vec![0.0, 1.0, 3.0, 6.0, 10.0]);
        assert_eq!(sum(false, true), vec![15.0, 14.0, 12.0, 9.0, 5.0]);
        assert_eq!(sum(true, true), vec![14.0, 12.0, 9.0, 5.0, 0.0]);
        let m = i64s(&[2, 3], &[1, 2, 3, 4, 5, 6]);
        assert_eq!(
            cumsum(&m, 1, false, false).unwrap().to_i64_vec(),
            vec![1, 3, 6, 4, 9, 15]
        );
        assert_eq!(
            cumsum(&m, 0, false, false).unwrap().to_i64_vec(),
            vec![1, 2, 3, 5, 7, 9]
        );
        assert_eq!(
            cumprod(&m, 1, false, false).unwrap().to_i64_vec(),
            vec![1, 2, 6, 4, 20, 120]
        );
        assert_eq!(
            cumprod(&m, 1, true, true).unwrap().to_i64_vec(),
            vec![6, 3, 1, 30, 6, 1]
        );
    }

    #[test]
    fn top_k_orders_and_breaks_ties_by_index() {
        let x = f32s(&[2, 4], &[1.0, 3.0, 3.0, 2.0, f32::NAN, 0.0, -1.0, 5.0]);
        let (v, i) = top_k(&x, 2, 1, true).unwrap();
        assert_eq!(i.to_i64_vec(), vec![1, 2, 0, 3]);
        assert_eq!(v.to_f64_vec()[..2], [3.0, 3.0]);
        assert!(v.to_f64_vec()[2].is_nan());
        let (v, i) = top_k(&x, 1, 0, false).unwrap();
        assert_eq!(v.shape(), &[1, 4]);
        assert_eq!(i.to_i64_vec(), vec![0, 1, 1, 0]);
        assert!(top_k(&x, 5, 1, true).is_err());
        assert!(top_k(&x, -1, 1, true).is_err());
    }

    #[test]
    fn gather_nd_follows_the_onnx_examples() {
        let data = i64s(&[2, 2], &[0, 1, 2, 3]);
        let pairs = gather_nd(&data, &i64s(&[2, 2], &[0, 0, 1, 1]), 0).unwrap();
        assert_eq!(pairs.to_i64_vec(), vec![0, 3]);
        let rows = gather_nd(&data, &i64s(&[2, 1], &[1, 0]), 0).unwrap();
        assert_eq!(rows.shape(), &[2, 2]);
        assert_eq!(rows.to_i64_vec(), vec![2, 3, 0, 1]);
        let cube = i64s(&[2, 2, 2], &[0, 1, 2, 3, 4, 5, 6, 7]);
        let batched = gather_nd(&cube, &i64s(&[2, 1], &[1, 0]), 1).unwrap();
        assert_eq!(batched.shape(), &[2, 2]);
        assert_eq!(batched.to_i64_vec(), vec![2, 3, 4, 5]);
        assert!(gather_nd(&data, &i64s(&[1, 3], &[0, 0, 0]), 0).is_err());
        assert!(gather_nd(&data, &i64s(&[1, 1], &[2]), 0).is_err());
    }

    #[test]
    fn nms_keeps_the_best_of_overlapping_boxes() {
        // Three boxes: 0 and 1 overlap heavily, 2 is apart.
        let boxes = f32s(
            &[1, 3, 4],
            &[0.0, 0.0, 1.0, 1.0, 0.0, 0.1, 1.0, 1.1, 0.0, 10.0, 1.0, 11.0],
        );
        let scores = f32s(&[1, 1, 3], &[0.9, 0.95, 0.3]);
        let kept = non_max_suppression(&boxes, &scores, 3, 0.5, None, false).unwrap();
        assert_eq!(kept.shape(), &[2, 3]);
        assert_eq!(kept.to_i64_vec(), vec![0, 0, 1, 0, 0, 2]);
        let capped = non_max_suppression(&boxes, &scores, 1, 0.5, None, false).unwrap();
        assert_eq!(capped.to_i64_vec(), vec![0, 0, 1]);
        let above = non_max_suppression(&boxes, &scores, 3, 0.5, Some(0.5), false).unwrap();
        assert_eq!(above.shape(), &[1, 3]);
        let none = non_max_suppression(&boxes, &scores, 0, 0.5, None, false).unwrap();
        assert_eq!(none.shape(), &[0, 3]);
        assert!(
            non_max_suppression(&boxes, &f32s(&[1, 1, 2], &[0.0; 2]), 1, 0.5, None, false).is_err()
        );
    }

    #[test]
    fn nms_overlaps_are_computed_in_f32() {
        // x in [0.6, 1.1] and [0.4, 1.4]: the IoU is 0.5 exactly in f32 (so
        // not above the threshold: both kept, as onnxruntime keeps them) and
        // 0.50000001 in f64 (which would suppress the second).
        let boxes = f32s(&[1, 2, 4], &[0.0, 0.6, 1.0, 1.1, 0.0, 0.4, 1.0, 1.4]);
        let scores = f32s(&[1, 1, 2], &[0.9, 0.8]);
        let kept = non_max_suppression(&boxes, &scores, 2, 0.5, None, false).unwrap();
        assert_eq!(kept.to_i64_vec(), vec![0, 0, 0, 0, 0, 1]);
    }
}
