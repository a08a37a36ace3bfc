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
//! Environment: STRATA_OPT, STRATA_LLVM_BIN (as the other drivers);
//! STRATA_DIFFERENTIAL_COUNT (programs per pipeline, default 300: enough to catch
//! a wrong floordivsi fold or a wrong inverse predicate in the xori(cmpi) pattern).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const PIPELINES: [(&str, &str); 3] = [
    ("canonicalize", "--canonicalize"),
    ("cse", "--cse"),
    (
        "canonicalize,cse",
        "--pass-pipeline=builtin.module(canonicalize,cse)",
    ),
];

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
    for (index, (name, flag)) in PIPELINES.iter().enumerate() {
        // Each pipeline gets its own seeds, so more programs are covered.
        let first = index as u32 * count;
        for seed in first..first + count {
            let file = scratch.join(format!("prog-{seed}.mlir"));
            let mlir = run(&mlir_opt, flag, &file);
            let strata = run(&strata_opt, flag, &file);
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
        PIPELINES.map(|(n, _)| n).join(", ")
    );
    if failed > 0 {
        println!("the programs are in {}", scratch.display());
        std::process::exit(1);
    }
    let _ = fs::remove_dir_all(&scratch);
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

/// The output of `tool flag file` (stdout, then stderr and the status when
/// it fails, so that failures compare too).
fn run(tool: &PathBuf, flag: &str, file: &Path) -> String {
    let mut command = Command::new(tool);
    command.arg(flag).arg(file);
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
