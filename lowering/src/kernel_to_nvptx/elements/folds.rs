//! The elements that fold many: a reduction's (a loop over the reduced
//! axis; a whole tile's reduced to a scalar by the block together), a
//! dot's (a loop over `K`), and a constant tile's.

use std::collections::HashMap;

use strata_dialects::kernel::types::{element_of, tile_shape};
use strata_ir::{AttrKind, Operation, Type, TypeKind, Value};

use super::{err, Conv, Elem, Slot, R};

impl Conv<'_> {
    /// A constant tile's element: its splat value as a scalar constant.
    pub(super) fn constant(&mut self, def: Operation, v: Value) -> R<Elem> {
        let t = element_of(self.ctx, self.ctx.value_type(v));
        let value = strata_ir::ods::inherent_attr(self.ctx, def, "value");
        let Some(AttrKind::DenseElements { data, .. }) = value.map(|a| self.ctx.attr_kind(a))
        else {
            return Err(err(self.ctx, def, "is not a dense constant"));
        };
        if !data.splat {
            return Err(err(
                self.ctx,
                def,
                "is a constant tile of distinct values (not lowered to nvptx yet)",
            ));
        }
        let raw = data.raw.clone();
        let attr = match self.ctx.type_kind(t) {
            TypeKind::Float(_) => {
                use strata_ir::float::FloatKind as F;
                let half_bits = u16::from_le_bytes([
                    raw.first().copied().unwrap_or(0),
                    raw.get(1).copied().unwrap_or(0),
                ]);
                let x = match (self.ctx.float_kind(t), raw.len()) {
                    (_, 8) => f64::from_le_bytes(raw[..8].try_into().unwrap_or([0; 8])),
                    (_, 4) => f64::from(f32::from_le_bytes(raw[..4].try_into().unwrap_or([0; 4]))),
                    (Some(F::F16), 2) => f64::from(half::f16::from_bits(half_bits).to_f32()),
                    (Some(F::BF16), 2) => f64::from(half::bf16::from_bits(half_bits).to_f32()),
                    _ => {
                        return Err(err(
                            self.ctx,
                            def,
                            "is a float constant of a type not lowered to nvptx yet",
                        ))
                    }
                };
                self.ctx.float_attr(t, x)
            }
            _ => {
                let mut bytes = [0u8; 16];
                let n = raw.len().min(16);
                bytes[..n].copy_from_slice(&raw[..n]);
                let x = i128::from_le_bytes(bytes);
                let width = self.ctx.int_or_float_bit_width(t).unwrap_or(64).min(127);
                // Sign-extend from the element's width.
                let shift = 128 - width.max(1);
                self.ctx.integer_attr(t, (x << shift) >> shift)
            }
        };
        Ok(Elem::Val(self.value(
            "arith.constant",
            &[],
            &[t],
            &[("value", attr)],
        )))
    }

    /// A reduction's element: a loop over the reduced axis folding the
    /// source's elements with the combiner.
    pub(super) fn reduce(&mut self, def: Operation, v: Value, idx: &[Value]) -> R<Elem> {
        let src = self.ctx.operand(def, 0);
        let shape = tile_shape(self.ctx, self.ctx.value_type(src));
        let axis = strata_ir::ods::inherent_attr(self.ctx, def, "axis")
            .and_then(|a| match self.ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => Some(*value as usize),
                _ => None,
            })
            .unwrap_or(0);
        let with = |k: Value| {
            let mut j = idx.to_vec();
            j.insert(axis.min(j.len()), k);
            j
        };
        let zero = self.const_i32(0);
        let first = self.val(def, src, &with(zero))?;
        let (one, n) = (self.const_i32(1), self.const_i32(shape[axis]));
        let (lp, body, args) = self.loop_op([one, n, one], &[first]);
        let outer = self.block;
        self.block = body;
        self.memo.push(HashMap::new());
        let x = self.val(def, src, &with(args[0]));
        let combined = x.and_then(|x| self.combine(def, args[1], x));
        self.memo.pop();
        let combined = combined?;
        self.op("scf.yield", &[combined], &[], &[]);
        self.block = outer;
        let _ = v;
        Ok(Elem::Val(self.ctx.result(lp, 0)))
    }

    /// The combiner of a `kernel.reduce` applied to `a` and `b`, its ops
    /// copied into the current block.
    fn combine(&mut self, def: Operation, a: Value, b: Value) -> R<Value> {
        let Some(&region) = self.ctx.op_regions(def).first() else {
            return Err(err(self.ctx, def, "has no combiner"));
        };
        let Some(block) = self.ctx.region_entry_block(region) else {
            return Err(err(self.ctx, def, "has no combiner"));
        };
        let params: Vec<Value> = self.ctx.block_args(block).collect();
        let mut map: HashMap<Value, Value> = HashMap::new();
        map.insert(params[0], a);
        map.insert(params[1], b);
        for op in self.ctx.block_ops(block).collect::<Vec<_>>() {
            if !self.ctx.op_regions(op).is_empty() {
                return Err(err(
                    self.ctx,
                    op,
                    "has regions in a combiner (not lowered to nvptx yet)",
                ));
            }
            // A value from outside the combiner (a constant canonicalize
            // hoisted, a parameter) is the kernel's uniform value.
            let mut operands = Vec::new();
            for o in self.ctx.operands(op).collect::<Vec<_>>() {
                operands.push(match map.get(&o) {
                    Some(&v) => v,
                    None => self.scalar_val(op, o)?,
                });
            }
            if self.ctx.op_name_str(op) == "kernel.yield" {
                return operands
                    .first()
                    .copied()
                    .ok_or_else(|| err(self.ctx, op, "yields nothing"));
            }
            let types: Vec<Type> = self
                .ctx
                .results(op)
                .map(|r| self.ctx.value_type(r))
                .collect();
            let new = self.recreate(op, &operands, &types);
            for (i, r) in self
                .ctx
                .results(op)
                .collect::<Vec<_>>()
                .into_iter()
                .enumerate()
            {
                map.insert(r, self.ctx.result(new, i));
            }
        }
        Err(err(self.ctx, def, "has a combiner without kernel.yield"))
    }

    /// A `dot` element `(i, j)`: `c[i, j] + sum over k of a[i, k] * b[k, j]`
    /// in the accumulator's type.
    pub(super) fn dot(&mut self, def: Operation, v: Value, idx: &[Value]) -> R<Elem> {
        let (a, b, c) = (
            self.ctx.operand(def, 0),
            self.ctx.operand(def, 1),
            self.ctx.operand(def, 2),
        );
        let k = tile_shape(self.ctx, self.ctx.value_type(a))[1];
        let acc_t = element_of(self.ctx, self.ctx.value_type(v));
        let init = self.val(def, c, idx)?;
        let (zero, one, kn) = (self.const_i32(0), self.const_i32(1), self.const_i32(k));
        let (lp, body, args) = self.loop_op([zero, kn, one], &[init]);
        let outer = self.block;
        self.block = body;
        self.memo.push(HashMap::new());
        let r = (|| -> R<Value> {
            let x = self.val(def, a, &[idx[0], args[0]])?;
            let y = self.val(def, b, &[args[0], idx[1]])?;
            let (x, y) = (self.widen(x, acc_t), self.widen(y, acc_t));
            let float = matches!(self.ctx.type_kind(acc_t), TypeKind::Float(_));
            let (mul, add) = if float {
                ("arith.mulf", "arith.addf")
            } else {
                ("arith.muli", "arith.addi")
            };
            let p = self.value(mul, &[x, y], &[acc_t], &[]);
            Ok(self.value(add, &[args[1], p], &[acc_t], &[]))
        })();
        self.memo.pop();
        let s = r?;
        self.op("scf.yield", &[s], &[], &[]);
        self.block = outer;
        Ok(Elem::Val(self.ctx.result(lp, 0)))
    }

    /// `x` extended to `t` (f16/bf16 to f32, i8 to i32) when it is narrower.
    fn widen(&mut self, x: Value, t: Type) -> Value {
        let xt = self.ctx.value_type(x);
        if xt == t {
            return x;
        }
        let op = if matches!(self.ctx.type_kind(t), TypeKind::Float(_)) {
            "arith.extf"
        } else {
            "arith.extsi"
        };
        self.value(op, &[x], &[t], &[])
    }

    /// Whether `op`, a `kernel.reduce`, can be reduced by the block
    /// together: a 1-D tile of 32-bit numbers (what `shfl_sync` moves) to a
    /// scalar.
    pub(super) fn block_reducible(&self, op: Operation) -> bool {
        let src = self.ctx.operand(op, 0);
        let ty = self.ctx.value_type(src);
        let t = element_of(self.ctx, ty);
        let bits32 = self.ctx.int_or_float_bit_width(t) == Some(32);
        tile_shape(self.ctx, ty).len() == 1 && bits32 && self.threads % 32 == 0
    }

    /// A 1-D tile reduced to a scalar by the whole block, as Triton and CUB
    /// reduce: each thread folds its own elements, each warp folds its
    /// threads' by butterfly shuffles, the warps' results meet in shared
    /// memory after a barrier and every thread folds them. Each partial
    /// carries whether it holds any element (the combiner need not have an
    /// identity); the result is the same in every thread.
    pub(super) fn block_reduce(&mut self, def: Operation) -> R<Elem> {
        let src = self.ctx.operand(def, 0);
        let shape = tile_shape(self.ctx, self.ctx.value_type(src));
        let t = element_of(self.ctx, self.ctx.value_type(src));
        let i1 = self.ctx.integer_type(1);
        let i32t = self.ctx.integer_type(32);
        let mut acc: Option<(Value, Value)> = None;
        if shape.contains(&0) {
            return Err(err(self.ctx, def, "reduces an empty tile"));
        }
        // Each thread folds its boxes of the tile in the reduction's layout
        // (a tile held in registers, at its own elements).
        let layout = self.reduce_layout(def, src, &shape)?;
        let boxes = self.boxes(&layout, &shape);
        let box_len = layout.size_per_thread.iter().product::<i64>() as usize;
        for (b, bx) in boxes.iter().enumerate() {
            let cond = self.box_cond(bx, &shape);
            let types = vec![t; box_len];
            let xs = self.under(cond, &types, &mut |c| {
                let lanes = c.box_lanes(&bx.first, &layout);
                c.slot = Some(Slot::of_box(b * box_len, &lanes, &shape, &layout));
                c.memo.push(HashMap::new());
                let r = if lanes.len() > 1 {
                    c.lane_values(def, src, &lanes)
                } else {
                    c.val(def, src, &lanes[0]).map(|x| vec![x])
                };
                c.memo.pop();
                c.slot = None;
                r
            })?;
            let valid = self.box_valid(cond);
            for x in xs {
                acc = Some(match acc {
                    None => (x, valid),
                    Some(a) => self.merge(def, a, (x, valid))?,
                });
            }
        }
        let Some(mut acc) = acc else {
            return Err(err(self.ctx, def, "reduces an empty tile"));
        };
        // The warp: butterfly shuffles of the value and of its validity.
        let bfly = self.ctx.integer_attr(i32t, 0);
        for off in [16, 8, 4, 2, 1] {
            let o = self.const_i32(off);
            let y = self.value("nvptx.shfl_sync", &[acc.0, o], &[t], &[("kind", bfly)]);
            let vi = self.value("arith.extui", &[acc.1], &[i32t], &[]);
            let yi = self.value("nvptx.shfl_sync", &[vi, o], &[i32t], &[("kind", bfly)]);
            let yv = self.value("arith.trunci", &[yi], &[i1], &[]);
            acc = self.merge(def, acc, (y, yv))?;
        }
        let warps = self.threads / 32;
        if warps == 1 {
            return Ok(Elem::Val(acc.0));
        }
        // The block: lane 0 of each warp writes its warp's result, then every
        // thread folds them.
        let shared_t = strata_dialects::nvptx::types::ptr_type(
            self.ctx,
            t,
            strata_dialects::nvptx::types::AddressSpace::Shared,
        );
        let shared_i = strata_dialects::nvptx::types::ptr_type(
            self.ctx,
            i32t,
            strata_dialects::nvptx::types::AddressSpace::Shared,
        );
        let i64t = self.ctx.integer_type(64);
        let count = self.ctx.integer_attr(i64t, i128::from(warps));
        let vals = self.value(
            "nvptx.shared_alloc",
            &[],
            &[shared_t],
            &[("elements", count)],
        );
        let oks = self.value(
            "nvptx.shared_alloc",
            &[],
            &[shared_i],
            &[("elements", count)],
        );
        // Both buffers count against the block's shared memory.
        self.shared_bytes += 2 * warps * 4;
        let lane = self.value("nvptx.lane_id", &[], &[i32t], &[]);
        let c32 = self.const_i32(32);
        let warp = self.bin_i32("arith.divui", self.tid, c32);
        let zero = self.const_i32(0);
        let eq = self.ctx.integer_attr(i64t, 0);
        let first = self.value("arith.cmpi", &[lane, zero], &[i1], &[("predicate", eq)]);
        let (then_block, else_block, _) = self.if_op(first, &[]);
        let outer = self.block;
        self.block = then_block;
        let vi = self.value("arith.extui", &[acc.1], &[i32t], &[]);
        self.op("nvptx.store", &[acc.0, vals, warp], &[], &[]);
        self.op("nvptx.store", &[vi, oks, warp], &[], &[]);
        self.op("scf.yield", &[], &[], &[]);
        self.block = else_block;
        self.op("scf.yield", &[], &[], &[]);
        self.block = outer;
        self.op("nvptx.barrier", &[], &[], &[]);
        let mut total: Option<(Value, Value)> = None;
        for w in 0..warps {
            let wi = self.const_i32(w);
            let x = self.value("nvptx.load", &[vals, wi], &[t], &[]);
            let okv = self.value("nvptx.load", &[oks, wi], &[i32t], &[]);
            let ok = self.value("arith.trunci", &[okv], &[i1], &[]);
            total = Some(match total {
                None => (x, ok),
                Some(a) => self.merge(def, a, (x, ok))?,
            });
        }
        let total = total.unwrap_or(acc);
        Ok(Elem::Val(total.0))
    }

    /// Two partials `(value, valid)` of a reduction combined: the
    /// combiner's result when both hold elements, else the one that does.
    pub(super) fn merge(
        &mut self,
        def: Operation,
        (a, av): (Value, Value),
        (b, bv): (Value, Value),
    ) -> R<(Value, Value)> {
        let i1 = self.ctx.integer_type(1);
        let t = self.ctx.value_type(a);
        let c = self.combine(def, a, b)?;
        let both = self.value("arith.andi", &[av, bv], &[i1], &[]);
        let either = self.value("arith.select", &[av, a, b], &[t], &[]);
        let v = self.value("arith.select", &[both, c, either], &[t], &[]);
        let valid = self.value("arith.ori", &[av, bv], &[i1], &[]);
        Ok((v, valid))
    }
}
