//! The node tests in `graph` mode: each test that passes eagerly is
//! compiled (specialized to each data set's input shapes, lowered to a
//! host plan, JIT-compiled) and its outputs compared with the
//! interpreter's at the per-dtype tolerance (`Tolerance::for_dtype`).
//!
//! A test whose ops do not lower yet is "not lowered" with the reason the
//! compiler gives (an op the lowering does not know, a shape it does not
//! take); any other compile error, a run error or a mismatch is a failure.

use strata_ir::Context;
use strata_onnx::proto::ModelProto;
use strata_runtime::compiled::{
    compile, compile_pinned, lower, needs_input_values, CompileError, CompiledModel, GPU_PIPELINE,
    HOST_PIPELINE,
};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{Datum, Tensor};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GraphOutcome {
    Pass,
    Fail(String),
    NotLowered(String),
}

/// Whether a compile error says the model needs what the lowering lacks.
fn not_lowered(message: &str) -> Option<String> {
    const MARKERS: [&str; 12] = [
        "not lowered to nvptx",
        "the GPU translation does not handle",
        "is not compiled for the GPU",
        "not a constant",
        "has no host",
        "no host representation",
        "cannot be lowered",
        "do not lower",
        "does not lower",
        "needs static shapes",
        "is not compiled for the host",
        "the tensor lowering takes",
    ];
    MARKERS.iter().any(|m| message.contains(m)).then(|| {
        // `'graph.foo' op cannot be lowered ...` -> the op and the reason.
        let text: String = message.chars().take(120).collect();
        text.split(" (").next().unwrap_or(&text).to_string()
    })
}

fn compile_failure(e: &CompileError) -> GraphOutcome {
    let message = match e {
        CompileError::Diagnostics(d) => d
            .iter()
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    };
    match not_lowered(&message) {
        Some(reason) => GraphOutcome::NotLowered(reason),
        None => GraphOutcome::Fail(format!("compile: {message}")),
    }
}

/// Run `model` in graph mode on each `(inputs, eager outputs)` pair.
pub fn run(model: &ModelProto, sets: &[(Vec<Tensor>, Vec<Tensor>)]) -> GraphOutcome {
    for (inputs, eager) in sets {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        let module = match strata_onnx::import_model(&mut ctx, model, "model.onnx") {
            Ok(m) => m,
            Err(e) => return GraphOutcome::Fail(format!("import: {e}")),
        };
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
        let compiled = match compile(&mut ctx, module, "main", &shapes, 1) {
            Ok(c) => c,
            // Axes, pads, starts or shapes given as inputs: compile again
            // with the small integer inputs' values as constants.
            Err(e) if needs_input_values(&e) => match compile_with_values(model, inputs) {
                Ok(c) => c,
                Err(e) => return compile_failure(&e),
            },
            Err(e) => return compile_failure(&e),
        };
        let outputs = match compiled.run(inputs) {
            Ok(o) => o,
            Err(e) => return GraphOutcome::Fail(format!("run: {e}")),
        };
        if outputs.len() != eager.len() {
            return GraphOutcome::Fail(format!(
                "{} outputs, eager gave {}",
                outputs.len(),
                eager.len()
            ));
        }
        for (i, (g, e)) in outputs.iter().zip(eager).enumerate() {
            if let Err(m) = allclose(g, e, Tolerance::for_dtype(e.dtype())) {
                return GraphOutcome::Fail(format!("output #{i} differs from eager: {m}"));
            }
        }
    }
    GraphOutcome::Pass
}

/// Run `model` with its kernels in their GPU form (`GPU_PIPELINE`): each
/// GPU kernel emulated on the host thread by thread against the eager
/// outputs, and the PTX of all of them assembled by ptxas for sm_90 (the
/// first data set's). Called for the tests that pass in graph mode.
///
/// With `bundle`, the first data set's GPU form is also written there as a
/// bundle for `scripts/gpu-check` (`model.strata`, a CUDA artifact for
/// sm_90; `inputs/<i>.npy`; `expected/<i>.npy`, eager mode's outputs).
pub fn run_gpu(
    model: &ModelProto,
    sets: &[(Vec<Tensor>, Vec<Tensor>)],
    bundle: Option<&std::path::Path>,
) -> GraphOutcome {
    for (k, (inputs, eager)) in sets.iter().enumerate() {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        let module = match strata_onnx::import_model(&mut ctx, model, "model.onnx") {
            Ok(m) => m,
            Err(e) => return GraphOutcome::Fail(format!("import: {e}")),
        };
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
        let compiled = match lower(&mut ctx, module, "main", &shapes, GPU_PIPELINE)
            .and_then(|()| CompiledModel::from_gpu_module_emulated(&ctx, module, "main", 1))
        {
            Ok(c) => Ok((ctx, module, c)),
            Err(e) if needs_input_values(&e) => gpu_with_values(model, inputs),
            Err(e) => Err(e),
        };
        let (mut ctx, module, compiled) = match compiled {
            Ok(c) => c,
            Err(e) => return compile_failure(&e),
        };
        let outputs = match compiled.run(inputs) {
            Ok(o) => o,
            Err(e) => return GraphOutcome::Fail(format!("run (emulated GPU kernels): {e}")),
        };
        for (i, (g, e)) in outputs.iter().zip(eager).enumerate() {
            if let Err(m) = allclose(g, e, Tolerance::for_dtype(e.dtype())) {
                return GraphOutcome::Fail(format!(
                    "output #{i} of the emulated GPU kernels differs from eager: {m}"
                ));
            }
        }
        if k == 0 && compiled.launches() > 0 {
            if let Err(m) = assemble(&ctx, module) {
                return GraphOutcome::Fail(m);
            }
        }
        // bf16 has no NumPy dtype: those tests get no bundle.
        let npy_types = inputs
            .iter()
            .chain(eager)
            .all(|t| t.dtype() != strata_runtime::DType::BF16);
        if let (0, Some(dir), true) = (k, bundle, npy_types) {
            if let Err(m) = write_bundle(dir, &mut ctx, module, inputs, eager) {
                return GraphOutcome::Fail(format!("GPU bundle: {m}"));
            }
        }
    }
    GraphOutcome::Pass
}

/// Write the bundle of `module` (lowered to its GPU form) to `dir`.
fn write_bundle(
    dir: &std::path::Path,
    ctx: &mut Context,
    module: strata_ir::Operation,
    inputs: &[Tensor],
    expected: &[Tensor],
) -> Result<(), String> {
    let source = strata_runtime::artifact::ArtifactSource {
        model: "model.onnx".into(),
        function: "main".into(),
        ..Default::default()
    };
    let artifact = strata_runtime::artifact::build_artifact(ctx, module, &source)
        .map_err(|e| e.to_string())?;
    for sub in ["inputs", "expected"] {
        std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
    }
    artifact
        .write(&dir.join("model.strata"))
        .map_err(|e| e.to_string())?;
    for (sub, tensors) in [("inputs", inputs), ("expected", expected)] {
        for (i, t) in tensors.iter().enumerate() {
            let path = dir.join(sub).join(format!("{i}.npy"));
            strata_runtime::npy::save(&path, t).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The PTX of `module`'s GPU kernels, assembled by ptxas (skipped, with a
/// note, when STRATA_SKIP_CUDA_TOOLS is set and there is no ptxas).
fn assemble(ctx: &Context, module: strata_ir::Operation) -> Result<(), String> {
    let (ptx, target) =
        strata_lowering::nvptx_to_llvm::to_ptx(ctx, module).map_err(|e| format!("PTX: {e}"))?;
    if strata_lowering::llvm::nvptx::ptxas_path().is_none()
        && std::env::var_os("STRATA_SKIP_CUDA_TOOLS").is_some()
    {
        return Ok(());
    }
    strata_lowering::llvm::nvptx::check_with_ptxas(&ptx, target)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// [`run_gpu`]'s compile with the small inputs pinned to their values.
fn gpu_with_values(
    model: &ModelProto,
    inputs: &[Tensor],
) -> Result<(Context, strata_ir::Operation, CompiledModel), CompileError> {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = strata_onnx::import_model(&mut ctx, model, "model.onnx")
        .map_err(|e| CompileError::Inputs(e.to_string()))?;
    let pin: Vec<bool> = inputs
        .iter()
        .map(strata_runtime::compiled::pinnable)
        .collect();
    let c = compile_pinned(&mut ctx, module, "main", inputs, &pin, 1, GPU_PIPELINE)?;
    Ok((ctx, module, c))
}

/// `model` compiled for `inputs`, its small integer and float inputs
/// (`compiled::pinnable`: axes, pads, shapes, scales) pinned to their values.
fn compile_with_values(
    model: &ModelProto,
    inputs: &[Tensor],
) -> Result<CompiledModel, CompileError> {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = strata_onnx::import_model(&mut ctx, model, "model.onnx")
        .map_err(|e| CompileError::Inputs(e.to_string()))?;
    let pin: Vec<bool> = inputs
        .iter()
        .map(strata_runtime::compiled::pinnable)
        .collect();
    compile_pinned(&mut ctx, module, "main", inputs, &pin, 1, HOST_PIPELINE)
}

/// The ONNX ops whose second input holds indices into the first.
const INDEXING_OPS: [&str; 6] = [
    "Gather",
    "GatherElements",
    "GatherND",
    "ScatterElements",
    "ScatterND",
    "Scatter",
];

/// The positions (among the graph's inputs that are not initializers) of
/// the inputs an indexing op takes as its indices.
fn index_inputs(model: &ModelProto) -> Vec<usize> {
    let Some(g) = model.graph.as_ref() else {
        return Vec::new();
    };
    let inits: std::collections::HashSet<&str> = g.initializer.iter().map(|t| t.name()).collect();
    let inputs: Vec<&str> = g
        .input
        .iter()
        .map(|i| i.name())
        .filter(|n| !inits.contains(n))
        .collect();
    let mut out: Vec<usize> = g
        .node
        .iter()
        .filter(|n| INDEXING_OPS.contains(&n.op_type()))
        .filter_map(|n| n.input.get(1))
        .filter_map(|name| inputs.iter().position(|i| i == name))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Float values at the edges: NaN, infinities, signed zeros, the extremes
/// (which round to infinity in narrower types), tiny and denormal values,
/// and ordinary ones among them.
const EDGE_FLOATS: [f64; 12] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    3.4028234663852886e38,
    -3.4028234663852886e38,
    1e-40,
    1.0,
    -1.0,
    0.5,
    100.0,
];

/// `t` with adversarial values: floats cycle through [`EDGE_FLOATS`]
/// (shifted by `seed`), index inputs through values past both ends of any
/// dimension; other integer and boolean inputs keep their values (they
/// are shapes, counts and axes, whose extremes only ask for more memory).
fn adversarial(t: &Tensor, index: bool, seed: usize) -> Tensor {
    let n = t.shape().iter().product::<usize>();
    if t.dtype().is_float() {
        let v: Vec<f64> = (0..n)
            .map(|i| EDGE_FLOATS[(i + seed) % EDGE_FLOATS.len()])
            .collect();
        return Tensor::from_f64_vec(t.dtype(), t.shape(), &v);
    }
    if index && t.dtype().is_int() {
        let past: [f64; 4] = [1e9, -1e9 - 1.0, 2147483647.0, -2147483648.0];
        let mut v = t.to_f64_vec();
        // One bad index (the first), the rest as they were: the refusal
        // must name that one.
        if let Some(first) = v.first_mut() {
            *first = past[seed % past.len()];
        }
        return Tensor::from_f64_vec(t.dtype(), t.shape(), &v);
    }
    t.clone()
}

/// Graph mode against eager mode on adversarial inputs (see
/// [`adversarial`]) of the shapes of `inputs`: graph mode must compute what
/// eager computes, at the dtype's tolerance with NaN where eager has NaN
/// and the same infinities, or refuse what eager refuses (an index out of
/// range with the same message). Called for the tests that pass in graph
/// mode.
pub fn run_adversarial(model: &ModelProto, inputs: &[Tensor], seed: usize) -> GraphOutcome {
    let indices = index_inputs(model);
    let inputs: Vec<Tensor> = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| adversarial(t, indices.contains(&i), seed))
        .collect();
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = match strata_onnx::import_model(&mut ctx, model, "model.onnx") {
        Ok(m) => m,
        Err(e) => return GraphOutcome::Fail(format!("import: {e}")),
    };
    let Some(func) = strata_runtime::interp::lookup_function(&ctx, module, "main") else {
        return GraphOutcome::Fail("no @main".into());
    };
    let eager = strata_runtime::interp::run_function(&ctx, func, inputs.clone());
    let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
    let compiled = match compile(&mut ctx, module, "main", &shapes, 1) {
        Ok(c) => c,
        Err(e) if needs_input_values(&e) => match compile_with_values(model, &inputs) {
            Ok(c) => c,
            // Pinned values can be what the compiler refuses (a size past
            // the budget): so did eager mode.
            Err(_) if eager.is_err() => return GraphOutcome::Pass,
            Err(e) => return compile_failure(&e),
        },
        Err(e) => return compile_failure(&e),
    };
    match (eager, compiled.run(&inputs)) {
        (Ok(eager), Ok(outputs)) => {
            for (i, (g, e)) in outputs.iter().zip(&eager).enumerate() {
                if let Err(m) = allclose(g, e, Tolerance::for_dtype(e.dtype())) {
                    return GraphOutcome::Fail(format!("output #{i} differs from eager: {m}"));
                }
            }
            GraphOutcome::Pass
        }
        (Err(e), Err(g)) => {
            let (e, g) = (e.to_string(), g.to_string());
            let core = |m: &str| m.split("invalid argument: ").nth(1).map(str::to_string);
            match (core(&e), core(&g)) {
                (Some(a), Some(b)) if a != b => {
                    GraphOutcome::Fail(format!("refused differently: eager {e}; graph {g}"))
                }
                _ => GraphOutcome::Pass,
            }
        }
        (Ok(_), Err(g)) => {
            GraphOutcome::Fail(format!("graph mode refuses what eager computes: {g}"))
        }
        (Err(e), Ok(_)) => {
            GraphOutcome::Fail(format!("graph mode computes what eager refuses: {e}"))
        }
    }
}

/// Hybrid mode (a session with `runtime.fallback = "eager"`) against eager
/// mode on each data set (inputs, eager mode's outputs; values compared by
/// `close`): the outcome, and the first set's compiled fraction
/// ([`Coverage`]). Every test that passes eagerly must pass here too: what
/// does not lower (sequences, optionals and strings among it) runs in
/// eager islands.
pub fn run_hybrid(
    model: &ModelProto,
    sets: &[(Vec<Datum>, Vec<Datum>)],
    close: &dyn Fn(&Datum, &Datum) -> Result<(), String>,
) -> (GraphOutcome, Option<Coverage>) {
    use strata_runtime::session::{ExeMode, Fallback, Session, SessionOptions, Source};
    let proto = std::sync::Arc::new(model.clone());
    let source: Source = std::sync::Arc::new(move || {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        let module =
            strata_onnx::import_model(&mut ctx, &proto, "model.onnx").map_err(|e| e.to_string())?;
        Ok((ctx, module))
    });
    let options = SessionOptions {
        exe_mode: ExeMode::Hybrid,
        threads: 1,
        fallback: Fallback::Eager,
        ..SessionOptions::default()
    };
    let session = match Session::new(source, options) {
        Ok(s) => s,
        Err(e) => return (GraphOutcome::Fail(format!("session: {e}")), None),
    };
    for (inputs, eager) in sets {
        let outputs = match session.run_values(inputs.clone()) {
            Ok(o) => o,
            Err(e) => return (GraphOutcome::Fail(format!("run: {e}")), None),
        };
        if outputs.len() != eager.len() {
            let m = format!("{} outputs, eager gave {}", outputs.len(), eager.len());
            return (GraphOutcome::Fail(m), None);
        }
        for (i, (g, e)) in outputs.iter().zip(eager).enumerate() {
            if let Err(m) = close(g, e) {
                let m = format!("output #{i} differs from eager: {m}");
                return (GraphOutcome::Fail(m), None);
            }
        }
    }
    let report = session.report();
    let coverage = report.partitions.first().map(|(_, p)| Coverage {
        ops: (p.ops_compiled(), p.ops_total()),
        flops: (p.cost_compiled().flops, p.cost_total().flops),
    });
    (GraphOutcome::Pass, coverage)
}

/// The tolerance hybrid mode is held to for a value like `d`: its
/// element type's ([`Tolerance::for_dtype`]).
pub fn value_tolerance(d: &Datum) -> Tolerance {
    match d {
        Datum::Tensor(t) => Tolerance::for_dtype(t.dtype()),
        Datum::Sequence(items) => items
            .first()
            .map_or(Tolerance::EXACT, |t| Tolerance::for_dtype(t.dtype())),
        Datum::Optional(Some(inner)) => value_tolerance(inner),
        Datum::Optional(None) | Datum::Strings(_) => Tolerance::EXACT,
    }
}

/// What hybrid mode compiled of a test: (compiled, all) ops, and the
/// same of the estimated FLOPs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Ops compiled, ops in all.
    pub ops: (usize, usize),
    /// Estimated FLOPs compiled, in all.
    pub flops: (u64, u64),
}

impl std::fmt::Display for Coverage {
    /// `3/4 ops 93/105 flops`, as the records write it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{} ops {}/{} flops",
            self.ops.0, self.ops.1, self.flops.0, self.flops.1
        )
    }
}

impl std::str::FromStr for Coverage {
    type Err = ();
    fn from_str(s: &str) -> Result<Coverage, ()> {
        let pair = |t: &str| -> Result<(u64, u64), ()> {
            let (a, b) = t.split_once('/').ok_or(())?;
            Ok((a.parse().map_err(|_| ())?, b.parse().map_err(|_| ())?))
        };
        let words: Vec<&str> = s.split_whitespace().collect();
        let [ops, "ops", flops, "flops"] = words[..] else {
            return Err(());
        };
        let (c, t) = pair(ops)?;
        Ok(Coverage {
            ops: (c as usize, t as usize),
            flops: pair(flops)?,
        })
    }
}
