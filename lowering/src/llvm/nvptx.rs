//! PTX from LLVM IR: LLVM's NVPTX back end for `sm_80` and `sm_90`, and the
//! check of the result with NVIDIA's `ptxas` (fetched by
//! `scripts/setup-cuda` into `.local/cuda`).

use inkwell::module::Module;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;

use super::LlvmError;

/// A GPU target: its `sm_XX` name, and the PTX ISA version to emit (LLVM 22
/// emits 7.8 for `sm_90` by default; `ptxas` 12.9 accepts up to 8.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuTarget {
    /// The compute capability, `80` or `90`.
    pub sm: u32,
    /// The PTX ISA version, as `(major, minor)`.
    pub ptx: (u32, u32),
}

impl GpuTarget {
    /// The target named `sm_80` or `sm_90`, at PTX 8.8.
    pub fn parse(name: &str) -> Option<GpuTarget> {
        let sm = match name {
            "sm_80" => 80,
            "sm_90" => 90,
            _ => return None,
        };
        Some(GpuTarget { sm, ptx: (8, 8) })
    }

    /// `sm_80`, `sm_90`.
    pub fn name(&self) -> String {
        format!("sm_{}", self.sm)
    }
}

/// The NVPTX target machine for `target`.
pub fn target_machine(target: GpuTarget) -> Result<TargetMachine, LlvmError> {
    static INIT: std::sync::Once = std::sync::Once::new();
    INIT.call_once(|| Target::initialize_nvptx(&InitializationConfig::default()));
    let triple = TargetTriple::create("nvptx64-nvidia-cuda");
    let t = Target::from_triple(&triple).map_err(|e| LlvmError(e.to_string()))?;
    let features = format!("+ptx{}{}", target.ptx.0, target.ptx.1);
    t.create_target_machine(
        &triple,
        &target.name(),
        &features,
        OptimizationLevel::Aggressive,
        RelocMode::Default,
        CodeModel::Default,
    )
    .ok_or_else(|| LlvmError(format!("no NVPTX target machine for {}", target.name())))
}

/// The PTX of `module` (verified first) for `target`.
pub fn ptx(module: &Module<'_>, target: GpuTarget) -> Result<String, LlvmError> {
    module
        .verify()
        .map_err(|e| LlvmError(format!("invalid module: {e}")))?;
    let machine = target_machine(target)?;
    module.set_triple(&machine.get_triple());
    module.set_data_layout(&machine.get_target_data().get_data_layout());
    let buffer = machine
        .write_to_memory_buffer(module, FileType::Assembly)
        .map_err(|e| LlvmError(e.to_string()))?;
    String::from_utf8(buffer.as_slice().to_vec())
        .map_err(|_| LlvmError("the PTX is not UTF-8".into()))
}

/// What `ptxas -v` reports for one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxasKernel {
    pub name: String,
    pub registers: u32,
    /// Bytes spilled to local memory (stores).
    pub spill_stores: u32,
    pub spill_loads: u32,
}

/// Where `ptxas` is: `$STRATA_PTXAS`, else the one `scripts/setup-cuda`
/// puts in this checkout's `.local/cuda/bin`, else `ptxas` on `PATH`.
pub fn ptxas_path() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("STRATA_PTXAS") {
        return Some(p.into());
    }
    let local = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.local/cuda/bin/ptxas");
    if local.is_file() {
        return Some(local);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("ptxas"))
            .find(|p| p.is_file())
    })
}

/// Assembles `ptx` for `target` with `ptxas -v` (into nothing) and returns
/// what it reports per kernel; a rejection is an error with ptxas's
/// message.
pub fn check_with_ptxas(ptx: &str, target: GpuTarget) -> Result<Vec<PtxasKernel>, LlvmError> {
    let ptxas = ptxas_path().ok_or_else(|| {
        LlvmError("ptxas not found: run scripts/setup-cuda (or set STRATA_PTXAS)".into())
    })?;
    let dir = std::env::temp_dir().join(format!("strata-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| LlvmError(e.to_string()))?;
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = dir.join(format!(
        "k{seq}-{}.ptx",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::write(&file, ptx).map_err(|e| LlvmError(e.to_string()))?;
    let out = std::process::Command::new(&ptxas)
        .arg(format!("-arch={}", target.name()))
        .arg("-v")
        .arg("-o")
        .arg("/dev/null")
        .arg(&file)
        .output()
        .map_err(|e| LlvmError(format!("{}: {e}", ptxas.display())));
    let _ = std::fs::remove_file(&file);
    let out = out?;
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(LlvmError(format!(
            "ptxas rejected the PTX for {}:\n{log}",
            target.name()
        )));
    }
    Ok(parse_ptxas_log(&log))
}

/// The kernels of a `ptxas -v` log: `Compiling entry function 'k'`, then
/// `N bytes spill stores, M bytes spill loads` and `Used R registers`.
fn parse_ptxas_log(log: &str) -> Vec<PtxasKernel> {
    let mut out: Vec<PtxasKernel> = Vec::new();
    let number_before = |line: &str, word: &str| -> Option<u32> {
        let i = line.find(word)?;
        line[..i].split_whitespace().last()?.parse().ok()
    };
    for line in log.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            let name = rest.split('\'').next().unwrap_or_default().to_string();
            out.push(PtxasKernel {
                name,
                registers: 0,
                spill_stores: 0,
                spill_loads: 0,
            });
        } else if let Some(k) = out.last_mut() {
            if let Some(n) = number_before(line, "bytes spill stores") {
                k.spill_stores = n;
            }
            if let Some(n) = number_before(line, "bytes spill loads") {
                k.spill_loads = n;
            }
            if let Some(n) = number_before(line, "registers") {
                k.registers = n;
            }
        }
    }
    out
}
