//! One evaluation of `strata tune`, in a process of its own (`strata
//! tune-trial JOB.json`, hidden): each recipe compiled through a session,
//! its outputs checked against eager mode's, then timed, the recipes'
//! runs interleaved. The parent runs it with a timeout: a crash or a hang
//! costs one record, not the search.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use strata_runtime::kernels::allclose;
use strata_runtime::session::{ExeMode, Session, SessionError, SessionOptions, Source};
use strata_runtime::{Datum, Tensor};

use super::gpu::Runner;
use super::log::State;
use crate::{check_tolerance, load_checked, new_context, prepare, DriverError, Prepared};

/// Consecutive runs of one recipe in an interleaved job.
const INTERLEAVE_BLOCK: usize = 5;

/// What the parent asks of one process.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Job {
    pub model: PathBuf,
    pub function: String,
    /// `NAME=FILE.npy`, as `strata run --input`.
    pub inputs: Vec<String>,
    /// `NAME=FILE.npy`: eager mode's outputs.
    pub expected: Vec<String>,
    pub recipes: Vec<PathBuf>,
    pub warmup: usize,
    pub runs: usize,
    pub cache_dir: Option<PathBuf>,
}

/// What one recipe gave.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Outcome {
    pub state: State,
    pub message: String,
    pub compile_ms: Option<f64>,
    pub kernels: Option<usize>,
    pub arena_bytes: Option<usize>,
    pub samples_ms: Vec<f64>,
}

impl Outcome {
    pub(crate) fn failed(state: State, message: String) -> Outcome {
        Outcome {
            state,
            message,
            compile_ms: None,
            kernels: None,
            arena_bytes: None,
            samples_ms: Vec::new(),
        }
    }
}

/// `strata tune-trial JOB.json`: one JSON line per recipe on stdout.
pub(crate) fn tune_trial(job: &Path) -> Result<(), DriverError> {
    let text = std::fs::read_to_string(job)
        .map_err(|e| DriverError::Message(format!("{}: {e}", job.display())))?;
    let job: Job = serde_json::from_str(&text)
        .map_err(|e| DriverError::Message(format!("{}: {e}", job.display())))?;
    let Prepared {
        args,
        out_names,
        expected,
        ..
    } = prepare(
        &job.model,
        &job.inputs,
        &job.expected,
        0,
        &[],
        &job.function,
    )?;
    let mut outcomes = Vec::new();
    let mut runners: Vec<Option<Runner>> = Vec::new();
    for path in &job.recipes {
        let (outcome, runner) = match crate::recipe::load(path) {
            Err(e) => (Outcome::failed(State::CompileError, e.to_string()), None),
            Ok(r) if super::gpu::is_gpu(&r) => {
                super::gpu::first_run(&job, &r, &args, &out_names, &expected)
            }
            Ok(r) => first_run(&job, &r, &args, &out_names, &expected),
        };
        outcomes.push(outcome);
        runners.push(runner);
    }
    // Interleaved: each round runs every recipe for a block of runs, the
    // order rotating from round to round, so that a change in the
    // machine's state weighs on all of them alike. The first run of a
    // block is not timed: it pays for the previous recipe's thread pool
    // going idle.
    let n = outcomes.len();
    let block = if n > 1 {
        INTERLEAVE_BLOCK
    } else {
        job.runs.max(1)
    };
    let rounds = job.runs.div_ceil(block);
    let warm = if n > 1 { 1 } else { job.warmup };
    for round in 0..rounds {
        for k in 0..n {
            let i = (round + k) % n;
            let (o, r) = (&mut outcomes[i], &runners[i]);
            let Some(runner) = r.as_ref().filter(|_| o.state == State::Ok) else {
                continue;
            };
            let warmup = if round == 0 {
                job.warmup.max(warm)
            } else {
                warm
            };
            let timed = block.min(job.runs - o.samples_ms.len().min(job.runs));
            for run in 0..warmup + timed {
                let t = Instant::now();
                if let Err(e) = runner() {
                    *o = Outcome::failed(State::RunError, e);
                    break;
                }
                if run >= warmup {
                    o.samples_ms.push(t.elapsed().as_secs_f64() * 1e3);
                }
            }
        }
    }
    for o in &outcomes {
        let line = serde_json::to_string(o).map_err(|e| DriverError::Message(e.to_string()))?;
        outln!("{line}");
    }
    Ok(())
}

/// Compiles `loaded` through a session and checks its first run; the
/// outcome and what times it.
fn first_run(
    job: &Job,
    loaded: &strata_recipe::Recipe,
    args: &[Tensor],
    out_names: &[String],
    expected: &std::collections::BTreeMap<String, (String, Tensor)>,
) -> (Outcome, Option<Runner>) {
    let mut options = SessionOptions::from_recipe(loaded);
    options.exe_mode = ExeMode::Graph;
    options.function = job.function.clone();
    options.cache_dir = job.cache_dir.clone();
    let model = job.model.clone();
    let source: Source = Arc::new(move || {
        let mut ctx = new_context();
        let module = load_checked(&mut ctx, &model, None, None).map_err(|e| e.to_string())?;
        Ok((ctx, module))
    });
    let session = match (source)().and_then(|(ctx, module)| {
        Session::from_loaded(ctx, module, source.clone(), options).map_err(|e| e.to_string())
    }) {
        Ok(s) => s,
        Err(e) => return (Outcome::failed(State::CompileError, e), None),
    };
    let values = match session.run_values(args.iter().cloned().map(Datum::Tensor).collect()) {
        Ok(v) => v,
        Err(e @ SessionError::Compile(_)) => {
            return (Outcome::failed(State::CompileError, e.to_string()), None)
        }
        Err(e) => return (Outcome::failed(State::RunError, e.to_string()), None),
    };
    let (names, outputs, _) = crate::flatten_outputs(out_names, values);
    for (name, got) in names.iter().zip(&outputs) {
        let Some((_, want)) = expected.get(name) else {
            continue;
        };
        let tol = check_tolerance(Some(loaded), (None, None), want.dtype());
        if let Err(m) = allclose(got, want, tol) {
            return (
                Outcome::failed(
                    State::WrongAnswer,
                    format!(
                        "{name}: does not match eager mode (rtol {}, atol {}): {m}",
                        tol.rtol, tol.atol
                    ),
                ),
                None,
            );
        }
    }
    let report = session.report();
    let outcome = Outcome {
        state: State::Ok,
        message: String::new(),
        compile_ms: Some(report.compile_ms),
        kernels: Some(report.cache_launches),
        arena_bytes: Some(report.cache_arena_bytes),
        samples_ms: Vec::new(),
    };
    let args = args.to_vec();
    let runner: Runner = Box::new(move || {
        session
            .run_values(args.iter().cloned().map(Datum::Tensor).collect())
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    (outcome, Some(runner))
}

/// Runs `job` in a child process of this binary, killed after `timeout`:
/// one outcome per recipe.
pub(crate) fn run_isolated(
    job: &Job,
    dir: &Path,
    timeout: Duration,
) -> Result<Vec<Outcome>, DriverError> {
    let path = dir.join("job.json");
    let text = serde_json::to_string(job).map_err(|e| DriverError::Message(e.to_string()))?;
    std::fs::write(&path, text)
        .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
    let exe = std::env::current_exe().map_err(|e| DriverError::Message(e.to_string()))?;
    // The custom-op libraries this process was given, for the child too.
    let mut libs = Vec::new();
    let mut argv = std::env::args().skip(1);
    while let Some(a) = argv.next() {
        if a == "--custom-op-lib" {
            libs.extend(argv.next().map(|v| format!("--custom-op-lib={v}")));
        } else if a.starts_with("--custom-op-lib=") {
            libs.push(a);
        }
    }
    let mut child = Command::new(&exe)
        .args(&libs)
        .arg("tune-trial")
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| DriverError::Message(format!("{}: {e}", exe.display())))?;
    // Drain both pipes while waiting, so a chatty child never blocks.
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = stdout.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = stderr.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(DriverError::Message(format!("waiting on a trial: {e}"))),
        }
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    let n = job.recipes.len();
    let Some(status) = status else {
        let why = format!("no result within {:.0} s", timeout.as_secs_f64());
        return Ok(vec![Outcome::failed(State::Timeout, why); n]);
    };
    let outcomes: Vec<Outcome> = out
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if status.success() && outcomes.len() == n {
        return Ok(outcomes);
    }
    // A crash, or an error before any recipe ran.
    let why = err
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("the trial process failed")
        .to_string();
    let why = format!("{why} ({status})");
    Ok(vec![Outcome::failed(State::RunError, why); n])
}
