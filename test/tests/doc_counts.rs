//! The counts that README.md and docs/ quote about the code (the number of
//! graph ops, of supported ONNX op types, the hash of the default recipe)
//! are checked against the code; the
//! other drivers check the figures of their own runs (node tests, arith
//! fold cases). A count is written as `<!-- generated:KEY -->N<!-- /generated -->`;
//! `STRATA_BLESS=1 cargo test -p strata-test --test doc_counts` rewrites them.

mod common;

#[test]
fn graph_op_count() {
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let count = ctx
        .registry()
        .ops()
        .iter()
        .filter(|def| def.name.starts_with("graph."))
        .count();
    let problems = common::check_generated_docs("graph-ops", &common::with_commas(count));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The elementwise ops declared by their formula (`ScalarFn`), as
/// docs/graph.md lists them.
#[test]
fn scalar_ops_in_the_docs() {
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let mut names: Vec<String> = ctx
        .registry()
        .ops()
        .iter()
        .filter(|def| def.name.starts_with("graph."))
        .filter(|def| {
            ctx.registry()
                .interface::<strata_dialects::graph::scalar::ScalarFn>(def.name)
                .is_some()
        })
        .map(|def| format!("`{}`", &def.name["graph.".len()..]))
        .collect();
    names.sort();
    let problems = common::check_generated_docs("scalar-ops", &names.join(", "));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn onnx_op_count() {
    let count = strata_onnx::SUPPORTED_OPS.len();
    let problems = common::check_generated_docs("onnx-ops", &common::with_commas(count));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The TOSA ops that import, and those that do not (docs/mlir-interop.md).
/// MLIR 22's ops of the shared dialects that strata registers
/// (docs/conformance.md).
#[test]
fn core_dialect_coverage() {
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let (registered, missing) = strata_dialects::upstream_ops::core_coverage(&ctx);
    let missing: Vec<String> = missing.iter().map(|op| format!("`{op}`")).collect();
    let total = strata_dialects::upstream_ops::MLIR_CORE_OPS.len();
    let mut problems =
        common::check_generated_docs("core-ops", &format!("{} of {total}", registered.len()));
    let missing = if missing.is_empty() {
        "none".to_string()
    } else {
        missing.join(", ")
    };
    problems.extend(common::check_generated_docs("core-missing", &missing));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn tosa_coverage() {
    let (converted, missing) = strata_mlir::tosa::coverage();
    let missing: Vec<String> = missing.iter().map(|op| format!("`{op}`")).collect();
    let mut problems = common::check_generated_docs("tosa-ops", &converted.len().to_string());
    problems.extend(common::check_generated_docs(
        "tosa-missing",
        &missing.join(", "),
    ));
    let exported = strata_mlir::export::exported_ops().len().to_string();
    problems.extend(common::check_generated_docs("tosa-export-ops", &exported));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn default_recipe_hash() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../recipes/default.toml");
    let loaded = strata_recipe::Recipe::load(&path, &strata_recipe::LoadOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let problems = common::check_generated_docs("default-recipe-sha256", &loaded.recipe.sha256());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The pipelines that architecture.md, lowering.md and recipes.md show are
/// the ones graph mode runs, for the host and for the GPU form.
#[test]
fn pipelines_in_the_docs() {
    let block = |p: &str| format!("\n```text\n{p}\n```\n");
    let mut problems = common::check_generated_docs(
        "host-pipeline",
        &block(strata_runtime::compiled::HOST_PIPELINE),
    );
    problems.extend(common::check_generated_docs(
        "gpu-pipeline",
        &block(strata_runtime::compiled::GPU_PIPELINE),
    ));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `recipes/default.toml` becomes the pipeline that graph mode runs.
#[test]
fn the_default_recipe_is_the_host_pipeline() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../recipes/default.toml");
    let loaded = strata_recipe::Recipe::load(&path, &strata_recipe::LoadOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        loaded.recipe.pipeline(),
        strata_runtime::compiled::HOST_PIPELINE
    );
    let generated = strata_recipe::Recipe {
        codegen: strata_recipe::Codegen {
            kernel_selection: strata_recipe::KernelSelection::Generated,
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(
        generated.pipeline(),
        strata_runtime::compiled::HOST_PIPELINE_GENERATED
    );
}

#[test]
fn thousands_separators() {
    assert_eq!(common::with_commas(7), "7");
    assert_eq!(common::with_commas(100), "100");
    assert_eq!(common::with_commas(1376), "1,376");
    assert_eq!(common::with_commas(18641), "18,641");
    assert_eq!(common::with_commas(1234567), "1,234,567");
}
