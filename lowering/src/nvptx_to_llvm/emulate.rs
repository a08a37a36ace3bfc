//! The GPU kernels of an `nvptx` module emulated on the host CPU, one
//! thread after another: how the test suite checks what
//! `convert-kernel-to-nvptx` makes against the interpreter on machines
//! without a GPU.
//!
//! Each kernel `@k` becomes `@k.block` (one thread block: the block's
//! coordinates are parameters) and `@k` with the host kernels' entry
//! (`void k(u64 *args, i64 gx, i64 gy, i64 gz, i64 begin, i64 end)`,
//! [`crate::llvm::HostKernel`]), which runs the blocks of the programs
//! `begin..end` in turn. So the host plan runs the GPU kernels in place of
//! the host ones.
//!
//! A block runs in phases, as CPU implementations of OpenCL run work
//! groups: the kernel's body is cut at each `nvptx.barrier` and
//! `nvptx.shfl_sync`, and each phase is a loop over the block's threads.
//! A value one phase defines and a later one uses is kept per thread in an
//! array; a shuffle stores each thread's value and its source lane at the
//! end of its phase, and the next phase reads the source's value;
//! `shared_alloc` is one buffer of the block. This needs the barriers and
//! shuffles at the top of the kernel's body, not inside `scf.if` or
//! `scf.for` (an error otherwise); `mma_sync` is not emulated.

use inkwell::context::Context as LlvmContext;
use inkwell::module::Module;
use inkwell::values::BasicMetadataValueEnum;
use inkwell::IntPredicate;
use strata_ir::{AttrKind, Context, Operation};

use super::{gpu_module, param_type, GpuError, Kernel, R};
use crate::llvm::LlvmError;

/// The bitcode of each GPU kernel of `module` emulated on the host, by
/// kernel name (what `kernel_to_host::compile_bitcode` compiles).
pub fn emulation_bitcode(ir: &Context, module: Operation) -> R<Vec<(String, Vec<u8>)>> {
    let gpu = gpu_module(ir, module);
    if ir.op_attr(gpu, "nvptx.target").is_none() {
        // A plan without kernels (views only) has nothing to emulate.
        if crate::kernel_to_host::kernel_funcs(ir, module).is_empty() {
            return Ok(Vec::new());
        }
        return Err(GpuError::at(
            ir,
            module,
            "has no nvptx module (run convert-kernel-to-nvptx)",
        ));
    }
    let mut out = Vec::new();
    for &region in ir.op_regions(gpu) {
        for block in ir.region_blocks(region) {
            for func in ir.block_ops(block).collect::<Vec<_>>() {
                if ir.op_name_str(func) != "func.func" {
                    continue;
                }
                let name = ir
                    .symbol_name(func)
                    .map(|n| String::from_utf8_lossy(n).into_owned())
                    .unwrap_or_default();
                let llvm = LlvmContext::create();
                let m = llvm.create_module(&name);
                emit_entry(ir, &llvm, &m, func, &name)?;
                m.verify()
                    .map_err(|e| LlvmError(format!("invalid module for @{name}: {e}")))?;
                out.push((name, m.write_bitcode_to_memory().as_slice().to_vec()));
            }
        }
    }
    Ok(out)
}

/// `@name` with the host entry, running `@name.thread` for every thread.
fn emit_entry<'ctx>(
    ir: &Context,
    llvm: &'ctx LlvmContext,
    m: &Module<'ctx>,
    func: Operation,
    name: &str,
) -> R<()> {
    let block_fn = Kernel::emit_as(ir, llvm, m, func, true)?;
    let threads = ir
        .op_attr(func, "nvptx.threads")
        .and_then(|a| match ir.attr_kind(a) {
            AttrKind::Integer { value, .. } => Some(*value as u64),
            _ => None,
        })
        .unwrap_or(128);
    let (i64t, i32t) = (llvm.i64_type(), llvm.i32_type());
    let f = m.add_function(name, crate::kernel_to_host::abi::entry_type(llvm), None);
    let b = llvm.create_builder();
    let entry = llvm.append_basic_block(f, "entry");
    b.position_at_end(entry);
    let p = |i: u32| {
        f.get_nth_param(i)
            .ok_or_else(|| GpuError::at(ir, func, "internal error: entry parameters"))
    };
    let args = p(0)?.into_pointer_value();
    let (gx, gy, gz) = (
        p(1)?.into_int_value(),
        p(2)?.into_int_value(),
        p(3)?.into_int_value(),
    );
    let (begin, end) = (p(4)?.into_int_value(), p(5)?.into_int_value());
    // The kernel's parameters from their 8-byte slots.
    let Some((inputs, _)) = strata_dialects::func::function_signature(ir, func) else {
        return Err(GpuError::at(ir, func, "has no function type"));
    };
    let mut params: Vec<BasicMetadataValueEnum<'ctx>> = Vec::new();
    for (i, &t) in inputs.iter().enumerate() {
        let lt = param_type(ir, llvm, t, true)
            .ok_or_else(|| GpuError::at(ir, func, format!("parameter #{i} has no host type")))?;
        let v = crate::kernel_to_host::abi::load_arg(&b, llvm, args, i as u64, lt)?
            .ok_or_else(|| GpuError::at(ir, func, format!("parameter #{i} has no host type")))?;
        params.push(v.into());
    }
    let narrow = |v: inkwell::values::IntValue<'ctx>| b.build_int_truncate(v, i32t, "");
    let (gx32, gy32, gz32) = (narrow(gx)?, narrow(gy)?, narrow(gz)?);
    // for pid in begin..end: block(params, coords).
    let header = llvm.append_basic_block(f, "program");
    let body = llvm.append_basic_block(f, "block");
    let latch = llvm.append_basic_block(f, "next_program");
    let exit = llvm.append_basic_block(f, "exit");
    b.build_unconditional_branch(header)?;
    b.position_at_end(header);
    let pid = b.build_phi(i64t, "pid")?;
    pid.add_incoming(&[(&begin, entry)]);
    let pidv = pid.as_basic_value().into_int_value();
    let more = b.build_int_compare(IntPredicate::SLT, pidv, end, "")?;
    b.build_conditional_branch(more, body, exit)?;
    b.position_at_end(body);
    let x = b.build_int_signed_rem(pidv, gx, "")?;
    let q = b.build_int_signed_div(pidv, gx, "")?;
    let y = b.build_int_signed_rem(q, gy, "")?;
    let z = b.build_int_signed_div(q, gy, "")?;
    let (x, y, z) = (narrow(x)?, narrow(y)?, narrow(z)?);
    let mut call_args = params.clone();
    let ntid = i32t.const_int(threads, false);
    for v in [x, y, z, gx32, gy32, gz32, ntid] {
        call_args.push(v.into());
    }
    b.build_call(block_fn, &call_args, "")?;
    b.build_unconditional_branch(latch)?;
    b.position_at_end(latch);
    let inc = b.build_int_add(pidv, i64t.const_int(1, false), "")?;
    pid.add_incoming(&[(&inc, latch)]);
    b.build_unconditional_branch(header)?;
    b.position_at_end(exit);
    b.build_return(None)?;
    Ok(())
}

/// One piece of a kernel's body between synchronizations: its ops, and the
/// shuffle that ends it (its result is the next phase's).
struct Phase {
    ops: Vec<Operation>,
    shuffle: Option<Operation>,
}

/// Whether `op` synchronizes the block's threads.
fn syncs(ir: &Context, op: Operation) -> bool {
    matches!(ir.op_name_str(op), "nvptx.barrier" | "nvptx.shfl_sync")
}

impl<'ctx> Kernel<'_, 'ctx> {
    /// Emits the body `entry` of a kernel emulated on the host: phase by
    /// phase, each a loop over the block's `threads` threads.
    pub(super) fn phases(&mut self, entry: strata_ir::Block, threads: u32) -> R<()> {
        let ir = self.ir;
        let anchor = ir
            .block_parent_op(entry)
            .ok_or_else(|| LlvmError("a kernel body without its function".into()))?;
        let mut phases = vec![Phase {
            ops: Vec::new(),
            shuffle: None,
        }];
        let mut shared = Vec::new();
        for op in ir.block_ops(entry).collect::<Vec<_>>() {
            let name = ir.op_name_str(op);
            if name == "func.return" {
                continue;
            }
            if name == "nvptx.shared_alloc" {
                shared.push(op);
                continue;
            }
            let nested = ir
                .nested_ops(op, strata_ir::WalkOrder::PreOrder)
                .into_iter()
                .find(|&o| syncs(ir, o) || ir.op_name_str(o) == "nvptx.shared_alloc");
            if let Some(n) = nested {
                return Err(GpuError::at(
                    ir,
                    n,
                    "cannot be emulated inside scf.if or scf.for (the host emulation synchronizes at the top of the kernel's body)",
                ));
            }
            let last = phases.len() - 1;
            match name {
                "nvptx.barrier" => phases.push(Phase {
                    ops: Vec::new(),
                    shuffle: None,
                }),
                "nvptx.shfl_sync" => {
                    phases[last].shuffle = Some(op);
                    phases.push(Phase {
                        ops: Vec::new(),
                        shuffle: None,
                    });
                }
                _ => phases[last].ops.push(op),
            }
        }
        // Where each top-level value is defined (a shuffle's result: the
        // phase after it), and which later phases use it.
        let mut defined: std::collections::HashMap<strata_ir::Value, usize> =
            std::collections::HashMap::new();
        for (p, phase) in phases.iter().enumerate() {
            for &op in &phase.ops {
                for r in ir.results(op) {
                    defined.insert(r, p);
                }
            }
            if let Some(s) = phase.shuffle {
                defined.insert(ir.result(s, 0), p + 1);
            }
        }
        let mut live_in: Vec<Vec<strata_ir::Value>> = vec![Vec::new(); phases.len()];
        for (q, phase) in phases.iter().enumerate() {
            let mut uses = Vec::new();
            for &op in phase.ops.iter().chain(phase.shuffle.iter()) {
                uses.extend(ir.operands(op));
                for o in ir.nested_ops(op, strata_ir::WalkOrder::PreOrder) {
                    uses.extend(ir.operands(o));
                }
            }
            for v in uses {
                if defined.get(&v).is_some_and(|&p| p < q) && !live_in[q].contains(&v) {
                    live_in[q].push(v);
                }
            }
        }
        // The block's memory: shared buffers, and an array per value that
        // crosses phases (and two per shuffle: values, source lanes).
        let i32t = self.llvm.i32_type();
        let n = i32t.const_int(u64::from(threads), false);
        for &op in &shared {
            let elements = strata_dialects::nvptx::SharedAllocOp(op)
                .elements(ir)
                .unwrap_or(1)
                .clamp(1, i64::from(u32::MAX)) as u32;
            let element = self.pointee(op, ir.value_type(ir.result(op, 0)))?;
            let buf = self.builder.build_array_alloca(
                element,
                i32t.const_int(u64::from(elements), false),
                "shared",
            )?;
            self.values.insert(ir.result(op, 0), buf.into());
        }
        let mut arrays: std::collections::HashMap<
            strata_ir::Value,
            (
                inkwell::values::PointerValue<'ctx>,
                inkwell::types::BasicTypeEnum<'ctx>,
            ),
        > = std::collections::HashMap::new();
        let crossing: Vec<strata_ir::Value> = live_in.iter().flatten().copied().collect();
        for v in crossing {
            if arrays.contains_key(&v) {
                continue;
            }
            let ty = self.ty(ir.defining_op(v).unwrap_or(anchor), ir.value_type(v))?;
            let a = self.builder.build_array_alloca(ty, n, "")?;
            arrays.insert(v, (a, ty));
        }
        let mut shuffles: std::collections::HashMap<
            Operation,
            (
                inkwell::values::PointerValue<'ctx>,
                inkwell::values::PointerValue<'ctx>,
                inkwell::types::BasicTypeEnum<'ctx>,
            ),
        > = std::collections::HashMap::new();
        for phase in &phases {
            if let Some(s) = phase.shuffle {
                let ty = self.ty(s, ir.value_type(ir.result(s, 0)))?;
                let vals = self.builder.build_array_alloca(ty, n, "")?;
                let srcs = self.builder.build_array_alloca(i32t, n, "")?;
                shuffles.insert(s, (vals, srcs, ty));
            }
        }
        let mut after_shuffle: Option<Operation> = None;
        for (q, phase) in phases.iter().enumerate() {
            self.thread_loop(threads, |k, tid| {
                let at = |k: &Kernel<'_, 'ctx>,
                          base: inkwell::values::PointerValue<'ctx>,
                          ty: inkwell::types::BasicTypeEnum<'ctx>,
                          i: inkwell::values::IntValue<'ctx>| {
                    // SAFETY: i < threads, the array's length.
                    unsafe { k.builder.build_in_bounds_gep(ty, base, &[i], "") }
                };
                for v in &live_in[q] {
                    let (a, ty) = arrays[v];
                    let p = at(k, a, ty, tid)?;
                    let x = k.builder.build_load(ty, p, "")?;
                    k.values.insert(*v, x);
                }
                if let Some(s) = after_shuffle {
                    let (vals, srcs, ty) = shuffles[&s];
                    let sp = at(k, srcs, i32t.into(), tid)?;
                    let src = k.builder.build_load(i32t, sp, "")?.into_int_value();
                    let vp = at(k, vals, ty, src)?;
                    let x = k.builder.build_load(ty, vp, "")?;
                    k.values.insert(ir.result(s, 0), x);
                }
                for &op in &phase.ops {
                    k.op(op)?;
                }
                // What later phases read of this one.
                for (v, &(a, ty)) in &arrays {
                    if defined.get(v) == Some(&q) {
                        let x = k.value(anchor, *v)?;
                        let p = at(k, a, ty, tid)?;
                        k.builder.build_store(p, x)?;
                    }
                }
                if let Some(s) = phase.shuffle {
                    let (vals, srcs, ty) = shuffles[&s];
                    let x = k.value(s, ir.operand(s, 0))?;
                    let off = k.value(s, ir.operand(s, 1))?.into_int_value();
                    let src = k.shuffle_source(s, tid, off)?;
                    let vp = at(k, vals, ty, tid)?;
                    k.builder.build_store(vp, x)?;
                    let sp = at(k, srcs, i32t.into(), tid)?;
                    k.builder.build_store(sp, src)?;
                }
                Ok(())
            })?;
            after_shuffle = phase.shuffle;
        }
        self.builder.build_return(None)?;
        Ok(())
    }

    /// Emits `body` in a loop over thread ids `0..threads` (the thread id
    /// also what `nvptx.thread_id` reads), at the builder's position.
    fn thread_loop(
        &mut self,
        threads: u32,
        mut body: impl FnMut(&mut Self, inkwell::values::IntValue<'ctx>) -> R<()>,
    ) -> R<()> {
        let i32t = self.llvm.i32_type();
        let pre = self
            .builder
            .get_insert_block()
            .ok_or_else(|| LlvmError("no insertion block".into()))?;
        let header = self.llvm.append_basic_block(self.function, "phase");
        let latch = self.llvm.append_basic_block(self.function, "next_thread");
        let exit = self.llvm.append_basic_block(self.function, "phase_end");
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(header);
        let tid = self.builder.build_phi(i32t, "tid")?;
        tid.add_incoming(&[(&i32t.const_zero(), pre)]);
        let t = tid.as_basic_value().into_int_value();
        if let Some(regs) = self.emulated.as_mut() {
            regs[0] = t;
        }
        body(self, t)?;
        self.builder.build_unconditional_branch(latch)?;
        self.builder.position_at_end(latch);
        let next = self
            .builder
            .build_int_add(t, i32t.const_int(1, false), "")?;
        tid.add_incoming(&[(&next, latch)]);
        let more = self.builder.build_int_compare(
            IntPredicate::ULT,
            next,
            i32t.const_int(u64::from(threads), false),
            "",
        )?;
        self.builder.build_conditional_branch(more, header, exit)?;
        self.builder.position_at_end(exit);
        Ok(())
    }

    /// The thread whose value `shfl_sync` `s` gives thread `tid`, with
    /// offset `off`: PTX's rule within the `width`-lane segment, the
    /// thread itself when the source is outside it.
    fn shuffle_source(
        &self,
        s: Operation,
        tid: inkwell::values::IntValue<'ctx>,
        off: inkwell::values::IntValue<'ctx>,
    ) -> R<inkwell::values::IntValue<'ctx>> {
        let ir = self.ir;
        let b = &self.builder;
        let i32t = self.llvm.i32_type();
        let c = |v: u64| i32t.const_int(v, false);
        let width = strata_dialects::nvptx::ShflSyncOp(s).width(ir).clamp(1, 32) as u64;
        let kind = strata_ir::ods::inherent_attr(ir, s, "kind")
            .and_then(|a| match ir.attr_kind(a) {
                AttrKind::Integer { value, .. } => Some(*value as u8),
                _ => None,
            })
            .unwrap_or(0);
        let lane = b.build_and(tid, c(31), "")?;
        let warp = b.build_and(tid, c(!31u32 as u64), "")?;
        let seg = b.build_and(lane, c(u64::from(!(width as u32 - 1))), "")?;
        let max = b.build_int_add(seg, c(width - 1), "")?;
        let (j, valid) = match kind {
            // bfly
            0 => {
                // PTX checks only the upper end: j <= maxLane.
                let j = b.build_xor(lane, b.build_and(off, c(31), "")?, "")?;
                (j, b.build_int_compare(IntPredicate::ULE, j, max, "")?)
            }
            // down
            1 => {
                let j = b.build_int_add(lane, off, "")?;
                (j, b.build_int_compare(IntPredicate::ULE, j, max, "")?)
            }
            // up
            2 => {
                let j = b.build_int_sub(lane, off, "")?;
                (j, b.build_int_compare(IntPredicate::SGE, j, seg, "")?)
            }
            // idx
            _ => {
                let within = b.build_and(off, c(width - 1), "")?;
                let j = b.build_or(seg, within, "")?;
                (j, self.llvm.bool_type().const_int(1, false))
            }
        };
        let global = b.build_int_add(warp, j, "")?;
        Ok(b.build_select(valid, global, tid, "")?.into_int_value())
    }
}
