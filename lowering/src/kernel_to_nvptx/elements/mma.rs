//! `dot` by the block: its operand tiles staged in shared memory, and for
//! f16/bf16 operands with an f32 accumulator, `mma.sync.m16n8k16` by each
//! warp, as Triton's NVIDIA back end and CUTLASS compute a tile product.
//!
//! Staging: before a `dot` (after a barrier, inside a loop, so that no warp
//! still reads the previous iteration's tiles) every thread writes its runs
//! of `A` and `B` to shared buffers (rows padded by 16 bytes, so that the
//! lanes of a fragment read distinct banks), then a barrier; afterwards the
//! tiles' elements are read from shared memory, each once per block from
//! global memory instead of once per output column or row.
//!
//! The `mma` layout: the `m x n` accumulator is cut into 16x8 tiles, and a
//! grid of `warps_m x warps_n` warps each owns `per_m x per_n` of them.
//! Lane `l` of a warp holds, with `g = l / 4` and `t = l % 4`, elements
//! `(g + 8 * (e / 2), 2t + e % 2)` of each of its 16x8 tiles (`e` from 0 to
//! 3), as PTX lays out `mma`'s accumulators. Each `K` step of 16 loads the
//! warp's `A` and `B` fragments from shared memory (`vector<8xf16>`,
//! `vector<4xf16>`) and runs one `mma_sync` per tile. An accumulator that a
//! loop carries stays in this layout across iterations; after the loop
//! (or after a `dot` not carried) it is written to shared memory, and the
//! ops that read it (the epilogue, the store) read it there in their own
//! layout, coalesced.
//!
//! A `dot` that does not fit (its tiles not multiples of the fragment
//! shapes, more accumulators per thread than `max-unroll`, or more than
//! 48 KiB of shared memory) is computed per element: staged in shared
//! memory when that fits, else from global memory.

use std::collections::{HashMap, HashSet};

use strata_dialects::kernel::types::{element_of, encoding_of, tile_shape};
use strata_dialects::nvptx::types::{ptr_type, AddressSpace};
use strata_ir::float::FloatKind;
use strata_ir::{Operation, Type, TypeKind, Value};

use strata_dialects::nvptx::layout::{BlockedLayout, MmaLayout as MmaAttr};

use super::retype::TypedLayout;
use super::{Conv, Slot, R};

/// The static shared memory one block may use, in bytes.
const SHARED_LIMIT: i64 = 48 * 1024;

/// How an `m x n` accumulator is dealt to the block's warps for `mma`:
/// a `warps_m x warps_n` grid of warps, each owning `per_m x per_n` tiles
/// of 16x8; a thread holds 4 elements of each tile of its warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MmaLayout {
    warps_n: i64,
    per_m: i64,
    per_n: i64,
}

impl MmaLayout {
    /// The elements a thread holds.
    pub(super) fn slots(&self) -> i64 {
        self.per_m * self.per_n * 4
    }
}

impl Conv<'_> {
    /// Whether tile `v`'s elements read a tile a thread holds in registers
    /// (so that they can be computed only at that thread's elements).
    pub(super) fn reads_owned(&self, v: Value) -> bool {
        self.reads(v, &|x| self.owned.contains_key(&x))
    }

    /// Whether `v` is, or is computed from, a value for which `hit` holds
    /// (through tile ops; shared tiles and scalars are leaves).
    pub(super) fn reads(&self, v: Value, hit: &dyn Fn(Value) -> bool) -> bool {
        let mut stack = vec![v];
        let mut seen = HashSet::new();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            if hit(x) {
                return true;
            }
            if self.shared.contains_key(&x) || !self.is_tile(x) {
                continue;
            }
            if let Some(d) = self.ctx.defining_op(x) {
                stack.extend(self.ctx.operands(d));
            }
        }
        false
    }

    /// The linear `i32` offset of element `idx` in a buffer of `strides`.
    pub(super) fn shared_index(&mut self, idx: &[Value], strides: &[i64]) -> Value {
        let mut at: Option<Value> = None;
        for (&i, &s) in idx.iter().zip(strides) {
            let term = if s == 1 {
                i
            } else {
                let sv = self.const_i32(s);
                self.bin_i32("arith.muli", i, sv)
            };
            at = Some(match at {
                None => term,
                Some(a) => self.bin_i32("arith.addi", a, term),
            });
        }
        match at {
            Some(a) => a,
            None => self.const_i32(0),
        }
    }

    /// The strides and size (elements) of a shared buffer for a tile of
    /// `shape` and `bytes`-byte elements: row-major, its rows padded by
    /// 16 bytes where they are a multiple of that.
    fn shared_layout(shape: &[i64], bytes: i64) -> (Vec<i64>, i64) {
        let last = shape.last().copied().unwrap_or(1);
        let pad = if bytes > 0 && 16 % bytes == 0 && (last * bytes) % 16 == 0 {
            16 / bytes
        } else {
            0
        };
        let mut strides = vec![1; shape.len()];
        let mut size = last + pad;
        for d in (0..shape.len().saturating_sub(1)).rev() {
            strides[d] = size;
            size *= shape[d];
        }
        (strides, size.max(1))
    }

    fn element_bytes(&self, t: Type) -> i64 {
        i64::from(self.ctx.int_or_float_bit_width(t).unwrap_or(32).max(8)) / 8
    }

    /// The shared bytes that staging tile `v` takes.
    fn staged_bytes(&self, v: Value) -> i64 {
        let ty = self.ctx.value_type(v);
        let bytes = self.element_bytes(element_of(self.ctx, ty));
        let (_, size) = Self::shared_layout(&tile_shape(self.ctx, ty), bytes);
        size * bytes
    }

    /// A shared buffer of `elements` of `t`, allocated at the top of the
    /// kernel.
    fn shared_alloc(&mut self, t: Type, elements: i64) -> Value {
        let ptr = ptr_type(self.ctx, t, AddressSpace::Shared);
        let i64t = self.ctx.integer_type(64);
        let count = self.ctx.integer_attr(i64t, i128::from(elements));
        let op = self.make_op("nvptx.shared_alloc", &[], &[ptr], &[("elements", count)]);
        let tid_op = self.ctx.defining_op(self.tid);
        match tid_op {
            Some(first) => self.ctx.insert_op_before(first, op),
            None => self.ctx.append_op(self.block, op),
        }
        self.shared_bytes += elements * self.element_bytes(t);
        self.ctx.result(op, 0)
    }

    fn barrier(&mut self) {
        self.op("nvptx.barrier", &[], &[], &[]);
    }

    /// Whether `dot`'s operands can be staged in shared memory (with
    /// `extra` more bytes): 2-D tiles that read no registers of a thread,
    /// that fit, with at most `max-unroll` elements per thread.
    fn stageable(&self, dot: Operation, extra: i64) -> bool {
        let (a, b) = (self.ctx.operand(dot, 0), self.ctx.operand(dot, 1));
        let fits = |v: Value| {
            let shape = tile_shape(self.ctx, self.ctx.value_type(v));
            let n: i64 = shape.iter().product();
            shape.len() == 2 && (n + self.threads - 1) / self.threads <= self.max_unroll
        };
        let bytes = self.staged_bytes(a) + self.staged_bytes(b) + extra;
        fits(a)
            && fits(b)
            && !self.reads_owned(a)
            && !self.reads_owned(b)
            && self.shared_bytes + self.reserved_bytes + bytes <= SHARED_LIMIT
    }

    /// The `mma` layout for `dot` when it runs on `mma_sync`: f16 or bf16
    /// operands, an f32 accumulator, tiles of multiples of 16 (`M`, `K`)
    /// and 8 (`N`) that the warps divide, at most `max-unroll` accumulators
    /// per thread, and its operands and accumulator stageable.
    fn mma_layout(&self, dot: Operation) -> Option<MmaLayout> {
        let ctx = &*self.ctx;
        let (a, b, c) = (
            ctx.operand(dot, 0),
            ctx.operand(dot, 1),
            ctx.operand(dot, 2),
        );
        let (ta, tb, tc) = (ctx.value_type(a), ctx.value_type(b), ctx.value_type(c));
        let narrow = |t: Type| {
            matches!(
                ctx.float_kind(element_of(ctx, t)),
                Some(FloatKind::F16 | FloatKind::BF16)
            )
        };
        let f32_acc = ctx.float_kind(element_of(ctx, tc)) == Some(FloatKind::F32);
        if !narrow(ta) || element_of(ctx, ta) != element_of(ctx, tb) || !f32_acc {
            return None;
        }
        let (sa, sc) = (tile_shape(ctx, ta), tile_shape(ctx, tc));
        let [m, k] = sa[..] else { return None };
        let [_, n] = sc[..] else { return None };
        if m % 16 != 0 || n % 8 != 0 || k % 16 != 0 {
            return None;
        }
        let (tiles_m, tiles_n) = (m / 16, n / 8);
        let warps = self.threads / 32;
        // The warp grid that loads the fewest fragment elements per K step.
        let mut best: Option<(i64, MmaLayout)> = None;
        let given = self.given_mma.get(&dot).map(|g| g.warps_per_cta[1]);
        let mut warps_n = 1;
        while warps_n <= warps {
            let warps_m = warps / warps_n;
            let allowed = given.is_none_or(|n| n == warps_n);
            if allowed
                && warps_m * warps_n == warps
                && tiles_m % warps_m == 0
                && tiles_n % warps_n == 0
            {
                let l = MmaLayout {
                    warps_n,
                    per_m: tiles_m / warps_m,
                    per_n: tiles_n / warps_n,
                };
                let cost = l.per_m * 8 + l.per_n * 4;
                if best.is_none_or(|(c, _)| cost < c) {
                    best = Some((cost, l));
                }
            }
            warps_n *= 2;
        }
        let (_, layout) = best?;
        if layout.slots() > self.max_unroll {
            return None;
        }
        // The accumulator written to shared memory once, after the product.
        self.stageable(dot, Self::accumulator_bytes(&sc))
            .then_some(layout)
    }

    /// The shared bytes an f32 accumulator of `shape` takes.
    pub(super) fn accumulator_bytes(shape: &[i64]) -> i64 {
        Self::shared_layout(shape, 4).1 * 4
    }

    /// The `mma` layout of loop `op`'s `k`-th iteration argument when the
    /// loop body yields for it a `dot` on `mma_sync` that accumulates into
    /// it (recorded for the `dot`).
    pub(super) fn carried_mma(&mut self, op: Operation, k: usize) -> Option<MmaLayout> {
        let ctx = &*self.ctx;
        let body = ctx
            .op_regions(op)
            .first()
            .and_then(|&r| ctx.region_entry_block(r))?;
        let arg = ctx.block_args(body).nth(k + 1)?;
        let term = ctx.block_ops(body).last()?;
        let y = ctx.operands(term).nth(k)?;
        let dot = ctx.defining_op(y)?;
        // The argument only accumulates the dot, and the dot only goes to
        // the next iteration: nothing else reads them in another layout.
        let only_use = |v: Value, user: Operation| {
            let uses: Vec<_> = ctx.uses(v).collect();
            uses.len() == 1 && uses[0].op == user
        };
        if ctx.op_name_str(dot) != "kernel.dot"
            || ctx.op_parent_block(dot) != Some(body)
            || ctx.operand(dot, 2) != arg
            || !only_use(arg, dot)
            || !only_use(y, term)
        {
            return None;
        }
        // The operands may not read the loop's carried tiles, nor the
        // results of loops inside it (held in registers too).
        let tiles: Vec<Value> = ctx
            .block_args(body)
            .skip(1)
            .filter(|&v| self.is_tile(v))
            .collect();
        let carried = |x: Value| {
            tiles.contains(&x)
                || ctx
                    .defining_op(x)
                    .is_some_and(|d| ctx.op_name_str(d) == "scf.for")
        };
        let (a, b) = (ctx.operand(dot, 0), ctx.operand(dot, 1));
        if self.reads(a, &carried) || self.reads(b, &carried) {
            return None;
        }
        // The initial value is computed at the layout's elements.
        let init = ctx.operand(op, 3 + k);
        let layout = self.mma_layout(dot)?;
        if self.reads_owned(init) && self.mma.get(&init) != Some(&layout) {
            return None;
        }
        // Its buffers are allocated when the body is converted.
        self.reserved_bytes += self.staged_bytes(a)
            + self.staged_bytes(b)
            + Self::accumulator_bytes(&tile_shape(ctx, ctx.value_type(arg)));
        self.mma_dots.insert(dot, layout);
        Some(layout)
    }

    /// A `dot` where it stands in its block: its operands staged in shared
    /// memory when they fit, and on `mma_sync` when it qualifies (see the
    /// module docs); otherwise (and for its elements when staged without
    /// `mma`) computed per element where they are needed.
    pub(super) fn dot_statement(&mut self, op: Operation) -> R<()> {
        let (a, b, c) = (
            self.ctx.operand(op, 0),
            self.ctx.operand(op, 1),
            self.ctx.operand(op, 2),
        );
        let r = self.ctx.result(op, 0);
        let given = self.type_layout(op, r)?;
        let carried = self.mma_dots.get(&op).copied();
        if carried.is_some() {
            // Its staging buffers are allocated now.
            self.reserved_bytes -= self.staged_bytes(a) + self.staged_bytes(b);
            if self.reads_owned(a) || self.reads_owned(b) {
                // Computed per element, at the accumulator's layout.
                return Ok(());
            }
        }
        let layout = carried.or_else(|| {
            let acc_ok = !self.reads_owned(c);
            let open = !matches!(given, Some(TypedLayout::Blocked(_)));
            self.mma_layout(op).filter(|_| acc_ok && open)
        });
        if let (None, Some(TypedLayout::Mma(g))) = (layout, &given) {
            return Err(super::err(
                self.ctx,
                op,
                format!(
                    "has layout #nvptx.{g}, but does not run on mma_sync with it (f16 or bf16 operands, an f32 accumulator, M and K multiples of 16 and N of 8 that the warp grid divides, its tiles fitting in shared memory and registers)"
                ),
            ));
        }
        if layout.is_none() && !self.stageable(op, 0) {
            // Computed per element from its operands: a held one is read
            // through shared memory.
            for i in 0..2 {
                if encoding_of(self.ctx, self.ctx.value_type(self.ctx.operand(op, i))).is_some() {
                    self.assign(op, i, None)?;
                }
            }
            return Ok(());
        }
        if self.nested > 0 {
            // No warp may still read the buffers (the previous iteration).
            self.barrier();
        }
        for i in 0..2 {
            self.stage(op, i)?;
        }
        self.barrier();
        let Some(layout) = layout else {
            return Ok(());
        };
        if carried.is_none() {
            // The result, and the accumulator it starts from, in the MMA
            // layout; a conversion after it writes it to shared memory.
            let enc = self.mma_attr(layout);
            self.retype(r, Some(enc));
            self.assign(op, 2, Some(enc))?;
        }
        let slots = self.mma_product(op, layout)?;
        self.owned.insert(r, slots);
        self.mma.insert(r, layout);
        if carried.is_none() {
            self.release_mma(r, op);
        }
        Ok(())
    }

    /// The ops after `after` that read tile `r`, held in an MMA layout,
    /// read it through one `kernel.convert_layout` to no layout, placed
    /// after `after` (which writes it to shared memory).
    pub(super) fn release_mma(&mut self, r: Value, after: Operation) {
        let uses: Vec<_> = self
            .ctx
            .uses(r)
            .filter(|u| self.ctx.op_name_str(u.op) != "kernel.convert_layout")
            .collect();
        if uses.is_empty() {
            return;
        }
        let c = self.convert_op(r, None, self.ctx.op_loc(after));
        match self.ctx.op_next(after) {
            Some(next) => self.ctx.insert_op_before(next, c),
            None => {
                if let Some(block) = self.ctx.op_parent_block(after) {
                    self.ctx.append_op(block, c);
                }
            }
        }
        let cr = self.ctx.result(c, 0);
        for u in uses {
            self.ctx.set_operand(u.op, u.index as usize, cr);
        }
    }

    /// How loop `op` carries its `k`th value, a tile of `shape`: in the
    /// layout its type gives, else in the MMA layout of a `dot` on
    /// `mma_sync` that accumulates into it, else in a blocked one
    /// (`carry_default`).
    pub(super) fn carry_of(&mut self, op: Operation, k: usize, shape: &[i64]) -> R<super::Carry> {
        let res = self.ctx.result(op, k);
        match self.type_layout(op, res)? {
            Some(TypedLayout::Blocked(l)) => {
                if l.per_thread(shape) > self.max_unroll {
                    return Err(super::err(
                        self.ctx,
                        op,
                        format!(
                            "carries a tile of {} elements per thread in #nvptx.{l}, more than max-unroll ({})",
                            l.per_thread(shape),
                            self.max_unroll
                        ),
                    ));
                }
                Ok(super::Carry::Tile(shape.to_vec(), l))
            }
            Some(TypedLayout::Mma(g)) => {
                let enc = g.to_attr(self.ctx);
                match self.carried_mma(op, k) {
                    Some(m) if self.mma_attr(m) == enc => Ok(super::Carry::Mma(shape.to_vec(), m)),
                    _ => Err(super::err(
                        self.ctx,
                        op,
                        format!(
                            "carries a tile in layout #nvptx.{g}, but no dot on mma_sync accumulates it in that layout"
                        ),
                    )),
                }
            }
            None => match self.carried_mma(op, k) {
                Some(m) => Ok(super::Carry::Mma(shape.to_vec(), m)),
                None => Ok(super::Carry::Tile(
                    shape.to_vec(),
                    self.carry_default(op, k, shape)?,
                )),
            },
        }
    }

    /// `dot`'s MMA layout as an attribute.
    pub(super) fn mma_attr(&mut self, layout: MmaLayout) -> strata_ir::Attribute {
        let warps = (self.threads / 32).max(1);
        let m = MmaAttr {
            warps_per_cta: [warps / layout.warps_n, layout.warps_n],
        };
        m.to_attr(self.ctx)
    }

    /// Operand `i` of `dot` written to a shared buffer by the block, in
    /// the blocked layout its type gives, else in runs (as a store's; the
    /// layout is given to its type); from then on its elements are read
    /// there.
    fn stage(&mut self, dot: Operation, i: usize) -> R<()> {
        let v = self.ctx.operand(dot, i);
        if self.shared.contains_key(&v) {
            return Ok(());
        }
        let ty = self.ctx.value_type(v);
        let shape = tile_shape(self.ctx, ty);
        let layout = match self.type_layout(dot, v)? {
            Some(TypedLayout::Blocked(l)) => l,
            Some(TypedLayout::Mma(_)) => {
                // Written to shared memory by a conversion.
                return self.assign(dot, i, None);
            }
            None => {
                let bytes = self.element_bytes(element_of(self.ctx, ty));
                let n: i64 = shape.iter().product();
                let last = shape.last().copied().unwrap_or(1);
                let run = self.fitting_run((self.vector_bytes / bytes).max(1), last, n);
                let l = self.default_blocked(&shape, run);
                let enc = l.to_attr(self.ctx);
                self.assign(dot, i, Some(enc))?;
                l
            }
        };
        let v = self.ctx.operand(dot, i);
        self.stage_in(dot, v, v, &shape, &layout, false)
    }

    /// Tile `src` of `shape`, computed (or held) in `layout`, written to a
    /// shared buffer by the block; `dst`'s elements are read there from
    /// then on. With `sync`, between barriers (a conversion's; a `dot`
    /// places its own around its operands).
    pub(super) fn stage_in(
        &mut self,
        user: Operation,
        src: Value,
        dst: Value,
        shape: &[i64],
        layout: &BlockedLayout,
        sync: bool,
    ) -> R<()> {
        let t = element_of(self.ctx, self.ctx.value_type(src));
        let (strides, size) = Self::shared_layout(shape, self.element_bytes(t));
        let ptr = self.shared_alloc(t, size);
        if sync && self.nested > 0 {
            // No warp may still read the buffer (the previous iteration).
            self.barrier();
        }
        let box_len = layout.size_per_thread.iter().product::<i64>() as usize;
        for (b, bx) in self.boxes(layout, shape).iter().enumerate() {
            let cond = self.box_cond(bx, shape);
            self.under(cond, &[], &mut |c| {
                let lanes = c.box_lanes(&bx.first, layout);
                c.slot = Some(Slot::of_box(b * box_len, &lanes, shape, layout));
                c.memo.push(HashMap::new());
                let r = c.stage_box(user, src, &bx.first, layout, ptr, &strides);
                c.memo.pop();
                c.slot = None;
                r.map(|()| Vec::new())
            })?;
        }
        if sync {
            self.barrier();
        }
        self.shared.insert(dst, (ptr, strides));
        Ok(())
    }

    /// A box of tile `v` (from index `first`) written to shared buffer
    /// `ptr`: one vector store for a run of several elements (the buffer is
    /// 16-byte aligned, its rows a multiple of 16 bytes, the run's start a
    /// multiple of the run).
    fn stage_box(
        &mut self,
        user: Operation,
        v: Value,
        first: &[Value],
        layout: &BlockedLayout,
        ptr: Value,
        strides: &[i64],
    ) -> R<()> {
        let lanes = self.box_lanes(first, layout);
        let values = self.lane_values(user, v, &lanes)?;
        let element = element_of(self.ctx, self.ctx.value_type(v));
        // The box's runs along its rows (consecutive in the buffer), in
        // vector stores of at most 16 bytes.
        let bytes = self.element_bytes(element).max(1);
        let piece = layout.row_length().min((16 / bytes).max(1) as usize);
        for (idx, vals) in lanes.chunks(piece).zip(values.chunks(piece)) {
            let at = self.shared_index(&idx[0], strides);
            if vals.len() == 1 {
                self.op("nvptx.store", &[vals[0], ptr, at], &[], &[]);
                continue;
            }
            let vt = self.ctx.intern_type(TypeKind::Vector {
                shape: vec![vals.len() as i64],
                scalable: vec![false],
                element,
            });
            let vector = self.value("vector.from_elements", vals, &[vt], &[]);
            self.op("nvptx.store", &[vector, ptr, at], &[], &[]);
        }
        Ok(())
    }

    /// `a + b * k` (`i32`).
    fn mul_add(&mut self, a: Value, b: Value, k: i64) -> Value {
        let kv = self.const_i32(k);
        let p = self.bin_i32("arith.muli", b, kv);
        self.bin_i32("arith.addi", a, p)
    }

    fn plus(&mut self, a: Value, k: i64) -> Value {
        if k == 0 {
            return a;
        }
        let kv = self.const_i32(k);
        self.bin_i32("arith.addi", a, kv)
    }

    /// This thread's `(warp_m, warp_n, g, t)` in `layout`.
    fn mma_coords(&mut self, layout: MmaLayout) -> [Value; 4] {
        let c32 = self.const_i32(32);
        let warp = self.bin_i32("arith.divui", self.tid, c32);
        let lane = self.bin_i32("arith.remui", self.tid, c32);
        let wn = self.const_i32(layout.warps_n);
        let warp_m = self.bin_i32("arith.divui", warp, wn);
        let warp_n = self.bin_i32("arith.remui", warp, wn);
        let c4 = self.const_i32(4);
        let g = self.bin_i32("arith.divui", lane, c4);
        let t = self.bin_i32("arith.remui", lane, c4);
        [warp_m, warp_n, g, t]
    }

    /// The index of this thread's slot `s` of an accumulator in `layout`.
    fn mma_index(&mut self, layout: MmaLayout, coords: [Value; 4], s: i64) -> Vec<Value> {
        let [warp_m, warp_n, g, t] = coords;
        let (j, e) = (s / 4, s % 4);
        let (jm, jn) = (j / layout.per_n, j % layout.per_n);
        // row = (warp_m * per_m + jm) * 16 + g + 8 (e / 2)
        let row0 = self.const_i32(jm * 16 + 8 * (e / 2));
        let row0 = self.mul_add(row0, warp_m, layout.per_m * 16);
        let row = self.bin_i32("arith.addi", row0, g);
        // col = (warp_n * per_n + jn) * 8 + 2t + e % 2
        let col0 = self.const_i32(jn * 8 + e % 2);
        let col0 = self.mul_add(col0, warp_n, layout.per_n * 8);
        let col = self.mul_add(col0, t, 2);
        vec![row, col]
    }

    /// This thread's elements of tile `v` in `layout` (every one inside
    /// the tile).
    pub(super) fn mma_elements(
        &mut self,
        op: Operation,
        v: Value,
        layout: MmaLayout,
    ) -> R<Vec<Value>> {
        if self.mma.get(&v) == Some(&layout) {
            if let Some(slots) = self.owned.get(&v) {
                return Ok(slots.clone());
            }
        }
        let shape = tile_shape(self.ctx, self.ctx.value_type(v));
        let coords = self.mma_coords(layout);
        let mut out = Vec::new();
        for s in 0..layout.slots() {
            let idx = self.mma_index(layout, coords, s);
            self.slot = Some(Slot {
                elems: vec![(s as usize, idx.clone())],
                shape: shape.clone(),
                mma: Some(layout),
                blocked: None,
            });
            self.memo.push(HashMap::new());
            let r = self.val(op, v, &idx);
            self.memo.pop();
            self.slot = None;
            out.push(r?);
        }
        Ok(out)
    }

    /// `dot` on `mma_sync`, its operands staged: this thread's accumulator
    /// elements after every `K` step (see the module docs).
    fn mma_product(&mut self, op: Operation, layout: MmaLayout) -> R<Vec<Value>> {
        let (a, b, c) = (
            self.ctx.operand(op, 0),
            self.ctx.operand(op, 1),
            self.ctx.operand(op, 2),
        );
        let k = tile_shape(self.ctx, self.ctx.value_type(a))[1];
        let t = element_of(self.ctx, self.ctx.value_type(a));
        let f32t = self.ctx.float_type(FloatKind::F32);
        let vec_of = |c: &mut Self, n: i64, e: Type| {
            c.ctx.intern_type(TypeKind::Vector {
                shape: vec![n],
                scalable: vec![false],
                element: e,
            })
        };
        let (va, vb, vc) = (
            vec_of(self, 8, t),
            vec_of(self, 4, t),
            vec_of(self, 4, f32t),
        );
        let mut acc = self.mma_elements(op, c, layout)?;
        let [warp_m, warp_n, g, tt] = self.mma_coords(layout);
        for ks in 0..k / 16 {
            // A fragments: rows of the warp's tiles, columns of this step.
            let mut a_frags = Vec::new();
            for jm in 0..layout.per_m {
                let row0 = self.const_i32(jm * 16);
                let row0 = self.mul_add(row0, warp_m, layout.per_m * 16);
                let row = self.bin_i32("arith.addi", row0, g);
                let col0 = self.const_i32(ks * 16);
                let col = self.mul_add(col0, tt, 2);
                let mut xs = Vec::new();
                for e in 0..8 {
                    let r = self.plus(row, 8 * ((e / 2) % 2));
                    let cc = self.plus(col, e % 2 + 8 * (e / 4));
                    xs.push(self.val(op, a, &[r, cc])?);
                }
                a_frags.push(self.value("vector.from_elements", &xs, &[va], &[]));
            }
            // B fragments: rows of this step, columns of the warp's tiles.
            let mut b_frags = Vec::new();
            for jn in 0..layout.per_n {
                let col0 = self.const_i32(jn * 8);
                let col0 = self.mul_add(col0, warp_n, layout.per_n * 8);
                let col = self.bin_i32("arith.addi", col0, g);
                let row0 = self.const_i32(ks * 16);
                let row = self.mul_add(row0, tt, 2);
                let mut xs = Vec::new();
                for e in 0..4 {
                    let r = self.plus(row, e % 2 + 8 * (e / 2));
                    xs.push(self.val(op, b, &[r, col])?);
                }
                b_frags.push(self.value("vector.from_elements", &xs, &[vb], &[]));
            }
            for jm in 0..layout.per_m {
                for jn in 0..layout.per_n {
                    let j = ((jm * layout.per_n + jn) * 4) as usize;
                    let cv = self.value("vector.from_elements", &acc[j..j + 4], &[vc], &[]);
                    let a_frag = a_frags[jm as usize];
                    let b_frag = b_frags[jn as usize];
                    let d = self.value("nvptx.mma_sync", &[a_frag, b_frag, cv], &[vc], &[]);
                    for e in 0..4 {
                        let i64t = self.ctx.integer_type(64);
                        let pos = self.ctx.intern_attr(strata_ir::AttrKind::DenseArray {
                            element: i64t,
                            values: vec![e as u64].into(),
                        });
                        acc[j + e] = self.value(
                            "vector.extract",
                            &[d],
                            &[f32t],
                            &[("static_position", pos)],
                        );
                    }
                }
            }
        }
        Ok(acc)
    }

    /// The accumulator `r` (`slots` in `layout`) written to shared memory;
    /// its elements are read from there afterwards, in any layout.
    pub(super) fn mma_to_shared(
        &mut self,
        r: Value,
        shape: &[i64],
        slots: &[Value],
        layout: MmaLayout,
    ) -> R<()> {
        let t = element_of(self.ctx, self.ctx.value_type(r));
        let (strides, size) = Self::shared_layout(shape, self.element_bytes(t));
        let ptr = self.shared_alloc(t, size);
        if self.nested > 0 {
            self.barrier();
        }
        let coords = self.mma_coords(layout);
        for (s, &x) in slots.iter().enumerate() {
            let idx = self.mma_index(layout, coords, s as i64);
            let at = self.shared_index(&idx, &strides);
            self.op("nvptx.store", &[x, ptr, at], &[], &[]);
        }
        self.barrier();
        self.shared.insert(r, (ptr, strides));
        Ok(())
    }
}
