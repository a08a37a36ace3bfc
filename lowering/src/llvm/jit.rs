//! The JIT: a module compiled for the host CPU by LLVM's MCJIT, owning its
//! LLVM context, with the entry points of its kernels.

use std::collections::HashMap;

use inkwell::context::Context;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::OptimizationLevel;

use super::LlvmError;

/// The entry point of a compiled kernel: runs the programs
/// `begin..end` of a grid of `gx * gy * gz` programs, with `args` its
/// parameters, one 8-byte slot each (a pointer, an integer sign-extended to
/// 64 bits, or a float widened to `f64`).
pub type HostKernel = unsafe extern "C" fn(*const u64, i64, i64, i64, i64, i64);

/// A JIT-compiled module. The entry points stay valid while it lives.
pub struct JitModule {
    // Field order is drop order: the engine (and its module) before the context.
    engine: Option<ExecutionEngine<'static>>,
    kernels: HashMap<String, usize>,
    context: *mut Context,
}

// The engine is used only to look symbols up, under `&mut self` or at
// construction; the entry points are plain machine code that any thread may
// run at once (each program writes its own elements).
unsafe impl Send for JitModule {}
unsafe impl Sync for JitModule {}

impl JitModule {
    /// Build a module in a fresh LLVM context with `build`, optimize it for
    /// the host CPU, compile it and look up `entry_points`.
    pub fn compile<F>(entry_points: &[String], build: F) -> Result<JitModule, LlvmError>
    where
        F: for<'ctx> FnOnce(&'ctx Context) -> Result<inkwell::module::Module<'ctx>, LlvmError>,
    {
        JitModule::compile_with(entry_points, build, true)
    }

    /// [`JitModule::compile`], optimizing the module first only when
    /// `optimize` (a module optimized before, as an artifact's bitcode, is
    /// compiled as it is).
    pub fn compile_with<F>(
        entry_points: &[String],
        build: F,
        optimize: bool,
    ) -> Result<JitModule, LlvmError>
    where
        F: for<'ctx> FnOnce(&'ctx Context) -> Result<inkwell::module::Module<'ctx>, LlvmError>,
    {
        JitModule::compile_at(entry_points, build, optimize, OptimizationLevel::Aggressive)
    }

    /// [`JitModule::compile_with`], generating machine code at `codegen`
    /// (`None`: LLVM's fast instruction selection, for code that runs
    /// briefly, as emulated GPU kernels in the tests).
    pub fn compile_at<F>(
        entry_points: &[String],
        build: F,
        optimize: bool,
        codegen: OptimizationLevel,
    ) -> Result<JitModule, LlvmError>
    where
        F: for<'ctx> FnOnce(&'ctx Context) -> Result<inkwell::module::Module<'ctx>, LlvmError>,
    {
        let context: *mut Context = Box::into_raw(Box::new(Context::create()));
        let mut jit = JitModule {
            engine: None,
            kernels: HashMap::new(),
            context,
        };
        // SAFETY: the context lives until `jit` is dropped, after the engine.
        let ctx: &'static Context = unsafe { &*context };
        let module = build(ctx)?;
        if optimize {
            let machine = super::host_target_machine()?;
            super::optimize(&module, &machine)?;
        }
        // `STRATA_DUMP_LLVM=DIR` writes each optimized module to DIR/<kernel>.ll.
        if let Some(dir) = std::env::var_os("STRATA_DUMP_LLVM") {
            let name = entry_points.first().map_or("module", String::as_str);
            let path = std::path::Path::new(&dir).join(format!("{name}.ll"));
            let _ = std::fs::create_dir_all(&dir);
            let _ = std::fs::write(path, module.print_to_string().to_string());
        }
        // MCJIT makes its own target machine for a generic CPU: without these
        // attributes the vector code `optimize` produced for the host (AVX2,
        // FMA) would be split into SSE2 halves and `rint` calls.
        super::set_host_cpu(&module, ctx);
        let engine = module
            .create_jit_execution_engine(codegen)
            .map_err(|e| LlvmError(e.to_string()))?;
        for name in entry_points {
            let address = engine
                .get_function_address(name)
                .map_err(|e| LlvmError(format!("no entry point '{name}': {e}")))?;
            jit.kernels.insert(name.clone(), address);
        }
        jit.engine = Some(engine);
        Ok(jit)
    }

    /// Compile the LLVM bitcode of a module that defines `name` (in a fresh
    /// LLVM context, on the calling thread), optimizing it first unless it
    /// is `optimized` already.
    pub fn compile_bitcode(
        name: &str,
        bitcode: &[u8],
        optimized: bool,
        codegen: OptimizationLevel,
    ) -> Result<JitModule, LlvmError> {
        JitModule::compile_at(
            &[name.to_string()],
            |ctx| parse_bitcode(ctx, name, bitcode),
            !optimized,
            codegen,
        )
    }

    /// The entry points of the module's kernels, by name.
    pub fn entry_points(&self) -> impl Iterator<Item = (&str, usize)> {
        self.kernels.iter().map(|(n, &a)| (n.as_str(), a))
    }

    /// The entry point of kernel `name`.
    pub fn kernel(&self, name: &str) -> Option<HostKernel> {
        let address = *self.kernels.get(name)?;
        // SAFETY: the address is that of a function of type `HostKernel`
        // (emitted by `kernel_to_host`), alive while `self` is.
        Some(unsafe { std::mem::transmute::<usize, HostKernel>(address) })
    }
}

impl Drop for JitModule {
    fn drop(&mut self) {
        self.engine = None;
        // SAFETY: created by `Box::into_raw` in `compile`; nothing borrows it now.
        unsafe { drop(Box::from_raw(self.context)) };
    }
}

/// A way to run `tasks` independent tasks, perhaps on several threads at
/// once: what [`launch`] spreads a grid's programs with. The runtime's
/// plan implements it with its own spinning workers; a rayon pool
/// implements it too.
pub trait Parallel {
    /// How many threads share the tasks (1: the calling thread alone).
    fn threads(&self) -> usize;
    /// Run `task(i)` for every `i` in `0..tasks`, each exactly once, and
    /// return when all have returned.
    fn for_each(&self, tasks: usize, task: &(dyn Fn(usize) + Sync));
}

impl Parallel for rayon::ThreadPool {
    fn threads(&self) -> usize {
        self.current_num_threads()
    }

    fn for_each(&self, tasks: usize, task: &(dyn Fn(usize) + Sync)) {
        self.scope(|s| {
            for i in 0..tasks {
                s.spawn(move |_| task(i));
            }
        });
    }
}

/// Run every program of a `gx * gy * gz` grid of `kernel` on `args`, split
/// into contiguous blocks of programs over the threads of `parallel` (on
/// the calling thread alone when it is `None` or the grid has one
/// program).
///
/// # Safety
/// `args` must hold what the kernel's parameters expect: pointers to
/// buffers large enough for every access the programs make, and scalars.
pub unsafe fn launch(
    kernel: HostKernel,
    args: &[u64],
    grid: [i64; 3],
    parallel: Option<&dyn Parallel>,
) {
    let total = grid[0] * grid[1] * grid[2];
    if total <= 0 {
        return;
    }
    let args_addr = args.as_ptr() as usize;
    let run = move |begin: i64, end: i64| {
        // SAFETY: upheld by the caller of `launch`.
        unsafe {
            kernel(
                args_addr as *const u64,
                grid[0],
                grid[1],
                grid[2],
                begin,
                end,
            )
        }
    };
    match parallel {
        Some(parallel) if total > 1 && parallel.threads() > 1 => {
            // A few blocks per thread balance uneven programs.
            let blocks = (parallel.threads() as i64 * 4).min(total);
            let per = (total + blocks - 1) / blocks;
            let tasks = (total + per - 1) / per;
            parallel.for_each(tasks as usize, &|b| {
                let begin = b as i64 * per;
                run(begin, (begin + per).min(total));
            });
        }
        _ => run(0, total),
    }
}

/// Append `kernels` (entry addresses) to `/tmp/perf-<pid>.map`, so that
/// `perf report` names their samples. A kernel's extent is taken to reach
/// the next kernel's entry (4 KiB for the last), so the entries never
/// overlap.
pub fn write_perf_map(kernels: &[(&str, usize)]) {
    use std::io::Write;
    let mut entries: Vec<(usize, &str)> = kernels.iter().map(|&(n, a)| (a, n)).collect();
    entries.sort_unstable();
    let path = format!("/tmp/perf-{}.map", std::process::id());
    let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    else {
        return;
    };
    for (i, &(address, name)) in entries.iter().enumerate() {
        let size = entries.get(i + 1).map_or(0x1000, |next| next.0 - address);
        let _ = writeln!(file, "{address:x} {size:x} {name}");
    }
}

/// The module of `bitcode` (named `name` in errors) in `ctx`.
pub(crate) fn parse_bitcode<'ctx>(
    ctx: &'ctx Context,
    name: &str,
    bitcode: &[u8],
) -> Result<inkwell::module::Module<'ctx>, LlvmError> {
    let buffer = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(bitcode, name);
    inkwell::module::Module::parse_bitcode_from_buffer(&buffer, ctx)
        .map_err(|e| LlvmError(format!("bitcode of @{name}: {e}")))
}
