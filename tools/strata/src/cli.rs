//! The command line of `strata`: its subcommands and their flags.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::recipe;

#[derive(Parser)]
#[command(name = "strata", version, about = "The strata compiler driver")]
pub(crate) struct Cli {
    /// Register the custom ops of a shared library (strata's C ABI,
    /// `runtime/include/strata/custom_op.h`); repeatable.
    #[arg(long = "custom-op-lib", value_name = "LIB", global = true)]
    pub custom_op_libs: Vec<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Import an ONNX model, or an upstream MLIR module in the TOSA
    /// dialect, into the graph dialect.
    Import {
        /// The `.onnx` file, or the `.mlir` file of a TOSA module.
        model: PathBuf,
        /// What the model is: `onnx` or `tosa` (default: `onnx` for a
        /// `.onnx` file, else `tosa` when the module uses TOSA ops).
        #[arg(long)]
        from: Option<String>,
        /// Where to write the IR (default: standard output).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Print the generic op form.
        #[arg(long = "mlir-print-op-generic")]
        generic: bool,
        /// Print locations (each op's ONNX node).
        #[arg(long = "mlir-print-debuginfo")]
        debug_info: bool,
        /// Run `graph-infer-shapes` and `graph-verify` after import; a result
        /// whose shape stays unresolved is an error.
        #[arg(long)]
        verify_shapes: bool,
    },
    /// Run a model (`.mlir` or `.onnx`) or an artifact (`.strata`) on
    /// inputs given as `.npy` files (made up when not given).
    Run {
        /// The model: IR with a `func.func @main`, an `.onnx` file, or an
        /// artifact written by `strata compile -o model.strata`.
        model: PathBuf,
        /// The exe mode: `eager` (the reference interpreter, op by op),
        /// `graph` (the whole function compiled into one plan of kernels;
        /// the only mode of an artifact) or `hybrid` (compiled segments,
        /// with the ops that do not compile run eagerly between them).
        /// Default: the recipe's `runtime.exe_mode` with --recipe, else
        /// `eager`.
        #[arg(long)]
        mode: Option<String>,
        /// Threads of the compiled plan (default: the recipe's
        /// `codegen.threads`; 0 or no recipe: the machine's cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Write the session's report (exe mode, compiles, cache hits and
        /// misses, every compile event) to FILE as JSON.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Print each compile event (compile, cache hit, eviction, failed
        /// compile) to standard error as a JSON line, as it happens.
        #[arg(long = "log-events")]
        log_events: bool,
        /// Write the run and the compile events as a Chrome trace (JSON,
        /// loadable in Perfetto) to FILE.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        /// Graph mode: keep compiled plans in DIR across processes (the
        /// plan cache on disk; default: the recipe's `runtime.cache_dir`,
        /// else `$STRATA_CACHE_DIR`, else memory only).
        #[arg(long = "cache-dir", value_name = "DIR")]
        cache_dir: Option<PathBuf>,
        /// Graph mode: compile with this recipe. An artifact: refuse it
        /// unless it was compiled with this recipe.
        #[arg(long, value_name = "RECIPE")]
        recipe: Option<PathBuf>,
        /// An input as NAME=FILE.npy (NAME as in the model); repeatable.
        #[arg(long = "input", value_name = "NAME=FILE")]
        inputs: Vec<String>,
        /// Write each output to DIR/<output name>.npy.
        #[arg(long = "output-dir", value_name = "DIR")]
        output_dir: Option<PathBuf>,
        /// Seed of the random inputs made for inputs not given.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The size of a symbolic dimension for random inputs, as SYM=N
        /// (default 1); repeatable.
        #[arg(long = "dim", value_name = "SYM=N")]
        dims: Vec<String>,
        /// The function to run.
        #[arg(long, default_value = "main")]
        function: String,
        /// Print each output's values (nested lists, row-major).
        #[arg(long)]
        print: bool,
        /// Compare output NAME with FILE.npy (repeatable): floats within
        /// the tolerance of their dtype (or --rtol/--atol), integers and
        /// booleans exactly. A mismatch is an error (exit status 1).
        #[arg(long = "expect", value_name = "NAME=FILE")]
        expects: Vec<String>,
        /// Graph mode: also run the model eagerly on the same inputs and
        /// compare (within the recipe's `contracts.tolerance`, else
        /// --rtol/--atol, else the dtype's); a mismatch is an error.
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        check_args: crate::check::CheckArgs,
        /// The relative tolerance of --expect (default: by dtype, 1e-4 for f32).
        #[arg(long)]
        rtol: Option<f64>,
        /// The absolute tolerance of --expect (default: by dtype, 1e-5 for f32).
        #[arg(long)]
        atol: Option<f64>,
        /// Graph mode: where the plan runs: `host` (the CPU, the default) or
        /// `cuda` (an NVIDIA GPU, compiled for its compute capability; an
        /// error without a CUDA driver and device). An artifact runs on its
        /// own target.
        #[arg(long)]
        target: Option<String>,
        /// On CUDA: capture the plan's launches into a CUDA graph once and
        /// replay it.
        #[arg(long = "cuda-graph")]
        cuda_graph: bool,
        /// On CUDA: the device to run on.
        #[arg(long, default_value_t = 0)]
        device: usize,
    },
    /// Lower a model for a target and write its IR at a layer: `graph`,
    /// `tensor` (fused), `kernel` (the kernels and the host plan) as MLIR,
    /// or `host` as LLVM IR; or compile it into an artifact
    /// (`-o model.strata`) that `strata run` runs.
    Compile {
        /// The model: IR with a `func.func @main`, or an `.onnx` file.
        model: PathBuf,
        /// The target: `host` (the CPU this runs on), `sm_80` or `sm_90`
        /// (NVIDIA GPUs: `--emit ptx -o DIR`, or the nvptx stage as MLIR).
        /// Default: the recipe's `codegen.target`.
        #[arg(long)]
        target: Option<String>,
        /// What to write: `mlir`, `llvm-ir` (the host code, optimized),
        /// `ptx` (a GPU target's kernels, into `-o DIR`) or `artifact`.
        /// Default: `artifact` for `-o *.strata`, else `mlir`.
        #[arg(long)]
        emit: Option<String>,
        /// The last stage to run: graph, tensor, kernel (the default for
        /// MLIR on the host), host (LLVM IR) or, for a GPU target, nvptx
        /// (its default).
        #[arg(long = "stop-after", value_name = "STAGE")]
        stop_after: Option<String>,
        /// Where to write the IR (default: standard output).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// An input as NAME=FILE.npy, giving that input's shape; repeatable.
        #[arg(long = "input", value_name = "NAME=FILE")]
        inputs: Vec<String>,
        /// The size of a symbolic dimension, as SYM=N (default 1); repeatable.
        #[arg(long = "dim", value_name = "SYM=N")]
        dims: Vec<String>,
        /// The function to compile.
        #[arg(long, default_value = "main")]
        function: String,
        /// Print the generic op form.
        #[arg(long = "mlir-print-op-generic")]
        generic: bool,
        /// With `--emit partition`: print the partition as JSON.
        #[arg(long)]
        json: bool,
        /// Compile with this recipe's pipeline instead of the default one.
        #[arg(long, value_name = "RECIPE")]
        recipe: Option<PathBuf>,
        /// Number every optional pass step (a pass run, a pattern
        /// application) on standard error and skip the steps after the
        /// N-th (-1: skip none), as LLVM's -opt-bisect-limit (MLIR output
        /// and LLVM IR only).
        #[arg(
            long = "pass-bisect-limit",
            value_name = "N",
            allow_hyphen_values = true
        )]
        pass_bisect_limit: Option<i64>,
    },
    /// Search recipe knobs for the fastest plan that still matches eager
    /// mode: every trial compiled, checked within the recipe's tolerance
    /// and timed, in a process of its own; every trial kept in a log
    /// (docs/tuning.md).
    Tune(crate::tune::TuneArgs),
    /// One evaluation of `strata tune`, in its own process.
    #[command(hide = true, name = "tune-trial")]
    TuneTrial {
        /// The job, JSON.
        job: PathBuf,
    },
    /// Show what an artifact holds: what made it, its kernels, its buffer
    /// plan, its payload.
    Inspect {
        /// The artifact (`.strata`).
        artifact: PathBuf,
        /// Print the manifest as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Validate a recipe, or print its hash, canonical form or pipeline.
    Recipe {
        #[command(subcommand)]
        command: recipe::RecipeCommand,
    },
    /// Measure compile time and in-process latency of a model in an exe mode.
    Bench {
        /// The model: IR with a `func.func @main`, or an `.onnx` file.
        model: PathBuf,
        /// The exe mode: `eager` or `graph`.
        #[arg(long, default_value = "graph")]
        mode: String,
        /// An input as NAME=FILE.npy; inputs not given are made up.
        #[arg(long = "input", value_name = "NAME=FILE")]
        inputs: Vec<String>,
        /// The size of a symbolic dimension for made-up inputs, as SYM=N.
        #[arg(long = "dim", value_name = "SYM=N")]
        dims: Vec<String>,
        /// Seed of the made-up inputs.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The function to run.
        #[arg(long, default_value = "main")]
        function: String,
        /// Timed runs.
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// Untimed runs first.
        #[arg(long, default_value_t = 3)]
        warmup: usize,
        /// Threads of the compiled plan (default: the machine's cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Print the median time of each kernel (graph mode).
        #[arg(long)]
        profile: bool,
        /// Compile with this recipe's pipeline (graph mode).
        #[arg(long, value_name = "RECIPE")]
        recipe: Option<PathBuf>,
        /// Replay a stream of request shapes through one session instead
        /// (one `SYM=N,SYM=N` per line, or `random COUNT SYM=LO..HI ...
        /// [seed=S]`): latency with and without compile stalls, plans
        /// compiled, padding waste, cache size.
        #[arg(long, value_name = "FILE")]
        shapes: Option<PathBuf>,
        /// With --shapes: write the runs and the compile events as a
        /// Chrome trace (JSON, loadable in Perfetto) to FILE.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        /// With --shapes, graph mode: keep compiled plans in DIR across processes (the
        /// plan cache on disk; default: the recipe's `runtime.cache_dir`,
        /// else `$STRATA_CACHE_DIR`, else memory only).
        #[arg(long = "cache-dir", value_name = "DIR")]
        cache_dir: Option<PathBuf>,
    },
}
