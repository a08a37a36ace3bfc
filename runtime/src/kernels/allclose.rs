//! Tolerance comparison of tensors, for tests and the interpreter's checks.

use crate::Tensor;

/// NumPy `isclose` over every element: `|a - e| <= atol + rtol * |e|`,
/// NaN matches NaN, infinities must match exactly. Shapes and dtypes must
/// be equal. On failure, says how many elements differ and shows the worst.
pub fn allclose(actual: &Tensor, expected: &Tensor, rtol: f64, atol: f64) -> Result<(), String> {
    if actual.shape() != expected.shape() {
        return Err(format!(
            "shape mismatch: actual {:?}, expected {:?}",
            actual.shape(),
            expected.shape()
        ));
    }
    if actual.dtype() != expected.dtype() {
        return Err(format!(
            "dtype mismatch: actual {}, expected {}",
            actual.dtype(),
            expected.dtype()
        ));
    }
    // Excess of |a - e| over the tolerance, or None when close enough.
    let excess: Vec<Option<f64>> = if actual.dtype().is_float() {
        actual
            .to_f64_vec()
            .into_iter()
            .zip(expected.to_f64_vec())
            .map(|(a, e)| float_excess(a, e, rtol, atol))
            .collect()
    } else {
        actual
            .to_i128_vec()
            .into_iter()
            .zip(expected.to_i128_vec())
            .map(|(a, e)| {
                let diff = (a - e).unsigned_abs() as f64;
                let tol = atol + rtol * (e as f64).abs();
                (diff > tol).then_some(diff - tol)
            })
            .collect()
    };
    let mismatched = excess.iter().filter(|x| x.is_some()).count();
    if mismatched == 0 {
        return Ok(());
    }
    let (worst, _) = excess
        .iter()
        .enumerate()
        .filter_map(|(i, x)| x.map(|x| (i, x)))
        .fold((0, f64::NEG_INFINITY), |best, cur| {
            if cur.1 > best.1 {
                cur
            } else {
                best
            }
        });
    let show = |t: &Tensor| {
        if t.dtype().is_float() {
            format!("{}", t.to_f64_vec()[worst])
        } else {
            format!("{}", t.to_i128_vec()[worst])
        }
    };
    Err(format!(
        "{mismatched} of {} elements differ (rtol {rtol}, atol {atol}); worst at {:?}: actual {}, expected {}",
        actual.len(),
        unravel(worst, actual.shape()),
        show(actual),
        show(expected)
    ))
}

fn float_excess(a: f64, e: f64, rtol: f64, atol: f64) -> Option<f64> {
    if a.is_nan() && e.is_nan() {
        return None;
    }
    if a.is_nan() || e.is_nan() || a.is_infinite() || e.is_infinite() {
        return (a != e).then_some(f64::INFINITY);
    }
    let diff = (a - e).abs();
    let tol = atol + rtol * e.abs();
    (diff > tol).then_some(diff - tol)
}

/// Row-major multi-index of flat offset `i` in `shape`.
fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for (d, &n) in shape.iter().enumerate().rev() {
        if n > 0 {
            idx[d] = i % n;
            i /= n;
        }
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    #[test]
    fn tolerances_and_specials() {
        let e = Tensor::from_f64(vec![4], vec![1.0, 100.0, f64::NAN, f64::INFINITY]).unwrap();
        let a =
            Tensor::from_f64(vec![4], vec![1.0 + 1e-6, 100.001, f64::NAN, f64::INFINITY]).unwrap();
        assert!(allclose(&a, &e, 1e-5, 1e-5).is_ok());
        let err = allclose(&a, &e, 0.0, 1e-9).unwrap_err();
        assert!(err.starts_with("2 of 4 elements differ"), "{err}");
        assert!(
            err.contains("worst at [1]: actual 100.001, expected 100"),
            "{err}"
        );
        let ninf =
            Tensor::from_f64(vec![4], vec![1.0, 100.0, f64::NAN, f64::NEG_INFINITY]).unwrap();
        let err = allclose(&ninf, &e, 1.0, 1.0).unwrap_err();
        assert!(err.contains("worst at [3]"), "{err}");
        let nan = Tensor::from_f64(vec![4], vec![1.0, 100.0, 0.0, f64::INFINITY]).unwrap();
        assert!(allclose(&nan, &e, 1.0, 1.0).is_err());
    }

    #[test]
    fn shape_dtype_and_index() {
        let a = Tensor::zeros(DType::F32, &[2, 3]);
        assert!(allclose(&a, &Tensor::zeros(DType::F32, &[3, 2]), 0.0, 0.0)
            .unwrap_err()
            .contains("shape"));
        assert!(allclose(&a, &Tensor::zeros(DType::F64, &[2, 3]), 0.0, 0.0)
            .unwrap_err()
            .contains("dtype"));
        let b = Tensor::from_f32(vec![2, 3], vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.5]).unwrap();
        assert!(allclose(&b, &a, 0.0, 0.1)
            .unwrap_err()
            .contains("worst at [1, 2]"));
        let i = Tensor::from_i64(vec![2], vec![i64::MAX, 3]).unwrap();
        let j = Tensor::from_i64(vec![2], vec![i64::MAX, 4]).unwrap();
        assert!(allclose(&i, &i, 0.0, 0.0).is_ok());
        assert!(allclose(&i, &j, 0.0, 0.5)
            .unwrap_err()
            .contains("actual 3, expected 4"));
    }
}
