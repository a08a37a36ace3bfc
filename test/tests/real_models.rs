//! The real-model suite (`test/models/`): common architectures exported
//! by torch.onnx with random weights (`scripts/real-models/export.py`, run
//! by hand with torch), each stored as a graph whose large weights are a
//! seed. Each model is regenerated (`scripts/real-models/regenerate.py`,
//! with the venv of `scripts/setup-onnx`) into `target/real-models/`,
//! imported, run eagerly on its stored inputs and compared with
//! onnxruntime's stored outputs at rtol 1e-3 and atol 1e-4; what passes is
//! then compiled in graph mode and compared with the interpreter (a model
//! with symbolic sizes also with each of them 1, and each a prime), and
//! served at the prime sizes from shape buckets (padded, the padding NaN)
//! by a graph-mode session, compared with the interpreter.
//!
//! The outcomes are recorded in `test/onnx/real-models.expected`
//! (`model/eager` and `model/graph`, each `pass`, `fail: why`, `skip: why`
//! or, in graph mode, `not lowered: why`): a recorded pass that does not
//! pass now is a regression and fails the suite; any other change fails
//! until the list is updated with `STRATA_BLESS=1`, which also rewrites the
//! table in docs/conformance.md. `STRATA_REAL_MODELS=substring` runs the
//! matching models and prints their outcomes. Without the onnx venv the
//! driver fails, naming `scripts/setup-onnx`, unless `STRATA_SKIP_ONNX=1`.

mod common;
#[path = "support/node_graph.rs"]
mod node_graph;
#[path = "support/onnx_case.rs"]
mod onnx_case;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use node_graph::GraphOutcome;
use onnx_case::{
    import_outcome, one_line, op_types, outcome_problems, recorded_form, run_all, write_outcomes,
    Outcome,
};
use prost::Message;
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::Tensor;

/// The tolerance for real models against onnxruntime.
const TOLERANCE: Tolerance = Tolerance::new(1e-3, 1e-4);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `input_<i>.npy` or `output_<i>.npy` files of `dir`, in order.
fn arrays(dir: &Path, prefix: &str) -> Result<Vec<Tensor>, String> {
    let mut numbered: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n = name
                .strip_prefix(prefix)?
                .strip_suffix(".npy")?
                .parse()
                .ok()?;
            Some((n, e.path()))
        })
        .collect();
    numbered.sort();
    numbered
        .iter()
        .map(|(_, p)| strata_runtime::npy::load(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect()
}

/// Regenerates the weights of the model in `dir` into `out`.
fn regenerate(dir: &Path, out: &Path) -> Result<(), String> {
    let python = root().join(".local/onnx-venv/bin/python");
    let made = std::process::Command::new(&python)
        .arg(root().join("scripts/real-models/regenerate.py"))
        .arg(dir)
        .arg(out)
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if made.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&made.stderr).trim().to_string())
    }
}

/// The outcomes of one model: eager; when it passes, graph mode; when that
/// passes, the GPU form (emulated against eager, its PTX assembled).
type Outcomes = (
    Outcome,
    Option<GraphOutcome>,
    Option<GraphOutcome>,
    Option<String>,
);

/// The eager outcome of one model, its graph-mode one when it passes, and
/// its GPU form's when graph mode passes.
fn run_model(dir: &Path, name: &str) -> Outcomes {
    let path = root()
        .join("target/real-models")
        .join(name)
        .join("model.onnx");
    if let Err(m) = regenerate(dir, &path) {
        return (Outcome::Fail(m), None, None, None);
    }
    let model = match std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|b| {
            strata_onnx::proto::ModelProto::decode(b.as_slice()).map_err(|e| e.to_string())
        }) {
        Ok(m) => m,
        Err(e) => {
            return (
                Outcome::Fail(format!("{}: {e}", path.display())),
                None,
                None,
                None,
            )
        }
    };
    let (inputs, expected) = match (arrays(dir, "input_"), arrays(dir, "output_")) {
        (Ok(i), Ok(e)) => (i, e),
        (Err(m), _) | (_, Err(m)) => return (Outcome::Fail(m), None, None, None),
    };
    if let Some(op) = op_types(&model)
        .into_iter()
        .find(|o| !strata_onnx::SUPPORTED_OPS.contains(&o.as_str()))
    {
        return (
            Outcome::Skip(format!("unsupported op {op}")),
            None,
            None,
            None,
        );
    }
    let mut ctx = strata_ir::Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = match strata_onnx::import_model(&mut ctx, &model, "model.onnx") {
        Ok(m) => m,
        Err(e) => return (import_outcome(&e), None, None, None),
    };
    let Some(func) = lookup_function(&ctx, module, "main") else {
        return (Outcome::Fail("no @main".into()), None, None, None);
    };
    let outputs = match run_function(&ctx, func, inputs.clone()) {
        Ok(o) => o,
        Err(e) => return (Outcome::Fail(format!("run: {e}")), None, None, None),
    };
    if outputs.len() != expected.len() {
        let m = format!("{} outputs, onnxruntime {}", outputs.len(), expected.len());
        return (Outcome::Fail(m), None, None, None);
    }
    for (i, (a, e)) in outputs.iter().zip(&expected).enumerate() {
        if let Err(m) = allclose(a, e, TOLERANCE) {
            return (Outcome::Fail(format!("output #{i}: {m}")), None, None, None);
        }
    }
    let sets = [(inputs.clone(), outputs)];
    let mut graph = node_graph::run(&model, &sets);
    // A model exported with symbolic sizes also compiles with each of them
    // 1 (the most common serving shapes), and with each a prime (3, 5, ...):
    // graph mode against eager mode at those sizes.
    if graph == GraphOutcome::Pass {
        let mut other = Vec::new();
        for sizes in [Sizes::Ones, Sizes::Primes] {
            let Some(inputs) = resized(&model, &inputs, sizes) else {
                continue;
            };
            match run_function(&ctx, func, inputs.clone()) {
                Ok(eager) => other.push((inputs, eager)),
                Err(e) => {
                    let m = format!("eager at {sizes:?}: {e}");
                    return (Outcome::Pass, Some(GraphOutcome::Fail(m)), None, None);
                }
            }
        }
        graph = match node_graph::run(&model, &other) {
            GraphOutcome::Pass => GraphOutcome::Pass,
            GraphOutcome::Fail(m) => GraphOutcome::Fail(format!("at other sizes: {m}")),
            GraphOutcome::NotLowered(m) => GraphOutcome::NotLowered(format!("at other sizes: {m}")),
        };
    }
    let gpu = (graph == GraphOutcome::Pass).then(|| node_graph::run_gpu(&model, &sets, None));
    let buckets =
        (graph == GraphOutcome::Pass).then(|| served_from_buckets(&model, &ctx, func, &inputs));
    (Outcome::Pass, Some(graph), gpu, buckets)
}

/// The sizes [`resized`] gives a model's symbolic dimensions.
#[derive(Clone, Copy, Debug)]
enum Sizes {
    /// Every symbol 1.
    Ones,
    /// Each symbol a different prime, in order of appearance: 3, 5, 7, ...
    Primes,
}

/// `inputs` at other sizes of the model's symbolic dimensions (`None`
/// when it has none): each input's values repeated in row-major order to
/// fill its new shape (token ids stay ids, masks stay masks).
fn resized(
    model: &strata_onnx::proto::ModelProto,
    inputs: &[Tensor],
    sizes: Sizes,
) -> Option<Vec<Tensor>> {
    use strata_onnx::proto::tensor_shape_proto::dimension::Value as D;
    let symbols = symbols(model);
    let mut shapes = Vec::new();
    for (dims, t) in declared_dims(model).iter().zip(inputs) {
        let mut shape = t.shape().to_vec();
        for (axis, d) in dims.iter().enumerate() {
            let Some(D::DimParam(p)) = &d.value else {
                continue;
            };
            let Some(k) = symbols.iter().position(|s| s == p) else {
                continue;
            };
            const PRIMES: [usize; 6] = [3, 5, 7, 11, 13, 17];
            if let Some(size) = shape.get_mut(axis) {
                *size = match sizes {
                    Sizes::Ones => 1,
                    Sizes::Primes => PRIMES[k % PRIMES.len()],
                };
            }
        }
        shapes.push(shape);
    }
    if symbols.is_empty() {
        return None;
    }
    inputs
        .iter()
        .zip(shapes)
        .map(|(t, shape)| {
            let n: usize = shape.iter().product();
            let width = t.data().as_bytes().len() / t.len().max(1);
            let bytes = t.data().as_bytes();
            let raw: Vec<u8> = (0..n)
                .flat_map(|i| {
                    let at = (i % t.len().max(1)) * width;
                    bytes[at..at + width].to_vec()
                })
                .collect();
            Tensor::from_le_bytes(t.dtype(), &shape, &raw).ok()
        })
        .collect()
}

/// The buckets of every symbolic size in [`served_from_buckets`]: each
/// prime size of [`Sizes::Primes`] is padded to the next.
const BUCKETS: [i64; 6] = [1, 2, 4, 8, 16, 32];

/// A model with symbolic sizes served from shape buckets: a graph-mode
/// session with [`BUCKETS`] for each symbol runs the inputs at prime sizes
/// (padded to the next bucket, padded floats NaN) and is compared with
/// the interpreter at those sizes. `pass`, `refused: why` (the padding
/// proof's refusal), `fail: why`, or `skip: no symbolic sizes`.
fn served_from_buckets(
    model: &strata_onnx::proto::ModelProto,
    ctx: &strata_ir::Context,
    func: strata_ir::Operation,
    inputs: &[Tensor],
) -> String {
    use strata_runtime::session::{Session, SessionOptions};
    let Some(primed) = resized(model, inputs, Sizes::Primes) else {
        return "skip: no symbolic sizes".into();
    };
    let eager = match run_function(ctx, func, primed.clone()) {
        Ok(e) => e,
        Err(e) => return format!("fail: eager at prime sizes: {}", one_line(&e.to_string())),
    };
    let bytes = model.encode_to_vec();
    let source: strata_runtime::session::Source = std::sync::Arc::new(move || {
        let model =
            strata_onnx::proto::ModelProto::decode(bytes.as_slice()).map_err(|e| e.to_string())?;
        let mut ctx = strata_ir::Context::new();
        strata_dialects::register_all(&mut ctx);
        let module =
            strata_onnx::import_model(&mut ctx, &model, "model.onnx").map_err(|e| e.to_string())?;
        Ok((ctx, module))
    });
    let options = SessionOptions {
        exe_mode: strata_recipe::ExeMode::Graph,
        threads: 1,
        cache_dir: None,
        buckets: symbols(model)
            .into_iter()
            .map(|s| (s, BUCKETS.to_vec()))
            .collect(),
        pad_value: f64::NAN,
        ..SessionOptions::default()
    };
    let session = match Session::new(source, options) {
        Ok(s) => s,
        Err(e) => return format!("fail: session: {}", one_line(&e.to_string())),
    };
    let outputs = match session.run(&primed) {
        Ok(o) => o,
        Err(e) => {
            let m = e.to_string();
            return match m.strip_suffix(": padding a bucketed dimension is not proven safe here") {
                Some(why) => format!("refused: {}", one_line(why)),
                None => format!("fail: {}", one_line(&m)),
            };
        }
    };
    if outputs.len() != eager.len() {
        return format!(
            "fail: {} outputs, eager gave {}",
            outputs.len(),
            eager.len()
        );
    }
    for (i, (g, e)) in outputs.iter().zip(&eager).enumerate() {
        if g.shape() != e.shape() {
            return format!(
                "fail: output #{i} is {:?}, eager's {:?}",
                g.shape(),
                e.shape()
            );
        }
        if let Err(m) = allclose(g, e, TOLERANCE) {
            return format!("fail: output #{i}: {}", one_line(&m));
        }
    }
    if !session.report().padding_waste.is_finite() || session.report().padding_waste <= 0.0 {
        return "fail: nothing was padded".into();
    }
    "pass".into()
}

/// The dimensions of each input `model` declares (its initializers
/// left out).
fn declared_dims(
    model: &strata_onnx::proto::ModelProto,
) -> Vec<Vec<strata_onnx::proto::tensor_shape_proto::Dimension>> {
    let Some(graph) = model.graph.as_ref() else {
        return Vec::new();
    };
    let initializers: Vec<&str> = graph.initializer.iter().map(|t| t.name()).collect();
    graph
        .input
        .iter()
        .filter(|i| !initializers.contains(&i.name()))
        .map(|input| {
            input
                .r#type
                .as_ref()
                .and_then(|t| match &t.value {
                    Some(strata_onnx::proto::type_proto::Value::TensorType(t)) => t.shape.as_ref(),
                    _ => None,
                })
                .map(|s| s.dim.clone())
                .unwrap_or_default()
        })
        .collect()
}

/// The symbolic sizes of `model`'s declared inputs, in order of
/// appearance.
fn symbols(model: &strata_onnx::proto::ModelProto) -> Vec<String> {
    use strata_onnx::proto::tensor_shape_proto::dimension::Value as D;
    let mut out: Vec<String> = Vec::new();
    for d in declared_dims(model).iter().flatten() {
        if let Some(D::DimParam(p)) = &d.value {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
    }
    out
}

fn graph_form(o: Option<&GraphOutcome>, before: &str) -> String {
    match o {
        Some(GraphOutcome::Pass) => "pass".into(),
        Some(GraphOutcome::Fail(m)) => format!("fail: {}", one_line(m)),
        Some(GraphOutcome::NotLowered(m)) => format!("not lowered: {}", one_line(m)),
        None => format!("skip: does not pass {before}"),
    }
}

fn main() -> ExitCode {
    let venv = root().join(".local/onnx-venv");
    if !common::require(
        &venv,
        "the onnx venv",
        "scripts/setup-onnx",
        "STRATA_SKIP_ONNX",
    ) {
        return ExitCode::SUCCESS;
    }
    let models_dir = root().join("test/models");
    let filter = std::env::var("STRATA_REAL_MODELS").ok();
    let bless = common::env_flag("STRATA_BLESS");
    let mut names: Vec<String> = std::fs::read_dir(&models_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("model.onnx").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| filter.as_ref().is_none_or(|f| n.contains(f.as_str())))
        .collect();
    names.sort();
    let outcomes = run_all(
        &names,
        |name| run_model(&models_dir.join(name), name),
        |m| (Outcome::Fail(m), None, None, None),
    );
    let mut current: BTreeMap<String, String> = BTreeMap::new();
    for (name, (eager, graph, gpu, buckets)) in names.iter().zip(&outcomes) {
        current.insert(
            format!("{name}/buckets"),
            buckets
                .clone()
                .unwrap_or_else(|| "skip: does not pass in graph mode".into()),
        );
        current.insert(format!("{name}/eager"), recorded_form(eager));
        current.insert(
            format!("{name}/graph"),
            graph_form(graph.as_ref(), "eagerly"),
        );
        current.insert(
            format!("{name}/gpu"),
            graph_form(gpu.as_ref(), "in graph mode"),
        );
    }
    if filter.is_some() {
        for (n, o) in &current {
            println!("{n} {o}");
        }
        return ExitCode::SUCCESS;
    }
    let list_path = root().join("test/onnx/real-models.expected");
    if bless {
        let header = "Outcome of each real model (test/tests/real_models.rs), eagerly, in graph mode, in its GPU form (emulated) and padded to shape buckets.\nRegenerate with STRATA_BLESS=1 cargo test -p strata-test --test real_models.";
        if let Err(e) = write_outcomes(&list_path, header, &current) {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    let mut problems = outcome_problems(&list_path, &current);
    let mut table =
        String::from("| model | eager | graph mode | GPU form (emulated) | padded to shape buckets |\n|---|---|---|---|---|\n");
    let (mut eager_passed, mut graph_passed, mut gpu_passed, mut bucket_passed) = (0, 0, 0, 0);
    for name in &names {
        let eager = &current[&format!("{name}/eager")];
        let graph = &current[&format!("{name}/graph")];
        let gpu = &current[&format!("{name}/gpu")];
        let buckets = &current[&format!("{name}/buckets")];
        bucket_passed += usize::from(buckets == "pass");
        eager_passed += usize::from(eager == "pass");
        graph_passed += usize::from(graph == "pass");
        gpu_passed += usize::from(gpu == "pass");
        table.push_str(&format!(
            "| `{name}` | {} | {} | {} | {} |\n",
            eager.replace('|', "\\|"),
            graph.replace('|', "\\|"),
            gpu.replace('|', "\\|"),
            buckets.replace('|', "\\|")
        ));
    }
    for (key, value) in [
        ("real-models-total", names.len().to_string()),
        ("real-models-eager", eager_passed.to_string()),
        ("real-models-graph", graph_passed.to_string()),
        ("real-models-gpu", gpu_passed.to_string()),
        ("real-models-buckets", bucket_passed.to_string()),
        ("real-models-table", format!("\n{}\n", table.trim_end())),
    ] {
        problems.extend(common::check_generated_docs(key, &value));
    }
    println!("{table}");
    for p in &problems {
        println!("{p}");
    }
    println!(
        "real models: {eager_passed} of {} pass eagerly, {graph_passed} in graph mode, {gpu_passed} in their GPU form (emulated)",
        names.len()
    );
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
