//! `strata-opt`: parse, verify and print strata IR, with `mlir-opt`'s flags.
//!
//! Options follow LLVM's command-line conventions (`-flag` and `--flag` are
//! the same, values as `--flag=value` or `-o value`), so that lit tests and
//! muscle memory written for `mlir-opt` work unchanged.

mod cli;
mod passes;
mod upstream;

use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cli::{parse_args, Action, Options, HELP, SPLIT_MARKER};
use passes::Passes;
use strata_ir::pass::PassRegistry;

use strata_ir::diagnostics::{self, Diagnostic, SourceBuffer};
use strata_ir::parser::{parse_source_range, ParseOptions};
use strata_ir::printer::print_operation_to;
use strata_ir::verify_diagnostics::{
    line_col, render_failure, split_chunks, ExpectedDiagnostics, VerifyFailure,
};
use strata_ir::{verifier, Context};

fn main() -> ExitCode {
    // Deeply nested IR is parsed and printed recursively: give it room.
    let worker = std::thread::Builder::new()
        .name("strata-opt".into())
        .stack_size(1 << 30)
        .spawn(run_main);
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("strata-opt: internal error");
            ExitCode::from(2)
        }
    }
}

fn run_main() -> ExitCode {
    let mut registry = PassRegistry::default();
    strata_passes::register_all(&mut registry);
    strata_lowering::register_passes(&mut registry);
    let mut options = match parse_args(std::env::args().skip(1), &registry) {
        Ok(Action::Run(options)) => options,
        Ok(Action::Help) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Ok(Action::Version) => {
            println!("strata-opt {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("strata-opt: {err}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = options.recipe.clone() {
        match recipe_pipeline(&path, &options) {
            Ok(pipeline) => options.pass_pipeline = Some(pipeline),
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::FAILURE;
            }
        }
    }
    match run(&options, &registry) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Write a listing to standard output; a closed pipe (`| head`) ends the
/// listing quietly instead of failing.
fn write_stdout(text: &str) -> Result<bool, String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(true),
        Err(e) => Err(format!("strata-opt: cannot write to standard output: {e}")),
    }
}

/// The pipeline of the recipe at `path`; its warnings go to stderr.
fn recipe_pipeline(path: &str, options: &Options) -> Result<String, String> {
    let ctx = new_context(options);
    let known = |name: &str| strata_dialects::op_names::resolve(&ctx, name).is_some();
    let load = strata_recipe::LoadOptions {
        known_op: Some(&known),
    };
    let loaded = strata_recipe::Recipe::load(std::path::Path::new(path), &load)
        .map_err(|e| e.to_string())?;
    for warning in &loaded.warnings {
        eprintln!("{warning}");
    }
    Ok(loaded.recipe.pipeline())
}

/// A context with the dialects strata-opt knows.
fn new_context(options: &Options) -> Context {
    let mut ctx = Context::new();
    strata_ir::testing::register_test_dialect(&mut ctx);
    strata_dialects::register_all(&mut ctx);
    strata_runtime::interp::install_folding(&mut ctx);
    ctx.set_allow_unregistered_dialects(options.allow_unregistered);
    ctx
}

/// Process the input; returns whether every chunk succeeded.
fn run(options: &Options, registry: &PassRegistry) -> Result<bool, String> {
    if options.list_passes {
        return write_stdout(&registry.describe());
    }
    let mut passes = Passes::new(options, registry)?;
    if options.show_dialects {
        let ctx = new_context(options);
        let dialects = ctx.registry().dialects().join(",");
        return write_stdout(&format!("Available Dialects: {dialects}\n"));
    }
    if options.list_dialects {
        let ctx = new_context(options);
        let mut text = String::new();
        for dialect in ctx.registry().dialects() {
            text.push_str(dialect);
            text.push('\n');
        }
        return write_stdout(&text);
    }
    if options.list_ops {
        let ctx = new_context(options);
        let ops = ctx.registry().ops();
        let width = ops.iter().map(|d| d.name.len()).max().unwrap_or(0);
        let mut text = String::new();
        for def in ops {
            text.push_str(&format!("{:width$}  {}\n", def.name, def.summary));
        }
        return write_stdout(&text);
    }
    let input = options.input.as_deref().unwrap_or("-");
    let (name, bytes) = if input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("strata-opt: cannot read standard input: {e}"))?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(input)
            .map_err(|e| format!("strata-opt: cannot open input file '{input}': {e}"))?;
        (input.to_string(), bytes)
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: error: input is not valid UTF-8 (first invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let buffer = SourceBuffer::new(name, text);

    let chunks = split_chunks(&buffer.text, options.split_marker.as_deref());
    let mut expected = options
        .verify_diagnostics
        .then(|| ExpectedDiagnostics::scan(&buffer.name, &buffer.text, 0));
    let mut failures: Vec<VerifyFailure> = match &mut expected {
        Some((expected, scan_failures)) => {
            expected.set_only_expected(options.verify_only_expected);
            std::mem::take(scan_failures)
        }
        None => Vec::new(),
    };
    let mut stderr = std::io::stderr().lock();
    for failure in &failures {
        let _ = stderr.write_all(render_failure(&buffer, failure).as_bytes());
    }

    let marker = options
        .output_split_marker
        .clone()
        .unwrap_or_else(|| SPLIT_MARKER.to_string());
    let mut output = Output::open(options.output.as_deref())?;
    let mut parse_time = Duration::ZERO;
    let mut all_ok = true;
    for (index, &(start, end)) in chunks.iter().enumerate() {
        if index > 0 {
            output.write(format!("{marker}\n").as_bytes())?;
        }
        let module_loc = if index == 0 {
            (0, 0)
        } else {
            line_col(&buffer.text, start)
        };
        let mut ctx = new_context(options);
        let result = process_chunk(
            &mut ctx,
            &buffer,
            (start, end),
            module_loc,
            (options, registry, &mut passes, &mut parse_time),
            &mut output,
        )?;
        match result {
            Ok(()) => output.write(b"\n")?,
            Err(diags) => {
                all_ok = false;
                for diag in &diags {
                    match &mut expected {
                        Some((checker, _)) => {
                            for emitted in diagnostics::resolve(&ctx, diag) {
                                if let Some(failure) = checker.process(&emitted) {
                                    let _ = stderr
                                        .write_all(render_failure(&buffer, &failure).as_bytes());
                                    failures.push(failure);
                                }
                            }
                        }
                        None => {
                            let diag = diagnostics::with_current_operation(&ctx, diag);
                            let rendered =
                                diagnostics::render(&ctx, &diag, std::slice::from_ref(&buffer));
                            let _ = stderr.write_all(rendered.as_bytes());
                        }
                    }
                }
                if let Some(dump) = passes.instrumentation.take_failure_dump() {
                    let _ = stderr.write_all(dump.as_bytes());
                }
            }
        }
    }

    let success = match expected {
        Some((checker, _)) => {
            for failure in checker.finish() {
                let _ = stderr.write_all(render_failure(&buffer, &failure).as_bytes());
                failures.push(failure);
            }
            failures.is_empty()
        }
        None => all_ok,
    };
    output.finish(success)?;
    passes.finish(options, parse_time)?;
    Ok(success)
}

/// Parse, verify and print one chunk to `output`. The outer error is an
/// output failure; the inner one the chunk's diagnostics.
fn process_chunk(
    ctx: &mut Context,
    buffer: &SourceBuffer,
    range: (usize, usize),
    module_loc: (u32, u32),
    (options, registry, passes, parse_time): (&Options, &PassRegistry, &mut Passes, &mut Duration),
    output: &mut Output,
) -> Result<Result<(), Vec<Diagnostic>>, String> {
    let start = Instant::now();
    let parsed = parse_source_range(ctx, buffer, ParseOptions { range, module_loc });
    *parse_time += start.elapsed();
    let module = match parsed {
        Ok(module) => module,
        Err(diags) => return Ok(Err(diags)),
    };
    if let Err(diags) = verifier::verify(ctx, module) {
        return Ok(Err(diags));
    }
    if let Err(diags) = passes.run(ctx, module, options, registry) {
        return Ok(Err(diags));
    }
    let module = match &options.upstream_pipeline {
        Some(pipeline) => match upstream::run(ctx, module, &buffer.name, pipeline)? {
            Ok(module) => module,
            Err(diags) => return Ok(Err(diags)),
        },
        None => module,
    };
    let start = Instant::now();
    print_operation_to(ctx, module, options.print, &mut output.writer)
        .map_err(|e| output.error(&e))?;
    passes.output_time += start.elapsed();
    Ok(Ok(()))
}

/// Where the printed IR goes: standard output, streamed, or a file that is
/// written under a temporary name and kept only when everything succeeded
/// (as mlir-opt's `-o`).
struct Output {
    writer: std::io::BufWriter<Box<dyn Write>>,
    file: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

impl Output {
    fn open(path: Option<&str>) -> Result<Output, String> {
        match path {
            None | Some("-") => Ok(Output {
                writer: std::io::BufWriter::new(Box::new(std::io::stdout())),
                file: None,
            }),
            Some(path) => {
                let target = std::path::PathBuf::from(path);
                let open_error = |e: std::io::Error| {
                    format!("strata-opt: cannot write output file '{path}': {e}")
                };
                // Devices, pipes and the like (`-o /dev/null`) are written
                // directly; only regular files go through a temporary file
                // that replaces them on success.
                let special = std::fs::metadata(&target).is_ok_and(|m| !m.is_file());
                if special {
                    let file = std::fs::OpenOptions::new()
                        .write(true)
                        .open(&target)
                        .map_err(open_error)?;
                    return Ok(Output {
                        writer: std::io::BufWriter::new(Box::new(file)),
                        file: None,
                    });
                }
                let mut temp = target.clone().into_os_string();
                temp.push(format!(".strata-opt-{}.tmp", std::process::id()));
                let temp = std::path::PathBuf::from(temp);
                let file = std::fs::File::create(&temp).map_err(open_error)?;
                Ok(Output {
                    writer: std::io::BufWriter::new(Box::new(file)),
                    file: Some((temp, target)),
                })
            }
        }
    }

    fn error(&self, error: &std::io::Error) -> String {
        match &self.file {
            Some((_, target)) => {
                format!(
                    "strata-opt: cannot write output file '{}': {error}",
                    target.display()
                )
            }
            None => format!("strata-opt: cannot write output: {error}"),
        }
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.writer.write_all(bytes).map_err(|e| self.error(&e))
    }

    /// Flush; keep the output file only on success.
    fn finish(mut self, success: bool) -> Result<(), String> {
        self.writer.flush().map_err(|e| self.error(&e))?;
        let Some((temp, target)) = self.file.take() else {
            return Ok(());
        };
        drop(self.writer);
        if success {
            std::fs::rename(&temp, &target).map_err(|e| {
                format!(
                    "strata-opt: cannot write output file '{}': {e}",
                    target.display()
                )
            })
        } else {
            // As mlir-opt: a failed run leaves no output file behind, so
            // that build systems do not take a stale one for up to date.
            let _ = std::fs::remove_file(&temp);
            if std::fs::symlink_metadata(&target).is_ok_and(|m| m.is_file()) {
                let _ = std::fs::remove_file(&target);
            }
            Ok(())
        }
    }
}
