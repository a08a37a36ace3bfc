//! Kernels that draw random numbers: dropout in training mode, uniform
//! draws.
//!
//! The generator is SplitMix64 seeded by the op's `seed`, so a result is a
//! function of the seed and the input: the same program gives the same
//! output on every run and every machine. The stream is strata's own; it
//! does not reproduce NumPy's or any other framework's draws.

use super::{invalid, require_float, KResult};
use crate::tensor::{Tensor, TensorData};

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Dropout in training mode: each element is kept with probability
/// `1 - ratio` and scaled by `1 / (1 - ratio)`, or zeroed. Returns the
/// output and the `i1` mask of kept elements. `ratio` must be in `[0, 1)`;
/// with `ratio == 0` every element is kept unscaled.
pub fn dropout(x: &Tensor, ratio: f64, seed: u64) -> KResult<(Tensor, Tensor)> {
    require_float("dropout", x.dtype())?;
    if !(0.0..1.0).contains(&ratio) {
        return Err(invalid(
            "dropout",
            format!("ratio {ratio} is outside [0, 1)"),
        ));
    }
    let mut rng = SplitMix64(seed);
    let mask: Vec<bool> = (0..x.len()).map(|_| rng.next_unit() >= ratio).collect();
    let scale = 1.0 / (1.0 - ratio);
    let values: Vec<f64> = x
        .to_f64_vec()
        .iter()
        .zip(&mask)
        .map(|(&v, &keep)| if keep { v * scale } else { 0.0 })
        .collect();
    let shape = x.shape().to_vec();
    Ok((
        Tensor::from_parts(
            shape.clone(),
            TensorData::from_f64_slice(x.dtype(), &values),
        ),
        Tensor::from_parts(shape, TensorData::I1(mask)),
    ))
}

/// `n` draws uniform in `[low, high)` of float `dtype` shaped `shape`, from
/// the stream of `seed`.
pub fn random_uniform(
    dtype: crate::DType,
    shape: &[usize],
    low: f64,
    high: f64,
    seed: u64,
) -> KResult<Tensor> {
    require_float("random_uniform", dtype)?;
    if !(low.is_finite() && high.is_finite() && low <= high) {
        return Err(invalid(
            "random_uniform",
            format!("the range [{low}, {high}) is not a finite interval"),
        ));
    }
    let n: usize = shape.iter().product();
    let mut rng = SplitMix64(seed);
    let values: Vec<f64> = (0..n)
        .map(|_| low + (high - low) * rng.next_unit())
        .collect();
    Ok(Tensor::from_parts(
        shape.to_vec(),
        TensorData::from_f64_slice(dtype, &values),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    #[test]
    fn keeps_about_one_minus_ratio_and_scales() {
        let x = Tensor::from_f64_vec(DType::F32, &[100, 100], &vec![2.0; 10_000]);
        let (out, mask) = dropout(&x, 0.75, 7).unwrap();
        let TensorData::I1(m) = mask.data() else {
            panic!("mask is not i1")
        };
        let kept = m.iter().filter(|&&k| k).count();
        // Binomial(10000, 0.25): mean 2500, standard deviation 43.3.
        assert!((2300..2700).contains(&kept), "{kept}");
        for (v, &k) in out.to_f64_vec().iter().zip(m) {
            assert_eq!(*v, if k { 8.0 } else { 0.0 });
        }
        // The same seed gives the same mask; another seed another one.
        assert_eq!(dropout(&x, 0.75, 7).unwrap().1, mask);
        assert_ne!(dropout(&x, 0.75, 8).unwrap().1, mask);
    }

    #[test]
    fn zero_ratio_keeps_everything_and_bad_ratios_are_errors() {
        let x = Tensor::from_f64_vec(DType::F64, &[3], &[1.0, -2.0, 3.5]);
        let (out, mask) = dropout(&x, 0.0, 0).unwrap();
        assert_eq!(out, x);
        assert_eq!(mask.data(), &TensorData::I1(vec![true; 3]));
        assert!(dropout(&x, 1.0, 0).is_err());
        assert!(dropout(&x, -0.1, 0).is_err());
        assert!(dropout(&x, f64::NAN, 0).is_err());
        let i = Tensor::from_i64_vec(DType::I32, &[1], &[1]);
        assert!(dropout(&i, 0.5, 0).is_err());
    }

    /// Draws lie in `[low, high)`, and one seed gives one stream.
    #[test]
    fn uniform_draws_lie_in_their_range() {
        let draw =
            |seed| random_uniform(DType::F64, &[1000], -2.0, 3.0, seed).map(|t| t.to_f64_vec());
        let a = draw(1).unwrap_or_default();
        assert_eq!(a.len(), 1000);
        assert!(a.iter().all(|&x| (-2.0..3.0).contains(&x)));
        let mean = a.iter().sum::<f64>() / 1000.0;
        assert!((mean - 0.5).abs() < 0.3, "mean {mean}");
        assert_eq!(draw(1).unwrap_or_default(), a);
        assert_ne!(draw(2).unwrap_or_default(), a);
        assert!(random_uniform(DType::F32, &[1], 1.0, 0.0, 0).is_err());
        assert!(random_uniform(DType::I32, &[1], 0.0, 1.0, 0).is_err());
    }
}
