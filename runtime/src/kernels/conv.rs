//! 2-D convolution (ONNX `Conv` on NCHW) by im2col and the blocked matmul.

use super::matmul::{gemm_accumulate, Acc, MatElem};
use super::{invalid, require_float, require_same_dtype, shape_mismatch, KResult};
use crate::tensor::checked_numel;
use crate::{Tensor, TensorData};

/// ONNX `Conv` for `x: [N, C, H, W]` and `w: [M, C/group, kH, kW]` with an
/// optional `bias: [M]`; `strides` and `dilations` have 2 entries, `pads`
/// 4 (`[top, left, bottom, right]`). Float dtypes only; `f16`/`bf16`
/// accumulate in `f32`.
pub fn conv2d(
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    strides: &[usize],
    pads: &[usize],
    dilations: &[usize],
    group: usize,
) -> KResult<Tensor> {
    const OP: &str = "conv2d";
    require_float(OP, x.dtype())?;
    require_same_dtype(OP, x.dtype(), w.dtype())?;
    if let Some(b) = bias {
        require_same_dtype(OP, x.dtype(), b.dtype())?;
    }
    let geom = Geometry::new(
        x.shape(),
        w.shape(),
        bias.map(|b| b.shape()),
        strides,
        pads,
        dilations,
        group,
    )?;
    let acc = match (x.data(), w.data()) {
        (TensorData::F64(xv), TensorData::F64(wv)) => {
            let b = bias.map(|b| b.to_f64_vec());
            Acc::F64(geom.run(xv, wv, b.as_deref()))
        }
        (xd, wd) => {
            let b = bias.map(|b| b.data().to_f32_vec());
            Acc::F32(geom.run(&xd.to_f32_vec(), &wd.to_f32_vec(), b.as_deref()))
        }
    };
    Ok(Tensor::from_parts(
        geom.out_shape(),
        acc.into_data(x.dtype()),
    ))
}

/// Validated sizes of one convolution.
struct Geometry {
    n: usize,
    c: usize,
    h: usize,
    w: usize,
    m: usize,
    kh: usize,
    kw: usize,
    oh: usize,
    ow: usize,
    stride: [usize; 2],
    dilation: [usize; 2],
    pad_begin: [usize; 2],
    group: usize,
}

impl Geometry {
    fn new(
        xs: &[usize],
        ws: &[usize],
        bias: Option<&[usize]>,
        strides: &[usize],
        pads: &[usize],
        dilations: &[usize],
        group: usize,
    ) -> KResult<Geometry> {
        const OP: &str = "conv2d";
        let (&[n, c, h, w], &[m, cg, kh, kw]) = (xs, ws) else {
            return Err(shape_mismatch(
                OP,
                format!("x {xs:?} and w {ws:?} must both be 4-D"),
            ));
        };
        let (&[sh, sw], &[dh, dw], &[pt, pl, pb, pr]) = (strides, dilations, pads) else {
            return Err(invalid(
                OP,
                format!("need 2 strides, 2 dilations and 4 pads, got {strides:?}, {dilations:?}, {pads:?}"),
            ));
        };
        if group == 0 || sh == 0 || sw == 0 || dh == 0 || dw == 0 {
            return Err(invalid(OP, "group, strides and dilations must be positive"));
        }
        if c % group != 0 || m % group != 0 || cg != c / group {
            return Err(shape_mismatch(
                OP,
                format!("x {xs:?} and w {ws:?} do not fit group {group} (need C = group * w[1], M % group == 0)"),
            ));
        }
        if let Some(bs) = bias {
            if bs != [m] {
                return Err(shape_mismatch(OP, format!("bias {bs:?} must be [{m}]")));
            }
        }
        let oh = out_dim(h, kh, sh, dh, pt, pb)?;
        let ow = out_dim(w, kw, sw, dw, pl, pr)?;
        checked_numel(OP, &[n, m, oh, ow])?;
        checked_numel(OP, &[cg, kh, kw, oh, ow])?;
        Ok(Geometry {
            n,
            c,
            h,
            w,
            m,
            kh,
            kw,
            oh,
            ow,
            stride: [sh, sw],
            dilation: [dh, dw],
            pad_begin: [pt, pl],
            group,
        })
    }

    fn out_shape(&self) -> Vec<usize> {
        vec![self.n, self.m, self.oh, self.ow]
    }

    /// Per image and group: im2col the input channels of the group into
    /// `[C/g * kH * kW, oH * oW]`, then multiply the group's filters by it.
    fn run<T: MatElem>(&self, x: &[T], w: &[T], bias: Option<&[T]>) -> Vec<T> {
        let (cg, mg) = (self.c / self.group, self.m / self.group);
        let k = cg * self.kh * self.kw;
        let spatial = self.oh * self.ow;
        let mut out = vec![T::ZERO; self.n * self.m * spatial];
        let mut cols = vec![T::ZERO; k * spatial];
        for img in 0..self.n {
            for g in 0..self.group {
                let x_base = (img * self.c + g * cg) * self.h * self.w;
                self.im2col(&x[x_base..], cg, &mut cols);
                let w_g = &w[g * mg * k..][..mg * k];
                let out_g = &mut out[(img * self.m + g * mg) * spatial..][..mg * spatial];
                gemm_accumulate(mg, k, spatial, w_g, &cols, out_g);
            }
        }
        if let Some(b) = bias {
            for (i, plane) in out.chunks_exact_mut(spatial.max(1)).enumerate() {
                let bv = b[i % self.m];
                plane
                    .iter_mut()
                    .for_each(|v| *v = T::mul_add(*v, bv, T::ONE));
            }
        }
        out
    }

    fn im2col<T: MatElem>(&self, x: &[T], channels: usize, cols: &mut [T]) {
        let spatial = self.oh * self.ow;
        let mut row = 0;
        for ch in 0..channels {
            let plane = &x[ch * self.h * self.w..][..self.h * self.w];
            for ki in 0..self.kh {
                for kj in 0..self.kw {
                    let dst = &mut cols[row * spatial..][..spatial];
                    for oy in 0..self.oh {
                        let iy = (oy * self.stride[0] + ki * self.dilation[0])
                            .checked_sub(self.pad_begin[0]);
                        for ox in 0..self.ow {
                            let ix = (ox * self.stride[1] + kj * self.dilation[1])
                                .checked_sub(self.pad_begin[1]);
                            dst[oy * self.ow + ox] = match (iy, ix) {
                                (Some(iy), Some(ix)) if iy < self.h && ix < self.w => {
                                    plane[iy * self.w + ix]
                                }
                                _ => T::ZERO,
                            };
                        }
                    }
                    row += 1;
                }
            }
        }
    }
}

/// Output size of one spatial dim: `(in + pads - dilated_kernel) / stride + 1`.
pub(crate) fn out_dim(
    input: usize,
    k: usize,
    s: usize,
    d: usize,
    pb: usize,
    pe: usize,
) -> KResult<usize> {
    let span = input.checked_add(pb).and_then(|v| v.checked_add(pe));
    let eff = k
        .checked_sub(1)
        .and_then(|v| v.checked_mul(d))
        .and_then(|v| v.checked_add(1));
    match (span, eff) {
        (Some(span), Some(eff)) if k > 0 && span >= eff => Ok((span - eff) / s + 1),
        _ => Err(invalid(
            "conv2d",
            format!("kernel {k} (dilation {d}) does not fit input {input} with pads {pb}+{pe}"),
        )),
    }
}

/// The elements of the im2col buffer [`conv2d`] needs (one image and
/// group at a time: `C/group * kH * kW * oH * oW`), so that a caller can
/// bound it before running; errors as [`conv2d`] does on bad operands.
pub fn conv2d_workspace(
    x: &[usize],
    w: &[usize],
    strides: &[usize],
    pads: &[usize],
    dilations: &[usize],
    group: usize,
) -> KResult<usize> {
    let g = Geometry::new(x, w, None, strides, pads, dilations, group)?;
    checked_numel("conv2d", &[g.c / g.group, g.kh, g.kw, g.oh, g.ow])
}

/// The attributes of [`conv_transpose2d`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvTransposeParams {
    /// Strides (2).
    pub strides: Vec<usize>,
    /// Pads `[top, left, bottom, right]`.
    pub pads: Vec<usize>,
    /// Dilations (2).
    pub dilations: Vec<usize>,
    /// Channel groups.
    pub group: usize,
    /// Extra size at the end of each spatial dimension (2).
    pub output_padding: Vec<usize>,
    /// The output's spatial sizes, when given explicitly.
    pub output_shape: Option<Vec<usize>>,
    /// The largest result, in bytes of its dtype, the kernel may build.
    pub max_bytes: usize,
}

/// ONNX `ConvTranspose` for `x: [N, C, H, W]` and `w: [C, M/group, kH, kW]`
/// with an optional `bias: [M]`: every input element adds `w` times itself
/// to the output at `i * stride + k * dilation - pad_begin` (positions
/// outside the output are dropped). Accumulates in `f64`.
pub fn conv_transpose2d(
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    p: &ConvTransposeParams,
) -> KResult<Tensor> {
    const OP: &str = "conv_transpose2d";
    require_float(OP, x.dtype())?;
    require_same_dtype(OP, x.dtype(), w.dtype())?;
    let (&[n, c, h, wi], &[wc, mg, kh, kw]) = (x.shape(), w.shape()) else {
        return Err(shape_mismatch(
            OP,
            format!(
                "input {:?} and weight {:?} must be 4-D",
                x.shape(),
                w.shape()
            ),
        ));
    };
    let ConvTransposeParams {
        strides,
        pads,
        dilations,
        output_padding,
        ..
    } = p;
    let g = p.group;
    if strides.len() != 2 || dilations.len() != 2 || pads.len() != 4 || output_padding.len() != 2 {
        return Err(invalid(
            OP,
            "needs 2 strides, 2 dilations, 4 pads and 2 output paddings",
        ));
    }
    if g == 0 || c != wc || c % g != 0 || strides.contains(&0) || dilations.contains(&0) {
        return Err(invalid(
            OP,
            format!(
                "input {:?}, weight {:?}, group {g}, strides {strides:?}, dilations {dilations:?}",
                x.shape(),
                w.shape()
            ),
        ));
    }
    let m = mg * g;
    let b = match bias {
        Some(b) if b.shape() == [m] => {
            require_same_dtype(OP, x.dtype(), b.dtype())?;
            b.to_f64_vec()
        }
        Some(b) => {
            return Err(shape_mismatch(
                OP,
                format!("bias {:?} for {m} output channels", b.shape()),
            ))
        }
        None => vec![0.0; m],
    };
    let size = |i: usize, input: usize, k: usize| -> KResult<usize> {
        if let Some(shape) = &p.output_shape {
            return shape
                .get(i)
                .copied()
                .ok_or_else(|| invalid(OP, "output_shape needs 2 sizes"));
        }
        // In i128, and with the signed in - 1, as the shape function.
        let full = (input as i128 - 1) * strides[i] as i128
            + output_padding[i] as i128
            + (k as i128 - 1) * dilations[i] as i128
            + 1
            - pads[i] as i128
            - pads[i + 2] as i128;
        usize::try_from(full).map_err(|_| {
            invalid(
                OP,
                format!("padding leaves spatial dimension {i} with size {full}"),
            )
        })
    };
    if kh == 0 || kw == 0 {
        return Err(invalid(OP, "the kernel must not be empty"));
    }
    let (oh, ow) = (size(0, h, kh)?, size(1, wi, kw)?);
    let total = checked_numel(OP, &[n, m, oh, ow])?;
    // Accumulated in f64: 8 bytes an element.
    if total.checked_mul(8).is_none_or(|b| b > p.max_bytes) {
        return Err(invalid(
            OP,
            format!(
                "result of shape {:?} is larger than the limit of {} bytes",
                [n, m, oh, ow],
                p.max_bytes
            ),
        ));
    }
    if total == 0 {
        return Ok(Tensor::from_parts(
            vec![n, m, oh, ow],
            TensorData::zeros(x.dtype(), 0),
        ));
    }
    // Output positions in i128: strides, dilations and pads may be huge.
    let position = |i: usize, at: usize, k: usize| -> i128 {
        at as i128 * strides[i] as i128 + k as i128 * dilations[i] as i128 - pads[i] as i128
    };
    let (xv, wv) = (x.to_f64_vec(), w.to_f64_vec());
    let mut out = vec![0.0; total];
    for (o, chunk) in out.chunks_mut(oh * ow).enumerate() {
        chunk.fill(b[o % m]);
    }
    let cg = c / g;
    for img in 0..n {
        for ic in 0..c {
            let grp = ic / cg;
            for iy in 0..h {
                for ix in 0..wi {
                    let v = xv[((img * c + ic) * h + iy) * wi + ix];
                    for j in 0..mg {
                        let oc = grp * mg + j;
                        let base = (img * m + oc) * oh * ow;
                        for ky in 0..kh {
                            let y = position(0, iy, ky);
                            if y < 0 || y >= oh as i128 {
                                continue;
                            }
                            for kx in 0..kw {
                                let xo = position(1, ix, kx);
                                if xo < 0 || xo >= ow as i128 {
                                    continue;
                                }
                                let weight = wv[((ic * mg + j) * kh + ky) * kw + kx];
                                out[base + y as usize * ow + xo as usize] += v * weight;
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(Tensor::from_parts(
        vec![n, m, oh, ow],
        TensorData::from_f64_slice(x.dtype(), &out),
    ))
}

/// ONNX's `Col2Im`: the columns of `x` (`[N, C * prod(block), L]`, one per
/// block position) summed into images of `image` (`[N, C, *image]`).
/// `dilations` and `strides` have one entry per spatial dim, `pads` two
/// (the begins, then the ends).
pub fn col2im(
    x: &Tensor,
    image: &[usize],
    block: &[usize],
    dilations: &[usize],
    pads: &[usize],
    strides: &[usize],
) -> KResult<Tensor> {
    require_float("col2im", x.dtype())?;
    if x.dtype().is_narrow() {
        return Err(super::unsupported("col2im", format!("dtype {}", x.dtype())));
    }
    let d = image.len();
    if d == 0
        || block.len() != d
        || dilations.len() != d
        || strides.len() != d
        || pads.len() != 2 * d
    {
        return Err(invalid(
            "col2im",
            format!("image_shape {image:?}, block_shape {block:?}, dilations {dilations:?}, strides {strides:?} and pads {pads:?} do not agree"),
        ));
    }
    if block.contains(&0) || dilations.contains(&0) || strides.contains(&0) {
        return Err(invalid(
            "col2im",
            "block_shape, dilations and strides must be positive",
        ));
    }
    let shape = x.shape();
    let k = checked_numel("col2im", block)?;
    if shape.len() != 3 || !shape[1].is_multiple_of(k) {
        return Err(shape_mismatch(
            "col2im",
            format!("input {shape:?} is not [N, C * {k}, L]"),
        ));
    }
    // Block positions along each dim.
    let mut blocks = Vec::with_capacity(d);
    for i in 0..d {
        let fits = out_dim(
            image[i],
            block[i],
            strides[i],
            dilations[i],
            pads[i],
            pads[i + d],
        );
        blocks.push(fits.map_err(|_| {
            invalid(
                "col2im",
                format!(
                    "block {} (dilation {}) does not fit image dim {i} ({}) with pads {}+{}",
                    block[i],
                    dilations[i],
                    image[i],
                    pads[i],
                    pads[i + d]
                ),
            )
        })?);
    }
    let l = checked_numel("col2im", &blocks)?;
    if shape[2] != l {
        return Err(shape_mismatch(
            "col2im",
            format!(
                "input has {} columns, the image has {l} block positions",
                shape[2]
            ),
        ));
    }
    let (n, c) = (shape[0], shape[1] / k);
    let mut out_shape = vec![n, c];
    out_shape.extend_from_slice(image);
    let total = checked_numel("col2im", &out_shape)?;
    let plane = checked_numel("col2im", image)?;
    let values = x.to_f64_vec();
    let mut out = vec![0.0; total];
    let mut kernel_at = vec![0; d];
    let mut block_at = vec![0; d];
    for ni in 0..n {
        for ci in 0..c {
            for ki in 0..k {
                unravel(ki, block, &mut kernel_at);
                let row = (ni * c * k + ci * k + ki) * l;
                for bi in 0..l {
                    unravel(bi, &blocks, &mut block_at);
                    let mut at = 0;
                    let mut inside = true;
                    for i in 0..d {
                        // Within the padded image (`out_dim` checked it).
                        let p = block_at[i] * strides[i] + kernel_at[i] * dilations[i];
                        if p < pads[i] || p - pads[i] >= image[i] {
                            inside = false;
                            break;
                        }
                        at = at * image[i] + (p - pads[i]);
                    }
                    if inside {
                        out[(ni * c + ci) * plane + at] += values[row + bi];
                    }
                }
            }
        }
    }
    Ok(Tensor::from_f64_vec(x.dtype(), &out_shape, &out))
}

/// The row-major multi-index of linear index `i` in `dims`.
fn unravel(mut i: usize, dims: &[usize], out: &mut [usize]) {
    for j in (0..dims.len()).rev() {
        out[j] = i % dims[j];
        i /= dims[j];
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn col2im_rejects_what_does_not_fit() {
        let x = Tensor::from_f32(vec![1, 4, 4], vec![1.0; 16]).expect("x");
        // 2x2 blocks over a 3x3 image: 4 positions.
        let y = col2im(&x, &[3, 3], &[2, 2], &[1, 1], &[0; 4], &[1, 1]).expect("fits");
        assert_eq!(y.shape(), &[1, 1, 3, 3]);
        assert_eq!(y.to_f64_vec()[4], 4.0);
        // 9 positions on a 4x4 image, not 4.
        assert!(col2im(&x, &[4, 4], &[2, 2], &[1, 1], &[0; 4], &[1, 1]).is_err());
        // Sizes whose products overflow, a block larger than the image, a
        // zero stride: errors, not panics.
        let big = 1usize << 32;
        let empty = Tensor::from_f32(vec![1, 0, 1], vec![]).expect("empty");
        assert!(col2im(&empty, &[big, big], &[big, big], &[1, 1], &[0; 4], &[1, 1]).is_err());
        assert!(col2im(&x, &[1, 1], &[2, 2], &[1, 1], &[0; 4], &[1, 1]).is_err());
        assert!(col2im(&x, &[3, 3], &[2, 2], &[1 << 62, 1], &[0; 4], &[1, 1]).is_err());
        assert!(col2im(&x, &[3, 3], &[2, 2], &[1, 1], &[0; 4], &[0, 1]).is_err());
    }

    use super::*;
    use crate::DType;

    #[allow(clippy::too_many_arguments)]
    fn direct(
        xs: [usize; 4],
        ws: [usize; 4],
        x: &[f64],
        w: &[f64],
        b: &[f64],
        s: [usize; 2],
        p: [usize; 4],
        d: [usize; 2],
        group: usize,
    ) -> (Vec<usize>, Vec<f64>) {
        let [n, c, h, wd] = xs;
        let [m, cg, kh, kw] = ws;
        let oh = (h + p[0] + p[2] - (d[0] * (kh - 1) + 1)) / s[0] + 1;
        let ow = (wd + p[1] + p[3] - (d[1] * (kw - 1) + 1)) / s[1] + 1;
        let mg = m / group;
        let mut out = vec![0.0; n * m * oh * ow];
        for img in 0..n {
            for oc in 0..m {
                let g = oc / mg;
                for oy in 0..oh {
                    for ox in 0..ow {
                        let mut acc = b[oc];
                        for icg in 0..cg {
                            let ic = g * cg + icg;
                            for ki in 0..kh {
                                for kj in 0..kw {
                                    let iy = (oy * s[0] + ki * d[0]) as i64 - p[0] as i64;
                                    let ix = (ox * s[1] + kj * d[1]) as i64 - p[1] as i64;
                                    if iy < 0 || ix < 0 || iy >= h as i64 || ix >= wd as i64 {
                                        continue;
                                    }
                                    let xv =
                                        x[((img * c + ic) * h + iy as usize) * wd + ix as usize];
                                    let wv = w[((oc * cg + icg) * kh + ki) * kw + kj];
                                    acc += xv * wv;
                                }
                            }
                        }
                        out[((img * m + oc) * oh + oy) * ow + ox] = acc;
                    }
                }
            }
        }
        (vec![n, m, oh, ow], out)
    }

    /// x shape, w shape, strides, pads, dilations, group.
    type Case = (
        [usize; 4],
        [usize; 4],
        [usize; 2],
        [usize; 4],
        [usize; 2],
        usize,
    );

    fn pseudo(len: usize, seed: u64) -> Vec<f64> {
        (0..len)
            .map(|i| ((i as u64 * 7919 + seed * 104729) % 211) as f64 / 53.0 - 2.0)
            .collect()
    }

    #[test]
    fn matches_direct_loop() {
        let cases: [Case; 5] = [
            ([1, 1, 5, 5], [1, 1, 3, 3], [1, 1], [0, 0, 0, 0], [1, 1], 1),
            ([2, 4, 7, 6], [6, 2, 3, 2], [2, 1], [1, 2, 0, 1], [2, 1], 2),
            ([1, 3, 9, 9], [3, 1, 3, 3], [2, 2], [2, 2, 2, 2], [3, 2], 3),
            ([1, 2, 4, 4], [4, 2, 1, 1], [1, 1], [0, 0, 0, 0], [1, 1], 1),
            ([2, 6, 8, 5], [4, 3, 2, 3], [3, 2], [1, 0, 2, 3], [2, 2], 2),
        ];
        for (i, (xs, ws, s, p, d, g)) in cases.into_iter().enumerate() {
            let x = pseudo(xs.iter().product(), i as u64);
            let w = pseudo(ws.iter().product(), i as u64 + 10);
            let b = pseudo(ws[0], i as u64 + 20);
            let (want_shape, want) = direct(xs, ws, &x, &w, &b, s, p, d, g);
            let xt = Tensor::from_f64(xs.to_vec(), x).unwrap();
            let wt = Tensor::from_f64(ws.to_vec(), w).unwrap();
            let bt = Tensor::from_f64(vec![ws[0]], b).unwrap();
            let got = conv2d(&xt, &wt, Some(&bt), &s, &p, &d, g).unwrap();
            assert_eq!(got.shape(), &want_shape[..], "case {i}");
            for (a, e) in got.to_f64_vec().iter().zip(&want) {
                assert!((a - e).abs() < 1e-9, "case {i}: {a} vs {e}");
            }
            // f32 path agrees too.
            let xf = crate::kernels::cast(&xt, DType::F32).unwrap();
            let wf = crate::kernels::cast(&wt, DType::F32).unwrap();
            let got = conv2d(&xf, &wf, None, &s, &p, &d, g).unwrap();
            assert_eq!(got.dtype(), DType::F32);
        }
    }

    #[test]
    fn rejects_bad_geometry() {
        let x = Tensor::zeros(DType::F32, &[1, 4, 5, 5]);
        let w = Tensor::zeros(DType::F32, &[2, 2, 3, 3]);
        assert!(conv2d(&x, &w, None, &[1, 1], &[0; 4], &[1, 1], 2).is_ok());
        assert!(conv2d(&x, &w, None, &[1, 1], &[0; 4], &[1, 1], 1).is_err());
        assert!(conv2d(&x, &w, None, &[1, 1], &[0; 4], &[1, 1], 0).is_err());
        assert!(conv2d(&x, &w, None, &[0, 1], &[0; 4], &[1, 1], 2).is_err());
        assert!(conv2d(&x, &w, None, &[1], &[0; 4], &[1, 1], 2).is_err());
        assert!(conv2d(&x, &w, None, &[1, 1], &[0; 4], &[3, 3], 2).is_err());
        let b = Tensor::zeros(DType::F32, &[3]);
        assert!(conv2d(&x, &w, Some(&b), &[1, 1], &[0; 4], &[1, 1], 2).is_err());
        let wi = Tensor::zeros(DType::F64, &[2, 2, 3, 3]);
        assert!(conv2d(&x, &wi, None, &[1, 1], &[0; 4], &[1, 1], 2).is_err());
        let xi = Tensor::zeros(DType::I32, &[1, 4, 5, 5]);
        assert!(conv2d(&xi, &xi, None, &[1, 1], &[0; 4], &[1, 1], 2).is_err());
    }

    #[test]
    fn conv_transpose_scatters_the_kernel() {
        // The ONNX example: a 3x3 input of 0..8 and two 3x3 kernels of ones.
        let x = Tensor::from_f32(vec![1, 1, 3, 3], (0..9).map(|v| v as f32).collect()).unwrap();
        let w = Tensor::from_f32(vec![1, 2, 3, 3], vec![1.0; 18]).unwrap();
        let p = ConvTransposeParams {
            strides: vec![1, 1],
            pads: vec![0; 4],
            dilations: vec![1, 1],
            group: 1,
            output_padding: vec![0, 0],
            output_shape: None,
            max_bytes: usize::MAX,
        };
        let y = conv_transpose2d(&x, &w, None, &p).unwrap();
        assert_eq!(y.shape(), &[1, 2, 5, 5]);
        let v = y.to_f64_vec();
        assert_eq!(&v[..5], &[0.0, 1.0, 3.0, 3.0, 2.0]);
        assert_eq!(&v[10..15], &[9.0, 21.0, 36.0, 27.0, 15.0]);
        assert_eq!(&v[25..30], &v[..5]);
        // Stride 2 with pads: output 2 * (3 - 1) + 3 - 2 = 5.
        let strided = ConvTransposeParams {
            strides: vec![2, 2],
            pads: vec![1, 1, 1, 1],
            ..p.clone()
        };
        assert_eq!(
            conv_transpose2d(&x, &w, None, &strided).unwrap().shape(),
            &[1, 2, 5, 5]
        );
        let bad = ConvTransposeParams {
            pads: vec![9, 9, 9, 9],
            ..p.clone()
        };
        assert!(conv_transpose2d(&x, &w, None, &bad).is_err());
        // An empty output, huge dilations, an empty input: no panics.
        let empty = ConvTransposeParams {
            output_shape: Some(vec![0, 4]),
            ..p.clone()
        };
        assert_eq!(
            conv_transpose2d(&x, &w, None, &empty).unwrap().shape(),
            &[1, 2, 0, 4]
        );
        let huge = ConvTransposeParams {
            output_shape: Some(vec![4, 4]),
            dilations: vec![1 << 62, 1],
            ..p.clone()
        };
        let limited = ConvTransposeParams {
            output_shape: Some(vec![1 << 20, 1 << 20]),
            max_bytes: 1 << 30,
            ..p.clone()
        };
        assert!(conv_transpose2d(&x, &w, None, &limited).is_err());
        assert_eq!(
            conv_transpose2d(&x, &w, None, &huge).unwrap().shape(),
            &[1, 2, 4, 4]
        );
        let none = Tensor::from_f32(vec![1, 1, 0, 3], vec![]).unwrap();
        let strided2 = ConvTransposeParams {
            strides: vec![2, 1],
            ..p.clone()
        };
        // s * (0 - 1) + 3 = 1 rows, as the shape function says.
        assert_eq!(
            conv_transpose2d(&none, &w, None, &strided2)
                .unwrap()
                .shape(),
            &[1, 2, 1, 5]
        );
        let b = Tensor::from_f32(vec![3], vec![0.0; 3]).unwrap();
        assert!(conv_transpose2d(&x, &w, Some(&b), &p).is_err());
    }
}
