//! `--pass-bisect-limit=N`: every optional step of a pipeline numbered, and
//! the steps after the N-th skipped, in the spirit of LLVM's
//! `-opt-bisect-limit` and MLIR's debug counters.
//!
//! A step is one run of a pass on one operation, or one successful pattern
//! application of the greedy driver (or of any pass that asks
//! [`Context::bisect_may_apply`] before a rewrite and reports it with
//! [`Context::bisect_applied`]). Required passes (`#[pass(required =
//! true)]`: the conversions of the descent, without which the pipeline
//! cannot finish) are neither numbered nor skipped, and neither are the
//! patterns they apply. With a limit of N, the first N steps run and the
//! rest are skipped: a pass run past the limit does not run, and no pattern
//! is tried once N applications have happened. Comparing the result of
//! limit N-1 with that of limit N therefore isolates step N, which is how
//! `strata run --check` finds the step that introduced a divergence.
//!
//! The state lives on the [`Context`] ([`Context::set_bisect`]) so that
//! drivers deep inside a pass reach it without a handle through every call.

use crate::context::{Context, Operation};
use crate::printer::{location_to_string, print_operation, PrintOptions};

/// What a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A run of a pass on an operation.
    Pass,
    /// One application of a rewrite pattern.
    Pattern,
}

/// One numbered step, as the bisection saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BisectStep {
    /// Its number, from 1.
    pub number: u64,
    pub kind: StepKind,
    /// The pass's pipeline name, or the pattern's name.
    pub name: String,
    /// The pass the step belongs to (the pass itself for a pass step).
    pub pass: String,
    /// The operation it ran on: `graph.softmax`.
    pub op: String,
    /// That operation's location, as `loc(...)` text.
    pub loc: String,
    /// The ordinal (from 1) of the pass run the step happened in, counting
    /// every pass run, required ones too.
    pub pass_run: u64,
    /// Whether it ran (a pass step past the limit is numbered, not run).
    pub ran: bool,
}

impl BisectStep {
    /// The line `--pass-bisect-limit` prints for the step, in LLVM's words:
    /// `BISECT: running pass (3) canonicalize on 'builtin.module'`.
    pub fn line(&self) -> String {
        let verb = if self.ran { "running" } else { "NOT running" };
        match self.kind {
            StepKind::Pass => format!(
                "BISECT: {verb} pass ({}) {} on '{}'",
                self.number, self.name, self.op
            ),
            StepKind::Pattern => format!(
                "BISECT: {verb} pattern ({}) {} on '{}' {} in {}",
                self.number, self.name, self.op, self.loc, self.pass
            ),
        }
    }
}

/// The bisection state of a pipeline run: the limit, the steps seen, and
/// what to capture.
#[derive(Clone, Debug, Default)]
pub struct Bisect {
    limit: Option<u64>,
    count: u64,
    pass_runs: u64,
    /// The required passes being run (nested managers may stack them).
    required_depth: u32,
    /// The passes running now, innermost last (the pass of a pattern
    /// step): name, whether required, pass run.
    current_pass: Vec<(String, bool, u64)>,
    echo: bool,
    record: bool,
    steps: Vec<BisectStep>,
    dump_after_run: Option<u64>,
    dump: Option<String>,
}

impl Bisect {
    /// Steps after the `limit`-th are skipped (`None`: none is, the steps
    /// are only counted).
    pub fn new(limit: Option<u64>) -> Bisect {
        Bisect {
            limit,
            ..Bisect::default()
        }
    }

    /// Print each step's [`BisectStep::line`] on standard error as it
    /// happens (what `--pass-bisect-limit` does).
    pub fn echo(mut self, on: bool) -> Bisect {
        self.echo = on;
        self
    }

    /// Keep every step ([`Bisect::steps`]).
    pub fn record(mut self, on: bool) -> Bisect {
        self.record = on;
        self
    }

    /// Print the top-level operation's IR right after pass run `run` (an
    /// ordinal of [`BisectStep::pass_run`]); [`Bisect::take_dump`] gives it.
    pub fn dump_after_pass_run(mut self, run: u64) -> Bisect {
        self.dump_after_run = Some(run);
        self
    }

    /// The limit.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// How many steps were numbered (run or not).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The steps, when recorded.
    pub fn steps(&self) -> &[BisectStep] {
        &self.steps
    }

    /// The IR captured by [`Bisect::dump_after_pass_run`].
    pub fn take_dump(&mut self) -> Option<String> {
        self.dump.take()
    }

    fn within_limit(&self) -> bool {
        self.limit.is_none_or(|l| self.count < l)
    }

    fn note(&mut self, step: BisectStep) {
        if self.echo {
            eprintln!("{}", step.line());
        }
        if self.record {
            self.steps.push(step);
        }
    }
}

fn describe(ctx: &Context, op: Operation) -> (String, String) {
    (
        ctx.op_name_str(op).to_string(),
        location_to_string(ctx, ctx.op_loc(op)),
    )
}

impl Context {
    /// Number (and limit) the optional steps of the passes run on this
    /// context from now on; `None` stops it.
    pub fn set_bisect(&mut self, bisect: Option<Bisect>) {
        self.bisect = bisect.map(Box::new);
    }

    /// The bisection state, if any.
    pub fn bisect(&self) -> Option<&Bisect> {
        self.bisect.as_deref()
    }

    /// The bisection state, taken off the context.
    pub fn take_bisect(&mut self) -> Option<Bisect> {
        self.bisect.take().map(|b| *b)
    }

    /// Whether a pattern may be tried now: always, but under a bisection
    /// limit that the steps so far have reached (inside a required pass,
    /// always).
    pub fn bisect_may_apply(&self) -> bool {
        match self.bisect.as_deref() {
            None => true,
            Some(b) => b.required_depth > 0 || b.within_limit(),
        }
    }

    /// Counts a successful application of `pattern` to `op` (whose name
    /// and location `before` holds, taken before the rewrite: the op may
    /// be gone) as a step.
    pub fn bisect_applied(&mut self, pattern: &str, before: (String, String)) {
        let Some(b) = self.bisect.as_deref_mut() else {
            return;
        };
        if b.required_depth > 0 {
            return;
        }
        b.count += 1;
        let step = BisectStep {
            number: b.count,
            kind: StepKind::Pattern,
            name: pattern.to_string(),
            pass: b
                .current_pass
                .last()
                .map(|(name, _, _)| name.clone())
                .unwrap_or_default(),
            op: before.0,
            loc: before.1,
            pass_run: b.pass_runs,
            ran: true,
        };
        b.note(step);
    }

    /// What [`Context::bisect_applied`] needs of `op` before a rewrite;
    /// `None` (nothing to take) without a bisection.
    pub fn bisect_describe(&self, op: Operation) -> Option<(String, String)> {
        self.bisect.as_ref().map(|_| describe(self, op))
    }

    /// Before a pass runs on `op`: whether it runs.
    pub(crate) fn bisect_begin_pass(&mut self, name: &str, required: bool, op: Operation) -> bool {
        if self.bisect.is_none() {
            return true;
        }
        let (op_name, loc) = describe(self, op);
        let Some(b) = self.bisect.as_deref_mut() else {
            return true;
        };
        b.pass_runs += 1;
        let run = b.pass_runs;
        if required || b.required_depth > 0 {
            b.required_depth += 1;
            b.current_pass.push((name.to_string(), true, run));
            return true;
        }
        let ran = b.within_limit();
        b.count += 1;
        let step = BisectStep {
            number: b.count,
            kind: StepKind::Pass,
            name: name.to_string(),
            pass: name.to_string(),
            op: op_name,
            loc,
            pass_run: b.pass_runs,
            ran,
        };
        b.note(step);
        if ran {
            b.current_pass.push((name.to_string(), false, run));
        } else {
            // Skipped: the IR "after" it is the IR before it.
            self.bisect_capture(run, op);
        }
        ran
    }

    /// After a pass that [`Context::bisect_begin_pass`] let run on `op`.
    pub(crate) fn bisect_end_pass(&mut self, op: Operation) {
        let Some(b) = self.bisect.as_deref_mut() else {
            return;
        };
        let Some((_, required, run)) = b.current_pass.pop() else {
            return;
        };
        if required {
            b.required_depth = b.required_depth.saturating_sub(1);
        }
        self.bisect_capture(run, op);
    }

    /// The top-level IR into the dump, if pass run `run` is the one to dump.
    fn bisect_capture(&mut self, run: u64, op: Operation) {
        let wanted = self
            .bisect
            .as_deref()
            .is_some_and(|b| b.dump_after_run == Some(run) && b.dump.is_none());
        if wanted {
            let mut top = op;
            while let Some(p) = self.op_parent_op(top) {
                top = p;
            }
            let text = print_operation(self, top, PrintOptions::default());
            if let Some(b) = self.bisect.as_deref_mut() {
                b.dump = Some(text);
            }
        }
    }
}
