//! Link upstream MLIR as shared libraries: `libMLIR.so` and `libLLVM.so`,
//! the library strata's code generation (inkwell) uses, so the process
//! holds one LLVM and one MLIR, and no binary carries a static copy of
//! either (docs/mlir-interop.md).
//!
//! Debian ships MLIR's C API only as static archives (`libMLIRCAPI*.a`:
//! there is no `libMLIR-C.so`). `.cargo/config.toml` sets
//! `MLIR_SYS_LINK_SHARED=1`, so `mlir-sys` names `-lMLIR -lMLIR-C`; this
//! script writes the `libMLIR-C.so` it finds: a linker script that takes
//! the C API archives and, after them, `libMLIR.so` and `libLLVM.so`,
//! which define every C++ symbol the C API calls.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let lib = PathBuf::from(&prefix).join("lib");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rerun-if-changed=build.rs");
    if let Err(e) = write_c_api_script(&lib) {
        eprintln!("strata-mlir: cannot write the MLIR C API's linker script: {e}");
        std::process::exit(1);
    }
    let lib = lib.display();
    // This crate's own tests find libMLIR.so there (the driver's build
    // script does the same for `strata`).
    println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
    // For dependents' build scripts (DEP_STRATA_MLIR_LIB).
    println!("cargo:lib={lib}");
}

/// `OUT_DIR/libMLIR-C.so`: `INPUT(` every `libMLIRCAPI*.a` of `lib`, then
/// `libMLIR.so` and `libLLVM.so` `)`, and `OUT_DIR` on the link search
/// path.
fn write_c_api_script(lib: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let mut archives: Vec<PathBuf> = std::fs::read_dir(lib)
        .map_err(|e| format!("{}: {e}", lib.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libMLIRCAPI") && n.ends_with(".a"))
        })
        .collect();
    if archives.is_empty() {
        return Err(format!(
            "no libMLIRCAPI*.a in {} (is libmlir-22-dev installed?)",
            lib.display()
        )
        .into());
    }
    archives.sort();
    let mut script = String::from("/* Written by strata-mlir's build script. */\nINPUT(\n");
    for archive in &archives {
        writeln!(script, "  {}", archive.display())?;
    }
    for shared in ["libMLIR.so", "libLLVM.so"] {
        writeln!(script, "  {}", lib.join(shared).display())?;
    }
    script.push_str(")\n");
    std::fs::write(out.join("libMLIR-C.so"), script)?;
    println!("cargo:rustc-link-search=native={}", out.display());
    Ok(())
}
