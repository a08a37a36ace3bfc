//! `kernel.gemm` on the host: a batched strided matrix product, split over
//! the threads. In f32 on a CPU with AVX-512, the packed kernels of
//! [`super::packed`], with a constant operand packed once ([`Gemm::prepack`]);
//! a product of a few rows or columns streams its weight
//! ([`super::few_rows`]); the rest goes through the `gemm` crate.

use super::few_rows::MAX_ROWS;
use super::packed::{self, Operand, Packed, Side};
use crate::workers::Parallel;

/// A batched strided matrix product (see `kernel.gemm`); strides in elements.
#[derive(Clone, Debug)]
pub struct Gemm {
    pub f64: bool,
    pub batch: Vec<i64>,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub strides: [Vec<i64>; 3],
}

impl Gemm {
    /// Whether this product runs on the packed AVX-512 kernels: f32, the
    /// result's columns contiguous, more than a few rows and columns (those
    /// stream their weight instead), and a CPU with AVX-512 F.
    pub fn takes_packed(&self) -> bool {
        let nb = self.batch.len();
        !self.f64
            && self.m > MAX_ROWS
            && self.n > MAX_ROWS
            && self.strides[2].get(nb + 1) == Some(&1)
            && packed::available()
    }

    /// Whether the left operand, packed ahead, goes to
    /// [`packed::few_columns`]: f32, a few columns and more rows than a
    /// panel, a CPU with AVX-512 F.
    fn takes_few_columns(&self) -> bool {
        !self.f64 && self.n <= packed::FEW_MAX && self.m >= packed::NR && packed::available()
    }

    /// Whether the right operand, packed ahead, goes to
    /// [`packed::few_columns`] as the left operand of the transposed
    /// product (`out^T = rhs^T lhs^T`: a linear layer on a few tokens).
    fn takes_few_rows(&self) -> bool {
        !self.f64 && self.m <= packed::FEW_MAX && self.n >= packed::NR && packed::available()
    }

    /// How each operand is packed ahead when it is a constant of the plan
    /// (`constant[0]` the left, `[1]` the right): the left for
    /// [`packed::few_columns`] when the product has a few columns, the right
    /// for the transposed product when it has a few rows, else each for
    /// the packed kernels when the product takes them. An operand
    /// that is not the same matrix in every batch (a batch dim of one, or
    /// of stride 0) is not packed.
    pub fn packing(&self, constant: [bool; 2]) -> [Option<Side>; 2] {
        let nb = self.batch.len();
        let ahead = |o: usize| {
            constant[o]
                && self.strides[o].len() == nb + 2
                && self.strides[o][..nb]
                    .iter()
                    .zip(&self.batch)
                    .all(|(&stride, &size)| stride == 0 || size == 1)
        };
        if ahead(0) && self.takes_few_columns() {
            [Some(Side::LeftWide), None]
        } else if ahead(1) && self.takes_few_rows() {
            [None, Some(Side::LeftWide)]
        } else if self.takes_packed() {
            [
                ahead(0).then_some(Side::Left),
                ahead(1).then_some(Side::Right),
            ]
        } else {
            [None, None]
        }
    }

    /// Operand `which` (0: the left, 1: the right) packed as `side` (what
    /// [`Gemm::packing`] says), from its elements at `ptr`.
    ///
    /// # Safety
    /// `ptr` holds every element the operand's strides reach;
    /// [`Gemm::packing`] gave `side` for this operand.
    pub unsafe fn prepack(&self, which: usize, side: Side, ptr: *const f32) -> Packed {
        let nb = self.batch.len();
        let strides = &self.strides[which];
        let (row, col) = (strides[nb] as isize, strides[nb + 1] as isize);
        // SAFETY: the caller's.
        unsafe {
            match (which, side) {
                (0, _) => Packed::new(side, ptr, [row, col], self.m, self.k),
                _ => Packed::new(side, ptr, [col, row], self.n, self.k),
            }
        }
    }

    /// Run on `lhs`, `rhs`, `out` (element pointers), splitting the batches
    /// and the rows or columns over `parallel`'s threads; `ahead` holds the
    /// operands packed by [`Gemm::prepack`] as [`Gemm::packing`] says (read
    /// instead of the pointer).
    ///
    /// # Safety
    /// The pointers must hold every element the strides reach (the verifier
    /// of `kernel.gemm` checks it against the buffers' types); an operand
    /// in `ahead` is this product's, packed from that operand's elements.
    pub unsafe fn run(
        &self,
        ptrs: [u64; 3],
        parallel: Option<&dyn Parallel>,
        ahead: [Option<&Packed>; 2],
    ) {
        let batches: i64 = self.batch.iter().product();
        let threads = parallel.map_or(1, |p| p.threads()).max(1);
        let packed_kernels = self.takes_packed();
        let wide = |o: usize| ahead[o].filter(|p| p.side() == Side::LeftWide);
        let (few_columns, few_rows) = (wide(0), wide(1));
        // Panels: enough tasks for the threads (two each, one on one
        // thread), at least 16 rows or columns each. Each panel packs its
        // slice of one operand and all of the other, so split the dim of
        // the larger operand: rows (of `lhs`) when `lhs` is the larger, else
        // columns (of `rhs`); for the packed kernels, the dim of the operand
        // packed ahead, whose panels cost nothing to share (a weight on the
        // left: columns). The packed kernels take whole panels of their
        // tiles.
        let larger_lhs = self.m * self.k >= self.k * self.n;
        let (by_rows, tile) = if few_columns.is_some() {
            (true, packed::NR)
        } else if few_rows.is_some() {
            (false, packed::NR)
        } else if packed_kernels {
            let by_rows = match ahead {
                [Some(_), None] if self.n >= packed::NR * threads => false,
                [None, Some(_)] if self.m >= packed::MR * threads => true,
                _ => larger_lhs,
            };
            (by_rows, if by_rows { packed::MR } else { packed::NR })
        } else {
            (larger_lhs, 1)
        };
        let extent = if by_rows { self.m } else { self.n };
        let wanted = if threads > 1 { threads * 2 } else { 1 };
        let panels =
            (wanted.div_ceil(batches.max(1) as usize)).clamp(1, extent.div_ceil(16).max(1));
        let per = extent.div_ceil(panels).div_ceil(tile) * tile;
        let task = move |t: usize| {
            let (bi, panel) = (t / panels, t % panels);
            let p0 = panel * per;
            let len = per.min(extent.saturating_sub(p0));
            if len == 0 {
                return;
            }
            let (r0, m, c0, n) = if by_rows {
                (p0, len, 0, self.n)
            } else {
                (0, self.m, p0, len)
            };
            // The batch's element offset in each operand.
            let mut offsets = [0i64; 3];
            let mut rest = bi as i64;
            for d in (0..self.batch.len()).rev() {
                let i = rest % self.batch[d];
                rest /= self.batch[d];
                for (o, s) in offsets.iter_mut().zip(&self.strides) {
                    *o += i * s[d];
                }
            }
            let nb = self.batch.len();
            let st = |o: usize, j: usize| self.strides[o][nb + j] as isize;
            offsets[0] += r0 as i64 * self.strides[0][nb];
            offsets[2] += r0 as i64 * self.strides[2][nb];
            offsets[1] += c0 as i64 * self.strides[1][nb + 1];
            offsets[2] += c0 as i64 * self.strides[2][nb + 1];
            let strides: [[isize; 2]; 3] = [0, 1, 2].map(|o| [st(o, 0), st(o, 1)]);
            // SAFETY: upheld by the caller; panels write disjoint blocks.
            unsafe {
                let at = |o: usize| (ptrs[o] as *const f32).offset(offsets[o] as isize);
                if let Some(lhs) = few_columns {
                    let out = at(2).cast_mut();
                    let (b, c) = (strides[1], strides[2]);
                    packed::few_columns(lhs, r0, at(1), b, out, c, [m, n, self.k]);
                } else if let Some(rhs) = few_rows {
                    // The transposed product: the rows of `rhs^T` are the
                    // columns of `rhs`, the columns of `lhs^T` the rows of
                    // `lhs`.
                    let out = at(2).cast_mut();
                    let a = [strides[0][1], strides[0][0]];
                    let c = [strides[2][1], strides[2][0]];
                    packed::few_columns(rhs, c0, at(0), a, out, c, [n, m, self.k]);
                } else if packed_kernels {
                    let lhs = match ahead[0] {
                        Some(packed) => Operand::Packed { packed, first: r0 },
                        None => Operand::InPlace {
                            ptr: at(0),
                            strides: strides[0],
                        },
                    };
                    let rhs = match ahead[1] {
                        Some(packed) => Operand::Packed { packed, first: c0 },
                        None => Operand::InPlace {
                            ptr: at(1),
                            strides: [strides[1][1], strides[1][0]],
                        },
                    };
                    let out = at(2).cast_mut();
                    packed::product(lhs, rhs, out, strides[2][0], [m, n, self.k]);
                } else if self.f64 {
                    product::<f64>(ptrs, offsets, [m, n, self.k], strides);
                } else {
                    let at = |o: usize| (ptrs[o] as *mut f32).offset(offsets[o] as isize);
                    let block = [at(0), at(1), at(2)];
                    if !super::few_rows::try_product(block, [m, n, self.k], strides) {
                        product::<f32>(ptrs, offsets, [m, n, self.k], strides);
                    }
                }
            }
        };
        let tasks = batches.max(1) as usize * panels;
        match parallel {
            Some(parallel) if tasks > 1 => parallel.for_each(tasks, &task),
            _ => (0..tasks).for_each(task),
        }
    }
}

/// `out = lhs * rhs` for an `m x n x k` block: `ptrs` the operands' element
/// pointers (lhs, rhs, out), `offsets` the block's element offsets in them,
/// `strides` each operand's row and column strides.
///
/// # Safety
/// As [`Gemm::run`]: every element the offsets and strides reach is inside
/// its buffer, and no other thread writes the output block.
unsafe fn product<T>(
    ptrs: [u64; 3],
    offsets: [i64; 3],
    [m, n, k]: [usize; 3],
    strides: [[isize; 2]; 3],
) where
    T: Copy + From<f32> + 'static,
{
    // SAFETY: upheld by the caller.
    unsafe {
        let e = |o: usize| (ptrs[o] as *mut T).offset(offsets[o] as isize);
        let [l, r, d] = strides;
        gemm::gemm(
            m,
            n,
            k,
            e(2),
            d[1],
            d[0],
            false,
            e(0),
            l[1],
            l[0],
            e(1),
            r[1],
            r[0],
            T::from(0.0),
            T::from(1.0),
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{plain_product, values};
    use super::*;

    /// Every route of an f32 product (few columns, few rows, the packed
    /// tiles, the `gemm` crate), with each constant operand packed ahead
    /// or read in place, on one thread and split over two, in batches
    /// whose weight is shared: the same result as a plain product.
    #[test]
    fn every_route_matches_a_plain_product() {
        let workers = crate::workers::Workers::new(2, 1 << 20).ok();
        let lease = workers.as_ref().and_then(|w| w.lease());
        let two: Option<&dyn Parallel> = lease.as_ref().map(|l| l as &dyn Parallel);
        assert!(two.is_some(), "two threads");
        let shapes = [
            (64, 4, 300),  // few columns
            (70, 24, 33),  // few columns, two passes
            (3, 100, 40),  // few rows (the transposed product)
            (20, 64, 257), // few rows
            (50, 70, 300), // the packed tiles
            (5, 5, 9),     // neither: few_rows or the gemm crate
        ];
        for (m, n, k) in shapes {
            let batch = 3usize;
            // A weight shared by the batches (stride 0), a batched input.
            let a = values(m * k, 1);
            let b = values(batch * k * n, 2);
            let g = Gemm {
                f64: false,
                batch: vec![batch as i64],
                m,
                n,
                k,
                strides: [
                    vec![0, k as i64, 1],
                    vec![(k * n) as i64, n as i64, 1],
                    vec![(m * n) as i64, n as i64, 1],
                ],
            };
            let want: Vec<f64> = (0..batch)
                .flat_map(|bi| {
                    let (rows, b) = ([k as isize, 1], &b[bi * k * n..]);
                    plain_product(&a, rows, b, [n as isize, 1], [m, n, k])
                })
                .collect();
            let sides = g.packing([true, false]);
            // SAFETY: the strides stay inside `a`.
            let ahead: [Option<Packed>; 2] = [
                sides[0].map(|side| unsafe { g.prepack(0, side, a.as_ptr()) }),
                None,
            ];
            for parallel in [None, two] {
                for packed in [false, true] {
                    let mut c = vec![f32::NAN; batch * m * n];
                    let ptrs = [a.as_ptr() as u64, b.as_ptr() as u64, c.as_mut_ptr() as u64];
                    let use_ahead = if packed {
                        [ahead[0].as_ref(), None]
                    } else {
                        [None, None]
                    };
                    // SAFETY: the strides stay inside the vectors.
                    unsafe { g.run(ptrs, parallel, use_ahead) };
                    for (t, (g, w)) in c.iter().zip(&want).enumerate() {
                        assert!(
                            (f64::from(*g) - w).abs() <= 1e-4 * w.abs().max(1.0),
                            "{m}x{n}x{k} (packed {packed}) at {t}: {g} vs {w}"
                        );
                    }
                }
            }
            // The right operand constant: a linear layer's weight on a few
            // tokens.
            let g1 = Gemm {
                batch: vec![],
                strides: [vec![k as i64, 1], vec![n as i64, 1], vec![n as i64, 1]],
                ..g.clone()
            };
            let sides = g1.packing([false, true]);
            // SAFETY: the strides stay inside `b`.
            let right = sides[1].map(|side| unsafe { g1.prepack(1, side, b.as_ptr()) });
            for parallel in [None, two] {
                let mut c = vec![f32::NAN; m * n];
                let ptrs = [a.as_ptr() as u64, b.as_ptr() as u64, c.as_mut_ptr() as u64];
                // SAFETY: as above.
                unsafe { g1.run(ptrs, parallel, [None, right.as_ref()]) };
                for (t, (g, w)) in c.iter().zip(&want).enumerate() {
                    assert!(
                        (f64::from(*g) - w).abs() <= 1e-4 * w.abs().max(1.0),
                        "{m}x{n}x{k} (right packed) at {t}: {g} vs {w}"
                    );
                }
            }
        }
    }

    /// What each shape packs ahead, on a CPU with AVX-512 (none without).
    #[test]
    fn packing_follows_the_shape() {
        let gemm = |m: usize, n: usize| Gemm {
            f64: false,
            batch: vec![2],
            m,
            n,
            k: 16,
            strides: [
                vec![0, 16, 1],
                vec![0, n as i64, 1],
                vec![(m * n) as i64, n as i64, 1],
            ],
        };
        let on = packed::available();
        let some = |side| if on { Some(side) } else { None };
        assert_eq!(
            gemm(64, 4).packing([true, true]),
            [some(Side::LeftWide), None]
        );
        assert_eq!(
            gemm(4, 64).packing([true, true]),
            [None, some(Side::LeftWide)]
        );
        assert_eq!(
            gemm(64, 64).packing([true, true]),
            [some(Side::Left), some(Side::Right)]
        );
        assert_eq!(gemm(64, 64).packing([false, false]), [None, None]);
        assert_eq!(gemm(4, 4).packing([true, true]), [None, None]);
        // A left operand that differs per batch is not packed.
        let mut g = gemm(64, 64);
        g.strides[0][0] = 1024;
        assert_eq!(g.packing([true, true]), [None, some(Side::Right)]);
    }
}
