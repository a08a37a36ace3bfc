//! The ops of a GPU kernel body: constants, `scf` control flow, the
//! `nvptx` ops as NVVM intrinsics, and `arith` / `math` through the host's
//! scalar emitter (with libdevice for the math functions).

use inkwell::intrinsics::Intrinsic;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicMetadataValueEnum, BasicValue, BasicValueEnum, IntValue};
use inkwell::IntPredicate;
use strata_ir::{AttrKind, Operation, Value};

use super::{GpuError, Kernel, R};
use crate::kernel_to_host::scalar::{narrow_of, narrow_value, ScalarEmitter};
use crate::kernel_to_host::HostError;

impl From<HostError> for GpuError {
    fn from(e: HostError) -> GpuError {
        match e {
            HostError::Unsupported(d) => GpuError::Unsupported(d),
            HostError::Llvm(e) => GpuError::Llvm(e),
            HostError::Builder(e) => GpuError::Builder(e),
        }
    }
}

/// The special register a coordinate op reads, by axis.
fn sreg(name: &str) -> Option<&'static str> {
    Some(match name {
        "nvptx.thread_id" => "tid",
        "nvptx.block_id" => "ctaid",
        "nvptx.block_dim" => "ntid",
        "nvptx.grid_dim" => "nctaid",
        "nvptx.cluster_id" => "clusterid",
        _ => return None,
    })
}

/// The size in bytes of a scalar or vector type (its natural alignment
/// for an access of at most 16 bytes).
fn byte_size(t: BasicTypeEnum<'_>) -> u32 {
    let bits = |s: BasicTypeEnum<'_>| match s {
        BasicTypeEnum::IntType(i) => i.get_bit_width(),
        BasicTypeEnum::FloatType(f) => {
            let ctx = f.get_context();
            if f == ctx.f16_type() || f == ctx.bf16_type() {
                16
            } else if f == ctx.f64_type() {
                64
            } else {
                32
            }
        }
        _ => 64,
    };
    match t {
        BasicTypeEnum::VectorType(v) => bits(v.get_element_type()) * v.get_size() / 8,
        other => bits(other) / 8,
    }
}

impl<'ctx> Kernel<'_, 'ctx> {
    fn call(
        &self,
        op: Operation,
        name: &str,
        overloads: &[BasicTypeEnum<'ctx>],
        args: &[BasicValueEnum<'ctx>],
    ) -> R<Option<BasicValueEnum<'ctx>>> {
        let Some(intrinsic) = Intrinsic::find(name) else {
            return Err(GpuError::at(
                self.ir,
                op,
                format!("LLVM has no intrinsic {name}"),
            ));
        };
        let Some(decl) = intrinsic.get_declaration(self.module, overloads) else {
            return Err(GpuError::at(
                self.ir,
                op,
                format!("no declaration of {name}"),
            ));
        };
        let args: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|&a| a.into()).collect();
        let call = self.builder.build_call(decl, &args, "")?;
        Ok(crate::kernel_to_host::scalar::returned(
            call.try_as_basic_value(),
        ))
    }

    fn define(&mut self, op: Operation, v: BasicValueEnum<'ctx>) {
        let r = self.ir.result(op, 0);
        self.values.insert(r, v);
    }

    fn operands(&self, op: Operation) -> R<Vec<BasicValueEnum<'ctx>>> {
        let vs: Vec<Value> = self.ir.operands(op).collect();
        vs.iter().map(|&v| self.value(op, v)).collect()
    }

    /// Emits one op (not a terminator).
    pub(super) fn op(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let name = ir.op_name_str(op).to_string();
        if let Some(regs) = self.emulated {
            if let Some(v) = self.emulated_sreg(op, &name, regs)? {
                self.define(op, v.into());
                return Ok(());
            }
        }
        if let Some(reg) = sreg(&name) {
            let axis = strata_ir::ods::inherent_attr(ir, op, "axis")
                .and_then(|a| match ir.attr_kind(a) {
                    AttrKind::Integer { value, .. } => Some(*value as u8),
                    _ => None,
                })
                .unwrap_or(0);
            let axis = ["x", "y", "z"][usize::from(axis.min(2))];
            let v = self.call(
                op,
                &format!("llvm.nvvm.read.ptx.sreg.{reg}.{axis}"),
                &[],
                &[],
            )?;
            return self.define_some(op, v);
        }
        match name.as_str() {
            "nvptx.lane_id" => {
                let v = self.call(op, "llvm.nvvm.read.ptx.sreg.laneid", &[], &[])?;
                self.define_some(op, v)
            }
            "nvptx.barrier" => {
                let zero = self.llvm.i32_type().const_zero();
                self.call(
                    op,
                    "llvm.nvvm.barrier.cta.sync.aligned.all",
                    &[],
                    &[zero.into()],
                )?;
                Ok(())
            }
            "nvptx.shfl_sync" => self.shuffle(op),
            "nvptx.shared_alloc" => self.shared_alloc(op),
            "nvptx.load" => self.load(op),
            "nvptx.store" => self.store(op),
            "nvptx.mma_sync" => self.mma(op),
            "vector.from_elements" => self.vector_of_elements(op),
            "vector.extract" => self.extract(op),
            "arith.constant" => self.constant(op),
            "scf.for" => self.for_loop(op),
            "scf.if" => self.if_op(op),
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                if ir.num_results(op) != 1 {
                    return Err(GpuError::at(ir, op, "is not compiled for the GPU yet"));
                }
                let result = ir.value_type(ir.result(op, 0));
                if matches!(ir.type_kind(result), strata_ir::TypeKind::Vector { .. }) {
                    return Err(GpuError::at(
                        ir,
                        op,
                        "computes on vectors, which the GPU translation does not handle yet (vectors are loaded, stored and fed to mma_sync)",
                    ));
                }
                let args = self.operands(op)?;
                let v = self.scalar_emitter().emit(op, &args, result)?;
                self.define(op, v);
                Ok(())
            }
            _ => Err(GpuError::at(ir, op, "is not compiled for the GPU yet")),
        }
    }

    /// The value of a coordinate op when emulating on the host: a parameter
    /// of the thread function (`None` for other ops). Ops that need threads
    /// to run together cannot be emulated one thread at a time.
    fn emulated_sreg(
        &self,
        op: Operation,
        name: &str,
        regs: [IntValue<'ctx>; 8],
    ) -> R<Option<IntValue<'ctx>>> {
        let axis = strata_ir::ods::inherent_attr(self.ir, op, "axis")
            .and_then(|a| match self.ir.attr_kind(a) {
                AttrKind::Integer { value, .. } => Some(*value as usize),
                _ => None,
            })
            .unwrap_or(0)
            .min(2);
        let i32t = self.llvm.i32_type();
        Ok(Some(match name {
            "nvptx.thread_id" if axis == 0 => regs[0],
            "nvptx.thread_id" => i32t.const_zero(),
            "nvptx.block_id" => regs[1 + axis],
            "nvptx.grid_dim" => regs[4 + axis],
            "nvptx.block_dim" if axis == 0 => regs[7],
            "nvptx.block_dim" => i32t.const_int(1, false),
            "nvptx.lane_id" => self
                .builder
                .build_and(regs[0], i32t.const_int(31, false), "")?,
            "nvptx.barrier" | "nvptx.shfl_sync" | "nvptx.mma_sync" | "nvptx.shared_alloc"
            | "nvptx.cluster_id" => {
                return Err(GpuError::at(
                    self.ir,
                    op,
                    "cannot be emulated one thread at a time on the host (it needs the block's threads together)",
                ))
            }
            _ => return Ok(None),
        }))
    }

    fn scalar_emitter(&self) -> ScalarEmitter<'_, 'ctx> {
        ScalarEmitter {
            ir: self.ir,
            llvm: self.llvm,
            module: self.module,
            builder: &self.builder,
            reassoc: false,
            libdevice: self.emulated.is_none(),
        }
    }

    fn define_some(&mut self, op: Operation, v: Option<BasicValueEnum<'ctx>>) -> R<()> {
        let v = v.ok_or_else(|| GpuError::at(self.ir, op, "an intrinsic returned nothing"))?;
        self.define(op, v);
        Ok(())
    }

    fn constant(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let ty = ir.value_type(ir.result(op, 0));
        let lt = self.ty(op, ty)?;
        let value = strata_ir::ods::inherent_attr(ir, op, "value").map(|a| ir.attr_kind(a));
        let v: BasicValueEnum<'ctx> = match (value, lt) {
            (Some(AttrKind::Integer { value, .. }), BasicTypeEnum::IntType(t)) => {
                t.const_int(*value as u64, false).into()
            }
            (Some(AttrKind::Float { bits, .. }), BasicTypeEnum::FloatType(t)) => {
                let x = if let Some(n) = narrow_of(ir, ty) {
                    f64::from(narrow_value(n, *bits as u16))
                } else if t == self.llvm.f64_type() {
                    f64::from_bits(*bits as u64)
                } else {
                    f64::from(f32::from_bits(*bits as u32))
                };
                t.const_float(x).into()
            }
            _ => {
                return Err(GpuError::at(
                    ir,
                    op,
                    "is not a scalar integer or float constant (not compiled for the GPU yet)",
                ))
            }
        };
        self.define(op, v);
        Ok(())
    }

    fn shuffle(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let s = strata_dialects::nvptx::ShflSyncOp(op);
        let kind = strata_ir::ods::inherent_attr(ir, op, "kind")
            .and_then(|a| match ir.attr_kind(a) {
                AttrKind::Integer { value, .. } => Some(*value as u8),
                _ => None,
            })
            .unwrap_or(0);
        let kind = ["bfly", "down", "up", "idx"][usize::from(kind.min(3))];
        let width = s.width(ir).clamp(1, 32) as u64;
        // PTX's `c` operand: the segment mask in bits 8-12, the clamp lane in
        // bits 0-4 (0 for `up`, the last lane for the others).
        let clamp = if kind == "up" { 0 } else { 0x1f };
        let c = ((32 - width) << 8) | clamp;
        let args = self.operands(op)?;
        let suffix = if args[0].is_float_value() {
            "f32"
        } else {
            "i32"
        };
        let i32t = self.llvm.i32_type();
        let v = self.call(
            op,
            &format!("llvm.nvvm.shfl.sync.{kind}.{suffix}"),
            &[],
            &[
                i32t.const_all_ones().into(),
                args[0],
                args[1],
                i32t.const_int(c, false).into(),
            ],
        )?;
        self.define_some(op, v)
    }

    fn shared_alloc(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let n = strata_dialects::nvptx::SharedAllocOp(op)
            .elements(ir)
            .unwrap_or(1)
            .max(1) as u32;
        let ty = ir.value_type(ir.result(op, 0));
        let element = self.pointee(op, ty)?;
        let array = element.array_type(n);
        let global =
            self.module
                .add_global(array, Some(inkwell::AddressSpace::from(3u16)), "shared");
        global.set_linkage(inkwell::module::Linkage::Internal);
        global.set_initializer(&array.get_undef());
        global.set_alignment(16);
        self.define(op, global.as_pointer_value().as_basic_value_enum());
        Ok(())
    }

    /// The LLVM type of the pointee of an `!nvptx.ptr` type.
    pub(super) fn pointee(&self, op: Operation, ptr: strata_ir::Type) -> R<BasicTypeEnum<'ctx>> {
        let ir = self.ir;
        let strata_ir::TypeKind::Opaque { data, .. } = ir.type_kind(ptr) else {
            return Err(GpuError::at(ir, op, "needs an !nvptx.ptr"));
        };
        let text = data
            .strip_prefix("ptr<")
            .and_then(|r| r.rsplit_once(','))
            .map(|(p, _)| p.trim().to_string())
            .unwrap_or_default();
        let llvm = self.llvm;
        Ok(match text.as_str() {
            "f16" => llvm.f16_type().into(),
            // As on the host: bf16 in memory is its 16 bits.
            "bf16" => llvm.i16_type().into(),
            "f32" => llvm.f32_type().into(),
            "f64" => llvm.f64_type().into(),
            t => match t.strip_prefix('i').and_then(|w| w.parse::<u32>().ok()) {
                Some(w) => match crate::kernel_to_host::scalar::int_type(llvm, w) {
                    Some(i) => i.into(),
                    None => return Err(GpuError::at(ir, op, format!("has pointee '{t}'"))),
                },
                None => return Err(GpuError::at(ir, op, format!("has pointee '{t}'"))),
            },
        })
    }

    /// `ptr + index` (in elements of the pointee) and the access's alignment.
    fn address(
        &self,
        op: Operation,
        ptr_value: Value,
        index: Value,
        accessed: BasicTypeEnum<'ctx>,
    ) -> R<(inkwell::values::PointerValue<'ctx>, u32)> {
        let ir = self.ir;
        let element = self.pointee(op, ir.value_type(ptr_value))?;
        let base = self.value(op, ptr_value)?.into_pointer_value();
        let i = self.value(op, index)?.into_int_value();
        let wide = self
            .builder
            .build_int_s_extend(i, self.llvm.i64_type(), "")?;
        // SAFETY: an in-bounds offset is the kernel's contract, as a
        // pointer offset in CUDA C is.
        let p = unsafe { self.builder.build_gep(element, base, &[wide], "")? };
        // A vector access is aligned to its size on the GPU (the form that
        // makes one proves it); emulated, host buffers are aligned to
        // their elements only.
        let align = if self.emulated.is_some() {
            byte_size(element)
        } else {
            byte_size(accessed)
        };
        Ok((p, align.clamp(1, 16)))
    }

    fn load(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let result = ir.value_type(ir.result(op, 0));
        let narrow = narrow_of(ir, result);
        let ty = match narrow {
            Some(_) => self.pointee(op, ir.value_type(ir.operand(op, 0)))?,
            None => self.ty(op, result)?,
        };
        let (p, align) = self.address(op, ir.operand(op, 0), ir.operand(op, 1), ty)?;
        let mut v = self.builder.build_load(ty, p, "")?;
        if let Some(i) = v.as_instruction_value() {
            let _ = i.set_alignment(align);
        }
        if let Some(n) = narrow {
            v = self.scalar_emitter().widen_loaded(v, n)?;
        }
        self.define(op, v);
        Ok(())
    }

    fn store(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let mut value = self.value(op, ir.operand(op, 0))?;
        if let Some(n) = narrow_of(ir, ir.value_type(ir.operand(op, 0))) {
            value = self.scalar_emitter().narrow_for_store(value, n)?;
        }
        let (p, align) =
            self.address(op, ir.operand(op, 1), ir.operand(op, 2), value.get_type())?;
        let s = self.builder.build_store(p, value)?;
        let _ = s.set_alignment(align);
        Ok(())
    }

    /// `vector.from_elements`: the operands inserted in order (narrow
    /// floats, held in f32 registers, rounded to their memory form first).
    fn vector_of_elements(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let ty = self.ty(op, ir.value_type(ir.result(op, 0)))?;
        let BasicTypeEnum::VectorType(vt) = ty else {
            return Err(GpuError::at(ir, op, "does not make a vector"));
        };
        let mut v = vt.get_undef();
        for (i, x) in ir.operands(op).enumerate() {
            let mut e = self.value(op, x)?;
            if let Some(n) = narrow_of(ir, ir.value_type(x)) {
                e = self.scalar_emitter().narrow_for_store(e, n)?;
                // bf16 rounds to its bits (an i16); the vector holds bfloat.
                if e.get_type() != vt.get_element_type() {
                    e = self.builder.build_bit_cast(e, vt.get_element_type(), "")?;
                }
            }
            let at = self.llvm.i32_type().const_int(i as u64, false);
            v = self.builder.build_insert_element(v, e, at, "")?;
        }
        self.define(op, v.into());
        Ok(())
    }

    /// `vector.extract` of one element of a 1-D vector (a narrow float
    /// widened to the register form scalars have).
    fn extract(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let position = strata_dialects::vector::ExtractOp(op)
            .static_position(ir)
            .unwrap_or_default();
        let source = ir.value_type(ir.operand(op, 0));
        let one_d = matches!(ir.type_kind(source), strata_ir::TypeKind::Vector { shape, .. } if shape.len() == 1);
        let [at] = position[..] else {
            return Err(GpuError::at(
                ir,
                op,
                "extracts a sub-vector (the GPU translation takes one element of a 1-D vector)",
            ));
        };
        if !one_d || at < 0 {
            return Err(GpuError::at(
                ir,
                op,
                "extracts other than one element of a 1-D vector (not compiled for the GPU)",
            ));
        }
        let v = self.value(op, ir.operand(op, 0))?.into_vector_value();
        let i = self.llvm.i32_type().const_int(at as u64, false);
        let mut x = self.builder.build_extract_element(v, i, "")?;
        if let Some(n) = narrow_of(ir, ir.value_type(ir.result(op, 0))) {
            // A bf16 vector holds `bfloat`s; widening reads its bits.
            if x.get_type() == self.llvm.bf16_type().into() {
                x = self.builder.build_bit_cast(x, self.llvm.i16_type(), "")?;
            }
            x = self.scalar_emitter().widen_loaded(x, n)?;
        }
        self.define(op, x);
        Ok(())
    }

    /// `mma.sync.m16n8k16.row.col` with f32 accumulators: the f16 form takes
    /// `<2 x half>` pairs, the bf16 form `i32`s holding two each.
    fn mma(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let args = self.operands(op)?;
        let a_ty = ir.value_type(ir.operand(op, 0));
        let bf16 = matches!(ir.type_kind(a_ty), strata_ir::TypeKind::Vector { element, .. }
            if strata_ir::printer::type_to_string(ir, *element) == "bf16");
        let llvm = self.llvm;
        let pair: BasicTypeEnum<'ctx> = if bf16 {
            llvm.i32_type().into()
        } else {
            llvm.f16_type().vec_type(2).into()
        };
        let b = &self.builder;
        let i32t = llvm.i32_type();
        // Splits a vector fragment into its 32-bit registers (two halves
        // each).
        let regs = |v: BasicValueEnum<'ctx>, n: u32| -> R<Vec<BasicValueEnum<'ctx>>> {
            let words = b
                .build_bit_cast(v, i32t.vec_type(n), "")?
                .into_vector_value();
            (0..n)
                .map(|i| {
                    let w =
                        b.build_extract_element(words, i32t.const_int(u64::from(i), false), "")?;
                    Ok(if bf16 {
                        w
                    } else {
                        b.build_bit_cast(w, pair, "")?
                    })
                })
                .collect()
        };
        let mut call_args = regs(args[0], 4)?;
        call_args.extend(regs(args[1], 2)?);
        let c = args[2].into_vector_value();
        for i in 0..4 {
            call_args.push(b.build_extract_element(c, llvm.i32_type().const_int(i, false), "")?);
        }
        let name = if bf16 {
            "llvm.nvvm.mma.m16n8k16.row.col.bf16"
        } else {
            "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
        };
        let d = self
            .call(op, name, &[], &call_args)?
            .ok_or_else(|| GpuError::at(ir, op, "mma returned nothing"))?
            .into_struct_value();
        let mut out = llvm.f32_type().vec_type(4).get_undef();
        for i in 0..4 {
            let x = self.builder.build_extract_value(d, i, "")?;
            out = self.builder.build_insert_element(
                out,
                x,
                llvm.i32_type().const_int(u64::from(i), false),
                "",
            )?;
        }
        self.define(op, out.into());
        Ok(())
    }

    /// `scf.for %i = %lb to %ub step %s iter_args(...)`: a header with the
    /// induction variable's and the iteration arguments' `phi`s.
    fn for_loop(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let ops = self.operands(op)?;
        let (lb, ub, step) = (
            ops[0].into_int_value(),
            ops[1].into_int_value(),
            ops[2].into_int_value(),
        );
        let inits = &ops[3..];
        let Some(&region) = ir.op_regions(op).first() else {
            return Err(GpuError::at(ir, op, "has no body"));
        };
        let Some(body) = ir.region_entry_block(region) else {
            return Err(GpuError::at(ir, op, "has no body"));
        };
        let pre = self
            .builder
            .get_insert_block()
            .ok_or_else(|| GpuError::at(ir, op, "has no insertion block"))?;
        let header = self.llvm.append_basic_block(self.function, "for.header");
        let body_bb = self.llvm.append_basic_block(self.function, "for.body");
        let exit = self.llvm.append_basic_block(self.function, "for.exit");
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(header);
        let iv = self.builder.build_phi(lb.get_type(), "i")?;
        iv.add_incoming(&[(&lb, pre)]);
        let mut phis = Vec::new();
        for init in inits {
            let phi = self.builder.build_phi(init.get_type(), "")?;
            phi.add_incoming(&[(init, pre)]);
            phis.push(phi);
        }
        let i = iv.as_basic_value().into_int_value();
        let cond = self
            .builder
            .build_int_compare(IntPredicate::SLT, i, ub, "")?;
        self.builder.build_conditional_branch(cond, body_bb, exit)?;
        self.builder.position_at_end(body_bb);
        let args: Vec<Value> = ir.block_args(body).collect();
        self.values.insert(args[0], i.into());
        for (a, phi) in args[1..].iter().zip(&phis) {
            self.values.insert(*a, phi.as_basic_value());
        }
        let yielded = self.block(body)?;
        let latch = self
            .builder
            .get_insert_block()
            .ok_or_else(|| GpuError::at(ir, op, "has no insertion block"))?;
        let next: IntValue<'ctx> = self.builder.build_int_add(i, step, "")?;
        iv.add_incoming(&[(&next, latch)]);
        for (phi, y) in phis.iter().zip(&yielded) {
            phi.add_incoming(&[(y, latch)]);
        }
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(exit);
        for (r, phi) in ir.results(op).zip(&phis) {
            self.values.insert(r, phi.as_basic_value());
        }
        Ok(())
    }

    /// `scf.if`: both regions (the else one may be empty when there are no
    /// results), and a `phi` of each result in the merge block.
    fn if_op(&mut self, op: Operation) -> R<()> {
        let ir = self.ir;
        let cond = self.value(op, ir.operand(op, 0))?.into_int_value();
        let regions = ir.op_regions(op).to_vec();
        let then_bb = self.llvm.append_basic_block(self.function, "if.then");
        let else_bb = self.llvm.append_basic_block(self.function, "if.else");
        let merge = self.llvm.append_basic_block(self.function, "if.end");
        self.builder
            .build_conditional_branch(cond, then_bb, else_bb)?;
        let mut incoming = Vec::new();
        for (region, bb) in regions.iter().zip([then_bb, else_bb]) {
            self.builder.position_at_end(bb);
            let yielded = match ir.region_entry_block(*region) {
                Some(block) => self.block(block)?,
                None => Vec::new(),
            };
            let end = self
                .builder
                .get_insert_block()
                .ok_or_else(|| GpuError::at(ir, op, "has no insertion block"))?;
            self.builder.build_unconditional_branch(merge)?;
            incoming.push((yielded, end));
        }
        if regions.len() < 2 {
            self.builder.position_at_end(else_bb);
            self.builder.build_unconditional_branch(merge)?;
        }
        self.builder.position_at_end(merge);
        for (k, r) in ir.results(op).enumerate().collect::<Vec<_>>() {
            let ty = self.ty(op, ir.value_type(r))?;
            let phi = self.builder.build_phi(ty, "")?;
            for (yielded, bb) in &incoming {
                if let Some(v) = yielded.get(k) {
                    phi.add_incoming(&[(v, *bb)]);
                }
            }
            self.values.insert(r, phi.as_basic_value());
        }
        Ok(())
    }
}
