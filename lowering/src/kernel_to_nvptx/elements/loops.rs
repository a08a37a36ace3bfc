//! Loops of the kernel: `scf.for` with its carried values, scalars as
//! they are and tiles as the thread's elements of them, in the layouts
//! their types give (or the ones chosen here).

use std::collections::HashMap;

use strata_dialects::kernel::types::{element_of, tile_shape};
use strata_dialects::nvptx::layout::BlockedLayout;
use strata_ir::{Block, Operation, OperationState, Type, Value};

use super::{err, Carry, Conv, Elem, Slot, R};

impl Conv<'_> {
    /// `scf.for` from `lb` to `ub`: its block and induction variable and
    /// iteration arguments (appended to the current block).
    pub(super) fn loop_op(
        &mut self,
        bounds: [Value; 3],
        inits: &[Value],
    ) -> (Operation, Block, Vec<Value>) {
        let types: Vec<Type> = inits.iter().map(|&v| self.ctx.value_type(v)).collect();
        let ident = self.ctx.ident("scf.for");
        let mut st = OperationState::new(ident, self.loc);
        st.operands = bounds.to_vec();
        st.operands.extend(inits);
        st.result_types = types.clone();
        let region = self.ctx.create_region();
        st.regions = vec![region];
        let op = self.ctx.create_operation(st);
        self.ctx.append_op(self.block, op);
        let block = self.ctx.create_block();
        self.ctx.append_block(region, block);
        let iv_ty = self.ctx.value_type(bounds[0]);
        let mut args = vec![self.ctx.add_block_argument(block, iv_ty, self.loc)];
        for t in types {
            args.push(self.ctx.add_block_argument(block, t, self.loc));
        }
        (op, block, args)
    }

    /// An `scf.for` of the kernel: scalars carried as they are, tiles as the
    /// thread's elements of them (an accumulator that a `dot` on
    /// `mma_sync` yields, in its `mma` layout; it is written to shared
    /// memory after the loop, for the ops that read it in other layouts).
    pub(super) fn for_loop(&mut self, op: Operation) -> R<()> {
        let operands: Vec<Value> = self.ctx.operands(op).collect();
        let mut bounds = Vec::new();
        for &b in &operands[..3] {
            bounds.push(self.scalar_val(op, b)?);
        }
        // The initial values: each scalar, and each tile's elements in the
        // layout the loop carries it in (its type's, else chosen here and
        // given to its type, its initial value and the value yielded).
        let Some(&region) = self.ctx.op_regions(op).first() else {
            return Err(err(self.ctx, op, "has no body"));
        };
        let Some(old_body) = self.ctx.region_entry_block(region) else {
            return Err(err(self.ctx, op, "has no body"));
        };
        let Some(term) = self.ctx.block_ops(old_body).last() else {
            return Err(err(self.ctx, op, "has no terminator"));
        };
        // First every carried tile's layout, on its block argument and
        // result (and an MMA accumulator's dot), so that what the loop
        // body does with several of them meets them typed; then the
        // initial values and the yielded ones take them, and the layouts
        // spread into the body.
        let mut layout: Vec<Carry> = Vec::new();
        for k in 0..operands.len() - 3 {
            let init = self.ctx.operand(op, 3 + k);
            if !self.is_tile(init) {
                layout.push(Carry::Scalar);
                continue;
            }
            let shape = tile_shape(self.ctx, self.ctx.value_type(init));
            let carry = self.carry_of(op, k, &shape)?;
            let enc = self.carry_attr(&carry);
            let arg = self.ctx.block_args(old_body).nth(k + 1);
            let res = self.ctx.result(op, k);
            for v in arg.into_iter().chain([res]) {
                self.retype(v, enc);
            }
            if matches!(carry, Carry::Mma(..)) {
                // The dot yielded for it accumulates in its layout.
                let y = self.ctx.operand(term, k);
                self.retype(y, enc);
            }
            layout.push(carry);
        }
        let mut inits = Vec::new();
        for (k, carry) in layout.iter().enumerate() {
            let enc = self.carry_attr(carry);
            if enc.is_some() {
                self.assign(op, 3 + k, enc)?;
            }
            let init = self.ctx.operand(op, 3 + k);
            match carry {
                Carry::Scalar => inits.push(self.scalar_val(op, init)?),
                Carry::Mma(_, m) => inits.extend(self.mma_elements(op, init, *m)?),
                Carry::Tile(s, l) => {
                    self.assign(term, k, enc)?;
                    inits.extend(self.tile_elements(op, init, s, l)?);
                }
            }
        }
        for (k, carry) in layout.iter().enumerate() {
            if matches!(carry, Carry::Scalar) {
                continue;
            }
            if let Some(a) = self.ctx.block_args(old_body).nth(k + 1) {
                self.spread(a)?;
            }
        }
        let (lp, body, args) = self.loop_op([bounds[0], bounds[1], bounds[2]], &inits);
        let old_args: Vec<Value> = self.ctx.block_args(old_body).collect();
        self.scalars.insert(old_args[0], Elem::Val(args[0]));
        let mut at = 1;
        let mut results_at = Vec::new();
        for (k, carry) in layout.iter().enumerate() {
            let old = old_args[k + 1];
            results_at.push(at - 1);
            let n = self.carried_count(op, carry)?;
            match carry {
                Carry::Scalar => {
                    self.scalars.insert(old, Elem::Val(args[at]));
                }
                Carry::Tile(_, l) => {
                    self.owned.insert(old, args[at..at + n].to_vec());
                    self.blocked.insert(old, l.clone());
                }
                Carry::Mma(_, m) => {
                    self.owned.insert(old, args[at..at + n].to_vec());
                    self.mma.insert(old, *m);
                }
            }
            at += n;
        }
        let outer = self.block;
        self.block = body;
        self.memo.push(HashMap::new());
        self.nested += 1;
        // Tiles staged in the body are read from shared memory only there
        // (one defined before the loop is not staged if it runs no
        // iteration).
        let staged = self.shared.clone();
        let r = self.ops(old_body).and_then(|()| {
            let Some(term) = self.ctx.block_ops(old_body).last() else {
                return Err(err(self.ctx, op, "has no terminator"));
            };
            let yielded: Vec<Value> = self.ctx.operands(term).collect();
            let mut out = Vec::new();
            for (&y, carry) in yielded.iter().zip(&layout) {
                match carry {
                    Carry::Scalar => out.push(self.scalar_val(term, y)?),
                    Carry::Tile(s, l) => out.extend(self.tile_elements(term, y, s, l)?),
                    Carry::Mma(_, m) => out.extend(self.mma_elements(term, y, *m)?),
                }
            }
            Ok(out)
        });
        self.memo.pop();
        self.nested -= 1;
        self.shared = staged;
        let out = r?;
        self.op("scf.yield", &out, &[], &[]);
        self.block = outer;
        let results: Vec<Value> = self.ctx.results(op).collect();
        let new_results: Vec<Value> = self.ctx.results(lp).collect();
        for ((k, carry), &r) in layout.iter().enumerate().zip(&results) {
            let at = results_at[k];
            let n = self.carried_count(op, carry)?;
            match carry {
                Carry::Scalar => {
                    self.scalars.insert(r, Elem::Val(new_results[at]));
                }
                Carry::Tile(_, l) => {
                    self.owned.insert(r, new_results[at..at + n].to_vec());
                    self.blocked.insert(r, l.clone());
                }
                Carry::Mma(shape, m) => {
                    // Held until a conversion writes it to shared memory
                    // for the ops after the loop.
                    self.reserved_bytes -= Self::accumulator_bytes(shape);
                    self.owned.insert(r, new_results[at..at + n].to_vec());
                    self.mma.insert(r, *m);
                    self.release_mma(r, op);
                }
            }
        }
        for (carry, &r) in layout.iter().zip(&results) {
            if matches!(carry, Carry::Tile(..)) {
                self.spread(r)?;
            }
        }
        Ok(())
    }

    /// The layout (encoding) a loop carries `carry` in (none for a scalar).
    fn carry_attr(&mut self, carry: &Carry) -> Option<strata_ir::Attribute> {
        match carry {
            Carry::Tile(_, l) => Some(l.to_attr(self.ctx)),
            Carry::Mma(_, m) => Some(self.mma_attr(*m)),
            Carry::Scalar => None,
        }
    }

    /// How many values carry `carry` through a loop.
    fn carried_count(&self, op: Operation, carry: &Carry) -> R<usize> {
        Ok(match carry {
            Carry::Scalar => 1,
            Carry::Tile(s, l) => {
                let _ = op;
                l.per_thread(s) as usize
            }
            Carry::Mma(_, m) => m.slots() as usize,
        })
    }

    /// This thread's elements of tile `v` of `shape` in `layout` (zeros
    /// past its end).
    pub(super) fn tile_elements(
        &mut self,
        op: Operation,
        v: Value,
        shape: &[i64],
        layout: &BlockedLayout,
    ) -> R<Vec<Value>> {
        let t = element_of(self.ctx, self.ctx.value_type(v));
        let boxes = self.boxes(layout, shape);
        let box_len = layout.size_per_thread.iter().product::<i64>() as usize;
        let mut out = Vec::new();
        for (b, bx) in boxes.iter().enumerate() {
            let cond = self.box_cond(bx, shape);
            let types = vec![t; box_len];
            let vals = self.under(cond, &types, &mut |c| {
                let lanes = c.box_lanes(&bx.first, layout);
                c.slot = Some(Slot::of_box(b * box_len, &lanes, shape, layout));
                c.memo.push(HashMap::new());
                let r: R<Vec<Value>> = lanes.iter().map(|idx| c.val(op, v, idx)).collect();
                c.memo.pop();
                c.slot = None;
                r
            })?;
            out.extend(vals);
        }
        Ok(out)
    }
}
