//! `strata`: the driver. `strata import` turns an ONNX model into `graph`
//! IR; `strata compile` lowers it and writes the IR of a layer; `strata run`
//! executes IR (or an ONNX model) in an exe mode, or runs an artifact;
//! `strata inspect` shows an artifact; `strata bench` times a model;
//! `strata recipe` validates recipes and prints what they become.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

// First, so that every module below has `out!` and `outln!`.
#[macro_use]
mod out;
mod artifact;
mod bench;
mod cache;
mod check;
mod cli;

pub(crate) use check::{check_against_eager, check_tolerance};
mod compile;
mod cuda;
mod custom;
mod import;
mod recipe;
mod replay;
mod tune;
mod values;
use values::{flatten_outputs, format_values};

use clap::Parser;
use cli::{Cli, Command};
use std::sync::Arc;
use strata_ir::{Context, Operation, SourceBuffer};
use strata_runtime::interp::{dtype_of, lookup_function, run_function};
use strata_runtime::kernels::{allclose, Tolerance};
use strata_runtime::session::{
    io_names, Event, EventKind, ExeMode, Session, SessionError, SessionOptions, Source,
};
use strata_runtime::{npy, DType, Datum, Tensor};

/// An error the driver reports before exiting with status 1.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DriverError {
    #[error(transparent)]
    Import(#[from] strata_onnx::ImportError),
    #[error("{0}")]
    Message(String),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut libraries = Vec::new();
    for path in &cli.custom_op_libs {
        match strata_runtime::custom_c::CustomOpLibrary::load(path) {
            Ok(l) => libraries.push(l),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    custom::set_libraries(libraries);
    let result = match cli.command {
        Command::Import {
            model,
            from,
            output,
            generic,
            debug_info,
            verify_shapes,
        } => import::import(
            &model,
            from.as_deref(),
            output.as_deref(),
            strata_ir::printer::PrintOptions {
                generic,
                debug_info,
            },
            verify_shapes,
        ),
        Command::Run {
            model,
            mode,
            inputs,
            output_dir,
            seed,
            dims,
            function,
            print,
            expects,
            rtol,
            atol,
            threads,
            recipe,
            check,
            check_args,
            target,
            cuda_graph,
            device,
            report,
            log_events,
            trace,
            cache_dir,
        } => run(
            &model,
            mode.as_deref(),
            &inputs,
            output_dir.as_deref(),
            RunOptions {
                report: report.as_deref(),
                log_events,
                trace: trace.as_deref(),
                cache_dir: cache_dir.as_deref(),
                recipe: recipe.as_deref(),
                check,
                check_args: &check_args,
                seed,
                dims: &dims,
                function: &function,
                print,
                expects: &expects,
                tolerance: (rtol, atol),
                threads,
                target: target.as_deref(),
                cuda_graph,
                device,
            },
        ),
        Command::Compile {
            model,
            target,
            emit,
            stop_after,
            output,
            inputs,
            dims,
            function,
            generic,
            json,
            recipe,
            pass_bisect_limit,
        } => compile::compile(
            &model,
            compile::CompileOptions {
                recipe: recipe.as_deref(),
                target: target.as_deref(),
                emit: emit.as_deref(),
                stop_after: stop_after.as_deref(),
                output: output.as_deref(),
                inputs: &inputs,
                dims: &dims,
                function: &function,
                generic,
                json,
                pass_bisect_limit,
            },
        ),
        Command::Tune(args) => args.run(),
        Command::TuneTrial { job } => tune::tune_trial(&job),
        Command::Inspect { artifact, json } => artifact::inspect(&artifact, json),
        Command::Recipe { command } => recipe::recipe(command),
        Command::Bench {
            model,
            mode,
            seed,
            function,
            threads,
            json,
            recipe,
            shapes: Some(shapes),
            trace,
            cache_dir,
            ..
        } => replay::replay(
            &model,
            &shapes,
            replay::ReplayOptions {
                trace: trace.as_deref(),
                cache_dir: cache_dir.as_deref(),
                recipe: recipe.as_deref(),
                mode: &mode,
                function: &function,
                threads,
                seed,
                json,
            },
        ),
        Command::Bench {
            model,
            mode,
            inputs,
            dims,
            seed,
            function,
            runs,
            warmup,
            threads,
            json,
            profile,
            recipe,
            shapes: None,
            trace,
            cache_dir,
        } => match (trace, cache_dir) {
            (Some(_), _) => Err(DriverError::Message(
                "--trace records a session: use it with --shapes".into(),
            )),
            (_, Some(_)) => Err(DriverError::Message(
                "--cache-dir keeps a session's plans: use it with --shapes".into(),
            )),
            (None, None) => bench::bench(
                &model,
                bench::BenchOptions {
                    recipe: recipe.as_deref(),
                    mode: &mode,
                    inputs: &inputs,
                    dims: &dims,
                    seed,
                    function: &function,
                    runs,
                    warmup,
                    threads,
                    json,
                    profile,
                },
            ),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// The machine's cores.
pub(crate) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub(crate) fn new_context() -> Context {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    strata_runtime::interp::install_folding(&mut ctx);
    for library in custom::libraries() {
        library.register(&mut ctx);
    }
    ctx
}

/// Renders diagnostics: as `strata-opt` does for text with positions; for
/// imported models (no source text), with the location's node name.
fn render(ctx: &Context, diags: &[strata_ir::Diagnostic], buffers: &[SourceBuffer]) -> DriverError {
    if !buffers.is_empty() {
        return DriverError::Message(
            diags
                .iter()
                .map(|d| {
                    strata_ir::diagnostics::render(ctx, d, buffers)
                        .trim_end()
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    DriverError::Message(strata_runtime::session::render_diagnostics(ctx, diags))
}

fn verify(ctx: &Context, module: Operation, buffers: &[SourceBuffer]) -> Result<(), DriverError> {
    strata_ir::verifier::verify(ctx, module).map_err(|diags| render(ctx, &diags, buffers))
}

fn run_passes(ctx: &mut Context, module: Operation, pipeline: &str) -> Result<(), DriverError> {
    let mut registry = strata_ir::pass::PassRegistry::default();
    strata_passes::register_all(&mut registry);
    let mut pm = strata_ir::pass::OpPassManager::parse(&registry, pipeline).map_err(|e| {
        DriverError::Message(format!("pipeline '{pipeline}': {}", e.render(pipeline)))
    })?;
    let mut instrumentation = strata_ir::pass::Instrumentation::default();
    pm.run(ctx, module, &mut instrumentation)
        .map_err(|diags| render(ctx, &diags, &[]))
}

/// Loads `.onnx` (imported) or `.mlir` (parsed) into a verified module.
pub(crate) fn load(ctx: &mut Context, model: &Path) -> Result<Operation, DriverError> {
    load_checked(ctx, model, None, None)
}

/// [`load`]; with `sha256`, the bytes imported must have that hash (the
/// plan cache's key names the model by it: a model changed since it was
/// hashed is an error, not a plan filed under another model's name). Where
/// the cache directory `dir` remembers that hash for the file as it was
/// before and after the read, the bytes are not hashed again.
pub(crate) fn load_checked(
    ctx: &mut Context,
    model: &Path,
    sha256: Option<&str>,
    dir: Option<&Path>,
) -> Result<Operation, DriverError> {
    let remembered = || dir.and_then(|d| cache::remembered_hash(d, model));
    let before = remembered();
    let bytes = std::fs::read(model)
        .map_err(|e| DriverError::Message(format!("{}: {e}", model.display())))?;
    if let Some(want) = sha256 {
        let known = before.as_deref() == Some(want) && remembered() == before;
        if !known && strata_artifact::sha256_hex(&bytes) != want {
            return Err(DriverError::Message(format!(
                "{}: error: the model changed after it was hashed for the plan cache; run again",
                model.display()
            )));
        }
    }
    if model.extension().is_some_and(|e| e == "onnx") {
        let name = model.file_name().map_or_else(
            || model.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let module = strata_onnx::import_bytes(ctx, &bytes, &name)?;
        verify(ctx, module, &[])?;
        return Ok(module);
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        DriverError::Message(format!(
            "{}: stream did not contain valid UTF-8",
            model.display()
        ))
    })?;
    if import::is_tosa(&text) {
        let module = import::tosa_text(ctx, &text, &model.display().to_string())?;
        verify(ctx, module, &[])?;
        return Ok(module);
    }
    let buffer = SourceBuffer::new(model.display().to_string(), text);
    let module = strata_ir::parser::parse_source(ctx, &buffer)
        .map_err(|d| render(ctx, &d, std::slice::from_ref(&buffer)))?;
    verify(ctx, module, std::slice::from_ref(&buffer))?;
    Ok(module)
}

/// A small deterministic generator (SplitMix64) for random inputs.
pub(crate) struct SplitMix(pub u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

pub(crate) fn random_input(
    ctx: &Context,
    ty: strata_ir::Type,
    rng: &mut SplitMix,
    dims: &BTreeMap<String, usize>,
    name: &str,
) -> Result<Tensor, DriverError> {
    // A scalar (`f32`, `i64`, `index`, ...) is a 0-D tensor.
    let (shape, elem) = match strata_dialects::graph::shape::shape_of(ctx, ty) {
        Some(info) => info,
        None if dtype_of(ctx, ty).is_some() => {
            (strata_dialects::graph::shape::Shape::ranked(Vec::new()), ty)
        }
        None => {
            return Err(DriverError::Message(format!(
                "input '{name}' has type {}, which strata run cannot make",
                strata_ir::printer::type_to_string(ctx, ty)
            )))
        }
    };
    let dtype = dtype_of(ctx, elem).ok_or_else(|| {
        DriverError::Message(format!("input '{name}' has an unsupported element type"))
    })?;
    let Some(sdims) = shape.dims() else {
        return Err(DriverError::Message(format!(
            "input '{name}' has unknown rank: give it with --input {name}=FILE.npy"
        )));
    };
    let mut sizes = Vec::with_capacity(sdims.len());
    for d in sdims {
        use strata_dialects::graph::shape::Dim;
        sizes.push(match d {
            Dim::Known(n) => *n as usize,
            Dim::Sym(m) => m
                .syms
                .iter()
                .try_fold(m.coeff as usize, |n, s| {
                    n.checked_mul(dims.get(s).copied().unwrap_or(1))
                })
                .ok_or_else(|| DriverError::Message(format!("input '{name}' is too large")))?,
            Dim::Unknown => 1,
        });
    }
    random_tensor(dtype, &sizes, rng, name)
}

/// A tensor of `dtype` and shape `sizes` with values from `rng` (floats in
/// [-1, 1), integers in [0, 10), booleans); `name` the input it is for.
pub(crate) fn random_tensor(
    dtype: DType,
    sizes: &[usize],
    rng: &mut SplitMix,
    name: &str,
) -> Result<Tensor, DriverError> {
    let count = sizes
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .filter(|&n| {
            n.saturating_mul(dtype.byte_size()) <= strata_runtime::interp::MAX_MATERIALIZED_BYTES
        })
        .ok_or_else(|| {
            DriverError::Message(format!("input '{name}' of shape {sizes:?} is too large"))
        })?;
    let values: Vec<f64> = (0..count)
        .map(|_| match dtype {
            DType::I1 => (rng.next() & 1) as f64,
            d if d.is_float() => rng.unit(),
            _ => (rng.next() % 10) as f64,
        })
        .collect();
    Ok(Tensor::from_f64_vec(dtype, sizes, &values))
}

/// The options of `strata run` besides the model, mode and files.
pub(crate) struct RunOptions<'a> {
    /// `--recipe`: graph mode compiles with it; an artifact must match it.
    pub recipe: Option<&'a Path>,
    /// `--cache-dir`: the plan cache on disk.
    pub cache_dir: Option<&'a Path>,
    /// `--check`: compare graph mode with eager mode.
    pub check: bool,
    /// `--check-budget`, `--check-repro`, `--check-no-localize`.
    pub check_args: &'a check::CheckArgs,
    pub seed: u64,
    pub dims: &'a [String],
    pub function: &'a str,
    pub print: bool,
    /// `NAME=FILE.npy` references to compare outputs with.
    pub expects: &'a [String],
    /// `--rtol`, `--atol` overriding the dtype's tolerance.
    pub tolerance: (Option<f64>, Option<f64>),
    /// `--threads`: threads of the compiled plan (default: the recipe's).
    pub threads: Option<usize>,
    /// `--report FILE`: the session's report as JSON.
    pub report: Option<&'a Path>,
    /// `--log-events`: each compile event on standard error.
    pub log_events: bool,
    /// `--trace FILE`: a Chrome trace of the run and the compile events.
    pub trace: Option<&'a Path>,
    /// `--target`: `host` or `cuda` (graph mode).
    pub target: Option<&'a str>,
    /// `--cuda-graph`: replay the launches from a CUDA graph.
    pub cuda_graph: bool,
    /// `--device`: the CUDA device.
    pub device: usize,
}

fn run(
    model: &Path,
    mode: Option<&str>,
    inputs: &[String],
    output_dir: Option<&Path>,
    options: RunOptions<'_>,
) -> Result<(), DriverError> {
    let started = std::time::Instant::now();
    if let Some(done) = run_elsewhere(model, mode, inputs, output_dir, &options) {
        return done;
    }
    let RunOptions {
        recipe,
        check,
        check_args,
        seed,
        dims,
        function,
        print,
        expects,
        tolerance,
        threads,
        report,
        log_events,
        trace,
        cache_dir,
        ..
    } = options;
    let loaded = match recipe {
        Some(path) => Some(recipe::load(path)?),
        None => None,
    };
    let exe_mode = match mode {
        Some(m) => ExeMode::from_name(m).ok_or_else(|| {
            DriverError::Message(format!(
                "unknown exe mode '{m}'; the modes are: eager, graph, hybrid"
            ))
        })?,
        None => loaded
            .as_ref()
            .map_or(ExeMode::Eager, |r| r.runtime.exe_mode),
    };
    if let Some(r) = loaded.as_ref().filter(|_| exe_mode != ExeMode::Eager) {
        custom::check_contracts(r)?;
    }
    // The model's hash (the disk cache's key) while the model is imported.
    let dir = cache::cache_dir_of(cache_dir, loaded.as_ref());
    let cached = exe_mode != ExeMode::Eager && dir.is_some();
    // Graph mode from a warm cache loads its plan without the model: the
    // session starts from the model's signature and imports the model
    // only when it compiles (--check runs the model eagerly: it imports).
    // Hybrid mode imports it once, to partition it, not twice.
    let signature_only = cached && !check && model.extension().is_some_and(|e| e == "onnx");
    let model_hash = cached
        .then(|| cache::hash_file(model, dir.as_deref()))
        .transpose()
        .map_err(DriverError::Message)?;
    let Prepared {
        ctx,
        module,
        func,
        args,
        out_names,
        expected,
        in_names,
        ..
    } = prepare_with(model, inputs, expects, seed, dims, function, signature_only)?;
    let localizing = check && exe_mode == ExeMode::Graph;
    if localizing {
        check::check_budget(check_args)?;
    }
    let mut session_options = match &loaded {
        Some(r) => SessionOptions::from_recipe(r),
        None => SessionOptions::default(),
    };
    session_options.exe_mode = exe_mode;
    session_options.function = function.to_string();
    if let Some(t) = threads {
        session_options.threads = t;
    }
    session_options.trace = trace.is_some();
    if let Some(dir) = cache_dir {
        session_options.cache_dir = Some(dir.to_path_buf());
    }
    if let Some(hash) = model_hash {
        let hash = hash
            .join()
            .unwrap_or_else(|_| Err("hashing the model failed".into()))
            .map_err(DriverError::Message)?;
        session_options.model_sha256 = Some(hash);
        session_options.model_name = cache::file_name(model);
    }
    let shown = model.display().to_string();
    session_options.on_event = Some(Arc::new(move |e: &Event| {
        if matches!(e.kind, EventKind::Compile | EventKind::CompileFailed) && !e.pinned.is_empty() {
            eprintln!(
                "{shown}: note: compiled with the values of input(s) {} as constants",
                e.pinned.join(", ")
            );
        }
        if e.kind == EventKind::DiskRejected {
            eprintln!(
                "{shown}: warning: plan cache entry refused, compiling again: {}",
                e.reason
            );
        }
        if log_events {
            eprintln!("{}", e.to_json());
        }
    }));
    // The reference of --check, before the session takes the module; in
    // graph mode twice, to tell a model that does not agree with itself.
    let runs = match (check && exe_mode != ExeMode::Eager, localizing) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 2,
    };
    let mut eager_runs = (0..runs)
        .map(|_| run_function(&ctx, func, args.clone()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| DriverError::Message(e.to_string()))?
        .into_iter();
    let (eager, eager_again) = (eager_runs.next(), eager_runs.next());
    let check_inputs = if localizing { args.clone() } else { Vec::new() };
    let check_pipeline = session_options.pipeline.clone();
    let check_threads = session_options.resolved_threads();
    let path = model.to_path_buf();
    let hashed = session_options.model_sha256.clone();
    let source: Source = Arc::new(move || {
        let mut ctx = new_context();
        let module = load_checked(&mut ctx, &path, hashed.as_deref(), dir.as_deref())
            .map_err(|e| e.to_string())?;
        Ok((ctx, module))
    });
    let session = if signature_only {
        Session::from_signature(ctx, module, source.clone(), session_options)
    } else {
        Session::from_loaded(ctx, module, source.clone(), session_options)
    }
    .map_err(|e| DriverError::Message(e.to_string()))?;
    let result = session.run_values(args.into_iter().map(Datum::Tensor).collect());
    let tolerance_of = |dtype: DType| check_tolerance(loaded.as_ref(), tolerance, dtype);
    // Graph mode's --check: compared (and a mismatch localized) before the
    // report, which holds what it found.
    let checked = match (&eager, &eager_again, &result) {
        (Some(eager), Some(again), Ok(values)) => {
            let (names, graph, _) = flatten_outputs(&out_names, values.clone());
            Some(check::check_graph_run(&check::CheckRun {
                model,
                out_names: &names,
                graph: &graph,
                eager,
                eager_again: again,
                tolerance_of: &tolerance_of,
                source: &source,
                function,
                inputs: &check_inputs,
                pipeline: &check_pipeline,
                threads: check_threads,
                recipe,
                in_names: &in_names,
                args: check_args,
            })?)
        }
        _ => None,
    };
    write_report(&session, report, trace, checked.as_ref(), started)?;
    let values = result.map_err(|e| session_error(model, e))?;
    let (out_names, outputs, kinds) = flatten_outputs(&out_names, values);
    match (checked, eager) {
        (Some(c), _) => c.into_result()?,
        (None, Some(eager)) => check_against_eager(&out_names, &outputs, &eager, &tolerance_of)?,
        (None, None) => {}
    }
    if recipe.is_some() && exe_mode == ExeMode::Eager {
        eprintln!(
            "{}: note: --recipe applies to graph mode; eager mode ran without it",
            model.display()
        );
    }
    write_outputs(&out_names, &outputs, output_dir, print)?;
    for note in kinds {
        outln!("{note}");
    }
    compare_outputs(&out_names, &outputs, &expected, tolerance)
}

/// Prints each output's dtype and shape (and values with `print`), and
/// writes it to `output_dir/<name>.npy` when asked.
pub(crate) fn write_outputs(
    out_names: &[String],
    outputs: &[Tensor],
    output_dir: Option<&Path>,
    print: bool,
) -> Result<(), DriverError> {
    if let Some(dir) = output_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| DriverError::Message(format!("{}: {e}", dir.display())))?;
    }
    for (name, t) in out_names.iter().zip(outputs) {
        outln!("{name}: {} {:?}", t.dtype().name(), t.shape());
        if print {
            outln!("{}", format_values(t));
        }
        if let Some(dir) = output_dir {
            let file_name: String = name
                .chars()
                .map(|c| {
                    if c == '/' || c == '\\' || c == '\0' {
                        '_'
                    } else {
                        c
                    }
                })
                .collect();
            let path = dir.join(format!("{file_name}.npy"));
            npy::save(&path, t).map_err(|e| DriverError::Message(e.to_string()))?;
        }
    }
    Ok(())
}

/// A loaded model with its inputs (given or made up) and references.
pub(crate) struct Prepared {
    pub ctx: Context,
    pub module: Operation,
    pub func: Operation,
    pub args: Vec<Tensor>,
    pub in_names: Vec<String>,
    pub out_names: Vec<String>,
    pub expected: BTreeMap<String, (String, Tensor)>,
}

/// Load `model`, find `function`, read `--input`/`--expect` files and make
/// up the inputs that are not given.
pub(crate) fn prepare(
    model: &Path,
    inputs: &[String],
    expects: &[String],
    seed: u64,
    dims: &[String],
    function: &str,
) -> Result<Prepared, DriverError> {
    prepare_with(model, inputs, expects, seed, dims, function, false)
}

/// [`prepare`]; with `signature_only`, the module declares the model's
/// function only (an ONNX model's signature, read without its weights and
/// nodes: `strata_onnx::import_signature_file`).
pub(crate) fn prepare_with(
    model: &Path,
    inputs: &[String],
    expects: &[String],
    seed: u64,
    dims: &[String],
    function: &str,
    signature_only: bool,
) -> Result<Prepared, DriverError> {
    let mut ctx = new_context();
    let module = if signature_only {
        strata_onnx::import_signature_file(&mut ctx, model)?
    } else {
        load(&mut ctx, model)?
    };
    let func = lookup_function(&ctx, module, function).ok_or_else(|| {
        DriverError::Message(format!("{}: no function '@{function}'", model.display()))
    })?;
    let (arg_types, _) = strata_dialects::func::function_signature(&ctx, func)
        .ok_or_else(|| DriverError::Message(format!("@{function} has no function type")))?;
    let result_count =
        strata_dialects::func::function_signature(&ctx, func).map_or(0, |(_, r)| r.len());
    let in_names = io_names(&ctx, func, "arg_attrs", "input", arg_types.len());
    let out_names = io_names(&ctx, func, "res_attrs", "output", result_count);

    let expected = load_named(expects, "--expect", "output", &out_names)?;
    let mut given: BTreeMap<String, Tensor> = load_named(inputs, "--input", "input", &in_names)?
        .into_iter()
        .map(|(name, (_, t))| (name, t))
        .collect();
    let mut sym_sizes = BTreeMap::new();
    for spec in dims {
        let parsed = spec
            .split_once('=')
            .and_then(|(s, n)| n.parse::<usize>().ok().map(|n| (s.to_string(), n)));
        let (s, n) = parsed
            .ok_or_else(|| DriverError::Message(format!("--dim '{spec}': expected SYM=N")))?;
        sym_sizes.insert(s, n);
    }
    let mut rng = SplitMix(seed);
    let mut args = Vec::with_capacity(arg_types.len());
    for (name, &ty) in in_names.iter().zip(&arg_types) {
        args.push(match given.remove(name) {
            Some(t) => t,
            None => random_input(&ctx, ty, &mut rng, &sym_sizes, name)?,
        });
    }
    Ok(Prepared {
        ctx,
        module,
        func,
        args,
        in_names,
        out_names,
        expected,
    })
}

/// Graph mode compiles the function for the inputs it is given: each must
/// have its argument's dtype and a shape the argument's type admits (a
/// dynamic dimension takes any size).
pub(crate) fn check_graph_inputs(
    ctx: &Context,
    model: &Path,
    func: Operation,
    in_names: &[String],
    args: &[Tensor],
) -> Result<(), DriverError> {
    let (arg_types, _) = strata_dialects::func::function_signature(ctx, func)
        .ok_or_else(|| DriverError::Message("the function has no function type".into()))?;
    let file = model.file_name().map_or_else(
        || model.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    for ((name, &ty), t) in in_names.iter().zip(&arg_types).zip(args) {
        strata_runtime::session::InputSpec::of(ctx, name.clone(), ty)
            .check(t)
            .map_err(|e| DriverError::Message(format!("{file}: error: {e}")))?;
    }
    Ok(())
}

/// A compile error as the driver reports it (located diagnostics).
pub(crate) fn compile_error(
    ctx: &Context,
    e: strata_runtime::compiled::CompileError,
) -> DriverError {
    match e {
        strata_runtime::compiled::CompileError::Diagnostics(d) => render(ctx, &d, &[]),
        strata_runtime::compiled::CompileError::Host(h) => match h.diagnostic() {
            Some(d) => render(ctx, std::slice::from_ref(d), &[]),
            None => DriverError::Message(h.to_string()),
        },
        other => DriverError::Message(other.to_string()),
    }
}

/// The `.npy` files of `flag NAME=FILE.npy` options, by name (with the
/// file name), each NAME one of `names` (the model's `kind`s).
pub(crate) fn load_named(
    specs: &[String],
    flag: &str,
    kind: &str,
    names: &[String],
) -> Result<BTreeMap<String, (String, Tensor)>, DriverError> {
    let mut files = BTreeMap::new();
    for spec in specs {
        let (name, file) = spec.split_once('=').ok_or_else(|| {
            DriverError::Message(format!("{flag} '{spec}': expected NAME=FILE.npy"))
        })?;
        // `NAME.K` is element K of a sequence output NAME (checked when
        // the outputs are compared).
        let element_of = |n: &String| {
            kind == "output"
                && name.strip_prefix(n.as_str()).is_some_and(|rest| {
                    rest.strip_prefix('.')
                        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
                })
        };
        if !names.iter().any(|n| n == name || element_of(n)) {
            return Err(DriverError::Message(format!(
                "{flag} '{name}': the model has no such {kind} (its {kind}s: {})",
                names.join(", ")
            )));
        }
        let t = npy::load(Path::new(file)).map_err(|e| DriverError::Message(e.to_string()))?;
        files.insert(name.to_string(), (file.to_string(), t));
    }
    Ok(files)
}

/// Checks each output that has a reference; prints a line per match and
/// fails with every mismatch.
pub(crate) fn compare_outputs(
    out_names: &[String],
    outputs: &[Tensor],
    expected: &BTreeMap<String, (String, Tensor)>,
    (rtol, atol): (Option<f64>, Option<f64>),
) -> Result<(), DriverError> {
    let mut mismatches = Vec::new();
    for (name, t) in out_names.iter().zip(outputs) {
        let Some((file, reference)) = expected.get(name) else {
            continue;
        };
        let by_dtype = Tolerance::for_dtype(reference.dtype());
        let tol = Tolerance::new(rtol.unwrap_or(by_dtype.rtol), atol.unwrap_or(by_dtype.atol));
        match allclose(t, reference, tol) {
            Ok(()) if t.dtype().is_float() => outln!(
                "{name}: matches {file} (rtol {}, atol {})",
                tol.rtol,
                tol.atol
            ),
            Ok(()) => outln!("{name}: matches {file} (exactly)"),
            Err(m) => mismatches.push(format!("{name}: does not match {file}: {m}")),
        }
    }
    for (name, (file, _)) in expected {
        if !out_names.contains(name) {
            mismatches.push(format!(
                "{name}: no such output was produced to compare with {file} (the outputs: {})",
                out_names.join(", ")
            ));
        }
    }
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(DriverError::Message(mismatches.join("\n")))
    }
}

/// `--report FILE` (the session's report, with `--check`'s findings and
/// the time to first inference: the import, the session, its plan and
/// the run) and `--trace FILE`.
fn write_report(
    session: &Session,
    report: Option<&Path>,
    trace: Option<&Path>,
    checked: Option<&check::Checked>,
    started: std::time::Instant,
) -> Result<(), DriverError> {
    let write = |path: &Path, text: String| {
        std::fs::write(path, text)
            .map_err(|e| DriverError::Message(format!("{}: {e}", path.display())))
    };
    if let Some(path) = report {
        let mut report = session.report().to_json();
        if let Some(c) = checked {
            report["check"] = c.to_json();
        }
        report["wall_ms"] = serde_json::json!(started.elapsed().as_secs_f64() * 1e3);
        write(path, format!("{report:#}\n"))?;
    }
    if let Some(path) = trace {
        write(path, format!("{}\n", session.report().to_chrome_trace()))?;
    }
    Ok(())
}

/// A session's error running the model: an input's, located in the
/// model's file.
fn session_error(model: &Path, e: SessionError) -> DriverError {
    match e {
        SessionError::Input { .. } => {
            let file = model.file_name().map_or_else(
                || model.display().to_string(),
                |f| f.to_string_lossy().into_owned(),
            );
            DriverError::Message(format!("{file}: error: {e}"))
        }
        e => DriverError::Message(e.to_string()),
    }
}

/// `strata run` of an artifact, or on another target than the host: its
/// result; `None` to run here.
fn run_elsewhere(
    model: &Path,
    mode: Option<&str>,
    inputs: &[String],
    output_dir: Option<&Path>,
    options: &RunOptions<'_>,
) -> Option<Result<(), DriverError>> {
    if artifact::is_artifact(model) {
        return Some(artifact::run(model, mode, inputs, output_dir, options));
    }
    match options.target {
        None | Some("host") => {}
        Some("cuda") => {
            if let Some(m) = mode.filter(|m| *m != "graph") {
                return Some(Err(DriverError::Message(format!(
                    "--target cuda runs graph mode, not --mode {m}"
                ))));
            }
            return Some(cuda::run(model, inputs, output_dir, options));
        }
        Some(other) => {
            return Some(Err(DriverError::Message(format!(
                "--target '{other}': graph mode runs on: host, cuda"
            ))))
        }
    }
    options.cuda_graph.then(|| {
        Err(DriverError::Message(
            "--cuda-graph needs --target cuda".into(),
        ))
    })
}
