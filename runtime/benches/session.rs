//! The overhead of a session run over a bare compiled plan (issue 33's
//! goal: under 2 µs): the MLP example (`examples/onnx/mlp.onnx`, batch 4)
//! compiled once as a plan and once inside a graph-mode session, run side
//! by side (alternating, after a warm-up) on one thread; medians of the
//! runs and their difference. Outputs are compared first.
//!
//! `cargo bench -p strata-runtime --bench session [-- --runs N]`

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use strata_ir::Context;
use strata_runtime::compiled::compile;
use strata_runtime::session::{ExeMode, Session, SessionOptions, Source};
use strata_runtime::{DType, Tensor};

fn load(path: &Path) -> Result<(Context, strata_ir::Operation), String> {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let module = strata_onnx::import_file(&mut ctx, path).map_err(|e| e.to_string())?;
    Ok((ctx, module))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(2001usize);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/onnx/mlp.onnx");
    let values: Vec<f64> = (0..4 * 16).map(|i| ((i * 5) % 13) as f64 / 13.0).collect();
    let x = Tensor::from_f64_vec(DType::F32, &[4, 16], &values);

    let (mut ctx, module) = load(&path)?;
    let plan = compile(&mut ctx, module, "main", &[vec![4, 16]], 1)?;
    let source: Source = {
        let path = path.clone();
        Arc::new(move || load(&path))
    };
    let session = Session::new(
        source,
        SessionOptions {
            exe_mode: ExeMode::Graph,
            threads: 1,
            ..SessionOptions::default()
        },
    )?;
    let inputs = [x];
    let bare = plan.run(&inputs)?;
    let through = session.run(&inputs)?;
    if bare[0].to_f64_vec() != through[0].to_f64_vec() {
        return Err("the session and the plan disagree".into());
    }
    let (mut plan_us, mut session_us) = (Vec::new(), Vec::new());
    for i in 0..runs + 200 {
        let t = Instant::now();
        plan.run(&inputs)?;
        let p = t.elapsed().as_secs_f64() * 1e6;
        let t = Instant::now();
        session.run(&inputs)?;
        let s = t.elapsed().as_secs_f64() * 1e6;
        if i >= 200 {
            plan_us.push(p);
            session_us.push(s);
        }
    }
    let (p, s) = (median(&mut plan_us), median(&mut session_us));
    println!("| case | plan median (µs) | session median (µs) | overhead (µs) |");
    println!("|---|---:|---:|---:|");
    println!(
        "| mlp.onnx batch 4, 1 thread, {runs} runs | {p:.2} | {s:.2} | {:.2} |",
        s - p
    );
    Ok(())
}
