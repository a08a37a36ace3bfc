//! `kernel.reduce` (combiners inlined) and `kernel.dot` (a generic loop
//! nest, or a register-blocked micro-kernel).

use super::{set_align, MICRO_ROWS};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use strata_dialects::kernel::types::{element_of, tile_shape};
use strata_ir::{Operation, Value};

use super::{Emitter, Repr, Tile, R};
use crate::kernel_to_host::scalar::int_attr;
use crate::kernel_to_host::HostError;

impl<'a, 'ctx> Emitter<'a, 'ctx> {
    /// Emit the combiner of `reduce` on `acc` and `x`.
    pub(super) fn combine(
        &mut self,
        reduce: Operation,
        acc: BasicValueEnum<'ctx>,
        x: BasicValueEnum<'ctx>,
    ) -> R<BasicValueEnum<'ctx>> {
        let ir = self.ir;
        let Some(block) = ir.region_entry_block(ir.op_regions(reduce)[0]) else {
            return Err(HostError::at(ir, reduce, "a reduce needs a combiner"));
        };
        let args: Vec<Value> = ir.block_args(block).collect();
        self.values.insert(args[0], Repr::Scalar(acc));
        self.values.insert(args[1], Repr::Scalar(x));
        let saved = self.reassoc;
        self.reassoc = true;
        let mut out = None;
        for op in ir.block_ops(block).collect::<Vec<_>>() {
            if ir.op_name_str(op) == "kernel.yield" {
                out = Some(self.scalar(op, ir.operand(op, 0))?);
            } else {
                self.emit_op(op)?;
            }
        }
        self.reassoc = saved;
        out.ok_or_else(|| HostError::at(ir, reduce, "the combiner yields nothing"))
    }

    /// The identity of `reduce`'s combiner when it is one op on the two
    /// arguments that has one (`addf`: `-0.0`, `maximumf`: `-inf`, ...).
    fn combiner_identity(
        &self,
        reduce: Operation,
        lt: BasicTypeEnum<'ctx>,
    ) -> Option<BasicValueEnum<'ctx>> {
        let ir = self.ir;
        let block = ir.region_entry_block(*ir.op_regions(reduce).first()?)?;
        let args: Vec<Value> = ir.block_args(block).collect();
        let ops: Vec<Operation> = ir.block_ops(block).collect();
        let [combine, yield_op] = ops[..] else {
            return None;
        };
        let operands: Vec<Value> = ir.operands(combine).collect();
        let on_args = operands.len() == 2
            && args.len() == 2
            && operands.contains(&args[0])
            && operands.contains(&args[1]);
        if !on_args || ir.operand(yield_op, 0) != ir.result(combine, 0) {
            return None;
        }
        match lt {
            BasicTypeEnum::FloatType(f) => {
                let v = match ir.op_name_str(combine) {
                    "arith.addf" => -0.0,
                    "arith.mulf" => 1.0,
                    "arith.maximumf" | "arith.maxnumf" => f64::NEG_INFINITY,
                    "arith.minimumf" | "arith.minnumf" => f64::INFINITY,
                    _ => return None,
                };
                Some(f.const_float(v).into())
            }
            BasicTypeEnum::IntType(t) => {
                let w = t.get_bit_width();
                let ones = t.const_all_ones();
                let v = match ir.op_name_str(combine) {
                    "arith.addi" | "arith.ori" | "arith.xori" | "arith.maxui" => t.const_zero(),
                    "arith.muli" => t.const_int(1, false),
                    "arith.andi" | "arith.minui" => ones,
                    "arith.maxsi" if w <= 64 => t.const_int(1u64 << (w - 1), false),
                    "arith.minsi" if w <= 64 => t.const_int((1u64 << (w - 1)) - 1, false),
                    _ => return None,
                };
                Some(v.into())
            }
            _ => None,
        }
    }

    pub(super) fn emit_reduce(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let src = ir.operand(op, 0);
        let shape = tile_shape(ir, ir.value_type(src));
        let axis = int_attr(ir, op, "axis").unwrap_or(0) as usize;
        let result = ir.result(op, 0);
        let mut out_shape = shape.clone();
        out_shape.remove(axis);
        let rt = ir.value_type(result);
        let lt = self.host_type(op, element_of(ir, rt))?;
        let n = shape[axis];
        let identity = self.combiner_identity(op, lt);
        // One accumulator per output element: from the combiner's identity
        // when it has a known one (the loop then reads the tile from its
        // first element, aligned), else from the first element.
        let reduce_at = |e: &mut Self, outer: &[IntValue<'ctx>]| -> R<BasicValueEnum<'ctx>> {
            let mut idx: Vec<IntValue<'ctx>> = outer.to_vec();
            idx.insert(axis, e.i64(0));
            let (init, start) = match identity {
                Some(v) => (v, 0),
                None => (e.element(op, src, &idx)?, 1),
            };
            let slot = e.entry_alloca(lt, "acc")?;
            e.builder.build_store(slot, init)?;
            e.counted_loop(e.i64(start), e.i64(n), &mut |e, k| {
                let mut idx: Vec<IntValue<'ctx>> = outer.to_vec();
                idx.insert(axis, k);
                let x = e.element(op, src, &idx)?;
                let acc = e.builder.build_load(lt, slot, "")?;
                let c = e.combine(op, acc, x)?;
                e.builder.build_store(slot, c)?;
                Ok(())
            })?;
            Ok(e.builder.build_load(lt, slot, "")?)
        };
        if out_shape.is_empty() {
            let v = reduce_at(self, &[])?;
            self.values.insert(result, Repr::Scalar(v));
            return Ok(());
        }
        let tile = self.alloc_tile(op, &out_shape, element_of(ir, rt))?;
        let t = tile.clone();
        self.nd_loop(&out_shape, &mut |e, idx| {
            let v = reduce_at(e, idx)?;
            let p = e.element_ptr(&t, idx)?;
            e.builder.build_store(p, v)?;
            Ok(())
        })?;
        self.values.insert(result, Repr::Tile(tile));
        Ok(())
    }

    pub(super) fn emit_dot(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let (a, b, c) = (ir.operand(op, 0), ir.operand(op, 1), ir.operand(op, 2));
        let d = ir.result(op, 0);
        let ta = self.materialize(op, a)?;
        let tb = self.materialize(op, b)?;
        let dt = ir.value_type(d);
        let (m, k, n) = (ta.shape[0], ta.shape[1], tb.shape[1]);
        let acc_t = self.host_type(op, element_of(ir, dt))?;
        // Accumulating into a loop-carried accumulator that the loop body
        // yields back in its place updates the loop's slot in place.
        let in_place = match (self.repr(op, c)?, self.accumulates_in_place(op)) {
            (Repr::Tile(t), true) => Some(t),
            _ => None,
        };
        let out = match in_place {
            Some(t) => t,
            None => {
                let out = self.alloc_tile(op, &[m, n], element_of(ir, dt))?;
                let o = out.clone();
                self.nd_loop(&[m, n], &mut |e, idx| {
                    let v = e.element(op, c, idx)?;
                    let p = e.element_ptr(&o, idx)?;
                    e.builder.build_store(p, v)?;
                    Ok(())
                })?;
                out
            }
        };
        let float_acc = acc_t.is_float_type();
        let lanes: u32 = match acc_t {
            BasicTypeEnum::FloatType(t) if t == self.llvm.f32_type() => 8,
            BasicTypeEnum::FloatType(t) if t == self.llvm.f64_type() => 4,
            _ => 0,
        };
        if lanes > 0 && m % MICRO_ROWS == 0 && n % (2 * i64::from(lanes)) == 0 {
            self.dot_micro_kernel(op, &ta, &tb, &out, (m, k, n), lanes)?;
        } else {
            let o = out.clone();
            self.nd_loop(&[m, k], &mut |e, mk| {
                let pa = e.element_ptr(&ta, mk)?;
                let av = e.builder.build_load(ta.element, pa, "")?;
                let av = e.widen(av, acc_t)?;
                e.counted_loop(e.i64(0), e.i64(n), &mut |e, j| {
                    let pb = e.element_ptr(&tb, &[mk[1], j])?;
                    let bv = e.builder.build_load(tb.element, pb, "")?;
                    let bv = e.widen(bv, acc_t)?;
                    let po = e.element_ptr(&o, &[mk[0], j])?;
                    let acc = e.builder.build_load(acc_t, po, "")?;
                    let r: BasicValueEnum<'ctx> = if float_acc {
                        let f = inkwell::intrinsics::Intrinsic::find("llvm.fmuladd")
                            .and_then(|i| i.get_declaration(e.module, &[acc_t]))
                            .ok_or_else(|| HostError::at(e.ir, op, "no llvm.fmuladd"))?;
                        e.builder
                            .build_call(f, &[av.into(), bv.into(), acc.into()], "")
                            .map(|c| {
                                crate::kernel_to_host::scalar::returned(c.try_as_basic_value())
                            })?
                            .ok_or_else(|| HostError::at(e.ir, op, "fmuladd returned nothing"))?
                    } else {
                        let p = e.builder.build_int_mul(
                            av.into_int_value(),
                            bv.into_int_value(),
                            "",
                        )?;
                        e.builder.build_int_add(acc.into_int_value(), p, "")?.into()
                    };
                    e.builder.build_store(po, r)?;
                    Ok(())
                })
            })?;
        }
        self.values.insert(d, Repr::Tile(out));
        Ok(())
    }

    /// `out += a * b` as a register-blocked micro-kernel: blocks of
    /// `MICRO_ROWS` rows by two vectors of `lanes` columns stay in vector
    /// registers across the whole K loop (a broadcast of `a`, vector loads of
    /// `b`, fused multiply-adds), as BLAS micro-kernels do; LLVM then only
    /// schedules and allocates registers.
    pub(super) fn dot_micro_kernel(
        &mut self,
        op: Operation,
        ta: &Tile<'ctx>,
        tb: &Tile<'ctx>,
        out: &Tile<'ctx>,
        (m, k, n): (i64, i64, i64),
        lanes: u32,
    ) -> R<()> {
        let acc_t = out.element.into_float_type();
        let vt = acc_t.vec_type(lanes);
        let align = acc_t.size_of().get_zero_extended_constant().unwrap_or(4) as u32;
        let fma = inkwell::intrinsics::Intrinsic::find("llvm.fmuladd")
            .and_then(|i| i.get_declaration(self.module, &[vt.into()]))
            .ok_or_else(|| HostError::at(self.ir, op, "no llvm.fmuladd"))?;
        // The accumulators: one stack slot per vector (promoted to registers).
        let mut slots = Vec::new();
        for _ in 0..MICRO_ROWS * 2 {
            slots.push(self.entry_alloca(vt.into(), "acc")?);
        }
        let step = 2 * i64::from(lanes);
        let (ta, tb, out) = (ta.clone(), tb.clone(), out.clone());
        self.counted_loop(self.i64(0), self.i64(m / MICRO_ROWS), &mut |e, mi| {
            let row0 = e.builder.build_int_mul(mi, e.i64(MICRO_ROWS), "")?;
            e.counted_loop(e.i64(0), e.i64(n / step), &mut |e, nj| {
                let col0 = e.builder.build_int_mul(nj, e.i64(step), "")?;
                let at = |e: &Self, r: i64, v: i64| -> R<PointerValue<'ctx>> {
                    let row = e.builder.build_int_add(row0, e.i64(r), "")?;
                    let col = e
                        .builder
                        .build_int_add(col0, e.i64(v * i64::from(lanes)), "")?;
                    e.element_ptr(&out, &[row, col])
                };
                for r in 0..MICRO_ROWS {
                    for v in 0..2 {
                        let p = at(e, r, v)?;
                        let x = e.builder.build_load(vt, p, "")?;
                        set_align(x, align);
                        e.builder.build_store(slots[(r * 2 + v) as usize], x)?;
                    }
                }
                e.counted_loop(e.i64(0), e.i64(k), &mut |e, kk| {
                    let mut b = Vec::new();
                    for v in 0..2 {
                        let col = e
                            .builder
                            .build_int_add(col0, e.i64(v * i64::from(lanes)), "")?;
                        let p = e.element_ptr(&tb, &[kk, col])?;
                        let x = e.builder.build_load(vt, p, "")?;
                        set_align(x, align);
                        b.push(x);
                    }
                    for r in 0..MICRO_ROWS {
                        let row = e.builder.build_int_add(row0, e.i64(r), "")?;
                        let pa = e.element_ptr(&ta, &[row, kk])?;
                        let a = e.builder.build_load(ta.element, pa, "")?;
                        let a = e.widen(a, acc_t.into())?;
                        let undef = vt.get_undef();
                        let one = e.builder.build_insert_element(undef, a, e.i64(0), "")?;
                        let zeros = e.llvm.i32_type().vec_type(lanes).const_zero();
                        let splat = e.builder.build_shuffle_vector(one, undef, zeros, "")?;
                        for (v, &bv) in b.iter().enumerate() {
                            let slot = slots[(r * 2) as usize + v];
                            let acc = e.builder.build_load(vt, slot, "")?;
                            let call = e.builder.build_call(
                                fma,
                                &[splat.into(), bv.into(), acc.into()],
                                "",
                            )?;
                            let sum =
                                crate::kernel_to_host::scalar::returned(call.try_as_basic_value())
                                    .ok_or_else(|| {
                                        HostError::at(e.ir, op, "fmuladd returned nothing")
                                    })?;
                            e.builder.build_store(slot, sum)?;
                        }
                    }
                    Ok(())
                })?;
                for r in 0..MICRO_ROWS {
                    for v in 0..2 {
                        let x = e.builder.build_load(vt, slots[(r * 2 + v) as usize], "")?;
                        let p = at(e, r, v)?;
                        let st = e.builder.build_store(p, x)?;
                        let _ = st.set_alignment(align);
                    }
                }
                Ok(())
            })
        })
    }

    /// Whether `dot`'s result is only yielded by the enclosing `scf.for`
    /// at the position of the iteration argument that is its accumulator
    /// (so the accumulator's slot can be updated in place).
    pub(super) fn accumulates_in_place(&self, dot: Operation) -> bool {
        let ir = self.ir;
        let (c, d) = (ir.operand(dot, 2), ir.result(dot, 0));
        let mut uses = ir.uses(d);
        let (Some(u), None) = (uses.next(), uses.next()) else {
            return false;
        };
        if ir.op_name_str(u.op) != "scf.yield" {
            return false;
        }
        let Some(for_op) = ir
            .op_parent_op(u.op)
            .filter(|&f| ir.op_name_str(f) == "scf.for")
        else {
            return false;
        };
        let Some(body) = ir.region_entry_block(ir.op_regions(for_op)[0]) else {
            return false;
        };
        // Block argument 0 is the induction variable.
        let arg = strata_ir::Value::Argument(body, u.index + 1);
        // The accumulator is not used after the dot (it is overwritten).
        c == arg && ir.uses(c).count() == 1
    }

    /// `v` converted to the accumulator type (f16/bf16 → f32, i8 → i32).
    pub(super) fn widen(
        &self,
        v: BasicValueEnum<'ctx>,
        to: BasicTypeEnum<'ctx>,
    ) -> R<BasicValueEnum<'ctx>> {
        if v.get_type() == to {
            return Ok(v);
        }
        Ok(match (v, to) {
            (BasicValueEnum::FloatValue(f), BasicTypeEnum::FloatType(t)) => {
                self.builder.build_float_ext(f, t, "")?.into()
            }
            (BasicValueEnum::IntValue(i), BasicTypeEnum::IntType(t)) => {
                self.builder.build_int_s_extend(i, t, "")?.into()
            }
            _ => v,
        })
    }
}
