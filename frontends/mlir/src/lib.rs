//! Interop with upstream MLIR: modules that torch-mlir, TensorFlow/TFLite
//! or onnx-mlir emit in the TOSA dialect, imported into strata's `graph`
//! dialect.
//!
//! This is the one crate of the workspace that links MLIR (through
//! melior, statically: Debian ships MLIR's C API as static libraries). The
//! upstream parser reads and verifies the module with every upstream
//! dialect registered, and its diagnostics come back with their locations
//! ([`upstream`]); the importer then walks the upstream IR and builds the
//! `graph` ops that compute the same thing ([`tosa`]), checking each
//! result's type against the one the TOSA op declares. An op without a
//! `graph` counterpart is a located error that names it.
//!
//! Types and attributes cross between the two IRs as text: both print
//! MLIR's syntax, so a `tensor<2x3xf32>` or a `dense<...>` constant that
//! upstream prints, strata parses.

pub mod export;
pub mod tosa;
pub mod upstream;

use std::path::Path;

use strata_ir::{Context, Operation};

/// Why a module could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The upstream parser or verifier rejected the module.
    #[error("{}", .0.join("\n"))]
    Upstream(Vec<String>),
    /// Ops the importer does not convert, each with its location.
    #[error("{}", unsupported_message(.0))]
    Unsupported(Vec<(String, String)>),
    /// An op that could not be converted, at its location.
    #[error("{location}: error: '{op}': {message}")]
    Convert {
        location: String,
        op: String,
        message: String,
    },
    /// The module's file could not be read.
    #[error("{path}: {message}")]
    Io { path: String, message: String },
}

fn unsupported_message(ops: &[(String, String)]) -> String {
    let lines: Vec<String> = ops
        .iter()
        .map(|(loc, op)| format!("{loc}: error: '{op}' has no counterpart in the graph dialect"))
        .collect();
    lines.join("\n")
}

/// Whether `text` is an upstream module that [`import_text`] takes: it
/// uses ops of the TOSA dialect.
pub fn is_tosa(text: &str) -> bool {
    // An op's name follows `= ` (a result), `"` (the generic form) or the
    // start of a line (no results).
    text.contains("= tosa.") || text.contains("\"tosa.") || text.contains("\n  tosa.")
}

/// Import the TOSA module in `text` (named `name` in locations) into a
/// `builtin.module` of `graph` ops in `ctx`. Each `func.func` becomes one
/// function of the same name and signature.
pub fn import_text(ctx: &mut Context, text: &str, name: &str) -> Result<Operation, ImportError> {
    let upstream = upstream::Upstream::new();
    let module = upstream.parse(text, name)?;
    tosa::import(ctx, &module, name)
}

/// [`import_text`] of the file at `path`.
pub fn import_file(ctx: &mut Context, path: &Path) -> Result<Operation, ImportError> {
    let text = std::fs::read_to_string(path).map_err(|e| ImportError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    import_text(ctx, &text, &path.display().to_string())
}
