//! Runs the lit suite under test/ (`lit -sv test/`, configured by
//! test/lit.cfg.py) with the strata tools under test and LLVM 22's tools first
//! on PATH, streams lit's output, and ends with a `N passed, M failed` line.
//!
//! Environment: STRATA_OPT (the strata-opt to test; by default the one built in
//! this target profile), STRATA_LLVM_BIN (LLVM's bin directory, by default
//! /usr/lib/llvm-22/bin), LIT_OPTS (extra lit options, read by lit itself).

mod common;

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    let lit = common::llvm_tool("lit");
    for tool in ["FileCheck", "not"] {
        common::llvm_tool(tool);
    }
    let (tools_dir, link_dir) = strata_tools_dir();
    let path = common::path_with(&[&tools_dir, &common::llvm_bin()]);

    let mut command = Command::new(&lit);
    if link_dir.is_some() {
        // Another tool stands in for strata-opt: run only the tests meant to
        // match mlir-opt (see test/lit.cfg.py).
        command.arg("-Dmlir_opt_self_check=1");
    }
    let mut child = command
        .arg("-sv")
        .arg(common::test_dir())
        .current_dir(common::workspace_root())
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| common::fail(&format!("cannot run {}: {e}", lit.display())));

    let mut counts = Counts::default();
    for line in BufReader::new(child.stdout.take().expect("piped stdout")).lines() {
        let line = line.unwrap_or_else(|e| common::fail(&format!("reading lit's output: {e}")));
        println!("{line}");
        counts.add_summary_line(&line);
    }
    let status = child
        .wait()
        .unwrap_or_else(|e| common::fail(&format!("waiting for lit: {e}")));
    if let Some(dir) = link_dir {
        // Best effort: a leftover directory in /tmp is harmless.
        let _ = fs::remove_dir_all(dir);
    }

    println!();
    println!("{}", counts.summary());
    if !status.success() {
        if counts.failed == 0 {
            eprintln!("lit exited with {status} (see its messages above)");
        }
        std::process::exit(1);
    }
}

/// The directory to put first on PATH so that `strata-opt` and the other
/// strata tools resolve to the binaries under test, plus a temporary directory
/// to delete afterwards when one was made.
fn strata_tools_dir() -> (PathBuf, Option<PathBuf>) {
    let opt = std::path::absolute(common::strata_opt())
        .unwrap_or_else(|e| common::fail(&format!("strata-opt path: {e}")));
    if opt.file_name() == Some("strata-opt".as_ref()) {
        let dir = opt.parent().expect("a file has a parent").to_path_buf();
        return (dir, None);
    }
    // STRATA_OPT names a binary called something else (for example mlir-opt, to
    // check the tests themselves): expose it as `strata-opt` through a symlink,
    // beside the `strata`, `strata-translate` and `strata-run` built from the current sources.
    let dir = std::env::temp_dir().join(format!("strata-lit-{}", std::process::id()));
    let strata = common::strata();
    let translate = common::strata_translate();
    let run = common::strata_run();
    let links = [
        ("strata-opt", opt.as_path()),
        ("strata", strata.as_path()),
        ("strata-translate", translate.as_path()),
        ("strata-run", run.as_path()),
    ];
    link_tools(&dir, &links).unwrap_or_else(|e| {
        common::fail(&format!("cannot link {} as strata-opt: {e}", opt.display()))
    });
    (dir.clone(), Some(dir))
}

/// Makes `dir` hold a symlink `name -> target` for each pair.
fn link_tools(dir: &Path, links: &[(&str, &Path)]) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    for (name, target) in links {
        let link = dir.join(name);
        if link.symlink_metadata().is_ok() {
            fs::remove_file(&link)?;
        }
        std::os::unix::fs::symlink(target, link)?;
    }
    Ok(())
}

/// Test counts from lit's closing summary: `Total Discovered Tests: 3`
/// followed by lines like `  Passed: 3 (100.00%)`.
#[derive(Default)]
struct Counts {
    in_summary: bool,
    passed: u64,
    failed: u64,
    skipped: u64,
}

impl Counts {
    fn add_summary_line(&mut self, line: &str) {
        if line.starts_with("Total Discovered Tests:") {
            self.in_summary = true;
            return;
        }
        if !self.in_summary {
            return;
        }
        let Some((label, rest)) = line.trim().split_once(':') else {
            return;
        };
        let Some(Ok(count)) = rest.split_whitespace().next().map(str::parse::<u64>) else {
            return;
        };
        match label.trim() {
            "Passed" | "Passed With Retry" | "Expectedly Failed" => self.passed += count,
            "Failed" | "Unresolved" | "Timed Out" | "Unexpectedly Passed" => self.failed += count,
            "Unsupported" | "Skipped" | "Excluded" => self.skipped += count,
            _ => {}
        }
    }

    fn summary(&self) -> String {
        let mut text = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            text += &format!(", {} skipped", self.skipped);
        }
        text
    }
}
