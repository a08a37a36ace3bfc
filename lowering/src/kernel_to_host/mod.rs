//! `kernel` → host machine code: each `kernel.func` becomes an LLVM
//! function that runs a range of its grid's programs.
//!
//! - The program ids are the induction variable of a loop over
//!   `begin..end`; the runtime splits the grid over a thread pool.
//! - Tiles are computed lazily: a pure elementwise or shape op on tiles
//!   (`arith`, `math`, `splat`, `range`, `broadcast`, `expand_dims`,
//!   `addptr`) is not emitted where it stands but wherever an element of it
//!   is needed, inside the loop of the op that needs it. A chain of them
//!   thus becomes one loop (loop fusion), and offsets built from `range`
//!   and `splat` stay affine in the loop index, so that LLVM sees
//!   contiguous accesses and vectorizes them.
//! - `load`, `reduce`, `dot`, loop-carried tiles and float tiles with more
//!   than one use are materialized in stack buffers.
//!
//! The entry point of kernel `@k` is `void k(u64 *args, i64 gx, i64 gy,
//! i64 gz, i64 begin, i64 end)` ([`crate::llvm::HostKernel`]).

mod emit;
mod scalar;

use inkwell::builder::BuilderError;
use inkwell::context::Context as LlvmContext;
use inkwell::module::Module;
use strata_ir::{Context, Diagnostic, Operation};

use crate::llvm::{JitModule, LlvmError};

/// Why a kernel module could not be compiled for the host.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// An op the host target cannot compile, with its location.
    #[error("{}", .0.message)]
    Unsupported(Diagnostic),
    /// LLVM refused the module or failed to compile it.
    #[error(transparent)]
    Llvm(#[from] LlvmError),
    /// The IR builder failed (an internal error).
    #[error("LLVM builder: {0}")]
    Builder(#[from] BuilderError),
}

impl HostError {
    fn at(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> HostError {
        HostError::Unsupported(Diagnostic::op_error(ctx, op, message))
    }

    /// The diagnostic to report, located where the IR has a location.
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            HostError::Unsupported(d) => Some(d),
            _ => None,
        }
    }
}

/// The `kernel.func` ops directly inside `module`.
pub fn kernel_funcs(ctx: &Context, module: Operation) -> Vec<Operation> {
    let mut out = Vec::new();
    for &region in ctx.op_regions(module) {
        for block in ctx.region_blocks(region) {
            out.extend(
                ctx.block_ops(block).filter(|&op| {
                    ctx.op_name_str(op) == strata_dialects::kernel::KernelFuncOp::NAME
                }),
            );
        }
    }
    out
}

/// The symbol name of a kernel.
pub fn kernel_name(ctx: &Context, kernel: Operation) -> String {
    ctx.symbol_name(kernel)
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .unwrap_or_default()
}

/// Emit every `kernel.func` of `module` into a new LLVM module.
pub fn emit_module<'ctx>(
    ctx: &Context,
    module: Operation,
    llvm: &'ctx LlvmContext,
) -> Result<Module<'ctx>, HostError> {
    let out = llvm.create_module("strata_kernels");
    for kernel in kernel_funcs(ctx, module) {
        emit::emit_kernel(ctx, kernel, llvm, &out)?;
    }
    Ok(out)
}

/// The LLVM IR of `module`'s kernels, before optimization (with `optimize`:
/// after `default<O3>` for the host CPU).
pub fn translate_to_llvm_ir(
    ctx: &Context,
    module: Operation,
    optimize: bool,
) -> Result<String, HostError> {
    let llvm = LlvmContext::create();
    let out = emit_module(ctx, module, &llvm)?;
    if optimize {
        let machine = crate::llvm::host_target_machine()?;
        crate::llvm::optimize(&out, &machine)?;
    } else {
        out.verify()
            .map_err(|e| LlvmError(format!("invalid module: {e}")))?;
    }
    Ok(out.print_to_string().to_string())
}

/// JIT-compile every `kernel.func` of `module` for the host CPU.
pub fn compile(ctx: &Context, module: Operation) -> Result<JitModule, HostError> {
    let names: Vec<String> = kernel_funcs(ctx, module)
        .into_iter()
        .map(|k| kernel_name(ctx, k))
        .collect();
    let mut failure = None;
    let jit = JitModule::compile(&names, |llvm| match emit_module(ctx, module, llvm) {
        Ok(m) => Ok(m),
        Err(e) => {
            let message = e.to_string();
            failure = Some(e);
            Err(LlvmError(message))
        }
    });
    match (jit, failure) {
        (Ok(jit), _) => Ok(jit),
        (Err(_), Some(e)) => Err(e),
        (Err(e), None) => Err(HostError::Llvm(e)),
    }
}
