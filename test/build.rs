//! The test programs that link `strata-mlir` (`doc_counts`) load upstream
//! MLIR's shared `libMLIR.so` from LLVM 22's library directory, which is
//! not on the loader's default path: record it as their run path
//! (`frontends/mlir/build.rs` says why MLIR is linked shared). The
//! directory comes from `MLIR_SYS_220_PREFIX`, as `mlir-sys` takes it
//! (`.cargo/config.toml` sets it): `strata-mlir` is a dev-dependency here,
//! so its `DEP_STRATA_MLIR_LIB` does not reach this script.

fn main() {
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    println!("cargo:rustc-link-arg=-Wl,-rpath,{prefix}/lib");
}
