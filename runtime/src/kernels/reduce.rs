//! Reductions over a set of axes, and `argmax`/`argmin` along one axis.

use std::cmp::Ordering;

use super::shape::transpose_offsets;
use super::{invalid, normalize_axis, unsupported, Compute, KResult};
use crate::{DType, Tensor, TensorData};

/// A reduction (see [`reduce`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Sum (0 when empty).
    Sum,
    /// Arithmetic mean (NaN when empty; integers truncate).
    Mean,
    /// Maximum; NaN propagates (`-inf`, or the dtype minimum, when empty).
    Max,
    /// Minimum; NaN propagates (`+inf`, or the dtype maximum, when empty).
    Min,
    /// Product (1 when empty).
    Prod,
    /// Sum of squares.
    SumSquare,
    /// Sum of absolute values.
    L1,
    /// Square root of the sum of squares.
    L2,
    /// `log(sum(exp(x)))`, computed stably (`-inf` when empty).
    LogSumExp,
}

/// Reduces `x` over `axes` (negative counts from the end; empty means every
/// axis; a repeated axis is an error). With `keepdims` reduced dims stay as
/// size 1. Floats accumulate in order in their [`Compute`] precision
/// (`f32` for `f32` and narrower); integers wrap at their width (`L2` and
/// `LogSumExp` go through `f64` and truncate).
pub fn reduce(op: ReduceOp, x: &Tensor, axes: &[i64], keepdims: bool) -> KResult<Tensor> {
    let dtype = x.dtype();
    if !(dtype.is_float() || dtype.is_int()) {
        return Err(unsupported("reduce", format!("{op:?} on {dtype}")));
    }
    let rank = x.rank();
    let mut reduced = vec![axes.is_empty(); rank];
    for &a in axes {
        let a = normalize_axis("reduce", a, rank)?;
        if std::mem::replace(&mut reduced[a], true) {
            return Err(invalid(
                "reduce",
                format!("axis {a} appears twice in {axes:?}"),
            ));
        }
    }
    let kept: Vec<usize> = (0..rank).filter(|&d| !reduced[d]).collect();
    let gone: Vec<usize> = (0..rank).filter(|&d| reduced[d]).collect();
    let shape: Vec<usize> = if keepdims {
        (0..rank)
            .map(|d| if reduced[d] { 1 } else { x.shape()[d] })
            .collect()
    } else {
        kept.iter().map(|&d| x.shape()[d]).collect()
    };
    let groups: usize = kept.iter().map(|&d| x.shape()[d]).product();
    let group_len: usize = gone.iter().map(|&d| x.shape()[d]).product();
    let perm: Vec<usize> = kept.iter().chain(&gone).copied().collect();
    let offsets = transpose_offsets(x.shape(), &perm);
    let group = |g: usize| &offsets[g * group_len..(g + 1) * group_len];
    let data = if dtype.is_float() || matches!(op, ReduceOp::L2 | ReduceOp::LogSumExp) {
        let v = x.to_f64_vec();
        let c = if dtype.is_float() {
            Compute::of(dtype)
        } else {
            Compute::of(DType::F64)
        };
        let r: Vec<f64> = (0..groups)
            .map(|g| float_reduce(op, c, group(g).iter().map(|&o| v[o]), group_len))
            .collect();
        TensorData::from_f64_slice(dtype, &r)
    } else {
        let v = x.to_i128_vec();
        let r = (0..groups)
            .map(|g| int_reduce(op, dtype, group(g).iter().map(|&o| v[o]), group_len))
            .collect::<KResult<Vec<i128>>>()?;
        TensorData::from_i128_slice(dtype, &r)
    };
    Ok(Tensor::from_parts(shape, data))
}

fn float_reduce(
    op: ReduceOp,
    c: Compute,
    vals: impl Iterator<Item = f64> + Clone,
    n: usize,
) -> f64 {
    match op {
        ReduceOp::Sum => c.sum(vals),
        ReduceOp::Mean => c.round(c.sum(vals) / n as f64),
        ReduceOp::Max => vals.fold(f64::NEG_INFINITY, |a, b| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        }),
        ReduceOp::Min => vals.fold(f64::INFINITY, |a, b| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.min(b)
            }
        }),
        ReduceOp::Prod => vals.fold(1.0, |a, v| c.round(a * v)),
        ReduceOp::SumSquare => c.sum(vals.map(|v| c.round(v * v))),
        ReduceOp::L1 => c.sum(vals.map(f64::abs)),
        ReduceOp::L2 => c.round(float_reduce(ReduceOp::SumSquare, c, vals, n).sqrt()),
        ReduceOp::LogSumExp => {
            let m = float_reduce(ReduceOp::Max, c, vals.clone(), n);
            if !m.is_finite() {
                return m;
            }
            let sum = c.sum(vals.map(|v| c.round(c.round(v - m).exp())));
            c.round(m + c.round(sum.ln()))
        }
    }
}

fn int_reduce(
    op: ReduceOp,
    dtype: DType,
    vals: impl Iterator<Item = i128>,
    n: usize,
) -> KResult<i128> {
    // Every value fits i128 exactly; results keep their low bits (wrapping
    // at the dtype's width), except the mean, which divides the exact sum.
    let (lo, hi) = dtype.int_range().unwrap_or((i128::MIN, i128::MAX));
    Ok(match op {
        ReduceOp::Sum => vals.fold(0i128, i128::wrapping_add),
        ReduceOp::Mean => {
            if n == 0 {
                return Err(invalid("reduce", "integer mean over an empty set"));
            }
            vals.fold(0i128, i128::wrapping_add).wrapping_div(n as i128)
        }
        ReduceOp::Max => vals.fold(lo, i128::max),
        ReduceOp::Min => vals.fold(hi, i128::min),
        ReduceOp::Prod => vals.fold(1i128, i128::wrapping_mul),
        ReduceOp::SumSquare => vals.fold(0i128, |a, v| a.wrapping_add(v.wrapping_mul(v))),
        ReduceOp::L1 => vals.fold(0i128, |a, v| a.wrapping_add(v.wrapping_abs())),
        // `reduce` sends these through the f64 path.
        ReduceOp::L2 | ReduceOp::LogSumExp => {
            return Err(unsupported(
                "reduce",
                format!("{op:?} in integer arithmetic"),
            ))
        }
    })
}

/// Index (`i64`) of the largest element along `axis`; NaN counts as
/// largest (NumPy). Ties pick the first index, or the last with
/// `select_last_index`.
pub fn argmax(x: &Tensor, axis: i64, keepdims: bool, select_last_index: bool) -> KResult<Tensor> {
    arg_extreme(
        "argmax",
        x,
        axis,
        keepdims,
        select_last_index,
        Ordering::Greater,
    )
}

/// Index (`i64`) of the smallest element along `axis`; NaN counts as
/// smallest (NumPy). Ties pick the first index, or the last with
/// `select_last_index`.
pub fn argmin(x: &Tensor, axis: i64, keepdims: bool, select_last_index: bool) -> KResult<Tensor> {
    arg_extreme(
        "argmin",
        x,
        axis,
        keepdims,
        select_last_index,
        Ordering::Less,
    )
}

fn arg_extreme(
    op: &'static str,
    x: &Tensor,
    axis: i64,
    keepdims: bool,
    last: bool,
    want: Ordering,
) -> KResult<Tensor> {
    let axis = normalize_axis(op, axis, x.rank())?;
    let dim = x.shape()[axis];
    if dim == 0 {
        return Err(invalid(
            op,
            format!("axis {axis} of {:?} is empty", x.shape()),
        ));
    }
    let outer: usize = x.shape()[..axis].iter().product();
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let mut shape = x.shape().to_vec();
    if keepdims {
        shape[axis] = 1;
    } else {
        shape.remove(axis);
    }
    let r = if x.dtype().is_float() {
        // NaN wins in either direction: order it beyond the wanted end.
        let v = x.to_f64_vec();
        let cmp = |a: f64, b: f64| match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => want,
            (false, true) => want.reverse(),
            _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
        };
        arg_search(&v, outer, dim, inner, last, want, cmp)
    } else {
        let v = x.to_i128_vec();
        arg_search(&v, outer, dim, inner, last, want, |a: i128, b: i128| {
            a.cmp(&b)
        })
    };
    Ok(Tensor::from_parts(shape, TensorData::I64(r)))
}

fn arg_search<T: Copy>(
    v: &[T],
    outer: usize,
    dim: usize,
    inner: usize,
    last: bool,
    want: Ordering,
    cmp: impl Fn(T, T) -> Ordering,
) -> Vec<i64> {
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| v[(o * dim + k) * inner + i];
            let mut best = 0usize;
            for k in 1..dim {
                let c = cmp(at(k), at(best));
                if c == want || (last && c == Ordering::Equal) {
                    best = k;
                }
            }
            out.push(best as i64);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KernelError;

    fn x23() -> Tensor {
        Tensor::from_f64(vec![2, 3], vec![1.0, -2.0, 3.0, 4.0, 5.0, -6.0]).unwrap()
    }

    #[test]
    fn reduce_axes_and_keepdims() {
        let x = x23();
        let s = reduce(ReduceOp::Sum, &x, &[1], false).unwrap();
        assert_eq!(s.shape(), &[2]);
        assert_eq!(s.to_f64_vec(), vec![2.0, 3.0]);
        let s = reduce(ReduceOp::Sum, &x, &[-2], true).unwrap();
        assert_eq!(s.shape(), &[1, 3]);
        assert_eq!(s.to_f64_vec(), vec![5.0, 3.0, -3.0]);
        let all = reduce(ReduceOp::Max, &x, &[], false).unwrap();
        assert_eq!(all.shape(), &[] as &[usize]);
        assert_eq!(all.to_f64_vec(), vec![5.0]);
        let allk = reduce(ReduceOp::Min, &x, &[], true).unwrap();
        assert_eq!(allk.shape(), &[1, 1]);
        assert_eq!(allk.to_f64_vec(), vec![-6.0]);
        assert!(matches!(
            reduce(ReduceOp::Sum, &x, &[1, -1], false),
            Err(KernelError::InvalidArgument { .. })
        ));
        assert!(reduce(ReduceOp::Sum, &x, &[2], false).is_err());
    }

    #[test]
    fn reduce_ops() {
        let x = x23();
        let r = |op| reduce(op, &x, &[1], false).unwrap().to_f64_vec();
        assert_eq!(r(ReduceOp::Mean), vec![2.0 / 3.0, 1.0]);
        assert_eq!(r(ReduceOp::Prod), vec![-6.0, -120.0]);
        assert_eq!(r(ReduceOp::SumSquare), vec![14.0, 77.0]);
        assert_eq!(r(ReduceOp::L1), vec![6.0, 15.0]);
        assert_eq!(r(ReduceOp::L2), vec![14f64.sqrt(), 77f64.sqrt()]);
        let lse = r(ReduceOp::LogSumExp);
        let want0 = (1f64.exp() + (-2f64).exp() + 3f64.exp()).ln();
        assert!((lse[0] - want0).abs() < 1e-12);
        let big = Tensor::from_f64(vec![2], vec![1000.0, 1000.0]).unwrap();
        let l = reduce(ReduceOp::LogSumExp, &big, &[], false)
            .unwrap()
            .to_f64_vec();
        assert!((l[0] - (1000.0 + 2f64.ln())).abs() < 1e-9);
        let nan = Tensor::from_f32(vec![2], vec![1.0, f32::NAN]).unwrap();
        assert!(reduce(ReduceOp::Max, &nan, &[], false)
            .unwrap()
            .to_f64_vec()[0]
            .is_nan());
    }

    #[test]
    fn floats_reduce_in_their_compute_precision() {
        // x² of 3.4e38 overflows f32: infinite for f32 (as in graph mode
        // and the ONNX reference), finite for f64.
        let l2 = |x: Tensor| reduce(ReduceOp::L2, &x, &[], false).unwrap().to_f64_vec()[0];
        assert_eq!(
            l2(Tensor::from_f32(vec![2], vec![3.4e38, 0.0]).unwrap()),
            f64::INFINITY
        );
        assert_eq!(
            l2(Tensor::from_f64(vec![2], vec![3.4e38, 0.0]).unwrap()),
            3.4e38
        );
        // The sum runs in order in f32: 2^24 + 1 + 1 stays 2^24.
        let s = Tensor::from_f32(vec![3], vec![16_777_216.0, 1.0, 1.0]).unwrap();
        let sum = reduce(ReduceOp::Sum, &s, &[], false).unwrap().to_f64_vec();
        assert_eq!(sum, vec![16_777_216.0]);
    }

    #[test]
    fn reduce_empty_and_ints() {
        let e = Tensor::from_f32(vec![2, 0], vec![]).unwrap();
        assert_eq!(
            reduce(ReduceOp::Sum, &e, &[1], false).unwrap().to_f64_vec(),
            vec![0.0, 0.0]
        );
        assert_eq!(
            reduce(ReduceOp::Prod, &e, &[1], false)
                .unwrap()
                .to_f64_vec(),
            vec![1.0, 1.0]
        );
        assert_eq!(
            reduce(ReduceOp::Max, &e, &[1], false).unwrap().to_f64_vec(),
            vec![f64::NEG_INFINITY; 2]
        );
        assert_eq!(
            reduce(ReduceOp::Sum, &e, &[0], false).unwrap().shape(),
            &[0]
        );
        let i = Tensor::from_i32(vec![2, 2], vec![7, -2, i32::MAX, 1]).unwrap();
        assert_eq!(
            reduce(ReduceOp::Sum, &i, &[1], false).unwrap().to_i64_vec(),
            vec![5, i32::MIN as i64]
        );
        assert_eq!(
            reduce(ReduceOp::Mean, &i, &[0], false)
                .unwrap()
                .to_i64_vec(),
            vec![(7 + i32::MAX as i64) / 2, 0]
        );
        assert_eq!(
            reduce(ReduceOp::L2, &i, &[1], false).unwrap().to_i64_vec()[0],
            7
        );
        let ei = Tensor::from_i8(vec![0], vec![]).unwrap();
        assert_eq!(
            reduce(ReduceOp::Max, &ei, &[], false).unwrap().to_i64_vec(),
            vec![-128]
        );
        assert!(reduce(ReduceOp::Mean, &ei, &[], false).is_err());
        let b = Tensor::from_bool(vec![1], vec![true]).unwrap();
        assert!(reduce(ReduceOp::Sum, &b, &[], false).is_err());
    }

    #[test]
    fn arg_reductions() {
        let x = Tensor::from_f32(vec![2, 3], vec![1.0, 3.0, 3.0, f32::NAN, 0.0, f32::NAN]).unwrap();
        let a = argmax(&x, 1, false, false).unwrap();
        assert_eq!(a.dtype(), DType::I64);
        assert_eq!(a.to_i64_vec(), vec![1, 0]);
        assert_eq!(argmax(&x, -1, true, true).unwrap().to_i64_vec(), vec![2, 2]);
        assert_eq!(argmax(&x, -1, true, true).unwrap().shape(), &[2, 1]);
        assert_eq!(
            argmin(&x, 1, false, false).unwrap().to_i64_vec(),
            vec![0, 0]
        );
        assert_eq!(
            argmin(&x, 0, false, false).unwrap().to_i64_vec(),
            vec![1, 1, 1]
        );
        let i = Tensor::from_i64(vec![4], vec![2, 9, 9, -1]).unwrap();
        assert_eq!(argmax(&i, 0, false, false).unwrap().to_i64_vec(), vec![1]);
        assert_eq!(argmax(&i, 0, false, true).unwrap().to_i64_vec(), vec![2]);
        assert_eq!(argmin(&i, 0, false, false).unwrap().to_i64_vec(), vec![3]);
        let e = Tensor::from_f32(vec![0], vec![]).unwrap();
        assert!(argmax(&e, 0, false, false).is_err());
        assert!(argmax(&i, 1, false, false).is_err());
    }
}
