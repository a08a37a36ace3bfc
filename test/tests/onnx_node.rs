//! The ONNX backend node tests: each `model.onnx` whose ops strata supports
//! is imported, run by the reference interpreter (eager mode) on every
//! `test_data_set_*/input_*.pb`, and compared with `output_*.pb` at ONNX's
//! tolerances (rtol 1e-3, atol 1e-7).
//!
//! The data come from the pinned `onnx` package that `scripts/setup-onnx`
//! installs into `.local/` (`.local/onnx-node-tests`). The outcome of each
//! test strata runs is recorded in `test/onnx/node-tests.expected`: a test
//! that passed there and fails now is a regression and fails this suite; a
//! listed failure that now passes, or a test missing from the list, fails
//! too until the list is updated with `STRATA_BLESS=1`. A summary table
//! (per op, and skips by reason) is printed, and written to
//! `target/onnx-node-tests.md` for docs/conformance.md.
//!
//! A lone `Dropout` in training mode draws random numbers; ONNX leaves the
//! generator to the implementation, so those tests are checked against the
//! law of dropout (kept elements scaled, dropped ones zero, a plausible
//! kept count) instead of the reference's values.
//!
//! `STRATA_NODE_TESTS=substring` runs only the matching tests (without
//! comparing against the list); any failure among them fails the run.
//!
//! A test is skipped only for a typed reason: an op type outside
//! `SUPPORTED_OPS`, an [`ImportError`] or [`ConvertError`] of the
//! "not supported" kind (an element type, attribute value or rank strata
//! does not implement). Every other problem is a failure. Integer and
//! boolean outputs are compared exactly, floats at ONNX's tolerances.
//!
//! Without the data the driver fails, naming the command that installs it,
//! unless `STRATA_SKIP_ONNX=1` is set; then it says it was skipped.

mod common;
#[path = "support/node_graph.rs"]
mod node_graph;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use prost::Message;
use strata_ir::Context;
use strata_onnx::proto::{ModelProto, TensorProto};
use strata_onnx::{ConvertError, ImportError};
use strata_runtime::interp::{attr_tensor, lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::Tensor;

use node_graph::GraphOutcome;

/// ONNX's tolerances for its node tests.
const ONNX: Tolerance = Tolerance::ONNX_NODE_TESTS;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Pass,
    /// Random outputs that satisfy the op's law (see `check_dropout_law`).
    PassByLaw,
    Fail(String),
    Skip(String),
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The op types of a model, `domain:Type` outside the default domain.
fn op_types(model: &ModelProto) -> Vec<String> {
    let mut ops: Vec<String> = model
        .graph
        .iter()
        .flat_map(|g| g.node.iter())
        .map(|n| {
            if n.domain().is_empty() || n.domain() == "ai.onnx" {
                n.op_type().to_string()
            } else {
                format!("{}:{}", n.domain(), n.op_type())
            }
        })
        .collect();
    ops.sort();
    ops.dedup();
    ops
}

fn read_tensor(ctx: &mut Context, path: &Path) -> Result<Tensor, Outcome> {
    let bytes =
        std::fs::read(path).map_err(|e| Outcome::Fail(format!("{}: {e}", path.display())))?;
    // The importer has already refused models with non-tensor inputs or
    // outputs, so every data file here must be a TensorProto.
    let proto = TensorProto::decode(bytes.as_slice())
        .map_err(|e| Outcome::Fail(format!("{}: not a TensorProto: {e}", path.display())))?;
    let attr = strata_onnx::tensor_attr(ctx, &proto).map_err(|e| match e {
        ConvertError::NotSupported(_) => Outcome::Skip(format!(
            "data type {}",
            strata_onnx::dtype_name(proto.data_type())
        )),
        ConvertError::Invalid(m) => Outcome::Fail(m),
    })?;
    attr_tensor(ctx, attr).map_err(Outcome::Fail)
}

fn numbered(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n = name
                .strip_prefix(prefix)?
                .strip_suffix(".pb")?
                .parse()
                .ok()?;
            Some((n, e.path()))
        })
        .collect();
    files.sort();
    files.into_iter().map(|(_, p)| p).collect()
}

/// A test's compiled outcomes: graph mode, and the GPU form (for what
/// passes in graph mode).
type Compiled = Option<(GraphOutcome, Option<GraphOutcome>)>;

/// What [`run_test`] finds: the test's ops, its eager and compiled outcomes.
type TestOutcome = (Vec<String>, Outcome, Compiled);

/// The eager outcome of a test and, when it passes, its compiled outcomes.
fn run_test(dir: &Path) -> TestOutcome {
    let model_path = dir.join("model.onnx");
    let Ok(bytes) = std::fs::read(&model_path) else {
        return (
            Vec::new(),
            Outcome::Fail("cannot read model.onnx".into()),
            None,
        );
    };
    let Ok(model) = ModelProto::decode(bytes.as_slice()) else {
        return (
            Vec::new(),
            Outcome::Fail("model.onnx does not decode".into()),
            None,
        );
    };
    let ops = op_types(&model);
    let unsupported: Vec<&String> = ops
        .iter()
        .filter(|o| !strata_onnx::SUPPORTED_OPS.contains(&o.as_str()))
        .collect();
    if let Some(first) = unsupported.first() {
        return (
            ops.clone(),
            Outcome::Skip(format!("unsupported op {first}")),
            None,
        );
    }
    let mut ctx = Context::new();
    let module = match strata_onnx::import_model(&mut ctx, &model, "model.onnx") {
        Ok(m) => m,
        Err(e) => return (ops, import_outcome(&e), None),
    };
    if let Err(diags) = strata_ir::verifier::verify(&ctx, module) {
        let msg = diags
            .iter()
            .map(|d| strata_ir::diagnostics::render(&ctx, d, &[]))
            .collect::<Vec<_>>()
            .join(" ");
        return (ops, Outcome::Fail(format!("verify: {}", msg.trim())), None);
    }
    let Some(func) = lookup_function(&ctx, module, "main") else {
        return (ops, Outcome::Fail("no @main".into()), None);
    };
    let mut sets: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("test_data_set_"))
        })
        .collect();
    sets.sort();
    let mut by_law = false;
    let mut graph_sets = Vec::new();
    for set in sets {
        let mut inputs = Vec::new();
        for f in numbered(&set, "input_") {
            match read_tensor(&mut ctx, &f) {
                Ok(t) => inputs.push(t),
                Err(o) => return (ops, o, None),
            }
        }
        let mut expected = Vec::new();
        for f in numbered(&set, "output_") {
            match read_tensor(&mut ctx, &f) {
                Ok(t) => expected.push(t),
                Err(o) => return (ops, o, None),
            }
        }
        let dropout = random_dropout(&ops, &inputs);
        let x = inputs.first().cloned();
        let graph_inputs = inputs.clone();
        let outputs = match run_function(&ctx, func, inputs) {
            Ok(o) => o,
            Err(e) => return (ops, Outcome::Fail(format!("run: {e}")), None),
        };
        if outputs.len() != expected.len() {
            return (
                ops,
                Outcome::Fail(format!(
                    "{} outputs, expected {}",
                    outputs.len(),
                    expected.len()
                )),
                None,
            );
        }
        if let (Some(ratio), Some(x)) = (dropout, &x) {
            if let Err(m) = check_dropout_law(x, ratio, &outputs) {
                return (ops, Outcome::Fail(format!("dropout: {m}")), None);
            }
            by_law = true;
            continue;
        }
        let tol = tolerance(dir);
        for (i, (a, e)) in outputs.iter().zip(&expected).enumerate() {
            if let Err(m) = allclose(a, e, tol) {
                return (ops, Outcome::Fail(format!("output #{i}: {m}")), None);
            }
        }
        graph_sets.push((graph_inputs, outputs));
    }
    if by_law {
        return (ops, Outcome::PassByLaw, None);
    }
    let graph = node_graph::run(&model, &graph_sets);
    // The GPU form of the kernels of what passes in graph mode.
    // With STRATA_GPU_BUNDLES=DIR each is written as a bundle for
    // scripts/gpu-check (DIR/<test name>/).
    let bundle = std::env::var_os("STRATA_GPU_BUNDLES").and_then(|d| {
        dir.file_name()
            .map(|name| std::path::PathBuf::from(d).join(name))
    });
    let gpu = (graph == GraphOutcome::Pass)
        .then(|| node_graph::run_gpu(&model, &graph_sets, bundle.as_deref()));
    (ops, Outcome::Pass, Some((graph, gpu)))
}

/// The tolerances of a test: ONNX's, except where the reference's own
/// float32 arithmetic is the inexact side. The DFT tests' expected values
/// come from a float32 FFT, whose exact zeros read as about 2e-7; strata sums
/// in f64, so an absolute tolerance of 1e-5 compares them.
fn tolerance(dir: &Path) -> Tolerance {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with("test_dft") {
        Tolerance::new(ONNX.rtol, 1e-5)
    } else {
        ONNX
    }
}

/// A refused import: skipped when strata does not implement what the model
/// uses (a typed error kind), failed otherwise.
fn import_outcome(e: &ImportError) -> Outcome {
    let text = e.to_string();
    if e.is_unsupported() {
        Outcome::Skip(format!("import: {}", short_reason(&text)))
    } else {
        Outcome::Fail(format!("import: {text}"))
    }
}

/// The drop ratio of a lone `Dropout` node that runs in training mode with
/// a nonzero ratio (inputs `data, ratio, training_mode`; the ratio defaults
/// to 0.5). Its expected outputs come from the reference implementation's
/// NumPy generator, which ONNX leaves implementation-defined, so the runner
/// checks such a test against the law of dropout instead of the values.
fn random_dropout(ops: &[String], inputs: &[Tensor]) -> Option<f64> {
    if ops != ["Dropout"] {
        return None;
    }
    let training = inputs.get(2)?.to_i64_vec().first().copied()? != 0;
    let ratio = match inputs.get(1) {
        Some(r) => r.to_f64_vec().first().copied()?,
        None => 0.5,
    };
    (training && ratio > 0.0).then_some(ratio)
}

/// Every output element is the input's times `1 / (1 - ratio)` where the
/// mask (when there is one) is true and 0 where it is false, and the kept
/// count is within five standard deviations of `n * (1 - ratio)`.
fn check_dropout_law(x: &Tensor, ratio: f64, outputs: &[Tensor]) -> Result<(), String> {
    let out = outputs.first().ok_or("no output")?;
    if out.shape() != x.shape() || out.dtype() != x.dtype() {
        return Err(format!(
            "output is {} {:?}, input {} {:?}",
            out.dtype(),
            out.shape(),
            x.dtype(),
            x.shape()
        ));
    }
    let scale = 1.0 / (1.0 - ratio);
    let (xs, ys) = (x.to_f64_vec(), out.to_f64_vec());
    let mask: Vec<bool> = match outputs.get(1) {
        Some(m) if m.shape() == x.shape() => m.to_i64_vec().iter().map(|&v| v != 0).collect(),
        Some(m) => return Err(format!("mask has shape {:?}", m.shape())),
        None => ys.iter().map(|&y| y != 0.0).collect(),
    };
    for (i, ((&xv, &yv), &keep)) in xs.iter().zip(&ys).zip(&mask).enumerate() {
        let want = if keep { xv * scale } else { 0.0 };
        if (yv - want).abs() > ONNX.atol + ONNX.rtol * want.abs() {
            return Err(format!("element {i}: {yv}, expected {want} (kept: {keep})"));
        }
    }
    let n = xs.len() as f64;
    let kept = mask.iter().filter(|&&k| k).count() as f64;
    let (mean, sd) = (n * (1.0 - ratio), (n * ratio * (1.0 - ratio)).sqrt());
    if (kept - mean).abs() > 5.0 * sd + 1.0 {
        return Err(format!(
            "kept {kept} of {n} elements at ratio {ratio} (expected about {mean})"
        ));
    }
    Ok(())
}

/// The reason of an import error without the file prefix, shortened.
fn short_reason(text: &str) -> String {
    let t = text.split_once(": ").map_or(text, |(_, r)| r);
    let t = t
        .split_once(": ")
        .map_or(t, |(n, r)| if n.starts_with("node ") { r } else { t });
    t.chars().take(90).collect()
}

fn main() -> ExitCode {
    let dir = root().join(".local/onnx-node-tests");
    if !common::require(
        &dir,
        "onnx node tests",
        "scripts/setup-onnx",
        "STRATA_SKIP_ONNX",
    ) {
        return ExitCode::SUCCESS;
    }
    let filter = std::env::var("STRATA_NODE_TESTS").ok();
    let bless = common::env_flag("STRATA_BLESS");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("test_"))
        .filter(|n| filter.as_ref().is_none_or(|f| n.contains(f.as_str())))
        .collect();
    names.sort();

    let mut results: Vec<(String, Vec<String>, Outcome)> = Vec::new();
    let mut graph_results: Vec<(String, GraphOutcome)> = Vec::new();
    let mut gpu_results: Vec<(String, GraphOutcome)> = Vec::new();
    // The tests run on every core (each compiles in its own contexts);
    // their outcomes are taken in name order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut outcomes: Vec<(usize, TestOutcome)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(name) = names.get(i) else {
                            return done;
                        };
                        done.push((i, run_test(&dir.join(name))));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    outcomes.sort_by_key(|(i, _)| *i);
    for (i, (ops, outcome, graph)) in outcomes {
        let name = &names[i];
        if filter.is_some() {
            println!("{name}: {outcome:?} (graph: {graph:?})");
        }
        results.push((name.clone(), ops, outcome));
        if let Some((g, gpu)) = graph {
            graph_results.push((name.clone(), g));
            if let Some(gpu) = gpu {
                if filter.is_some() {
                    println!("{name}: GPU form: {gpu:?}");
                }
                gpu_results.push((name.clone(), gpu));
            }
        }
    }
    let mut graph_problems =
        check_mode_outcomes(&graph_results, filter.is_some(), bless, &GRAPH_MODE);
    graph_problems.extend(check_mode_outcomes(
        &gpu_results,
        filter.is_some(),
        bless,
        &GPU_MODE,
    ));

    // Per-op table over the tests that use only supported ops.
    let mut per_op: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut skip_reasons: BTreeMap<String, usize> = BTreeMap::new();
    let (mut passed, mut failed, mut skipped, mut by_law) = (0, 0, 0, 0);
    for (_, ops, outcome) in &results {
        match outcome {
            Outcome::Pass => passed += 1,
            Outcome::PassByLaw => {
                passed += 1;
                by_law += 1;
            }
            Outcome::Fail(_) => failed += 1,
            Outcome::Skip(reason) => {
                skipped += 1;
                *skip_reasons.entry(reason.clone()).or_default() += 1;
            }
        }
        for op in ops {
            if !strata_onnx::SUPPORTED_OPS.contains(&op.as_str()) {
                continue;
            }
            let e = per_op.entry(op.as_str()).or_default();
            match outcome {
                Outcome::Pass | Outcome::PassByLaw => e.0 += 1,
                Outcome::Fail(_) => e.1 += 1,
                Outcome::Skip(_) => e.2 += 1,
            }
        }
    }
    let mut table = String::new();
    table.push_str("| op | passed | failed | skipped |\n|---|---:|---:|---:|\n");
    for (op, (p, f, s)) in &per_op {
        table.push_str(&format!("| {op} | {p} | {f} | {s} |\n"));
    }
    table.push_str(&format!(
        "\n{} tests: {passed} passed, {failed} failed, {skipped} skipped.\n\n",
        results.len()
    ));
    if by_law > 0 {
        table.push_str(&format!(
            "{by_law} of the passed tests have random outputs (Dropout in training mode) and are checked against the law of dropout, not the reference's values.\n\n"
        ));
    }
    let mut reasons: Vec<(&String, &usize)> = skip_reasons.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    table.push_str("| skipped because | tests |\n|---|---:|\n");
    for (reason, n) in &reasons {
        table.push_str(&format!("| {reason} | {n} |\n"));
    }
    if filter.is_none() {
        println!("{table}");
        let _ = std::fs::write(root().join("target/onnx-node-tests.md"), &table);
    }
    let failures: Vec<_> = results
        .iter()
        .filter_map(|(n, _, o)| match o {
            Outcome::Fail(m) => Some((n, m)),
            _ => None,
        })
        .collect();

    // Compare with the recorded outcomes.
    let list_path = root().join("test/onnx/node-tests.expected");
    let current: BTreeMap<&str, &str> = results
        .iter()
        .filter_map(|(n, _, o)| match o {
            Outcome::Pass | Outcome::PassByLaw => Some((n.as_str(), "pass")),
            Outcome::Fail(_) => Some((n.as_str(), "fail")),
            Outcome::Skip(_) => None,
        })
        .collect();
    if filter.is_some() {
        for (n, m) in &failures {
            println!("FAIL {n}: {m}");
        }
        println!("{passed} passed, {failed} failed, {skipped} skipped");
        for p in &graph_problems {
            println!("{p}");
        }
        return if failures.is_empty() && graph_problems.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    if bless {
        let mut text = String::from(
            "# Outcome of each ONNX node test strata runs (test/tests/onnx_node.rs).\n# Regenerate with STRATA_BLESS=1 cargo test -p strata-test --test onnx_node.\n",
        );
        for (n, s) in &current {
            text.push_str(&format!("{n} {s}\n"));
        }
        if let Err(e) = std::fs::write(&list_path, text) {
            eprintln!("{}: {e}", list_path.display());
            return ExitCode::FAILURE;
        }
    }
    let recorded = read_outcomes(&list_path);
    // Every failure fails the run; the list also catches tests that newly
    // run (or stop running) without the list being updated.
    let mut problems = Vec::new();
    for (n, s) in &current {
        let why = || {
            failures
                .iter()
                .find(|(f, _)| f.as_str() == *n)
                .map(|(_, m)| m.chars().take(300).collect::<String>())
                .unwrap_or_default()
        };
        match (recorded.get(*n).map(String::as_str), *s) {
            (Some("pass"), "pass") => {}
            (Some("pass"), _) => problems.push(format!(
                "regression: {n} passed before and fails now: {}",
                why()
            )),
            (_, "fail") => problems.push(format!("FAIL {n}: {}", why())),
            (Some(_), _) => {
                problems.push(format!("{n} now passes: update the list (STRATA_BLESS=1)"))
            }
            (None, _) => problems.push(format!(
                "{n} ({s}) is not in {}: update it (STRATA_BLESS=1)",
                list_path.display()
            )),
        }
    }
    for n in recorded.keys() {
        if !current.contains_key(n.as_str()) {
            problems.push(format!("{n} is listed but was not run (skipped now?)"));
        }
    }
    // The docs quote these figures and the table (docs/conformance.md).
    for (key, value) in [
        ("node-tests-passed", common::with_commas(passed)),
        ("node-tests-total", common::with_commas(results.len())),
        ("node-tests-table", format!("\n{}\n", table.trim_end())),
    ] {
        problems.extend(common::check_generated_docs(key, &value));
    }
    problems.extend(graph_problems);
    for p in &problems {
        println!("{p}");
    }
    println!("onnx node tests: {passed} passed, {failed} failed, {skipped} skipped");
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A compiled mode whose node-test outcomes are recorded.
struct Mode {
    /// How messages name it: `graph mode`.
    label: &'static str,
    /// Its key in the outcome file's name and the docs' markers: `graph`
    /// (`test/onnx/node-tests-graph.expected`, `node-tests-graph-passed`).
    key: &'static str,
    /// The first comment line of the outcome file.
    about: &'static str,
}

const GRAPH_MODE: Mode = Mode {
    label: "graph mode",
    key: "graph",
    about:
        "The ONNX node tests that strata compiles in graph mode, and their outcome against eager",
};

const GPU_MODE: Mode = Mode {
    label: "the GPU form (emulated)",
    key: "gpu",
    about: "The ONNX node tests whose kernels strata gives a GPU form (convert-kernel-to-nvptx), and their outcome: emulated on the host against eager, the PTX assembled by ptxas",
};

/// The outcomes of `mode` against `test/onnx/node-tests-<key>.expected`
/// (as the eager ones against theirs), the summary printed and quoted by
/// docs/conformance.md; returns the problems.
fn check_mode_outcomes(
    results: &[(String, GraphOutcome)],
    filtered: bool,
    bless: bool,
    mode: &Mode,
) -> Vec<String> {
    let mut problems = Vec::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for (name, g) in results {
        match g {
            GraphOutcome::Pass => passed += 1,
            GraphOutcome::Fail(m) => {
                failed += 1;
                problems.push(format!(
                    "FAIL ({}) {name}: {}",
                    mode.key,
                    m.chars().take(300).collect::<String>()
                ));
            }
            GraphOutcome::NotLowered(r) => *reasons.entry(r.clone()).or_default() += 1,
        }
    }
    let lowered = passed + failed;
    if filtered {
        println!("{}: {lowered} lowered, {passed} passed", mode.label);
        return problems;
    }
    let current: BTreeMap<&str, &str> = results
        .iter()
        .filter_map(|(n, g)| match g {
            GraphOutcome::Pass => Some((n.as_str(), "pass")),
            GraphOutcome::Fail(_) => Some((n.as_str(), "fail")),
            GraphOutcome::NotLowered(_) => None,
        })
        .collect();
    let list_path = root().join(format!("test/onnx/node-tests-{}.expected", mode.key));
    if bless {
        let mut text = format!(
            "# {} (test/tests/onnx_node.rs).\n# Regenerate with STRATA_BLESS=1 cargo test -p strata-test --test onnx_node.\n",
            mode.about
        );
        for (n, s) in &current {
            text.push_str(&format!("{n} {s}\n"));
        }
        if let Err(e) = std::fs::write(&list_path, text) {
            problems.push(format!("{}: {e}", list_path.display()));
        }
    }
    let recorded = read_outcomes(&list_path);
    for (n, s) in &current {
        match (recorded.get(*n).map(String::as_str), *s) {
            (Some("pass"), "pass") | (_, "fail") => {}
            (Some(_), _) => problems.push(format!(
                "{n} now passes in {}: update the list (STRATA_BLESS=1)",
                mode.label
            )),
            (None, _) => problems.push(format!(
                "{n} now lowers: add it to {} (STRATA_BLESS=1)",
                list_path.display()
            )),
        }
    }
    for (n, s) in &recorded {
        if !current.contains_key(n.as_str()) && s == "pass" {
            problems.push(format!(
                "regression: {n} compiled in {} before and does not lower now",
                mode.label
            ));
        }
    }
    let mut table = String::from("| not lowered because | tests |\n|---|---:|\n");
    let mut rs: Vec<(&String, &usize)> = reasons.iter().collect();
    rs.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (r, n) in rs.iter().take(25) {
        table.push_str(&format!("| {} | {n} |\n", r.replace('|', "\\|")));
    }
    let rest: usize = rs.iter().skip(25).map(|(_, n)| **n).sum();
    if rest > 0 {
        table.push_str(&format!("| (other reasons) | {rest} |\n"));
    }
    println!(
        "{}: {} tests compared, {lowered} lowered, {passed} passed, {failed} failed\n\n{table}",
        mode.label,
        results.len()
    );
    let k = mode.key;
    for (key, value) in [
        (
            format!("node-tests-{k}-lowered"),
            common::with_commas(lowered),
        ),
        (
            format!("node-tests-{k}-passed"),
            common::with_commas(passed),
        ),
        (
            format!("node-tests-{k}-compared"),
            common::with_commas(results.len()),
        ),
        (
            format!("node-tests-{k}-table"),
            format!("\n{}\n", table.trim_end()),
        ),
    ] {
        problems.extend(common::check_generated_docs(&key, &value));
    }
    problems
}

/// A recorded outcomes file: `name outcome` per line, `#` comments.
fn read_outcomes(path: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            l.split_once(' ')
                .map(|(a, b)| (a.to_string(), b.trim().to_string()))
        })
        .collect()
}
