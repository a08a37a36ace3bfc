//! The ONNX backend model tests that the pinned `onnx` package ships beside
//! the node tests: `pytorch-converted/` and `pytorch-operator/` (models
//! exported by PyTorch at opset 6 and later) and `simple/` (small graphs,
//! sequence ops), each a directory with `model.onnx` and `test_data_set_*/`
//! run as the node tests are (eager mode against the shipped outputs,
//! ONNX's tolerances; `support/onnx_case.rs`); and `light/`, the model-zoo
//! architectures at opset 9 with constant weights (`light_<name>.onnx` and
//! `light_<name>_output_0.pb`), run on the input onnx's runner makes for
//! them (`arange(n) / n` in the input's shape, unknown sizes 1), and again
//! with seeded random weights against onnxruntime (rtol 1e-3, atol 1e-4),
//! since constant weights make every output element the same.
//!
//! The outcome of every test is recorded in `test/onnx/model-tests.expected`
//! (`suite/test pass`, `fail: why` or `skip: why`): a test that passed there
//! and does not now is a regression and fails the suite; any other change
//! fails too until the list is updated with `STRATA_BLESS=1`, which also
//! rewrites the counts and the table of reasons in docs/conformance.md.
//!
//! `STRATA_MODEL_TESTS=substring` runs the matching tests and prints their
//! outcomes (without the list). Without the data the driver fails, naming
//! `scripts/setup-onnx`, unless `STRATA_SKIP_ONNX=1` is set.

mod common;
#[path = "support/node_graph.rs"]
mod node_graph;
#[path = "support/onnx_case.rs"]
mod onnx_case;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use onnx_case::{
    import_outcome, op_types, outcome_problems, read_tensor, recorded_form, run_all, run_test,
    write_outcomes, Outcome, ONNX,
};
use prost::Message;
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::kernels::allclose;
use strata_runtime::{DType, Tensor};

/// A `light/` model: imported, run on onnx's made-up input and compared
/// with its output file; then, since its constant weights make every
/// output element the same, with seeded random weights against
/// onnxruntime (`scripts/randomize-weights.py`).
fn run_light(model_path: &Path) -> Outcome {
    let stem = model_path.with_extension("");
    let expected_path = PathBuf::from(format!("{}_output_0.pb", stem.display()));
    let mut ctx = strata_ir::Context::new();
    let expected = match read_tensor(&mut ctx, &expected_path) {
        Ok(t) => t,
        Err(o) => return o,
    };
    let shipped = run_light_model(model_path, None, &expected, ONNX);
    if shipped != Outcome::Pass {
        return shipped;
    }
    let name = stem
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let out = root().join("target/light-random").join(&name);
    let python = root().join(".local/onnx-venv/bin/python");
    let made = std::process::Command::new(&python)
        .arg(root().join("scripts/randomize-weights.py"))
        .arg(model_path)
        .arg("0")
        .arg(&out)
        .output();
    match made {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            return Outcome::Fail(format!(
                "randomize-weights.py: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ))
        }
        Err(e) => return Outcome::Fail(format!("{}: {e}", python.display())),
    }
    let load = |f: &str| strata_runtime::npy::load(&out.join(f)).map_err(|e| e.to_string());
    let (input, reference) = match (load("input_0.npy"), load("output_0.npy")) {
        (Ok(i), Ok(r)) => (i, r),
        (Err(e), _) | (_, Err(e)) => return Outcome::Fail(e),
    };
    // The real-model tolerance (issue 14): rtol 1e-3, atol 1e-4.
    let tol = strata_runtime::kernels::Tolerance::new(1e-3, 1e-4);
    let outcome = match run_light_model(&out.join("model.onnx"), Some(vec![input]), &reference, tol)
    {
        Outcome::Fail(m) => Outcome::Fail(format!("with random weights, against onnxruntime: {m}")),
        other => other,
    };
    // The models with random weights take 1.3 GB (VGG-19 alone 0.5 GB):
    // kept for scripts/bench/eager.py only when asked for.
    if std::env::var_os("STRATA_KEEP_LIGHT_RANDOM").is_none() {
        let _ = std::fs::remove_dir_all(&out);
    }
    outcome
}

/// Import `model_path`, run it on `inputs` (or onnx's made-up ones) and
/// compare its first output with `expected`.
fn run_light_model(
    model_path: &Path,
    inputs: Option<Vec<Tensor>>,
    expected: &Tensor,
    tol: strata_runtime::kernels::Tolerance,
) -> Outcome {
    let Ok(bytes) = std::fs::read(model_path) else {
        return Outcome::Fail("cannot read the model".into());
    };
    let Ok(model) = strata_onnx::proto::ModelProto::decode(bytes.as_slice()) else {
        return Outcome::Fail("the model does not decode".into());
    };
    if let Some(op) = op_types(&model)
        .into_iter()
        .find(|o| !strata_onnx::SUPPORTED_OPS.contains(&o.as_str()))
    {
        return Outcome::Skip(format!("unsupported op {op}"));
    }
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = match strata_onnx::import_model(&mut ctx, &model, "model.onnx") {
        Ok(m) => m,
        Err(e) => return import_outcome(&e),
    };
    let Some(func) = lookup_function(&ctx, module, "main") else {
        return Outcome::Fail("no @main".into());
    };
    let inputs = inputs.unwrap_or_else(|| made_up_inputs(&model));
    let outputs = match run_function(&ctx, func, inputs) {
        Ok(o) => o,
        Err(e) => return Outcome::Fail(format!("run: {e}")),
    };
    match outputs.first().map(|y| allclose(y, expected, tol)) {
        Some(Ok(())) => Outcome::Pass,
        Some(Err(m)) => Outcome::Fail(format!("output #0: {m}")),
        None => Outcome::Fail("no output".into()),
    }
}

/// onnx's runner's inputs for a `light/` model: `arange(n) / n` in each
/// input's shape (unknown sizes 1), in f32.
fn made_up_inputs(model: &strata_onnx::proto::ModelProto) -> Vec<Tensor> {
    use strata_onnx::proto::tensor_shape_proto::dimension::Value as DimValue;
    use strata_onnx::proto::type_proto::Value as TypeValue;
    let graph = model.graph.clone().unwrap_or_default();
    let weights: Vec<&str> = graph.initializer.iter().map(|t| t.name()).collect();
    let mut inputs = Vec::new();
    for input in graph.input.iter().filter(|i| !weights.contains(&i.name())) {
        let dims: Vec<usize> = input
            .r#type
            .as_ref()
            .and_then(|t| match &t.value {
                Some(TypeValue::TensorType(tt)) => tt.shape.clone(),
                _ => None,
            })
            .map(|s| {
                s.dim
                    .iter()
                    .map(|d| match d.value {
                        Some(DimValue::DimValue(v)) => v.max(0) as usize,
                        _ => 1,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let n: usize = dims.iter().product();
        // As NumPy computes it: in f64, rounded to f32.
        let values: Vec<f64> = (0..n)
            .map(|i| f64::from((i as f64 / n as f64) as f32))
            .collect();
        inputs.push(Tensor::from_f64_vec(DType::F32, &dims, &values));
    }
    inputs
}

/// The suites, directories of `onnx/backend/test/data/`.
const SUITES: [&str; 4] = ["light", "pytorch-converted", "pytorch-operator", "simple"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn main() -> ExitCode {
    let data = root().join(".local/onnx-model-tests");
    if !common::require(
        &data,
        "onnx model tests",
        "scripts/setup-onnx",
        "STRATA_SKIP_ONNX",
    ) {
        return ExitCode::SUCCESS;
    }
    let filter = std::env::var("STRATA_MODEL_TESTS").ok();
    let bless = common::env_flag("STRATA_BLESS");
    let mut tests: Vec<String> = Vec::new();
    for suite in SUITES {
        let mut names: Vec<String> = std::fs::read_dir(data.join(suite))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                let p = e.path();
                p.join("model.onnx").is_file()
                    || (suite == "light" && p.extension().is_some_and(|x| x == "onnx"))
            })
            .map(|e| format!("{suite}/{}", e.file_name().to_string_lossy()))
            .filter(|n| filter.as_ref().is_none_or(|f| n.contains(f.as_str())))
            .collect();
        names.sort();
        tests.extend(names);
    }
    let outcomes = run_all(
        &tests,
        |name| {
            let path = data.join(name);
            if name.starts_with("light/") {
                run_light(&path)
            } else {
                run_test(&path, false).1
            }
        },
        Outcome::Fail,
    );
    let current: BTreeMap<String, String> = tests
        .iter()
        .zip(&outcomes)
        .map(|(n, o)| (n.clone(), recorded_form(o)))
        .collect();
    if filter.is_some() {
        for (n, o) in &current {
            println!("{n} {o}");
        }
        return ExitCode::SUCCESS;
    }
    let list_path = root().join("test/onnx/model-tests.expected");
    if bless {
        let header = "Outcome of each ONNX model test (test/tests/onnx_models.rs): pass, fail: why, skip: why.\nRegenerate with STRATA_BLESS=1 cargo test -p strata-test --test onnx_models.";
        if let Err(e) = write_outcomes(&list_path, header, &current) {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    let mut problems = outcome_problems(&list_path, &current);
    // Counts per suite, and every test that does not pass with its reason.
    let mut summary =
        String::from("| suite | tests | passed | failed | skipped |\n|---|---:|---:|---:|---:|\n");
    let mut reasons = String::from("| test | outcome |\n|---|---|\n");
    let (mut all_passed, mut all) = (0, 0);
    for suite in SUITES {
        let of_suite: Vec<(&String, &String)> = current
            .iter()
            .filter(|(n, _)| n.starts_with(&format!("{suite}/")))
            .collect();
        let passed = of_suite.iter().filter(|(_, o)| *o == "pass").count();
        let failed = of_suite
            .iter()
            .filter(|(_, o)| o.starts_with("fail"))
            .count();
        let skipped = of_suite.len() - passed - failed;
        summary.push_str(&format!(
            "| `{suite}/` | {} | {passed} | {failed} | {skipped} |\n",
            of_suite.len()
        ));
        all_passed += passed;
        all += of_suite.len();
        for (n, o) in of_suite {
            if o != "pass" {
                reasons.push_str(&format!("| `{n}` | {} |\n", o.replace('|', "\\|")));
            }
        }
    }
    for (key, value) in [
        ("model-tests-passed", common::with_commas(all_passed)),
        ("model-tests-total", common::with_commas(all)),
        ("model-tests-summary", format!("\n{}\n", summary.trim_end())),
        ("model-tests-reasons", format!("\n{}\n", reasons.trim_end())),
    ] {
        problems.extend(common::check_generated_docs(key, &value));
    }
    println!("{summary}");
    for p in &problems {
        println!("{p}");
    }
    println!("onnx model tests: {all_passed} of {all} passed");
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
