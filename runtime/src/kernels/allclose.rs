//! Comparison of tensors, for tests and the interpreter's checks: floats
//! within a [`Tolerance`], integers and booleans exactly.

use crate::{DType, Tensor};

/// How far a float may be from the expected one: `|a - e| <= atol + rtol * |e|`
/// (NumPy's `isclose`). Integer and boolean elements ignore it: they must be
/// equal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance, a fraction of `|expected|`.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
}

impl Tolerance {
    /// Bit-for-bit equal values (NaN still matches NaN).
    pub const EXACT: Tolerance = Tolerance {
        rtol: 0.0,
        atol: 0.0,
    };

    /// The tolerances of ONNX's backend node tests (`rtol 1e-3, atol 1e-7`),
    /// against the reference outputs that ship with them.
    pub const ONNX_NODE_TESTS: Tolerance = Tolerance {
        rtol: 1e-3,
        atol: 1e-7,
    };

    /// A tolerance given as its two parts.
    pub const fn new(rtol: f64, atol: f64) -> Tolerance {
        Tolerance { rtol, atol }
    }

    /// The tolerance for comparing two implementations of the same
    /// computation in `dtype` (strata against onnxruntime, a compiled plan
    /// against the interpreter): a few units in the last place of the
    /// format, scaled for the reassociation that reductions allow. This is
    /// the one place where per-dtype tolerances are decided; integers and
    /// booleans are always compared exactly.
    pub fn for_dtype(dtype: DType) -> Tolerance {
        match dtype {
            // 10 bits of mantissa: eps = 9.8e-4.
            DType::F16 => Tolerance::new(1e-2, 1e-3),
            // 7 bits of mantissa: eps = 7.8e-3.
            DType::BF16 => Tolerance::new(5e-2, 1e-2),
            // 23 bits of mantissa: eps = 1.2e-7.
            DType::F32 => Tolerance::new(1e-4, 1e-5),
            // 52 bits of mantissa: eps = 2.2e-16.
            DType::F64 => Tolerance::new(1e-9, 1e-12),
            _ => Tolerance::EXACT,
        }
    }
}

/// Compares `actual` with `expected`: shapes and dtypes must be equal; float
/// elements must be within `tol` (NaN matches NaN, infinities must match
/// exactly); integer and boolean elements must be equal, whatever `tol` says.
/// On failure, says how many elements differ and shows the worst.
pub fn allclose(actual: &Tensor, expected: &Tensor, tol: Tolerance) -> Result<(), String> {
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
    let float = actual.dtype().is_float();
    // Excess of |a - e| over the tolerance, or None when close enough.
    let excess: Vec<Option<f64>> = if float {
        actual
            .to_f64_vec()
            .into_iter()
            .zip(expected.to_f64_vec())
            .map(|(a, e)| float_excess(a, e, tol.rtol, tol.atol))
            .collect()
    } else {
        actual
            .to_i128_vec()
            .into_iter()
            .zip(expected.to_i128_vec())
            .map(|(a, e)| (a != e).then(|| (a - e).unsigned_abs() as f64))
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
        if float {
            format!("{}", t.to_f64_vec()[worst])
        } else {
            format!("{}", t.to_i128_vec()[worst])
        }
    };
    let how = if float {
        format!("rtol {}, atol {}", tol.rtol, tol.atol)
    } else {
        "compared exactly".to_string()
    };
    Err(format!(
        "{mismatched} of {} elements differ ({how}); worst at {:?}: actual {}, expected {}",
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

    #[test]
    fn tolerances_and_specials() {
        let e = Tensor::from_f64(vec![4], vec![1.0, 100.0, f64::NAN, f64::INFINITY]).unwrap();
        let a =
            Tensor::from_f64(vec![4], vec![1.0 + 1e-6, 100.001, f64::NAN, f64::INFINITY]).unwrap();
        assert!(allclose(&a, &e, Tolerance::new(1e-5, 1e-5)).is_ok());
        let err = allclose(&a, &e, Tolerance::new(0.0, 1e-9)).unwrap_err();
        assert!(err.starts_with("2 of 4 elements differ"), "{err}");
        assert!(
            err.contains("worst at [1]: actual 100.001, expected 100"),
            "{err}"
        );
        let ninf =
            Tensor::from_f64(vec![4], vec![1.0, 100.0, f64::NAN, f64::NEG_INFINITY]).unwrap();
        let err = allclose(&ninf, &e, Tolerance::new(1.0, 1.0)).unwrap_err();
        assert!(err.contains("worst at [3]"), "{err}");
        let nan = Tensor::from_f64(vec![4], vec![1.0, 100.0, 0.0, f64::INFINITY]).unwrap();
        assert!(allclose(&nan, &e, Tolerance::new(1.0, 1.0)).is_err());
    }

    #[test]
    fn shape_dtype_and_index() {
        let a = Tensor::zeros(DType::F32, &[2, 3]);
        assert!(allclose(
            &a,
            &Tensor::zeros(DType::F32, &[3, 2]),
            Tolerance::new(0.0, 0.0)
        )
        .unwrap_err()
        .contains("shape"));
        assert!(allclose(
            &a,
            &Tensor::zeros(DType::F64, &[2, 3]),
            Tolerance::new(0.0, 0.0)
        )
        .unwrap_err()
        .contains("dtype"));
        let b = Tensor::from_f32(vec![2, 3], vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.5]).unwrap();
        assert!(allclose(&b, &a, Tolerance::new(0.0, 0.1))
            .unwrap_err()
            .contains("worst at [1, 2]"));
        let i = Tensor::from_i64(vec![2], vec![i64::MAX, 3]).unwrap();
        let j = Tensor::from_i64(vec![2], vec![i64::MAX, 4]).unwrap();
        assert!(allclose(&i, &i, Tolerance::new(0.0, 0.0)).is_ok());
        assert!(allclose(&i, &j, Tolerance::new(0.0, 0.5))
            .unwrap_err()
            .contains("actual 3, expected 4"));
    }

    #[test]
    fn integers_and_booleans_are_exact_whatever_the_tolerance() {
        let i = Tensor::from_i64(vec![3], vec![1_000_000, -5, 7]).unwrap();
        let j = Tensor::from_i64(vec![3], vec![1_000_001, -5, 7]).unwrap();
        let err = allclose(&j, &i, Tolerance::new(1.0, 1e9)).unwrap_err();
        assert!(
            err.starts_with("1 of 3 elements differ (compared exactly)"),
            "{err}"
        );
        assert!(
            err.contains("worst at [0]: actual 1000001, expected 1000000"),
            "{err}"
        );
        let t = Tensor::from_bool(vec![2], vec![true, false]).unwrap();
        let f = Tensor::from_bool(vec![2], vec![false, false]).unwrap();
        assert!(allclose(&t, &f, Tolerance::new(1.0, 1.0)).is_err());
        assert!(allclose(&t, &t, Tolerance::EXACT).is_ok());
    }

    #[test]
    fn per_dtype_tolerances() {
        assert_eq!(Tolerance::for_dtype(DType::I32), Tolerance::EXACT);
        assert_eq!(Tolerance::for_dtype(DType::I1), Tolerance::EXACT);
        let f32_tol = Tolerance::for_dtype(DType::F32);
        let f16_tol = Tolerance::for_dtype(DType::F16);
        let f64_tol = Tolerance::for_dtype(DType::F64);
        assert!(f64_tol.rtol < f32_tol.rtol && f32_tol.rtol < f16_tol.rtol);
        let e = Tensor::from_f32(vec![1], vec![1.0]).unwrap();
        let a = Tensor::from_f32(vec![1], vec![1.0 + 4.0 * f32::EPSILON]).unwrap();
        assert!(allclose(&a, &e, f32_tol).is_ok());
        let far = Tensor::from_f32(vec![1], vec![1.001]).unwrap();
        assert!(allclose(&far, &e, f32_tol).is_err());
    }
}
