//! A session: the MLP example model (an ONNX file with a symbolic batch)
//! run in graph mode at several batch sizes, from several threads; each
//! new batch size compiles a plan once, later runs find it in the cache.
//! The report and the events say what happened.
//!
//! Run with `cargo run -p strata-runtime --example session`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use strata_ir::Context;
use strata_runtime::session::{Event, ExeMode, Session, SessionOptions, Source};
use strata_runtime::{DType, Tensor};

type Error = Box<dyn std::error::Error>;

/// `examples/onnx/mlp.onnx`: `x: [batch, 16] -> probs: [batch, 4]`.
fn model_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/onnx/mlp.onnx")
}

/// How the session loads the model (once per compile: compiling changes
/// the module it lowers).
fn source(path: PathBuf) -> Source {
    Arc::new(move || {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        let module = strata_onnx::import_file(&mut ctx, &path).map_err(|e| e.to_string())?;
        Ok((ctx, module))
    })
}

/// A batch of `n` rows of made-up features.
fn batch(n: usize) -> Tensor {
    let values: Vec<f64> = (0..n * 16).map(|i| ((i * 7) % 11) as f64 / 11.0).collect();
    Tensor::from_f64_vec(DType::F32, &[n, 16], &values)
}

/// Builds the session, runs it and returns its report as JSON.
pub fn run_example() -> Result<serde_json::Value, Error> {
    let options = SessionOptions {
        exe_mode: ExeMode::Graph,
        threads: 1,
        plan_cache_limit: 4,
        on_event: Some(Arc::new(|e: &Event| eprintln!("event: {}", e.to_json()))),
        ..SessionOptions::default()
    };
    let session = Arc::new(Session::new(source(model_path()), options)?);
    for n in [1, 8, 1, 8, 3] {
        let probs = session.run(&[batch(n)])?;
        println!("batch {n}: probs {:?}", probs[0].shape());
    }
    // The same session from two threads at once.
    let workers: Vec<_> = (0..2)
        .map(|t| {
            let session = Arc::clone(&session);
            std::thread::spawn(move || session.run(&[batch(1 + 7 * t)]).map(|o| o.len()))
        })
        .collect();
    for w in workers {
        w.join().map_err(|_| "a worker panicked")??;
    }
    let report = session.report();
    println!(
        "{} runs, {} compiles, {} cache hits",
        report.runs, report.compiles, report.hits
    );
    Ok(report.to_json())
}

#[allow(dead_code)]
fn main() -> Result<(), Error> {
    run_example()?;
    Ok(())
}
