//! Masked loads and stores of tiles and scalars.

use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use strata_dialects::kernel::types::{element_of, tile_shape};
use strata_ir::{Operation, Type, TypeKind, Value};

use super::{Emitter, Repr, R};
use crate::kernel_to_host::scalar::{memory_type, narrow_of, Narrow};
use crate::kernel_to_host::HostError;

impl<'a, 'ctx> Emitter<'a, 'ctx> {
    pub(super) fn emit_load(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let result = ir.result(op, 0);
        let ty = ir.value_type(result);
        let element = element_of(ir, ty);
        let n = ir.num_operands(op);
        let (ptr, mask, other) = (
            ir.operand(op, 0),
            (n > 1).then(|| ir.operand(op, 1)),
            (n > 2).then(|| ir.operand(op, 2)),
        );
        if !matches!(ir.type_kind(ty), TypeKind::RankedTensor { .. }) {
            let p = self.scalar(op, ptr)?.into_pointer_value();
            let v = self.masked_load(op, element, p, mask.map(|m| (m, other)), &[])?;
            self.values.insert(result, Repr::Scalar(v));
            return Ok(());
        }
        // A tile load is lazy: each use reads the elements it needs where it
        // needs them. Reading memory again costs an L1 hit; copying the tile
        // to the stack first would make every later read wait on those
        // stores (and fail store-to-load forwarding at other offsets). A
        // kernel never stores to a buffer it loads from (the arena planner
        // gives a launch's inputs and outputs disjoint memory).
        self.values.insert(result, Repr::Lazy(op));
        Ok(())
    }

    /// Element `idx` of the tile `load` reads.
    pub(super) fn load_element(
        &mut self,
        op: Operation,
        idx: &[IntValue<'ctx>],
    ) -> R<BasicValueEnum<'ctx>> {
        let ir = self.ir;
        let element = element_of(ir, ir.value_type(ir.result(op, 0)));
        let n = ir.num_operands(op);
        let (ptr, mask, other) = (
            ir.operand(op, 0),
            (n > 1).then(|| ir.operand(op, 1)),
            (n > 2).then(|| ir.operand(op, 2)),
        );
        let p = self.element(op, ptr, idx)?.into_pointer_value();
        self.masked_load(op, element, p, mask.map(|m| (m, other)), idx)
    }

    /// `*p`, an `element` (an IR type) in memory, as its register value
    /// (a narrow float converted to f32).
    fn load_memory(
        &mut self,
        op: Operation,
        element: Type,
        p: PointerValue<'ctx>,
    ) -> R<BasicValueEnum<'ctx>> {
        let mt = memory_type(self.ir, self.llvm, element).ok_or_else(|| {
            HostError::at(
                self.ir,
                op,
                format!(
                    "type '{}' has no host representation",
                    strata_ir::printer::type_to_string(self.ir, element)
                ),
            )
        })?;
        let v = self.builder.build_load(mt, p, "")?;
        match narrow_of(self.ir, element) {
            Some(n) => self.scalar_emitter().widen_loaded(v, n),
            None => Ok(v),
        }
    }

    /// `mask ? *p : other`, reading `*p` only where the mask is on: a
    /// conditional load, which LLVM's vectorizer turns into masked vector
    /// loads (`llvm.masked.load`) where the addresses are consecutive.
    /// `element` is the IR type of `*p`.
    pub(super) fn masked_load(
        &mut self,
        op: Operation,
        element: Type,
        p: PointerValue<'ctx>,
        mask: Option<(Value, Option<Value>)>,
        idx: &[IntValue<'ctx>],
    ) -> R<BasicValueEnum<'ctx>> {
        let lt = self.host_type(op, element)?;
        let Some((mask, other)) = mask else {
            return self.load_memory(op, element, p);
        };
        let m = self.element(op, mask, idx)?.into_int_value();
        let fallback = match other {
            Some(o) => self.element(op, o, idx)?,
            None => lt.const_zero(),
        };
        let before = self.current_block()?;
        let yes = self.llvm.append_basic_block(self.function, "load");
        let done = self.llvm.append_basic_block(self.function, "loaded");
        self.builder.build_conditional_branch(m, yes, done)?;
        self.builder.position_at_end(yes);
        let v = self.load_memory(op, element, p)?;
        let loaded = self.current_block()?;
        self.builder.build_unconditional_branch(done)?;
        self.builder.position_at_end(done);
        let phi = self.builder.build_phi(lt, "")?;
        phi.add_incoming(&[(&v, loaded), (&fallback, before)]);
        Ok(phi.as_basic_value())
    }

    pub(super) fn emit_store(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let (ptr, value) = (ir.operand(op, 0), ir.operand(op, 1));
        let mask = (ir.num_operands(op) > 2).then(|| ir.operand(op, 2));
        let ty = ir.value_type(ptr);
        // The stored element's type: that of the value.
        let narrow = narrow_of(ir, element_of(ir, ir.value_type(value)));
        if !matches!(ir.type_kind(ty), TypeKind::RankedTensor { .. }) {
            let p = self.scalar(op, ptr)?.into_pointer_value();
            let v = self.scalar(op, value)?;
            let v = self.to_memory(v, narrow)?;
            return self.masked_store(op, p, v, mask, &[]);
        }
        let shape = tile_shape(ir, ty);
        self.nd_loop(&shape, &mut |e, idx| {
            let p = e.element(op, ptr, idx)?.into_pointer_value();
            let v = e.element(op, value, idx)?;
            let v = e.to_memory(v, narrow)?;
            e.masked_store(op, p, v, mask, idx)
        })
    }

    /// A register value as it is stored (a narrow float rounded to its
    /// memory form).
    fn to_memory(
        &self,
        v: BasicValueEnum<'ctx>,
        narrow: Option<Narrow>,
    ) -> R<BasicValueEnum<'ctx>> {
        match narrow {
            Some(n) => self.scalar_emitter().narrow_for_store(v, n),
            None => Ok(v),
        }
    }

    pub(super) fn masked_store(
        &mut self,
        op: Operation,
        p: PointerValue<'ctx>,
        v: BasicValueEnum<'ctx>,
        mask: Option<Value>,
        idx: &[IntValue<'ctx>],
    ) -> R<()> {
        let Some(mask) = mask else {
            self.builder.build_store(p, v)?;
            return Ok(());
        };
        let m = self.element(op, mask, idx)?.into_int_value();
        let yes = self.llvm.append_basic_block(self.function, "store");
        let done = self.llvm.append_basic_block(self.function, "stored");
        self.builder.build_conditional_branch(m, yes, done)?;
        self.builder.position_at_end(yes);
        self.builder.build_store(p, v)?;
        self.builder.build_unconditional_branch(done)?;
        self.builder.position_at_end(done);
        Ok(())
    }
}
