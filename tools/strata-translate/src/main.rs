//! `strata-translate`: translate strata IR out of MLIR, as `mlir-translate`
//! does: the `kernel.func`s of a module to LLVM IR for the host
//! (`--emit=llvm-ir`, before or after `default<O3>`), and the kernels of an
//! `nvptx` module to LLVM IR for NVPTX or to PTX (`--emit=ptx`).
//!
//! Options follow LLVM's command-line conventions (`-flag` and `--flag` are
//! the same, values as `--flag=value` or `-o value`), as in `strata-opt`.

use std::io::{Read, Write};
use std::process::ExitCode;

use strata_ir::diagnostics::{self, Diagnostic, SourceBuffer};
use strata_ir::parser::{parse_source_range, ParseOptions};
use strata_ir::verify_diagnostics::{
    line_col, render_failure, split_chunks, ExpectedDiagnostics, VerifyFailure,
};
use strata_ir::{verifier, Context};
use strata_lowering::kernel_to_host::{self, HostError};

/// The text of `--help`.
const HELP: &str = "\
OVERVIEW: strata-translate: translate strata IR to other formats

USAGE: strata-translate [options] <input file | ->

The input holds kernel.func ops (a module after convert-tensor-to-kernel,
or hand-written kernels; other ops, the host plan, are ignored), or is an
nvptx module (a module with nvptx.target = sm_80 or sm_90 whose
func.func kernels use the nvptx dialect).

OPTIONS:
  --emit=llvm-ir             Print the LLVM IR of the kernels (the default;
                             --mlir-to-llvmir is the same)
  --emit=ptx                 Print the PTX of an nvptx module's kernels
                             (libdevice linked, default<O3>, LLVM's NVPTX
                             back end)
  --export=tosa              Write a graph module (strata import's output)
                             as TOSA, verified and printed by upstream
                             MLIR 22 (shapes inferred and constants folded
                             first; docs/mlir-interop.md)
  --target=sm_80|sm_90       The GPU of an nvptx module without an
                             nvptx.target (it must match one it has)
  -O3, --optimize            Run LLVM's default<O3> first (for the host
                             CPU, or the module's GPU)
  -o FILE                    Write the output to FILE (default: stdout);
                             no file is left behind when translation fails
  --split-input-file[=MARKER]
                             Translate each chunk between `// -----` markers
                             on its own
  --verify-diagnostics       Check the diagnostics against expected-error
                             comments instead of printing them
  --help, --version
";

/// The default split marker, as mlir-translate's.
const SPLIT_MARKER: &str = "// -----";

/// What the command line asks for.
#[derive(Debug, Default)]
struct Options {
    input: Option<String>,
    output: Option<String>,
    optimize: bool,
    ptx: bool,
    /// `--export=tosa`: a graph module as TOSA.
    tosa: bool,
    target: Option<String>,
    split_marker: Option<String>,
    verify_diagnostics: bool,
}

/// What to do after parsing the arguments.
enum Action {
    Run(Options),
    Help,
    Version,
}

/// Parse the arguments (without the program name).
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Action, String> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    let mut positional_only = false;
    while let Some(arg) = args.next() {
        if positional_only || arg == "-" || !arg.starts_with('-') {
            if options.input.replace(arg.clone()).is_some() {
                return Err(format!("too many positional arguments ('{arg}')"));
            }
            continue;
        }
        if arg == "--" {
            positional_only = true;
            continue;
        }
        let flag = arg.trim_start_matches('-');
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        let no_value = |value: &Option<String>| match value {
            None => Ok(()),
            Some(_) => Err(format!("option '-{name}' takes no value")),
        };
        match name {
            "help" | "h" => return Ok(Action::Help),
            "version" => return Ok(Action::Version),
            "o" => {
                let path = match value {
                    Some(v) => v,
                    None => args
                        .next()
                        .ok_or_else(|| "option '-o' needs a file name".to_string())?,
                };
                options.output = Some(path);
            }
            "emit" => match value.as_deref() {
                Some("llvm-ir") => options.ptx = false,
                Some("ptx") => options.ptx = true,
                Some(other) => {
                    return Err(format!(
                        "--emit='{other}': unknown output format; the formats are: llvm-ir, ptx"
                    ))
                }
                None => return Err("option '--emit' needs a value (llvm-ir or ptx)".into()),
            },
            "target" => match value.as_deref() {
                Some(t @ ("sm_80" | "sm_90")) => options.target = Some(t.to_string()),
                Some(other) => {
                    return Err(format!(
                        "--target='{other}': unknown GPU; the targets are: sm_80, sm_90"
                    ))
                }
                None => return Err("option '--target' needs a value (sm_80 or sm_90)".into()),
            },
            "export" => match value.as_deref() {
                Some("tosa") => options.tosa = true,
                Some(other) => {
                    return Err(format!(
                        "--export='{other}': unknown format; the formats are: tosa"
                    ))
                }
                None => return Err("option '--export' needs a value (tosa)".into()),
            },
            "mlir-to-llvmir" => no_value(&value)?,
            "O3" | "optimize" => {
                no_value(&value)?;
                options.optimize = true;
            }
            "O0" => {
                no_value(&value)?;
                options.optimize = false;
            }
            "split-input-file" => {
                options.split_marker = Some(value.unwrap_or_else(|| SPLIT_MARKER.to_string()));
            }
            "verify-diagnostics" => {
                no_value(&value)?;
                options.verify_diagnostics = true;
            }
            _ => return Err(format!("unknown option '{arg}' (see --help)")),
        }
    }
    Ok(Action::Run(options))
}

fn main() -> ExitCode {
    // Deeply nested IR is parsed recursively: give it room.
    let worker = std::thread::Builder::new()
        .name("strata-translate".into())
        .stack_size(256 << 20)
        .spawn(run_main);
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("strata-translate: internal error");
            ExitCode::from(2)
        }
    }
}

fn run_main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Action::Run(options)) => options,
        Ok(Action::Help) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Ok(Action::Version) => {
            println!("strata-translate {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("strata-translate: {err}");
            return ExitCode::FAILURE;
        }
    };
    match run(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Read the input file (or standard input for `-`) as a source buffer.
fn read_input(input: &str) -> Result<SourceBuffer, String> {
    let (name, bytes) = if input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("strata-translate: cannot read standard input: {e}"))?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(input)
            .map_err(|e| format!("strata-translate: cannot open input file '{input}': {e}"))?;
        (input.to_string(), bytes)
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: error: input is not valid UTF-8 (first invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(SourceBuffer::new(name, text))
}

/// Translate the input; returns whether every chunk succeeded (or, with
/// `--verify-diagnostics`, whether the diagnostics were the expected ones).
fn run(options: &Options) -> Result<bool, String> {
    let buffer = read_input(options.input.as_deref().unwrap_or("-"))?;
    let chunks = split_chunks(&buffer.text, options.split_marker.as_deref());
    let mut expected = options
        .verify_diagnostics
        .then(|| ExpectedDiagnostics::scan(&buffer.name, &buffer.text, 0));
    let mut failures: Vec<VerifyFailure> = match &mut expected {
        Some((_, scan_failures)) => std::mem::take(scan_failures),
        None => Vec::new(),
    };
    let mut stderr = std::io::stderr().lock();
    for failure in &failures {
        let _ = stderr.write_all(render_failure(&buffer, failure).as_bytes());
    }
    let marker = options.split_marker.as_deref().unwrap_or(SPLIT_MARKER);
    let mut output = String::new();
    let mut all_ok = true;
    for (index, &(start, end)) in chunks.iter().enumerate() {
        if index > 0 {
            output.push_str(marker);
            output.push('\n');
        }
        let module_loc = if index == 0 {
            (0, 0)
        } else {
            line_col(&buffer.text, start)
        };
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        match translate_chunk(&mut ctx, &buffer, (start, end), module_loc, options) {
            Ok(text) => output.push_str(&text),
            Err(Failure::Diagnostics(diags)) => {
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
                            let rendered =
                                diagnostics::render(&ctx, diag, std::slice::from_ref(&buffer));
                            let _ = stderr.write_all(rendered.as_bytes());
                        }
                    }
                }
            }
            Err(Failure::Other(message)) => {
                // Not located (LLVM itself): never an expected diagnostic.
                all_ok = false;
                // Messages already located (`file:line:col: error: ...`) as
                // they are; the others under the input's name.
                if message.contains(": error: ") {
                    let _ = writeln!(stderr, "{message}");
                } else {
                    let _ = writeln!(stderr, "{}: error: {message}", buffer.name);
                }
                if expected.is_some() {
                    failures.push(VerifyFailure {
                        file: buffer.name.clone(),
                        line: 0,
                        col: 0,
                        message,
                    });
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
    if options.verify_diagnostics {
        // As mlir-translate: the translations are not printed when checking
        // diagnostics.
        return Ok(success);
    }
    if success {
        write_output(options.output.as_deref(), &output)?;
    } else if let Some(path) = options.output.as_deref().filter(|p| *p != "-") {
        // A failed run leaves no output file behind (as mlir-translate).
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(success)
}

/// Why one chunk did not translate.
enum Failure {
    /// Located diagnostics (parser, verifier, an op the host cannot compile).
    Diagnostics(Vec<Diagnostic>),
    /// An error without a location (LLVM itself).
    Other(String),
}

/// Parse, verify and translate one chunk to LLVM IR.
fn translate_chunk(
    ctx: &mut Context,
    buffer: &SourceBuffer,
    range: (usize, usize),
    module_loc: (u32, u32),
    options: &Options,
) -> Result<String, Failure> {
    let module = parse_source_range(ctx, buffer, ParseOptions { range, module_loc })
        .map_err(Failure::Diagnostics)?;
    if let Some(t) = &options.target {
        set_target(ctx, module, t)?;
    }
    verifier::verify(ctx, module).map_err(Failure::Diagnostics)?;
    if options.tosa {
        return export_tosa(ctx, module, &buffer.name);
    }
    let gpu = strata_lowering::nvptx_to_llvm::gpu_module(ctx, module);
    if options.ptx || ctx.op_attr(gpu, "nvptx.target").is_some() {
        return translate_gpu(ctx, module, options);
    }
    kernel_to_host::translate_to_llvm_ir(ctx, module, options.optimize).map_err(|e| match e {
        HostError::Unsupported(d) => Failure::Diagnostics(vec![d]),
        other => Failure::Other(other.to_string()),
    })
}

/// `--export=tosa`: the graph module as TOSA, its shapes inferred and its
/// constants folded first (TOSA's ops take static shapes and constant
/// axes).
#[cfg(feature = "mlir")]
fn export_tosa(
    ctx: &mut Context,
    module: strata_ir::Operation,
    name: &str,
) -> Result<String, Failure> {
    let mut registry = strata_ir::pass::PassRegistry::default();
    strata_passes::register_all(&mut registry);
    let pipeline = "builtin.module(graph-infer-shapes,canonicalize,graph-fold-constants,dce,graph-infer-shapes)";
    let mut pm = strata_ir::pass::OpPassManager::parse(&registry, pipeline)
        .map_err(|e| Failure::Other(e.render(pipeline)))?;
    let mut instrumentation = strata_ir::pass::Instrumentation::default();
    pm.run(ctx, module, &mut instrumentation)
        .map_err(Failure::Diagnostics)?;
    strata_mlir::export::export(ctx, module, name).map_err(|e| Failure::Other(e.to_string()))
}

#[cfg(not(feature = "mlir"))]
fn export_tosa(_: &mut Context, _: strata_ir::Operation, name: &str) -> Result<String, Failure> {
    Err(Failure::Other(format!(
        "{name}: error: --export=tosa needs upstream MLIR: this strata-translate was built without the `mlir` feature"
    )))
}

/// Gives `module` the GPU `target` (`--target`): written when it has none,
/// an error when it has another.
fn set_target(
    ctx: &mut Context,
    module: strata_ir::Operation,
    target: &str,
) -> Result<(), Failure> {
    if let Some(a) = ctx.op_attr(module, "nvptx.target") {
        let current = match ctx.attr_kind(a) {
            strata_ir::AttrKind::String { value, .. } => {
                String::from_utf8_lossy(value).into_owned()
            }
            _ => String::new(),
        };
        if current != target {
            return Err(Failure::Diagnostics(vec![Diagnostic::op_error(
                ctx,
                module,
                format!("targets '{current}', not '{target}' (--target)"),
            )]));
        }
        return Ok(());
    }
    let attr = ctx.string_attr(target);
    ctx.set_op_attr(module, "nvptx.target", attr);
    Ok(())
}

/// The LLVM IR (for NVPTX) or the PTX of an nvptx module.
fn translate_gpu(
    ctx: &Context,
    module: strata_ir::Operation,
    options: &Options,
) -> Result<String, Failure> {
    use strata_lowering::nvptx_to_llvm::{self as gpu, GpuError};
    let fail = |e: GpuError| match e {
        GpuError::Unsupported(d) => Failure::Diagnostics(vec![d]),
        other => Failure::Other(other.to_string()),
    };
    if options.ptx {
        return gpu::to_ptx(ctx, module).map(|(ptx, _)| ptx).map_err(fail);
    }
    gpu::to_llvm_ir(ctx, module, options.optimize).map_err(fail)
}

/// Write `text` to `path` (standard output for none or `-`).
fn write_output(path: Option<&str>, text: &str) -> Result<(), String> {
    match path {
        None | Some("-") => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(format!(
                    "strata-translate: cannot write to standard output: {e}"
                )),
            }
        }
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("strata-translate: cannot write output file '{path}': {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        match parse_args(args.iter().map(|s| s.to_string()))? {
            Action::Run(o) => Ok(o),
            _ => Err("not a run".into()),
        }
    }

    #[test]
    fn flags_in_llvm_style() {
        let o = parse(&["-O3", "--emit=llvm-ir", "-o", "out.ll", "in.mlir"]).expect("parses");
        assert!(o.optimize);
        assert_eq!(o.output.as_deref(), Some("out.ll"));
        assert_eq!(o.input.as_deref(), Some("in.mlir"));
        let o = parse(&["--optimize", "--o=x.ll", "-"]).expect("parses");
        assert!(o.optimize);
        assert_eq!(o.output.as_deref(), Some("x.ll"));
        assert_eq!(o.input.as_deref(), Some("-"));
        let o = parse(&["--split-input-file", "--verify-diagnostics"]).expect("parses");
        assert_eq!(o.split_marker.as_deref(), Some(SPLIT_MARKER));
        assert!(o.verify_diagnostics);
    }

    #[test]
    fn bad_flags_are_errors() {
        for (args, message) in [
            (&["--emit=cubin"][..], "unknown output format"),
            (&["--target=sm_75"][..], "unknown GPU"),
            (&["--emit"][..], "needs a value"),
            (&["-o"][..], "needs a file name"),
            (&["--bogus"][..], "unknown option '--bogus'"),
            (&["a.mlir", "b.mlir"][..], "too many positional"),
            (&["-O3=1"][..], "takes no value"),
        ] {
            let e = parse(args).expect_err("an error");
            assert!(e.contains(message), "{args:?}: {e}");
        }
    }
}
