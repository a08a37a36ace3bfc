//! `scf.for` with loop-carried scalars and tiles, and tile copies.

use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::PointerValue;
use strata_dialects::kernel::types::{element_of, tile_shape};
use strata_ir::{Operation, TypeKind, Value};

use super::{Emitter, Repr, Tile, R};
use crate::kernel_to_host::HostError;

impl<'a, 'ctx> Emitter<'a, 'ctx> {
    pub(super) fn emit_for(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let operands: Vec<Value> = ir.operands(op).collect();
        let (lb, ub, step) = (
            self.scalar(op, operands[0])?.into_int_value(),
            self.scalar(op, operands[1])?.into_int_value(),
            self.scalar(op, operands[2])?.into_int_value(),
        );
        let inits = &operands[3..];
        let Some(body) = ir.region_entry_block(ir.op_regions(op)[0]) else {
            return Err(HostError::at(ir, op, "scf.for needs a body"));
        };
        let args: Vec<Value> = ir.block_args(body).collect();
        // Loop-carried values live in slots: a tile buffer or a scalar alloca.
        enum Slot<'ctx> {
            Tile(Tile<'ctx>),
            Scalar(PointerValue<'ctx>, BasicTypeEnum<'ctx>),
        }
        let mut slots = Vec::new();
        for &init in inits {
            let ty = ir.value_type(init);
            if matches!(ir.type_kind(ty), TypeKind::RankedTensor { .. }) {
                let shape = tile_shape(ir, ty);
                let slot = self.alloc_tile(op, &shape, element_of(ir, ty))?;
                self.copy_into(op, init, &slot)?;
                slots.push(Slot::Tile(slot));
            } else {
                let lt = self.host_type(op, ty)?;
                let p = self.entry_alloca(lt, "slot")?;
                let v = self.scalar(op, init)?;
                self.builder.build_store(p, v)?;
                slots.push(Slot::Scalar(p, lt));
            }
        }
        let iv_type = lb.get_type();
        let pre = self.current_block()?;
        let header = self.llvm.append_basic_block(self.function, "for");
        let inner = self.llvm.append_basic_block(self.function, "for.body");
        let exit = self.llvm.append_basic_block(self.function, "for.exit");
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(header);
        let iv = self.builder.build_phi(iv_type, "iv")?;
        iv.add_incoming(&[(&lb, pre)]);
        let ivv = iv.as_basic_value().into_int_value();
        let unsigned = strata_ir::ods::inherent_attr(ir, op, "unsignedCmp").is_some();
        let pred = if unsigned {
            inkwell::IntPredicate::ULT
        } else {
            inkwell::IntPredicate::SLT
        };
        let more = self.builder.build_int_compare(pred, ivv, ub, "")?;
        self.builder.build_conditional_branch(more, inner, exit)?;
        self.builder.position_at_end(inner);
        self.values.insert(args[0], Repr::Scalar(ivv.into()));
        for (arg, slot) in args[1..].iter().zip(&slots) {
            let r = match slot {
                Slot::Tile(t) => Repr::Tile(t.clone()),
                Slot::Scalar(p, lt) => Repr::Scalar(self.builder.build_load(*lt, *p, "")?),
            };
            self.values.insert(*arg, r);
        }
        let ops: Vec<Operation> = ir.block_ops(body).collect();
        for &inner_op in &ops {
            if ir.op_name_str(inner_op) == "scf.yield" {
                // Compute every yielded value before writing any slot.
                let yielded: Vec<Value> = ir.operands(inner_op).collect();
                let mut staged = Vec::new();
                for (&y, slot) in yielded.iter().zip(&slots) {
                    staged.push(match slot {
                        Slot::Tile(_) => Repr::Tile(self.materialize(inner_op, y)?),
                        Slot::Scalar(..) => Repr::Scalar(self.scalar(inner_op, y)?),
                    });
                }
                for (s, slot) in staged.into_iter().zip(&slots) {
                    match (s, slot) {
                        (Repr::Tile(src), Slot::Tile(dst)) => self.copy_tile(&src, dst)?,
                        (Repr::Scalar(v), Slot::Scalar(p, _)) => {
                            self.builder.build_store(*p, v)?;
                        }
                        _ => {}
                    }
                }
            } else {
                self.emit_op(inner_op)?;
            }
        }
        let latch = self.current_block()?;
        let next = self.builder.build_int_add(ivv, step, "")?;
        iv.add_incoming(&[(&next, latch)]);
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(exit);
        for (res, slot) in ir.results(op).zip(&slots) {
            let r = match slot {
                Slot::Tile(t) => Repr::Tile(t.clone()),
                Slot::Scalar(p, lt) => Repr::Scalar(self.builder.build_load(*lt, *p, "")?),
            };
            self.values.insert(res, r);
        }
        Ok(())
    }

    /// Write every element of `v` into `dst`.
    pub(super) fn copy_into(&mut self, user: Operation, v: Value, dst: &Tile<'ctx>) -> R<()> {
        let shape = dst.shape.clone();
        let d = dst.clone();
        self.nd_loop(&shape, &mut |e, idx| {
            let x = e.element(user, v, idx)?;
            let p = e.element_ptr(&d, idx)?;
            e.builder.build_store(p, x)?;
            Ok(())
        })
    }

    pub(super) fn copy_tile(&mut self, src: &Tile<'ctx>, dst: &Tile<'ctx>) -> R<()> {
        if src.ptr == dst.ptr {
            return Ok(());
        }
        let bytes = dst.element.size_of().map(|s| {
            self.builder.build_int_mul(
                s,
                self.i64(strata_ir::types::num_elements(&dst.shape) as i64),
                "",
            )
        });
        let Some(Ok(bytes)) = bytes else {
            return Ok(());
        };
        self.builder.build_memmove(dst.ptr, 1, src.ptr, 1, bytes)?;
        Ok(())
    }
}
