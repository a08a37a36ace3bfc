//! Softmax and the normalization layers (LayerNorm, RMSNorm, BatchNorm).

use super::shape::broadcast_to;
use super::{normalize_axis, require_float, shape_mismatch, Compute, KResult};
use crate::{Tensor, TensorData};

/// Softmax along `axis` (negative counts from the end), computed in `f64`
/// after subtracting the maximum.
pub fn softmax(x: &Tensor, axis: i64) -> KResult<Tensor> {
    softmax_impl("softmax", x, axis, false)
}

/// Log of the softmax along `axis`, computed as `x - max - log(sum(exp))`.
pub fn log_softmax(x: &Tensor, axis: i64) -> KResult<Tensor> {
    softmax_impl("log_softmax", x, axis, true)
}

fn softmax_impl(op: &'static str, x: &Tensor, axis: i64, log: bool) -> KResult<Tensor> {
    require_float(op, x.dtype())?;
    let axis = normalize_axis(op, axis, x.rank())?;
    let dim = x.shape()[axis];
    let outer: usize = x.shape()[..axis].iter().product();
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let mut v = x.to_f64_vec();
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| (o * dim + k) * inner + i;
            let max = (0..dim).map(|k| v[at(k)]).fold(f64::NEG_INFINITY, f64::max);
            // Shifted by the max even when it is infinite: the row is then
            // NaN (inf - inf), as NumPy and graph mode make it; shifting by
            // 0 instead kept finite elements whose e^x fits f64 but not
            // the element type (0 in eager mode, NaN in graph mode).
            let shift = max;
            let sum: f64 = (0..dim).map(|k| (v[at(k)] - shift).exp()).sum();
            for k in 0..dim {
                let e = &mut v[at(k)];
                *e = if log {
                    *e - shift - sum.ln()
                } else {
                    (*e - shift).exp() / sum
                };
            }
        }
    }
    Ok(Tensor::from_parts(
        x.shape().to_vec(),
        TensorData::from_f64_slice(x.dtype(), &v),
    ))
}

/// ONNX `LayerNormalization`: normalizes over dims `[axis, rank)` with
/// mean and variance, then applies `scale` and `bias`, which broadcast to
/// those dims.
pub fn layer_norm(
    x: &Tensor,
    scale: &Tensor,
    bias: Option<&Tensor>,
    axis: i64,
    epsilon: f64,
) -> KResult<Tensor> {
    norm_over_trailing("layer_norm", x, scale, bias, axis, epsilon, true)
}

/// ONNX `RMSNormalization` (opset 23): `x / sqrt(mean(x^2) + epsilon) *
/// scale` over dims `[axis, rank)`; `scale` broadcasts to those dims.
pub fn rms_norm(x: &Tensor, scale: &Tensor, axis: i64, epsilon: f64) -> KResult<Tensor> {
    norm_over_trailing("rms_norm", x, scale, None, axis, epsilon, false)
}

fn norm_over_trailing(
    op: &'static str,
    x: &Tensor,
    scale: &Tensor,
    bias: Option<&Tensor>,
    axis: i64,
    epsilon: f64,
    center: bool,
) -> KResult<Tensor> {
    require_float(op, x.dtype())?;
    let axis = normalize_axis(op, axis, x.rank())?;
    let norm_shape = &x.shape()[axis..];
    let params = |t: &Tensor| -> KResult<Vec<f64>> {
        require_float(op, t.dtype())?;
        let b = broadcast_to(t, norm_shape).map_err(|_| {
            shape_mismatch(
                op,
                format!(
                    "{:?} does not broadcast to the normalized dims {norm_shape:?}",
                    t.shape()
                ),
            )
        })?;
        Ok(b.to_f64_vec())
    };
    let scale = params(scale)?;
    let bias = bias.map(params).transpose()?;
    let n: usize = norm_shape.iter().product();
    let c = Compute::of(x.dtype());
    let epsilon = c.round(epsilon);
    let mut v = x.to_f64_vec();
    if n > 0 {
        for row in v.chunks_exact_mut(n) {
            // centered / sqrt(sum(centered²) / n + epsilon) * scale + bias,
            // each step rounded as graph mode computes it.
            if center {
                let mean = c.round(c.sum(row.iter().copied()) / n as f64);
                row.iter_mut().for_each(|e| *e = c.round(*e - mean));
            }
            let ssq = c.sum(row.iter().map(|&e| c.round(e * e)));
            let sd = c.round(c.round(c.round(ssq / n as f64) + epsilon).sqrt());
            for (k, e) in row.iter_mut().enumerate() {
                let y = c.round(c.round(*e / sd) * scale[k]);
                *e = bias.as_ref().map_or(y, |b| c.round(y + b[k]));
            }
        }
    }
    Ok(Tensor::from_parts(
        x.shape().to_vec(),
        TensorData::from_f64_slice(x.dtype(), &v),
    ))
}

/// Inference `BatchNormalization`: `(x - mean) / sqrt(var + epsilon) *
/// scale + bias` with the channel on dim 1; every parameter is `[C]`.
pub fn batch_norm(
    x: &Tensor,
    scale: &Tensor,
    bias: &Tensor,
    mean: &Tensor,
    var: &Tensor,
    epsilon: f64,
) -> KResult<Tensor> {
    const OP: &str = "batch_norm";
    require_float(OP, x.dtype())?;
    if x.rank() < 2 {
        return Err(shape_mismatch(
            OP,
            format!("input {:?} has no channel dim", x.shape()),
        ));
    }
    let c = x.shape()[1];
    let param = |name: &str, t: &Tensor| -> KResult<Vec<f64>> {
        require_float(OP, t.dtype())?;
        if t.shape() != [c] {
            return Err(shape_mismatch(
                OP,
                format!("{name} has shape {:?}, expected [{c}]", t.shape()),
            ));
        }
        Ok(t.to_f64_vec())
    };
    let (s, b, m, var) = (
        param("scale", scale)?,
        param("bias", bias)?,
        param("mean", mean)?,
        param("var", var)?,
    );
    let inner: usize = x.shape()[2..].iter().product();
    let r = Compute::of(x.dtype());
    let epsilon = r.round(epsilon);
    let mut v = x.to_f64_vec();
    if inner > 0 {
        for (i, chunk) in v.chunks_exact_mut(inner).enumerate() {
            let ch = i % c;
            // (x - mean) / sqrt(var + epsilon) * scale + bias, each step
            // rounded as graph mode computes it.
            let sd = r.round(r.round(var[ch] + epsilon).sqrt());
            for e in chunk {
                let n = r.round(r.round(*e - m[ch]) / sd);
                *e = r.round(r.round(n * s[ch]) + b[ch]);
            }
        }
    }
    Ok(Tensor::from_parts(
        x.shape().to_vec(),
        TensorData::from_f64_slice(x.dtype(), &v),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DType, KernelError};

    fn assert_close(got: &[f64], want: &[f64]) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{got:?} vs {want:?}");
        }
    }

    #[test]
    fn softmax_rows_and_axis() {
        let x = Tensor::from_f64(vec![2, 2], vec![0.0, 1.0, 1000.0, 1000.0]).unwrap();
        let s = softmax(&x, -1).unwrap().to_f64_vec();
        let e = 1f64.exp();
        assert_close(&s, &[1.0 / (1.0 + e), e / (1.0 + e), 0.5, 0.5]);
        let s0 = softmax(&x, 0).unwrap().to_f64_vec();
        assert_close(&s0, &[0.0, 0.0, 1.0, 1.0]);
        let l = log_softmax(&x, 1).unwrap().to_f64_vec();
        assert_close(
            &l,
            &[
                -(1.0 + e).ln(),
                1.0 - (1.0 + e).ln(),
                -(2f64.ln()),
                -(2f64.ln()),
            ],
        );
        let masked =
            Tensor::from_f32(vec![3], vec![f32::NEG_INFINITY, 0.0, f32::NEG_INFINITY]).unwrap();
        assert_eq!(
            softmax(&masked, 0).unwrap().to_f64_vec(),
            vec![0.0, 1.0, 0.0]
        );
        // A row with +inf is NaN, as NumPy gives it (inf - inf), not 0
        // for its finite elements.
        let inf = Tensor::from_f32(vec![3], vec![f32::INFINITY, 100.0, 0.0]).unwrap();
        assert!(softmax(&inf, 0)
            .unwrap()
            .to_f64_vec()
            .iter()
            .all(|v| v.is_nan()));
        assert!(softmax(&x, 2).is_err());
        let i = Tensor::from_i32(vec![1], vec![1]).unwrap();
        assert!(matches!(
            softmax(&i, 0),
            Err(KernelError::Unsupported { .. })
        ));
    }

    #[test]
    fn layer_and_rms_norm() {
        let x = Tensor::from_f64(vec![2, 2], vec![1.0, 3.0, -1.0, -1.0]).unwrap();
        let scale = Tensor::from_f64(vec![2], vec![1.0, 2.0]).unwrap();
        let bias = Tensor::from_f64(vec![], vec![0.5]).unwrap();
        let y = layer_norm(&x, &scale, Some(&bias), -1, 1e-12)
            .unwrap()
            .to_f64_vec();
        assert_close(&y, &[-0.5, 2.5, 0.5, 0.5]);
        let y = layer_norm(
            &x,
            &Tensor::from_f64(vec![1], vec![1.0]).unwrap(),
            None,
            0,
            0.0,
        )
        .unwrap();
        // mean 0.5, var = (0.25 + 6.25 + 2.25 + 2.25) / 4 = 2.75
        let inv = 1.0 / 2.75f64.sqrt();
        assert_close(
            &y.to_f64_vec(),
            &[0.5 * inv, 2.5 * inv, -1.5 * inv, -1.5 * inv],
        );
        assert!(layer_norm(
            &x,
            &Tensor::from_f64(vec![3], vec![1.0; 3]).unwrap(),
            None,
            -1,
            0.0
        )
        .is_err());

        let r = rms_norm(&x, &scale, 1, 0.0).unwrap().to_f64_vec();
        let inv0 = 1.0 / 5f64.sqrt();
        assert_close(&r, &[inv0, 6.0 * inv0, -1.0, -2.0]);
        let h = Tensor::from_f64_vec(DType::F16, &[2], &[3.0, 4.0]);
        let r = rms_norm(&h, &Tensor::from_f64_vec(DType::F16, &[1], &[1.0]), 0, 1e-5).unwrap();
        assert_eq!(r.dtype(), DType::F16);
    }

    #[test]
    fn batch_norm_per_channel() {
        let x = Tensor::from_f64(vec![1, 2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        let p = |a: f64, b: f64| Tensor::from_f64(vec![2], vec![a, b]).unwrap();
        let y = batch_norm(
            &x,
            &p(1.0, 2.0),
            &p(0.0, 1.0),
            &p(1.0, 3.0),
            &p(4.0, 1.0),
            0.0,
        )
        .unwrap();
        assert_close(&y.to_f64_vec(), &[0.0, 0.5, 1.0, 3.0]);
        let bad = Tensor::from_f64(vec![3], vec![0.0; 3]).unwrap();
        assert!(batch_norm(&x, &bad, &p(0.0, 0.0), &p(0.0, 0.0), &p(1.0, 1.0), 0.0).is_err());
    }
}
