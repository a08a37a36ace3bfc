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

pub(crate) mod abi;
mod emit;
pub(crate) mod fastmath;
pub mod native;
pub(crate) mod scalar;

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

/// The LLVM bitcode of each `kernel.func` of `module`, one module per
/// kernel (before optimization), by kernel name: what
/// [`compile_bitcode`] compiles, and what a host artifact carries.
pub fn emit_bitcode(ctx: &Context, module: Operation) -> Result<Vec<(String, Vec<u8>)>, HostError> {
    emit_modules(ctx, module, None)
}

/// One LLVM module per kernel, by kernel name, each defining its kernel
/// under `symbol` (by default the kernel's name).
fn emit_modules(
    ctx: &Context,
    module: Operation,
    symbol: Option<&str>,
) -> Result<Vec<(String, Vec<u8>)>, HostError> {
    let mut jobs: Vec<(String, Vec<u8>)> = Vec::new();
    for kernel in kernel_funcs(ctx, module) {
        let name = kernel_name(ctx, kernel);
        let symbol = symbol.unwrap_or(&name);
        let llvm = LlvmContext::create();
        let out = llvm.create_module(symbol);
        emit::emit_kernel_as(ctx, kernel, &llvm, &out, symbol)?;
        out.verify()
            .map_err(|e| LlvmError(format!("invalid module for @{name}: {e}")))?;
        jobs.push((name, out.write_bitcode_to_memory().as_slice().to_vec()));
    }
    Ok(jobs)
}

/// [`emit_bitcode`], each module optimized for the host CPU
/// (`default<O3>`): what a host artifact carries, so that loading it only
/// generates code ([`compile_bitcode`] with `optimized`).
pub fn emit_optimized_bitcode(
    ctx: &Context,
    module: Operation,
) -> Result<Vec<(String, Vec<u8>)>, HostError> {
    crate::llvm::initialize()?;
    let machine = crate::llvm::host_target_machine()?;
    let mut out = Vec::new();
    for (name, bitcode) in emit_bitcode(ctx, module)? {
        let llvm = LlvmContext::create();
        let m = crate::llvm::jit::parse_bitcode(&llvm, &name, &bitcode)?;
        crate::llvm::optimize(&m, &machine)?;
        out.push((name, m.write_bitcode_to_memory().as_slice().to_vec()));
    }
    Ok(out)
}

/// The symbol every kernel is emitted under for [`compile`], so that
/// kernels that differ only in their names have the same bitcode.
const SHARED_SYMBOL: &str = "strata_kernel";

/// JIT-compile every `kernel.func` of `module` for the host CPU. Kernels
/// that come out the same but for their names (the steps of an unrolled
/// recurrence, repeated blocks of a network) are compiled once: each is
/// emitted under one shared symbol, and equal bitcode compiles once (and
/// hits the in-process cache across models). An LSTM tagger's 246 kernels
/// are 26 distinct ones.
pub fn compile(ctx: &Context, module: Operation) -> Result<HostKernels, HostError> {
    let jobs = emit_modules(ctx, module, Some(SHARED_SYMBOL))?;
    compile_bitcode_at(
        jobs,
        false,
        inkwell::OptimizationLevel::Aggressive,
        Some(SHARED_SYMBOL),
    )
}

/// JIT-compile kernels from their bitcode (`(name, bitcode)`, each module
/// defining the kernel it is named after) for the host CPU.
///
/// The modules are optimized and compiled on up to
/// `available_parallelism` threads. Compiled kernels are cached in the
/// process by the hash of their bitcode, so a kernel compiled before (the
/// same model again, another shape bucket with the same kernel) is reused.
///
/// `optimized`: the bitcode was optimized already ([`emit_optimized_bitcode`]);
/// it is compiled as it is.
pub fn compile_bitcode(
    jobs: Vec<(String, Vec<u8>)>,
    optimized: bool,
) -> Result<HostKernels, HostError> {
    compile_bitcode_at(
        jobs,
        optimized,
        inkwell::OptimizationLevel::Aggressive,
        None,
    )
}

/// [`compile_bitcode`] of modules compiled as they are, with LLVM's fast
/// instruction selection: for kernels that run briefly and are compiled
/// often (the GPU kernels emulated on the host by the tests).
pub fn compile_bitcode_quickly(jobs: Vec<(String, Vec<u8>)>) -> Result<HostKernels, HostError> {
    compile_bitcode_at(jobs, true, inkwell::OptimizationLevel::None, None)
}

/// `entry`: the symbol each module defines its kernel under (by default
/// the kernel's name).
fn compile_bitcode_at(
    jobs: Vec<(String, Vec<u8>)>,
    optimized: bool,
    codegen: inkwell::OptimizationLevel,
    entry: Option<&str>,
) -> Result<HostKernels, HostError> {
    crate::llvm::initialize()?;
    let mut compiled: Vec<Option<Result<std::sync::Arc<JitModule>, LlvmError>>> =
        (0..jobs.len()).map(|_| None).collect();
    // Cached kernels first; the rest are compiled in parallel, each
    // distinct bitcode once (`same[i]`: the job whose compile `i` shares).
    let mut pending = Vec::new();
    let mut first: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    let mut same = Vec::new();
    for (i, (_, bitcode)) in jobs.iter().enumerate() {
        let f = *first.entry(bitcode.as_slice()).or_insert(i);
        same.push(f);
        if f != i {
            continue;
        }
        match cache::lookup(bitcode) {
            Some(jit) => compiled[i] = Some(Ok(jit)),
            None => pending.push(i),
        }
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(pending.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&i) = pending.get(k) else {
                    break;
                };
                let (name, bitcode) = &jobs[i];
                let r =
                    JitModule::compile_bitcode(entry.unwrap_or(name), bitcode, optimized, codegen)
                        .map(std::sync::Arc::new);
                if let Ok(jit) = &r {
                    cache::insert(bitcode, jit.clone());
                }
                results
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push((i, r));
            });
        }
    });
    for (i, r) in results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        compiled[i] = Some(r);
    }
    for (i, &f) in same.iter().enumerate() {
        if f != i {
            compiled[i] = match &compiled[f] {
                Some(Ok(jit)) => Some(Ok(jit.clone())),
                Some(Err(e)) => Some(Err(LlvmError(e.0.clone()))),
                None => None,
            };
        }
    }
    let mut kernels = HostKernels::default();
    for (i, ((name, _), r)) in jobs.into_iter().zip(compiled).enumerate() {
        let jit = r.ok_or_else(|| LlvmError(format!("@{name} was not compiled")))??;
        if let Some(address) = jit.kernel(entry.unwrap_or(&name)) {
            kernels.entries.insert(name, address);
        }
        if same[i] == i {
            kernels.owners.push(jit);
        }
    }
    if std::env::var_os("STRATA_PERF_MAP").is_some() {
        let entries: Vec<(&str, usize)> = kernels
            .entries
            .iter()
            .map(|(n, &e)| (n.as_str(), e as usize))
            .collect();
        crate::llvm::write_perf_map(&entries);
    }
    Ok(kernels)
}

/// Something that keeps compiled code alive: a JIT module, a loaded
/// shared library.
pub type CodeOwner = std::sync::Arc<dyn std::any::Any + Send + Sync>;

/// The compiled kernels of a module, by name, with what keeps their code
/// alive (JIT modules, or a shared library a cache entry held).
#[derive(Default)]
pub struct HostKernels {
    entries: std::collections::HashMap<String, crate::llvm::HostKernel>,
    owners: Vec<CodeOwner>,
}

impl HostKernels {
    /// Kernels whose entry points `entries` stay valid while `owner` lives.
    ///
    /// # Safety
    /// Each entry must be the address of a function of type
    /// [`HostKernel`](crate::llvm::HostKernel) (as `kernel_to_host`
    /// emits them) kept alive by `owner`.
    pub unsafe fn from_entry_points(
        owner: CodeOwner,
        entries: std::collections::HashMap<String, crate::llvm::HostKernel>,
    ) -> HostKernels {
        HostKernels {
            entries,
            owners: vec![owner],
        }
    }

    /// The entry point of kernel `name`.
    pub fn kernel(&self, name: &str) -> Option<crate::llvm::HostKernel> {
        self.entries.get(name).copied()
    }
}

/// The in-process cache of compiled kernels, keyed by their bitcode.
mod cache {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock, PoisonError};

    use crate::llvm::JitModule;

    /// At most this many kernels stay cached (the oldest are dropped).
    const CAPACITY: usize = 512;

    type Cache = Mutex<(HashMap<Vec<u8>, Arc<JitModule>>, Vec<Vec<u8>>)>;

    fn cache() -> &'static Cache {
        static CACHE: OnceLock<Cache> = OnceLock::new();
        CACHE.get_or_init(|| Mutex::new((HashMap::new(), Vec::new())))
    }

    pub(super) fn lookup(bitcode: &[u8]) -> Option<Arc<JitModule>> {
        let c = cache().lock().unwrap_or_else(PoisonError::into_inner);
        c.0.get(bitcode).cloned()
    }

    pub(super) fn insert(bitcode: &[u8], jit: Arc<JitModule>) {
        let mut c = cache().lock().unwrap_or_else(PoisonError::into_inner);
        let (map, order) = &mut *c;
        if map.insert(bitcode.to_vec(), jit).is_none() {
            order.push(bitcode.to_vec());
        }
        if order.len() > CAPACITY {
            let old = order.remove(0);
            map.remove(&old);
        }
    }
}
