//! What the drivers share: building and finding strata's binaries, finding
//! LLVM's tools and the ONNX test data, and running a process with a time
//! limit.
//!
//! The drivers are `harness = false` tests, so they report by exit status:
//! any problem that stops them is printed and ends the process with status 1.
//! A missing prerequisite fails them too, with the command that installs it,
//! unless its opt-out variable is set (then the driver says "skipped").

#![allow(dead_code)] // each driver uses a different subset

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Once;
use std::thread;
use std::time::{Duration, Instant};

/// Where LLVM 22's tools are unless `STRATA_LLVM_BIN` says otherwise.
const DEFAULT_LLVM_BIN: &str = "/usr/lib/llvm-22/bin";

/// Prints `message` and ends the test with a failure.
pub fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// The `test/` directory (this package's manifest directory).
pub fn test_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    test_dir()
        .parent()
        .expect("test/ has a parent")
        .to_path_buf()
}

/// The `strata-opt` to test: `$STRATA_OPT` if set, else the one built from
/// the current sources in this test's target profile (see [`build_tools`]).
pub fn strata_opt() -> PathBuf {
    build_tools();
    if let Some(path) = std::env::var_os("STRATA_OPT") {
        let path = PathBuf::from(path);
        if !path.is_file() {
            fail(&format!("STRATA_OPT={} does not exist", path.display()));
        }
        return path;
    }
    tool_in_profile("strata-opt")
}

/// The `strata` driver built from the current sources (see [`build_tools`]).
pub fn strata() -> PathBuf {
    build_tools();
    tool_in_profile("strata")
}

/// The `strata-run` built from the current sources (see [`build_tools`]).
pub fn strata_run() -> PathBuf {
    build_tools();
    tool_in_profile("strata-run")
}

/// The `strata-translate` built from the current sources (see [`build_tools`]).
pub fn strata_translate() -> PathBuf {
    build_tools();
    tool_in_profile("strata-translate")
}

fn tool_in_profile(name: &str) -> PathBuf {
    let path = profile_dir().join(name);
    if !path.is_file() {
        fail(&format!("{} not found after building it", path.display()));
    }
    path
}

/// Builds the workspace's binaries (`strata-opt`, `strata`,
/// `strata-translate`) in this test's
/// target directory and profile with the cargo that runs the tests, once per
/// process, so that a driver never runs a binary older than its sources. A
/// no-op build takes well under a second; a failed build fails the test.
pub fn build_tools() {
    static BUILD: Once = Once::new();
    BUILD.call_once(|| {
        let profile_dir = profile_dir();
        let (Some(target_dir), Some(profile)) = (profile_dir.parent(), profile_dir.file_name())
        else {
            fail(&format!(
                "unexpected target directory {}",
                profile_dir.display()
            ));
        };
        // cargo calls the `dev` profile's directory `debug`.
        let profile = match profile.to_string_lossy().as_ref() {
            "debug" => "dev".to_string(),
            other => other.to_string(),
        };
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut command = Command::new(&cargo);
        command
            .args([
                "build",
                "--bins",
                "-p",
                "strata-opt",
                "-p",
                "strata",
                "-p",
                "strata-translate",
                "-p",
                "strata-run",
            ])
            .arg("--profile")
            .arg(&profile)
            .arg("--target-dir")
            .arg(target_dir)
            .current_dir(workspace_root());
        match command.status() {
            Ok(status) if status.success() => {}
            Ok(status) => fail(&format!(
                "building the strata tools failed ({status}): {command:?}"
            )),
            Err(e) => fail(&format!("cannot run {}: {e}", Path::new(&cargo).display())),
        }
    });
}

/// Whether the switch `var` (an opt-out, `STRATA_BLESS`) is set, to
/// anything but `0` or empty.
pub fn env_flag(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Checks a prerequisite of a driver: returns `true` when `path` exists.
/// When it does not, the driver fails with `install` (the command that
/// provides it), unless the opt-out variable `opt_out` is set: then it prints
/// that `what` was skipped and why, and returns `false`.
pub fn require(path: &Path, what: &str, install: &str, opt_out: &str) -> bool {
    if path.exists() {
        return true;
    }
    if env_flag(opt_out) {
        println!(
            "{what}: skipped: {} is missing and {opt_out} is set",
            path.display()
        );
        return false;
    }
    fail(&format!(
        "{what}: {} is missing; run `{install}` to install it \
         (or set {opt_out}=1 to skip these tests)",
        path.display()
    ));
}

/// `target/<profile>`, the directory cargo puts the workspace binaries in.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_else(|e| fail(&format!("current_exe: {e}")));
    exe.parent()
        .and_then(Path::parent)
        .unwrap_or_else(|| {
            fail(&format!(
                "unexpected test executable path {}",
                exe.display()
            ))
        })
        .to_path_buf()
}

/// LLVM's bin directory: `$STRATA_LLVM_BIN`, else /usr/lib/llvm-22/bin.
pub fn llvm_bin() -> PathBuf {
    std::env::var_os("STRATA_LLVM_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_LLVM_BIN))
}

/// An LLVM tool (`mlir-opt`, `lit`, `FileCheck`, ...). These tests are required:
/// a missing tool fails them with the set-up hint.
pub fn llvm_tool(name: &str) -> PathBuf {
    let path = llvm_bin().join(name);
    if !path.is_file() {
        fail(&format!(
            "{} not found: LLVM/MLIR 22 tools are required for this test. \
             Run scripts/setup to install them, or set STRATA_LLVM_BIN to their directory.",
            path.display()
        ));
    }
    path
}

/// `dirs` in front of the current PATH.
pub fn path_with(dirs: &[&Path]) -> OsString {
    let current = std::env::var_os("PATH").unwrap_or_default();
    let all = dirs
        .iter()
        .map(|d| d.to_path_buf())
        .chain(std::env::split_paths(&current));
    std::env::join_paths(all).unwrap_or_else(|e| fail(&format!("cannot build PATH: {e}")))
}

/// What a finished process produced.
pub struct Output {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Runs `command` to completion, capturing stdout and stderr, and kills it
/// after `timeout`. Errors (cannot start, timed out) are returned as text.
pub fn run(command: &mut Command, timeout: Duration) -> Result<Output, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {:?}: {e}", command.get_program()))?;
    let stdout = read_in_background(child.stdout.take().expect("piped stdout"));
    let stderr = read_in_background(child.stderr.take().expect("piped stderr"));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > timeout => {
                // The process may have exited just now; either way it is gone after this.
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("timed out after {} s", timeout.as_secs()));
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for {:?}: {e}", command.get_program())),
        }
    };
    Ok(Output {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    })
}

fn read_in_background(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        // A read error leaves what was read so far, which is all we can report.
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// The Markdown files whose counts are checked: README.md and docs/**/*.md.
fn doc_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = workspace_root();
    let mut files = vec![root.join("README.md")];
    walk(&root.join("docs"), &mut files);
    files.sort();
    files
}

/// Checks every marker `<!-- generated:KEY -->TEXT<!-- /generated -->` for
/// `key` in README.md and docs/: TEXT must be `value` (a count as written,
/// e.g. `1,376`, or a whole generated table). With `STRATA_BLESS=1` the
/// markers are rewritten instead.
/// Returns the problems found (none when blessing); a key that no document
/// uses is a problem too, so that a marker cannot disappear unnoticed.
pub fn check_generated_docs(key: &str, value: &str) -> Vec<String> {
    let open = format!("<!-- generated:{key} -->");
    let close = "<!-- /generated -->";
    let bless = env_flag("STRATA_BLESS");
    let mut problems = Vec::new();
    let mut uses = 0;
    for path in doc_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(start) = rest.find(&open) {
            let body = &rest[start + open.len()..];
            let Some(end) = body.find(close) else {
                problems.push(format!("{}: unclosed {open}", path.display()));
                break;
            };
            uses += 1;
            let written = &body[..end];
            if written != value && !bless {
                let line = text[..text.len() - rest.len() + start]
                    .matches('\n')
                    .count()
                    + 1;
                let (written, value) = if value.contains('\n') {
                    ("an older table", "another")
                } else {
                    (written, value)
                };
                problems.push(format!(
                    "{}:{line}: says {key} is {written}, but it is {value} \
                     (update it, or rerun with STRATA_BLESS=1)",
                    path.display()
                ));
            }
            out.push_str(&rest[..start + open.len()]);
            out.push_str(value);
            rest = &body[end..];
        }
        out.push_str(rest);
        if bless && out != text {
            if let Err(e) = std::fs::write(&path, out) {
                problems.push(format!("{}: {e}", path.display()));
            }
        }
    }
    if uses == 0 {
        problems.push(format!("no document has a {open} marker"));
    }
    problems
}

/// `n` with thousands separators, as the docs write counts (`18,641`).
pub fn with_commas(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
