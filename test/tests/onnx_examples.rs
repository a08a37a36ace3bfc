//! The example models (examples/onnx: an MLP, a transformer encoder block
//! and a small convnet) against onnxruntime: each is imported,
//! shape-inferred and verified (every result shape resolved), and run in
//! eager mode and in graph mode (compiled for each input shape) on random
//! inputs of several batch and sequence sizes; onnxruntime (from the venv
//! scripts/setup-onnx makes) runs the same inputs, and the outputs must agree
//! within `Tolerance::for_dtype` of the output's dtype (f32: rtol 1e-4,
//! atol 1e-5; integers exactly). The checked-in expected outputs are
//! compared too. An opset-11 model (test/onnx/Inputs/opset11.onnx) checks
//! the importer's reading of older op definitions the same way.
//!
//! Without onnxruntime's venv the driver fails, naming the command that
//! installs it, unless `STRATA_SKIP_ONNX=1` is set; then it says it was
//! skipped.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use strata_ir::pass::{Instrumentation, OpPassManager, PassRegistry};
use strata_ir::Context;
use strata_runtime::interp::{lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::{npy, DType, Tensor};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A deterministic input in [-1, 1).
fn random(shape: &[usize], seed: u64) -> Tensor {
    let mut state = seed;
    let count: usize = shape.iter().product();
    let values: Vec<f64> = (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect();
    Tensor::from_f64_vec(DType::F32, shape, &values)
}

/// One example: the file, its input and output names, the input shapes to
/// try, and whether graph mode compiles it.
struct Case {
    file: &'static str,
    input: &'static str,
    output: &'static str,
    shapes: Vec<Vec<usize>>,
    graph: bool,
}

fn check_model(case: &Case, python: &Path, tmp: &Path) -> Result<(), String> {
    let Case {
        file,
        input,
        output,
        ref shapes,
        graph: graph_mode,
    } = *case;
    // The examples have checked-in data; test inputs (test/onnx/Inputs) do not.
    let example = root().join("examples/onnx").join(file);
    let model = if example.exists() {
        example
    } else {
        root().join("test/onnx/Inputs").join(file)
    };
    let mut ctx = Context::new();
    let module = strata_onnx::import_file(&mut ctx, &model).map_err(|e| e.to_string())?;
    let mut registry = PassRegistry::default();
    strata_passes::register_all(&mut registry);
    let pipeline = "builtin.module(graph-infer-shapes,graph-verify)";
    let mut pm = OpPassManager::parse(&registry, pipeline).map_err(|e| e.render(pipeline))?;
    pm.run(&mut ctx, module, &mut Instrumentation::default())
        .map_err(|d| format!("{file}: {} diagnostics from {pipeline}", d.len()))?;
    strata_ir::verifier::verify(&ctx, module).map_err(|_| format!("{file}: does not verify"))?;
    let main = lookup_function(&ctx, module, "main").ok_or("no @main")?;

    // The checked-in input and onnxruntime output (examples only).
    let stem = file.trim_end_matches(".onnx");
    let checked_in = root().join(format!("examples/onnx/{stem}_input_{input}.npy"));
    if checked_in.exists() {
        let x = npy::load(&checked_in).map_err(|e| e.to_string())?;
        let expected =
            npy::load(&root().join(format!("examples/onnx/{stem}_expected_{output}.npy")))
                .map_err(|e| e.to_string())?;
        let got = run_function(&ctx, main, vec![x]).map_err(|e| e.to_string())?;
        allclose(&got[0], &expected, Tolerance::for_dtype(expected.dtype()))
            .map_err(|m| format!("{file} (checked-in data): {m}"))?;
    }

    // Random inputs of other sizes, through onnxruntime now.
    for (i, shape) in shapes.iter().enumerate() {
        let x = random(shape, 7 + i as u64);
        let input_path = tmp.join(format!("{stem}_{i}_in.npy"));
        npy::save(&input_path, &x).map_err(|e| e.to_string())?;
        let out_dir = tmp.join(format!("{stem}_{i}_out"));
        let status = Command::new(python)
            .arg(root().join("scripts/ort-run.py"))
            .arg(&model)
            .arg(&out_dir)
            .arg(format!("{input}={}", input_path.display()))
            .status()
            .map_err(|e| format!("running onnxruntime: {e}"))?;
        if !status.success() {
            return Err(format!("onnxruntime failed on {file} with shape {shape:?}"));
        }
        let reference =
            npy::load(&out_dir.join(format!("{output}.npy"))).map_err(|e| e.to_string())?;
        let got = run_function(&ctx, main, vec![x.clone()]).map_err(|e| e.to_string())?;
        allclose(&got[0], &reference, Tolerance::for_dtype(reference.dtype()))
            .map_err(|m| format!("{file} with input shape {shape:?}: {m}"))?;
        if !graph_mode {
            println!("{file} {shape:?}: matches onnxruntime (eager)");
            continue;
        }
        let graph = run_graph(&model, &x)?;
        allclose(&graph, &reference, Tolerance::for_dtype(reference.dtype()))
            .map_err(|m| format!("{file} in graph mode with input shape {shape:?}: {m}"))?;
        println!("{file} {shape:?}: matches onnxruntime (eager and graph)");
    }
    Ok(())
}

/// The model compiled for `x`'s shape (graph mode, 2 threads) and run on it.
fn run_graph(model: &Path, x: &Tensor) -> Result<Tensor, String> {
    let mut ctx = Context::new();
    let module = strata_onnx::import_file(&mut ctx, model).map_err(|e| e.to_string())?;
    let compiled =
        strata_runtime::compiled::compile(&mut ctx, module, "main", &[x.shape().to_vec()], 2)
            .map_err(|e| format!("{}: graph mode: {e}", model.display()))?;
    let mut out = compiled
        .run(std::slice::from_ref(x))
        .map_err(|e| e.to_string())?;
    out.pop().ok_or_else(|| "no output".to_string())
}

fn main() -> ExitCode {
    let python = root().join(".local/onnx-venv/bin/python");
    if !common::require(
        &python,
        "onnx examples",
        "scripts/setup-onnx",
        "STRATA_SKIP_ONNX",
    ) {
        return ExitCode::SUCCESS;
    }
    let tmp = root().join("target/onnx-examples");
    if let Err(e) = std::fs::create_dir_all(&tmp) {
        eprintln!("{}: {e}", tmp.display());
        return ExitCode::FAILURE;
    }
    let cases = [
        Case {
            file: "mlp.onnx",
            input: "x",
            output: "probs",
            shapes: vec![vec![1, 16], vec![7, 16], vec![32, 16]],
            graph: true,
        },
        Case {
            file: "encoder.onnx",
            input: "x",
            output: "y",
            shapes: vec![vec![1, 1, 32], vec![3, 5, 32], vec![2, 17, 32]],
            graph: true,
        },
        Case {
            file: "convnet.onnx",
            input: "x",
            output: "probs",
            shapes: vec![vec![1, 3, 16, 16], vec![3, 3, 16, 16]],
            graph: true,
        },
        // An opset-11 model: axes and split sizes as attributes.
        Case {
            file: "opset11.onnx",
            input: "x",
            output: "y",
            shapes: vec![vec![1, 6], vec![5, 6]],
            graph: true,
        },
    ];
    let mut failed = 0;
    for case in &cases {
        if let Err(e) = check_model(case, &python, &tmp) {
            eprintln!("FAIL {e}");
            failed += 1;
        }
    }
    println!("{} passed, {failed} failed", cases.len() - failed);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
