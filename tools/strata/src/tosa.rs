//! TOSA modules (upstream MLIR) as models: through `strata-mlir`, which
//! links MLIR, when the `mlir` feature (a default) is on; without it, a
//! TOSA module is an error that says so.

use std::path::Path;

use strata_ir::{Context, Operation};

use crate::DriverError;

/// Whether `text` is an upstream module in the TOSA dialect.
pub(crate) fn is_tosa(text: &str) -> bool {
    #[cfg(feature = "mlir")]
    return strata_mlir::is_tosa(text);
    #[cfg(not(feature = "mlir"))]
    return text.contains("= tosa.") || text.contains("\"tosa.");
}

/// The TOSA module `text` (named `name`) as a module of `graph` ops.
pub(crate) fn import_text(
    ctx: &mut Context,
    text: &str,
    name: &str,
) -> Result<Operation, DriverError> {
    #[cfg(feature = "mlir")]
    return strata_mlir::import_text(ctx, text, name)
        .map_err(|e| DriverError::Message(e.to_string()));
    #[cfg(not(feature = "mlir"))]
    {
        let _ = (ctx, text);
        Err(DriverError::Message(format!(
            "{name}: error: a TOSA module needs upstream MLIR: this strata was built without the `mlir` feature"
        )))
    }
}

/// [`import_text`] of the file at `path`.
pub(crate) fn import_file(ctx: &mut Context, path: &Path) -> Result<Operation, DriverError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
    import_text(ctx, &text, &path.display().to_string())
}
