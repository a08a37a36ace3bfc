//! `strata tune`: a seeded search over recipe knobs for the fastest plan
//! that still matches eager mode, every evaluation kept in an
//! append-only JSON-lines log (docs/tuning.md).
//!
//! The search: the base recipe, then the space's points (all of them in a
//! seeded order when they fit `--max-trials`, else a seeded sample),
//! evaluated by successive halving: every candidate compiled, checked and
//! timed briefly (rung 0), the fastest third timed again with more runs
//! (rung 1), then the best few and the base recipe re-timed together,
//! their runs interleaved (`final`). Each evaluation runs in a child
//! process with a timeout.

mod gpu;
mod log;
mod report;
mod space;
mod trial;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use strata_recipe::Recipe;

use crate::{prepare, DriverError, Prepared, SplitMix};
use log::{Fingerprint, Record, State, Summary};
use space::{Point, Space};
pub(crate) use trial::tune_trial;

/// Runs per evaluation at each rung of the halving, and of the final
/// interleaved re-timing.
const RUNG_RUNS: [usize; 2] = [5, 15];
const FINAL_RUNS: usize = 30;
const WARMUP: usize = 3;
/// How many candidates the final re-timing compares (with the base).
const FINALISTS: usize = 3;

/// `strata tune`'s command line.
#[derive(clap::Args, Debug)]
pub(crate) struct TuneArgs {
    /// The model: IR with a `func.func @main`, or an `.onnx` file.
    pub model: PathBuf,
    /// The base recipe the knobs are set on (default: the default recipe).
    #[arg(long, value_name = "BASE")]
    pub recipe: Option<PathBuf>,
    /// The knobs and values to try: a TOML file, `[knobs]` with
    /// `"recipe.key" = [values]` (default: the target's space).
    #[arg(long, value_name = "SPACE.toml")]
    pub space: Option<PathBuf>,
    /// An input as NAME=FILE.npy; inputs not given are made up.
    #[arg(long = "input", value_name = "NAME=FILE")]
    pub inputs: Vec<String>,
    /// The size of a symbolic dimension for made-up inputs, as SYM=N.
    #[arg(long = "dim", value_name = "SYM=N")]
    pub dims: Vec<String>,
    /// The function to tune.
    #[arg(long, default_value = "main")]
    pub function: String,
    /// The most candidates (the base recipe included).
    #[arg(long = "max-trials", default_value_t = 32)]
    pub max_trials: usize,
    /// The most seconds the search may take.
    #[arg(long = "time-budget", value_name = "S", default_value_t = 600.0)]
    pub time_budget: f64,
    /// The experiment log, JSON lines (default: MODEL.tune.jsonl).
    #[arg(long, value_name = "LOG.jsonl")]
    pub log: Option<PathBuf>,
    /// Continue the log: no finished evaluation is repeated.
    #[arg(long)]
    pub resume: bool,
    /// The seed of the search's order and sample.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Where the best recipe goes (default: MODEL.best.toml).
    #[arg(short = 'o', long = "output", value_name = "BEST.toml")]
    pub output: Option<PathBuf>,
    /// Threads of every candidate (default: the recipe's, and the
    /// default space tries 1 and one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The target: host (default: the recipe's codegen.target).
    #[arg(long)]
    pub target: Option<String>,
    /// Seconds a trial may take before it is a `timeout`.
    #[arg(long = "trial-timeout", value_name = "S", default_value_t = 120.0)]
    pub trial_timeout: f64,
    /// The HTML report (default: the log's name, .html).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

impl TuneArgs {
    /// Runs the search.
    pub(crate) fn run(&self) -> Result<(), DriverError> {
        tune(
            &self.model,
            TuneOptions {
                recipe: self.recipe.as_deref(),
                space: self.space.as_deref(),
                inputs: &self.inputs,
                dims: &self.dims,
                function: &self.function,
                max_trials: self.max_trials,
                time_budget: self.time_budget,
                log: self.log.as_deref(),
                resume: self.resume,
                seed: self.seed,
                output: self.output.as_deref(),
                threads: self.threads,
                target: self.target.as_deref(),
                trial_timeout: self.trial_timeout,
                report: self.report.as_deref(),
            },
        )
    }
}

/// The options of `strata tune` besides the model.
pub(crate) struct TuneOptions<'a> {
    pub recipe: Option<&'a Path>,
    pub space: Option<&'a Path>,
    pub inputs: &'a [String],
    pub dims: &'a [String],
    pub function: &'a str,
    pub max_trials: usize,
    pub time_budget: f64,
    pub log: Option<&'a Path>,
    pub resume: bool,
    pub seed: u64,
    pub output: Option<&'a Path>,
    pub threads: Option<usize>,
    pub target: Option<&'a str>,
    pub trial_timeout: f64,
    pub report: Option<&'a Path>,
}

/// A point of the space made a recipe.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub trial: usize,
    /// `None`: the base recipe.
    pub point: Option<Point>,
    pub knobs: Vec<(String, String)>,
    pub canonical: String,
    pub sha256: String,
}

/// Where the search writes.
struct Paths {
    log: PathBuf,
    output: PathBuf,
    report: PathBuf,
}

fn default_path(model: &Path, given: Option<&Path>, suffix: &str) -> PathBuf {
    given.map(Path::to_path_buf).unwrap_or_else(|| {
        let stem = model
            .file_stem()
            .map_or("model".into(), |s| s.to_string_lossy().into_owned());
        PathBuf::from(format!("{stem}{suffix}"))
    })
}

/// Refuses an output that cannot be written, before any trial runs.
fn check_writable(path: &Path, what: &str) -> Result<(), DriverError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let probe = dir.join(format!(".strata-tune-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| {
        DriverError::Message(format!(
            "{what} {}: cannot write there: {e}",
            path.display()
        ))
    })?;
    let _ = std::fs::remove_file(&probe);
    if path.is_dir() {
        return Err(DriverError::Message(format!(
            "{what} {}: is a directory",
            path.display()
        )));
    }
    Ok(())
}

/// `strata tune MODEL`.
pub(crate) fn tune(model: &Path, o: TuneOptions<'_>) -> Result<(), DriverError> {
    if o.max_trials == 0 {
        return Err(DriverError::Message(
            "--max-trials 0: a search of no trials tunes nothing".into(),
        ));
    }
    if !(o.time_budget.is_finite() && o.time_budget > 0.0) {
        return Err(DriverError::Message(format!(
            "--time-budget {}: expected a positive number of seconds",
            o.time_budget
        )));
    }
    if !(o.trial_timeout.is_finite() && o.trial_timeout > 0.0) {
        return Err(DriverError::Message(format!(
            "--trial-timeout {}: expected a positive number of seconds",
            o.trial_timeout
        )));
    }
    let base = match o.recipe {
        Some(path) => crate::recipe::load(path)?,
        None => Recipe::default(),
    };
    let target = o.target.unwrap_or(base.codegen.target.name());
    if !["host", "sm_80", "sm_90"].contains(&target) {
        return Err(DriverError::Message(format!(
            "--target '{target}': the targets are: host, sm_80, sm_90"
        )));
    }
    let paths = Paths {
        log: default_path(model, o.log, ".tune.jsonl"),
        output: default_path(model, o.output, ".best.toml"),
        report: o
            .report
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_path(model, o.log, ".tune.jsonl").with_extension("html")),
    };
    check_writable(&paths.log, "--log")?;
    check_writable(&paths.output, "-o")?;
    check_writable(&paths.report, "--report")?;
    let model_bytes = std::fs::read(model)
        .map_err(|e| DriverError::Message(format!("{}: {e}", model.display())))?;
    let model_sha256 = strata_artifact::sha256_hex(&model_bytes);
    let previous = if o.resume {
        log::read(&paths.log, &model_sha256)?
    } else {
        if std::fs::metadata(&paths.log).is_ok_and(|m| m.len() > 0) {
            return Err(DriverError::Message(format!(
                "--log {}: the log holds records already; --resume continues it, or name another log",
                paths.log.display()
            )));
        }
        Vec::new()
    };
    // The base recipe as a table the knobs are set on.
    let mut base_table: toml::Table = toml::from_str(&base.canonical())
        .map_err(|e| DriverError::Message(format!("the base recipe: {e}")))?;
    if let Some(t) = o.threads {
        base_table["codegen"]["threads"] = toml::Value::Integer(t as i64);
    }
    base_table["codegen"]["target"] = toml::Value::String(target.to_string());
    let threads = crate::bench::resolve_threads(o.threads, &base);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let space = match o.space {
        Some(path) => space::load(path, &base_table)?,
        None => {
            let choices: Vec<usize> = if o.threads.is_none() && cores > 1 {
                vec![1, cores]
            } else {
                Vec::new()
            };
            space::default_space(target, &choices)
        }
    };
    // A GPU target's trials run on the GPU: its name, or none.
    let device = if target == "host" {
        strata_lowering::llvm::host_cpu_name()
    } else {
        gpu::device_name().unwrap_or_else(|| "no CUDA device".into())
    };
    let fingerprint = Fingerprint::here(target, device, threads);
    let candidates = candidates(
        &space,
        &base_table,
        o.seed,
        o.max_trials,
        &previous,
        &fingerprint,
    )?;
    eprintln!(
        "tune: {} candidates (the base recipe and {} of the space's {} points), at most {:.0} s",
        candidates.len(),
        candidates.len() - 1,
        space.size(),
        o.time_budget
    );
    // Inputs and eager mode's outputs, once, as files the trials read.
    let work = std::env::temp_dir().join(format!("strata-tune-{}", std::process::id()));
    let job = reference_job(model, &o, &work)?;
    let search = Search {
        o: &o,
        space: &space,
        paths: &paths,
        job,
        work: work.clone(),
        model_sha256,
        fingerprint,
        previous,
        start: Instant::now(),
        progress: Progress::new(candidates.len() + candidates.len().div_ceil(3) + FINALISTS + 1),
        records: Vec::new(),
    };
    let result = search.run(&candidates);
    let _ = std::fs::remove_dir_all(&work);
    let (records, elapsed) = result?;
    report::finish(model, &space, &candidates, &records, &paths, elapsed)
}

/// The base recipe and the points to try, in the order to try them.
fn candidates(
    space: &Space,
    base: &toml::Table,
    seed: u64,
    max_trials: usize,
    previous: &[Record],
    here: &Fingerprint,
) -> Result<Vec<Candidate>, DriverError> {
    let base_recipe = space::candidate(base, &[]).map_err(DriverError::Message)?;
    let mut out = vec![Candidate {
        trial: 0,
        point: None,
        knobs: Vec::new(),
        canonical: base_recipe.canonical(),
        sha256: base_recipe.sha256(),
    }];
    let mut points = space.points();
    // Seeded Fisher-Yates: the same seed, the same order.
    let mut rng = SplitMix(seed ^ 0x5eed_7a11);
    for i in (1..points.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        points.swap(i, j);
    }
    // Candidates measured on another machine go first: a starting point.
    let elsewhere: Vec<&str> = previous
        .iter()
        .filter(|r| r.fingerprint != *here && r.state == State::Ok)
        .map(|r| r.recipe_sha256.as_str())
        .collect();
    let mut made: Vec<(bool, Candidate)> = Vec::new();
    for p in points {
        let recipe = space::candidate(base, &space.settings(&p)).map_err(DriverError::Message)?;
        let sha256 = recipe.sha256();
        if sha256 == out[0].sha256 || made.iter().any(|(_, c)| c.sha256 == sha256) {
            continue;
        }
        let knobs = space
            .settings(&p)
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        made.push((
            !elsewhere.contains(&sha256.as_str()),
            Candidate {
                trial: 0,
                point: Some(p),
                knobs,
                canonical: recipe.canonical(),
                sha256,
            },
        ));
    }
    made.sort_by_key(|(later, _)| *later);
    out.extend(
        made.into_iter()
            .map(|(_, c)| c)
            .take(max_trials.saturating_sub(1)),
    );
    for (i, c) in out.iter_mut().enumerate() {
        c.trial = i;
    }
    Ok(out)
}

/// Writes the inputs and eager mode's outputs into `work` and returns the
/// job the trials share (recipes and runs filled in per evaluation).
fn reference_job(
    model: &Path,
    o: &TuneOptions<'_>,
    work: &Path,
) -> Result<trial::Job, DriverError> {
    let Prepared {
        ctx,
        func,
        args,
        in_names,
        out_names,
        ..
    } = prepare(model, o.inputs, &[], 0, o.dims, o.function)?;
    let eager = strata_runtime::interp::run_function(&ctx, func, args.clone()).map_err(|e| {
        DriverError::Message(format!("eager mode (the reference of every trial): {e}"))
    })?;
    for sub in ["inputs", "expected", "recipes"] {
        std::fs::create_dir_all(work.join(sub))
            .map_err(|e| DriverError::Message(format!("{}: {e}", work.display())))?;
    }
    let save = |dir: &str, names: &[String], tensors: &[strata_runtime::Tensor]| {
        names
            .iter()
            .zip(tensors)
            .enumerate()
            .map(|(i, (name, t))| {
                let path = work.join(dir).join(format!("{i}.npy"));
                strata_runtime::npy::save(&path, t)
                    .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
                Ok(format!("{name}={}", path.display()))
            })
            .collect::<Result<Vec<String>, DriverError>>()
    };
    Ok(trial::Job {
        model: model.to_path_buf(),
        function: o.function.to_string(),
        inputs: save("inputs", &in_names, &args)?,
        expected: save("expected", &out_names, &eager)?,
        recipes: Vec::new(),
        warmup: WARMUP,
        runs: 0,
        cache_dir: None,
    })
}

/// A progress bar on a terminal, plain lines elsewhere.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn new(planned: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(planned as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "tune [{bar:30}] {pos}/{len} evaluations, {elapsed} {msg}",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        Progress { bar }
    }

    fn say(&self, line: &str, status: &str) {
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(status.to_string());
            }
            None => eprintln!("{line} ({status})"),
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The search's state while it runs.
struct Search<'a> {
    o: &'a TuneOptions<'a>,
    space: &'a Space,
    paths: &'a Paths,
    job: trial::Job,
    work: PathBuf,
    model_sha256: String,
    fingerprint: Fingerprint,
    previous: Vec<Record>,
    start: Instant,
    progress: Progress,
    records: Vec<Record>,
}

impl Search<'_> {
    fn time_left(&self) -> f64 {
        self.o.time_budget - self.start.elapsed().as_secs_f64()
    }

    /// The best median so far and the failures, for the progress line.
    fn status(&self) -> String {
        let best = self
            .records
            .iter()
            .filter_map(|r| r.summary.filter(|_| r.state == State::Ok))
            .map(|s| s.median_ms)
            .min_by(f64::total_cmp);
        let failures = self
            .records
            .iter()
            .filter(|r| !matches!(r.state, State::Ok | State::Pruned))
            .count();
        format!(
            "best {}, {failures} failed, {:.0} s left",
            best.map_or("-".into(), |b| format!("{b:.3} ms")),
            self.time_left().max(0.0)
        )
    }

    /// Evaluates `group` (several candidates: their runs interleaved) at
    /// `rung`; records reused from the log where this machine made them.
    fn evaluate(
        &mut self,
        group: &[&Candidate],
        rung: &str,
        runs: usize,
    ) -> Result<Vec<Record>, DriverError> {
        let reused: Vec<Option<Record>> = group
            .iter()
            .map(|c| {
                self.previous
                    .iter()
                    .find(|r| {
                        r.recipe_sha256 == c.sha256
                            && r.rung == rung
                            && r.fingerprint == self.fingerprint
                    })
                    .cloned()
            })
            .collect();
        let outcomes = if reused.iter().all(Option::is_some) {
            None
        } else {
            let mut job = self.job.clone();
            job.runs = runs;
            job.recipes = group
                .iter()
                .map(|c| {
                    let path = self.work.join("recipes").join(format!("{}.toml", c.sha256));
                    std::fs::write(&path, &c.canonical)
                        .map(|()| path.clone())
                        .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))
                })
                .collect::<Result<_, _>>()?;
            Some(trial::run_isolated(
                &job,
                &self.work,
                Duration::from_secs_f64(self.o.trial_timeout),
            )?)
        };
        let mut out = Vec::new();
        for (i, c) in group.iter().enumerate() {
            let record = match (&reused[i], &outcomes) {
                (Some(r), None) => r.clone(),
                (_, Some(outcomes)) => {
                    let oc = &outcomes[i];
                    let r = Record {
                        trial: c.trial,
                        rung: rung.to_string(),
                        model_sha256: self.model_sha256.clone(),
                        knobs: c.knobs.clone(),
                        recipe: c.canonical.clone(),
                        recipe_sha256: c.sha256.clone(),
                        state: oc.state,
                        message: oc.message.clone(),
                        samples_ms: oc.samples_ms.clone(),
                        summary: Summary::of(&oc.samples_ms),
                        compile_ms: oc.compile_ms,
                        kernels: oc.kernels,
                        peak_activation_bytes: oc.arena_bytes,
                        fingerprint: self.fingerprint.clone(),
                        at_s: self.start.elapsed().as_secs_f64(),
                    };
                    log::append(&self.paths.log, &r)?;
                    r
                }
                (None, None) => unreachable!("evaluated unless every record was reused"),
            };
            let what = match &c.point {
                Some(p) => self.space.describe(p),
                None => "base recipe".into(),
            };
            let result = match record.summary.filter(|_| record.state == State::Ok) {
                Some(s) => format!("ok {:.3} ms", s.median_ms),
                None => record.state.name().to_string(),
            };
            self.records.push(record.clone());
            self.progress.say(
                &format!("tune: trial {} [rung {rung}] {what}: {result}", c.trial),
                &self.status(),
            );
            out.push(record);
        }
        Ok(out)
    }

    /// Records `c` as pruned at `rung` (slower than the cut).
    fn prune(&mut self, c: &Candidate, rung: &str, why: String) -> Result<(), DriverError> {
        let logged = self
            .previous
            .iter()
            .find(|r| r.recipe_sha256 == c.sha256 && r.rung == rung && r.state == State::Pruned)
            .cloned();
        if let Some(r) = logged {
            self.records.push(r);
            return Ok(());
        }
        let r = Record {
            trial: c.trial,
            rung: rung.to_string(),
            model_sha256: self.model_sha256.clone(),
            knobs: c.knobs.clone(),
            recipe: c.canonical.clone(),
            recipe_sha256: c.sha256.clone(),
            state: State::Pruned,
            message: why,
            samples_ms: Vec::new(),
            summary: None,
            compile_ms: None,
            kernels: None,
            peak_activation_bytes: None,
            fingerprint: self.fingerprint.clone(),
            at_s: self.start.elapsed().as_secs_f64(),
        };
        log::append(&self.paths.log, &r)?;
        self.records.push(r);
        Ok(())
    }

    /// Successive halving, then the final interleaved re-timing.
    fn run(mut self, candidates: &[Candidate]) -> Result<(Vec<Record>, Duration), DriverError> {
        let mut alive: Vec<&Candidate> = candidates.iter().collect();
        for (rung, &runs) in RUNG_RUNS.iter().enumerate() {
            let name = rung.to_string();
            let mut medians: BTreeMap<usize, f64> = BTreeMap::new();
            for c in &alive {
                if self.time_left() <= 0.0 {
                    break;
                }
                let r = self.evaluate(&[c], &name, runs)?;
                if let Some(s) = r[0].summary.filter(|_| r[0].state == State::Ok) {
                    medians.insert(c.trial, s.median_ms);
                }
            }
            // The fastest third goes on (the base recipe always does).
            let mut ranked: Vec<(usize, f64)> = medians.into_iter().collect();
            ranked.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            let keep = ranked.len().div_ceil(3).max(FINALISTS.min(ranked.len()));
            let cut = ranked
                .get(keep.saturating_sub(1))
                .map_or(f64::INFINITY, |r| r.1);
            let kept: Vec<usize> = ranked.iter().take(keep).map(|r| r.0).collect();
            let next_rung = (rung + 1).to_string();
            let mut next = Vec::new();
            for c in alive {
                let base_ran = c.trial == 0 && ranked.iter().any(|r| r.0 == 0);
                if kept.contains(&c.trial) || base_ran {
                    next.push(c);
                } else if let Some(m) = ranked.iter().find(|r| r.0 == c.trial) {
                    self.prune(
                        c,
                        &next_rung,
                        format!(
                            "median {:.3} ms at rung {rung}, slower than the cut at {cut:.3} ms",
                            m.1
                        ),
                    )?;
                }
            }
            alive = next;
            if self.time_left() <= 0.0 {
                break;
            }
        }
        // The finalists and the base, their runs interleaved in one process.
        let last = self.records.clone();
        let mut finalists: Vec<&Candidate> = alive
            .iter()
            .copied()
            .filter(|c| c.trial != 0)
            .filter(|c| {
                last.iter()
                    .rev()
                    .find(|r| r.trial == c.trial)
                    .is_some_and(|r| r.state == State::Ok)
            })
            .collect();
        finalists.sort_by(|a, b| {
            let m = |c: &Candidate| {
                last.iter()
                    .rev()
                    .find(|r| r.trial == c.trial)
                    .and_then(|r| r.summary)
                    .map_or(f64::INFINITY, |s| s.median_ms)
            };
            m(a).total_cmp(&m(b)).then(a.trial.cmp(&b.trial))
        });
        finalists.truncate(FINALISTS);
        finalists.insert(0, &candidates[0]);
        if self.time_left() > 0.0 && finalists.len() > 1 {
            self.evaluate(&finalists, "final", FINAL_RUNS)?;
        }
        self.progress.done();
        Ok((self.records, self.start.elapsed()))
    }
}
