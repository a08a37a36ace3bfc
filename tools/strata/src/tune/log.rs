//! The experiment log of `strata tune`: append-only JSON lines, one per
//! evaluation of a candidate (a rung of the search, or the final re-timing).

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::DriverError;

/// Where a trial ran: records made elsewhere are a starting point, never
/// applied as they are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Fingerprint {
    /// strata's version and build.
    pub strata: String,
    pub build: String,
    pub target: String,
    /// The CPU model (LLVM's name for the host CPU) or the GPU.
    pub device: String,
    pub threads: usize,
}

impl Fingerprint {
    /// This build of strata, compiling for `target`, running on `device`
    /// (the CPU's or the GPU's name).
    pub(crate) fn here(target: &str, device: String, threads: usize) -> Fingerprint {
        Fingerprint {
            strata: strata_artifact::COMPILER_VERSION.to_string(),
            build: strata_artifact::BUILD_HASH.to_string(),
            target: target.to_string(),
            device,
            threads,
        }
    }
}

/// A trial's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum State {
    Ok,
    CompileError,
    RunError,
    Timeout,
    WrongAnswer,
    Pruned,
}

impl State {
    pub(crate) fn name(self) -> &'static str {
        match self {
            State::Ok => "ok",
            State::CompileError => "compile_error",
            State::RunError => "run_error",
            State::Timeout => "timeout",
            State::WrongAnswer => "wrong_answer",
            State::Pruned => "pruned",
        }
    }
}

/// Median, 10th and 90th percentiles of latency samples, in ms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Summary {
    pub median_ms: f64,
    pub p10_ms: f64,
    pub p90_ms: f64,
}

impl Summary {
    pub(crate) fn of(samples: &[f64]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        let mut s = samples.to_vec();
        s.sort_by(f64::total_cmp);
        let q = |p: f64| {
            let i = p * (s.len() - 1) as f64;
            let (lo, hi) = (i.floor() as usize, i.ceil() as usize);
            s[lo] + (s[hi] - s[lo]) * (i - lo as f64)
        };
        Some(Summary {
            median_ms: q(0.5),
            p10_ms: q(0.1),
            p90_ms: q(0.9),
        })
    }

    /// Half the 10-90 spread: what a difference must exceed to count.
    pub(crate) fn noise(&self) -> f64 {
        (self.p90_ms - self.p10_ms) / 2.0
    }
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The candidate's number (0: the base recipe).
    pub trial: usize,
    /// `0`, `1`, ... for the rungs of successive halving; `final` for the
    /// interleaved re-timing of the best.
    pub rung: String,
    pub model_sha256: String,
    /// The knob settings, `key = value` as TOML.
    pub knobs: Vec<(String, String)>,
    /// The recipe, canonical, and its sha256.
    pub recipe: String,
    pub recipe_sha256: String,
    pub state: State,
    pub message: String,
    pub samples_ms: Vec<f64>,
    pub summary: Option<Summary>,
    pub compile_ms: Option<f64>,
    pub kernels: Option<usize>,
    pub peak_activation_bytes: Option<usize>,
    pub fingerprint: Fingerprint,
    /// Seconds since the search began.
    pub at_s: f64,
}

/// The log's records, each checked to be of `model_sha256`.
pub(crate) fn read(path: &Path, model_sha256: &str) -> Result<Vec<Record>, DriverError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(DriverError::Message(format!("{}: {e}", path.display()))),
    };
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let r: Record = serde_json::from_str(line).map_err(|e| {
            DriverError::Message(format!(
                "{}:{}: error: not a tuning record: {e}",
                path.display(),
                i + 1
            ))
        })?;
        if r.model_sha256 != model_sha256 {
            return Err(DriverError::Message(format!(
                "{}:{}: error: the log is of another model (sha256 {}), not this one (sha256 {model_sha256})",
                path.display(),
                i + 1,
                r.model_sha256
            )));
        }
        out.push(r);
    }
    Ok(out)
}

/// Appends `r` as one line (written whole, then flushed).
pub(crate) fn append(path: &Path, r: &Record) -> Result<(), DriverError> {
    let line = serde_json::to_string(r).map_err(|e| DriverError::Message(e.to_string()))?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
    f.write_all(format!("{line}\n").as_bytes())
        .and_then(|()| f.flush())
        .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_interpolate() {
        let s = Summary::of(&[5.0, 1.0, 3.0, 2.0, 4.0]).expect("samples");
        assert_eq!(s.median_ms, 3.0);
        assert!((s.p10_ms - 1.4).abs() < 1e-12);
        assert!((s.p90_ms - 4.6).abs() < 1e-12);
        assert!(Summary::of(&[]).is_none());
    }

    #[test]
    fn a_log_of_another_model_is_refused() {
        let dir = std::env::temp_dir().join(format!("strata-tune-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("log.jsonl");
        let _ = std::fs::remove_file(&path);
        let r = Record {
            trial: 0,
            rung: "0".into(),
            model_sha256: "aaa".into(),
            knobs: vec![],
            recipe: String::new(),
            recipe_sha256: "r".into(),
            state: State::Ok,
            message: String::new(),
            samples_ms: vec![1.0],
            summary: Summary::of(&[1.0]),
            compile_ms: Some(2.0),
            kernels: Some(3),
            peak_activation_bytes: Some(4),
            fingerprint: Fingerprint::here("host", "cpu".into(), 1),
            at_s: 0.0,
        };
        append(&path, &r).expect("append");
        assert_eq!(read(&path, "aaa").expect("same model"), vec![r]);
        let e = read(&path, "bbb").unwrap_err().to_string();
        assert!(e.contains("sha256 aaa") && e.contains("sha256 bbb"), "{e}");
    }
}
