//! `kernel.gemm` on cuBLAS: a plan's batched strided row-major product as
//! column-major `gemmStridedBatched` calls.
//!
//! cuBLAS takes column-major matrices with one leading dimension each and
//! one stride between the matrices of a batch. A `kernel.gemm` has a row
//! and a column stride per operand and any number of batch dimensions, so
//! [`blas_calls`] maps it: a matrix whose row stride is 1 is column-major,
//! one whose column stride is 1 is a transposed column-major matrix; a
//! row-major result is computed as its transpose (`Cᵀ = Bᵀ Aᵀ`, which swaps
//! the operands); batch dimensions that are contiguous in every operand
//! merge, and the outer ones left become separate calls.

use strata_runtime::plan::Gemm;

/// One operand of a [`BlasCall`]: where its first matrix starts (elements
/// from the plan operand's base), its leading dimension, and the stride
/// between the matrices of the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlasOperand {
    /// Which of the step's buffers (0 lhs, 1 rhs, 2 out).
    pub buffer: usize,
    pub offset: i64,
    pub ld: i32,
    pub stride: i64,
}

/// One `gemmStridedBatched` call: `C = op(A) op(B)` on column-major
/// matrices, `C` of `m x n`, `batch` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlasCall {
    pub trans_a: bool,
    pub trans_b: bool,
    pub m: i32,
    pub n: i32,
    pub k: i32,
    pub a: BlasOperand,
    pub b: BlasOperand,
    pub c: BlasOperand,
    pub batch: i32,
}

/// A matrix of a product: its sizes and its row and column strides.
#[derive(Clone, Copy)]
struct Mat {
    buffer: usize,
    rows: i64,
    cols: i64,
    rs: i64,
    cs: i64,
}

impl Mat {
    fn transposed(self) -> Mat {
        Mat {
            rows: self.cols,
            cols: self.rows,
            rs: self.cs,
            cs: self.rs,
            ..self
        }
    }

    /// The leading dimension of the matrix as column-major, if it is.
    fn col_major(self) -> Option<i64> {
        let unit_rows = self.rs == 1 || self.rows == 1;
        if !unit_rows {
            return None;
        }
        if self.cols == 1 {
            return Some(self.rows.max(1));
        }
        (self.cs >= self.rows.max(1)).then_some(self.cs)
    }

    /// The matrix as cuBLAS takes it: transposed or not, leading dimension.
    fn layout(self) -> Option<(bool, i64)> {
        if let Some(ld) = self.col_major() {
            return Some((false, ld));
        }
        self.transposed().col_major().map(|ld| (true, ld))
    }
}

fn int(v: i64, what: &str) -> Result<i32, String> {
    i32::try_from(v).map_err(|_| format!("{what} {v} does not fit cuBLAS's 32-bit sizes"))
}

/// The cuBLAS calls that compute `g` (see the module's doc), or why cuBLAS
/// cannot: a matrix with no unit stride, a size over 2^31, or a result
/// that several batch entries share.
pub fn blas_calls(g: &Gemm) -> Result<Vec<BlasCall>, String> {
    let nb = g.batch.len();
    if g.strides.iter().any(|s| s.len() != nb + 2) {
        return Err("strides that do not match the batch".into());
    }
    let (m, n, k) = (g.m as i64, g.n as i64, g.k as i64);
    if m == 0 || n == 0 {
        return Ok(Vec::new());
    }
    let mat = |o: usize, rows: i64, cols: i64| Mat {
        buffer: o,
        rows,
        cols,
        rs: g.strides[o][nb],
        cs: g.strides[o][nb + 1],
    };
    let (lhs, rhs, out) = (mat(0, m, k), mat(1, k, n), mat(2, m, n));
    // C column-major: C = A B. C row-major: Cᵀ = Bᵀ Aᵀ, column-major.
    let (a, b, c, m, n) = match out.col_major() {
        Some(_) => (lhs, rhs, out, m, n),
        None => (rhs.transposed(), lhs.transposed(), out.transposed(), n, m),
    };
    let no_unit = |mat: Mat| {
        let which = ["left operand", "right operand", "result"][mat.buffer];
        format!("the {which} of the product has no unit stride")
    };
    let ldc = c.col_major().ok_or_else(|| no_unit(c))?;
    let (trans_a, lda) = a.layout().ok_or_else(|| no_unit(a))?;
    let (trans_b, ldb) = b.layout().ok_or_else(|| no_unit(b))?;
    // Merge batch dimensions that are contiguous in every operand.
    let mut dims: Vec<(i64, [i64; 3])> = (0..nb)
        .map(|d| (g.batch[d], [0, 1, 2].map(|o| g.strides[o][d])))
        .filter(|(size, _)| *size != 1)
        .collect();
    let mut d = dims.len();
    while d >= 2 {
        let (inner, outer) = (dims[d - 1], dims[d - 2]);
        if (0..3).all(|o| Some(outer.1[o]) == inner.1[o].checked_mul(inner.0)) {
            let merged = outer
                .0
                .checked_mul(inner.0)
                .ok_or("a batch too large to count")?;
            dims[d - 2] = (merged, inner.1);
            dims.remove(d - 1);
        }
        d -= 1;
    }
    if dims.iter().any(|(size, _)| *size <= 0) {
        return Ok(Vec::new());
    }
    // A result that several batch entries write (batch stride 0): the
    // plan's row-major product keeps the last, cuBLAS's batches race.
    if dims.iter().any(|(_, strides)| strides[2] == 0) {
        return Err(
            "the result of the product is shared by several batch entries (batch stride 0)".into(),
        );
    }
    let (inner, outer) = match dims.split_last() {
        Some((&last, rest)) => (last, rest.to_vec()),
        None => ((1, [0; 3]), Vec::new()),
    };
    let outer_count = outer
        .iter()
        .try_fold(1i64, |n, (s, _)| n.checked_mul(*s))
        .filter(|&n| n <= 1 << 20)
        .ok_or("more than 2^20 batches of separate calls")?;
    let operand = |mat: Mat, ld: i64, base: [i64; 3]| -> Result<BlasOperand, String> {
        Ok(BlasOperand {
            buffer: mat.buffer,
            offset: base[mat.buffer],
            ld: int(ld, "leading dimension")?,
            stride: inner.1[mat.buffer],
        })
    };
    let mut calls = Vec::with_capacity(outer_count as usize);
    for index in 0..outer_count {
        // The element offset of this outer batch index in each buffer.
        let mut base = [0i64; 3];
        let mut rest = index;
        for (size, strides) in outer.iter().rev() {
            let i = rest % size;
            rest /= size;
            for (b, s) in base.iter_mut().zip(strides) {
                *b += i * s;
            }
        }
        calls.push(BlasCall {
            trans_a,
            trans_b,
            m: int(m, "size")?,
            n: int(n, "size")?,
            k: int(k, "size")?,
            a: operand(a, lda, base)?,
            b: operand(b, ldb, base)?,
            c: operand(c, ldc, base)?,
            batch: int(inner.0, "batch")?,
        });
    }
    Ok(calls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `gemmStridedBatched` computes, on host buffers (column-major,
    /// as cuBLAS defines it).
    fn reference_blas(call: &BlasCall, bufs: &mut [Vec<f64>; 3]) {
        let at = |o: &BlasOperand, trans: bool, r: i64, c: i64, b: i64| -> i64 {
            let (r, c) = if trans { (c, r) } else { (r, c) };
            o.offset + b * o.stride + r + c * i64::from(o.ld)
        };
        for b in 0..i64::from(call.batch) {
            for i in 0..i64::from(call.m) {
                for j in 0..i64::from(call.n) {
                    let mut acc = 0.0;
                    for p in 0..i64::from(call.k) {
                        let x = bufs[call.a.buffer][at(&call.a, call.trans_a, i, p, b) as usize];
                        let y = bufs[call.b.buffer][at(&call.b, call.trans_b, p, j, b) as usize];
                        acc += x * y;
                    }
                    let ci = at(&call.c, false, i, j, b) as usize;
                    bufs[call.c.buffer][ci] = acc;
                }
            }
        }
    }

    /// What `kernel.gemm` computes (row-major, its own strides).
    fn reference_gemm(g: &Gemm, bufs: &mut [Vec<f64>; 3]) {
        let nb = g.batch.len();
        let batches: i64 = g.batch.iter().product();
        for bi in 0..batches {
            let mut off = [0i64; 3];
            let mut rest = bi;
            for d in (0..nb).rev() {
                let i = rest % g.batch[d];
                rest /= g.batch[d];
                for (o, s) in off.iter_mut().zip(&g.strides) {
                    *o += i * s[d];
                }
            }
            let st = |o: usize, j: usize| g.strides[o][nb + j];
            for i in 0..g.m as i64 {
                for j in 0..g.n as i64 {
                    let mut acc = 0.0;
                    for p in 0..g.k as i64 {
                        acc += bufs[0][(off[0] + i * st(0, 0) + p * st(0, 1)) as usize]
                            * bufs[1][(off[1] + p * st(1, 0) + j * st(1, 1)) as usize];
                    }
                    bufs[2][(off[2] + i * st(2, 0) + j * st(2, 1)) as usize] = acc;
                }
            }
        }
    }

    /// Sizes of each buffer for `g` (the furthest element + 1).
    fn extents(g: &Gemm) -> [usize; 3] {
        let nb = g.batch.len();
        let dims = [[g.m, g.k], [g.k, g.n], [g.m, g.n]];
        [0, 1, 2].map(|o| {
            let mut end = 0i64;
            for d in 0..nb {
                end += (g.batch[d] - 1) * g.strides[o][d];
            }
            end += (dims[o][0] as i64 - 1) * g.strides[o][nb];
            end += (dims[o][1] as i64 - 1) * g.strides[o][nb + 1];
            end as usize + 1
        })
    }

    fn check(g: &Gemm) {
        let ext = extents(g);
        let fill = |n: usize, seed: usize| -> Vec<f64> {
            (0..n)
                .map(|i| ((i * 7 + seed * 13) % 11) as f64 - 5.0)
                .collect()
        };
        let mut want = [fill(ext[0], 1), fill(ext[1], 2), vec![0.0; ext[2]]];
        let mut got = want.clone();
        reference_gemm(g, &mut want);
        let calls = blas_calls(g).unwrap_or_else(|e| panic!("{e}"));
        for call in &calls {
            reference_blas(call, &mut got);
        }
        assert_eq!(got[2], want[2], "{g:?}: {calls:?}");
    }

    fn gemm(batch: Vec<i64>, m: usize, n: usize, k: usize, strides: [Vec<i64>; 3]) -> Gemm {
        Gemm {
            f64: false,
            batch,
            m,
            n,
            k,
            strides,
        }
    }

    #[test]
    fn a_row_major_product_is_one_call_with_swapped_operands() {
        let g = gemm(vec![], 3, 5, 4, [vec![4, 1], vec![5, 1], vec![5, 1]]);
        let calls = blas_calls(&g).unwrap();
        assert_eq!(calls.len(), 1);
        assert_eq!((calls[0].a.buffer, calls[0].b.buffer), (1, 0));
        assert_eq!((calls[0].m, calls[0].n, calls[0].k), (5, 3, 4));
        check(&g);
    }

    #[test]
    fn transposed_operands_and_results() {
        // lhs column-major (a transposed weight), rhs row-major.
        check(&gemm(vec![], 3, 5, 4, [vec![1, 3], vec![5, 1], vec![5, 1]]));
        // Column-major result.
        check(&gemm(vec![], 3, 5, 4, [vec![4, 1], vec![1, 4], vec![1, 3]]));
        // Vectors: m = 1 and n = 1, where either stride is free.
        check(&gemm(
            vec![],
            1,
            5,
            4,
            [vec![99, 1], vec![5, 1], vec![0, 1]],
        ));
        check(&gemm(
            vec![],
            3,
            1,
            4,
            [vec![4, 1], vec![1, 7], vec![1, 42]],
        ));
    }

    #[test]
    fn contiguous_batches_merge_and_the_others_loop() {
        // [2, 3] batches, contiguous: one call of 6.
        let g = gemm(
            vec![2, 3],
            2,
            3,
            4,
            [vec![24, 8, 4, 1], vec![36, 12, 3, 1], vec![18, 6, 3, 1]],
        );
        let calls = blas_calls(&g).unwrap();
        assert_eq!((calls.len(), calls[0].batch), (1, 6));
        check(&g);
        // A broadcast rhs (stride 0) and a permuted lhs: two calls of 3.
        let g = gemm(
            vec![2, 3],
            2,
            3,
            4,
            [vec![8, 16, 4, 1], vec![0, 0, 3, 1], vec![18, 6, 3, 1]],
        );
        assert_eq!(blas_calls(&g).unwrap().len(), 2);
        check(&g);
    }

    #[test]
    fn a_result_shared_across_the_batch_is_refused() {
        let g = gemm(
            vec![2],
            2,
            3,
            4,
            [vec![8, 4, 1], vec![12, 3, 1], vec![0, 3, 1]],
        );
        assert!(blas_calls(&g).unwrap_err().contains("batch stride 0"));
    }

    #[test]
    fn a_matrix_without_a_unit_stride_is_refused() {
        let g = gemm(vec![], 3, 5, 4, [vec![8, 2], vec![5, 1], vec![5, 1]]);
        assert!(blas_calls(&g).unwrap_err().contains("left operand"));
    }

    proptest! {
        #[test]
        fn every_layout_cublas_takes_computes_the_product(
            m in 1usize..5, n in 1usize..5, k in 1usize..5,
            batch in proptest::collection::vec(1i64..4, 0..3),
            layouts in proptest::array::uniform3(any::<bool>()),
            order in any::<bool>(),
            broadcast in any::<bool>(),
        ) {
            // Each operand dense, row- or column-major; batches stacked in
            // either order, the rhs broadcast over the batch or not.
            let dims = [[m, k], [k, n], [m, n]];
            let mut strides: [Vec<i64>; 3] = Default::default();
            for o in 0..3 {
                let [r, c] = dims[o].map(|d| d as i64);
                let (rs, cs) = if layouts[o] { (c, 1) } else { (1, r) };
                let mut s = vec![0i64; batch.len()];
                let mut size = r * c;
                let idx: Vec<usize> = if order { (0..batch.len()).rev().collect() } else { (0..batch.len()).collect() };
                for &d in &idx {
                    s[d] = if o == 1 && broadcast { 0 } else { size };
                    size *= batch[d];
                }
                s.extend([rs, cs]);
                strides[o] = s;
            }
            check(&gemm(batch, m, n, k, strides));
        }
    }
}
