//! What happens around each pass: IR dumps (`--mlir-print-ir-*`), verification
//! after each pass, wall-clock timing (`--mlir-timing`), Chrome trace events
//! (`--trace`).

use std::io::Write;
use std::time::{Duration, Instant};

use super::pipeline::{print_reproducer_pipeline, PipelineElement};
use super::{Pass, Statistics};
use crate::context::{Context, Operation};
use crate::diagnostics::Diagnostic;
use crate::printer::{print_operation, PrintOptions};

/// One pass execution, for a Chrome trace (`chrome://tracing`, Perfetto).
#[derive(Clone, Debug)]
pub struct TraceEvent {
    /// The pass (or pipeline) name.
    pub name: String,
    /// The operation it ran on, e.g. `builtin.module` or `test.func @f`.
    pub op: String,
    /// Start, in microseconds since the first event's origin.
    pub start_us: u64,
    /// Duration in microseconds.
    pub duration_us: u64,
}

/// A node of the timing tree.
#[derive(Clone, Debug)]
struct TimingNode {
    /// The pass or nested pipeline timed (its address while the pass manager
    /// runs); `None` for the tool's phases.
    key: Option<usize>,
    label: String,
    depth: usize,
    total: Duration,
}

/// Settings and collected data of a pass-manager run.
pub struct Instrumentation {
    /// Verify the IR after each pass (`--verify-each`, on by default).
    pub verify_each: bool,
    /// Dump the IR before these passes (`--mlir-print-ir-before=`).
    pub print_before: Vec<String>,
    /// Dump the IR after these passes (`--mlir-print-ir-after=`).
    pub print_after: Vec<String>,
    /// Dump before every pass.
    pub print_before_all: bool,
    /// Dump after every pass.
    pub print_after_all: bool,
    /// Dump after a pass only when it changed the IR.
    pub print_after_change: bool,
    /// Dump after a pass that failed.
    pub print_after_failure: bool,
    /// Before each pass, keep the IR and a one-pass pipeline for a local
    /// crash reproducer (`--mlir-pass-pipeline-local-reproducer`).
    pub local_reproducer: bool,
    /// Dump the whole top-level operation rather than the one the pass ran
    /// on (`--mlir-print-ir-module-scope`); the header then names that op.
    pub print_module_scope: bool,
    /// The form of the dumps.
    pub print_options: PrintOptions,
    /// Collect wall-clock times (`--mlir-timing`).
    pub timing: bool,
    /// Collect trace events (`--trace=FILE`).
    pub trace: bool,
    /// Where the IR dumps go (standard error by default).
    pub dump_sink: Box<dyn Write>,
    origin: Instant,
    timings: Vec<TimingNode>,
    events: Vec<TraceEvent>,
    failure_dump: Option<String>,
    running: Option<String>,
    local_snapshot: Option<(String, String)>,
}

impl Default for Instrumentation {
    fn default() -> Self {
        Instrumentation {
            verify_each: true,
            print_before: Vec::new(),
            print_after: Vec::new(),
            print_before_all: false,
            print_after_all: false,
            print_after_change: false,
            print_after_failure: false,
            print_module_scope: false,
            local_reproducer: false,
            print_options: PrintOptions::default(),
            timing: false,
            trace: false,
            dump_sink: Box::new(std::io::stderr()),
            origin: Instant::now(),
            timings: Vec::new(),
            events: Vec::new(),
            failure_dump: None,
            running: None,
            local_snapshot: None,
        }
    }
}

/// A started timing scope (a nested pipeline).
pub(crate) struct Scope {
    index: usize,
    start: Instant,
}

impl Instrumentation {
    fn wants_before(&self, pass: &dyn Pass) -> bool {
        self.print_before_all || self.print_before.iter().any(|n| n == pass.name())
    }

    /// `--mlir-print-ir-after-change` only narrows the other "after" flags
    /// (to passes that changed the IR), as in MLIR.
    fn wants_after(&self, pass: &dyn Pass) -> bool {
        self.print_after_all || self.print_after.iter().any(|n| n == pass.name())
    }

    fn dump(&mut self, ctx: &Context, op: Operation, when: &str, pass: &dyn Pass) {
        let text = self.dump_text(ctx, op, when, pass);
        let _ = self.dump_sink.write_all(text.as_bytes());
    }

    /// After a failure the dump is kept until the failure's diagnostics have
    /// been reported (mlir-opt prints them first).
    fn dump_failure(&mut self, ctx: &Context, op: Operation, pass: &dyn Pass) {
        let text = self.dump_text(
            ctx,
            op,
            &format!("After {} Failed", pass.display_name()),
            pass,
        );
        self.failure_dump = Some(text);
    }

    /// The IR dump of a failed pass (`--mlir-print-ir-after-failure`), to be
    /// written after its diagnostics.
    pub fn take_failure_dump(&mut self) -> Option<String> {
        self.failure_dump.take()
    }

    fn dump_text(&self, ctx: &Context, op: Operation, when: &str, pass: &dyn Pass) -> String {
        let (text, scope) = if self.print_module_scope {
            let mut top = op;
            while let Some(parent) = ctx.op_parent_op(top) {
                top = parent;
            }
            let scope = format!(" ({})", describe_op(ctx, op));
            (print_operation(ctx, top, self.print_options), scope)
        } else {
            (print_operation(ctx, op, self.print_options), String::new())
        };
        // "After Failed" dumps name the pass inside `when`.
        let title = if when.ends_with("Failed") {
            when.to_string()
        } else {
            format!("{when} {}", pass.display_name())
        };
        format!(
            "// -----// IR Dump {title} ({}){scope} //----- //\n{text}\n\n",
            pass.name()
        )
    }

    /// Run one pass on `op` with everything around it.
    pub(crate) fn run_pass(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        pass: &mut dyn Pass,
        statistics: &mut Statistics,
        key: usize,
        depth: usize,
    ) -> Result<(), Vec<Diagnostic>> {
        if self.wants_before(pass) {
            self.dump(ctx, op, "Before", pass);
        }
        let before_text = (self.print_after_change && self.wants_after(pass))
            .then(|| print_operation(ctx, op, self.print_options));
        if self.local_reproducer {
            self.local_snapshot = Some(local_snapshot(ctx, op, pass));
        }
        // Kept on failure (or a panic) for the crash reproducer's note.
        self.running = Some(format!(
            "`{}` on {}",
            pass.display_name(),
            describe_op(ctx, op)
        ));
        let start = Instant::now();
        let result = pass.run(ctx, op, statistics);
        let elapsed = start.elapsed();
        self.record(key, pass.display_name(), ctx, op, start, elapsed, depth);
        if let Err(diag) = result {
            if self.print_after_failure {
                self.dump_failure(ctx, op, pass);
            }
            return Err(vec![diag]);
        }
        if self.wants_after(pass) {
            let changed = match &before_text {
                Some(before) => *before != print_operation(ctx, op, self.print_options),
                None => true,
            };
            if changed || !self.print_after_change {
                self.dump(ctx, op, "After", pass);
            }
        }
        if self.verify_each {
            if let Err(mut diags) = crate::verifier::verify(ctx, op) {
                let name = pass.name();
                for diag in &mut diags {
                    diag.notes.push(Diagnostic {
                        severity: crate::diagnostics::Severity::Note,
                        loc: ctx.op_loc(op),
                        message: format!("the IR is invalid after running pass '{name}'"),
                        notes: Vec::new(),
                        op: None,
                    });
                }
                if self.print_after_failure {
                    self.dump_failure(ctx, op, pass);
                }
                return Err(diags);
            }
        }
        self.running = None;
        Ok(())
    }

    pub(crate) fn clear_failed_pass(&mut self) {
        self.running = None;
    }

    /// For a local crash reproducer: the IR (whole top-level op) just before
    /// the pass that failed, and a pipeline that runs only that pass on the
    /// op it failed on. `None` when no pass failed or the option is off.
    pub fn local_reproducer_snapshot(&self) -> Option<(&str, &str)> {
        self.running.as_ref()?;
        self.local_snapshot
            .as_ref()
            .map(|(ir, pipeline)| (ir.as_str(), pipeline.as_str()))
    }

    /// The pass that failed (or panicked) in the last run, as MLIR's crash
    /// reproducer names it: ``[`CSE` on 'func.func' operation: @f]``.
    pub fn failed_pass(&self) -> Option<String> {
        self.running.as_ref().map(|p| format!("[{p}]"))
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        key: usize,
        name: &str,
        ctx: &Context,
        op: Operation,
        start: Instant,
        elapsed: Duration,
        depth: usize,
    ) {
        if self.timing {
            self.add_time(key, name, depth, elapsed);
        }
        if self.trace {
            let op_name = match ctx.symbol_name(op) {
                Some(sym) => format!("{} @{}", ctx.op_name_str(op), String::from_utf8_lossy(sym)),
                None => ctx.op_name_str(op).to_string(),
            };
            self.events.push(TraceEvent {
                name: name.to_string(),
                op: op_name,
                start_us: start.duration_since(self.origin).as_micros() as u64,
                duration_us: elapsed.as_micros() as u64,
            });
        }
    }

    /// Add `elapsed` to the node of the pass or pipeline `key`. Runs of one
    /// pass instance (once per nested op) add up in one node; two instances
    /// of the same pass get a node each, as in MLIR's report.
    fn add_time(&mut self, key: usize, label: &str, depth: usize, elapsed: Duration) -> usize {
        match self.timings.iter().rposition(|n| n.key == Some(key)) {
            Some(index) => {
                self.timings[index].total += elapsed;
                index
            }
            None => {
                self.timings.push(TimingNode {
                    key: Some(key),
                    label: label.to_string(),
                    depth,
                    total: elapsed,
                });
                self.timings.len() - 1
            }
        }
    }

    /// Start timing the nested pipeline `key`.
    pub(crate) fn begin_scope(&mut self, key: usize, label: &str, depth: usize) -> Scope {
        let index = if self.timing {
            self.add_time(key, label, depth, Duration::ZERO)
        } else {
            0
        };
        Scope {
            index,
            start: Instant::now(),
        }
    }

    pub(crate) fn end_scope(&mut self, scope: Scope) {
        if self.timing {
            if let Some(node) = self.timings.get_mut(scope.index) {
                node.total += scope.start.elapsed();
            }
        }
    }

    /// Add a top-level phase of the tool (parsing, output) to the timing report.
    pub fn add_phase(&mut self, label: &str, elapsed: Duration) {
        if self.timing {
            self.timings.push(TimingNode {
                key: None,
                label: label.to_string(),
                depth: 0,
                total: elapsed,
            });
        }
    }

    /// Put a phase of the tool (e.g. parsing) first in the timing report.
    pub fn prepend_phase(&mut self, label: &str, elapsed: Duration) {
        if self.timing {
            self.timings.insert(
                0,
                TimingNode {
                    key: None,
                    label: label.to_string(),
                    depth: 0,
                    total: elapsed,
                },
            );
        }
    }

    /// MLIR's "Execution time report": one line per pass and pipeline.
    pub fn timing_report(&self, total: Duration) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let rule =
            "===-------------------------------------------------------------------------===";
        let _ = writeln!(out, "{rule}");
        let _ = writeln!(
            out,
            "                         ... Execution time report ..."
        );
        let _ = writeln!(out, "{rule}");
        let total_s = total.as_secs_f64();
        let _ = writeln!(out, "  Total Execution Time: {total_s:.4} seconds\n");
        let _ = writeln!(out, "  ----Wall Time----  ----Name----");
        let percent = |d: Duration| {
            if total_s > 0.0 {
                100.0 * d.as_secs_f64() / total_s
            } else {
                0.0
            }
        };
        for node in &self.timings {
            let _ = writeln!(
                out,
                "  {:>8.4} ({:>5.1}%)  {}{}",
                node.total.as_secs_f64(),
                percent(node.total),
                "  ".repeat(node.depth),
                node.label
            );
        }
        // What no line accounts for (setup, verification, writing), as mlir-opt's "Rest".
        let accounted: Duration = self
            .timings
            .iter()
            .filter(|n| n.depth == 0)
            .map(|n| n.total)
            .sum();
        let rest = total.saturating_sub(accounted);
        let _ = writeln!(
            out,
            "  {:>8.4} ({:>5.1}%)  Rest",
            rest.as_secs_f64(),
            percent(rest)
        );
        let _ = writeln!(out, "  {total_s:>8.4} (100.0%)  Total");
        out
    }

    /// The trace events collected so far.
    pub fn events(&self) -> &[TraceEvent] {
        &self.events
    }

    /// The trace as Chrome trace-event JSON.
    pub fn trace_json(&self) -> String {
        use std::fmt::Write;
        let mut out = String::from("{\"traceEvents\":[\n");
        for (i, e) in self.events.iter().enumerate() {
            let _ = write!(
                out,
                "{{\"name\":{},\"cat\":\"pass\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":1,\"tid\":1,\"args\":{{\"op\":{}}}}}{}",
                json_string(&e.name),
                e.start_us,
                e.duration_us,
                json_string(&e.op),
                if i + 1 < self.events.len() { ",\n" } else { "\n" }
            );
        }
        out.push_str("],\"displayTimeUnit\":\"ms\"}\n");
        out
    }
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// MLIR's "Pass statistics report" for a pass manager.
pub fn statistics_report(pm: &super::OpPassManager) -> String {
    use std::fmt::Write;
    let rule = "===-------------------------------------------------------------------------===";
    let mut out =
        format!("{rule}\n                         ... Pass statistics report ...\n{rule}\n");
    for (label, depth, stats) in pm.statistics() {
        let _ = writeln!(out, "{}{label}", "  ".repeat(depth));
        for (name, description, value) in stats {
            let _ = writeln!(
                out,
                "{}(S) {value} {name} - {description}",
                "  ".repeat(depth + 1)
            );
        }
    }
    out
}

/// `'test.func' operation: @f` (or without the symbol), as MLIR names the op
/// a pass ran on in IR dump headers and reproducer notes.
fn describe_op(ctx: &Context, op: Operation) -> String {
    match ctx.symbol_name(op) {
        Some(sym) => format!(
            "'{}' operation: @{}",
            ctx.op_name_str(op),
            String::from_utf8_lossy(sym)
        ),
        None => format!("'{}' operation", ctx.op_name_str(op)),
    }
}

/// The top-level op's IR (generic, with locations) and the pipeline that runs
/// `pass` alone on `op`, nested through `op`'s ancestors.
fn local_snapshot(ctx: &Context, op: Operation, pass: &dyn Pass) -> (String, String) {
    let mut chain = vec![op];
    while let Some(parent) = ctx.op_parent_op(chain[chain.len() - 1]) {
        chain.push(parent);
    }
    let top = chain[chain.len() - 1];
    let ir = print_operation(
        ctx,
        top,
        PrintOptions {
            generic: true,
            debug_info: true,
        },
    );
    let mut element = PipelineElement::Pass {
        name: pass.name().to_string(),
        options: Some(pass.render_options()).filter(|o| !o.is_empty()),
        offset: 0,
    };
    // Wrap in every ancestor below the top, innermost first.
    for &anchor in chain[..chain.len() - 1].iter() {
        element = PipelineElement::Nested {
            anchor: ctx.op_name_str(anchor).to_string(),
            elements: vec![element],
            offset: 0,
        };
    }
    let pipeline = print_reproducer_pipeline(ctx.op_name_str(top), &[element]);
    (ir, pipeline)
}
