//! `strata bench`: compile time and in-process latency of a model in an
//! exe mode, over repeated runs on the same inputs.

use std::path::Path;
use std::time::Instant;

use strata_runtime::interp::run_function;

use crate::{compile_error, prepare, DriverError, Prepared};

/// What `strata bench` takes besides the model.
pub(crate) struct BenchOptions<'a> {
    pub mode: &'a str,
    pub inputs: &'a [String],
    pub dims: &'a [String],
    pub seed: u64,
    pub function: &'a str,
    pub runs: usize,
    pub warmup: usize,
    /// `--threads` (default: the recipe's `codegen.threads`, 0 meaning one
    /// per core).
    pub threads: Option<usize>,
    /// A recipe whose pipeline graph mode compiles with.
    pub recipe: Option<&'a std::path::Path>,
    pub json: bool,
    pub profile: bool,
}

/// The `q`-quantile of sorted `samples` (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The ops the interpreter evaluates per run (each is one kernel call).
fn eager_ops(ctx: &strata_ir::Context, func: strata_ir::Operation) -> usize {
    ctx.nested_ops(func, strata_ir::WalkOrder::PreOrder)
        .into_iter()
        .filter(|&o| {
            let name = ctx.op_name_str(o);
            name.starts_with("graph.") && name != "graph.constant"
        })
        .count()
}

pub(crate) fn bench(model: &Path, o: BenchOptions<'_>) -> Result<(), DriverError> {
    if o.runs == 0 {
        return Err(DriverError::Message("--runs must be at least 1".into()));
    }
    let start = Instant::now();
    let Prepared {
        mut ctx,
        module,
        func,
        args,
        ..
    } = prepare(model, o.inputs, &[], o.seed, o.dims, o.function)?;
    let load_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut run: Box<dyn FnMut() -> Result<(), DriverError>>;
    let (compile_ms, kernels);
    let llvm_ms;
    let threads;
    match o.mode {
        "eager" if o.recipe.is_some() => {
            return Err(DriverError::Message(
                "--recipe: a recipe drives graph mode's compilation; eager mode compiles nothing"
                    .into(),
            ))
        }
        "eager" => {
            compile_ms = 0.0;
            kernels = eager_ops(&ctx, func);
            let args = args.clone();
            let ctx = &ctx;
            run = Box::new(move || {
                run_function(ctx, func, args.clone())
                    .map(|_| ())
                    .map_err(|e| DriverError::Message(e.to_string()))
            });
            return time_runs(&mut run, &o, (load_ms, compile_ms, 0.0), kernels, 1);
        }
        "graph" => {
            let shapes: Vec<Vec<usize>> = args.iter().map(|t| t.shape().to_vec()).collect();
            let recipe = match o.recipe {
                Some(path) => crate::recipe::load(path)?,
                None => strata_recipe::Recipe::default(),
            };
            let pipeline = recipe.pipeline();
            threads = resolve_threads(o.threads, &recipe);
            let t = Instant::now();
            let compiled = strata_runtime::compiled::compile_with(
                &mut ctx, module, o.function, &shapes, threads, &pipeline,
            )
            .map_err(|e| compile_error(&ctx, e))?;
            compile_ms = t.elapsed().as_secs_f64() * 1e3;
            kernels = compiled.launches();
            llvm_ms = compiled.llvm_ms;
            if o.profile {
                print_profile(&compiled, &args, o.runs)?;
            }
            run = Box::new(move || {
                compiled
                    .run(&args)
                    .map(|_| ())
                    .map_err(|e| DriverError::Message(e.to_string()))
            });
        }
        other => {
            return Err(DriverError::Message(format!(
                "unknown exe mode '{other}'; the modes are: eager, graph"
            )))
        }
    }
    time_runs(
        &mut run,
        &o,
        (load_ms, compile_ms, llvm_ms),
        kernels,
        threads,
    )
}

/// The threads of a compiled plan: `--threads`, else the recipe's
/// `codegen.threads` (0: one per core), as a session resolves them.
pub(crate) fn resolve_threads(flag: Option<usize>, recipe: &strata_recipe::Recipe) -> usize {
    let mut options = strata_runtime::session::SessionOptions::from_recipe(recipe);
    if let Some(t) = flag {
        options.threads = t;
    }
    options.resolved_threads()
}

fn time_runs(
    run: &mut dyn FnMut() -> Result<(), DriverError>,
    o: &BenchOptions<'_>,
    (load_ms, compile_ms, llvm_ms): (f64, f64, f64),
    kernels: usize,
    threads: usize,
) -> Result<(), DriverError> {
    for _ in 0..o.warmup {
        run()?;
    }
    let mut samples = Vec::with_capacity(o.runs);
    for _ in 0..o.runs {
        let t = Instant::now();
        run()?;
        samples.push(t.elapsed().as_secs_f64() * 1e3);
    }
    samples.sort_by(f64::total_cmp);
    let (p50, p90, p99) = (
        quantile(&samples, 0.5),
        quantile(&samples, 0.9),
        quantile(&samples, 0.99),
    );
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    if o.json {
        outln!(
            "{{\"mode\": \"{}\", \"threads\": {}, \"load_ms\": {load_ms:.3}, \"compile_ms\": {compile_ms:.3}, \"llvm_ms\": {llvm_ms:.3}, \"runs\": {}, \"warmup\": {}, \"p50_ms\": {p50:.4}, \"p90_ms\": {p90:.4}, \"p99_ms\": {p99:.4}, \"mean_ms\": {mean:.4}, \"min_ms\": {:.4}, \"kernels\": {kernels}}}",
            o.mode,
            threads,
            o.runs,
            o.warmup,
            samples[0]
        );
    } else {
        if o.mode == "graph" {
            let plural = if threads == 1 { "" } else { "s" };
            outln!("mode graph ({threads} thread{plural})");
            outln!(
                "compile: {compile_ms:.1} ms, of which LLVM {llvm_ms:.1} ms (load {load_ms:.1} ms)"
            );
        } else {
            outln!("mode eager (the interpreter; load {load_ms:.1} ms)");
        }
        outln!(
            "latency over {} runs ({} warm-up): p50 {p50:.3} ms, p90 {p90:.3} ms, p99 {p99:.3} ms, min {:.3} ms",
            o.runs, o.warmup, samples[0]
        );
        if o.mode == "graph" {
            outln!("steps per run: {kernels} (kernel launches and library calls)");
        } else {
            outln!("ops per run: {kernels}");
        }
    }
    Ok(())
}

/// The median time of each kernel over `runs` runs, slowest first.
fn print_profile(
    compiled: &strata_runtime::compiled::CompiledModel,
    args: &[strata_runtime::Tensor],
    runs: usize,
) -> Result<(), DriverError> {
    let mut per_kernel: Vec<(String, Vec<f64>)> = Vec::new();
    for _ in 0..runs.max(1) {
        let (_, times) = compiled
            .run_profiled(args)
            .map_err(|e| DriverError::Message(e.to_string()))?;
        for (i, (name, t)) in times.into_iter().enumerate() {
            if per_kernel.len() <= i {
                per_kernel.push((name, Vec::new()));
            }
            per_kernel[i].1.push(t);
        }
    }
    let mut rows: Vec<(String, f64)> = per_kernel
        .into_iter()
        .map(|(n, mut v)| {
            v.sort_by(f64::total_cmp);
            (n, quantile(&v, 0.5))
        })
        .collect();
    let total: f64 = rows.iter().map(|r| r.1).sum();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    outln!(
        "kernel time (median of {} runs), slowest first:",
        runs.max(1)
    );
    for (name, t) in rows {
        outln!(
            "  {t:9.3} ms  {:5.1}%  {name}",
            100.0 * t / total.max(1e-12)
        );
    }
    Ok(())
}
