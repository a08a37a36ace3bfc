//! Differential check of the core dialects' folders and patterns against
//! mlir-opt: random func/arith/math/scf programs (scripts/gen-dialect-program.py,
//! fixed seeds) go through `--canonicalize`, `--cse` and
//! `canonicalize,cse` in both tools, whose outputs must be the same.
//!
//! Same means byte for byte: the same folds and patterns, and also the same
//! order of the constants canonicalization hoists (which depends on whether
//! a folder returns an existing value or a new attribute, as in MLIR). A
//! difference fails the test with the seed and the first differing line,
//! and says when only the order of lines differs.
//!
//! The same programs also go through upstream MLIR's own `canonicalize,cse`
//! inside strata-opt (`--upstream-pass-pipeline`, which hands the module to
//! MLIR through melior and reads the result back), and so do the lit files
//! meant to match mlir-opt (those whose RUN lines call strata-opt without
//! `REQUIRES: strata-opt` and that expect no diagnostics): each must print
//! what mlir-opt prints, or be refused at an op of a dialect upstream does
//! not share with strata (such files are counted and named).
//!
//! Environment: STRATA_OPT, STRATA_LLVM_BIN (as the other drivers);
//! STRATA_DIFFERENTIAL_COUNT (programs per pipeline, default 300: enough to catch
//! a wrong floordivsi fold or a wrong inverse predicate in the xori(cmpi) pattern).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Each pipeline: its name, mlir-opt's flag and strata-opt's.
const PIPELINES: [(&str, &str, &str); 4] = [
    ("canonicalize", "--canonicalize", "--canonicalize"),
    ("cse", "--cse", "--cse"),
    (
        "canonicalize,cse",
        UPSTREAM_CANONICALIZE_CSE,
        UPSTREAM_CANONICALIZE_CSE,
    ),
    (
        "upstream canonicalize,cse",
        UPSTREAM_CANONICALIZE_CSE,
        "--upstream-pass-pipeline=builtin.module(canonicalize,cse)",
    ),
];

const UPSTREAM_CANONICALIZE_CSE: &str = "--pass-pipeline=builtin.module(canonicalize,cse)";

/// What strata-opt says when `--upstream-pass-pipeline` meets an op of a
/// dialect upstream MLIR does not share with strata.
const NOT_SHARED: &str = "is not an op of a dialect upstream MLIR shares with strata";

const DEFAULT_COUNT: u32 = 300;
const TIMEOUT: Duration = Duration::from_secs(60);

fn main() {
    let mlir_opt = common::llvm_tool("mlir-opt");
    let strata_opt = common::strata_opt();
    let count = std::env::var("STRATA_DIFFERENTIAL_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_COUNT);
    let scratch = std::env::temp_dir().join(format!("strata-differential-{}", std::process::id()));
    generate(&scratch, count);

    let (mut same, mut reordered, mut failed) = (0u32, 0u32, 0u32);
    // With STRATA_OPT naming mlir-opt (a self-check), upstream's passes
    // are its own `--pass-pipeline`.
    let self_check = strata_opt.file_stem().is_some_and(|s| s == "mlir-opt");
    for (index, (name, mlir_flag, strata_flag)) in PIPELINES.iter().enumerate() {
        let strata_flag = if self_check { mlir_flag } else { strata_flag };
        // Each pipeline gets its own seeds, so more programs are covered.
        let first = index as u32 * count;
        for seed in first..first + count {
            let file = scratch.join(format!("prog-{seed}.mlir"));
            let mlir = run(&mlir_opt, &[mlir_flag], &file);
            let strata = run(&strata_opt, &[strata_flag], &file);
            if mlir == strata {
                same += 1;
                continue;
            }
            if sorted_lines(&mlir) == sorted_lines(&strata) {
                reordered += 1;
            }
            failed += 1;
            report(name, seed, &file, &mlir, &strata);
        }
    }
    println!(
        "{same} identical, {failed} different ({reordered} of them only in the order of lines) \
         ({count} programs per pipeline: {})",
        PIPELINES.map(|(n, _, _)| n).join(", ")
    );
    let lit_failed = if self_check {
        0
    } else {
        lit_files_through_upstream(&mlir_opt, &strata_opt)
    };
    if failed + lit_failed > 0 {
        println!("the programs are in {}", scratch.display());
        std::process::exit(1);
    }
    let _ = fs::remove_dir_all(&scratch);
}

/// The lit files meant to match mlir-opt, through upstream's
/// `canonicalize,cse` in strata-opt and in mlir-opt (with
/// `-split-input-file`); how many differ.
fn lit_files_through_upstream(mlir_opt: &PathBuf, strata_opt: &PathBuf) -> u32 {
    let (mut same, mut refused, mut failed) = (0u32, Vec::new(), 0u32);
    for file in lit_files_matching_mlir_opt() {
        let mlir = run(
            mlir_opt,
            &[UPSTREAM_CANONICALIZE_CSE, "-split-input-file"],
            &file,
        );
        let strata = run(
            strata_opt,
            &[
                "--upstream-pass-pipeline=builtin.module(canonicalize,cse)",
                "-split-input-file",
            ],
            &file,
        );
        let name = file
            .strip_prefix(common::workspace_root())
            .unwrap_or(&file)
            .display()
            .to_string();
        if mlir == strata {
            same += 1;
        } else if strata.starts_with("exit status") && strata.contains(NOT_SHARED) {
            refused.push(name);
        } else {
            failed += 1;
            report("upstream canonicalize,cse", 0, &file, &mlir, &strata);
        }
    }
    println!(
        "lit files meant to match mlir-opt, through upstream canonicalize,cse: {same} identical, \
         {failed} different, {} refused at an op upstream does not share ({})",
        refused.len(),
        refused.join(", ")
    );
    if same == 0 {
        common::fail("no lit file was compared: is test/ there?");
    }
    failed
}

/// The `.mlir` lit files under test/ that call strata-opt, do not require
/// strata's own strata-opt and expect no diagnostics.
fn lit_files_matching_mlir_opt() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if path.is_dir() {
                if !matches!(name.as_ref(), "Inputs" | "Output" | "conformance" | "tests") {
                    walk(&path, out);
                }
            } else if name.ends_with(".mlir") {
                let text = fs::read_to_string(&path).unwrap_or_default();
                if text.contains("RUN: strata-opt")
                    && !text.contains("REQUIRES: strata-opt")
                    && !text.contains("expected-")
                {
                    out.push(path);
                }
            }
        }
    }
    let mut files = Vec::new();
    walk(&common::test_dir(), &mut files);
    files.sort();
    files
}

/// Writes the programs of every pipeline's seeds into `dir`.
fn generate(dir: &Path, count: u32) {
    let script = common::workspace_root().join("scripts/gen-dialect-program.py");
    let mut command = Command::new("python3");
    command
        .arg(&script)
        .args(["--first", "0", "--count"])
        .arg((count * PIPELINES.len() as u32).to_string())
        .arg("--out")
        .arg(dir);
    match common::run(&mut command, TIMEOUT) {
        Ok(output) if output.status.success() => {}
        Ok(output) => common::fail(&format!(
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&output.stderr)
        )),
        Err(e) => common::fail(&format!("python3 {}: {e}", script.display())),
    }
}

/// The output of `tool flags file` (stdout, then stderr and the status when
/// it fails, so that failures compare too).
fn run(tool: &PathBuf, flags: &[&str], file: &Path) -> String {
    let mut command = Command::new(tool);
    command.args(flags).arg(file);
    match common::run(&mut command, TIMEOUT) {
        Ok(output) if output.status.success() => {
            String::from_utf8_lossy(&output.stdout).into_owned()
        }
        Ok(output) => format!(
            "exit status {:?}\n{}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ),
        Err(e) => format!("could not run {}: {e}", tool.display()),
    }
}

fn sorted_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    lines
}

fn report(pipeline: &str, seed: u32, file: &Path, mlir: &str, strata: &str) {
    println!("DIFFERENT {pipeline} on {} (seed {seed})", file.display());
    for (i, (m, s)) in mlir.lines().zip(strata.lines()).enumerate() {
        if m != s {
            println!(
                "  line {}:\n    mlir-opt:   {m}\n    strata-opt: {s}",
                i + 1
            );
            return;
        }
    }
    println!(
        "  mlir-opt printed {} lines, strata-opt {}",
        mlir.lines().count(),
        strata.lines().count()
    );
}
