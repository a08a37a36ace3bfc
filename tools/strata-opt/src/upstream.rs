//! `--upstream-pass-pipeline`: upstream MLIR's own passes on strata IR.
//!
//! The module (only ops of the dialects strata shares with MLIR) is printed
//! in the generic form with its locations, parsed, verified and transformed
//! by upstream MLIR 22 through `strata-mlir` (melior), and the result read
//! back by strata's parser, so that the output is printed as any
//! `strata-opt` output is.

use strata_ir::walk::{walk, WalkOrder, WalkResult};
use strata_ir::{Context, Diagnostic, Operation};

/// The dialects whose ops upstream MLIR knows as strata defines them.
const SHARED: &[&str] = &["builtin", "func", "arith", "math", "scf", "cf"];

/// Run `pipeline` through upstream MLIR on `module`; the new module, or the
/// chunk's diagnostics. The outer error ends the run (upstream's own
/// diagnostics, already rendered).
pub(crate) fn run(
    ctx: &mut Context,
    module: Operation,
    name: &str,
    pipeline: &str,
) -> Result<Result<Operation, Vec<Diagnostic>>, String> {
    let mut foreign = None;
    walk(ctx, module, WalkOrder::PreOrder, |op| {
        let dialect = ctx.op_name_str(op).split('.').next().unwrap_or_default();
        if SHARED.contains(&dialect) {
            WalkResult::Advance
        } else {
            foreign = Some(op);
            WalkResult::Interrupt
        }
    });
    if let Some(op) = foreign {
        let message = format!(
            "'{}' is not an op of a dialect upstream MLIR shares with strata ({}): --upstream-pass-pipeline cannot run on it",
            ctx.op_name_str(op),
            SHARED.join(", ")
        );
        return Ok(Err(vec![Diagnostic::error(ctx.op_loc(op), message)]));
    }
    let text = strata_ir::printer::print_operation(
        ctx,
        module,
        strata_ir::printer::PrintOptions {
            generic: true,
            debug_info: true,
        },
    );
    let result = transform(&text, name, pipeline)?;
    let buffer = strata_ir::diagnostics::SourceBuffer::new(name.to_string(), result);
    Ok(strata_ir::parser::parse_source(ctx, &buffer))
}

#[cfg(feature = "mlir")]
fn transform(text: &str, name: &str, pipeline: &str) -> Result<String, String> {
    strata_mlir::upstream::Upstream::new()
        .run_pipeline(text, name, pipeline)
        .map_err(|e| e.to_string())
}

#[cfg(not(feature = "mlir"))]
fn transform(_: &str, name: &str, _: &str) -> Result<String, String> {
    Err(format!(
        "{name}: error: --upstream-pass-pipeline needs upstream MLIR: this strata-opt was built without the `mlir` feature"
    ))
}
