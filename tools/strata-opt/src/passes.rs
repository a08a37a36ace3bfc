//! The pass pipeline of a `strata-opt` run: built from `--pass-pipeline`,
//! from pass flags or from a reproducer, run on each chunk with the
//! instrumentation the flags ask for, and reported at the end.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use strata_ir::pass::pipeline::PipelineElement;
use strata_ir::pass::{statistics_report, Bisect, Instrumentation, OpPassManager, PassRegistry};
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::{Context, Diagnostic, Operation, ResourceValue};

use crate::cli::Options;

/// The pipeline and its instrumentation for the whole run.
pub(crate) struct Passes {
    pm: Option<OpPassManager>,
    pub(crate) instrumentation: Instrumentation,
    start: Instant,
    /// Time spent printing the output (for the timing report).
    pub(crate) output_time: std::time::Duration,
}

impl Passes {
    /// Build from the command line (`--run-reproducer` pipelines are built per chunk).
    pub(crate) fn new(options: &Options, registry: &PassRegistry) -> Result<Passes, String> {
        let pm = if let Some(text) = &options.pass_pipeline {
            Some(parse_pipeline(registry, text)?)
        } else if !options.pass_flags.is_empty() {
            let mut pm = OpPassManager::new("builtin.module");
            let elements: Vec<PipelineElement> = options
                .pass_flags
                .iter()
                .map(|(name, opts)| PipelineElement::Pass {
                    name: name.clone(),
                    options: opts.clone(),
                    offset: 0,
                })
                .collect();
            pm.add_elements(registry, &elements).map_err(|e| {
                format!(
                    "<unknown>:0: error: {}",
                    e.render(name_list(options).as_str())
                )
            })?;
            Some(pm)
        } else {
            None
        };
        let mut instrumentation = Instrumentation::default();
        instrumentation.verify_each = options.verify_each.unwrap_or(true);
        instrumentation.print_before = options.print_ir_before.clone();
        instrumentation.print_after = options.print_ir_after.clone();
        instrumentation.print_before_all = options.print_ir_before_all;
        instrumentation.print_after_all = options.print_ir_after_all;
        instrumentation.print_after_change = options.print_ir_after_change;
        instrumentation.print_after_failure = options.print_ir_after_failure;
        instrumentation.print_module_scope = options.print_ir_module_scope;
        instrumentation.local_reproducer =
            options.local_reproducer && options.crash_reproducer.is_some();
        instrumentation.print_options = options.print;
        instrumentation.timing = options.timing;
        instrumentation.trace = options.trace.is_some();
        let passes = Passes {
            pm,
            instrumentation,
            start: Instant::now(),
            output_time: std::time::Duration::ZERO,
        };
        if options.dump_pass_pipeline {
            if let Some(pm) = &passes.pm {
                eprint!(
                    "Pass Manager with {} passes:\n{}\n\n",
                    pm.len(),
                    pm.to_pretty_text()
                );
            }
        }
        Ok(passes)
    }

    /// Run the pipeline (if any) on `module`.
    pub(crate) fn run(
        &mut self,
        ctx: &mut Context,
        module: Operation,
        options: &Options,
        registry: &PassRegistry,
    ) -> Result<(), Vec<Diagnostic>> {
        let mut reproducer_pm;
        let pm = if options.run_reproducer {
            let text = reproducer_pipeline(ctx).ok_or_else(|| {
                vec![Diagnostic::error(
                    ctx.op_loc(module),
                    "no reproducer pipeline found: the input has no `external_resources: { mlir_reproducer: { pipeline: ... } }` entry",
                )]
            })?;
            reproducer_pm = parse_pipeline(registry, &text)
                .map_err(|e| vec![Diagnostic::error(ctx.op_loc(module), e)])?;
            &mut reproducer_pm
        } else {
            match self.pm.as_mut() {
                Some(pm) => pm,
                None => return Ok(()),
            }
        };
        let before = options.crash_reproducer.as_ref().map(|_| {
            print_operation(
                ctx,
                module,
                PrintOptions {
                    generic: true,
                    debug_info: true,
                },
            )
        });
        if let Some(limit) = options.bisect_limit {
            ctx.set_bisect(Some(Bisect::new(limit).echo(true)));
        }
        let instrumentation = &mut self.instrumentation;
        let outcome = catch_unwind(AssertUnwindSafe(|| pm.run(ctx, module, instrumentation)));
        ctx.set_bisect(None);
        let failure = match outcome {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(diags)) => diags,
            Err(_) => vec![Diagnostic::error(
                ctx.op_loc(module),
                "a pass crashed (panicked) while running the pipeline",
            )],
        };
        let (Some(path), Some(before)) = (&options.crash_reproducer, before) else {
            return Err(failure);
        };
        let (before, pipeline) = match self.instrumentation.local_reproducer_snapshot() {
            Some((ir, pipeline)) => (ir.to_string(), pipeline.to_string()),
            None => (before, pm.to_reproducer_text()),
        };
        let verify_each = self.instrumentation.verify_each;
        let text = format!(
            "{before}\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n      pipeline: \"{}\",\n      disable_threading: true,\n      verify_each: {verify_each}\n    }}\n  }}\n#-}}\n",
            pipeline.replace('\\', "\\\\").replace('"', "\\22")
        );
        let mut diags = failure;
        // mlir-opt brackets the failing pass only in a full reproducer's note.
        let local = self.instrumentation.local_reproducer_snapshot().is_some();
        let what = match self.instrumentation.failed_pass() {
            Some(pass) if local => pass
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_string(),
            Some(pass) => pass,
            None => format!("`{pipeline}`"),
        };
        let note = match std::fs::write(path, text) {
            Ok(()) => {
                format!("Pipeline failed while executing {what}: reproducer generated at `{path}`")
            }
            Err(e) => format!("could not write the reproducer to `{path}`: {e}"),
        };
        let loc = ctx.op_loc(module);
        diags.push(
            Diagnostic::error(
                loc,
                "Failures have been detected while processing an MLIR pass pipeline",
            )
            .with_note(loc, note),
        );
        Err(diags)
    }

    /// Print the statistics and timing reports and write the trace.
    pub(crate) fn finish(
        &mut self,
        options: &Options,
        parse_time: std::time::Duration,
    ) -> Result<(), String> {
        if options.pass_statistics {
            if let Some(pm) = &self.pm {
                eprint!("{}", statistics_report(pm));
            }
        }
        if options.timing {
            self.instrumentation.prepend_phase("Parser", parse_time);
            self.instrumentation.add_phase("Output", self.output_time);
            eprint!(
                "{}",
                self.instrumentation.timing_report(self.start.elapsed())
            );
        }
        if let Some(path) = &options.trace {
            std::fs::write(path, self.instrumentation.trace_json())
                .map_err(|e| format!("strata-opt: cannot write trace file '{path}': {e}"))?;
        }
        Ok(())
    }
}

fn parse_pipeline(registry: &PassRegistry, text: &str) -> Result<OpPassManager, String> {
    OpPassManager::parse(registry, text)
        .map_err(|e| format!("<unknown>:0: error: {}", e.render(text)))
}

fn name_list(options: &Options) -> String {
    options
        .pass_flags
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// The pipeline recorded by `--mlir-pass-pipeline-crash-reproducer`.
fn reproducer_pipeline(ctx: &Context) -> Option<String> {
    let (_, entries) = ctx
        .external_resources()
        .iter()
        .find(|(group, _)| group == "mlir_reproducer")?;
    entries
        .iter()
        .find_map(|(key, value)| match (key.as_str(), value) {
            ("pipeline", ResourceValue::String(text)) => {
                Some(String::from_utf8_lossy(text).into_owned())
            }
            _ => None,
        })
}
