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
//! groups: the kernel's body is cut at each `nvptx.barrier`,
//! `nvptx.shfl_sync` and `nvptx.mma_sync`, and each phase is a loop over
//! the block's threads. A value one phase defines and another uses is kept
//! per thread in an array; a shuffle stores each thread's value and its
//! source lane at the end of its phase, and the next phase reads the
//! source's value; an `mma_sync` stores each thread's fragments, each warp's
//! product is computed from them as PTX lays fragments out, and the next
//! phase reads the thread's part; `shared_alloc` is one buffer of the
//! block. An `scf.for` whose body synchronizes is run by the block (its
//! bounds are uniform), its iteration arguments kept per thread; a
//! synchronization inside `scf.if` is an error. Since each phase runs to
//! the end before the next, a missing barrier would go unseen: the kernel's
//! shared-memory accesses are checked for barriers first (`races`).

use inkwell::context::Context as LlvmContext;
use inkwell::module::Module;
use inkwell::values::BasicMetadataValueEnum;
use inkwell::IntPredicate;
use strata_ir::{AttrKind, Context, Operation};

mod phases;
mod races;

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

impl<'ctx> Kernel<'_, 'ctx> {
    /// Emits the body `entry` of a kernel emulated on the host: phase by
    /// phase, each a loop over the block's `threads` threads.
    pub(super) fn phases(&mut self, entry: strata_ir::Block, threads: u32) -> R<()> {
        let ir = self.ir;
        let anchor = ir
            .block_parent_op(entry)
            .ok_or_else(|| LlvmError("a kernel body without its function".into()))?;
        races::check_barriers(ir, entry)?;
        let mut cutter = phases::Cutter::new(ir);
        let steps = cutter.cut(entry)?;
        let mem = self.memory(anchor, &cutter, &steps, threads)?;
        self.run_steps(&steps, &mem, threads)?;
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
        self.range_loop(threads, |k, t| {
            if let Some(regs) = k.emulated.as_mut() {
                regs[0] = t;
            }
            body(k, t)
        })
    }

    /// Emits `body` in a loop over `0..n` (an `i32` counter), at the
    /// builder's position.
    fn range_loop(
        &mut self,
        n: u32,
        mut body: impl FnMut(&mut Self, inkwell::values::IntValue<'ctx>) -> R<()>,
    ) -> R<()> {
        let i32t = self.llvm.i32_type();
        let pre = self
            .builder
            .get_insert_block()
            .ok_or_else(|| LlvmError("no insertion block".into()))?;
        let header = self.llvm.append_basic_block(self.function, "loop");
        let exit = self.llvm.append_basic_block(self.function, "loop_end");
        self.builder.build_unconditional_branch(header)?;
        self.builder.position_at_end(header);
        let i = self.builder.build_phi(i32t, "i")?;
        i.add_incoming(&[(&i32t.const_zero(), pre)]);
        let t = i.as_basic_value().into_int_value();
        body(self, t)?;
        let latch = self
            .builder
            .get_insert_block()
            .ok_or_else(|| LlvmError("no insertion block".into()))?;
        let next = self
            .builder
            .build_int_add(t, i32t.const_int(1, false), "")?;
        i.add_incoming(&[(&next, latch)]);
        let more = self.builder.build_int_compare(
            IntPredicate::ULT,
            next,
            i32t.const_int(u64::from(n), false),
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
