//! `strata import`, and TOSA modules (upstream MLIR) as models: through
//! `strata-mlir`, which links MLIR, when the `mlir` feature (a default) is
//! on; without it, a TOSA module is an error that says so.

use std::path::Path;

use strata_ir::{Context, Operation};

use crate::{load, new_context, run_passes, verify, DriverError};

/// Whether `text` is an upstream module in the TOSA dialect.
pub(crate) fn is_tosa(text: &str) -> bool {
    #[cfg(feature = "mlir")]
    return strata_mlir::is_tosa(text);
    #[cfg(not(feature = "mlir"))]
    return text.contains("= tosa.") || text.contains("\"tosa.");
}

/// The TOSA module `text` (named `name`) as a module of `graph` ops.
pub(crate) fn tosa_text(
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

/// [`tosa_text`] of the file at `path`.
pub(crate) fn tosa_file(ctx: &mut Context, path: &Path) -> Result<Operation, DriverError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
    tosa_text(ctx, &text, &path.display().to_string())
}

/// `strata import`: the model as `graph` IR, printed or written to `output`.
pub(crate) fn import(
    model: &Path,
    from: Option<&str>,
    output: Option<&Path>,
    options: strata_ir::printer::PrintOptions,
    verify_shapes: bool,
) -> Result<(), DriverError> {
    let mut ctx = new_context();
    let onnx = model.extension().is_some_and(|e| e == "onnx");
    let module = match from {
        Some("onnx") => strata_onnx::import_file(&mut ctx, model)?,
        Some("tosa") => tosa_file(&mut ctx, model)?,
        Some(other) => {
            return Err(DriverError::Message(format!(
                "--from {other}: expected `onnx` or `tosa`"
            )))
        }
        None if onnx => strata_onnx::import_file(&mut ctx, model)?,
        None => load(&mut ctx, model)?,
    };
    verify(&ctx, module, &[])?;
    if verify_shapes {
        run_passes(
            &mut ctx,
            module,
            "builtin.module(graph-infer-shapes,graph-verify)",
        )?;
    }
    let text = strata_ir::printer::print_operation(&ctx, module, options);
    match output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| DriverError::Message(format!("{}: {e}", path.display()))),
        None => {
            // As strata-opt and mlir-opt: the module, then an empty line.
            outln!("{text}");
            Ok(())
        }
    }
}
