//! Broadcasting and the index maps that data-movement kernels share.

use super::{shape_mismatch, strides, KResult};
use crate::tensor::{checked_numel, FILL};
use crate::Tensor;

/// The shape two operands broadcast to under NumPy/ONNX multidirectional
/// rules: align trailing dims; each pair must be equal or contain a 1.
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> KResult<Vec<usize>> {
    let rank = a.len().max(b.len());
    let mut out = vec![0; rank];
    for (i, o) in out.iter_mut().enumerate() {
        let da = dim_from_right(a, rank - 1 - i);
        let db = dim_from_right(b, rank - 1 - i);
        *o = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => {
                return Err(shape_mismatch(
                    "broadcast",
                    format!("shapes {a:?} and {b:?} are not broadcastable"),
                ))
            }
        };
    }
    Ok(out)
}

/// The `k`-th dim counting from the last (0 = last), 1 beyond the rank.
fn dim_from_right(shape: &[usize], k: usize) -> usize {
    if k < shape.len() {
        shape[shape.len() - 1 - k]
    } else {
        1
    }
}

/// Broadcasts `x` to exactly `shape` (unidirectional: `x` must broadcast to
/// `shape` without `shape` changing).
pub fn broadcast_to(x: &Tensor, shape: &[usize]) -> KResult<Tensor> {
    let out = broadcast_shapes(x.shape(), shape)?;
    if out != shape {
        return Err(shape_mismatch(
            "broadcast_to",
            format!("cannot broadcast {:?} to {shape:?}", x.shape()),
        ));
    }
    materialize(x, out)
}

/// ONNX `Expand`: broadcasts `x` and `shape` against each other and
/// materializes `x` at the resulting shape.
pub fn expand(x: &Tensor, shape: &[usize]) -> KResult<Tensor> {
    let out = broadcast_shapes(x.shape(), shape)?;
    materialize(x, out)
}

/// Copies `x` out to `out`, which `x` must broadcast to.
fn materialize(x: &Tensor, out: Vec<usize>) -> KResult<Tensor> {
    checked_numel("broadcast", &out)?;
    if out == x.shape() {
        return Ok(x.clone());
    }
    let offsets = broadcast_offsets(x.shape(), &out);
    Ok(Tensor::from_parts(out, x.data().select(&offsets)))
}

/// For each element of `out` (row-major), the offset of the element of a
/// tensor of shape `src` that broadcasting maps onto it. `src` must
/// broadcast to `out`, and `out` must have a valid element count.
pub(crate) fn broadcast_offsets(src: &[usize], out: &[usize]) -> Vec<usize> {
    let pad = out.len() - src.len();
    let padded: Vec<usize> = std::iter::repeat_n(1, pad)
        .chain(src.iter().copied())
        .collect();
    let st = strides(&padded);
    let contrib: Vec<Vec<usize>> = out
        .iter()
        .zip(padded.iter().zip(&st))
        .map(|(&o, (&s, &stride))| {
            if s == 1 {
                vec![0; o]
            } else {
                (0..o).map(|i| i * stride).collect()
            }
        })
        .collect();
    offsets_from_contributions(&contrib)
}

/// Offsets for picking, along each dim `d` of a tensor of shape `src`, the
/// indices `per_dim[d]` (or [`FILL`], which makes the whole element FILL).
/// The result has shape `per_dim[d].len()` for each `d`.
pub(crate) fn product_offsets(src: &[usize], per_dim: &[Vec<usize>]) -> Vec<usize> {
    let st = strides(src);
    let contrib: Vec<Vec<usize>> = per_dim
        .iter()
        .zip(&st)
        .map(|(idx, &stride)| {
            idx.iter()
                .map(|&i| if i == FILL { FILL } else { i * stride })
                .collect()
        })
        .collect();
    offsets_from_contributions(&contrib)
}

/// Offsets that read a tensor of shape `src` in the order of its transpose
/// by `perm` (already validated).
pub(crate) fn transpose_offsets(src: &[usize], perm: &[usize]) -> Vec<usize> {
    let st = strides(src);
    let contrib: Vec<Vec<usize>> = perm
        .iter()
        .map(|&p| (0..src[p]).map(|i| i * st[p]).collect())
        .collect();
    offsets_from_contributions(&contrib)
}

/// Row-major enumeration of the sums `contrib[0][i0] + contrib[1][i1] + ...`
/// over all index tuples; any FILL term makes the sum FILL.
fn offsets_from_contributions(contrib: &[Vec<usize>]) -> Vec<usize> {
    let total: usize = contrib.iter().map(Vec::len).product();
    let mut out = Vec::with_capacity(total);
    let Some((inner, outer)) = contrib.split_last() else {
        out.push(0);
        return out;
    };
    if total == 0 {
        return out;
    }
    let mut counter = vec![0usize; outer.len()];
    loop {
        let mut base = 0usize;
        let mut fill = false;
        for (c, &i) in outer.iter().zip(&counter) {
            let term = c[i];
            if term == FILL {
                fill = true;
                break;
            }
            base += term;
        }
        out.extend(
            inner
                .iter()
                .map(|&t| if fill || t == FILL { FILL } else { base + t }),
        );
        // Advance the odometer over the outer dims, last fastest.
        let mut d = outer.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            counter[d] += 1;
            if counter[d] < outer[d].len() {
                break;
            }
            counter[d] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KernelError;

    #[test]
    fn broadcast_shape_rules() {
        assert_eq!(
            broadcast_shapes(&[2, 1, 3], &[4, 1]).unwrap(),
            vec![2, 4, 3]
        );
        assert_eq!(broadcast_shapes(&[], &[5]).unwrap(), vec![5]);
        assert_eq!(broadcast_shapes(&[0], &[1]).unwrap(), vec![0]);
        assert_eq!(broadcast_shapes(&[3, 1], &[3, 0]).unwrap(), vec![3, 0]);
        let err = broadcast_shapes(&[2, 3], &[4, 3]).unwrap_err();
        assert!(matches!(err, KernelError::ShapeMismatch { .. }));
        assert!(broadcast_shapes(&[0], &[3]).is_err());
    }

    #[test]
    fn broadcast_to_and_expand() {
        let x = Tensor::from_i32(vec![3, 1], vec![1, 2, 3]).unwrap();
        let y = broadcast_to(&x, &[2, 3, 2]).unwrap();
        assert_eq!(y.shape(), &[2, 3, 2]);
        assert_eq!(y.to_i64_vec(), vec![1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]);
        // Unidirectional: the target may not shrink or be broadcast itself.
        assert!(broadcast_to(&x, &[1, 2]).is_err());
        assert!(broadcast_to(&x, &[3]).is_err());
        // Expand is bidirectional.
        let e = expand(&x, &[1, 2]).unwrap();
        assert_eq!(e.shape(), &[3, 2]);
        assert_eq!(e.to_i64_vec(), vec![1, 1, 2, 2, 3, 3]);
        let s = Tensor::scalar_f64(crate::DType::F32, 2.0);
        assert_eq!(expand(&s, &[2]).unwrap().to_f64_vec(), vec![2.0, 2.0]);
        assert_eq!(expand(&x, &[0, 1, 1]).unwrap().shape(), &[0, 3, 1]);
    }

    #[test]
    fn fill_propagates() {
        let offs = product_offsets(&[2, 2], &[vec![FILL, 1], vec![0, FILL]]);
        assert_eq!(offs, vec![FILL, FILL, 2, FILL]);
        assert_eq!(transpose_offsets(&[2, 3], &[1, 0]), vec![0, 3, 1, 4, 2, 5]);
    }
}
