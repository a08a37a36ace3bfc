//! Stores in runs: a store's default layout gives each thread boxes of `V`
//! consecutive elements along the tile's last dimension
//! (`sizePerThread = [1, ..., V]`), so that its accesses to a contiguous
//! tile are consecutive and, where the offsets allow, aligned to the run's
//! size: LLVM's NVPTX
//! back end then merges them into vector accesses (`ld.global.v4.f32`,
//! `st.global.v4.f32`), as Triton's `sizePerThread` does, wherever it can
//! prove the alignment from the offsets and the parameters' `llvm.align`.
//! A warp still covers `32 * V` consecutive elements, so the accesses stay
//! coalesced.
//!
//! A run whose lanes are all inside the store's mask stores, and loads
//! under that same mask, without a branch per element (one straight block
//! that LLVM can vectorize); a run at a ragged edge takes the per-element
//! path, each element under its own mask, so masks stay exact.

use std::collections::HashMap;

use strata_dialects::kernel::types::{element_of, pointee};
use strata_ir::{AttrKind, Context, Operation, TypeKind, Value};

use super::{err, Conv, Elem, R};

impl Conv<'_> {
    /// The elements per run of tile store `op` of `shape`: `vector-bytes`
    /// worth of its elements, halved until the run divides the last
    /// dimension and every thread has a whole run (1 when the store reads
    /// a tile the thread holds in registers, whose elements are dealt out
    /// one at a time).
    pub(super) fn run_length(&self, op: Operation, shape: &[i64]) -> i64 {
        let Some(&last) = shape.last() else {
            return 1;
        };
        if self.ctx.operands(op).any(|v| self.reads_owned(v)) {
            return 1;
        }
        let ptrs = self.ctx.operand(op, 0);
        let ptr = element_of(self.ctx, self.ctx.value_type(ptrs));
        let bits = match pointee(self.ctx, ptr).map(|t| self.ctx.type_kind(t)) {
            Some(TypeKind::Float(k)) => i64::from(k.bit_width()),
            Some(&TypeKind::Integer { width, .. }) => i64::from(width),
            _ => return 1,
        };
        if bits < 8 || bits % 8 != 0 {
            return 1;
        }
        let n: i64 = shape.iter().product();
        let run = (self.vector_bytes / (bits / 8)).max(1);
        self.fitting_run(run, last, n)
    }

    /// `run` halved until it divides `last` (the elements a run may span),
    /// every thread has a whole run of the `n` elements, and a thread's
    /// runs fit in `max-unroll` elements.
    pub(super) fn fitting_run(&self, mut run: i64, last: i64, n: i64) -> i64 {
        let per = |run: i64| (n / run + self.threads - 1) / self.threads * run;
        while run > 1 && (last % run != 0 || run * self.threads > n || per(run) > self.max_unroll) {
            run /= 2;
        }
        run
    }

    /// A box of a store (its elements' indices `lanes`): the stores,
    /// straight when no mask or every lane's mask holds, else per element.
    pub(super) fn store_box(
        &mut self,
        op: Operation,
        operands: &[Value],
        lanes: &[Vec<Value>],
        row: usize,
    ) -> R<()> {
        let Some(&mask) = operands.get(2) else {
            return self.store_lanes(op, operands, lanes, row);
        };
        let Some(all) = self.all_inside(op, mask, lanes)? else {
            return Ok(());
        };
        let (then_block, else_block, _) = self.if_op(all, &[]);
        let outer = self.block;
        // Every lane inside the mask: no branch per element, and loads
        // under the same mask need none either.
        self.block = then_block;
        self.memo.push(HashMap::new());
        let saved = self.assumed_mask.replace((mask, lanes.to_vec()));
        let straight = self.store_lanes(op, operands, lanes, row);
        self.assumed_mask = saved;
        self.memo.pop();
        straight?;
        self.op("scf.yield", &[], &[], &[]);
        // A ragged edge: each lane under its own mask.
        self.block = else_block;
        self.memo.push(HashMap::new());
        let ragged = lanes
            .iter()
            .try_for_each(|idx| self.store_element(op, operands, idx));
        self.memo.pop();
        ragged?;
        self.op("scf.yield", &[], &[], &[]);
        self.block = outer;
        Ok(())
    }

    /// The elements per box of a block reduction of `src`, `n` 32-bit
    /// numbers whose last dimension has `last`: as a store's
    /// (`run_length`), for the tile being reduced.
    pub(super) fn reduce_run(&self, src: Value, n: i64, last: i64) -> i64 {
        if self.reads_owned(src) {
            return 1;
        }
        self.fitting_run((self.vector_bytes / 4).max(1), last, n)
    }

    /// The values of tile `src` at `lanes`. When `src` is a masked load and
    /// every lane is inside its mask, the lanes load without a branch each
    /// (one block, which LLVM can merge into a vector load); otherwise each
    /// lane loads under its own mask.
    pub(super) fn lane_values(
        &mut self,
        user: Operation,
        src: Value,
        lanes: &[Vec<Value>],
    ) -> R<Vec<Value>> {
        let mask = self
            .ctx
            .defining_op(self.root(src))
            .filter(|&d| self.ctx.op_name_str(d) == "kernel.load" && self.ctx.num_operands(d) > 1)
            .map(|d| self.ctx.operand(d, 1));
        let Some(mask) = mask else {
            return lanes.iter().map(|idx| self.val(user, src, idx)).collect();
        };
        let Some(all) = self.all_inside(user, mask, lanes)? else {
            return Ok(Vec::new());
        };
        let t = element_of(self.ctx, self.ctx.value_type(src));
        let types = vec![t; lanes.len()];
        let (then_block, else_block, op) = self.if_op(all, &types);
        let outer = self.block;
        for (block, assume) in [(then_block, true), (else_block, false)] {
            self.block = block;
            self.memo.push(HashMap::new());
            let saved = self.assumed_mask.take();
            self.assumed_mask = if assume {
                Some((mask, lanes.to_vec()))
            } else {
                saved.clone()
            };
            let vals: R<Vec<Value>> = lanes.iter().map(|idx| self.val(user, src, idx)).collect();
            self.assumed_mask = saved;
            self.memo.pop();
            let vals = vals?;
            self.op("scf.yield", &vals, &[], &[]);
        }
        self.block = outer;
        Ok(self.ctx.results(op).collect())
    }

    /// Whether every lane is inside `mask` (an `i1`; `None` for no lanes).
    fn all_inside(
        &mut self,
        user: Operation,
        mask: Value,
        lanes: &[Vec<Value>],
    ) -> R<Option<Value>> {
        let mut all: Option<Value> = None;
        for idx in lanes {
            let m = self.val(user, mask, idx)?;
            all = Some(match all {
                None => m,
                Some(a) => {
                    let i1 = self.ctx.integer_type(1);
                    self.value("arith.andi", &[a, m], &[i1], &[])
                }
            });
        }
        Ok(all)
    }

    /// The lanes' pointers and values, then their stores: every load comes
    /// before the first store, so that LLVM may merge the loads (it does
    /// not move them past a store to memory they might share). Lanes at
    /// consecutive addresses from an offset that is a multiple of the run
    /// are one vector store (the lanes come in rows of `row`, each of
    /// which may be one).
    fn store_lanes(
        &mut self,
        op: Operation,
        operands: &[Value],
        lanes: &[Vec<Value>],
        row: usize,
    ) -> R<()> {
        let mut stores: Vec<[Value; 3]> = Vec::new();
        for idx in lanes {
            let Elem::Ptr(base, offset) = self.element(op, operands[0], idx)? else {
                return Err(err(
                    self.ctx,
                    op,
                    "stores through a value that is not a pointer",
                ));
            };
            let Elem::Val(value) = self.element(op, operands[1], idx)? else {
                return Err(err(self.ctx, op, "stores a pointer"));
            };
            stores.push([value, base, offset]);
        }
        for chunk in stores.chunks(row.max(1)) {
            if let Some(vector) = self.vector_of(chunk) {
                let [_, base, offset] = chunk[0];
                self.op("nvptx.store", &[vector, base, offset], &[], &[]);
                continue;
            }
            for s in chunk {
                self.op("nvptx.store", s, &[], &[]);
            }
        }
        Ok(())
    }

    /// The stores' values as one vector, when they write consecutive
    /// elements through one pointer parameter (which promises
    /// `BUFFER_ALIGN` bytes) from an offset that is a multiple of their
    /// count, and the vector is at most 16 bytes.
    fn vector_of(&mut self, stores: &[[Value; 3]]) -> Option<Value> {
        let n = stores.len() as i64;
        let [first, base, offset] = *stores.first()?;
        let element = self.ctx.value_type(first);
        let bits = match self.ctx.type_kind(element) {
            TypeKind::Float(k) => i64::from(k.bit_width()),
            &TypeKind::Integer { width, .. } => i64::from(width),
            _ => return None,
        };
        if n < 2 || bits % 8 != 0 || n * bits / 8 > 16 || !matches!(base, Value::Argument(..)) {
            return None;
        }
        let origin = linear(self.ctx, offset)?;
        for (j, s) in stores.iter().enumerate() {
            if s[1] != base || self.ctx.value_type(s[0]) != element {
                return None;
            }
            let mut lane = linear(self.ctx, s[2])?;
            lane.constant -= j as i64;
            if lane != origin {
                return None;
            }
        }
        if known_multiple(self.ctx, offset) % n != 0 {
            return None;
        }
        let values: Vec<Value> = stores.iter().map(|s| s[0]).collect();
        let ty = self.ctx.intern_type(TypeKind::Vector {
            shape: vec![n],
            scalable: vec![false],
            element,
        });
        Some(self.value("vector.from_elements", &values, &[ty], &[]))
    }
}

/// An `i32` offset as a sum of opaque values times constants plus a
/// constant, read through `arith` additions, subtractions, multiplications
/// by constants and constants.
#[derive(Debug, PartialEq, Eq)]
struct Linear {
    terms: HashMap<Value, i64>,
    constant: i64,
}

fn linear(ctx: &Context, v: Value) -> Option<Linear> {
    let atom = || {
        Some(Linear {
            terms: HashMap::from([(v, 1)]),
            constant: 0,
        })
    };
    let Some(def) = ctx.defining_op(v) else {
        return atom();
    };
    let operands: Vec<Value> = ctx.operands(def).collect();
    match ctx.op_name_str(def) {
        "arith.constant" => Some(Linear {
            terms: HashMap::new(),
            constant: int_constant(ctx, def)?,
        }),
        "arith.addi" | "arith.subi" => {
            let sign = if ctx.op_name_str(def) == "arith.subi" {
                -1
            } else {
                1
            };
            let mut a = linear(ctx, operands[0])?;
            let b = linear(ctx, operands[1])?;
            for (k, c) in b.terms {
                *a.terms.entry(k).or_insert(0) += sign * c;
            }
            a.terms.retain(|_, c| *c != 0);
            a.constant = a.constant.checked_add(sign * b.constant)?;
            Some(a)
        }
        "arith.muli" => {
            let (a, b) = (linear(ctx, operands[0])?, linear(ctx, operands[1])?);
            let (mut x, k) = match (a.terms.is_empty(), b.terms.is_empty()) {
                (_, true) => (a, b.constant),
                (true, false) => (b, a.constant),
                _ => return atom(),
            };
            for c in x.terms.values_mut() {
                *c = c.checked_mul(k)?;
            }
            x.terms.retain(|_, c| *c != 0);
            x.constant = x.constant.checked_mul(k)?;
            Some(x)
        }
        _ => atom(),
    }
}

/// The largest power of two (up to 2^30) that `i32` value `v` is known to
/// be a multiple of, read through `arith` ops: a remainder of two
/// multiples of `d` is one too.
fn known_multiple(ctx: &Context, v: Value) -> i64 {
    const MAX: i64 = 1 << 30;
    let Some(def) = ctx.defining_op(v) else {
        return 1;
    };
    let operands: Vec<Value> = ctx.operands(def).collect();
    let of = |x: Value| known_multiple(ctx, x);
    match ctx.op_name_str(def) {
        "arith.constant" => match int_constant(ctx, def) {
            Some(0) => MAX,
            Some(c) => (1i64 << c.trailing_zeros()).min(MAX),
            None => 1,
        },
        "arith.addi" | "arith.subi" | "arith.remui" | "arith.remsi" => {
            of(operands[0]).min(of(operands[1]))
        }
        "arith.muli" => of(operands[0]).saturating_mul(of(operands[1])).min(MAX),
        _ => 1,
    }
}

/// The value of integer constant op `def`.
fn int_constant(ctx: &Context, def: Operation) -> Option<i64> {
    match strata_ir::ods::inherent_attr(ctx, def, "value").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(*value).ok(),
        _ => None,
    }
}
