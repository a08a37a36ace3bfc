//! Host kernels as machine code that outlives the process: each kernel's
//! module optimized for the host CPU, compiled to an object file, and the
//! objects linked into one shared library by the system's C compiler
//! driver (`cc`, or `$STRATA_CC`). A plan cache entry (and an artifact)
//! carries the library, so that a later process loads it with the dynamic
//! loader instead of generating code again.
//!
//! The library is made for the CPU it was compiled on (its name and
//! features): a loader on another CPU generates code from the optimized
//! bitcode that travels with it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use inkwell::context::Context as LlvmContext;
use inkwell::targets::FileType;
use strata_ir::{Context, Operation};

use super::{emit_bitcode, HostError};
use crate::llvm::{jit::parse_bitcode, LlvmError};

/// The machine code of a module's kernels.
pub struct NativeCode {
    /// Each kernel's module after `default<O3>` for the host CPU, by
    /// kernel name (what a loader on another CPU compiles).
    pub bitcode: Vec<(String, Vec<u8>)>,
    /// The shared library that defines every kernel, or why none was made
    /// (no C compiler driver on the machine, a failed link).
    pub library: Result<Vec<u8>, String>,
}

/// Optimizes each kernel of `module` for the host CPU and compiles it to
/// an object file (on up to `available_parallelism` threads), then links
/// the objects into a shared library.
pub fn emit_native(ctx: &Context, module: Operation) -> Result<NativeCode, HostError> {
    crate::llvm::initialize()?;
    let jobs = emit_bitcode(ctx, module)?;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((name, bitcode)) = jobs.get(i) else {
                    break;
                };
                let r = object_code(name, bitcode);
                results
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push((i, r));
            });
        }
    });
    let mut results = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    results.sort_by_key(|(i, _)| *i);
    let mut bitcode = Vec::with_capacity(jobs.len());
    let mut objects = Vec::with_capacity(jobs.len());
    for ((name, _), (_, r)) in jobs.iter().zip(results) {
        let (optimized, object) = r?;
        bitcode.push((name.clone(), optimized));
        objects.push(object);
    }
    let library = link_shared_library(&objects);
    Ok(NativeCode { bitcode, library })
}

/// Kernel `name`'s module (`bitcode`, before optimization) optimized for
/// the host CPU: its optimized bitcode and its object file.
fn object_code(name: &str, bitcode: &[u8]) -> Result<(Vec<u8>, Vec<u8>), LlvmError> {
    let llvm = LlvmContext::create();
    let module = parse_bitcode(&llvm, name, bitcode)?;
    let machine = crate::llvm::host_target_machine()?;
    crate::llvm::optimize(&module, &machine)?;
    let optimized = module.write_bitcode_to_memory().as_slice().to_vec();
    crate::llvm::set_host_cpu(&module, &llvm);
    let object = crate::llvm::host_object_machine()?
        .write_to_memory_buffer(&module, FileType::Object)
        .map_err(|e| LlvmError(format!("object code of @{name}: {e}")))?;
    Ok((optimized, object.as_slice().to_vec()))
}

/// A directory of this process's own under the temporary directory
/// (created here, readable by its owner only: never one that existed),
/// removed when dropped.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new(what: &str) -> Result<ScratchDir, String> {
        use std::os::unix::fs::DirBuilderExt;
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let mut last = String::new();
        for _ in 0..8 {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir()
                .join(format!("strata-{what}-{}-{nanos}-{n}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => return Ok(ScratchDir(dir)),
                Err(e) => last = format!("{}: {e}", dir.display()),
            }
        }
        Err(last)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The C compiler driver that links shared libraries: `$STRATA_CC`, else
/// `cc`.
fn linker() -> std::ffi::OsString {
    std::env::var_os("STRATA_CC").unwrap_or_else(|| "cc".into())
}

/// Links `objects` into a shared library (`cc -shared`, symbols bound
/// within the library first, the math library for the calls LLVM may
/// leave to it): the library's bytes, or why it could not be made.
pub fn link_shared_library(objects: &[Vec<u8>]) -> Result<Vec<u8>, String> {
    let scratch = ScratchDir::new("link")?;
    // Every symbol must resolve when the library is linked (`-z defs`):
    // a library that links loads, with no lookup left to fail at a call.
    let mut args: Vec<std::ffi::OsString> = vec![
        "-shared".into(),
        "-nostartfiles".into(),
        "-Wl,-Bsymbolic".into(),
        "-Wl,-z,defs".into(),
        "-o".into(),
    ];
    let out = scratch.path().join("kernels.so");
    args.push(out.clone().into_os_string());
    for (i, object) in objects.iter().enumerate() {
        let path = scratch.path().join(format!("k{i}.o"));
        std::fs::write(&path, object).map_err(|e| format!("{}: {e}", path.display()))?;
        args.push(path.into_os_string());
    }
    args.push("-lm".into());
    let cc = linker();
    let output = Command::new(&cc)
        .args(&args)
        .output()
        .map_err(|e| format!("cannot run the linker '{}': {e}", cc.to_string_lossy()))?;
    if !output.status.success() {
        return Err(format!(
            "'{}' failed to link the kernels ({}): {}",
            cc.to_string_lossy(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))
}

/// Loads a shared library made by [`emit_native`] (its `bytes`) and looks
/// up the kernels `names`. The bytes are written to a file of this
/// process's own under the temporary directory, loaded, and the file
/// removed (the loaded mapping stays).
///
/// # Safety
/// `bytes` must be a library [`emit_native`] made on a CPU with this host's
/// name and features (a cache entry or artifact whose checksum was checked):
/// loading runs its initializers, and calling its kernels runs its code.
pub unsafe fn load_library(bytes: &[u8], names: &[String]) -> Result<super::HostKernels, String> {
    let scratch = ScratchDir::new("load")?;
    let path = scratch.path().join("kernels.so");
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    // Bound now (a symbol that does not resolve is an error here, not at a
    // kernel's call) and local (kernels of the same name in other plans'
    // libraries stay apart).
    let flags = libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL;
    // SAFETY: upheld by the caller: the library is one `emit_native` made.
    let library = unsafe { libloading::os::unix::Library::open(Some(&path), flags) }
        .map(libloading::Library::from)
        .map_err(|e| format!("cannot load the kernels' library: {e}"))?;
    let mut entries = std::collections::HashMap::new();
    for name in names {
        // SAFETY: every kernel `kernel_to_host` emits has this type.
        let symbol = unsafe { library.get::<crate::llvm::HostKernel>(name.as_bytes()) }
            .map_err(|e| format!("the kernels' library has no kernel @{name}: {e}"))?;
        entries.insert(name.clone(), *symbol);
    }
    // SAFETY: the entry points are functions of the library, which the
    // returned kernels own.
    Ok(unsafe { super::HostKernels::from_entry_points(std::sync::Arc::new(library), entries) })
}
