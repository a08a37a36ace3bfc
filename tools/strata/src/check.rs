//! `strata run --check`: graph mode's outputs against eager mode's.

use std::path::Path;

use strata_runtime::check::{
    closeness, eager_agrees, f64_reference, finite_or_string, localize, Budget, Closeness, Diff,
    Localization, Status, Subject,
};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{DType, Tensor};

use crate::DriverError;

mod repro;

/// The tolerance of `strata run --check` for `dtype`: the recipe's
/// `contracts.tolerance`, else `--rtol`/`--atol`, else the dtype's.
pub(crate) fn check_tolerance(
    recipe: Option<&strata_recipe::Recipe>,
    given: (Option<f64>, Option<f64>),
    dtype: DType,
) -> Tolerance {
    let by_dtype = Tolerance::for_dtype(dtype);
    let contract = recipe.map(|r| &r.contracts.tolerance);
    Tolerance::new(
        contract
            .and_then(|c| c.rtol)
            .or(given.0)
            .unwrap_or(by_dtype.rtol),
        contract
            .and_then(|c| c.atol)
            .or(given.1)
            .unwrap_or(by_dtype.atol),
    )
}

/// `strata run --check`: each graph-mode output against eager mode's,
/// within `tolerance_of` its dtype; every mismatch is reported.
pub(crate) fn check_against_eager(
    out_names: &[String],
    graph: &[Tensor],
    eager: &[Tensor],
    tolerance_of: &dyn Fn(DType) -> Tolerance,
) -> Result<(), DriverError> {
    let mut mismatches = Vec::new();
    for ((name, g), e) in out_names.iter().zip(graph).zip(eager) {
        let tol = tolerance_of(e.dtype());
        match allclose(g, e, tol) {
            Ok(()) => outln!(
                "check: {name}: graph mode matches eager mode (rtol {}, atol {})",
                tol.rtol,
                tol.atol
            ),
            Err(m) => mismatches.push(format!(
                "check: {name}: graph mode does not match eager mode (rtol {}, atol {}): {m}",
                tol.rtol, tol.atol
            )),
        }
    }
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(DriverError::Message(mismatches.join("\n")))
    }
}

/// `strata run --check`'s options besides the flag itself.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct CheckArgs {
    /// With --check, on a mismatch: the most compiles and time the search
    /// for the diverging op and pass may take: N compiles, Ts seconds, or
    /// both (40,120s). Default: 64 compiles, 600 s.
    #[arg(long = "check-budget", value_name = "BUDGET")]
    pub budget: Option<String>,
    /// With --check, on a mismatch: write a repro bundle into DIR (the
    /// diverging part of the model, its inputs, the recipe, the pipeline,
    /// the tolerance, the IR before and after the guilty pass step, and
    /// `repro.sh`), kept only if its command still fails when run.
    #[arg(long = "check-repro", value_name = "DIR")]
    pub repro: Option<std::path::PathBuf>,
    /// With --check: compare the outputs only; do not localize a mismatch.
    #[arg(long = "check-no-localize")]
    pub no_localize: bool,
    /// With --check, on a mismatch: also run the model eagerly in this
    /// precision (f64) and say which of graph mode and eager mode is
    /// further from it.
    #[arg(long = "check-reference", value_name = "DTYPE", value_parser = ["f64"])]
    pub reference: Option<String>,
}

/// What `--check` found, for the report and the exit status.
pub(crate) struct Checked {
    pub status: Status,
    /// One line per output.
    pub lines: Vec<String>,
    pub outputs: Vec<(String, Diff)>,
    pub localization: Option<Localization>,
    /// `--check-reference f64`: each output's distance to it, or why there
    /// is no reference.
    pub reference: Option<Result<Vec<Closeness>, String>>,
    /// Where the IR before and after the guilty step, and the bundle, went.
    pub files: Vec<String>,
}

impl Checked {
    /// The `check` object of `--report`.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut j = match &self.localization {
            Some(l) => l.to_json(),
            None => serde_json::json!({}),
        };
        j["status"] = serde_json::json!(self.status.name());
        j["outputs"] = self
            .outputs
            .iter()
            .map(|(name, d)| {
                serde_json::json!({
                    "name": name,
                    "ok": d.ok,
                    "max_abs_diff": finite_or_string(d.max_abs_diff),
                    "rtol": d.tolerance.rtol,
                    "atol": d.tolerance.atol,
                })
            })
            .collect();
        j["files"] = serde_json::json!(self.files);
        if let Some(r) = &self.reference {
            j["reference"] = match r {
                Ok(outputs) => serde_json::json!({
                    "dtype": "f64",
                    "outputs": outputs.iter().map(|c| serde_json::json!({
                        "name": c.name,
                        "graph_max_abs_diff": finite_or_string(c.graph),
                        "eager_max_abs_diff": finite_or_string(c.eager),
                        "closer": c.closer(),
                    })).collect::<Vec<_>>(),
                }),
                Err(why) => serde_json::json!({"dtype": "f64", "error": why}),
            };
        }
        j
    }

    /// Ok for a match; the lines as the error otherwise.
    pub(crate) fn into_result(self) -> Result<(), DriverError> {
        for line in self.lines.iter().filter(|_| self.status == Status::Match) {
            outln!("{line}");
        }
        if self.status == Status::Match {
            Ok(())
        } else {
            Err(DriverError::Message(self.lines.join("\n")))
        }
    }
}

/// What [`check_graph_run`] compares and, on a mismatch, localizes.
pub(crate) struct CheckRun<'a> {
    pub model: &'a Path,
    pub out_names: &'a [String],
    pub graph: &'a [Tensor],
    pub eager: &'a [Tensor],
    /// A second eager run, to tell a nondeterministic model.
    pub eager_again: &'a [Tensor],
    pub tolerance_of: &'a dyn Fn(DType) -> Tolerance,
    /// A fresh copy of the model, for the localization.
    pub source: &'a strata_runtime::session::Source,
    pub function: &'a str,
    pub inputs: &'a [Tensor],
    pub pipeline: &'a str,
    pub threads: usize,
    pub recipe: Option<&'a Path>,
    /// The model's input names (for a repro of the whole model).
    pub in_names: &'a [String],
    pub args: &'a CheckArgs,
}

/// `strata run --mode graph --check` on the host: eager against eager,
/// then graph against eager, and on a mismatch the first diverging op and
/// the pass step that introduced it.
pub(crate) fn check_graph_run(c: &CheckRun<'_>) -> Result<Checked, DriverError> {
    let budget = check_budget(c.args)?;
    if !eager_agrees(c.eager, c.eager_again, c.tolerance_of) {
        let d = diffs_named(c.out_names, c.eager_again, c.eager, c.tolerance_of);
        let mut lines = vec![
            "check: eager mode does not agree with itself on these inputs: the model is not deterministic (random ops, or values that depend on the order of a reduction), so graph mode cannot be checked against it".to_string(),
        ];
        for (name, diff) in d.iter().filter(|(_, d)| !d.ok) {
            lines.push(format!(
                "check: {name}: two eager runs differ by max|d| {:.3e}",
                diff.max_abs_diff
            ));
        }
        return Ok(Checked {
            status: Status::Nondeterministic,
            lines,
            outputs: d,
            localization: None,
            reference: None,
            files: Vec::new(),
        });
    }
    let outputs = diffs_named(c.out_names, c.graph, c.eager, c.tolerance_of);
    let mut lines: Vec<String> = outputs
        .iter()
        .map(|(name, d)| {
            let tol = d.tolerance;
            if d.ok {
                format!(
                    "check: {name}: graph mode matches eager mode (rtol {}, atol {})",
                    tol.rtol, tol.atol
                )
            } else {
                format!(
                    "check: {name}: graph mode does not match eager mode (rtol {}, atol {}): max|d| {:.3e}; {}",
                    tol.rtol, tol.atol, d.max_abs_diff, d.message
                )
            }
        })
        .collect();
    if outputs.iter().all(|(_, d)| d.ok) {
        return Ok(Checked {
            status: Status::Match,
            lines,
            outputs,
            localization: None,
            reference: None,
            files: Vec::new(),
        });
    }
    let mut checked = Checked {
        status: Status::Mismatch,
        lines: Vec::new(),
        outputs,
        localization: None,
        reference: None,
        files: Vec::new(),
    };
    // Which side is further from exact, before blaming the compiler.
    if c.args.reference.is_some() {
        let (mut ctx, module) = (c.source)().map_err(DriverError::Message)?;
        let reference = f64_reference(&mut ctx, module, c.function, c.inputs)
            .map(|r| closeness(c.out_names, c.graph, c.eager, &r));
        match &reference {
            Ok(outputs) => {
                for o in outputs {
                    lines.push(format!("check: {}", o.line()));
                }
            }
            Err(why) => lines.push(format!("check: no f64 reference: {why}")),
        }
        checked.reference = Some(reference);
    }
    if c.args.no_localize {
        checked.lines = lines;
        return Ok(checked);
    }
    let (mut ctx, module) = (c.source)().map_err(DriverError::Message)?;
    let shown = c.model.display().to_string();
    let progress = |line: &str| eprintln!("{shown}: {line}");
    let subject = Subject {
        module,
        function: c.function,
        inputs: c.inputs,
        pipeline: c.pipeline,
        threads: c.threads,
        tolerance_of: c.tolerance_of,
        budget,
        progress: &progress,
    };
    let found = localize(&mut ctx, &subject);
    lines.push(format!("check: {}", found.summary()));
    if let Some(why) = &found.exhausted {
        lines.push(format!("check: the search stopped early: {why}"));
    }
    lines.push(format!(
        "check: localizing took {} compiles, {:.1} s",
        found.compiles,
        found.elapsed.as_secs_f64()
    ));
    if let Some(d) = found.divergence.as_ref() {
        if d.fusion_changed == Some(true) {
            lines.push("check: note: the full plan fuses this op with ops after it; localizing compiled it apart (the divergence is there without that fusion)".into());
        }
    }
    let mut kept = None;
    if let Some(dir) = &c.args.repro {
        let (said, ok) = repro::bundle(c, &found, dir, &checked)?;
        lines.extend(said);
        kept = ok.then_some(dir.as_path());
    }
    let files = write_step_ir(&found, kept)?;
    for f in &files {
        lines.push(format!("check: wrote {f}"));
    }
    checked.files = files;
    checked.lines = lines;
    checked.localization = Some(found);
    Ok(checked)
}

/// The budget of `--check-budget`, and a `--check-repro` directory that
/// can take a bundle: checked before anything runs.
pub(crate) fn check_budget(args: &CheckArgs) -> Result<Budget, DriverError> {
    if let Some(dir) = &args.repro {
        repro::check_dir(dir)?;
    }
    match &args.budget {
        Some(text) => Budget::parse(text).map_err(DriverError::Message),
        None => Ok(Budget::default()),
    }
}

fn diffs_named(
    names: &[String],
    actual: &[Tensor],
    expected: &[Tensor],
    tolerance_of: &dyn Fn(DType) -> Tolerance,
) -> Vec<(String, Diff)> {
    names
        .iter()
        .zip(actual.iter().zip(expected))
        .map(|(n, (a, e))| (n.clone(), Diff::of(a, e, tolerance_of(e.dtype()))))
        .collect()
}

/// The IR after the guilty step's pass run, without and with the step:
/// into the repro directory, else a directory of the system's temporary
/// one. Returns the paths written.
fn write_step_ir(found: &Localization, dir: Option<&Path>) -> Result<Vec<String>, DriverError> {
    let Some(blame) = &found.blame else {
        return Ok(Vec::new());
    };
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => std::env::temp_dir().join(format!("strata-check-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| DriverError::Message(format!("{}: {e}", dir.display())))?;
    let mut written = Vec::new();
    for (name, text) in [("before.mlir", &blame.before), ("after.mlir", &blame.after)] {
        if let Some(text) = text {
            let path = dir.join(name);
            std::fs::write(&path, format!("{text}\n"))
                .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
            written.push(path.display().to_string());
        }
    }
    Ok(written)
}
