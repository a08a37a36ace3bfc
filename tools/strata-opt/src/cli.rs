//! Command-line options, with LLVM's conventions: `-flag` and `--flag` are
//! the same, values come as `--flag=value` (or `-o value`), and every
//! registered pass is also a flag (`--cse`, `--canonicalize=max-iterations=3`).

use strata_ir::pass::PassRegistry;
use strata_ir::printer::PrintOptions;

pub(crate) const SPLIT_MARKER: &str = "// -----";

pub(crate) const HELP: &str = "OVERVIEW: strata modular optimizer driver

USAGE: strata-opt [options] <input file>

OPTIONS:
  -o <filename>                     Output filename (default: stdout)
  --allow-unregistered-dialect      Allow operations of dialects that are not registered
  --mlir-print-op-generic           Print every operation in the generic form
  --mlir-print-debuginfo            Print locations (as #loc aliases)
  --split-input-file[=<marker>]     Split the input on '// -----' and process each chunk
                                    independently; join the output with the same marker
  --output-split-marker=<marker>    Marker used to join split output (default: '// -----')
  --verify-diagnostics              Check that emitted diagnostics match the
                                    expected-* comments in the input
  --show-dialects                   Print the registered dialects and exit
  --list-dialects                   Print the registered dialects, one per line, and exit
  --list-ops                        Print every registered operation with its summary and exit

Passes:
  --pass-pipeline=<pipeline>        A textual pipeline, e.g. 'builtin.module(func.func(cse),canonicalize)'
  --recipe=<file>                   Run the pipeline of a recipe (TOML or JSON; docs/recipes.md)
  --upstream-pass-pipeline=<pipeline>
                                    Then run this pipeline of upstream MLIR's passes
                                    (through melior) on a module of the dialects
                                    strata shares with MLIR (builtin, func, arith,
                                    math, scf), e.g. 'builtin.module(canonicalize,cse)'
  --<pass>[=<options>]              Add a pass (see --list-passes) to the module pipeline
  --list-passes                     Print the registered passes and their options and exit
  --dump-pass-pipeline              Print the pipeline to stderr before running it
  --verify-each[=<bool>]            Verify the IR after each pass (default: true)
  --mlir-print-ir-before=<passes>   Print the IR before these passes (comma separated)
  --mlir-print-ir-after=<passes>    Print the IR after these passes
  --mlir-print-ir-before-all        Print the IR before every pass
  --mlir-print-ir-after-all         Print the IR after every pass
  --mlir-print-ir-after-change      Print the IR after a pass only when it changed it
  --mlir-print-ir-after-failure     Print the IR after a pass that failed
  --mlir-print-ir-module-scope      Print the whole top-level op in the IR dumps
  --mlir-disable-threading          Accepted for mlir-opt compatibility (passes run on one thread)
  --pass-bisect-limit=<N>           Number every optional step (a pass run, a pattern application),
                                    print it, and skip the steps after the N-th (-1: skip none)
  --mlir-timing                     Print wall-clock times of the passes
  --mlir-pass-statistics            Print the passes' statistics
  --trace=<file>                    Write a Chrome trace (JSON) of every pass execution
  --mlir-pass-pipeline-crash-reproducer=<file>
                                    When a pass fails or crashes, write the input IR and the
                                    pipeline to <file> (replay with --run-reproducer)
  --mlir-pass-pipeline-local-reproducer
                                    Make the reproducer run only the failing pass, on the IR
                                    as it was just before it
  --run-reproducer                  Run the pipeline recorded in the input's
                                    external_resources (as written by the reproducer)

  --version                         Print the version and exit
  --help                            Print this help and exit

The input file may be '-' (the default) to read standard input.
";

/// Parsed command line.
#[derive(Debug, Default)]
pub(crate) struct Options {
    pub(crate) input: Option<String>,
    pub(crate) output: Option<String>,
    pub(crate) allow_unregistered: bool,
    pub(crate) print: PrintOptions,
    pub(crate) split_marker: Option<String>,
    pub(crate) output_split_marker: Option<String>,
    pub(crate) verify_diagnostics: bool,
    /// `--verify-diagnostics=only-expected`: unexpected diagnostics are ignored.
    pub(crate) verify_only_expected: bool,
    pub(crate) show_dialects: bool,
    pub(crate) list_dialects: bool,
    pub(crate) list_ops: bool,
    pub(crate) list_passes: bool,
    pub(crate) pass_pipeline: Option<String>,
    /// `--upstream-pass-pipeline`: upstream MLIR's passes, run after strata's.
    pub(crate) upstream_pipeline: Option<String>,
    /// `--recipe`: the recipe file whose pipeline runs.
    pub(crate) recipe: Option<String>,
    /// Passes given as flags, with their option text.
    pub(crate) pass_flags: Vec<(String, Option<String>)>,
    pub(crate) dump_pass_pipeline: bool,
    pub(crate) verify_each: Option<bool>,
    pub(crate) print_ir_before: Vec<String>,
    pub(crate) print_ir_after: Vec<String>,
    pub(crate) print_ir_before_all: bool,
    pub(crate) print_ir_after_all: bool,
    pub(crate) print_ir_after_change: bool,
    pub(crate) print_ir_after_failure: bool,
    pub(crate) print_ir_module_scope: bool,
    pub(crate) timing: bool,
    /// `--pass-bisect-limit`: `Some(None)` numbers the steps, skipping none.
    pub(crate) bisect_limit: Option<Option<u64>>,
    pub(crate) pass_statistics: bool,
    pub(crate) trace: Option<String>,
    pub(crate) crash_reproducer: Option<String>,
    pub(crate) local_reproducer: bool,
    pub(crate) run_reproducer: bool,
}

/// A command-line error, reported like LLVM's option parser does.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    #[error("Unknown command line argument '{0}'.  Try: 'strata-opt --help'")]
    Unknown(String),
    #[error("for the {} option: requires a value!", dashed(.0))]
    MissingValue(String),
    #[error("for the {opt} option: '{1}' is invalid value for boolean argument! Try 0 or 1", opt = dashed(.0))]
    InvalidBool(String, String),
    #[error("for the {opt} option: '{1}' value invalid for integer argument!", opt = dashed(.0))]
    InvalidInt(String, String),
    #[error("for the {opt} option: Cannot find option named '{1}'!", opt = dashed(.0))]
    UnknownValue(String, String),
    #[error("Too many positional arguments specified! Can specify at most 1 positional arguments: See: strata-opt --help")]
    TooManyPositional,
    #[error("'--pass-pipeline' option can't be used with individual pass options")]
    PipelineAndPassFlags,
    #[error("'--recipe' option can't be used with '--pass-pipeline' or individual pass options")]
    RecipeAndPipeline,
}

pub(crate) enum Action {
    Run(Box<Options>),
    Help,
    Version,
}

/// An option's name as LLVM's parser prints it: `-o`, `--pass-pipeline`.
fn dashed(name: &str) -> String {
    let dashes = if name.chars().count() == 1 { "-" } else { "--" };
    format!("{dashes}{name}")
}

fn parse_bool(name: &str, value: Option<String>) -> Result<bool, CliError> {
    match value.as_deref() {
        None | Some("true" | "1" | "TRUE" | "True") => Ok(true),
        Some("false" | "0" | "FALSE" | "False") => Ok(false),
        Some(other) => Err(CliError::InvalidBool(name.to_string(), other.to_string())),
    }
}

fn list(value: Option<String>) -> Vec<String> {
    value
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default()
}

pub(crate) fn parse_args(
    args: impl IntoIterator<Item = String>,
    passes: &PassRegistry,
) -> Result<Action, CliError> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "-" || !arg.starts_with('-') {
            if options.input.replace(arg).is_some() {
                return Err(CliError::TooManyPositional);
            }
            continue;
        }
        let body = arg.trim_start_matches('-');
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        // Boolean flags take an optional `=true|false|1|0`, as llvm::cl's.
        let flag =
            |value: &Option<String>| -> Result<bool, CliError> { parse_bool(name, value.clone()) };
        let required = |value: Option<String>| -> Result<String, CliError> {
            value.ok_or_else(|| CliError::MissingValue(name.to_string()))
        };
        match name {
            "help" | "h" => return Ok(Action::Help),
            "version" => return Ok(Action::Version),
            "o" => {
                let value = match value {
                    Some(v) => v,
                    None => args
                        .next()
                        .ok_or_else(|| CliError::MissingValue("o".into()))?,
                };
                options.output = Some(value);
            }
            "allow-unregistered-dialect" => options.allow_unregistered = flag(&value)?,
            "mlir-print-op-generic" => options.print.generic = flag(&value)?,
            "mlir-print-debuginfo" => options.print.debug_info = flag(&value)?,
            "split-input-file" => {
                options.split_marker = Some(value.unwrap_or_else(|| SPLIT_MARKER.to_string()));
            }
            "output-split-marker" => options.output_split_marker = Some(required(value)?),
            "verify-diagnostics" => {
                // MLIR 22's levels: `all` (the default) and `only-expected`.
                options.verify_only_expected = match value.as_deref() {
                    None | Some("all") => false,
                    Some("only-expected") => true,
                    Some(other) => {
                        return Err(CliError::UnknownValue(name.to_string(), other.to_string()))
                    }
                };
                options.verify_diagnostics = true;
            }
            "show-dialects" => options.show_dialects = flag(&value)?,
            "list-dialects" => options.list_dialects = flag(&value)?,
            "list-ops" => options.list_ops = flag(&value)?,
            "list-passes" => options.list_passes = flag(&value)?,
            "pass-pipeline" => options.pass_pipeline = Some(required(value)?),
            "upstream-pass-pipeline" => options.upstream_pipeline = Some(required(value)?),
            "recipe" => {
                let value = match value {
                    Some(v) => v,
                    None => args
                        .next()
                        .ok_or_else(|| CliError::MissingValue("recipe".into()))?,
                };
                options.recipe = Some(value);
            }
            "dump-pass-pipeline" => options.dump_pass_pipeline = flag(&value)?,
            "verify-each" => options.verify_each = Some(parse_bool(name, value)?),
            "mlir-print-ir-before" => options.print_ir_before.extend(list(Some(required(value)?))),
            "mlir-print-ir-after" => options.print_ir_after.extend(list(Some(required(value)?))),
            "mlir-print-ir-before-all" => options.print_ir_before_all = flag(&value)?,
            "mlir-print-ir-after-all" => options.print_ir_after_all = flag(&value)?,
            "mlir-print-ir-after-change" => options.print_ir_after_change = flag(&value)?,
            "mlir-print-ir-after-failure" => options.print_ir_after_failure = flag(&value)?,
            "mlir-print-ir-module-scope" => options.print_ir_module_scope = flag(&value)?,
            // Passes always run on one thread; the flag is checked and accepted.
            "mlir-disable-threading" => {
                flag(&value)?;
            }
            "mlir-timing" => options.timing = flag(&value)?,
            "pass-bisect-limit" => {
                let text = required(value)?;
                let n: i64 = text
                    .trim()
                    .parse()
                    .map_err(|_| CliError::InvalidInt(name.to_string(), text.clone()))?;
                options.bisect_limit = Some(u64::try_from(n).ok());
            }
            "mlir-pass-statistics" => options.pass_statistics = flag(&value)?,
            "trace" => options.trace = Some(required(value)?),
            "mlir-pass-pipeline-local-reproducer" => options.local_reproducer = flag(&value)?,
            "mlir-pass-pipeline-crash-reproducer" => {
                options.crash_reproducer = Some(required(value)?);
            }
            "run-reproducer" => options.run_reproducer = flag(&value)?,
            _ if passes.get(name).is_some() => {
                let value = value.map(|v| unquote(&v).to_string());
                options.pass_flags.push((name.to_string(), value));
            }
            _ => return Err(CliError::Unknown(arg)),
        }
    }
    if options.pass_pipeline.is_some() && !options.pass_flags.is_empty() {
        return Err(CliError::PipelineAndPassFlags);
    }
    if options.recipe.is_some()
        && (options.pass_pipeline.is_some() || !options.pass_flags.is_empty())
    {
        return Err(CliError::RecipeAndPipeline);
    }
    Ok(Action::Run(Box::new(options)))
}

fn unquote(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> PassRegistry {
        let mut registry = PassRegistry::default();
        strata_passes::register_all(&mut registry);
        registry
    }

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn run(list: &[&str]) -> Options {
        match parse_args(args(list), &registry()) {
            Ok(Action::Run(options)) => *options,
            _ => panic!("expected options for {list:?}"),
        }
    }

    #[test]
    fn single_and_double_dash_flags_are_the_same() {
        for dash in ["-", "--"] {
            let o = run(&[&format!("{dash}mlir-print-op-generic"), "in.mlir"]);
            assert!(o.print.generic);
            assert_eq!(o.input.as_deref(), Some("in.mlir"));
        }
    }

    #[test]
    fn output_flag_takes_a_value_both_ways() {
        assert_eq!(run(&["-o", "out.mlir"]).output.as_deref(), Some("out.mlir"));
        assert_eq!(run(&["-o=x"]).output.as_deref(), Some("x"));
        assert!(matches!(
            parse_args(args(&["-o"]), &registry()),
            Err(CliError::MissingValue(_))
        ));
    }

    #[test]
    fn unknown_flags_and_extra_inputs_are_errors() {
        assert!(matches!(
            parse_args(args(&["--bogus"]), &registry()),
            Err(CliError::Unknown(_))
        ));
        assert!(matches!(
            parse_args(args(&["a", "b"]), &registry()),
            Err(CliError::TooManyPositional)
        ));
    }

    #[test]
    fn passes_are_flags() {
        let o = run(&["--cse", "-symbol-dce", "--verify-each=false"]);
        let names: Vec<&str> = o.pass_flags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["cse", "symbol-dce"]);
        assert_eq!(o.verify_each, Some(false));
        assert!(matches!(
            parse_args(
                args(&["--cse", "--pass-pipeline=builtin.module(cse)"]),
                &registry()
            ),
            Err(CliError::PipelineAndPassFlags)
        ));
    }
}
