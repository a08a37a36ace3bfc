//! Data movement for every dtype: reshape, transpose, concat, split, slice,
//! gather, pad, tile, and `range` construction.

use super::shape::{product_offsets, transpose_offsets};
use super::{invalid, normalize_axis, shape_mismatch, unsupported, KResult};
use crate::tensor::{checked_numel, FILL};
use crate::{DType, Tensor, TensorData};

/// How [`pad`] fills the new border.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadMode {
    /// A constant value (converted to the tensor's dtype).
    Constant(f64),
    /// Mirror without repeating the edge (`[1,2,3]` pads to `..,3,2,1,2,3,2,1,..`).
    Reflect,
    /// Repeat the edge element.
    Edge,
    /// Wrap around (periodic).
    Wrap,
}

/// `x` with a new shape of the same element count.
pub fn reshape(x: &Tensor, shape: &[usize]) -> KResult<Tensor> {
    let n = checked_numel("reshape", shape)?;
    if n != x.len() {
        return Err(shape_mismatch(
            "reshape",
            format!(
                "cannot reshape {:?} ({} elements) to {shape:?} ({n} elements)",
                x.shape(),
                x.len()
            ),
        ));
    }
    Ok(Tensor::from_parts(shape.to_vec(), x.data().clone()))
}

/// Permutes dims: result dim `i` is input dim `perm[i]`.
pub fn transpose(x: &Tensor, perm: &[usize]) -> KResult<Tensor> {
    let rank = x.rank();
    let mut seen = vec![false; rank];
    let valid = perm.len() == rank
        && perm
            .iter()
            .all(|&p| p < rank && !std::mem::replace(&mut seen[p], true));
    if !valid {
        return Err(invalid(
            "transpose",
            format!(
                "{perm:?} is not a permutation of the {rank} dims of {:?}",
                x.shape()
            ),
        ));
    }
    let shape: Vec<usize> = perm.iter().map(|&p| x.shape()[p]).collect();
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return Ok(x.clone());
    }
    let offsets = transpose_offsets(x.shape(), perm);
    Ok(Tensor::from_parts(shape, x.data().select(&offsets)))
}

/// Joins tensors along `axis` (negative counts from the end); all must have
/// the same dtype, rank and other dims.
pub fn concat(inputs: &[&Tensor], axis: i64) -> KResult<Tensor> {
    let Some(first) = inputs.first() else {
        return Err(invalid("concat", "no inputs"));
    };
    let axis = normalize_axis("concat", axis, first.rank())?;
    let mut out_shape = first.shape().to_vec();
    out_shape[axis] = 0;
    for t in inputs {
        if t.dtype() != first.dtype() {
            return Err(super::dtype_mismatch(
                "concat",
                format!("inputs have dtypes {} and {}", first.dtype(), t.dtype()),
            ));
        }
        let compatible = t.rank() == first.rank()
            && t.shape()
                .iter()
                .zip(first.shape())
                .enumerate()
                .all(|(d, (a, b))| d == axis || a == b);
        if !compatible {
            return Err(shape_mismatch(
                "concat",
                format!(
                    "input shapes {:?} and {:?} differ off axis {axis}",
                    first.shape(),
                    t.shape()
                ),
            ));
        }
        out_shape[axis] = out_shape[axis]
            .checked_add(t.shape()[axis])
            .ok_or_else(|| invalid("concat", "result too large"))?;
    }
    checked_numel("concat", &out_shape)?;
    let outer: usize = first.shape()[..axis].iter().product();
    let inner: usize = first.shape()[axis + 1..].iter().product();
    let mut bases = Vec::with_capacity(inputs.len());
    let mut total = 0usize;
    for t in inputs {
        bases.push(total);
        total += t.len();
    }
    let mut offsets = Vec::with_capacity(total);
    for o in 0..outer {
        for (t, &base) in inputs.iter().zip(&bases) {
            let chunk = t.shape()[axis] * inner;
            offsets.extend(base + o * chunk..base + (o + 1) * chunk);
        }
    }
    let parts: Vec<&TensorData> = inputs.iter().map(|t| t.data()).collect();
    let all = TensorData::concat(&parts);
    Ok(Tensor::from_parts(out_shape, all.select(&offsets)))
}

/// Cuts `x` along `axis` into pieces of the given sizes, which must sum to
/// the dim.
pub fn split(x: &Tensor, axis: i64, sizes: &[usize]) -> KResult<Vec<Tensor>> {
    let axis = normalize_axis("split", axis, x.rank())?;
    let dim = x.shape()[axis];
    let sum = sizes.iter().try_fold(0usize, |a, &s| a.checked_add(s));
    if sum != Some(dim) {
        return Err(shape_mismatch(
            "split",
            format!(
                "sizes {sizes:?} do not sum to dim {axis} of {:?}",
                x.shape()
            ),
        ));
    }
    let mut start = 0;
    let mut out = Vec::with_capacity(sizes.len());
    for &size in sizes {
        let per_dim: Vec<Vec<usize>> = x
            .shape()
            .iter()
            .enumerate()
            .map(|(d, &n)| {
                if d == axis {
                    (start..start + size).collect()
                } else {
                    (0..n).collect()
                }
            })
            .collect();
        out.push(pick(x, &per_dim));
        start += size;
    }
    Ok(out)
}

/// Takes, along each dim `d`, the source indices `per_dim[d]` (sizes already
/// validated).
fn pick(x: &Tensor, per_dim: &[Vec<usize>]) -> Tensor {
    let shape: Vec<usize> = per_dim.iter().map(Vec::len).collect();
    let offsets = product_offsets(x.shape(), per_dim);
    Tensor::from_parts(shape, x.data().select(&offsets))
}

/// ONNX `Slice`. `axes` empty means `0..starts.len()`, `steps` empty means
/// all 1. Negative starts/ends count from the end; out-of-range values
/// (including the `i64::MIN`/`i64::MAX` sentinels) clamp; negative steps
/// walk backwards.
pub fn slice(
    x: &Tensor,
    starts: &[i64],
    ends: &[i64],
    axes: &[i64],
    steps: &[i64],
) -> KResult<Tensor> {
    let rank = x.rank();
    let n = starts.len();
    let default_axes: Vec<i64>;
    let axes = if axes.is_empty() {
        default_axes = (0..n as i64).collect();
        &default_axes[..]
    } else {
        axes
    };
    if ends.len() != n || axes.len() != n || !(steps.is_empty() || steps.len() == n) {
        return Err(invalid(
            "slice",
            format!(
                "starts, ends, axes and steps must have equal lengths, got {}, {}, {}, {}",
                n,
                ends.len(),
                axes.len(),
                steps.len()
            ),
        ));
    }
    if x.is_empty() {
        // No element to pick: compute the result's shape without building
        // index lists (a zero-element tensor may have a huge dimension).
        let mut shape = x.shape().to_vec();
        let mut touched = vec![false; rank];
        for i in 0..n {
            let axis = normalize_axis("slice", axes[i], rank)?;
            if std::mem::replace(&mut touched[axis], true) {
                return Err(invalid(
                    "slice",
                    format!("axis {axis} appears twice in {axes:?}"),
                ));
            }
            let step = steps.get(i).copied().unwrap_or(1);
            shape[axis] = slice_count(x.shape()[axis], starts[i], ends[i], step)?;
        }
        return Ok(Tensor::zeros(x.dtype(), &shape));
    }
    let mut per_dim: Vec<Vec<usize>> = x.shape().iter().map(|&d| (0..d).collect()).collect();
    let mut touched = vec![false; rank];
    for i in 0..n {
        let axis = normalize_axis("slice", axes[i], rank)?;
        if std::mem::replace(&mut touched[axis], true) {
            return Err(invalid(
                "slice",
                format!("axis {axis} appears twice in {axes:?}"),
            ));
        }
        let step = steps.get(i).copied().unwrap_or(1);
        per_dim[axis] = slice_indices(x.shape()[axis], starts[i], ends[i], step)?;
    }
    Ok(pick(x, &per_dim))
}

/// The indices one ONNX slice `start:end:step` selects from a dim of size `dim`.
fn slice_indices(dim: usize, start: i64, end: i64, step: i64) -> KResult<Vec<usize>> {
    if step == 0 {
        return Err(invalid("slice", "step must not be 0"));
    }
    let d = dim as i64;
    let resolve = |v: i64| if v < 0 { v.saturating_add(d) } else { v };
    let (start, end) = (resolve(start), resolve(end));
    let mut out = Vec::new();
    if step > 0 {
        let (mut i, end) = (start.clamp(0, d), end.clamp(0, d));
        while i < end {
            out.push(i as usize);
            i = i.saturating_add(step);
        }
    } else if d > 0 {
        // As the ONNX spec: starts clamp to [0, d - 1], ends to [-1, d - 1].
        let (mut i, end) = (start.clamp(0, d - 1), end.clamp(-1, d - 1));
        while i > end {
            out.push(i as usize);
            i = i.saturating_add(step);
        }
    }
    Ok(out)
}

/// How many indices an ONNX slice `start:end:step` selects from a dim of
/// size `dim` (as [`slice_indices`], without listing them).
fn slice_count(dim: usize, start: i64, end: i64, step: i64) -> KResult<usize> {
    if step == 0 {
        return Err(invalid("slice", "step must not be 0"));
    }
    let (d, step) = (dim as i128, i128::from(step));
    let resolve = |v: i64| {
        if v < 0 {
            i128::from(v) + d
        } else {
            i128::from(v)
        }
    };
    let (start, end) = (resolve(start), resolve(end));
    let count = if step > 0 {
        let (s, e) = (start.clamp(0, d), end.clamp(0, d));
        ((e - s).max(0) + step - 1) / step
    } else if d > 0 {
        let (s, e) = (start.clamp(0, d - 1), end.clamp(-1, d - 1));
        ((s - e).max(0) + (-step) - 1) / (-step)
    } else {
        0
    };
    // At most `dim`.
    Ok(count as usize)
}

/// ONNX `Gather`: picks slices of `data` along `axis` at `indices` (an
/// `i32` or `i64` tensor; negative indices count from the end). The result
/// shape is `data[..axis] ++ indices ++ data[axis+1..]`.
pub fn gather(data: &Tensor, indices: &Tensor, axis: i64) -> KResult<Tensor> {
    if !matches!(indices.dtype(), DType::I32 | DType::I64) {
        return Err(unsupported(
            "gather",
            format!("indices of dtype {} (expected i32 or i64)", indices.dtype()),
        ));
    }
    let axis = normalize_axis("gather", axis, data.rank())?;
    let dim = data.shape()[axis];
    let idx = indices
        .to_i64_vec()
        .into_iter()
        .map(|i| {
            let j = if i < 0 { i + dim as i64 } else { i };
            if j < 0 || j >= dim as i64 {
                Err(invalid(
                    "gather",
                    format!("index {i} is out of range for dim {axis} of size {dim}"),
                ))
            } else {
                Ok(j as usize)
            }
        })
        .collect::<KResult<Vec<usize>>>()?;
    let mut shape = data.shape()[..axis].to_vec();
    shape.extend_from_slice(indices.shape());
    shape.extend_from_slice(&data.shape()[axis + 1..]);
    checked_numel("gather", &shape)?;
    let outer: usize = data.shape()[..axis].iter().product();
    let inner: usize = data.shape()[axis + 1..].iter().product();
    let mut offsets = Vec::with_capacity(outer * idx.len() * inner);
    for o in 0..outer {
        for &j in &idx {
            let base = (o * dim + j) * inner;
            offsets.extend(base..base + inner);
        }
    }
    Ok(Tensor::from_parts(shape, data.data().select(&offsets)))
}

/// ONNX `Pad`: `pads` holds all begin amounts then all end amounts (length
/// `2 * rank`); negative amounts crop.
pub fn pad(x: &Tensor, pads: &[i64], mode: PadMode) -> KResult<Tensor> {
    let rank = x.rank();
    if pads.len() != 2 * rank {
        return Err(invalid(
            "pad",
            format!(
                "{} pads for rank {rank} (expected {})",
                pads.len(),
                2 * rank
            ),
        ));
    }
    let mut per_dim = Vec::with_capacity(rank);
    for (d, &dim) in x.shape().iter().enumerate() {
        let (begin, end) = (pads[d], pads[d + rank]);
        let len = (dim as i64)
            .checked_add(begin)
            .and_then(|v| v.checked_add(end));
        let len = match len {
            Some(l) if l >= 0 => l as usize,
            _ => {
                return Err(invalid(
                    "pad",
                    format!("pads {begin} and {end} leave no valid size for dim {d} of size {dim}"),
                ))
            }
        };
        checked_numel("pad", &[len])?;
        let needs_source = !matches!(mode, PadMode::Constant(_)) && dim == 0 && len > 0;
        if needs_source {
            return Err(invalid("pad", format!("{mode:?} padding of empty dim {d}")));
        }
        per_dim.push(
            (0..len)
                .map(|o| pad_source((o as i64).saturating_sub(begin), dim as i64, mode))
                .collect::<Vec<usize>>(),
        );
    }
    let shape: Vec<usize> = per_dim.iter().map(Vec::len).collect();
    checked_numel("pad", &shape)?;
    let offsets = product_offsets(x.shape(), &per_dim);
    let data = match mode {
        PadMode::Constant(v) => x
            .data()
            .select_or(&offsets, &TensorData::from_f64_slice(x.dtype(), &[v])),
        _ => x.data().select(&offsets),
    };
    Ok(Tensor::from_parts(shape, data))
}

/// Source index for position `src` (relative to the unpadded start) of a
/// dim of size `dim > 0`, or FILL for constant padding.
fn pad_source(src: i64, dim: i64, mode: PadMode) -> usize {
    if (0..dim).contains(&src) {
        return src as usize;
    }
    match mode {
        PadMode::Constant(_) => FILL,
        PadMode::Edge => src.clamp(0, dim - 1) as usize,
        PadMode::Wrap => src.rem_euclid(dim) as usize,
        PadMode::Reflect => {
            if dim == 1 {
                return 0;
            }
            let period = 2 * (dim - 1);
            let m = src.rem_euclid(period);
            (if m >= dim { period - m } else { m }) as usize
        }
    }
}

/// ONNX `Tile`: repeats `x` `repeats[d]` times along each dim `d`.
pub fn tile(x: &Tensor, repeats: &[usize]) -> KResult<Tensor> {
    if repeats.len() != x.rank() {
        return Err(invalid(
            "tile",
            format!("{} repeats for rank {}", repeats.len(), x.rank()),
        ));
    }
    let shape = x
        .shape()
        .iter()
        .zip(repeats)
        .map(|(&d, &r)| d.checked_mul(r))
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| invalid("tile", "result too large"))?;
    checked_numel("tile", &shape)?;
    if shape.contains(&0) {
        // No element to pick: do not build index lists over huge dims.
        return Ok(Tensor::zeros(x.dtype(), &shape));
    }
    let per_dim: Vec<Vec<usize>> = x
        .shape()
        .iter()
        .zip(&shape)
        .map(|(&d, &n)| (0..n).map(|i| i % d).collect())
        .collect();
    Ok(pick(x, &per_dim))
}

/// ONNX `Range`: `start, start + delta, ...` while before `limit`, as a 1-D
/// tensor of `dtype`. Integer dtypes need integral arguments and compute
/// exactly in `i64`.
pub fn range(start: f64, limit: f64, delta: f64, dtype: DType) -> KResult<Tensor> {
    if delta == 0.0 || !delta.is_finite() || !start.is_finite() || !limit.is_finite() {
        return Err(invalid(
            "range",
            format!("start {start}, limit {limit}, delta {delta}"),
        ));
    }
    let count = ((limit - start) / delta).ceil().max(0.0);
    if count > (1u64 << 40) as f64 {
        return Err(invalid("range", format!("{count} elements is too many")));
    }
    let n = count as usize;
    if dtype.is_int() {
        if start.fract() != 0.0 || delta.fract() != 0.0 {
            return Err(invalid(
                "range",
                format!("{dtype} range needs integral start and delta"),
            ));
        }
        let (s, d) = (start as i64, delta as i64);
        let v: Vec<i64> = (0..n as i64)
            .map(|i| s.wrapping_add(i.wrapping_mul(d)))
            .collect();
        return Ok(Tensor::from_parts(
            vec![n],
            TensorData::from_i64_slice(dtype, &v),
        ));
    }
    if !dtype.is_float() {
        return Err(unsupported("range", format!("dtype {dtype}")));
    }
    let v: Vec<f64> = (0..n).map(|i| start + i as f64 * delta).collect();
    Ok(Tensor::from_parts(
        vec![n],
        TensorData::from_f64_slice(dtype, &v),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KernelError;

    fn iota(shape: &[usize]) -> Tensor {
        let n: usize = shape.iter().product();
        Tensor::from_i64(shape.to_vec(), (0..n as i64).collect()).unwrap()
    }

    #[test]
    fn reshape_checks_count() {
        let x = iota(&[2, 3]);
        assert_eq!(reshape(&x, &[3, 2]).unwrap().shape(), &[3, 2]);
        assert_eq!(reshape(&x, &[6]).unwrap().to_i64_vec(), x.to_i64_vec());
        assert!(matches!(
            reshape(&x, &[4]),
            Err(KernelError::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn transpose_permutes() {
        let x = iota(&[2, 3, 4]);
        let t = transpose(&x, &[2, 0, 1]).unwrap();
        assert_eq!(t.shape(), &[4, 2, 3]);
        let v = t.to_i64_vec();
        // t[k, i, j] = x[i, j, k] = 12 i + 4 j + k
        assert_eq!(v[0..6], [0, 4, 8, 12, 16, 20]);
        assert_eq!(v[6], 1);
        assert!(transpose(&x, &[0, 0, 1]).is_err());
        assert!(transpose(&x, &[0, 1]).is_err());
        assert!(transpose(&x, &[0, 1, 3]).is_err());
        let b = Tensor::from_bool(vec![1, 2], vec![true, false]).unwrap();
        assert_eq!(transpose(&b, &[1, 0]).unwrap().shape(), &[2, 1]);
    }

    #[test]
    fn concat_and_split() {
        let a = iota(&[2, 2]);
        let b = Tensor::from_i64(vec![2, 1], vec![9, 8]).unwrap();
        let c = concat(&[&a, &b], -1).unwrap();
        assert_eq!(c.shape(), &[2, 3]);
        assert_eq!(c.to_i64_vec(), vec![0, 1, 9, 2, 3, 8]);
        let r = concat(&[&a, &a], 0).unwrap();
        assert_eq!(r.to_i64_vec(), vec![0, 1, 2, 3, 0, 1, 2, 3]);
        assert!(concat(&[&a, &b], 0).is_err());
        assert!(concat(&[], 0).is_err());
        assert!(concat(&[&a, &Tensor::from_i32(vec![2, 1], vec![0, 0]).unwrap()], 1).is_err());
        assert!(concat(&[&a], 2).is_err());

        let parts = split(&c, 1, &[2, 0, 1]).unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0], a);
        assert_eq!(parts[1].shape(), &[2, 0]);
        assert_eq!(parts[2], b);
        assert!(split(&c, 1, &[2, 2]).is_err());
    }

    #[test]
    fn slice_semantics() {
        let x = iota(&[10]);
        let s = |st: i64, en: i64, step: i64| {
            slice(&x, &[st], &[en], &[], &[step]).unwrap().to_i64_vec()
        };
        assert_eq!(s(2, 5, 1), vec![2, 3, 4]);
        assert_eq!(s(-3, i64::MAX, 1), vec![7, 8, 9]);
        assert_eq!(s(0, 10, 3), vec![0, 3, 6, 9]);
        assert_eq!(s(-1, i64::MIN, -1), vec![9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
        assert_eq!(s(8, 2, -2), vec![8, 6, 4]);
        assert_eq!(s(100, -100, -3), vec![9, 6, 3, 0]);
        assert_eq!(s(5, 2, 1), Vec::<i64>::new());
        assert_eq!(s(-100, 2, 1), vec![0, 1]);
        assert!(slice(&x, &[0], &[1], &[], &[0]).is_err());

        let m = iota(&[3, 4]);
        let r = slice(&m, &[0, -1], &[i64::MAX, i64::MIN], &[-2, 1], &[2, -2]).unwrap();
        assert_eq!(r.shape(), &[2, 2]);
        assert_eq!(r.to_i64_vec(), vec![3, 1, 11, 9]);
        assert!(slice(&m, &[0, 0], &[1, 1], &[1, -1], &[]).is_err());
        assert!(slice(&m, &[0], &[1], &[2], &[]).is_err());
        assert!(slice(&m, &[0], &[1, 2], &[], &[]).is_err());
    }

    #[test]
    fn gather_wraps_and_checks() {
        let x = iota(&[3, 2]);
        let i = Tensor::from_i32(vec![2, 2], vec![0, -1, 2, 1]).unwrap();
        let g = gather(&x, &i, 0).unwrap();
        assert_eq!(g.shape(), &[2, 2, 2]);
        assert_eq!(g.to_i64_vec(), vec![0, 1, 4, 5, 4, 5, 2, 3]);
        let g1 = gather(&x, &Tensor::from_i64(vec![], vec![1]).unwrap(), -1).unwrap();
        assert_eq!(g1.shape(), &[3]);
        assert_eq!(g1.to_i64_vec(), vec![1, 3, 5]);
        let bad = Tensor::from_i64(vec![1], vec![3]).unwrap();
        assert!(matches!(
            gather(&x, &bad, 0),
            Err(KernelError::InvalidArgument { .. })
        ));
        let bad = Tensor::from_i64(vec![1], vec![-4]).unwrap();
        assert!(gather(&x, &bad, 0).is_err());
        let f = Tensor::from_f32(vec![1], vec![0.0]).unwrap();
        assert!(gather(&x, &f, 0).is_err());
    }

    #[test]
    fn pad_modes() {
        let x = Tensor::from_i64(vec![3], vec![1, 2, 3]).unwrap();
        let p = |pads: &[i64], mode| pad(&x, pads, mode).unwrap().to_i64_vec();
        assert_eq!(p(&[2, 1], PadMode::Constant(7.0)), vec![7, 7, 1, 2, 3, 7]);
        assert_eq!(p(&[2, 2], PadMode::Reflect), vec![3, 2, 1, 2, 3, 2, 1]);
        assert_eq!(p(&[2, 2], PadMode::Edge), vec![1, 1, 1, 2, 3, 3, 3]);
        assert_eq!(p(&[2, 2], PadMode::Wrap), vec![2, 3, 1, 2, 3, 1, 2]);
        assert_eq!(p(&[-1, 1], PadMode::Constant(0.0)), vec![2, 3, 0]);
        assert_eq!(p(&[-2, -1], PadMode::Edge), Vec::<i64>::new());
        assert!(pad(&x, &[-2, -2], PadMode::Constant(0.0)).is_err());
        assert!(pad(&x, &[1], PadMode::Edge).is_err());

        let m = Tensor::from_f32(vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        let r = pad(&m, &[1, -1, 0, 1], PadMode::Constant(-1.5)).unwrap();
        assert_eq!(r.shape(), &[3, 2]);
        assert_eq!(r.to_f64_vec(), vec![-1.5, -1.5, 2.0, -1.5, 4.0, -1.5]);
        let empty = Tensor::from_f32(vec![0], vec![]).unwrap();
        assert!(pad(&empty, &[1, 0], PadMode::Edge).is_err());
        assert_eq!(
            pad(&empty, &[1, 0], PadMode::Constant(2.0))
                .unwrap()
                .to_f64_vec(),
            vec![2.0]
        );
    }

    #[test]
    fn tile_and_range() {
        let x = iota(&[1, 2]);
        let t = tile(&x, &[2, 2]).unwrap();
        assert_eq!(t.shape(), &[2, 4]);
        assert_eq!(t.to_i64_vec(), vec![0, 1, 0, 1, 0, 1, 0, 1]);
        assert_eq!(tile(&x, &[0, 1]).unwrap().shape(), &[0, 2]);
        assert!(tile(&x, &[1]).is_err());

        assert_eq!(
            range(0.0, 5.0, 2.0, DType::I32).unwrap().to_i64_vec(),
            vec![0, 2, 4]
        );
        assert_eq!(
            range(5.0, 0.0, -2.0, DType::I64).unwrap().to_i64_vec(),
            vec![5, 3, 1]
        );
        assert_eq!(
            range(0.0, 1.0, 0.25, DType::F32).unwrap().to_f64_vec(),
            vec![0.0, 0.25, 0.5, 0.75]
        );
        assert_eq!(range(3.0, 1.0, 1.0, DType::F32).unwrap().shape(), &[0]);
        assert!(range(0.0, 1.0, 0.0, DType::F32).is_err());
        assert!(range(0.0, 1e30, 1.0, DType::F32).is_err());
    }
}
