//! `kernel.gemm` on the host: a batched strided matrix product through the
//! `gemm` crate, split over a thread pool.

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
    /// Run on `lhs`, `rhs`, `out` (element pointers), splitting the batches
    /// and the rows or columns over `pool`'s threads.
    ///
    /// # Safety
    /// The pointers must hold every element the strides reach (the verifier
    /// of `kernel.gemm` checks it against the buffers' types).
    pub unsafe fn run(&self, ptrs: [u64; 3], pool: Option<&rayon::ThreadPool>) {
        let batches: i64 = self.batch.iter().product();
        let threads = pool.map_or(1, |p| p.current_num_threads()).max(1);
        // Panels: enough tasks for the threads, at least 16 rows or columns
        // each. Each panel packs its slice of one operand and all of the
        // other, so split the dim of the larger operand: rows (of `lhs`)
        // when `lhs` is the larger, else columns (of `rhs`).
        let by_rows = self.m * self.k >= self.k * self.n;
        let extent = if by_rows { self.m } else { self.n };
        let panels =
            ((threads * 2).div_ceil(batches.max(1) as usize)).clamp(1, extent.div_ceil(16).max(1));
        let per = extent.div_ceil(panels);
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
                if self.f64 {
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
        match pool {
            Some(pool) if tasks > 1 => pool.scope(|s| {
                for t in 0..tasks {
                    s.spawn(move |_| task(t));
                }
            }),
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
