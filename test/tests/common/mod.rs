//! What the lit and conformance drivers share: finding strata's binaries and
//! LLVM's tools, and running a process with a time limit.
//!
//! Both drivers are `harness = false` tests, so they report by exit status:
//! any problem that stops them is printed and ends the process with status 1.

#![allow(dead_code)] // each driver uses a different subset

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
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

/// The `strata-opt` to test: `$STRATA_OPT` if set, else the one built next to
/// this test executable (`target/<profile>/deps/<test>` -> `target/<profile>/strata-opt`).
pub fn strata_opt() -> PathBuf {
    if let Some(path) = std::env::var_os("STRATA_OPT") {
        let path = PathBuf::from(path);
        if !path.is_file() {
            fail(&format!("STRATA_OPT={} does not exist", path.display()));
        }
        return path;
    }
    let path = profile_dir().join("strata-opt");
    if !path.is_file() {
        fail(&format!(
            "{} not found; build it first: cargo build --workspace --bins \
             (scripts/test does that), or point STRATA_OPT at a strata-opt binary",
            path.display()
        ));
    }
    path
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
