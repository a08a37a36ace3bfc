//! ONNX `DFT`: the discrete Fourier transform along one axis of a signal
//! whose last dimension holds real (1) or complex (2: real, imaginary)
//! values, forward, inverse, one-sided (real input) and inverse one-sided
//! (Hermitian input to a real signal), as the ONNX reference (NumPy's FFTs)
//! computes it, in `f64` by the direct O(n^2) sum.

use super::{invalid, require_float, shape_mismatch, KResult};
use crate::tensor::checked_numel;
use crate::{Tensor, TensorData};

const OP: &str = "dft";

/// The transform of `x: [..., 1 | 2]` along `axis` (not the last), of
/// length `length` (the input zero-padded or truncated to it; by default
/// the axis size, or `2 * (size - 1)` for an inverse one-sided transform).
pub fn dft(
    x: &Tensor,
    axis: i64,
    length: Option<i64>,
    inverse: bool,
    onesided: bool,
) -> KResult<Tensor> {
    require_float(OP, x.dtype())?;
    let rank = x.rank();
    let comps = *x.shape().last().unwrap_or(&0);
    if rank < 2 || !(comps == 1 || comps == 2) {
        return Err(shape_mismatch(
            OP,
            format!("input {:?} must end in 1 (real) or 2 (complex)", x.shape()),
        ));
    }
    let r = rank as i64;
    let axis = if axis < 0 { axis + r } else { axis };
    let axis = usize::try_from(axis)
        .ok()
        .filter(|&a| a < rank - 1)
        .ok_or_else(|| {
            invalid(
                OP,
                format!("axis {axis} is not a signal axis of {:?}", x.shape()),
            )
        })?;
    let size = x.shape()[axis];
    let n = match length {
        Some(l) => usize::try_from(l)
            .ok()
            .filter(|&l| l > 0)
            .ok_or_else(|| invalid(OP, format!("dft_length {l} must be positive")))?,
        None if inverse && onesided => 2 * size.saturating_sub(1),
        None => size,
    };
    if n == 0 {
        return Err(invalid(OP, "the transform length is 0"));
    }
    // Output length along the axis, and components.
    let (out_len, out_comps) = match (inverse, onesided) {
        (false, true) => (n / 2 + 1, 2),
        (true, true) => (n, 1),
        _ => (n, 2),
    };
    let mut shape = x.shape().to_vec();
    shape[axis] = out_len;
    shape[rank - 1] = out_comps;
    let total = checked_numel(OP, &shape)?;
    let outer: usize = x.shape()[..axis].iter().product();
    let inner: usize = x.shape()[axis + 1..rank - 1].iter().product();
    let v = x.to_f64_vec();
    let at = |o: usize, j: usize, i: usize| -> (f64, f64) {
        if j >= size {
            return (0.0, 0.0);
        }
        let base = ((o * size + j) * inner + i) * comps;
        (v[base], if comps == 2 { v[base + 1] } else { 0.0 })
    };
    let mut out = vec![0.0; total];
    let tau = std::f64::consts::TAU;
    let sign = if inverse { 1.0 } else { -1.0 };
    for o in 0..outer {
        for i in 0..inner {
            // The input sequence of length n (padded or truncated); for an
            // inverse one-sided transform, the Hermitian completion of the
            // first n / 2 + 1 entries.
            let seq: Vec<(f64, f64)> = if inverse && onesided {
                let half = n / 2 + 1;
                (0..n)
                    .map(|k| {
                        if k < half {
                            at(o, k, i)
                        } else {
                            let (re, im) = at(o, n - k, i);
                            (re, -im)
                        }
                    })
                    .collect()
            } else {
                (0..n).map(|j| at(o, j, i)).collect()
            };
            for k in 0..out_len {
                let (mut re, mut im) = (0.0, 0.0);
                for (j, &(a, b)) in seq.iter().enumerate() {
                    // Reduce jk mod n first: the angle stays accurate.
                    let t = sign * tau * ((j * k) % n) as f64 / n as f64;
                    let (s, c) = t.sin_cos();
                    re += a * c - b * s;
                    im += a * s + b * c;
                }
                if inverse {
                    re /= n as f64;
                    im /= n as f64;
                }
                let base = ((o * out_len + k) * inner + i) * out_comps;
                out[base] = re;
                if out_comps == 2 {
                    out[base + 1] = im;
                }
            }
        }
    }
    Ok(Tensor::from_parts(
        shape,
        TensorData::from_f64_slice(x.dtype(), &out),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-9, "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn forward_inverse_and_one_sided() {
        // [1, 2, 3, 4] as real: spectrum 10, -2+2i, -2, -2-2i.
        let x = Tensor::from_f64(vec![1, 4, 1], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        let f = dft(&x, 1, None, false, false).unwrap();
        assert_eq!(f.shape(), &[1, 4, 2]);
        close(
            &f.to_f64_vec(),
            &[10.0, 0.0, -2.0, 2.0, -2.0, 0.0, -2.0, -2.0],
        );
        let back = dft(&f, 1, None, true, false).unwrap();
        close(
            &back.to_f64_vec(),
            &[1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 4.0, 0.0],
        );
        let half = dft(&x, 1, None, false, true).unwrap();
        assert_eq!(half.shape(), &[1, 3, 2]);
        let real = dft(&half, 1, None, true, true).unwrap();
        assert_eq!(real.shape(), &[1, 4, 1]);
        close(&real.to_f64_vec(), &[1.0, 2.0, 3.0, 4.0]);
        // Zero padding to 8.
        assert_eq!(
            dft(&x, 1, Some(8), false, false).unwrap().shape(),
            &[1, 8, 2]
        );
        assert!(dft(&x, 2, None, false, false).is_err());
        assert!(dft(&x, 1, Some(0), false, false).is_err());
    }
}
