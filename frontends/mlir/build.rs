//! Name the shared libraries `libMLIR.so` and `libLLVM.so` ahead of the
//! static archives that `mlir-sys` names, so that the linker resolves
//! LLVM's symbols against `libLLVM.so`, the library strata's code
//! generation (inkwell) uses, and takes no LLVM code from the static
//! archives: the process holds one LLVM. (Where the linker still takes
//! MLIR's C++ code from the static archives, as it does for the `strata`
//! binary, `libMLIR.so` is dropped as unneeded; either way MLIR is there
//! once.) Without this, the static archives bring a second copy of LLVM
//! into the binary (docs/mlir-interop.md).

fn main() {
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let lib = format!("{prefix}/lib");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rustc-link-search=native={lib}");
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    // This crate's own tests find libMLIR.so there (the driver's build
    // script does the same for `strata`).
    println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
    // For dependents' build scripts (DEP_STRATA_MLIR_LIB).
    println!("cargo:lib={lib}");
}
