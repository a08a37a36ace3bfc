//! Scaled dot-product attention (ONNX `Attention` core, opset 23).

use super::shape::broadcast_to;
use super::{
    cast, gather, matmul, require_float, require_same_dtype, shape_mismatch, transpose, KResult,
};
use crate::{DType, Tensor, TensorData};

/// `softmax(q·kᵀ·scale + mask)·v` for `q: [..., L, E]`, `k: [..., S, E]`,
/// `v: [..., S, Ev]`; batch dims broadcast. `scale` defaults to
/// `1/sqrt(E)`. An `i1` mask keeps `true` positions (others get `-inf`); a
/// float mask is added; it broadcasts to `[..., L, S]`. `is_causal` masks
/// `s > l` (upper-left aligned). For rank-4 inputs with fewer key/value
/// heads than query heads (dim 1), each key/value head serves a contiguous
/// group of query heads (GQA). A fully masked row yields NaN. `f16`/`bf16`
/// compute in `f32`.
pub fn attention(
    q: &Tensor,
    k: &Tensor,
    v: &Tensor,
    mask: Option<&Tensor>,
    scale: Option<f64>,
    is_causal: bool,
) -> KResult<Tensor> {
    const OP: &str = "attention";
    require_float(OP, q.dtype())?;
    require_same_dtype(OP, q.dtype(), k.dtype())?;
    require_same_dtype(OP, q.dtype(), v.dtype())?;
    if q.rank() < 2 || k.rank() < 2 || v.rank() < 2 {
        return Err(shape_mismatch(OP, "q, k and v need rank >= 2"));
    }
    let e = q.shape()[q.rank() - 1];
    if k.shape()[k.rank() - 1] != e || k.shape()[k.rank() - 2] != v.shape()[v.rank() - 2] {
        return Err(shape_mismatch(
            OP,
            format!(
                "q {:?}, k {:?}, v {:?} disagree on E or S",
                q.shape(),
                k.shape(),
                v.shape()
            ),
        ));
    }
    let compute = if q.dtype() == DType::F64 {
        DType::F64
    } else {
        DType::F32
    };
    let (k, v) = share_kv_heads(q, k, v)?;
    let (qc, kc, vc) = (cast(q, compute)?, cast(&k, compute)?, cast(&v, compute)?);

    let mut kt_perm: Vec<usize> = (0..kc.rank()).collect();
    kt_perm.swap(kc.rank() - 2, kc.rank() - 1);
    let scores = matmul(&qc, &transpose(&kc, &kt_perm)?)?;
    let shape = scores.shape().to_vec();
    let (l, s) = (shape[shape.len() - 2], shape[shape.len() - 1]);
    let scale = scale.unwrap_or(1.0 / (e as f64).sqrt());
    let mut w: Vec<f64> = scores.to_f64_vec().into_iter().map(|x| x * scale).collect();
    if is_causal {
        for (i, x) in w.iter_mut().enumerate() {
            if i % s > (i / s) % l {
                *x = f64::NEG_INFINITY;
            }
        }
    }
    if let Some(mask) = mask {
        let m = broadcast_to(mask, &shape).map_err(|_| {
            shape_mismatch(
                OP,
                format!(
                    "mask {:?} does not broadcast to scores {shape:?}",
                    mask.shape()
                ),
            )
        })?;
        match m.data() {
            TensorData::I1(keep) => w
                .iter_mut()
                .zip(keep)
                .filter(|(_, &k)| !k)
                .for_each(|(x, _)| *x = f64::NEG_INFINITY),
            d if d.dtype().is_float() => {
                w.iter_mut().zip(d.to_f64_vec()).for_each(|(x, a)| *x += a)
            }
            d => {
                return Err(super::unsupported(
                    OP,
                    format!("mask of dtype {}", d.dtype()),
                ))
            }
        }
    }
    if s > 0 {
        for row in w.chunks_exact_mut(s) {
            let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = row
                .iter_mut()
                .map(|x| {
                    *x = (*x - max).exp();
                    *x
                })
                .sum();
            row.iter_mut().for_each(|x| *x /= sum);
        }
    }
    let probs = Tensor::from_parts(shape, TensorData::from_f64_slice(compute, &w));
    cast(&matmul(&probs, &vc)?, q.dtype())
}

/// Repeats key/value heads for grouped-query attention when rank-4 `k`/`v`
/// have fewer heads than `q` and the count divides evenly.
fn share_kv_heads(q: &Tensor, k: &Tensor, v: &Tensor) -> KResult<(Tensor, Tensor)> {
    if q.rank() == 4 && k.rank() == 4 && v.rank() == 4 {
        let (hq, hk, hv) = (q.shape()[1], k.shape()[1], v.shape()[1]);
        if hk == hv && hk > 1 && hq != hk && hq % hk == 0 {
            let group = hq / hk;
            let idx: Vec<i64> = (0..hq).map(|h| (h / group) as i64).collect();
            let idx = Tensor::from_parts(vec![hq], TensorData::I64(idx));
            return Ok((gather(k, &idx, 1)?, gather(v, &idx, 1)?));
        }
    }
    Ok((k.clone(), v.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{allclose, binary, softmax, BinaryOp, Tolerance};

    fn t(shape: &[usize], seed: u64) -> Tensor {
        let n: usize = shape.iter().product();
        let v = (0..n)
            .map(|i| ((i as u64 * 37 + seed * 11) % 17) as f64 / 8.0 - 1.0)
            .collect();
        Tensor::from_f64(shape.to_vec(), v).unwrap()
    }

    /// The same computation written with the other kernels.
    fn reference(q: &Tensor, k: &Tensor, v: &Tensor, add: Option<&Tensor>) -> Tensor {
        let e = *q.shape().last().unwrap() as f64;
        let kt = transpose(k, &[0, 2, 1]).unwrap();
        let mut s = matmul(q, &kt).unwrap();
        s = binary(
            BinaryOp::Mul,
            &s,
            &Tensor::scalar_f64(DType::F64, 1.0 / e.sqrt()),
        )
        .unwrap();
        if let Some(a) = add {
            s = binary(BinaryOp::Add, &s, a).unwrap();
        }
        matmul(&softmax(&s, -1).unwrap(), v).unwrap()
    }

    #[test]
    fn matches_reference_with_masks() {
        let (q, k, v) = (t(&[2, 3, 4], 1), t(&[2, 5, 4], 2), t(&[2, 5, 2], 3));
        let y = attention(&q, &k, &v, None, None, false).unwrap();
        assert_eq!(y.shape(), &[2, 3, 2]);
        allclose(
            &y,
            &reference(&q, &k, &v, None),
            Tolerance::new(1e-12, 1e-12),
        )
        .unwrap();

        let add = t(&[3, 5], 4);
        let y = attention(&q, &k, &v, Some(&add), None, false).unwrap();
        allclose(
            &y,
            &reference(&q, &k, &v, Some(&add)),
            Tolerance::new(1e-12, 1e-12),
        )
        .unwrap();

        let keep: Vec<bool> = (0..15).map(|i| i % 5 <= i / 5).collect();
        let bmask = Tensor::from_bool(vec![3, 5], keep.clone()).unwrap();
        let fmask = Tensor::from_f64(
            vec![3, 5],
            keep.iter()
                .map(|&b| if b { 0.0 } else { f64::NEG_INFINITY })
                .collect(),
        )
        .unwrap();
        let y_bool = attention(&q, &k, &v, Some(&bmask), None, false).unwrap();
        let y_causal = attention(&q, &k, &v, None, None, true).unwrap();
        let want = reference(&q, &k, &v, Some(&fmask));
        allclose(&y_bool, &want, Tolerance::new(1e-12, 1e-12)).unwrap();
        allclose(&y_causal, &want, Tolerance::new(1e-12, 1e-12)).unwrap();
        assert!(attention(&q, &k, &v, Some(&t(&[4, 5], 0)), None, false).is_err());
    }

    #[test]
    fn grouped_heads_and_dtypes() {
        let q = t(&[1, 4, 2, 3], 1);
        let k = t(&[1, 2, 3, 3], 2);
        let v = t(&[1, 2, 3, 3], 3);
        let y = attention(&q, &k, &v, None, Some(0.5), false).unwrap();
        assert_eq!(y.shape(), &[1, 4, 2, 3]);
        let idx = Tensor::from_i64(vec![4], vec![0, 0, 1, 1]).unwrap();
        let (k4, v4) = (gather(&k, &idx, 1).unwrap(), gather(&v, &idx, 1).unwrap());
        let y4 = attention(&q, &k4, &v4, None, Some(0.5), false).unwrap();
        allclose(&y, &y4, Tolerance::EXACT).unwrap();

        let q16 = cast(&q, DType::F16).unwrap();
        let y16 = attention(
            &q16,
            &cast(&k4, DType::F16).unwrap(),
            &cast(&v4, DType::F16).unwrap(),
            None,
            Some(0.5),
            false,
        )
        .unwrap();
        assert_eq!(y16.dtype(), DType::F16);
        allclose(
            &cast(&y16, DType::F64).unwrap(),
            &y4,
            Tolerance::new(1e-2, 1e-2),
        )
        .unwrap();
        assert!(attention(&q16, &k, &v, None, None, false).is_err());
        assert!(attention(&q, &t(&[1, 2, 3, 2], 0), &v, None, None, false).is_err());
    }
}
