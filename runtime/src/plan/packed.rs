//! f32 matrix products on AVX-512: both operands in micro-panels, a
//! register-blocked 12 x 32 micro-kernel, and a constant operand (the
//! weight of a convolution or a linear layer) packed once, when the plan is
//! loaded, instead of on every call.
//!
//! The `gemm` crate runs AVX2 kernels on stable Rust (its AVX-512 ones
//! need its `nightly` feature) and packs both operands on every call; on a
//! convolution's product with a few dozen columns (a ResNet's last stage,
//! `512 x 4608 x 49`) packing the weight costs as much as the product.
//! This is the blocking of BLIS and of onnxruntime's MLAS: the right
//! operand in blocks of `KC` steps of `k` by up to `NC` columns, in panels
//! of [`NR`] columns (one panel stays in L1 while every row panel of the
//! left operand passes it); the left operand in blocks of `MC` rows, in
//! panels of [`MR`] rows; each pair of panels a `12 x 32` tile of the
//! result held in 24 of the 32 vector registers over the whole block.
//!
//! Only the caller's choice decides between this and the `gemm` crate
//! ([`available`], [`Gemm::run`](super::Gemm::run)); the results agree to
//! rounding (the sums are in another order).

use std::cell::RefCell;

/// Rows of a micro-tile (each row a broadcast value of the left operand).
pub const MR: usize = 12;
/// Columns of a micro-tile (two 16-lane vectors).
pub const NR: usize = 32;
/// Steps of `k` per block: a right panel (`KC x NR` floats, 32 KiB) stays
/// in L1 beside the left panel streaming through.
const KC: usize = 256;
/// Rows of the left operand per block (a multiple of [`MR`]): the block
/// (`MC x KC` floats, 600 KiB) stays in L2.
const MC: usize = 50 * MR;
/// Columns of the right operand packed at once (a multiple of [`NR`]).
const NC: usize = 64 * NR;

/// Whether this CPU runs the kernels here (AVX-512 F, detected once).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *FOUND.get_or_init(|| is_x86_feature_detected!("avx512f"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The columns [`few_columns`] computes in one pass over the weight.
pub const FEW: usize = 12;
/// The most columns of a product that [`few_columns`] takes (in passes of
/// [`FEW`]; past that, the `MR x NR` tiles waste fewer lanes than the
/// passes cost).
pub const FEW_MAX: usize = 24;

/// Which operand of a product, packed for which kernel: the left (`m x
/// k`) in panels of [`MR`] rows or, for [`few_columns`], of [`NR`] rows;
/// the right (`k x n`) in panels of [`NR`] columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    LeftWide,
    Right,
}

impl Side {
    fn width(self) -> usize {
        match self {
            Side::Left => MR,
            Side::LeftWide | Side::Right => NR,
        }
    }

    /// Steps of `k` per block of the packed operand (at least one).
    fn block(self, k: usize) -> usize {
        match self {
            Side::Left | Side::Right => KC,
            Side::LeftWide => k.max(1),
        }
    }
}

/// One operand of a product, packed once: for each block of [`KC`] steps
/// of `k`, each panel of the operand's rows (left) or columns (right) in
/// order, each panel the block's steps in order with the panel's `width`
/// values each, zero past the operand's edge. For [`few_columns`]
/// ([`Side::LeftWide`]) the block is all of `k`: each panel is one
/// contiguous stream.
#[derive(Debug)]
pub struct Packed {
    data: Vec<f32>,
    /// The index in `data` of the first value (64-byte aligned).
    start: usize,
    side: Side,
    /// Rows (left) or columns (right).
    outer: usize,
    k: usize,
}

impl Packed {
    /// `operand` packed: `outer` rows (left) or columns (right) of `k`
    /// steps, the element `(o, kk)` at `ptr[o * strides[0] + kk *
    /// strides[1]]`.
    ///
    /// # Safety
    /// Every element those strides reach is inside `ptr`'s buffer.
    pub unsafe fn new(
        side: Side,
        ptr: *const f32,
        [so, sk]: [isize; 2],
        outer: usize,
        k: usize,
    ) -> Packed {
        let width = side.width();
        let panels = outer.div_ceil(width);
        let len = panels * width * k;
        let mut data = vec![0.0f32; len + 16];
        let start = data.as_ptr().align_offset(64).min(15);
        let dst = data[start..].as_mut_ptr();
        let step = side.block(k);
        for k0 in (0..k).step_by(step) {
            let kc = step.min(k - k0);
            // SAFETY: the block lies inside `data`; the reads are the
            // caller's.
            unsafe {
                pack(
                    dst.add(k0 * panels * width),
                    outer,
                    kc,
                    width,
                    ptr.offset(k0 as isize * sk),
                    [so, sk],
                );
            }
        }
        Packed {
            data,
            start,
            side,
            outer,
            k,
        }
    }

    /// Which operand this is.
    pub fn side(&self) -> Side {
        self.side
    }

    /// Rows (left) or columns (right), and `k`.
    pub fn dims(&self) -> (usize, usize) {
        (self.outer, self.k)
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.data.len() * 4
    }

    /// The first of the panels of the block of `kc` steps at `k0`, from
    /// panel `p` on (the panels of a block follow each other).
    fn panels_at(&self, k0: usize, kc: usize, p: usize) -> *const f32 {
        let width = self.side.width();
        let panels = self.outer.div_ceil(width);
        self.data[self.start + k0 * panels * width + p * kc * width..].as_ptr()
    }
}

/// An operand of one product: its elements in place (the element `(o,
/// kk)`, row `o` of the left or column `o` of the right, at `ptr[o *
/// strides[0] + kk * strides[1]]`, the block's first element at `ptr`), or
/// packed, the block starting at row (left) or column (right) `first`, a
/// multiple of the panel width.
#[derive(Clone, Copy)]
pub enum Operand<'a> {
    InPlace {
        ptr: *const f32,
        strides: [isize; 2],
    },
    Packed {
        packed: &'a Packed,
        first: usize,
    },
}

impl Operand<'_> {
    /// The panels of `width` of this operand's `count` rows (left) or
    /// columns (right) from `o0` on, for the block of `kc` steps of `k` at
    /// `k0`: where it was packed ahead, or packed into `scratch` here.
    ///
    /// # Safety
    /// As [`product`]: the block lies inside the operand.
    unsafe fn panels(
        self,
        scratch: &mut Vec<f32>,
        width: usize,
        [o0, count]: [usize; 2],
        [k0, kc]: [usize; 2],
    ) -> *const f32 {
        match self {
            Operand::Packed { packed, first } => packed.panels_at(k0, kc, (first + o0) / width),
            Operand::InPlace { ptr, strides } => {
                let dst = aligned(scratch, count.div_ceil(width) * width * kc);
                // SAFETY: the caller's bounds; `dst` holds the panels.
                unsafe {
                    let src = ptr.offset(o0 as isize * strides[0] + k0 as isize * strides[1]);
                    pack(dst, count, kc, width, src, strides);
                }
                dst.cast_const()
            }
        }
    }
}

thread_local! {
    /// Each thread's packing space for the operands that are not packed
    /// ahead: the left block and the right block.
    static SCRATCH: RefCell<[Vec<f32>; 2]> = const { RefCell::new([Vec::new(), Vec::new()]) };
}

/// `out = lhs * rhs` for an `m x n x k` block, `out` its first element and
/// `ldc` its row stride (columns contiguous).
///
/// # Safety
/// [`available`] is true; every element the operands' strides reach is
/// inside its buffer; a packed operand covers the block (`first` plus its
/// rows or columns); no other thread writes the result block.
pub unsafe fn product(
    lhs: Operand<'_>,
    rhs: Operand<'_>,
    out: *mut f32,
    ldc: isize,
    [m, n, k]: [usize; 3],
) {
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        for i in 0..m {
            // SAFETY: the row lies in the result block.
            unsafe { std::slice::from_raw_parts_mut(out.offset(i as isize * ldc), n).fill(0.0) };
        }
        return;
    }
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let [left, right] = &mut *scratch;
        // Packed on the right, the columns need no blocks of their own.
        let nc_step = match rhs {
            Operand::Packed { .. } => n.div_ceil(NR) * NR,
            Operand::InPlace { .. } => NC,
        };
        for j0 in (0..n).step_by(nc_step) {
            let nc = nc_step.min(n - j0);
            for k0 in (0..k).step_by(KC) {
                let kc = KC.min(k - k0);
                // SAFETY: the caller's bounds; the scratch is sized here.
                unsafe {
                    let b = rhs.panels(right, NR, [j0, nc], [k0, kc]);
                    for i0 in (0..m).step_by(MC) {
                        let mc = MC.min(m - i0);
                        let a = lhs.panels(left, MR, [i0, mc], [k0, kc]);
                        block(
                            a,
                            b,
                            out.offset(i0 as isize * ldc + j0 as isize),
                            ldc,
                            [mc, nc, kc],
                            k0 > 0,
                        );
                    }
                }
            }
        }
    });
}

/// `out = lhs * rhs` for an `m x n x k` block of a product of a few
/// columns (a convolution's product on a small map: the weight on the
/// left, a few output pixels on the right), the left operand packed in
/// panels of [`NR`] rows ([`Side::LeftWide`]) from row `first` (a multiple
/// of [`NR`]) on. Each panel's 32 rows are the vector lanes, and each
/// column of the right operand is broadcast, so the weight streams through
/// full vectors whatever `n` is: once for up to [`FEW`] columns, the
/// panel again from L2 for each further [`FEW`]; the result is written at
/// `out[i * ldc[0] + j * ldc[1]]`, the right operand read at `rhs[kk *
/// strides[0] + j * strides[1]]`.
///
/// # Safety
/// [`available`] is true; `lhs` covers the block; every element of `rhs`
/// the strides reach is inside its buffer; no other thread writes the
/// result block.
#[allow(clippy::too_many_arguments)]
pub unsafe fn few_columns(
    lhs: &Packed,
    first: usize,
    rhs: *const f32,
    strides: [isize; 2],
    out: *mut f32,
    ldc: [isize; 2],
    [m, n, k]: [usize; 3],
) {
    debug_assert!(lhs.side == Side::LeftWide && first.is_multiple_of(NR));
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller's bounds, and the CPU has AVX-512 F.
    unsafe {
        for p in 0..m.div_ceil(NR) {
            let rows = NR.min(m - p * NR);
            let panel = first / NR + p;
            for j0 in (0..n).step_by(FEW) {
                let at = Few {
                    lhs,
                    rhs: rhs.offset(j0 as isize * strides[1]),
                    strides,
                    ldc,
                    k,
                };
                let out = out.offset((p * NR) as isize * ldc[0] + j0 as isize * ldc[1]);
                macro_rules! columns {
                    ($($n:literal)*) => {
                        match FEW.min(n - j0) {
                            $($n => avx512::few_columns::<$n>(&at, panel, out, rows),)*
                            _ => unreachable!("a pass takes 1 to FEW columns"),
                        }
                    };
                }
                columns!(1 2 3 4 5 6 7 8 9 10 11 12);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (lhs, first, rhs, strides, out, ldc, m, n, k);
        unreachable!("packed products need AVX-512 (`available`)");
    }
}

/// The operands of a [`few_columns`] product.
struct Few<'a> {
    lhs: &'a Packed,
    rhs: *const f32,
    strides: [isize; 2],
    ldc: [isize; 2],
    k: usize,
}

/// A pointer to `len` floats of `buf`, 64-byte aligned, growing it.
fn aligned(buf: &mut Vec<f32>, len: usize) -> *mut f32 {
    if buf.len() < len + 16 {
        buf.resize(len + 16, 0.0);
    }
    let start = buf.as_ptr().align_offset(64).min(15);
    buf[start..].as_mut_ptr()
}

/// `count` rows or columns (`o`) by `kc` steps (`kk`) of an operand, the
/// element at `src[o * so + kk * sk]`, into panels of `width` at `dst`:
/// `dst[(o / width) * kc * width + kk * width + o % width]`, zero past
/// `count` to the last panel's edge.
///
/// # Safety
/// `dst` holds `count.div_ceil(width) * width * kc` floats; every element
/// read is inside `src`'s buffer.
unsafe fn pack(
    dst: *mut f32,
    count: usize,
    kc: usize,
    width: usize,
    src: *const f32,
    [so, sk]: [isize; 2],
) {
    // SAFETY: the caller's bounds.
    unsafe {
        for p in 0..count.div_ceil(width) {
            let o0 = p * width;
            let valid = width.min(count - o0);
            let panel = dst.add(p * kc * width);
            for kk in 0..kc {
                let row = panel.add(kk * width);
                let from = src.offset(o0 as isize * so + kk as isize * sk);
                if so == 1 {
                    std::ptr::copy_nonoverlapping(from, row, valid);
                } else {
                    for t in 0..valid {
                        *row.add(t) = *from.offset(t as isize * so);
                    }
                }
                for t in valid..width {
                    *row.add(t) = 0.0;
                }
            }
        }
    }
}

/// Every tile of an `mc x nc` block from its packed panels (`a`: the left
/// panels of `kc` steps, one after another; `b`: the right ones), adding
/// to what the result holds when `accumulate`.
///
/// # Safety
/// As [`product`]; the panels hold the block.
unsafe fn block(
    a: *const f32,
    b: *const f32,
    out: *mut f32,
    ldc: isize,
    [mc, nc, kc]: [usize; 3],
    accumulate: bool,
) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller's bounds, and the CPU has AVX-512 F.
    unsafe {
        for q in 0..nc.div_ceil(NR) {
            let bq = b.add(q * kc * NR);
            let cols = NR.min(nc - q * NR);
            for p in 0..mc.div_ceil(MR) {
                avx512::tile(
                    kc,
                    a.add(p * kc * MR),
                    bq,
                    out.offset((p * MR) as isize * ldc + (q * NR) as isize),
                    ldc,
                    MR.min(mc - p * MR),
                    cols,
                    accumulate,
                );
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (a, b, out, ldc, mc, nc, kc, accumulate);
        unreachable!("packed products need AVX-512 (`available`)");
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Few, MR, NR};
    use std::arch::x86_64::*;

    /// The rows of panel `panel` of a [`super::few_columns`] product, `N`
    /// columns (`rows ≤ NR` of them written, at `out`): `2 N` accumulators
    /// over the whole of `k`, the panel's blocks read in order.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn few_columns<const N: usize>(
        at: &Few<'_>,
        panel: usize,
        out: *mut f32,
        rows: usize,
    ) {
        // SAFETY: the panel holds `k` steps; the right operand's strides
        // and the result's are the caller's.
        unsafe {
            let mut acc = [[_mm512_setzero_ps(); 2]; N];
            // One block: the panel's `k` steps follow each other.
            let a = at.lhs.panels_at(0, at.k, panel);
            for kk in 0..at.k {
                let a0 = _mm512_loadu_ps(a.add(kk * NR));
                let a1 = _mm512_loadu_ps(a.add(kk * NR + 16));
                // The weight comes from L3 or memory, once: asked for
                // 2 KiB ahead.
                let ahead = a.wrapping_add(kk * NR + 512).cast::<i8>();
                _mm_prefetch::<_MM_HINT_T0>(ahead);
                _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(64));
                let b = at.rhs.offset(kk as isize * at.strides[0]);
                for (j, col) in acc.iter_mut().enumerate() {
                    let x = _mm512_set1_ps(*b.offset(j as isize * at.strides[1]));
                    col[0] = _mm512_fmadd_ps(a0, x, col[0]);
                    col[1] = _mm512_fmadd_ps(a1, x, col[1]);
                }
            }
            let mut lanes = [0.0f32; NR];
            for (j, col) in acc.iter().enumerate() {
                _mm512_storeu_ps(lanes.as_mut_ptr(), col[0]);
                _mm512_storeu_ps(lanes.as_mut_ptr().add(16), col[1]);
                for (i, &v) in lanes.iter().enumerate().take(rows) {
                    *out.offset(i as isize * at.ldc[0] + j as isize * at.ldc[1]) = v;
                }
            }
        }
    }

    /// The lanes of a 16-lane vector below `count`.
    fn lanes(count: usize) -> __mmask16 {
        if count >= 16 {
            0xffff
        } else {
            ((1u32 << count) - 1) as __mmask16
        }
    }

    /// One `MR x NR` tile: `kc` steps of the left panel `a` (`MR` values a
    /// step) times the right panel `b` (`NR` a step), into the result's
    /// first `rows` rows and `cols` columns at `c` (row stride `ldc`).
    /// The accumulators are indexed by constants only (the loops over
    /// `MR` unroll), so they live in registers.
    #[target_feature(enable = "avx512f")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn tile(
        kc: usize,
        a: *const f32,
        b: *const f32,
        c: *mut f32,
        ldc: isize,
        rows: usize,
        cols: usize,
        accumulate: bool,
    ) {
        // SAFETY: the panels hold `kc` steps; the stores stay inside the
        // first `rows` rows and `cols` columns.
        unsafe {
            let mut acc = [[_mm512_setzero_ps(); 2]; MR];
            for kk in 0..kc {
                let b0 = _mm512_loadu_ps(b.add(kk * NR));
                let b1 = _mm512_loadu_ps(b.add(kk * NR + 16));
                let ak = a.add(kk * MR);
                for (r, row) in acc.iter_mut().enumerate() {
                    let x = _mm512_set1_ps(*ak.add(r));
                    row[0] = _mm512_fmadd_ps(x, b0, row[0]);
                    row[1] = _mm512_fmadd_ps(x, b1, row[1]);
                }
            }
            let masks = [lanes(cols), lanes(cols.saturating_sub(16))];
            for (r, row) in acc.iter().enumerate() {
                if r >= rows {
                    break;
                }
                let line = c.offset(r as isize * ldc);
                for (h, (&v, &mask)) in row.iter().zip(&masks).enumerate() {
                    let at = line.add(h * 16);
                    let v = if accumulate {
                        _mm512_add_ps(_mm512_maskz_loadu_ps(mask, at), v)
                    } else {
                        v
                    };
                    _mm512_mask_storeu_ps(at, mask, v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{plain_product as naive, values};
    use super::*;

    /// Ragged sizes around the panel and block edges, each operand in
    /// place (both layouts) and packed, against a product in f64.
    #[test]
    fn products_match_a_plain_product_at_ragged_sizes() {
        if !available() {
            eprintln!("skipped: this CPU has no AVX-512 F");
            return;
        }
        let sizes = [
            (1, 1, 1),
            (5, 40, 0),
            (12, 32, 256),
            (13, 33, 257),
            (11, 31, 7),
            (25, 70, 300),
            (MC + 5, 17, 9),
            (3, NC + 40, 5),
        ];
        for (m, n, k) in sizes {
            for transposed in [false, true] {
                let l = if transposed {
                    [1, m as isize]
                } else {
                    [k as isize + 1, 1]
                };
                let r = if transposed {
                    [1, k as isize]
                } else {
                    [n as isize + 2, 1]
                };
                let a = values(m.max(1) * (k + 1) + m, 3);
                let b = values(k.max(1) * (n + 2) + n * k, 5);
                let want = naive(&a, l, &b, r, [m, n, k]);
                // The left operand as its rows (`[row stride, k stride]`),
                // the right as its columns.
                let a_rows = [l[0], l[1]];
                let b_cols = [r[1], r[0]];
                // SAFETY: every stride stays inside the vectors above.
                let (pa, pb) = unsafe {
                    (
                        Packed::new(Side::Left, a.as_ptr(), a_rows, m, k),
                        Packed::new(Side::Right, b.as_ptr(), b_cols, n, k),
                    )
                };
                let lefts = [
                    Operand::InPlace {
                        ptr: a.as_ptr(),
                        strides: a_rows,
                    },
                    Operand::Packed {
                        packed: &pa,
                        first: 0,
                    },
                ];
                let rights = [
                    Operand::InPlace {
                        ptr: b.as_ptr(),
                        strides: b_cols,
                    },
                    Operand::Packed {
                        packed: &pb,
                        first: 0,
                    },
                ];
                for lhs in lefts {
                    for rhs in rights {
                        let ldc = n + 3;
                        let mut c = vec![f32::NAN; m * ldc];
                        // SAFETY: as above; `c` holds the result block.
                        unsafe { product(lhs, rhs, c.as_mut_ptr(), ldc as isize, [m, n, k]) };
                        for i in 0..m {
                            for j in 0..n {
                                let (g, w) = (c[i * ldc + j], want[i * n + j]);
                                assert!(
                                    (f64::from(g) - w).abs() <= 1e-4 * w.abs().max(1.0),
                                    "{m}x{n}x{k} transposed {transposed}: [{i}, {j}] {g} vs {w}"
                                );
                            }
                            // The padding between rows is never written.
                            assert!(c[i * ldc + n..(i + 1) * ldc].iter().all(|x| x.is_nan()));
                        }
                    }
                }
            }
        }
    }

    /// Products of a few columns at every column count up to two passes,
    /// ragged row counts, the right operand in both layouts, the result
    /// row-major and column-major, from the first panel and from a later one.
    #[test]
    fn few_columns_match_a_plain_product() {
        if !available() {
            eprintln!("skipped: this CPU has no AVX-512 F");
            return;
        }
        for (m, k) in [(32, 0), (32, 1), (33, 7), (70, 300), (96, 513)] {
            let a = values(m * k, 9);
            // SAFETY: the strides stay inside `a`.
            let pa = unsafe { Packed::new(Side::LeftWide, a.as_ptr(), [k as isize, 1], m, k) };
            for n in 1..=FEW_MAX {
                for transposed in [false, true] {
                    let r = if transposed {
                        [1, k as isize]
                    } else {
                        [n as isize, 1]
                    };
                    let b = values(k * n, 4);
                    let want = naive(&a, [k as isize, 1], &b, r, [m, n, k]);
                    for first in [0, NR] {
                        if first >= m {
                            continue;
                        }
                        let rows = m - first;
                        let ldc = if transposed {
                            [1, rows as isize]
                        } else {
                            [n as isize, 1]
                        };
                        let mut c = vec![f32::NAN; rows * n];
                        // SAFETY: as above; `c` holds the block.
                        unsafe {
                            few_columns(
                                &pa,
                                first,
                                b.as_ptr(),
                                r,
                                c.as_mut_ptr(),
                                ldc,
                                [rows, n, k],
                            );
                        }
                        for i in 0..rows {
                            for j in 0..n {
                                let g = c[(i as isize * ldc[0] + j as isize * ldc[1]) as usize];
                                let w = want[(first + i) * n + j];
                                assert!(
                                    (f64::from(g) - w).abs() <= 1e-4 * w.abs().max(1.0),
                                    "{m}x{n}x{k} from row {first}: [{i}, {j}] {g} vs {w}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// A block of a packed operand that starts at a panel edge (a thread's
    /// share of the rows) reads that block's panels.
    #[test]
    fn a_share_of_a_packed_operand_starts_at_its_panel() {
        if !available() {
            eprintln!("skipped: this CPU has no AVX-512 F");
            return;
        }
        let (m, n, k) = (40, 20, 300);
        let a = values(m * k, 1);
        let b = values(k * n, 2);
        let want = naive(&a, [k as isize, 1], &b, [n as isize, 1], [m, n, k]);
        // SAFETY: the strides stay inside `a`.
        let pa = unsafe { Packed::new(Side::Left, a.as_ptr(), [k as isize, 1], m, k) };
        let first = 2 * MR;
        let mut c = vec![0.0f32; (m - first) * n];
        let rhs = Operand::InPlace {
            ptr: b.as_ptr(),
            strides: [1, n as isize],
        };
        let lhs = Operand::Packed { packed: &pa, first };
        // SAFETY: as above.
        unsafe { product(lhs, rhs, c.as_mut_ptr(), n as isize, [m - first, n, k]) };
        for (g, w) in c.iter().zip(&want[first * n..]) {
            assert!((f64::from(*g) - w).abs() <= 1e-4 * w.abs().max(1.0));
        }
    }
}
