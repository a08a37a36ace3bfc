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
//! kept count) instead of the reference's values; so are `Bernoulli`'s
//! (zeros and ones, a plausible count of ones).
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
#[path = "support/onnx_case.rs"]
mod onnx_case;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use node_graph::GraphOutcome;
use onnx_case::{read_outcomes, run_all, run_test, Outcome, TestOutcome};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
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
    let mut adversarial_results: Vec<(String, GraphOutcome)> = Vec::new();
    let mut hybrid_results: Vec<(String, GraphOutcome)> = Vec::new();
    let mut hybrid_notes: BTreeMap<String, String> = BTreeMap::new();
    // The tests run on every core (each compiles in its own contexts);
    // their outcomes are taken in name order.
    let outcomes: Vec<TestOutcome> = run_all(
        &names,
        |name| run_test(&dir.join(name), true),
        |m| (Vec::new(), Outcome::Fail(m), None),
    );
    for (name, (ops, outcome, graph)) in names.iter().zip(outcomes) {
        if filter.is_some() {
            println!("{name}: {outcome:?} (graph: {graph:?})");
        }
        results.push((name.clone(), ops, outcome));
        if let Some((g, gpu, adversarial, hybrid)) = graph {
            graph_results.push((name.clone(), g));
            if let Some((h, coverage)) = hybrid {
                if filter.is_some() {
                    println!("{name}: hybrid mode: {h:?} (compiled ops: {coverage:?})");
                }
                if let Some(c) = coverage {
                    hybrid_notes.insert(name.clone(), c.to_string());
                }
                hybrid_results.push((name.clone(), h));
            }
            if let Some(a) = adversarial {
                if filter.is_some() {
                    println!("{name}: adversarial values: {a:?}");
                }
                adversarial_results.push((name.clone(), a));
            }
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
    graph_problems.extend(check_hybrid_outcomes(
        &hybrid_results,
        &hybrid_notes,
        filter.is_some(),
        bless,
    ));
    graph_problems.extend(check_mode_outcomes(
        &gpu_results,
        filter.is_some(),
        bless,
        &GPU_MODE,
    ));
    graph_problems.extend(check_mode_outcomes(
        &adversarial_results,
        filter.is_some(),
        bless,
        &ADVERSARIAL_MODE,
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
            "{by_law} of the passed tests have random outputs (Dropout in training mode, Bernoulli) and are checked against the law of their draws, not the reference's values.\n\n"
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
        ("node-tests-failed", common::with_commas(failed)),
        ("node-tests-skipped", common::with_commas(skipped)),
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
    /// Whether a mismatch is recorded (`differs`, with its reason in the
    /// docs' table) instead of failing the suite: a new one, or a test
    /// that differed and agrees now, still asks for the list's update.
    divergences: bool,
}

const GRAPH_MODE: Mode = Mode {
    label: "graph mode",
    key: "graph",
    about:
        "The ONNX node tests that strata compiles in graph mode, and their outcome against eager",
    divergences: false,
};

const GPU_MODE: Mode = Mode {
    label: "the GPU form (emulated)",
    key: "gpu",
    about: "The ONNX node tests whose kernels strata gives a GPU form (convert-kernel-to-nvptx), and their outcome: emulated on the host against eager, the PTX assembled by ptxas",
    divergences: false,
};

const ADVERSARIAL_MODE: Mode = Mode {
    label: "graph mode on adversarial values",
    key: "adversarial",
    about: "The ONNX node tests that pass in graph mode, run again on adversarial inputs (NaN, infinities, signed zeros, extremes; indices past both ends): graph mode against eager; `differs` is an accepted divergence (docs/conformance.md)",
    divergences: true,
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
    let mut differing = String::from("| test | first difference |\n|---|---|\n");
    for (name, g) in results {
        match g {
            GraphOutcome::Pass => passed += 1,
            GraphOutcome::Fail(m) if mode.divergences => {
                failed += 1;
                let first: String = m.chars().take(200).collect();
                differing.push_str(&format!("| `{name}` | {} |\n", first.replace('|', "\\|")));
            }
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
            GraphOutcome::Fail(_) if mode.divergences => Some((n.as_str(), "differs")),
            GraphOutcome::Fail(_) => Some((n.as_str(), "fail")),
            GraphOutcome::NotLowered(_) => None,
        })
        .collect();
    let list_path = root().join(format!("test/onnx/node-tests-{}.expected", mode.key));
    if bless {
        problems.extend(write_outcomes(&list_path, mode.about, &current));
    }
    let recorded = read_outcomes(&list_path);
    for (n, s) in &current {
        match (recorded.get(*n).map(String::as_str), *s) {
            (Some("pass"), "pass") | (_, "fail") | (Some("differs"), "differs") => {}
            (Some("pass"), "differs") => problems.push(format!(
                "regression: {n} agreed with eager mode in {} and differs now (see docs/conformance.md)",
                mode.label
            )),
            (None, "differs") => problems.push(format!(
                "{n} differs from eager mode in {}: fix it, or record it with STRATA_BLESS=1 if docs/conformance.md explains it",
                mode.label
            )),
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
    ]
    .into_iter()
    .chain(mode.divergences.then(|| {
        (
            format!("node-tests-{k}-differs"),
            format!("\n{}\n", differing.trim_end()),
        )
    }))
    .chain(mode.divergences.then(|| {
        (
            format!("node-tests-{k}-differing"),
            common::with_commas(failed),
        )
    })) {
        problems.extend(common::check_generated_docs(&key, &value));
    }
    problems
}

/// Hybrid mode's outcomes against `test/onnx/node-tests-hybrid.expected`
/// (`name pass C/T`: C of the test's T ops compiled), the counts quoted by
/// docs/conformance.md; returns the problems. Every test that passes
/// eagerly runs here and must match eager mode.
fn check_hybrid_outcomes(
    results: &[(String, GraphOutcome)],
    notes: &BTreeMap<String, String>,
    filtered: bool,
    bless: bool,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut current: BTreeMap<&str, String> = BTreeMap::new();
    let (mut passed, mut compiled_ops, mut total_ops, mut whole, mut none) = (0, 0, 0, 0, 0);
    // Tests whose function has no op (an identity of a sequence).
    let mut empty = 0;
    let (mut compiled_flops, mut total_flops) = (0u64, 0u64);
    for (name, outcome) in results {
        match outcome {
            GraphOutcome::Pass => {
                passed += 1;
                let c: node_graph::Coverage = notes
                    .get(name)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_default();
                compiled_ops += c.ops.0;
                total_ops += c.ops.1;
                compiled_flops += c.flops.0;
                total_flops += c.flops.1;
                let some = c.ops.1 > 0;
                whole += usize::from(some && c.ops.0 == c.ops.1);
                none += usize::from(some && c.ops.0 == 0);
                empty += usize::from(!some);
                current.insert(name, format!("pass {c}"));
            }
            GraphOutcome::Fail(m) | GraphOutcome::NotLowered(m) => {
                problems.push(format!(
                    "FAIL (hybrid) {name}: {}",
                    m.chars().take(300).collect::<String>()
                ));
                current.insert(name, "fail".into());
            }
        }
    }
    println!(
        "hybrid mode: {} tests, {passed} passed; {compiled_ops} of {total_ops} ops compiled, {compiled_flops} of {total_flops} estimated FLOPs; {whole} tests wholly compiled, {none} wholly eager, {empty} without ops",
        results.len()
    );
    if filtered {
        return problems;
    }
    let list_path = root().join("test/onnx/node-tests-hybrid.expected");
    if bless {
        let about = "The ONNX node tests that pass eagerly, in hybrid mode against eager: outcome, ops compiled / ops in all, estimated FLOPs compiled / in all";
        problems.extend(write_outcomes(&list_path, about, &current));
    }
    let recorded = read_outcomes(&list_path);
    for (n, s) in &current {
        match recorded.get(*n) {
            Some(r) if r == s => {}
            Some(r) if r.starts_with("pass") && s.starts_with("pass") => problems.push(format!(
                "{n}: hybrid mode now compiles {} ops (recorded: {}): update the list (STRATA_BLESS=1)",
                s.trim_start_matches("pass "),
                r.trim_start_matches("pass ")
            )),
            Some(r) if r.starts_with("pass") => {
                problems.push(format!("regression: {n} passed in hybrid mode before"))
            }
            _ if s == "fail" => {}
            _ => problems.push(format!(
                "{n} ({s}) is not in {} as such: update it (STRATA_BLESS=1)",
                list_path.display()
            )),
        }
    }
    for n in recorded.keys() {
        if !current.contains_key(n.as_str()) {
            problems.push(format!("{n} is listed for hybrid mode but was not run"));
        }
    }
    let percent = |a: f64, b: f64| if b == 0.0 { 0.0 } else { 100.0 * a / b };
    let fraction = percent(compiled_ops as f64, total_ops as f64);
    let flops_fraction = percent(compiled_flops as f64, total_flops as f64);
    for (key, value) in [
        (
            "node-tests-hybrid-compared",
            common::with_commas(results.len()),
        ),
        ("node-tests-hybrid-passed", common::with_commas(passed)),
        (
            "node-tests-hybrid-ops-compiled",
            common::with_commas(compiled_ops),
        ),
        (
            "node-tests-hybrid-ops-total",
            common::with_commas(total_ops),
        ),
        ("node-tests-hybrid-fraction", format!("{fraction:.1}")),
        (
            "node-tests-hybrid-flops-fraction",
            format!("{flops_fraction:.1}"),
        ),
        ("node-tests-hybrid-whole", common::with_commas(whole)),
        ("node-tests-hybrid-eager", common::with_commas(none)),
        ("node-tests-hybrid-empty", common::with_commas(empty)),
    ] {
        problems.extend(common::check_generated_docs(key, &value));
    }
    problems
}

/// Writes a mode's outcome file: its header (`about`, then how to
/// regenerate it) and a `name outcome` line per test; the error, if any.
fn write_outcomes<V: std::fmt::Display>(
    path: &std::path::Path,
    about: &str,
    current: &BTreeMap<&str, V>,
) -> Option<String> {
    let mut text = format!(
        "# {about} (test/tests/onnx_node.rs).\n# Regenerate with STRATA_BLESS=1 cargo test -p strata-test --test onnx_node.\n"
    );
    for (n, s) in current {
        text.push_str(&format!("{n} {s}\n"));
    }
    std::fs::write(path, text)
        .err()
        .map(|e| format!("{}: {e}", path.display()))
}
