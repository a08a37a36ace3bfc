//! `--check` that says where and why: when a compiled plan's outputs do not
//! match eager mode's, find the first op whose value diverges and the pass
//! step that made it so.
//!
//! **The op.** The function's body ops, in order, are cut after the k-th:
//! the prefix is outlined into a function of its own whose results are
//! every value the rest of the model (or the return) reads from it, run
//! eagerly for the reference and compiled with the same pipeline. The empty
//! prefix matches and the whole function diverges; bisecting k finds the
//! smallest prefix that diverges, and the op it ends with is the first
//! diverging op. A prefix whose compile fails (a cut at a value a plan
//! cannot return) is skipped and a neighbour tried.
//!
//! **The pass.** The diverging prefix is compiled once more with every
//! optional step numbered ([`strata_ir::pass::Bisect`]: a pass run, a
//! pattern application), then with the steps after the N-th skipped,
//! bisecting N: the first N whose plan diverges names the step. A limit
//! whose compile fails is a skip, not a bad step. The IR after that step's
//! pass run, with and without the step, is kept.
//!
//! Each compile counts against a [`Budget`]; when it runs out, the report
//! says how far the search got (a range of ops or steps).

mod reference;
mod search;

use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};
use strata_ir::pass::{Bisect, BisectStep, StepKind};
use strata_ir::{Context, IrMapping, Operation, Value};

use crate::compiled::{self, CompileError};
use crate::kernels::{allclose, Tolerance};
use crate::{interp, DType, Tensor};

pub use reference::{closeness, f64_reference, Closeness};
pub use search::localize;

/// How far a localization may go.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// The most compiles.
    pub compiles: usize,
    /// The most wall-clock time.
    pub time: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            compiles: 64,
            time: Duration::from_secs(600),
        }
    }
}

impl Budget {
    /// `--check-budget` text: `N` compiles, `Ts` seconds, or both
    /// (`40,120s`).
    pub fn parse(text: &str) -> Result<Budget, String> {
        let mut budget = Budget::default();
        for part in text.split(',').map(str::trim) {
            let bad = || {
                format!("--check-budget '{text}': expected a number of compiles (40), a time in seconds (120s), or both (40,120s)")
            };
            if let Some(secs) = part.strip_suffix('s') {
                let secs: f64 = secs.parse().map_err(|_| bad())?;
                if !(secs.is_finite() && secs > 0.0) {
                    return Err(bad());
                }
                budget.time = Duration::from_secs_f64(secs);
            } else {
                let n: usize = part.parse().map_err(|_| bad())?;
                if n == 0 {
                    return Err(format!(
                        "--check-budget '{text}': a budget of zero compiles localizes nothing"
                    ));
                }
                budget.compiles = n;
            }
        }
        Ok(budget)
    }
}

/// What a localization compiles and compares.
pub struct Subject<'a> {
    /// The model, in the `graph` dialect (left unchanged: each probe
    /// compiles a copy).
    pub module: Operation,
    /// The function checked.
    pub function: &'a str,
    /// Its inputs (tensors).
    pub inputs: &'a [Tensor],
    /// The pipeline from `graph` to the host plan.
    pub pipeline: &'a str,
    /// Threads of the compiled plans.
    pub threads: usize,
    /// The tolerance of a value of each dtype.
    pub tolerance_of: &'a dyn Fn(DType) -> Tolerance,
    pub budget: Budget,
    /// Progress lines (for a person waiting on a long model).
    pub progress: &'a dyn Fn(&str),
}

/// How one value compares with its reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Diff {
    /// Within the tolerance.
    pub ok: bool,
    /// The largest |actual - expected| (infinite where one side is NaN or
    /// infinite and the other not).
    pub max_abs_diff: f64,
    /// The worst element: its index, the actual and the expected value.
    pub worst: Option<(Vec<usize>, f64, f64)>,
    /// `allclose`'s message when not ok.
    pub message: String,
    pub tolerance: Tolerance,
}

impl Diff {
    /// `actual` against `expected` within `tol`.
    pub fn of(actual: &Tensor, expected: &Tensor, tol: Tolerance) -> Diff {
        let result = allclose(actual, expected, tol);
        let (mut max, mut worst) = (0.0f64, None);
        if actual.shape() == expected.shape() && actual.dtype() == expected.dtype() {
            let a = actual.to_f64_vec();
            let e = expected.to_f64_vec();
            for (i, (&x, &y)) in a.iter().zip(&e).enumerate() {
                let d = if x.is_nan() && y.is_nan() || x == y {
                    0.0
                } else if x.is_finite() && y.is_finite() {
                    (x - y).abs()
                } else {
                    f64::INFINITY
                };
                if d > max || (worst.is_none() && d > 0.0) {
                    max = d;
                    worst = Some((unravel(i, actual.shape()), x, y));
                }
            }
        } else {
            max = f64::INFINITY;
        }
        Diff {
            ok: result.is_ok(),
            max_abs_diff: max,
            worst,
            message: result.err().unwrap_or_default(),
            tolerance: tol,
        }
    }
}

fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (k, &d) in shape.iter().enumerate().rev() {
        if d > 0 {
            index[k] = i % d;
            i /= d;
        }
    }
    index
}

/// What `--check` concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every output within the tolerance.
    Match,
    /// Some output out of it.
    Mismatch,
    /// Eager mode does not agree with itself: the model is not
    /// deterministic, and the comparison says nothing about the compiler.
    Nondeterministic,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Match => "match",
            Status::Mismatch => "mismatch",
            Status::Nondeterministic => "nondeterministic",
        }
    }
}

/// The first op whose value diverges.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Its name: `graph.softmax`.
    pub op: String,
    /// Its node name (the ONNX node's), or its location.
    pub name: String,
    /// Its location, as a diagnostic shows it.
    pub location: String,
    /// Its position among the function's body ops (from 1), and their number.
    pub position: usize,
    pub ops_total: usize,
    /// How its value compares.
    pub diff: Diff,
    /// Whether the full plan fused this op with ops after it, so that the
    /// cut that localized it changed what was fused; `None`: not known.
    pub fusion_changed: Option<bool>,
}

/// The step that introduced the divergence.
#[derive(Clone, Debug)]
pub struct Blame {
    /// The step, as numbered with every optional step counted.
    pub step: BisectStep,
    /// The number of optional steps of the compile.
    pub total: u64,
    /// The IR after the step's pass run without the step, and with it.
    pub before: Option<String>,
    pub after: Option<String>,
}

/// Where the pass search ended when it did not name one step.
#[derive(Clone, Debug)]
pub enum Unblamed {
    /// With every optional step skipped the prefix still diverges: a
    /// required pass (a conversion of the descent), or the code generation
    /// and the runtime's kernels, produce it; which of them, when the
    /// tensor stage could be interpreted.
    Required(Option<String>),
    /// The budget ran out, or skips hid the step: it is one of steps
    /// `first..=last`.
    Range { first: u64, last: u64, why: String },
}

/// The whole localization.
#[derive(Clone, Debug)]
pub struct Localization {
    pub divergence: Option<Divergence>,
    /// When the op search ended on a range instead (ops `first..=last`,
    /// from 1), and why.
    pub op_range: Option<(usize, usize, String)>,
    pub blame: Option<Blame>,
    pub unblamed: Option<Unblamed>,
    /// The diverging prefix as a module of its own (graph dialect, its
    /// function `@main`), what a repro compiles, with its inputs' indices
    /// among the model's.
    pub repro_module: Option<String>,
    pub repro_inputs: Vec<usize>,
    pub compiles: usize,
    pub elapsed: Duration,
    /// Why the search stopped early, if it did.
    pub exhausted: Option<String>,
}

impl Localization {
    /// One line per finding, in the style of
    /// `first divergence at node 'Softmax_12' (graph.softmax): max|d| 3.1e-3 > tol 1e-5; introduced by pass graph-convert-precision (application 17 of 40)`.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        match (&self.divergence, &self.op_range) {
            (Some(d), _) => {
                let tol = d.diff.tolerance;
                // A node name (ONNX's) where the location has one.
                let at = if d.name == d.location {
                    format!("{} ({})", d.op, d.location)
                } else {
                    format!("node '{}' ({})", d.name, d.op)
                };
                out.push_str(&format!(
                    "first divergence at {at}, op {} of {}: max|d| {:.3e} > tol (rtol {}, atol {})",
                    d.position, d.ops_total, d.diff.max_abs_diff, tol.rtol, tol.atol
                ));
                if let Some((index, a, e)) = &d.diff.worst {
                    out.push_str(&format!("; worst at {index:?}: graph {a}, eager {e}"));
                }
            }
            (None, Some((first, last, why))) => out.push_str(&format!(
                "first divergence among ops {first} to {last} ({why})"
            )),
            (None, None) => out.push_str("the diverging op was not found"),
        }
        match (&self.blame, &self.unblamed) {
            (Some(b), _) => {
                let what = match b.step.kind {
                    StepKind::Pass => format!("pass {}", b.step.name),
                    StepKind::Pattern => {
                        format!("pattern {} of pass {}", b.step.name, b.step.pass)
                    }
                };
                out.push_str(&format!(
                    "; introduced by {what} (application {} of {}) on '{}'",
                    b.step.number, b.total, b.step.op
                ));
                if b.step.kind == StepKind::Pattern {
                    out.push_str(&format!(" {}", b.step.loc));
                }
            }
            (None, Some(Unblamed::Required(stage))) => {
                out.push_str("; it remains with every optional pass step skipped: ");
                out.push_str(stage.as_deref().unwrap_or(
                    "a required lowering (convert-graph-to-tensor, convert-tensor-to-kernel) or the kernels' code produce it",
                ));
            }
            (None, Some(Unblamed::Range { first, last, why })) => out.push_str(&format!(
                "; introduced by one of pass steps {first} to {last} ({why})"
            )),
            (None, None) => {}
        }
        out
    }

    /// The `check` object of `--report` (without `status`, which the
    /// caller adds).
    pub fn to_json(&self) -> Json {
        let divergence = self.divergence.as_ref().map(|d| {
            json!({
                "op": d.op,
                "name": d.name,
                "location": d.location,
                "position": d.position,
                "ops_total": d.ops_total,
                "max_abs_diff": finite_or_string(d.diff.max_abs_diff),
                "rtol": d.diff.tolerance.rtol,
                "atol": d.diff.tolerance.atol,
                "worst": d.diff.worst.as_ref().map(|(i, a, e)| json!({
                    "index": i, "graph": finite_or_string(*a), "eager": finite_or_string(*e)
                })),
                "fusion_changed": d.fusion_changed,
            })
        });
        let pass = self.blame.as_ref().map(|b| {
            json!({
                "name": b.step.pass,
                "kind": match b.step.kind { StepKind::Pass => "pass", StepKind::Pattern => "pattern" },
                "pattern": (b.step.kind == StepKind::Pattern).then(|| b.step.name.clone()),
                "application": b.step.number,
                "applications": b.total,
                "op": b.step.op,
                "location": b.step.loc,
            })
        });
        let unblamed = self.unblamed.as_ref().map(|u| match u {
            Unblamed::Required(stage) => json!({"kind": "required", "stage": stage}),
            Unblamed::Range { first, last, why } => {
                json!({"kind": "range", "first": first, "last": last, "why": why})
            }
        });
        json!({
            "first_divergence": divergence,
            "op_range": self.op_range.as_ref().map(|(f, l, why)| json!({"first": f, "last": l, "why": why})),
            "pass": pass,
            "pass_unresolved": unblamed,
            "compiles": self.compiles,
            "seconds": self.elapsed.as_secs_f64(),
            "exhausted": self.exhausted,
        })
    }
}

/// JSON has no infinity nor NaN: those become strings.
pub fn finite_or_string(x: f64) -> Json {
    if x.is_finite() {
        json!(x)
    } else {
        json!(format!("{x}"))
    }
}

/// A prefix of the function outlined in a copy of the module.
pub(crate) struct Prefix {
    /// The copy, holding `@__strata_check_prefix` (and the original).
    pub(crate) module: Operation,
    /// The model inputs it takes, by index.
    pub(crate) inputs: Vec<usize>,
    /// For each of its results: the position of the op defining it.
    pub(crate) defined_at: Vec<usize>,
}

pub(crate) const PREFIX: &str = "__strata_check_prefix";

/// The body ops of `function` (constants and the terminator aside).
pub(crate) fn body_ops(ctx: &Context, module: Operation, function: &str) -> Vec<Operation> {
    interp::lookup_function(ctx, module, function)
        .map(|f| crate::session::assignable(ctx, f))
        .unwrap_or_default()
}

/// A copy of `module` with the first `k` body ops of `function` outlined
/// into [`PREFIX`]; `None` when the prefix takes a value that is not an
/// input of the function.
pub(crate) fn prefix(
    ctx: &mut Context,
    module: Operation,
    function: &str,
    k: usize,
) -> Option<Prefix> {
    let mut mapping = IrMapping::default();
    let copy = ctx.clone_op(module, &mut mapping);
    let f = interp::lookup_function(ctx, copy, function)?;
    let ops = crate::session::assignable(ctx, f);
    let entry = ctx
        .op_regions(f)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))?;
    let outlined = crate::session::outline(ctx, copy, f, &ops[..k.min(ops.len())], &[], PREFIX);
    let mut inputs = Vec::new();
    for v in &outlined.inputs {
        match *v {
            Value::Argument(b, i) if b == entry => inputs.push(i as usize),
            _ => return None,
        }
    }
    let defined_at = outlined
        .outputs
        .iter()
        .map(|v| match *v {
            Value::Result(op, _) => ops.iter().position(|&o| o == op).map_or(0, |p| p + 1),
            Value::Argument(..) => 0,
        })
        .collect();
    Some(Prefix {
        module: copy,
        inputs,
        defined_at,
    })
}

/// Compiles `function` of `module` (changed in place) for `inputs` and
/// runs it, under `bisect` if given (taken back off the context, as it
/// ended, with the result).
pub(crate) fn compile_and_run(
    ctx: &mut Context,
    module: Operation,
    function: &str,
    inputs: &[Tensor],
    pipeline: &str,
    threads: usize,
    bisect: Option<Bisect>,
) -> (Result<Vec<Tensor>, String>, Option<Bisect>) {
    let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
    let mut mapping = IrMapping::default();
    // A spare copy in case the compile needs input values as constants.
    let spare = ctx.clone_op(module, &mut mapping);
    ctx.set_bisect(bisect.clone());
    let mut plan = compiled::compile_with(ctx, module, function, &shapes, threads, pipeline);
    if plan
        .as_ref()
        .err()
        .is_some_and(compiled::needs_input_values)
    {
        ctx.set_bisect(bisect);
        let pin: Vec<bool> = inputs.iter().map(compiled::pinnable).collect();
        plan = compiled::compile_pinned(ctx, spare, function, inputs, &pin, threads, pipeline);
    }
    let bisect = ctx.take_bisect();
    let result = match plan {
        Ok(plan) => plan.run(inputs).map_err(|e| e.to_string()),
        Err(e) => Err(describe_compile_error(ctx, &e)),
    };
    (result, bisect)
}

fn describe_compile_error(ctx: &Context, e: &CompileError) -> String {
    match e {
        CompileError::Diagnostics(d) => crate::session::render_diagnostics(ctx, d),
        e => e.to_string(),
    }
}

/// Whether each of `actual` matches `expected`.
pub(crate) fn diffs(
    actual: &[Tensor],
    expected: &[Tensor],
    tolerance_of: &dyn Fn(DType) -> Tolerance,
) -> Vec<Diff> {
    actual
        .iter()
        .zip(expected)
        .map(|(a, e)| Diff::of(a, e, tolerance_of(e.dtype())))
        .collect()
}

/// Eager mode against itself: `Nondeterministic` when two runs of the
/// function differ beyond the tolerance.
pub fn eager_agrees(
    first: &[Tensor],
    second: &[Tensor],
    tolerance_of: &dyn Fn(DType) -> Tolerance,
) -> bool {
    first.len() == second.len() && diffs(first, second, tolerance_of).iter().all(|d| d.ok)
}

pub(crate) struct Clock {
    start: Instant,
    pub(crate) compiles: usize,
    budget: Budget,
}

impl Clock {
    pub(crate) fn new(budget: Budget) -> Clock {
        Clock {
            start: Instant::now(),
            compiles: 0,
            budget,
        }
    }

    /// `Some(why)` when no compile is left.
    pub(crate) fn spent(&self) -> Option<String> {
        if self.compiles >= self.budget.compiles {
            Some(format!(
                "the budget of {} compiles is spent",
                self.budget.compiles
            ))
        } else if self.start.elapsed() >= self.budget.time {
            Some(format!(
                "the budget of {:.0} s is spent",
                self.budget.time.as_secs_f64()
            ))
        } else {
            None
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_and_refuse() {
        let b = Budget::parse("40,120s").expect("valid");
        assert_eq!(b.compiles, 40);
        assert_eq!(b.time, Duration::from_secs(120));
        assert_eq!(Budget::parse("7").expect("valid").compiles, 7);
        assert!(Budget::parse("0").unwrap_err().contains("zero"));
        assert!(Budget::parse("fast").is_err());
        assert!(Budget::parse("-3s").is_err());
    }

    #[test]
    fn a_diff_names_the_worst_element() {
        let a = Tensor::from_f64_vec(DType::F32, &[2, 2], &[1.0, 2.0, 3.5, 4.0]);
        let e = Tensor::from_f64_vec(DType::F32, &[2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let d = Diff::of(&a, &e, Tolerance::new(0.0, 1e-3));
        assert!(!d.ok);
        assert_eq!(d.max_abs_diff, 0.5);
        assert_eq!(d.worst, Some((vec![1, 0], 3.5, 3.0)));
        assert!(Diff::of(&e, &e, Tolerance::new(0.0, 0.0)).ok);
    }
}
