//! Artifacts in the driver: `strata run model.strata` and
//! `strata inspect model.strata [--json]`.

use std::io::Read;
use std::path::Path;

use strata_artifact::{Artifact, Expect, Manifest, Selection};
use strata_runtime::compiled::CompiledModel;
use strata_runtime::{DType, Tensor};

use crate::{compare_outputs, load_named, random_tensor, write_outputs, DriverError, RunOptions};

/// Whether `path` holds an artifact (by its first bytes).
pub(crate) fn is_artifact(path: &Path) -> bool {
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| Artifact::sniff(&head))
}

fn read(path: &Path) -> Result<Artifact, DriverError> {
    Artifact::read(path).map_err(|e| DriverError::Message(e.to_string()))
}

/// What runs an artifact: the host executor or the CUDA one, by its target.
enum Executor {
    Host(CompiledModel),
    Cuda(strata_cuda::CudaModel),
}

/// Runs the artifact at `path` in graph mode.
pub(crate) fn run(
    path: &Path,
    mode: Option<&str>,
    inputs: &[String],
    output_dir: Option<&Path>,
    o: &RunOptions<'_>,
) -> Result<(), DriverError> {
    let file = path.display().to_string();
    if let Some(mode) = mode.filter(|m| *m != "graph") {
        return Err(DriverError::Message(format!(
            "{file}: error: --mode {mode}: an artifact holds a compiled plan and runs in graph mode only (run the model itself for other modes)"
        )));
    }
    if o.dims.iter().next().is_some() {
        return Err(DriverError::Message(format!(
            "{file}: error: --dim: an artifact is compiled for fixed input shapes"
        )));
    }
    let artifact = read(path)?;
    let manifest = &artifact.manifest;
    if o.function != "main" && o.function != manifest.function {
        return Err(DriverError::Message(format!(
            "{file}: error: --function {}: the artifact holds @{}",
            o.function, manifest.function
        )));
    }
    let host = manifest.target == strata_runtime::artifact::HOST_TARGET;
    if let Some(t) = o.target {
        let runs = if host { "host" } else { "cuda" };
        if t != runs {
            return Err(DriverError::Message(format!(
                "{file}: error: --target {t}: the artifact is compiled for {} and runs on {runs}",
                manifest.target
            )));
        }
    }
    let mut model = if host {
        if o.cuda_graph {
            return Err(DriverError::Message(format!(
                "{file}: error: --cuda-graph: the artifact is compiled for the host"
            )));
        }
        let mut expect = Expect::new(strata_runtime::artifact::HOST_TARGET);
        if let Some(recipe) = o.recipe {
            expect.recipe_sha256 = Some(crate::recipe::load(recipe)?.sha256());
        }
        expect.custom_ops = crate::custom::implementations();
        let register = |ctx: &mut strata_ir::Context| {
            for library in crate::custom::libraries() {
                library.register(ctx);
            }
        };
        Executor::Host(
            CompiledModel::from_artifact_with(
                &artifact,
                &file,
                &expect,
                o.threads.unwrap_or_else(crate::default_threads),
                &register,
            )
            .map_err(|e| DriverError::Message(e.to_string()))?,
        )
    } else {
        let mut expect = strata_cuda::cuda_expect();
        if let Some(recipe) = o.recipe {
            expect.recipe_sha256 = Some(crate::recipe::load(recipe)?.sha256());
        }
        Executor::Cuda(
            strata_cuda::CudaModel::from_artifact(&artifact, &file, &expect, o.device).map_err(
                |e| match e {
                    strata_cuda::CudaError::NoDevice(_) => {
                        DriverError::Message(format!("{file}: error: {e}"))
                    }
                    e => DriverError::Message(e.to_string()),
                },
            )?,
        )
    };

    let in_names: Vec<String> = manifest.inputs.iter().map(|s| s.name.clone()).collect();
    let out_names: Vec<String> = manifest.outputs.iter().map(|s| s.name.clone()).collect();
    let mut given = load_named(inputs, "--input", "input", &in_names)?;
    let expected = load_named(o.expects, "--expect", "output", &out_names)?;
    let mut rng = crate::SplitMix(o.seed);
    let mut args: Vec<Tensor> = Vec::with_capacity(manifest.inputs.len());
    for spec in &manifest.inputs {
        let dtype = DType::ALL
            .into_iter()
            .find(|d| d.name() == spec.dtype)
            .ok_or_else(|| {
                DriverError::Message(format!(
                    "{file}: error: input '{}' has dtype '{}', which this runtime does not know",
                    spec.name, spec.dtype
                ))
            })?;
        let t = match given.remove(&spec.name) {
            Some((from, t)) => {
                if t.dtype() != dtype || t.shape() != spec.shape.as_slice() {
                    return Err(DriverError::Message(format!(
                        "{file}: error: input '{}' ({from}) is {} {:?}, but the artifact was compiled for {} {:?}",
                        spec.name,
                        t.dtype().name(),
                        t.shape(),
                        spec.dtype,
                        spec.shape
                    )));
                }
                t
            }
            None => random_tensor(dtype, &spec.shape, &mut rng, &spec.name)?,
        };
        args.push(t);
    }
    let outputs = match &mut model {
        Executor::Host(m) => m.run(&args).map_err(|e| e.to_string()),
        Executor::Cuda(m) => {
            crate::cuda::run_model(m, &args, o.cuda_graph).map_err(|e| e.to_string())
        }
    }
    .map_err(|e| DriverError::Message(format!("{file}: error: {e}")))?;
    write_outputs(&out_names, &outputs, output_dir, o.print)?;
    compare_outputs(&out_names, &outputs, &expected, o.tolerance)
}

/// `strata inspect`: the manifest, as text or JSON.
pub(crate) fn inspect(path: &Path, json: bool) -> Result<(), DriverError> {
    let artifact = read(path)?;
    let m = &artifact.manifest;
    if json {
        let text = serde_json::to_string_pretty(m)
            .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))?;
        outln!("{text}");
        return Ok(());
    }
    out!("{}", describe(&path.display().to_string(), m));
    Ok(())
}

fn shape(s: &[usize]) -> String {
    let dims: Vec<String> = s.iter().map(ToString::to_string).collect();
    format!("[{}]", dims.join(", "))
}

/// The manifest as `strata inspect` prints it.
fn describe(file: &str, m: &Manifest) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "{file}: strata artifact, format {}", m.format_version);
    let _ = writeln!(w, "  model      {} (sha256 {})", m.model, m.model_sha256);
    let _ = writeln!(w, "  function   @{}", m.function);
    let _ = writeln!(w, "  recipe     sha256 {}", m.recipe_sha256);
    let _ = writeln!(
        w,
        "  compiler   strata {} (build {})",
        m.compiler_version, m.build_hash
    );
    let _ = writeln!(w, "  target     {}", m.target);
    for (label, specs) in [("input", &m.inputs), ("output", &m.outputs)] {
        for s in specs.iter() {
            let _ = writeln!(
                w,
                "  {label:<10} {}: {} {}",
                s.name,
                s.dtype,
                shape(&s.shape)
            );
        }
    }
    let ratio = if m.peak_activation_bytes > 0 {
        format!(
            ", {:.1}x smaller",
            m.peak_activation_bytes_unplanned as f64 / m.peak_activation_bytes as f64
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        w,
        "  activations {} bytes planned, {} without reuse{ratio}",
        m.peak_activation_bytes, m.peak_activation_bytes_unplanned
    );
    let _ = writeln!(w, "  kernels ({}):", m.kernels.len());
    for (i, k) in m.kernels.iter().enumerate() {
        let how = match &k.selection {
            Selection::Generated { grid, .. } => {
                format!("generated, grid {}x{}x{}", grid[0], grid[1], grid[2])
            }
            Selection::Library { library, .. } => format!("library {library}"),
            Selection::Custom { op } => format!("custom op {op}"),
            Selection::Check { sizes } => format!("index check, sizes {sizes:?}"),
        };
        let args: Vec<String> = k.args.iter().map(ToString::to_string).collect();
        let _ = writeln!(w, "    {i:>3} {} ({how}) ({})", k.name, args.join(", "));
    }
    let _ = writeln!(w, "  buffers ({}):", m.buffers.len());
    for b in &m.buffers {
        let live = b
            .live
            .map_or_else(|| "unused".to_string(), |(a, z)| format!("steps {a}..{z}"));
        let _ = writeln!(w, "    arena+{} {} bytes, {live}", b.offset, b.bytes);
    }
    if m.custom_ops.is_empty() {
        let _ = writeln!(w, "  custom ops none");
    }
    for c in &m.custom_ops {
        let _ = writeln!(
            w,
            "  custom op  {} {} (sha256 {})",
            c.name, c.version, c.sha256
        );
    }
    let total: u64 = m.sections.iter().map(|s| s.bytes).sum();
    let _ = writeln!(
        w,
        "  payload    {} sections, {total} bytes",
        m.sections.len()
    );
    for s in &m.sections {
        let _ = writeln!(w, "    {} {} bytes", s.name, s.bytes);
    }
    out
}
