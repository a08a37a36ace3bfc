//! 2-D max and average pooling (ONNX `MaxPool`/`AveragePool` on NCHW) and
//! the global pools.

use super::reduce::{reduce, ReduceOp};
use super::{invalid, shape_mismatch, unsupported, KResult};
use crate::{DType, Tensor, TensorData};

/// ONNX `MaxPool` on `[N, C, H, W]`: `kernel`, `strides`, `dilations` have
/// 2 entries, `pads` 4 (`[top, left, bottom, right]`); padding never wins.
/// NaN propagates. Float dtypes and `i8`.
pub fn max_pool2d(
    x: &Tensor,
    kernel: &[usize],
    strides: &[usize],
    pads: &[usize],
    dilations: &[usize],
    ceil_mode: bool,
) -> KResult<Tensor> {
    let win = Window::new("max_pool2d", x, kernel, strides, pads, dilations, ceil_mode)?;
    let v = x.to_f64_vec();
    let out = win.map(|taps, _| {
        taps.map(|i| v[i]).fold(f64::NEG_INFINITY, |a, b| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        })
    });
    Ok(Tensor::from_parts(
        win.out_shape(),
        TensorData::from_f64_slice(x.dtype(), &out),
    ))
}

/// [`max_pool2d`] and, for each output, the index of the maximum in the
/// input flattened in row-major order (ONNX MaxPool's `Indices` with
/// `storage_order = 0`); the first maximum wins, and a NaN.
pub fn max_pool2d_with_indices(
    x: &Tensor,
    kernel: &[usize],
    strides: &[usize],
    pads: &[usize],
    dilations: &[usize],
    ceil_mode: bool,
) -> KResult<(Tensor, Tensor)> {
    let win = Window::new("max_pool2d", x, kernel, strides, pads, dilations, ceil_mode)?;
    let v = x.to_f64_vec();
    let mut indices = Vec::new();
    let out = win.map(|taps, _| {
        let mut best: Option<(usize, f64)> = None;
        for i in taps {
            let better = match best {
                None => true,
                Some((_, b)) => !b.is_nan() && (v[i].is_nan() || v[i] > b),
            };
            if better {
                best = Some((i, v[i]));
            }
        }
        indices.push(best.map_or(-1, |(i, _)| i as i64));
        best.map_or(f64::NEG_INFINITY, |(_, b)| b)
    });
    let shape = win.out_shape();
    let values = Tensor::from_parts(shape.clone(), TensorData::from_f64_slice(x.dtype(), &out));
    Ok((values, Tensor::from_i64_vec(DType::I64, &shape, &indices)))
}

/// ONNX `AveragePool` on `[N, C, H, W]`, with dilations (opset 19). With
/// `count_include_pad` the divisor counts padding positions (but not the
/// overhang `ceil_mode` adds past the padding); otherwise only real
/// elements. Float dtypes only.
#[allow(clippy::too_many_arguments)]
pub fn avg_pool2d(
    x: &Tensor,
    kernel: &[usize],
    strides: &[usize],
    pads: &[usize],
    dilations: &[usize],
    ceil_mode: bool,
    count_include_pad: bool,
) -> KResult<Tensor> {
    if !x.dtype().is_float() {
        return Err(unsupported("avg_pool2d", format!("dtype {}", x.dtype())));
    }
    let win = Window::new("avg_pool2d", x, kernel, strides, pads, dilations, ceil_mode)?;
    let v = x.to_f64_vec();
    let out = win.map(|taps, padded_count| {
        let (mut sum, mut real) = (0.0, 0usize);
        for i in taps {
            sum += v[i];
            real += 1;
        }
        sum / if count_include_pad {
            padded_count
        } else {
            real
        } as f64
    });
    Ok(Tensor::from_parts(
        win.out_shape(),
        TensorData::from_f64_slice(x.dtype(), &out),
    ))
}

/// ONNX `GlobalAveragePool`: mean over every dim after the first two
/// (rank >= 3), keeping them as size 1.
pub fn global_avg_pool(x: &Tensor) -> KResult<Tensor> {
    global("global_avg_pool", x, ReduceOp::Mean)
}

/// ONNX `GlobalMaxPool`: max over every dim after the first two (rank >=
/// 3), keeping them as size 1.
pub fn global_max_pool(x: &Tensor) -> KResult<Tensor> {
    global("global_max_pool", x, ReduceOp::Max)
}

fn global(op: &'static str, x: &Tensor, r: ReduceOp) -> KResult<Tensor> {
    if x.rank() < 3 {
        return Err(shape_mismatch(
            op,
            format!("input {:?} needs rank >= 3", x.shape()),
        ));
    }
    if !x.dtype().is_float() {
        return Err(unsupported(op, format!("dtype {}", x.dtype())));
    }
    let axes: Vec<i64> = (2..x.rank() as i64).collect();
    reduce(r, x, &axes, true)
}

/// Validated pooling geometry.
struct Window {
    n: usize,
    c: usize,
    nc: usize,
    h: usize,
    w: usize,
    k: [usize; 2],
    s: [usize; 2],
    d: [usize; 2],
    pad_begin: [usize; 2],
    pad_end: [usize; 2],
    out: [usize; 2],
}

impl Window {
    fn new(
        op: &'static str,
        x: &Tensor,
        kernel: &[usize],
        strides: &[usize],
        pads: &[usize],
        dilations: &[usize],
        ceil_mode: bool,
    ) -> KResult<Window> {
        // Windows are computed in f64, exact for integers of up to 32 bits.
        let exact_int = x.dtype().is_int() && x.dtype().int_width().is_some_and(|w| w <= 32);
        if !(x.dtype().is_float() || exact_int) {
            return Err(unsupported(op, format!("dtype {}", x.dtype())));
        }
        let &[n, c, h, w] = x.shape() else {
            return Err(shape_mismatch(
                op,
                format!("input {:?} must be 4-D NCHW", x.shape()),
            ));
        };
        let (&[kh, kw], &[sh, sw], &[dh, dw], &[pt, pl, pb, pr]) =
            (kernel, strides, dilations, pads)
        else {
            return Err(invalid(
                op,
                format!("need 2 kernel dims, 2 strides, 2 dilations and 4 pads, got {kernel:?}, {strides:?}, {dilations:?}, {pads:?}"),
            ));
        };
        if [kh, kw, sh, sw, dh, dw].contains(&0) {
            return Err(invalid(
                op,
                "kernel, strides and dilations must be positive",
            ));
        }
        let oh = pooled_dim(op, h, kh, sh, dh, pt, pb, ceil_mode)?;
        let ow = pooled_dim(op, w, kw, sw, dw, pl, pr, ceil_mode)?;
        crate::tensor::checked_numel(op, &[n, c, oh, ow])?;
        Ok(Window {
            n,
            c,
            nc: n * c,
            h,
            w,
            k: [kh, kw],
            s: [sh, sw],
            d: [dh, dw],
            pad_begin: [pt, pl],
            pad_end: [pb, pr],
            out: [oh, ow],
        })
    }

    fn out_shape(&self) -> Vec<usize> {
        vec![self.n, self.c, self.out[0], self.out[1]]
    }

    /// Calls `f(taps, padded_count)` for every output element in order:
    /// `taps` yields the input offsets of the real elements in the window,
    /// `padded_count` is how many window positions lie inside the padded
    /// input.
    fn map<F>(&self, mut f: F) -> Vec<f64>
    where
        F: FnMut(&mut dyn Iterator<Item = usize>, usize) -> f64,
    {
        let [oh, ow] = self.out;
        let mut out = Vec::with_capacity(self.nc * oh * ow);
        for plane in 0..self.nc {
            let base = plane * self.h * self.w;
            for oy in 0..oh {
                let rows = self.positions(0, oy, self.h);
                for ox in 0..ow {
                    let cols = self.positions(1, ox, self.w);
                    let padded = rows.1 * cols.1;
                    let mut taps = rows
                        .0
                        .iter()
                        .flat_map(|&iy| cols.0.iter().map(move |&ix| base + iy * self.w + ix));
                    out.push(f(&mut taps, padded));
                }
            }
        }
        out
    }

    /// Along `axis`, the real input indices under output position `o`, and
    /// the number of window taps inside the padded extent; computed from
    /// the window's arithmetic, so a huge kernel costs nothing beyond the
    /// taps that hit the input.
    fn positions(&self, axis: usize, o: usize, len: usize) -> (Vec<usize>, usize) {
        let k = self.k[axis] as u128;
        let (s, d) = (self.s[axis] as u128, self.d[axis] as u128);
        let pb = self.pad_begin[axis] as u128;
        let total = pb + len as u128 + self.pad_end[axis] as u128;
        let start = o as u128 * s; // in padded coordinates
                                   // Taps t in [0, k) lie at start + t * d; count those below `limit`.
        let below = |limit: u128| -> u128 {
            if start >= limit {
                0
            } else {
                k.min((limit - start).div_ceil(d))
            }
        };
        let padded = below(total);
        let first_real = if start >= pb {
            0
        } else {
            (pb - start).div_ceil(d)
        };
        let end_real = below(pb + len as u128);
        let real = (first_real..end_real.max(first_real))
            .map(|t| (start + t * d - pb) as usize)
            .collect();
        (real, padded as usize)
    }
}

/// Output size of a pooled dim. In ceil mode a last window that would start
/// past the input and its begin padding is dropped (PyTorch and ONNX
/// Runtime agree on this).
#[allow(clippy::too_many_arguments)]
fn pooled_dim(
    op: &'static str,
    input: usize,
    k: usize,
    s: usize,
    d: usize,
    pb: usize,
    pe: usize,
    ceil: bool,
) -> KResult<usize> {
    let span = input.checked_add(pb).and_then(|v| v.checked_add(pe));
    let eff = (k - 1).checked_mul(d).and_then(|v| v.checked_add(1));
    let (Some(span), Some(eff)) = (span, eff) else {
        return Err(invalid(op, "window arithmetic overflows"));
    };
    if span < eff {
        return Err(invalid(
            op,
            format!("window {eff} is larger than padded input {span}"),
        ));
    }
    let num = span - eff;
    let mut out = if ceil {
        num.div_ceil(s) + 1
    } else {
        num / s + 1
    };
    if ceil && (out - 1).saturating_mul(s) >= input + pb {
        out -= 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x44() -> Tensor {
        Tensor::from_f64(vec![1, 1, 4, 4], (0..16).map(f64::from).collect()).unwrap()
    }

    #[test]
    fn max_pool_basic_and_padding() {
        let y = max_pool2d(&x44(), &[2, 2], &[2, 2], &[0; 4], &[1, 1], false).unwrap();
        assert_eq!(y.shape(), &[1, 1, 2, 2]);
        assert_eq!(y.to_f64_vec(), vec![5.0, 7.0, 13.0, 15.0]);
        let neg = crate::kernels::unary(crate::kernels::UnaryOp::Neg, &x44()).unwrap();
        let y = max_pool2d(&neg, &[3, 3], &[2, 2], &[1, 1, 1, 1], &[1, 1], false).unwrap();
        // Padding counts as -inf, so the corner sees only real (negative) values.
        assert_eq!(y.to_f64_vec(), vec![0.0, -1.0, -4.0, -5.0]);
        let y = max_pool2d(&x44(), &[2, 2], &[1, 1], &[0; 4], &[2, 2], false).unwrap();
        assert_eq!(y.shape(), &[1, 1, 2, 2]);
        assert_eq!(y.to_f64_vec(), vec![10.0, 11.0, 14.0, 15.0]);
    }

    #[test]
    fn ceil_mode_sizes() {
        let x = Tensor::from_f64(vec![1, 1, 5, 5], (0..25).map(f64::from).collect()).unwrap();
        let f = max_pool2d(&x, &[2, 2], &[2, 2], &[0; 4], &[1, 1], false).unwrap();
        assert_eq!(f.shape(), &[1, 1, 2, 2]);
        let c = max_pool2d(&x, &[2, 2], &[2, 2], &[0; 4], &[1, 1], true).unwrap();
        assert_eq!(c.shape(), &[1, 1, 3, 3]);
        assert_eq!(c.to_f64_vec()[8], 24.0);
        // The last window would start in the end padding: dropped.
        let d = max_pool2d(&x44(), &[2, 2], &[3, 3], &[1, 1, 1, 1], &[1, 1], true).unwrap();
        assert_eq!(d.shape(), &[1, 1, 2, 2]);
        let a = avg_pool2d(&x, &[2, 2], &[2, 2], &[0; 4], &[1, 1], true, false).unwrap();
        assert_eq!(a.to_f64_vec()[2], (4.0 + 9.0) / 2.0);
        assert_eq!(a.to_f64_vec()[8], 24.0);
    }

    #[test]
    fn avg_pool_divisors() {
        let x = x44();
        let incl = avg_pool2d(&x, &[3, 3], &[2, 2], &[1, 1, 1, 1], &[1, 1], false, true).unwrap();
        let excl = avg_pool2d(&x, &[3, 3], &[2, 2], &[1, 1, 1, 1], &[1, 1], false, false).unwrap();
        assert_eq!(incl.shape(), &[1, 1, 2, 2]);
        // Top-left window covers x[0..2, 0..2] = 0+1+4+5 = 10.
        assert_eq!(incl.to_f64_vec()[0], 10.0 / 9.0);
        assert_eq!(excl.to_f64_vec()[0], 10.0 / 4.0);
        assert!(avg_pool2d(
            &Tensor::zeros(DType::I8, &[1, 1, 2, 2]),
            &[1, 1],
            &[1, 1],
            &[0; 4],
            &[1, 1],
            false,
            false
        )
        .is_err());
    }

    #[test]
    fn global_pools_and_errors() {
        let x = Tensor::from_f32(vec![1, 2, 2], vec![1.0, 3.0, -1.0, 5.0]).unwrap();
        let a = global_avg_pool(&x).unwrap();
        assert_eq!(a.shape(), &[1, 2, 1]);
        assert_eq!(a.to_f64_vec(), vec![2.0, 2.0]);
        assert_eq!(global_max_pool(&x).unwrap().to_f64_vec(), vec![3.0, 5.0]);
        assert!(global_avg_pool(&Tensor::zeros(DType::F32, &[2, 2])).is_err());
        assert!(max_pool2d(&x, &[1, 1], &[1, 1], &[0; 4], &[1, 1], false).is_err());
        assert!(max_pool2d(&x44(), &[5, 1], &[1, 1], &[0; 4], &[1, 1], false).is_err());
        assert!(max_pool2d(&x44(), &[0, 1], &[1, 1], &[0; 4], &[1, 1], false).is_err());
        assert!(max_pool2d(&x44(), &[1, 1], &[1, 1], &[0; 3], &[1, 1], false).is_err());
        let i = Tensor::from_i8(vec![1, 1, 1, 2], vec![-3, 4]).unwrap();
        assert_eq!(
            max_pool2d(&i, &[1, 2], &[1, 1], &[0; 4], &[1, 1], false)
                .unwrap()
                .to_i64_vec(),
            vec![4]
        );
    }
}
