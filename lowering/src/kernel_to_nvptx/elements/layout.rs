//! Tiles dealt out to the block's threads by blocked layouts
//! (`#nvptx.blocked<{sizePerThread, threadsPerWarp, warpsPerCTA, order}>`).
//!
//! Where a tile is materialized by the threads (a `kernel.store`, a
//! `kernel.reduce` by the block, a tile carried by `scf.for`, a tile staged
//! in shared memory) its distribution is a blocked layout, the encoding of
//! its type. Where the type has none, the conversion chooses one (the
//! defaults here) and gives it to the type (`retype`): the kernel IR after
//! the conversion says how every tile was distributed, and running the
//! conversion again on it (or on a copy whose layouts were edited)
//! follows them.
//!
//! The values feeding a store are computed at the store's elements, so
//! they take its layout; a store that reads a tile held in registers takes
//! that tile's layout.

use strata_dialects::nvptx::layout::{BlockedLayout, WARP_SIZE};
use strata_ir::{Operation, Value};

use super::retype::TypedLayout;
use super::{err, Conv, R};

/// One box of a thread's elements of a tile: the index of its first
/// element, and the bounds it must be under to be inside the tile, as
/// (value, bound) pairs (none: every thread's box is inside).
pub(super) struct TileBox {
    pub(super) first: Vec<Value>,
    check: Vec<(Value, i64)>,
}

impl Conv<'_> {
    /// The warps of the block.
    pub(super) fn warps(&self) -> i64 {
        (self.threads / WARP_SIZE).max(1)
    }

    /// The blocked layout for a tile of `shape` in boxes of up to `run`
    /// elements: the longest run (halving it) whose elements per thread fit
    /// in `max-unroll`.
    fn default_layout(&self, op: Operation, shape: &[i64], mut run: i64) -> R<BlockedLayout> {
        loop {
            let l = self.default_blocked(shape, run);
            if l.per_thread(shape) <= self.max_unroll {
                return Ok(l);
            }
            if run == 1 {
                return Err(self.too_many(op, shape, &l));
            }
            run /= 2;
        }
    }

    /// The default layout of a tile of `shape` in boxes of `run`: a
    /// tile whose sizes are not all powers of two is dealt out flat (a
    /// layout of rank 1), as a layout of its rank would leave the lanes
    /// past each dimension's size idle.
    pub(super) fn default_blocked(&self, shape: &[i64], run: i64) -> BlockedLayout {
        let n: i64 = shape.iter().product();
        let pow2 = shape.iter().all(|&d| d > 0 && d & (d - 1) == 0);
        if pow2 {
            BlockedLayout::default_for(shape, run, self.warps())
        } else {
            BlockedLayout::default_for(&[n], run, self.warps())
        }
    }

    fn too_many(&self, op: Operation, shape: &[i64], l: &BlockedLayout) -> strata_ir::Diagnostic {
        let n: i64 = shape.iter().product();
        err(
            self.ctx,
            op,
            format!(
                "has a tile of {n} elements: {} per thread, more than max-unroll ({}) for {} threads",
                l.per_thread(shape),
                self.max_unroll,
                self.threads
            ),
        )
    }

    /// The layout in which `op` materializes its tile operand `i` of
    /// `shape` (a store's pointers, a block reduction's source): its type's,
    /// else the default in boxes of up to `run`, given to the operands
    /// `operands` of `op` (see `retype`).
    fn materialized_layout(
        &mut self,
        op: Operation,
        i: usize,
        operands: std::ops::Range<usize>,
        shape: &[i64],
        run: i64,
    ) -> R<BlockedLayout> {
        let v = self.ctx.operand(op, i);
        let layout =
            match self.type_layout(op, v)? {
                Some(TypedLayout::Blocked(l)) => l,
                Some(TypedLayout::Mma(_)) => return Err(err(
                    self.ctx,
                    op,
                    "materializes a tile in an MMA layout (convert it to a blocked layout first)",
                )),
                None => {
                    let l = self.default_layout(op, shape, run)?;
                    let enc = l.to_attr(self.ctx);
                    for j in operands {
                        self.assign(op, j, Some(enc))?;
                    }
                    l
                }
            };
        if layout.per_thread(shape) > self.max_unroll {
            return Err(self.too_many(op, shape, &layout));
        }
        Ok(layout)
    }

    /// The layout of tile store `op` of `shape`: its pointers' (the value
    /// and the mask share it), by default runs of `vector-bytes`
    /// (`run_length`).
    pub(super) fn store_layout(&mut self, op: Operation, shape: &[i64]) -> R<BlockedLayout> {
        let run = self.run_length(op, shape);
        let n = self.ctx.num_operands(op);
        self.materialized_layout(op, 0, 0..n, shape, run)
    }

    /// The layout in which a block reduction reads its tile `src` of
    /// `shape`: its type's, by default runs of `vector-bytes` of its
    /// 32-bit numbers.
    pub(super) fn reduce_layout(
        &mut self,
        op: Operation,
        src: Value,
        shape: &[i64],
    ) -> R<BlockedLayout> {
        let n: i64 = shape.iter().product();
        let run = self.reduce_run(src, n, shape.last().copied().unwrap_or(1));
        self.materialized_layout(op, 0, 0..1, shape, run)
    }

    /// The blocked layout of the tile that loop `op` carries as its `k`th
    /// value when its type gives none: its initial value's when that is
    /// held in one, else one element per box.
    pub(super) fn carry_default(
        &mut self,
        op: Operation,
        k: usize,
        shape: &[i64],
    ) -> R<BlockedLayout> {
        let init = self.ctx.operand(op, 3 + k);
        if let Some(TypedLayout::Blocked(l)) = self.type_layout(op, init)? {
            if l.per_thread(shape) <= self.max_unroll {
                return Ok(l);
            }
        }
        self.default_layout(op, shape, 1)
    }

    /// This thread's position along each dimension of `layout` (in boxes):
    /// its lane and warp numbered along `order`.
    fn thread_position(&mut self, layout: &BlockedLayout) -> Vec<Value> {
        let rank = layout.rank();
        let spread: Vec<usize> = (0..rank)
            .filter(|&d| layout.threads_per_warp[d] * layout.warps_per_cta[d] > 1)
            .collect();
        let zero = self.const_i32(0);
        let mut pos = vec![zero; rank];
        if spread.len() <= 1 {
            // Every thread along one dimension: its position is its id.
            if let Some(&d) = spread.first() {
                pos[d] = self.tid;
            }
            return pos;
        }
        let w = self.const_i32(WARP_SIZE);
        let lane = self.bin_i32("arith.remui", self.tid, w);
        let warp = self.bin_i32("arith.divui", self.tid, w);
        let (mut lanes_before, mut warps_before) = (1, 1);
        let warps = self.warps();
        for &d in &layout.order {
            let (t, wd) = (layout.threads_per_warp[d], layout.warps_per_cta[d]);
            let lane_d = self.digit(lane, lanes_before, t, WARP_SIZE);
            let warp_d = self.digit(warp, warps_before, wd, warps);
            lanes_before *= t;
            warps_before *= wd;
            pos[d] = match (lane_d, warp_d) {
                (None, None) => zero,
                (Some(l), None) => l,
                (None, Some(w)) => {
                    let tv = self.const_i32(t);
                    self.bin_i32("arith.muli", w, tv)
                }
                (Some(l), Some(w)) => {
                    let tv = self.const_i32(t);
                    let wt = self.bin_i32("arith.muli", w, tv);
                    self.bin_i32("arith.addi", wt, l)
                }
            };
        }
        pos
    }

    /// Digit `(x / before) % size` of `x < total` (`None` for a digit of
    /// size 1).
    fn digit(&mut self, x: Value, before: i64, size: i64, total: i64) -> Option<Value> {
        if size == 1 {
            return None;
        }
        let mut v = x;
        if before > 1 {
            let b = self.const_i32(before);
            v = self.bin_i32("arith.divui", v, b);
        }
        if before * size < total {
            let s = self.const_i32(size);
            v = self.bin_i32("arith.remui", v, s);
        }
        Some(v)
    }

    /// This thread's boxes of a tile of `shape` in `layout`, one per
    /// repetition of the layout, in row-major order of the repetitions. A
    /// layout of rank 1 on a tile of higher rank deals the tile's elements
    /// in row-major order, as if it were flat (its boxes lie within rows:
    /// `sizePerThread` divides the last dimension).
    pub(super) fn boxes(&mut self, layout: &BlockedLayout, shape: &[i64]) -> Vec<TileBox> {
        if shape.contains(&0) {
            return Vec::new();
        }
        if shape.is_empty() {
            // A rank-0 tile: its one element, held by thread 0.
            return self
                .nd_boxes(layout, &[1])
                .into_iter()
                .map(|b| TileBox {
                    first: Vec::new(),
                    check: b.check,
                })
                .collect();
        }
        if layout.rank() == 1 && shape.len() > 1 {
            let n: i64 = shape.iter().product();
            return self
                .nd_boxes(layout, &[n])
                .into_iter()
                .map(|b| TileBox {
                    first: self.delinearize(b.first[0], shape),
                    check: b.check,
                })
                .collect();
        }
        self.nd_boxes(layout, shape)
    }

    /// The index of linear element `l` (an `i32`) of a tile of `shape`.
    fn delinearize(&mut self, mut l: Value, shape: &[i64]) -> Vec<Value> {
        let mut idx = vec![l; shape.len()];
        for d in (0..shape.len()).rev() {
            if shape[d] == 1 {
                idx[d] = self.const_i32(0);
                continue;
            }
            if d == 0 {
                idx[d] = l;
                break;
            }
            let size = self.const_i32(shape[d]);
            idx[d] = self.bin_i32("arith.remui", l, size);
            l = self.bin_i32("arith.divui", l, size);
        }
        idx
    }

    /// `boxes` for a layout of the tile's own rank.
    fn nd_boxes(&mut self, layout: &BlockedLayout, shape: &[i64]) -> Vec<TileBox> {
        let pos = self.thread_position(layout);
        let mut base = Vec::new();
        for (d, &p) in pos.iter().enumerate() {
            let s = layout.size_per_thread[d];
            base.push(if s == 1 {
                p
            } else {
                let sv = self.const_i32(s);
                self.bin_i32("arith.muli", p, sv)
            });
        }
        let cover = layout.cover();
        let reps = layout.repetitions(shape);
        let count: i64 = reps.iter().product();
        let mut out = Vec::new();
        for r in 0..count {
            let mut rest = r;
            let mut at = vec![0; reps.len()];
            for d in (0..reps.len()).rev() {
                at[d] = rest % reps[d];
                rest /= reps[d];
            }
            let mut first = Vec::new();
            let mut check = Vec::new();
            for d in 0..reps.len() {
                let offset = at[d] * cover[d];
                first.push(if offset == 0 {
                    base[d]
                } else {
                    let o = self.const_i32(offset);
                    self.bin_i32("arith.addi", base[d], o)
                });
                if offset + cover[d] > shape[d] {
                    check.push((first[d], shape[d]));
                }
            }
            out.push(TileBox { first, check });
        }
        out
    }

    /// Whether this thread's box `b` is inside the tile (`None`: every
    /// thread's is). `sizePerThread` divides the tile, so a box is inside
    /// or outside as a whole.
    pub(super) fn box_cond(&mut self, b: &TileBox, shape: &[i64]) -> Option<Value> {
        let mut cond: Option<Value> = None;
        let _ = shape;
        for &(v, bound) in &b.check {
            let n = self.const_i32(bound);
            let c = self.cmp_slt(v, n);
            cond = Some(match cond {
                None => c,
                Some(a) => {
                    let i1 = self.ctx.integer_type(1);
                    self.value("arith.andi", &[a, c], &[i1], &[])
                }
            });
        }
        cond
    }

    /// The indices of a box's elements from its first, `first`, row-major.
    pub(super) fn box_lanes(&mut self, first: &[Value], layout: &BlockedLayout) -> Vec<Vec<Value>> {
        let mut lanes = vec![first.to_vec()];
        // A flat layout's boxes run along the last dimension.
        let flat = layout.rank() == 1 && first.len() > 1;
        for d in 0..first.len() {
            let s = match (flat, d + 1 == first.len()) {
                (false, _) => layout.size_per_thread[d],
                (true, true) => layout.size_per_thread[0],
                (true, false) => 1,
            };
            if s == 1 {
                continue;
            }
            let mut next = Vec::new();
            for idx in &lanes {
                for j in 0..s {
                    let mut at = idx.clone();
                    if j > 0 {
                        let jv = self.const_i32(j);
                        at[d] = self.bin_i32("arith.addi", idx[d], jv);
                    }
                    next.push(at);
                }
            }
            lanes = next;
        }
        lanes
    }

    /// Runs `body` inside `scf.if cond` (directly for `None`); `body`
    /// yields `types`, zeros where the condition fails.
    pub(super) fn under(
        &mut self,
        cond: Option<Value>,
        types: &[strata_ir::Type],
        body: &mut dyn FnMut(&mut Self) -> R<Vec<Value>>,
    ) -> R<Vec<Value>> {
        let Some(cond) = cond else {
            return body(self);
        };
        let (then_block, else_block, op) = self.if_op(cond, types);
        let outer = self.block;
        self.block = then_block;
        let vals = body(self);
        let vals = match vals {
            Ok(v) => v,
            Err(e) => {
                self.block = outer;
                return Err(e);
            }
        };
        self.op("scf.yield", &vals, &[], &[]);
        self.block = else_block;
        let mut zeros = Vec::new();
        for &t in types {
            zeros.push(self.zero(t));
        }
        self.op("scf.yield", &zeros, &[], &[]);
        self.block = outer;
        Ok(self.ctx.results(op).collect())
    }

    /// Whether box `b`'s condition holds, as an `i1` (`true` when it has
    /// none).
    pub(super) fn box_valid(&mut self, cond: Option<Value>) -> Value {
        if let Some(c) = cond {
            return c;
        }
        let i1 = self.ctx.integer_type(1);
        let one = self.ctx.integer_attr(i1, 1);
        self.value("arith.constant", &[], &[i1], &[("value", one)])
    }
}
