//! With the `mlir` feature, `strata` loads upstream MLIR's shared
//! `libMLIR.so` from LLVM 22's library directory, which is not on the
//! loader's default path: record it as the run path of its binaries, tests and examples
//! (`frontends/mlir/build.rs` says why MLIR is linked shared).

fn main() {
    if let Ok(lib) = std::env::var("DEP_STRATA_MLIR_LIB") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
    }
}
