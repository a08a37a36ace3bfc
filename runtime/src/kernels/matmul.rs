//! Matrix products: NumPy `matmul` and ONNX `Gemm`, on a cache-blocked
//! i-k-j kernel shared with the convolution.

use std::borrow::Cow;

use super::shape::{broadcast_offsets, broadcast_shapes, broadcast_to};
use super::{invalid, require_same_dtype, shape_mismatch, unsupported, Compute, KResult};
use crate::tensor::checked_numel;
use crate::{DType, Tensor, TensorData};

/// NumPy `matmul`: a 1-D operand gains a unit dim (removed again from the
/// result), leading dims are batch dims and broadcast. `f16`/`bf16`
/// accumulate in `f32`; integers accumulate in `i64`, wrapping.
pub fn matmul(a: &Tensor, b: &Tensor) -> KResult<Tensor> {
    let (shape, acc) = matmul_acc(a, b)?;
    Ok(Tensor::from_parts(shape, acc.into_data(a.dtype())))
}

/// ONNX `Gemm`: `alpha * op(a) * op(b) + beta * c`, where `op` transposes
/// when asked, `a` and `b` are 2-D and `c` broadcasts to `[M, N]`. As in
/// ONNX Runtime, `c` is not read when `beta == 0` (its shape is still
/// checked). Integer dtypes need integral `alpha` and `beta`.
pub fn gemm(
    a: &Tensor,
    b: &Tensor,
    c: Option<&Tensor>,
    alpha: f64,
    beta: f64,
    trans_a: bool,
    trans_b: bool,
) -> KResult<Tensor> {
    if a.rank() != 2 || b.rank() != 2 {
        return Err(shape_mismatch(
            "gemm",
            format!(
                "operands must be 2-D, got {:?} and {:?}",
                a.shape(),
                b.shape()
            ),
        ));
    }
    let a = if trans_a {
        Cow::Owned(super::transpose(a, &[1, 0])?)
    } else {
        Cow::Borrowed(a)
    };
    let b = if trans_b {
        Cow::Owned(super::transpose(b, &[1, 0])?)
    } else {
        Cow::Borrowed(b)
    };
    let (shape, acc) = matmul_acc(&a, &b)?;
    let dtype = a.dtype();
    let c = match c {
        Some(c) => {
            require_same_dtype("gemm", dtype, c.dtype())?;
            let c = broadcast_to(c, &shape).map_err(|_| {
                shape_mismatch(
                    "gemm",
                    format!("C of shape {:?} does not broadcast to {shape:?}", c.shape()),
                )
            })?;
            (beta != 0.0).then_some(c)
        }
        None => None,
    };
    let data = match acc {
        Acc::I64(ab) => {
            if alpha.fract() != 0.0 || beta.fract() != 0.0 {
                return Err(invalid(
                    "gemm",
                    format!("integer gemm needs integral alpha and beta, got {alpha} and {beta}"),
                ));
            }
            let (alpha, beta) = (alpha as i64, beta as i64);
            let mut y: Vec<i64> = ab.into_iter().map(|v| v.wrapping_mul(alpha)).collect();
            if let Some(c) = c {
                for (y, c) in y.iter_mut().zip(c.to_i64_vec()) {
                    *y = y.wrapping_add(c.wrapping_mul(beta));
                }
            }
            TensorData::from_i64_slice(dtype, &y)
        }
        float => {
            let r = Compute::of(dtype);
            let (alpha, beta) = (r.round(alpha), r.round(beta));
            let mut y: Vec<f64> = float
                .into_f64()
                .into_iter()
                .map(|v| r.round(alpha * v))
                .collect();
            if let Some(c) = c {
                for (y, c) in y.iter_mut().zip(c.to_f64_vec()) {
                    *y = r.round(*y + r.round(beta * c));
                }
            }
            TensorData::from_f64_slice(dtype, &y)
        }
    };
    Ok(Tensor::from_parts(shape, data))
}

/// Accumulator buffers of the matrix kernels, before the final rounding.
pub(crate) enum Acc {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I64(Vec<i64>),
}

impl Acc {
    /// Rounds once to `dtype` (the operands' dtype).
    pub(crate) fn into_data(self, dtype: DType) -> TensorData {
        match self {
            Acc::F32(v) => TensorData::from_f32_vec(dtype, v),
            Acc::F64(v) => TensorData::from_f64_slice(dtype, &v),
            Acc::I64(v) => TensorData::from_i64_slice(dtype, &v),
        }
    }

    fn into_f64(self) -> Vec<f64> {
        match self {
            Acc::F32(v) => v.into_iter().map(f64::from).collect(),
            Acc::F64(v) => v,
            Acc::I64(v) => v.into_iter().map(|x| x as f64).collect(),
        }
    }
}

/// The matmul result shape and unrounded values.
fn matmul_acc(a: &Tensor, b: &Tensor) -> KResult<(Vec<usize>, Acc)> {
    require_same_dtype("matmul", a.dtype(), b.dtype())?;
    if a.rank() == 0 || b.rank() == 0 {
        return Err(shape_mismatch("matmul", "operands must have rank >= 1"));
    }
    let mut ash = a.shape().to_vec();
    let mut bsh = b.shape().to_vec();
    if ash.len() == 1 {
        ash.insert(0, 1);
    }
    if bsh.len() == 1 {
        bsh.push(1);
    }
    let (m, k) = (ash[ash.len() - 2], ash[ash.len() - 1]);
    let (kb, n) = (bsh[bsh.len() - 2], bsh[bsh.len() - 1]);
    if k != kb {
        return Err(shape_mismatch(
            "matmul",
            format!("contraction dims differ: {:?} x {:?}", a.shape(), b.shape()),
        ));
    }
    let (abatch, bbatch) = (&ash[..ash.len() - 2], &bsh[..bsh.len() - 2]);
    let batch = broadcast_shapes(abatch, bbatch).map_err(|_| {
        shape_mismatch(
            "matmul",
            format!(
                "batch dims of {:?} and {:?} do not broadcast",
                a.shape(),
                b.shape()
            ),
        )
    })?;
    let mut out_shape = batch.clone();
    if a.rank() > 1 {
        out_shape.push(m);
    }
    if b.rank() > 1 {
        out_shape.push(n);
    }
    checked_numel("matmul", &out_shape)?;
    checked_numel("matmul", &[checked_numel("matmul", &batch)?, m, n])?;
    let a_off = broadcast_offsets(abatch, &batch);
    let b_off = broadcast_offsets(bbatch, &batch);
    let dims = Dims { m, k, n };
    let acc = match (a.data(), b.data()) {
        (TensorData::F64(x), TensorData::F64(y)) => Acc::F64(batched(x, y, &a_off, &b_off, dims)),
        (TensorData::F32(x), TensorData::F32(y)) => Acc::F32(batched(x, y, &a_off, &b_off, dims)),
        (x, y) if a.dtype().is_float() => Acc::F32(batched(
            &x.to_f32_vec(),
            &y.to_f32_vec(),
            &a_off,
            &b_off,
            dims,
        )),
        (x, y) if a.dtype().is_int() => Acc::I64(batched(
            &x.to_i64_vec(),
            &y.to_i64_vec(),
            &a_off,
            &b_off,
            dims,
        )),
        _ => return Err(unsupported("matmul", format!("dtype {}", a.dtype()))),
    };
    Ok((out_shape, acc))
}

#[derive(Clone, Copy)]
struct Dims {
    m: usize,
    k: usize,
    n: usize,
}

fn batched<T: MatElem>(a: &[T], b: &[T], a_off: &[usize], b_off: &[usize], d: Dims) -> Vec<T> {
    let (mk, kn, mn) = (d.m * d.k, d.k * d.n, d.m * d.n);
    let mut out = vec![T::ZERO; a_off.len() * mn];
    if mn == 0 {
        return out;
    }
    for ((c, &ao), &bo) in out.chunks_exact_mut(mn).zip(a_off).zip(b_off) {
        gemm_accumulate(d.m, d.k, d.n, &a[ao * mk..][..mk], &b[bo * kn..][..kn], c);
    }
    out
}

/// An element the blocked kernel can multiply and accumulate.
pub(crate) trait MatElem: Copy {
    const ZERO: Self;
    const ONE: Self;
    fn mul_add(acc: Self, a: Self, b: Self) -> Self;
}

impl MatElem for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    /// One rounding, as graph mode's `fma`: `-3.4e38 * 3.4e38` added to
    /// `+inf` stays `+inf` instead of meeting it as `-inf` (NaN).
    #[inline(always)]
    fn mul_add(acc: f32, a: f32, b: f32) -> f32 {
        a.mul_add(b, acc)
    }
}

impl MatElem for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    #[inline(always)]
    fn mul_add(acc: f64, a: f64, b: f64) -> f64 {
        a.mul_add(b, acc)
    }
}

impl MatElem for i64 {
    const ZERO: i64 = 0;
    const ONE: i64 = 1;
    #[inline(always)]
    fn mul_add(acc: i64, a: i64, b: i64) -> i64 {
        acc.wrapping_add(a.wrapping_mul(b))
    }
}

/// Columns of `b` per block: with `K_BLOCK` rows this keeps the block of
/// `b` in L2 while every row of `a` streams over it.
const N_BLOCK: usize = 512;
/// Rows of `b` (depth) per block.
const K_BLOCK: usize = 128;

/// `c += a * b` for row-major `a: [m, k]`, `b: [k, n]`, `c: [m, n]`.
///
/// i-k-j order so the innermost loop is a contiguous axpy over a row of `b`
/// (vectorizes); blocked over `k` and `j` for cache reuse. For each output
/// element the sum still runs over `k` in order, so results equal the naive
/// triple loop bit for bit. Floats accumulate with a fused multiply-add,
/// as graph mode's contraction kernels do: in the CPU's FMA instructions
/// where it has them (checked at run time), else in the exact software
/// `fma` (slow, same bits).
pub(crate) fn gemm_accumulate<T: MatElem>(
    m: usize,
    k: usize,
    n: usize,
    a: &[T],
    b: &[T],
    c: &mut [T],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has the features this copy is compiled for.
        unsafe { gemm_accumulate_fma(m, k, n, a, b, c) };
        return;
    }
    gemm_blocked(m, k, n, a, b, c);
}

/// [`gemm_blocked`] compiled for AVX2 and FMA, so that `mul_add` becomes
/// one vector instruction instead of a call.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn gemm_accumulate_fma<T: MatElem>(
    m: usize,
    k: usize,
    n: usize,
    a: &[T],
    b: &[T],
    c: &mut [T],
) {
    gemm_blocked(m, k, n, a, b, c);
}

#[inline(always)]
fn gemm_blocked<T: MatElem>(m: usize, k: usize, n: usize, a: &[T], b: &[T], c: &mut [T]) {
    debug_assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    for j0 in (0..n).step_by(N_BLOCK) {
        let jw = N_BLOCK.min(n - j0);
        for k0 in (0..k).step_by(K_BLOCK) {
            let kw = K_BLOCK.min(k - k0);
            for i in 0..m {
                let crow = &mut c[i * n + j0..][..jw];
                let arow = &a[i * k + k0..][..kw];
                for (kk, &aik) in arow.iter().enumerate() {
                    let brow = &b[(k0 + kk) * n + j0..][..jw];
                    for (cv, &bv) in crow.iter_mut().zip(brow) {
                        *cv = T::mul_add(*cv, aik, bv);
                    }
                }
            }
        }
    }
}

/// The determinant of each square matrix in the last two dimensions of
/// `x` (`[..., M, M] -> [...]`, ONNX's `Det`): LU decomposition with
/// partial pivoting in `f64`, rounded to `x`'s float type. An empty matrix
/// (`M = 0`) has determinant 1.
pub fn det(x: &Tensor) -> KResult<Tensor> {
    if !x.dtype().is_float() || x.dtype().is_narrow() {
        return Err(unsupported("det", format!("dtype {}", x.dtype())));
    }
    let shape = x.shape();
    let rank = shape.len();
    if rank < 2 || shape[rank - 1] != shape[rank - 2] {
        return Err(shape_mismatch(
            "det",
            format!("expected square matrices [..., M, M], got {shape:?}"),
        ));
    }
    let m = shape[rank - 1];
    let values = x.to_f64_vec();
    let batch = checked_numel("det", &shape[..rank - 2])?;
    let mut out = Vec::with_capacity(batch);
    for b in 0..batch {
        let mut a = values[b * m * m..(b + 1) * m * m].to_vec();
        out.push(lu_det(&mut a, m));
    }
    Ok(Tensor::from_f64_vec(x.dtype(), &shape[..rank - 2], &out))
}

/// The determinant of the `m x m` row-major matrix `a` (overwritten by its
/// LU factors).
fn lu_det(a: &mut [f64], m: usize) -> f64 {
    let mut det = 1.0;
    for c in 0..m {
        // The pivot: the largest magnitude in column c at or below row c.
        let p = (c..m)
            .max_by(|&i, &j| a[i * m + c].abs().total_cmp(&a[j * m + c].abs()))
            .unwrap_or(c);
        if a[p * m + c] == 0.0 {
            return 0.0;
        }
        if p != c {
            for k in 0..m {
                a.swap(p * m + k, c * m + k);
            }
            det = -det;
        }
        let pivot = a[c * m + c];
        det *= pivot;
        for r in c + 1..m {
            let f = a[r * m + c] / pivot;
            for k in c..m {
                a[r * m + k] -= f * a[c * m + k];
            }
        }
    }
    det
}

#[cfg(test)]
mod tests {

    #[test]
    fn det_pivots_and_batches() {
        // A zero first pivot (a row swap flips the sign), a singular
        // matrix, a batch of two.
        let x = Tensor::from_f64_vec(
            DType::F32,
            &[3, 2, 2],
            &[0.0, 2.0, 3.0, 4.0, 1.0, 2.0, 2.0, 4.0, 1.0, 2.0, 3.0, 4.0],
        );
        let d = det(&x).expect("det");
        assert_eq!(d.shape(), &[3]);
        assert_eq!(d.to_f64_vec(), [-6.0, 0.0, -2.0]);
        let x = Tensor::from_f64_vec(
            DType::F64,
            &[3, 3],
            &[2.0, -1.0, 0.0, -1.0, 2.0, -1.0, 0.0, -1.0, 2.0],
        );
        let d = det(&x).expect("det").to_f64_vec()[0];
        assert!((d - 4.0).abs() < 1e-12, "{d}");
        assert!(det(&Tensor::from_f64_vec(DType::F32, &[2, 3], &[0.0; 6])).is_err());
    }

    use super::*;
    use proptest::prelude::*;

    fn naive(m: usize, k: usize, n: usize, a: &[f64], b: &[f64]) -> Vec<f64> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                for p in 0..k {
                    c[i * n + j] += a[i * k + p] * b[p * n + j];
                }
            }
        }
        c
    }

    fn t64(shape: &[usize], v: Vec<f64>) -> Tensor {
        Tensor::from_f64(shape.to_vec(), v).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn blocked_matches_naive(m in 1usize..40, k in 0usize..300, n in 1usize..600, seed in 0u64..1000) {
            let gen = |len: usize, s: u64| -> Vec<f64> {
                (0..len).map(|i| (((i as u64 * 2654435761 + s * 97) % 1000) as f64 - 500.0) / 64.0).collect()
            };
            let a = gen(m * k, seed);
            let b = gen(k * n, seed + 1);
            let want = naive(m, k, n, &a, &b);
            let got = matmul(&t64(&[m, k], a), &t64(&[k, n], b)).unwrap();
            prop_assert_eq!(got.shape(), &[m, n]);
            prop_assert_eq!(got.to_f64_vec(), want);
        }
    }

    #[test]
    fn vector_promotion() {
        let a = t64(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let v = t64(&[3], vec![1.0, 0.0, -1.0]);
        let mv = matmul(&a, &v).unwrap();
        assert_eq!(mv.shape(), &[2]);
        assert_eq!(mv.to_f64_vec(), vec![-2.0, -2.0]);
        let w = t64(&[2], vec![1.0, 1.0]);
        let vm = matmul(&w, &a).unwrap();
        assert_eq!(vm.shape(), &[3]);
        assert_eq!(vm.to_f64_vec(), vec![5.0, 7.0, 9.0]);
        let dot = matmul(&v, &v).unwrap();
        assert_eq!(dot.shape(), &[] as &[usize]);
        assert_eq!(dot.to_f64_vec(), vec![2.0]);
    }

    #[test]
    fn batch_broadcast() {
        // [2,1,2,2] x [3,2,1] -> [2,3,2,1]
        let a = t64(&[2, 1, 2, 2], (0..8).map(f64::from).collect());
        let b = t64(&[3, 2, 1], vec![1.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
        let r = matmul(&a, &b).unwrap();
        assert_eq!(r.shape(), &[2, 3, 2, 1]);
        assert_eq!(
            r.to_f64_vec(),
            vec![1.0, 5.0, 0.0, 2.0, 1.0, 3.0, 9.0, 13.0, 4.0, 6.0, 5.0, 7.0]
        );
        assert!(matmul(
            &t64(&[2, 2, 3], vec![0.0; 12]),
            &t64(&[3, 3, 1], vec![0.0; 9])
        )
        .is_err());
        assert!(matmul(&t64(&[2, 3], vec![0.0; 6]), &t64(&[2, 3], vec![0.0; 6])).is_err());
        assert!(matmul(&Tensor::scalar_f64(DType::F64, 1.0), &t64(&[1], vec![1.0])).is_err());
    }

    #[test]
    fn dtypes() {
        let a = Tensor::from_i32(vec![1, 2], vec![i32::MAX, 2]).unwrap();
        let b = Tensor::from_i32(vec![2, 1], vec![2, 3]).unwrap();
        assert_eq!(matmul(&a, &b).unwrap().to_i64_vec(), vec![4]); // wraps: -2 + 6
        let h = Tensor::from_f64_vec(DType::F16, &[1, 2], &[0.1, 0.2]);
        let g = Tensor::from_f64_vec(DType::F16, &[2, 1], &[1.0, 1.0]);
        let r = matmul(&h, &g).unwrap();
        assert_eq!(r.dtype(), DType::F16);
        let want = half::f16::from_f32(
            half::f16::from_f64(0.1).to_f32() + half::f16::from_f64(0.2).to_f32(),
        );
        assert_eq!(r.data(), &TensorData::F16(vec![want]));
        let bools = Tensor::from_bool(vec![1, 1], vec![true]).unwrap();
        assert!(matmul(&bools, &bools).is_err());
        let f = Tensor::from_f32(vec![1, 1], vec![1.0]).unwrap();
        assert!(matmul(&f, &t64(&[1, 1], vec![1.0])).is_err());
    }

    #[test]
    fn gemm_semantics() {
        let a = t64(&[3, 2], vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]); // A^T of [[1,2,3],[4,5,6]]
        let b = t64(&[2, 3], vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0]); // B^T of [[1,0],[0,1],[1,0]]
        let c = t64(&[2], vec![10.0, 20.0]);
        let y = gemm(&a, &b, Some(&c), 2.0, 0.5, true, true).unwrap();
        assert_eq!(y.shape(), &[2, 2]);
        // A*B = [[4,2],[10,5]]
        assert_eq!(y.to_f64_vec(), vec![13.0, 14.0, 25.0, 20.0]);
        let bad_c = t64(&[3], vec![0.0; 3]);
        assert!(gemm(&a, &b, Some(&bad_c), 1.0, 1.0, true, true).is_err());
        let inf_c = t64(&[1], vec![f64::INFINITY]);
        let y0 = gemm(&a, &b, Some(&inf_c), 1.0, 0.0, true, true).unwrap();
        assert_eq!(y0.to_f64_vec(), vec![4.0, 2.0, 10.0, 5.0]);
        assert!(gemm(&a, &a, None, 1.0, 1.0, false, false).is_err());
        let ia = Tensor::from_i64(vec![1, 1], vec![3]).unwrap();
        assert_eq!(
            gemm(&ia, &ia, Some(&ia), 2.0, 1.0, false, false)
                .unwrap()
                .to_i64_vec(),
            vec![21]
        );
        assert!(gemm(&ia, &ia, None, 0.5, 1.0, false, false).is_err());
    }

    #[test]
    fn f32_products_round_once_with_their_sum() {
        // [inf, -3.4e38] . [1, 3.4e38]: the second product overflows f32 on
        // its own; added with one rounding (graph mode's fma) it leaves
        // +inf, rounded first it would meet +inf as -inf (NaN).
        let a = Tensor::from_f32(vec![1, 2], vec![f32::INFINITY, -3.4e38]).unwrap();
        let b = Tensor::from_f32(vec![2, 1], vec![1.0, 3.4e38]).unwrap();
        assert_eq!(matmul(&a, &b).unwrap().to_f64_vec(), vec![f64::INFINITY]);
    }
}
