//! LLVM through inkwell: the host target machine, the `default<O3>`
//! pipeline, the JIT that turns a module into callable kernels, and PTX
//! from the NVPTX back end (`nvptx`).

pub(crate) mod jit;
pub mod nvptx;

pub use jit::{launch, write_perf_map, HostKernel, JitModule, Parallel};

use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;

/// An error of LLVM itself (initialization, verification, optimization, JIT).
#[derive(Debug, thiserror::Error)]
#[error("LLVM: {0}")]
pub struct LlvmError(pub String);

/// Initialize LLVM's native target once per process (before any thread
/// compiles: LLVM's target registry is not safe to initialize concurrently).
pub fn initialize() -> Result<(), LlvmError> {
    static INIT: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    INIT.get_or_init(|| Target::initialize_native(&InitializationConfig::default()))
        .clone()
        .map_err(LlvmError)
}

/// The host CPU's target machine (its triple, CPU name and features), at O3.
pub fn host_target_machine() -> Result<TargetMachine, LlvmError> {
    initialize()?;
    let triple: TargetTriple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| LlvmError(e.to_string()))?;
    let cpu = TargetMachine::get_host_cpu_name().to_string();
    let features = TargetMachine::get_host_cpu_features().to_string();
    target
        .create_target_machine(
            &triple,
            &cpu,
            &features,
            OptimizationLevel::Aggressive,
            RelocMode::Default,
            CodeModel::JITDefault,
        )
        .ok_or_else(|| LlvmError(format!("no target machine for {}", triple)))
}

/// The host CPU's name, as LLVM calls it (`znver3`, `skylake-avx512`).
pub fn host_cpu_name() -> String {
    TargetMachine::get_host_cpu_name().to_string()
}

/// The host CPU's features, as LLVM lists them (`+avx2,+fma,-avx512f,...`):
/// machine code made for one list runs on a CPU with the same list.
pub fn host_cpu_features() -> String {
    TargetMachine::get_host_cpu_features().to_string()
}

/// The host CPU's target machine for object files that a shared library is
/// linked from: position-independent code, the default code model.
pub fn host_object_machine() -> Result<TargetMachine, LlvmError> {
    initialize()?;
    let triple: TargetTriple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| LlvmError(e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            &host_cpu_name(),
            &host_cpu_features(),
            OptimizationLevel::Aggressive,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| LlvmError(format!("no target machine for {}", triple)))
}

/// Whether the host converts between f16 and f32 in hardware. On x86 that
/// takes F16C; without it LLVM calls compiler-rt routines
/// (`__extendhfsf2`), which the JIT cannot resolve.
pub fn host_converts_f16() -> bool {
    let triple = TargetMachine::get_default_triple();
    let is_x86 = triple.as_str().to_string_lossy().starts_with("x86");
    !is_x86
        || TargetMachine::get_host_cpu_features()
            .to_string()
            .split(',')
            .any(|f| f == "+f16c")
}

/// Give every function defined in `module` the host's `target-cpu` and
/// `target-features`, so that code generation (the JIT's own target
/// machine) uses the instructions the optimizer planned for.
pub fn set_host_cpu(module: &inkwell::module::Module<'_>, ctx: &inkwell::context::Context) {
    let cpu = TargetMachine::get_host_cpu_name().to_string();
    let features = TargetMachine::get_host_cpu_features().to_string();
    let loc = inkwell::attributes::AttributeLoc::Function;
    for f in module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
    {
        f.add_attribute(loc, ctx.create_string_attribute("target-cpu", &cpu));
        f.add_attribute(
            loc,
            ctx.create_string_attribute("target-features", &features),
        );
    }
}

/// Verify `module`, then run `default<O3>` on it for `machine`.
pub fn optimize(
    module: &inkwell::module::Module<'_>,
    machine: &TargetMachine,
) -> Result<(), LlvmError> {
    module
        .verify()
        .map_err(|e| LlvmError(format!("invalid module: {e}")))?;
    module.set_triple(&machine.get_triple());
    module.set_data_layout(&machine.get_target_data().get_data_layout());
    module
        .run_passes("default<O3>", machine, PassBuilderOptions::create())
        .map_err(|e| LlvmError(e.to_string()))
}
