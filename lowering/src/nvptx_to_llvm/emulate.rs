//! The GPU kernels of an `nvptx` module emulated on the host CPU, one
//! thread after another: how the test suite checks what
//! `convert-kernel-to-nvptx` makes against the interpreter on machines
//! without a GPU.
//!
//! Each kernel `@k` becomes `@k.thread` (its body, the thread's
//! coordinates as parameters) and `@k` with the host kernels' entry
//! (`void k(u64 *args, i64 gx, i64 gy, i64 gz, i64 begin, i64 end)`,
//! [`crate::llvm::HostKernel`]), which runs every thread of the programs
//! `begin..end` in turn. So the host plan runs the GPU kernels in place of
//! the host ones. Only kernels whose threads do not wait for each other can
//! be emulated so (no barrier, shuffle, shared memory or `mma_sync`): what
//! `convert-kernel-to-nvptx` makes today.

use inkwell::context::Context as LlvmContext;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum};
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
    let thread = Kernel::emit_as(ir, llvm, m, func, true)?;
    let threads = ir
        .op_attr(func, "nvptx.threads")
        .and_then(|a| match ir.attr_kind(a) {
            AttrKind::Integer { value, .. } => Some(*value as u64),
            _ => None,
        })
        .unwrap_or(128);
    let (i64t, i32t) = (llvm.i64_type(), llvm.i32_type());
    let ptr = llvm.ptr_type(inkwell::AddressSpace::default());
    let entry_ty = llvm.void_type().fn_type(
        &[
            ptr.into(),
            i64t.into(),
            i64t.into(),
            i64t.into(),
            i64t.into(),
            i64t.into(),
        ],
        false,
    );
    let f = m.add_function(name, entry_ty, None);
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
        // SAFETY: slot i of the argument array (one per parameter).
        let slot =
            unsafe { b.build_in_bounds_gep(i64t, args, &[i64t.const_int(i as u64, false)], "")? };
        let v: BasicValueEnum<'ctx> = match lt {
            BasicTypeEnum::PointerType(_) => b.build_load(ptr, slot, "")?,
            BasicTypeEnum::IntType(t) => {
                let raw = b.build_load(i64t, slot, "")?.into_int_value();
                b.build_int_truncate_or_bit_cast(raw, t, "")?.into()
            }
            BasicTypeEnum::FloatType(t) => {
                let raw = b.build_load(llvm.f64_type(), slot, "")?.into_float_value();
                b.build_float_cast(raw, t, "")?.into()
            }
            _ => {
                return Err(GpuError::at(
                    ir,
                    func,
                    format!("parameter #{i} has no host type"),
                ))
            }
        };
        params.push(v.into());
    }
    let narrow = |v: inkwell::values::IntValue<'ctx>| b.build_int_truncate(v, i32t, "");
    let (gx32, gy32, gz32) = (narrow(gx)?, narrow(gy)?, narrow(gz)?);
    // for pid in begin..end: for tid in 0..threads: thread(params, coords).
    let header = llvm.append_basic_block(f, "program");
    let body = llvm.append_basic_block(f, "threads");
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
    let tloop = llvm.append_basic_block(f, "thread");
    b.build_unconditional_branch(tloop)?;
    b.position_at_end(tloop);
    let tid = b.build_phi(i32t, "tid")?;
    tid.add_incoming(&[(&i32t.const_zero(), body)]);
    let tidv = tid.as_basic_value().into_int_value();
    let mut call_args = params.clone();
    let ntid = i32t.const_int(threads, false);
    for v in [tidv, x, y, z, gx32, gy32, gz32, ntid] {
        call_args.push(v.into());
    }
    b.build_call(thread, &call_args, "")?;
    let next = b.build_int_add(tidv, i32t.const_int(1, false), "")?;
    tid.add_incoming(&[(&next, tloop)]);
    let again = b.build_int_compare(IntPredicate::SLT, next, ntid, "")?;
    b.build_conditional_branch(again, tloop, latch)?;
    b.position_at_end(latch);
    let inc = b.build_int_add(pidv, i64t.const_int(1, false), "")?;
    pid.add_incoming(&[(&inc, latch)]);
    b.build_unconditional_branch(header)?;
    b.position_at_end(exit);
    b.build_return(None)?;
    Ok(())
}
