//! Matrix products of a few rows (`m ≤ 8`: a linear layer on one or a few
//! tokens, a classifier on one image) in f32, streaming the right operand
//! once in its own layout.
//!
//! The `gemm` crate packs the right operand into panels on every call: for
//! a few rows that is a second and third pass over a weight that the
//! product itself reads only once, and it dominates (a `4 x 256 x 1024`
//! product of a ConvNeXt block). Here each column block of the result is
//! accumulated in registers over all of `k` (right operand row-major) or
//! each result element is a dot product of two contiguous rows (right
//! operand with contiguous `k`, as a `Gemm` with `transB`). AVX2 and FMA
//! when the CPU has them (detected at run time); otherwise, or for other
//! layouts, [`try_product`] declines and the caller uses the `gemm` crate.

/// The most rows this path takes.
pub(crate) const MAX_ROWS: usize = 8;

/// `out = lhs * rhs` for an `m x n x k` block of f32 (`strides`: each
/// operand's row and column strides in elements), when `m` is small and
/// the layouts suit; `false` (nothing written) otherwise.
///
/// # Safety
/// Every element the pointers and strides reach is inside its buffer, and
/// no other thread writes the output block.
pub(crate) unsafe fn try_product(
    [lhs, rhs, out]: [*mut f32; 3],
    [m, n, k]: [usize; 3],
    [l, r, o]: [[isize; 2]; 3],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if k == 0 || !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
            return false;
        }
        let few_rows = (1..=MAX_ROWS).contains(&m) && o[1] == 1;
        // SAFETY: the features were detected; the rest is the caller's.
        unsafe {
            if few_rows && r[1] == 1 && n >= 16 {
                // Rows four at a time: each pass streams the right operand.
                for r0 in (0..m).step_by(4) {
                    let rows = (m - r0).min(4);
                    let (a, c) = (
                        lhs.offset(r0 as isize * l[0]),
                        out.offset(r0 as isize * o[0]),
                    );
                    avx2::row_major(rows, n, k, a, l, rhs, r[0], c, o[0]);
                }
                return true;
            }
            if few_rows && r[0] == 1 && l[1] == 1 && k >= 8 {
                avx2::dots(m, n, k, lhs, l[0], rhs, r[1], out, [o[0], 1]);
                return true;
            }
            // A few columns (a convolution's product on a small map: `[M,
            // K] x [K, n]`, the weight on the left) with the left rows
            // contiguous: the transposed product, each result element the
            // dot product of a left row with one of the right columns,
            // copied contiguous first (`n · k` elements); the weight streams
            // once.
            if (1..=MAX_ROWS).contains(&n) && m >= 16 && l[1] == 1 && k >= 8 {
                let mut columns = vec![0.0f32; n * k];
                for (i, column) in columns.chunks_mut(k).enumerate() {
                    for (kk, slot) in column.iter_mut().enumerate() {
                        *slot = *rhs.offset(kk as isize * r[0] + i as isize * r[1]);
                    }
                }
                avx2::dots(
                    n,
                    m,
                    k,
                    columns.as_ptr(),
                    k as isize,
                    lhs,
                    l[0],
                    out,
                    [o[1], o[0]],
                );
                return true;
            }
        }
        false
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (lhs, rhs, out, m, n, k, l, r, o);
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// Columns of the result computed together: a block of every row
    /// stays in L1 while the right operand's rows stream through it.
    const BLOCK: usize = 256;

    /// `rows ≤ 4` rows of the result, right operand row-major (`b[kk *
    /// rb + j]`): for each block of columns, the right operand's rows are
    /// read in order (contiguous pieces, as the prefetcher likes) four at a
    /// time, each piece added into every row's accumulators in L1.
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn row_major(
        rows: usize,
        n: usize,
        k: usize,
        a: *const f32,
        la: [isize; 2],
        b: *const f32,
        rb: isize,
        c: *mut f32,
        rc: isize,
    ) {
        // SAFETY: the caller keeps every read and write inside the buffers.
        unsafe {
            let at = |i: usize, kk: usize| *a.offset(i as isize * la[0] + kk as isize * la[1]);
            let brow = |kk: usize, j: usize| b.offset(kk as isize * rb + j as isize);
            let mut acc = [[0.0f32; BLOCK]; 4];
            for j0 in (0..n).step_by(BLOCK) {
                let width = BLOCK.min(n - j0);
                let vectors = width - width % 8;
                for row in acc.iter_mut().take(rows) {
                    row[..width].fill(0.0);
                }
                let mut kk = 0;
                while kk + 4 <= k {
                    let (p0, p1, p2, p3) = (
                        brow(kk, j0),
                        brow(kk + 1, j0),
                        brow(kk + 2, j0),
                        brow(kk + 3, j0),
                    );
                    for (i, row) in acc.iter_mut().enumerate().take(rows) {
                        let a0 = _mm256_set1_ps(at(i, kk));
                        let a1 = _mm256_set1_ps(at(i, kk + 1));
                        let a2 = _mm256_set1_ps(at(i, kk + 2));
                        let a3 = _mm256_set1_ps(at(i, kk + 3));
                        let out = row.as_mut_ptr();
                        let mut v = 0;
                        while v < vectors {
                            let mut s = _mm256_loadu_ps(out.add(v));
                            s = _mm256_fmadd_ps(a0, _mm256_loadu_ps(p0.add(v)), s);
                            s = _mm256_fmadd_ps(a1, _mm256_loadu_ps(p1.add(v)), s);
                            s = _mm256_fmadd_ps(a2, _mm256_loadu_ps(p2.add(v)), s);
                            s = _mm256_fmadd_ps(a3, _mm256_loadu_ps(p3.add(v)), s);
                            _mm256_storeu_ps(out.add(v), s);
                            v += 8;
                        }
                        for (t, slot) in row.iter_mut().enumerate().take(width).skip(vectors) {
                            let mut s = *slot;
                            s = at(i, kk).mul_add(*p0.add(t), s);
                            s = at(i, kk + 1).mul_add(*p1.add(t), s);
                            s = at(i, kk + 2).mul_add(*p2.add(t), s);
                            s = at(i, kk + 3).mul_add(*p3.add(t), s);
                            *slot = s;
                        }
                    }
                    kk += 4;
                }
                for kk in kk..k {
                    let p = brow(kk, j0);
                    for (i, row) in acc.iter_mut().enumerate().take(rows) {
                        let x = at(i, kk);
                        for (t, slot) in row[..width].iter_mut().enumerate() {
                            *slot = x.mul_add(*p.add(t), *slot);
                        }
                    }
                }
                for (i, row) in acc.iter().enumerate().take(rows) {
                    std::ptr::copy_nonoverlapping(
                        row.as_ptr(),
                        c.offset(i as isize * rc + j0 as isize),
                        width,
                    );
                }
            }
        }
    }

    /// Right operand with contiguous `k` (`b[j * cb + kk]`) and left rows
    /// with contiguous `k`: each result element a dot product, written at
    /// `c[i * rc[0] + j * rc[1]]`. Four
    /// columns at a time, one accumulator each (four independent chains of
    /// FMAs), their rows of the right operand read from L1 for every left
    /// row after the first.
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn dots(
        m: usize,
        n: usize,
        k: usize,
        a: *const f32,
        ra: isize,
        b: *const f32,
        cb: isize,
        c: *mut f32,
        rc: [isize; 2],
    ) {
        // SAFETY: the caller keeps every read and write inside the buffers.
        unsafe {
            let body = k - k % 8;
            let mut j = 0;
            while j < n {
                let cols = (n - j).min(4);
                let bj: [*const f32; 4] =
                    std::array::from_fn(|t| b.offset((j + t.min(cols - 1)) as isize * cb));
                for i in 0..m {
                    let ai = a.offset(i as isize * ra);
                    let mut acc = [_mm256_setzero_ps(); 4];
                    let mut kk = 0;
                    while kk < body {
                        let av = _mm256_loadu_ps(ai.add(kk));
                        for (lane, col) in acc.iter_mut().zip(&bj) {
                            *lane = _mm256_fmadd_ps(av, _mm256_loadu_ps(col.add(kk)), *lane);
                        }
                        kk += 8;
                    }
                    for (t, (lane, col)) in acc.iter().zip(&bj).enumerate().take(cols) {
                        let mut sum = horizontal_sum(*lane);
                        for u in body..k {
                            sum = (*ai.add(u)).mul_add(*col.add(u), sum);
                        }
                        *c.offset(i as isize * rc[0] + (j + t) as isize * rc[1]) = sum;
                    }
                }
                j += cols;
            }
        }
    }

    #[target_feature(enable = "avx2,fma")]
    fn horizontal_sum(v: __m256) -> f32 {
        let halves = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let pairs = _mm_add_ps(halves, _mm_movehl_ps(halves, halves));
        let one = _mm_add_ss(pairs, _mm_shuffle_ps(pairs, pairs, 1));
        _mm_cvtss_f32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{plain_product, values};
    use super::*;

    /// [`plain_product`] rounded to f32.
    fn naive(a: &[f32], b: &[f32], dims: [usize; 3], l: [isize; 2], r: [isize; 2]) -> Vec<f32> {
        plain_product(a, l, b, r, dims)
            .into_iter()
            .map(|s| s as f32)
            .collect()
    }

    /// Whether this CPU takes the fast path at all.
    fn fast() -> bool {
        #[cfg(target_arch = "x86_64")]
        return is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    #[test]
    fn few_rows_match_a_plain_product_in_both_layouts() {
        for m in 1..=MAX_ROWS {
            for (n, k) in [(16, 1), (17, 9), (40, 33), (64, 8), (100, 70)] {
                // Left rows padded (row stride k + 3), k contiguous.
                let l = [k as isize + 3, 1];
                let a = values(m * (k + 3), 7);
                for transposed in [false, true] {
                    let r = if transposed {
                        [1, k as isize + 1]
                    } else {
                        [n as isize + 2, 1]
                    };
                    let b = values(if transposed { n * (k + 1) } else { k * (n + 2) }, 11);
                    let mut c = vec![f32::NAN; m * n];
                    let ptrs = [
                        a.as_ptr() as *mut f32,
                        b.as_ptr() as *mut f32,
                        c.as_mut_ptr(),
                    ];
                    // SAFETY: the strides stay inside the vectors above.
                    let done = unsafe { try_product(ptrs, [m, n, k], [l, r, [n as isize, 1]]) };
                    let takes = if transposed { k >= 8 } else { n >= 16 };
                    assert_eq!(done, fast() && takes, "{m}x{n}x{k} {transposed}");
                    if !done {
                        continue; // declined: the gemm crate's product then
                    }
                    let want = naive(&a, &b, [m, n, k], l, r);
                    for (g, w) in c.iter().zip(&want) {
                        assert!(
                            (g - w).abs() <= 1e-4 * w.abs().max(1.0),
                            "{m}x{n}x{k} {transposed}: {g} vs {w}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn few_columns_match_a_plain_product() {
        for n in 1..=MAX_ROWS {
            for (m, k) in [(16, 8), (40, 33), (70, 100)] {
                let l = [k as isize + 1, 1]; // the weight's rows, padded
                let a = values(m * (k + 1), 3);
                let r = [n as isize, 1]; // [K, n], row-major
                let b = values(k * n, 5);
                let mut c = vec![f32::NAN; m * n];
                let ptrs = [
                    a.as_ptr() as *mut f32,
                    b.as_ptr() as *mut f32,
                    c.as_mut_ptr(),
                ];
                // SAFETY: the strides stay inside the vectors above.
                let done = unsafe { try_product(ptrs, [m, n, k], [l, r, [n as isize, 1]]) };
                assert_eq!(done, fast(), "{m}x{n}x{k}");
                if !done {
                    continue;
                }
                let want = naive(&a, &b, [m, n, k], l, r);
                for (g, w) in c.iter().zip(&want) {
                    assert!(
                        (g - w).abs() <= 1e-4 * w.abs().max(1.0),
                        "{m}x{n}x{k}: {g} vs {w}"
                    );
                }
            }
        }
    }

    #[test]
    fn other_shapes_and_layouts_are_declined() {
        let a = [0.0f32; 64];
        let mut c = [0.0f32; 64];
        let ptrs = [
            a.as_ptr() as *mut f32,
            a.as_ptr() as *mut f32,
            c.as_mut_ptr(),
        ];
        // SAFETY: nothing is read or written when declined.
        unsafe {
            assert!(!try_product(ptrs, [9, 4, 4], [[4, 1], [4, 1], [4, 1]]));
            assert!(!try_product(ptrs, [2, 4, 4], [[4, 1], [4, 1], [1, 4]]));
        }
    }
}
