//! Helpers shared by the runtime's integration tests: the example models,
//! a context with them imported, running a pipeline of passes, and a
//! session's source parsed from text.
// Each test crate uses some of these.
#![allow(dead_code)]

use std::path::PathBuf;

use strata_ir::pass::{Instrumentation, OpPassManager, PassRegistry};
use strata_ir::{Context, Operation};

/// The path of `name` in `examples/onnx/`.
pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/onnx")
        .join(name)
}

/// A context with every dialect and the interpreter's folding, and the
/// example model `file` imported into it.
pub fn import_example(file: &str) -> (Context, Operation) {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    strata_runtime::interp::install_folding(&mut ctx);
    let module = strata_onnx::import_file(&mut ctx, &example(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    (ctx, module)
}

/// Run `passes` (a pipeline's contents, without `builtin.module(...)`) on
/// `module`, with every pass of strata registered; a failure panics.
pub fn run_pipeline(ctx: &mut Context, module: Operation, passes: &str) {
    let mut registry = PassRegistry::default();
    strata_passes::register_all(&mut registry);
    strata_lowering::register_passes(&mut registry);
    let text = format!("builtin.module({passes})");
    let mut pm =
        OpPassManager::parse(&registry, &text).unwrap_or_else(|e| panic!("{}", e.render(&text)));
    pm.run(ctx, module, &mut Instrumentation::default())
        .unwrap_or_else(|d| panic!("{passes}: {}", d[0].message));
}

/// A session source that parses `text` (as `model.mlir`) with every
/// dialect registered, each time the session loads its model.
pub fn source(text: &'static str) -> strata_runtime::session::Source {
    std::sync::Arc::new(move || {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        let module = strata_ir::parser::parse_source(
            &mut ctx,
            &strata_ir::SourceBuffer::new("model.mlir", text),
        )
        .map_err(|d| d[0].message.clone())?;
        Ok::<(Context, Operation), String>((ctx, module))
    })
}
