//! One ONNX backend test case (a directory with `model.onnx` and
//! `test_data_set_*/{input,output}_*.pb`): imported, run by the reference
//! interpreter on every data set and compared with the expected outputs;
//! what the node-test and model-test drivers share.

#![allow(dead_code)] // each driver uses a different subset

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};

use prost::Message;
use strata_ir::{Context, Operation};
use strata_onnx::proto::{
    type_proto, ModelProto, OptionalProto, SequenceProto, TensorProto, TypeProto,
};
use strata_onnx::{ConvertError, ImportError};
use strata_runtime::interp::{attr_tensor, lookup_function, run_function_values, Limits};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{DType, Datum, Tensor};

use super::node_graph::{self, GraphOutcome};

/// ONNX's tolerances for its node tests.
pub const ONNX: Tolerance = Tolerance::ONNX_NODE_TESTS;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    /// Random outputs that satisfy the op's law (see `check_dropout_law`,
    /// `check_bernoulli_law`).
    PassByLaw,
    Fail(String),
    Skip(String),
}

/// The op types of a model, `domain:Type` outside the default domain.
pub fn op_types(model: &ModelProto) -> Vec<String> {
    let mut ops: Vec<String> = model
        .graph
        .iter()
        .flat_map(|g| g.node.iter())
        .map(|n| {
            if n.domain().is_empty() || n.domain() == "ai.onnx" {
                n.op_type().to_string()
            } else {
                format!("{}:{}", n.domain(), n.op_type())
            }
        })
        .collect();
    ops.sort();
    ops.dedup();
    ops
}

pub fn read_tensor(ctx: &mut Context, path: &Path) -> Result<Tensor, Outcome> {
    let bytes =
        std::fs::read(path).map_err(|e| Outcome::Fail(format!("{}: {e}", path.display())))?;
    let proto = TensorProto::decode(bytes.as_slice())
        .map_err(|e| Outcome::Fail(format!("{}: not a TensorProto: {e}", path.display())))?;
    tensor_of(ctx, &proto)
}

fn tensor_of(ctx: &mut Context, proto: &TensorProto) -> Result<Tensor, Outcome> {
    let attr = strata_onnx::tensor_attr(ctx, proto).map_err(|e| match e {
        ConvertError::NotSupported(_) => Outcome::Skip(format!(
            "data type {}",
            strata_onnx::dtype_name(proto.data_type())
        )),
        ConvertError::Invalid(m) => Outcome::Fail(m),
    })?;
    attr_tensor(ctx, attr).map_err(Outcome::Fail)
}

/// The kind of value a graph input or output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Tensor,
    /// A tensor of strings, which is not a [`Tensor`].
    Strings,
    Sequence,
    Optional,
}

fn kind_of(t: Option<&TypeProto>) -> Kind {
    let string = strata_onnx::proto::tensor_proto::DataType::String as i32;
    match t.and_then(|t| t.value.as_ref()) {
        Some(type_proto::Value::SequenceType(_)) => Kind::Sequence,
        Some(type_proto::Value::OptionalType(_)) => Kind::Optional,
        Some(type_proto::Value::TensorType(t)) if t.elem_type() == string => Kind::Strings,
        _ => Kind::Tensor,
    }
}

/// The kinds of the model's inputs (those that are not initializers) and
/// outputs, from their declared types.
pub fn io_kinds(model: &ModelProto) -> (Vec<Kind>, Vec<Kind>) {
    let Some(g) = model.graph.as_ref() else {
        return (Vec::new(), Vec::new());
    };
    let inits: std::collections::HashSet<&str> = g.initializer.iter().map(|t| t.name()).collect();
    let inputs = g
        .input
        .iter()
        .filter(|i| !inits.contains(i.name()))
        .map(|i| kind_of(i.r#type.as_ref()))
        .collect();
    let outputs = g
        .output
        .iter()
        .map(|o| kind_of(o.r#type.as_ref()))
        .collect();
    (inputs, outputs)
}

/// A data file of a value of `kind`: a `TensorProto`, `SequenceProto` or
/// `OptionalProto`.
pub fn read_datum(ctx: &mut Context, path: &Path, kind: Kind) -> Result<Datum, Outcome> {
    let bytes =
        std::fs::read(path).map_err(|e| Outcome::Fail(format!("{}: {e}", path.display())))?;
    let bad = |what: &str, e: prost::DecodeError| {
        Outcome::Fail(format!("{}: not a {what}: {e}", path.display()))
    };
    match kind {
        Kind::Tensor | Kind::Strings => {
            let proto = TensorProto::decode(bytes.as_slice()).map_err(|e| bad("TensorProto", e))?;
            if proto.data_type() == strata_onnx::proto::tensor_proto::DataType::String as i32 {
                return strings_of(&proto).map_err(Outcome::Fail);
            }
            tensor_of(ctx, &proto).map(Datum::Tensor)
        }
        Kind::Sequence => {
            let proto =
                SequenceProto::decode(bytes.as_slice()).map_err(|e| bad("SequenceProto", e))?;
            sequence_of(ctx, &proto)
        }
        _ => {
            let proto =
                OptionalProto::decode(bytes.as_slice()).map_err(|e| bad("OptionalProto", e))?;
            let inner = match (&proto.tensor_value, &proto.sequence_value) {
                (Some(t), _) => Some(Box::new(Datum::Tensor(tensor_of(ctx, t)?))),
                (None, Some(s)) => Some(Box::new(sequence_of(ctx, s)?)),
                (None, None) => None,
            };
            Ok(Datum::Optional(inner))
        }
    }
}

/// A `STRING` tensor's UTF-8 strings.
fn strings_of(proto: &TensorProto) -> Result<Datum, String> {
    let shape = proto
        .dims
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| format!("a negative dimension {d}")))
        .collect::<Result<Vec<_>, _>>()?;
    let data = proto
        .string_data
        .iter()
        .map(|b| {
            String::from_utf8(b.clone()).map_err(|e| format!("a string that is not UTF-8: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    strata_runtime::StringTensor::new(shape, data).map(Datum::Strings)
}

fn sequence_of(ctx: &mut Context, proto: &SequenceProto) -> Result<Datum, Outcome> {
    let nested = !proto.sequence_values.is_empty()
        || !proto.map_values.is_empty()
        || !proto.optional_values.is_empty()
        || !proto.sparse_tensor_values.is_empty();
    if nested {
        return Err(Outcome::Skip(
            "a sequence of sequences, maps, optionals or sparse tensors".into(),
        ));
    }
    let items = proto
        .tensor_values
        .iter()
        .map(|t| tensor_of(ctx, t))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Datum::Sequence(items))
}

/// Compares a computed value with the expected one: tensors with
/// `allclose`, sequences element by element, optionals by their values.
pub fn datum_close(actual: &Datum, expected: &Datum, tol: Tolerance) -> Result<(), String> {
    match (actual, expected) {
        (Datum::Tensor(a), Datum::Tensor(e)) => close(a, e, tol),
        (Datum::Sequence(a), Datum::Sequence(e)) => {
            if a.len() != e.len() {
                return Err(format!(
                    "a sequence of {} tensors, expected {}",
                    a.len(),
                    e.len()
                ));
            }
            for (i, (x, y)) in a.iter().zip(e).enumerate() {
                allclose(x, y, tol).map_err(|m| format!("element #{i}: {m}"))?;
            }
            Ok(())
        }
        (Datum::Strings(a), Datum::Strings(e)) => {
            if a.shape() != e.shape() {
                return Err(format!("shape {:?}, expected {:?}", a.shape(), e.shape()));
            }
            match a.data().iter().zip(e.data()).position(|(x, y)| x != y) {
                Some(i) => Err(format!(
                    "string #{i} is {:?}, expected {:?}",
                    a.data()[i],
                    e.data()[i]
                )),
                None => Ok(()),
            }
        }
        (Datum::Optional(a), Datum::Optional(e)) => match (a, e) {
            (None, None) => Ok(()),
            (Some(x), Some(y)) => datum_close(x, y, tol),
            _ => Err(format!(
                "{}, expected {}",
                actual.describe(),
                expected.describe()
            )),
        },
        _ => Err(format!(
            "{}, expected {}",
            actual.describe(),
            expected.describe()
        )),
    }
}

pub fn numbered(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n = name
                .strip_prefix(prefix)?
                .strip_suffix(".pb")?
                .parse()
                .ok()?;
            Some((n, e.path()))
        })
        .collect();
    files.sort();
    files.into_iter().map(|(_, p)| p).collect()
}

/// A test's compiled outcomes: graph mode, and for what passes in graph
/// mode the GPU form and graph mode on adversarial inputs; hybrid mode
/// with its compiled fraction (ops compiled, ops in all).
pub type Compiled = Option<(
    GraphOutcome,
    Option<GraphOutcome>,
    Option<GraphOutcome>,
    Option<(GraphOutcome, Option<node_graph::Coverage>)>,
)>;

/// What [`run_test`] finds: the test's ops, its eager and compiled outcomes.
pub type TestOutcome = (Vec<String>, Outcome, Compiled);

/// The eager outcome of a test and, when it passes and `compiled` asks,
/// its compiled outcomes.
pub fn run_test(dir: &Path, compiled: bool) -> TestOutcome {
    let model_path = dir.join("model.onnx");
    let Ok(bytes) = std::fs::read(&model_path) else {
        return (
            Vec::new(),
            Outcome::Fail("cannot read model.onnx".into()),
            None,
        );
    };
    let Ok(model) = ModelProto::decode(bytes.as_slice()) else {
        return (
            Vec::new(),
            Outcome::Fail("model.onnx does not decode".into()),
            None,
        );
    };
    let ops = op_types(&model);
    let unsupported: Vec<&String> = ops
        .iter()
        .filter(|o| !strata_onnx::SUPPORTED_OPS.contains(&o.as_str()))
        .collect();
    if let Some(first) = unsupported.first() {
        return (
            ops.clone(),
            Outcome::Skip(format!("unsupported op {first}")),
            None,
        );
    }
    let mut ctx = Context::new();
    let module = match strata_onnx::import_model(&mut ctx, &model, "model.onnx") {
        Ok(m) => m,
        Err(e) => return (ops, import_outcome(&e), None),
    };
    if let Err(diags) = strata_ir::verifier::verify(&ctx, module) {
        let msg = diags
            .iter()
            .map(|d| strata_ir::diagnostics::render(&ctx, d, &[]))
            .collect::<Vec<_>>()
            .join(" ");
        return (ops, Outcome::Fail(format!("verify: {}", msg.trim())), None);
    }
    let Some(func) = lookup_function(&ctx, module, "main") else {
        return (ops, Outcome::Fail("no @main".into()), None);
    };
    if let Err(m) = same_signature(&ctx, func, &model_path) {
        return (ops, Outcome::Fail(format!("signature: {m}")), None);
    }
    let mut sets: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("test_data_set_"))
        })
        .collect();
    sets.sort();
    let mut by_law = false;
    let mut graph_sets = Vec::new();
    // The data sets of a test with sequence, optional or string values.
    let mut value_sets: Vec<(Vec<Datum>, Vec<Datum>)> = Vec::new();
    let (input_kinds, output_kinds) = io_kinds(&model);
    let all_tensors = input_kinds
        .iter()
        .chain(&output_kinds)
        .all(|&k| k == Kind::Tensor);
    for set in sets {
        let mut inputs = Vec::new();
        for (i, f) in numbered(&set, "input_").iter().enumerate() {
            let kind = input_kinds.get(i).copied().unwrap_or(Kind::Tensor);
            match read_datum(&mut ctx, f, kind) {
                Ok(t) => inputs.push(t),
                Err(o) => return (ops, o, None),
            }
        }
        let mut expected = Vec::new();
        for (i, f) in numbered(&set, "output_").iter().enumerate() {
            let kind = output_kinds.get(i).copied().unwrap_or(Kind::Tensor);
            match read_datum(&mut ctx, f, kind) {
                Ok(t) => expected.push(t),
                Err(o) => return (ops, o, None),
            }
        }
        let outputs = match run_function_values(&ctx, func, inputs.clone(), Limits::default()) {
            Ok(o) => o,
            // A kernel's typed refusal of what strata does not implement
            // (`KernelError::Unsupported`, "...: unsupported: ...") skips,
            // as an import's does.
            Err(e) if e.to_string().contains(": unsupported: ") => {
                let text = e.to_string();
                let why = text.split_once(": unsupported: ").map_or("", |(_, r)| r);
                return (ops, Outcome::Skip(format!("run: {why}")), None);
            }
            Err(e) => return (ops, Outcome::Fail(format!("run: {e}")), None),
        };
        if outputs.len() != expected.len() {
            return (
                ops,
                Outcome::Fail(format!(
                    "{} outputs, expected {}",
                    outputs.len(),
                    expected.len()
                )),
                None,
            );
        }
        let tol = tolerance(dir);
        if !all_tensors {
            for (i, (a, e)) in outputs.iter().zip(&expected).enumerate() {
                if let Err(m) = datum_close(a, e, tol) {
                    return (ops, Outcome::Fail(format!("output #{i}: {m}")), None);
                }
            }
            value_sets.push((inputs, outputs));
            continue;
        }
        let inputs: Vec<Tensor> = inputs
            .into_iter()
            .filter_map(|d| d.into_tensor().ok())
            .collect();
        let outputs: Vec<Tensor> = outputs
            .into_iter()
            .filter_map(|d| d.into_tensor().ok())
            .collect();
        let expected: Vec<Tensor> = expected
            .into_iter()
            .filter_map(|d| d.into_tensor().ok())
            .collect();
        if let Some(p_one) = random_bernoulli(&ops, &inputs) {
            if let Err(m) = check_bernoulli_law(&p_one, &outputs, &expected) {
                return (ops, Outcome::Fail(format!("bernoulli: {m}")), None);
            }
            by_law = true;
            continue;
        }
        let dropout = random_dropout(&ops, &inputs);
        if let (Some(ratio), Some(x)) = (dropout, inputs.first()) {
            if let Err(m) = check_dropout_law(x, ratio, &outputs) {
                return (ops, Outcome::Fail(format!("dropout: {m}")), None);
            }
            by_law = true;
            continue;
        }
        for (i, (a, e)) in outputs.iter().zip(&expected).enumerate() {
            if let Err(m) = close(a, e, tol) {
                return (ops, Outcome::Fail(format!("output #{i}: {m}")), None);
            }
        }
        graph_sets.push((inputs, outputs));
    }
    if by_law {
        return (ops, Outcome::PassByLaw, None);
    }
    if !compiled {
        return (ops, Outcome::Pass, None);
    }
    // Hybrid mode against eager mode.
    let hybrid_close = |a: &Datum, e: &Datum| datum_close(a, e, node_graph::value_tolerance(e));
    if !all_tensors {
        // Graph mode takes and returns numeric tensors; hybrid mode runs
        // what uses the other values in eager islands.
        let reason =
            "sequence, optional or string inputs or outputs (graph mode takes numeric tensors)";
        let hybrid = node_graph::run_hybrid(&model, &value_sets, &hybrid_close);
        return (
            ops,
            Outcome::Pass,
            Some((
                GraphOutcome::NotLowered(reason.into()),
                None,
                None,
                Some(hybrid),
            )),
        );
    }
    let graph = node_graph::run(&model, &graph_sets);
    // The GPU form of the kernels of what passes in graph mode.
    // With STRATA_GPU_BUNDLES=DIR each is written as a bundle for
    // scripts/gpu-check (DIR/<test name>/).
    let bundle = std::env::var_os("STRATA_GPU_BUNDLES").and_then(|d| {
        dir.file_name()
            .map(|name| std::path::PathBuf::from(d).join(name))
    });
    let gpu = (graph == GraphOutcome::Pass)
        .then(|| node_graph::run_gpu(&model, &graph_sets, bundle.as_deref()));
    // The same model on adversarial values of the first data set's shapes
    // (the seed, from the name, varies which value lands where).
    let seed = dir.file_name().map_or(0, |n| {
        n.as_encoded_bytes().iter().map(|&b| usize::from(b)).sum()
    });
    let adversarial = (graph == GraphOutcome::Pass)
        .then(|| node_graph::run_adversarial(&model, &graph_sets[0].0, seed));
    let tensor_sets: Vec<(Vec<Datum>, Vec<Datum>)> = graph_sets
        .iter()
        .map(|(i, o)| {
            let values = |ts: &[Tensor]| ts.iter().cloned().map(Datum::Tensor).collect();
            (values(i), values(o))
        })
        .collect();
    let hybrid = node_graph::run_hybrid(&model, &tensor_sets, &hybrid_close);
    (
        ops,
        Outcome::Pass,
        Some((graph, gpu, adversarial, Some(hybrid))),
    )
}

/// The model's signature read without its weights and nodes
/// (`import_signature_file`, what a session's warm start reads) declares
/// `func` with the same argument types and names and result names as the
/// full import.
fn same_signature(ctx: &Context, func: Operation, path: &Path) -> Result<(), String> {
    let mut sig_ctx = Context::new();
    let module =
        strata_onnx::import_signature_file(&mut sig_ctx, path).map_err(|e| e.to_string())?;
    let declared = lookup_function(&sig_ctx, module, "main").ok_or("no @main")?;
    let describe = |ctx: &Context, f: Operation| {
        let (args, results) = strata_dialects::func::function_signature(ctx, f).unwrap_or_default();
        let types: Vec<String> = args
            .iter()
            .map(|&t| strata_ir::printer::type_to_string(ctx, t))
            .collect();
        let names = |key, n| strata_runtime::session::io_names(ctx, f, key, "", n);
        (
            types,
            names("arg_attrs", args.len()),
            names("res_attrs", results.len()),
        )
    };
    let (full, light) = (describe(ctx, func), describe(&sig_ctx, declared));
    if full != light {
        return Err(format!("{light:?}, the full import gives {full:?}"));
    }
    Ok(())
}

/// `allclose`, except that integers compare within an absolute tolerance
/// of 1 or more (the JPEG tests' pixels) instead of exactly.
fn close(a: &Tensor, e: &Tensor, tol: Tolerance) -> Result<(), String> {
    let int = |t: &Tensor| t.dtype().is_int();
    if tol.atol >= 1.0 && int(a) && int(e) {
        let f = |t: &Tensor| Tensor::from_f64_vec(DType::F64, t.shape(), &t.to_f64_vec());
        return allclose(&f(a), &f(e), tol);
    }
    allclose(a, e, tol)
}

/// The tolerances of a test: ONNX's, except where the reference's own
/// float32 arithmetic is the inexact side. The DFT tests' expected values
/// come from a float32 FFT, whose exact zeros read as about 2e-7; strata sums
/// in f64, so an absolute tolerance of 1e-5 compares them. The JPEG
/// decoding tests' pixels may differ by 2 (see below).
pub fn tolerance(dir: &Path) -> Tolerance {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with("test_dft") {
        Tolerance::new(ONNX.rtol, 1e-5)
    } else if name.starts_with("test_image_decoder_decode_jpeg") {
        // JPEG decoders round their inverse DCTs differently: strata's (the
        // image crate's) is within 2 of libjpeg-turbo's, the reference's.
        Tolerance::new(0.0, 2.0)
    } else {
        ONNX
    }
}

/// A refused import: skipped when strata does not implement what the model
/// uses (a typed error kind), failed otherwise.
pub fn import_outcome(e: &ImportError) -> Outcome {
    let text = e.to_string();
    if e.is_unsupported() {
        Outcome::Skip(format!("import: {}", short_reason(&text)))
    } else {
        Outcome::Fail(format!("import: {text}"))
    }
}

/// The drop ratio of a lone `Dropout` node that runs in training mode with
/// a nonzero ratio (inputs `data, ratio, training_mode`; the ratio defaults
/// to 0.5). Its expected outputs come from the reference implementation's
/// NumPy generator, which ONNX leaves implementation-defined, so the runner
/// checks such a test against the law of dropout instead of the values.
fn random_dropout(ops: &[String], inputs: &[Tensor]) -> Option<f64> {
    if ops != ["Dropout"] {
        return None;
    }
    let training = inputs.get(2)?.to_i64_vec().first().copied()? != 0;
    let ratio = match inputs.get(1) {
        Some(r) => r.to_f64_vec().first().copied()?,
        None => 0.5,
    };
    (training && ratio > 0.0).then_some(ratio)
}

/// Every output element is the input's times `1 / (1 - ratio)` where the
/// mask (when there is one) is true and 0 where it is false, and the kept
/// count is within five standard deviations of `n * (1 - ratio)`.
fn check_dropout_law(x: &Tensor, ratio: f64, outputs: &[Tensor]) -> Result<(), String> {
    let out = outputs.first().ok_or("no output")?;
    if out.shape() != x.shape() || out.dtype() != x.dtype() {
        return Err(format!(
            "output is {} {:?}, input {} {:?}",
            out.dtype(),
            out.shape(),
            x.dtype(),
            x.shape()
        ));
    }
    let scale = 1.0 / (1.0 - ratio);
    let (xs, ys) = (x.to_f64_vec(), out.to_f64_vec());
    let mask: Vec<bool> = match outputs.get(1) {
        Some(m) if m.shape() == x.shape() => m.to_i64_vec().iter().map(|&v| v != 0).collect(),
        Some(m) => return Err(format!("mask has shape {:?}", m.shape())),
        None => ys.iter().map(|&y| y != 0.0).collect(),
    };
    for (i, ((&xv, &yv), &keep)) in xs.iter().zip(&ys).zip(&mask).enumerate() {
        let want = if keep { xv * scale } else { 0.0 };
        if (yv - want).abs() > ONNX.atol + ONNX.rtol * want.abs() {
            return Err(format!("element {i}: {yv}, expected {want} (kept: {keep})"));
        }
    }
    let n = xs.len() as f64;
    let kept = mask.iter().filter(|&&k| k).count() as f64;
    let (mean, sd) = (n * (1.0 - ratio), (n * ratio * (1.0 - ratio)).sqrt());
    if (kept - mean).abs() > 5.0 * sd + 1.0 {
        return Err(format!(
            "kept {kept} of {n} elements at ratio {ratio} (expected about {mean})"
        ));
    }
    Ok(())
}

/// The probability of a one at each output element of a lone `Bernoulli`
/// node (its input), or of ONNX's function body for it as the expanded
/// tests spell it (`Cast(Greater(RandomUniformLike(p), p))`: a one where
/// the draw is above `p`, so with probability `1 - p`). Their expected
/// outputs are NumPy's draws, so the runner checks such a test against
/// the law of the draws instead of the values.
fn random_bernoulli(ops: &[String], inputs: &[Tensor]) -> Option<Vec<f64>> {
    let p = inputs.first()?.to_f64_vec();
    match ops {
        [op] if op == "Bernoulli" => Some(p),
        [a, b, c] if a == "Cast" && b == "Greater" && c == "RandomUniformLike" => {
            Some(p.iter().map(|&x| 1.0 - x).collect())
        }
        _ => None,
    }
}

/// Every output element is 0 or 1, the output has the expected shape and
/// type, and the count of ones is within five standard deviations of its
/// mean (the sum of the probabilities).
fn check_bernoulli_law(
    p_one: &[f64],
    outputs: &[Tensor],
    expected: &[Tensor],
) -> Result<(), String> {
    let (out, want) = (
        outputs.first().ok_or("no output")?,
        expected.first().ok_or("no expected output")?,
    );
    if out.shape() != want.shape() || out.dtype() != want.dtype() {
        return Err(format!(
            "output is {} {:?}, expected {} {:?}",
            out.dtype(),
            out.shape(),
            want.dtype(),
            want.shape()
        ));
    }
    let ys = out.to_f64_vec();
    if let Some((i, y)) = ys.iter().enumerate().find(|(_, &y)| y != 0.0 && y != 1.0) {
        return Err(format!("element {i} is {y}, not 0 or 1"));
    }
    let ones: f64 = ys.iter().sum();
    let mean: f64 = p_one.iter().sum();
    let sd = p_one.iter().map(|&p| p * (1.0 - p)).sum::<f64>().sqrt();
    if (ones - mean).abs() > 5.0 * sd + 1.0 {
        return Err(format!(
            "{ones} ones of {}, expected about {mean}",
            ys.len()
        ));
    }
    Ok(())
}

/// The reason of an import error without the file prefix, shortened.
pub fn short_reason(text: &str) -> String {
    let t = text.split_once(": ").map_or(text, |(_, r)| r);
    let t = t
        .split_once(": ")
        .map_or(t, |(n, r)| if n.starts_with("node ") { r } else { t });
    t.chars().take(90).collect()
}

/// A recorded outcomes file: `name outcome` per line, `#` comments.
pub fn read_outcomes(path: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            l.split_once(' ')
                .map(|(a, b)| (a.to_string(), b.trim().to_string()))
        })
        .collect()
}

/// The message of a caught panic (what `panic!` was given).
pub fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// `run(name)` for each of `names` on every core, the results in the order
/// of `names`; a panic is that test's `on_panic(message)`, never lost with
/// the rest of its worker's results (a test shares no state with the
/// others that its panic could leave broken, hence `AssertUnwindSafe`).
pub fn run_all<T, R, P>(names: &[String], run: R, on_panic: P) -> Vec<T>
where
    T: Send,
    R: Fn(&str) -> T + Sync,
    P: Fn(String) -> T + Sync,
{
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut outcomes: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(name) = names.get(i) else {
                            return done;
                        };
                        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| run(name)))
                            .unwrap_or_else(|panic| {
                                on_panic(format!("panicked: {}", panic_message(panic)))
                            });
                        done.push((i, outcome));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    outcomes.sort_by_key(|(i, _)| *i);
    outcomes.into_iter().map(|(_, o)| o).collect()
}

/// A message on one line, at most 160 characters (a recorded reason).
pub fn one_line(m: &str) -> String {
    let m: String = m.replace('\n', " ").chars().take(160).collect();
    m.trim().to_string()
}

/// The recorded form of an outcome: `pass`, `fail: why` or `skip: why`.
pub fn recorded_form(o: &Outcome) -> String {
    match o {
        Outcome::Pass | Outcome::PassByLaw => "pass".into(),
        Outcome::Fail(m) => format!("fail: {}", one_line(m)),
        Outcome::Skip(m) => format!("skip: {}", one_line(m)),
    }
}

/// Writes `current` as the outcomes list at `path`, under the comment
/// lines of `header` (`STRATA_BLESS=1`).
pub fn write_outcomes(
    path: &Path,
    header: &str,
    current: &BTreeMap<String, String>,
) -> Result<(), String> {
    let mut text: String = header.lines().map(|l| format!("# {l}\n")).collect();
    for (n, o) in current {
        text.push_str(&format!("{n} {o}\n"));
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// How `current` differs from the outcomes recorded at `path`: a recorded
/// pass that does not pass now is a regression; any other change, a test
/// not listed and a listed test not run ask for the list to be updated.
pub fn outcome_problems(path: &Path, current: &BTreeMap<String, String>) -> Vec<String> {
    let recorded = read_outcomes(path);
    let mut problems = Vec::new();
    for (n, o) in current {
        match recorded.get(n) {
            Some(r) if r == o => {}
            Some(r) if r == "pass" => {
                problems.push(format!("regression: {n} passed before and now is {o}"))
            }
            Some(r) => problems.push(format!(
                "{n} was '{r}' and is now '{o}': update the list (STRATA_BLESS=1)"
            )),
            None => problems.push(format!(
                "{n} ({o}) is not in {}: update it (STRATA_BLESS=1)",
                path.display()
            )),
        }
    }
    for n in recorded.keys() {
        if !current.contains_key(n) {
            problems.push(format!("{n} is listed but was not run"));
        }
    }
    problems
}
