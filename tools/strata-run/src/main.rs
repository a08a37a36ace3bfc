//! `strata-run`: runs CUDA artifacts (written by `strata compile --target
//! sm_80|sm_90 -o model.strata`) on an NVIDIA GPU.
//!
//! The deployment half of strata: it links no LLVM and no CUDA (cudarc
//! loads the driver and cuBLAS when a model is loaded), so it is small and
//! runs where the compiler is not installed. `probe` says whether there is a
//! device; `run` runs an artifact on `.npy` inputs; `check` runs bundles of
//! an artifact with inputs and expected outputs and compares; `bench` times
//! the launches with and without a CUDA graph.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use strata_artifact::Artifact;
use strata_cuda::{probe, CudaError, CudaModel};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{npy, Tensor};

// The driver's standard output (tools/strata/src/out.rs): `out!` and
// `outln!` end the process quietly when the reader has gone (`| head`).
#[macro_use]
#[path = "../../strata/src/out.rs"]
mod out;

#[derive(Parser)]
#[command(
    name = "strata-run",
    version,
    about = "Run strata's CUDA artifacts on an NVIDIA GPU"
)]
struct Cli {
    /// The CUDA device to run on.
    #[arg(long, default_value_t = 0, global = true)]
    device: usize,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Say whether there is a CUDA driver and device (exit 1 if not).
    Probe,
    /// Run an artifact on inputs given as `.npy` files.
    Run {
        /// The artifact (`strata compile --target sm_90 -o model.strata`).
        artifact: PathBuf,
        /// An input as NAME=FILE.npy (NAME as the manifest lists it); every
        /// input must be given.
        #[arg(long = "input", value_name = "NAME=FILE")]
        inputs: Vec<String>,
        /// Write each output to DIR/<index>.npy (in the manifest's order).
        #[arg(long = "output-dir", value_name = "DIR")]
        output_dir: Option<PathBuf>,
        /// Replay the launches from a CUDA graph.
        #[arg(long = "cuda-graph")]
        cuda_graph: bool,
    },
    /// Run bundles (a directory with `model.strata`, `inputs/<i>.npy` and
    /// `expected/<i>.npy`) and compare their outputs; exit 1 on a mismatch.
    Check {
        bundles: Vec<PathBuf>,
        /// Replay the launches from a CUDA graph (checks both ways when
        /// not given: plain launches, then the graph).
        #[arg(long = "cuda-graph")]
        cuda_graph: bool,
        /// Relative tolerance (default: by dtype).
        #[arg(long)]
        rtol: Option<f64>,
        /// Absolute tolerance (default: by dtype).
        #[arg(long)]
        atol: Option<f64>,
    },
    /// Time an artifact's launches on the device: median of `--runs` runs,
    /// with plain launches and replayed from a CUDA graph (JSON). The
    /// inputs are a bundle's, or made up (uniform in [-1, 1) for floats,
    /// 0 to 9 for integers) for an artifact file.
    Bench {
        /// An artifact, or a bundle directory.
        path: PathBuf,
        #[arg(long, default_value_t = 50)]
        runs: usize,
        #[arg(long, default_value_t = 5)]
        warmup: usize,
    },
}

#[derive(Debug, thiserror::Error)]
enum Error {
    #[error("{0}")]
    Message(String),
    #[error("{path}: error: {source}")]
    Cuda { path: String, source: CudaError },
    #[error(transparent)]
    NoDevice(CudaError),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Probe => probe(cli.device)
            .map(|d| {
                outln!(
                    "device {}: {} (sm_{}{}, {} MiB)",
                    d.ordinal,
                    d.name,
                    d.capability.0,
                    d.capability.1,
                    d.memory_bytes >> 20
                )
            })
            .map_err(Error::NoDevice),
        Command::Run {
            artifact,
            inputs,
            output_dir,
            cuda_graph,
        } => run(
            &artifact,
            &inputs,
            output_dir.as_deref(),
            cuda_graph,
            cli.device,
        ),
        Command::Check {
            bundles,
            cuda_graph,
            rtol,
            atol,
        } => check(&bundles, cuda_graph, (rtol, atol), cli.device),
        Command::Bench { path, runs, warmup } => bench(&path, runs, warmup, cli.device),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Read artifact `path` and load it on `device`.
fn load(path: &Path, device: usize) -> Result<(Artifact, CudaModel), Error> {
    let shown = path.display().to_string();
    let artifact = Artifact::read(path).map_err(|e| Error::Message(e.to_string()))?;
    let model = CudaModel::from_artifact(&artifact, &shown, &strata_cuda::cuda_expect(), device)
        .map_err(|e| match e {
            CudaError::NoDevice(_) => Error::NoDevice(e),
            source => Error::Cuda {
                path: shown.clone(),
                source,
            },
        })?;
    Ok((artifact, model))
}

fn cuda_error(path: &Path) -> impl Fn(CudaError) -> Error + '_ {
    move |source| Error::Cuda {
        path: path.display().to_string(),
        source,
    }
}

fn read_npy(path: &Path) -> Result<Tensor, Error> {
    npy::load(path).map_err(|e| Error::Message(format!("{}: error: {e}", path.display())))
}

fn run(
    path: &Path,
    given: &[String],
    output_dir: Option<&Path>,
    graph: bool,
    device: usize,
) -> Result<(), Error> {
    let mut files = BTreeMap::new();
    for spec in given {
        let (name, file) = spec
            .split_once('=')
            .ok_or_else(|| Error::Message(format!("--input {spec}: expected NAME=FILE.npy")))?;
        files.insert(name.to_string(), read_npy(Path::new(file))?);
    }
    let (artifact, mut model) = load(path, device)?;
    let mut inputs = Vec::new();
    for spec in &artifact.manifest.inputs {
        let t = files.remove(&spec.name).ok_or_else(|| {
            Error::Message(format!(
                "input '{}' ({} {:?}) is not given (--input {}=FILE.npy)",
                spec.name, spec.dtype, spec.shape, spec.name
            ))
        })?;
        inputs.push(t);
    }
    if let Some(name) = files.keys().next() {
        return Err(Error::Message(format!(
            "--input {name}: the artifact has no input of that name"
        )));
    }
    let outputs = if graph {
        model.run_graph(&inputs)
    } else {
        model.run(&inputs)
    }
    .map_err(cuda_error(path))?;
    if outputs.len() != artifact.manifest.outputs.len() {
        return Err(Error::Message(format!(
            "{}: error: the plan returned {} outputs, the manifest lists {}",
            path.display(),
            outputs.len(),
            artifact.manifest.outputs.len()
        )));
    }
    for (i, (t, spec)) in outputs.iter().zip(&artifact.manifest.outputs).enumerate() {
        outln!("{}: {} {:?}", spec.name, t.dtype(), t.shape());
        if let Some(dir) = output_dir {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::Message(format!("{}: error: {e}", dir.display())))?;
            let file = dir.join(format!("{i}.npy"));
            npy::save(&file, t)
                .map_err(|e| Error::Message(format!("{}: error: {e}", file.display())))?;
        }
    }
    Ok(())
}

/// A bundle's artifact, inputs and expected outputs.
struct Bundle {
    artifact: PathBuf,
    inputs: Vec<Tensor>,
    expected: Vec<Tensor>,
}

fn read_bundle(dir: &Path) -> Result<Bundle, Error> {
    let artifact = dir.join("model.strata");
    let manifest = Artifact::read(&artifact)
        .map_err(|e| Error::Message(e.to_string()))?
        .manifest;
    let read_all = |sub: &str, n: usize| -> Result<Vec<Tensor>, Error> {
        (0..n)
            .map(|i| read_npy(&dir.join(sub).join(format!("{i}.npy"))))
            .collect()
    };
    Ok(Bundle {
        inputs: read_all("inputs", manifest.inputs.len())?,
        expected: read_all("expected", manifest.outputs.len())?,
        artifact,
    })
}

fn compare(
    outputs: &[Tensor],
    expected: &[Tensor],
    tol: (Option<f64>, Option<f64>),
) -> Vec<String> {
    let mut out = Vec::new();
    if outputs.len() != expected.len() {
        out.push(format!(
            "{} outputs, {} expected",
            outputs.len(),
            expected.len()
        ));
    }
    for (i, (t, e)) in outputs.iter().zip(expected).enumerate() {
        let by_dtype = Tolerance::for_dtype(e.dtype());
        let tol = Tolerance::new(
            tol.0.unwrap_or(by_dtype.rtol),
            tol.1.unwrap_or(by_dtype.atol),
        );
        if let Err(m) = allclose(t, e, tol) {
            out.push(format!("output #{i}: {m}"));
        }
    }
    out
}

fn check(
    bundles: &[PathBuf],
    graph_only: bool,
    tol: (Option<f64>, Option<f64>),
    device: usize,
) -> Result<(), Error> {
    probe(device).map_err(Error::NoDevice)?;
    let mut failed = Vec::new();
    for dir in bundles {
        let name = dir.display().to_string();
        let result = (|| -> Result<Vec<String>, Error> {
            let b = read_bundle(dir)?;
            let (_, mut model) = load(&b.artifact, device)?;
            let mut problems = Vec::new();
            let modes: &[bool] = if graph_only { &[true] } else { &[false, true] };
            for &graph in modes {
                let outputs = if graph {
                    model.run_graph(&b.inputs)
                } else {
                    model.run(&b.inputs)
                }
                .map_err(cuda_error(&b.artifact))?;
                let how = if graph { "cuda graph" } else { "launches" };
                problems.extend(
                    compare(&outputs, &b.expected, tol)
                        .into_iter()
                        .map(|p| format!("{how}: {p}")),
                );
            }
            Ok(problems)
        })();
        match result {
            Ok(p) if p.is_empty() => outln!("PASS {name}"),
            Ok(p) => {
                outln!("FAIL {name}: {}", p.join("; "));
                failed.push(name);
            }
            Err(e) => {
                outln!("FAIL {name}: {e}");
                failed.push(name);
            }
        }
    }
    outln!(
        "{} of {} bundles passed",
        bundles.len() - failed.len(),
        bundles.len()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::Message(format!("{} bundles failed", failed.len())))
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    v[v.len() / 2]
}

/// Inputs for `manifest`'s specs, made up deterministically.
fn made_up_inputs(manifest: &strata_artifact::Manifest) -> Result<Vec<Tensor>, Error> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    manifest
        .inputs
        .iter()
        .map(|spec| {
            let dtype = strata_runtime::DType::ALL
                .into_iter()
                .find(|d| d.name() == spec.dtype)
                .ok_or_else(|| {
                    Error::Message(format!(
                        "input '{}': unknown dtype {}",
                        spec.name, spec.dtype
                    ))
                })?;
            let n: usize = spec.shape.iter().product();
            let values: Vec<f64> = (0..n)
                .map(|_| {
                    let u = (next() >> 11) as f64 / (1u64 << 53) as f64;
                    if dtype.is_float() {
                        2.0 * u - 1.0
                    } else if dtype == strata_runtime::DType::I1 {
                        (u < 0.5) as u8 as f64
                    } else {
                        (u * 10.0).floor()
                    }
                })
                .collect();
            Ok(Tensor::from_f64_vec(dtype, &spec.shape, &values))
        })
        .collect()
}

fn bench(path: &Path, runs: usize, warmup: usize, device: usize) -> Result<(), Error> {
    let (artifact_path, inputs) = if path.is_dir() {
        let b = read_bundle(path)?;
        (b.artifact, Some(b.inputs))
    } else {
        (path.to_path_buf(), None)
    };
    let (artifact, mut model) = load(&artifact_path, device)?;
    let inputs = match inputs {
        Some(i) => i,
        None => made_up_inputs(&artifact.manifest)?,
    };
    let b = Bundle {
        artifact: artifact_path,
        inputs,
        expected: Vec::new(),
    };
    let mut results = Vec::new();
    for graph in [false, true] {
        model
            .time(&b.inputs, warmup, graph)
            .map_err(cuda_error(&b.artifact))?;
        let times = model
            .time(&b.inputs, runs.max(1), graph)
            .map_err(cuda_error(&b.artifact))?;
        results.push(median(times.device_ms));
    }
    let report = serde_json::json!({
        "artifact": b.artifact.display().to_string(),
        "model": artifact.manifest.model,
        "device": model.device.name,
        "launches": model.step_names().len(),
        "runs": runs.max(1),
        "median_ms": results[0],
        "median_ms_cuda_graph": results[1],
    });
    outln!("{report}");
    Ok(())
}
