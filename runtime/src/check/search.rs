//! The two bisections of a localization: over the cut of the function
//! (which op), then over the pass steps (which step).

use strata_ir::pass::{Bisect, BisectStep};
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::{Context, Operation};

use super::{
    body_ops, compile_and_run, diffs, prefix, Blame, Clock, Diff, Divergence, Localization,
    Subject, Unblamed, PREFIX,
};
use crate::{interp, Tensor};

/// What one probe found.
enum Probe {
    /// Every compared value within the tolerance.
    Good,
    /// Some diverge: each result's diff and the position of its op.
    Bad(Vec<(Diff, usize)>),
    /// The compile (or the run) failed: this point says nothing.
    Skip(String),
}

/// The smallest diverging prefix seen: its length, its results' diffs
/// (with the position of each one's op) and its reference.
type Found = (usize, Vec<(Diff, usize)>, Reference);

/// The prefix of `k` ops: its eager reference, or why there is none.
struct Reference {
    inputs: Vec<Tensor>,
    values: Vec<Tensor>,
    defined_at: Vec<usize>,
}

fn reference(ctx: &mut Context, subject: &Subject<'_>, k: usize) -> Result<Reference, String> {
    let p = prefix(ctx, subject.module, subject.function, k)
        .ok_or_else(|| "the prefix takes a value that is not an input".to_string())?;
    let inputs: Vec<Tensor> = p
        .inputs
        .iter()
        .map(|&i| subject.inputs.get(i).cloned())
        .collect::<Option<_>>()
        .ok_or_else(|| "the prefix takes an input that was not given".to_string())?;
    let f = interp::lookup_function(ctx, p.module, PREFIX)
        .ok_or_else(|| "the prefix was not outlined".to_string())?;
    let values = interp::run_function(ctx, f, inputs.clone()).map_err(|e| e.to_string())?;
    ctx.erase_op(p.module);
    Ok(Reference {
        inputs,
        values,
        defined_at: p.defined_at,
    })
}

/// Compiles the prefix of `k` ops under `bisect` and compares it with
/// `reference`.
fn probe(
    ctx: &mut Context,
    subject: &Subject<'_>,
    k: usize,
    reference: &Reference,
    bisect: Option<Bisect>,
    clock: &mut Clock,
) -> (Probe, Option<Bisect>) {
    let Some(p) = prefix(ctx, subject.module, subject.function, k) else {
        return (Probe::Skip("the prefix cannot be outlined".into()), None);
    };
    clock.compiles += 1;
    let (result, bisect) = compile_and_run(
        ctx,
        p.module,
        PREFIX,
        &reference.inputs,
        subject.pipeline,
        subject.threads,
        bisect,
    );
    ctx.erase_op(p.module);
    let probe = match result {
        Err(e) => Probe::Skip(e),
        Ok(values) => {
            let d = diffs(&values, &reference.values, subject.tolerance_of);
            if d.iter().all(|d| d.ok) {
                Probe::Good
            } else {
                Probe::Bad(d.into_iter().zip(reference.defined_at.clone()).collect())
            }
        }
    };
    (probe, bisect)
}

/// What a bisection's test says of a point.
#[derive(Clone, Debug, PartialEq)]
enum Answer {
    Good,
    Bad,
    /// The point says nothing (its compile failed).
    Skip,
    /// No more tests: the budget is spent.
    Stop(String),
}

/// Bisects `(good, bad)` with `test`, stepping around points that are
/// skips; returns the final `(good, bad)` and why it stopped early, if it
/// did. `test` is called with points strictly between them.
fn bisect_range(
    mut good: u64,
    mut bad: u64,
    mut test: impl FnMut(u64) -> Answer,
) -> (u64, u64, Option<String>) {
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        // The midpoint, then its neighbours outwards, until one answers.
        let mut order = vec![mid];
        for d in 1..(bad - good) {
            if mid + d < bad {
                order.push(mid + d);
            }
            if mid > good + d {
                order.push(mid - d);
            }
        }
        let mut answered = false;
        for point in order {
            match test(point) {
                Answer::Bad => {
                    bad = point;
                    answered = true;
                    break;
                }
                Answer::Good => {
                    good = point;
                    answered = true;
                    break;
                }
                Answer::Skip => {}
                Answer::Stop(why) => return (good, bad, Some(why)),
            }
        }
        if !answered {
            return (
                good,
                bad,
                Some(format!(
                    "every point from {} to {} fails to compile",
                    good + 1,
                    bad - 1
                )),
            );
        }
    }
    (good, bad, None)
}

/// Finds the first diverging op of `subject` and the pass step that
/// introduced it. `ctx` holds `subject.module`, which is left as it is.
pub fn localize(ctx: &mut Context, subject: &Subject<'_>) -> Localization {
    let mut clock = Clock::new(subject.budget);
    let ops = body_ops(ctx, subject.module, subject.function);
    let n = ops.len();
    let mut out = Localization {
        divergence: None,
        op_range: None,
        blame: None,
        unblamed: None,
        repro_module: None,
        repro_inputs: Vec::new(),
        compiles: 0,
        elapsed: Default::default(),
        exhausted: None,
    };
    // The op: the smallest diverging prefix. The empty one matches and
    // the whole function diverges (the caller saw it).
    let mut found: Option<Found> = None;
    let (good, bad, stopped) = {
        let found = &mut found;
        let mut probes = 0usize;
        bisect_range(0, n as u64, |k| {
            if let Some(why) = clock.spent() {
                return Answer::Stop(why);
            }
            probes += 1;
            (subject.progress)(&format!(
                "check: localizing the op: the first {k} of {n} ops (probe {probes})"
            ));
            let k = k as usize;
            let Ok(r) = reference(ctx, subject, k) else {
                return Answer::Skip;
            };
            match probe(ctx, subject, k, &r, None, &mut clock).0 {
                Probe::Good => Answer::Good,
                Probe::Bad(d) => {
                    if found.as_ref().is_none_or(|(f, _, _)| k < *f) {
                        *found = Some((k, d, r));
                    }
                    Answer::Bad
                }
                Probe::Skip(why) => {
                    skipped(subject, &why);
                    Answer::Skip
                }
            }
        })
    };
    let (good, bad) = (good as usize, bad as usize);
    if let Some(why) = stopped {
        out.op_range = Some((good + 1, bad, why.clone()));
        out.exhausted = Some(why);
    }
    // The whole function is the last candidate: probe it if no smaller
    // prefix diverged.
    if found.as_ref().is_none_or(|(k, _, _)| *k != bad) && out.op_range.is_none() {
        if let Ok(r) = reference(ctx, subject, bad) {
            if let (Probe::Bad(d), _) = probe(ctx, subject, bad, &r, None, &mut clock) {
                found = Some((bad, d, r));
            }
        }
    }
    let Some((k, prefix_diffs, reference)) = found.filter(|(k, _, _)| *k == bad) else {
        out.compiles = clock.compiles;
        out.elapsed = clock.elapsed();
        if out.op_range.is_none() {
            out.op_range = Some((good + 1, bad, "no prefix diverged on its own".into()));
        }
        return out;
    };
    // The culprit: a diverging result of the last op of the prefix, else
    // the worst diverging result.
    let culprit = prefix_diffs
        .iter()
        .filter(|(d, _)| !d.ok)
        .max_by(|a, b| {
            (a.1 == k)
                .cmp(&(b.1 == k))
                .then(a.0.max_abs_diff.total_cmp(&b.0.max_abs_diff))
        })
        .cloned();
    // A search stopped early knows a diverging prefix, not the first op.
    if let Some((diff, at)) = culprit.filter(|_| out.op_range.is_none()) {
        let op = ops[at.saturating_sub(1).min(n.saturating_sub(1))];
        let loc = ctx.op_loc(op);
        let location = strata_ir::diagnostics::describe_location(ctx, loc);
        out.divergence = Some(Divergence {
            op: ctx.op_name_str(op).to_string(),
            name: strata_ir::diagnostics::find_loc_name(ctx, loc).unwrap_or(location.clone()),
            location,
            position: at,
            ops_total: n,
            diff,
            fusion_changed: fusion_changed(ctx, subject, &ops, at),
        });
    }
    out.repro_module = repro_module(ctx, subject, k);
    if let Some(p) = prefix(ctx, subject.module, subject.function, k) {
        out.repro_inputs = p.inputs;
        ctx.erase_op(p.module);
    }
    // The step: count them, then bisect the limit.
    if let Some(why) = clock.spent() {
        out.exhausted.get_or_insert(why);
        out.compiles = clock.compiles;
        out.elapsed = clock.elapsed();
        return out;
    }
    (subject.progress)("check: localizing the pass: counting the optional steps");
    let (_, counted) = probe(
        ctx,
        subject,
        k,
        &reference,
        Some(Bisect::new(None).record(true)),
        &mut clock,
    );
    let steps: Vec<BisectStep> = counted.map(|b| b.steps().to_vec()).unwrap_or_default();
    let total = steps.len() as u64;
    let mut test = |limit: u64, clock: &mut Clock| -> Answer {
        if let Some(why) = clock.spent() {
            return Answer::Stop(why);
        }
        (subject.progress)(&format!(
            "check: localizing the pass: the first {limit} of {total} steps"
        ));
        let bisect = Some(Bisect::new(Some(limit)));
        match probe(ctx, subject, k, &reference, bisect, clock).0 {
            Probe::Good => Answer::Good,
            Probe::Bad(_) => Answer::Bad,
            Probe::Skip(why) => {
                skipped(subject, &why);
                Answer::Skip
            }
        }
    };
    // With no optional step the prefix may still diverge.
    let mut stopped = None;
    match test(0, &mut clock) {
        Answer::Bad => {
            let stage = required_stage(ctx, subject, k, &reference);
            out.unblamed = Some(Unblamed::Required(stage));
        }
        Answer::Stop(why) => stopped = Some((0, total, why)),
        // A skip at 0 leaves step 1 a candidate: the bisection tells.
        Answer::Good | Answer::Skip if total > 0 => {
            let (good, bad, why) = bisect_range(0, total, |limit| test(limit, &mut clock));
            match why {
                Some(why) => stopped = Some((good, bad, why)),
                None => {
                    let step = steps.get(bad as usize - 1).cloned();
                    if let Some(step) = step {
                        let (before, after) =
                            step_ir(ctx, subject, k, &reference, &step, &mut clock);
                        out.blame = Some(Blame {
                            step,
                            total,
                            before,
                            after,
                        });
                    }
                }
            }
        }
        Answer::Good | Answer::Skip => {}
    }
    if let Some((good, bad, why)) = stopped {
        out.exhausted.get_or_insert(why.clone());
        out.unblamed = Some(Unblamed::Range {
            first: good + 1,
            last: bad,
            why,
        });
    }
    out.compiles = clock.compiles;
    out.elapsed = clock.elapsed();
    out
}

/// With every optional step skipped, where the divergence of the prefix
/// of `k` ops appears: its tensor stage interpreted against the reference
/// tells the lowering to `tensor` from what comes after it.
fn required_stage(
    ctx: &mut Context,
    subject: &Subject<'_>,
    k: usize,
    reference: &Reference,
) -> Option<String> {
    let until = tensor_stage(subject.pipeline)?;
    let p = prefix(ctx, subject.module, subject.function, k)?;
    let shapes: Vec<Vec<usize>> = reference
        .inputs
        .iter()
        .map(|t| t.shape().to_vec())
        .collect();
    ctx.set_bisect(Some(Bisect::new(Some(0))));
    let lowered = crate::compiled::lower(ctx, p.module, PREFIX, &shapes, &until);
    ctx.set_bisect(None);
    let values = lowered.ok().and_then(|()| {
        let f = interp::lookup_function(ctx, p.module, PREFIX)?;
        interp::run_function(ctx, f, reference.inputs.clone()).ok()
    });
    ctx.erase_op(p.module);
    let d = diffs(&values?, &reference.values, subject.tolerance_of);
    Some(if d.iter().all(|d| d.ok) {
        "its tensor stage, interpreted, still matches: the divergence comes after it (convert-tensor-to-kernel, or the kernels' code: LLVM, the library matrix products)".into()
    } else {
        "its tensor stage, interpreted, already diverges: the divergence comes from the lowering to tensor (convert-graph-to-tensor)".into()
    })
}

/// A progress line for a probe that says nothing.
fn skipped(subject: &Subject<'_>, why: &str) {
    let first = why.lines().next().unwrap_or("");
    (subject.progress)(&format!("check: skipped (it does not compile: {first})"));
}

/// The IR after `step`'s pass run, without the step and with it (the
/// pipeline only: no code generation).
fn step_ir(
    ctx: &mut Context,
    subject: &Subject<'_>,
    k: usize,
    reference: &Reference,
    step: &BisectStep,
    clock: &mut Clock,
) -> (Option<String>, Option<String>) {
    let mut dump = |limit: u64| -> Option<String> {
        let p = prefix(ctx, subject.module, subject.function, k)?;
        let shapes: Vec<Vec<usize>> = reference
            .inputs
            .iter()
            .map(|t| t.shape().to_vec())
            .collect();
        ctx.set_bisect(Some(
            Bisect::new(Some(limit)).dump_after_pass_run(step.pass_run),
        ));
        clock.compiles += 1;
        let _ = crate::compiled::lower(ctx, p.module, PREFIX, &shapes, subject.pipeline);
        let text = ctx.take_bisect().and_then(|mut b| b.take_dump());
        ctx.erase_op(p.module);
        text
    };
    (dump(step.number - 1), dump(step.number))
}

/// The prefix of `k` ops as a module of its own, its function `@main`
/// (the rest of the model erased), printed.
fn repro_module(ctx: &mut Context, subject: &Subject<'_>, k: usize) -> Option<String> {
    let p = prefix(ctx, subject.module, subject.function, k)?;
    let keep = interp::lookup_function(ctx, p.module, PREFIX)?;
    let functions: Vec<Operation> = ctx
        .op_regions(p.module)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r).collect::<Vec<_>>())
        .flat_map(|b| ctx.block_ops(b).collect::<Vec<_>>())
        .filter(|&o| o != keep && ctx.op_name_str(o) == "func.func")
        .collect();
    for f in functions {
        ctx.erase_op(f);
    }
    let name = ctx.string_attr("main");
    ctx.set_op_property(keep, "sym_name", name);
    let text = print_operation(ctx, p.module, PrintOptions::default());
    ctx.erase_op(p.module);
    Some(text)
}

/// Whether the plan of the whole function fuses the op at `position`
/// (from 1) with an op after it: then cutting after it, as localizing
/// does, compiled it apart. Read from the tensor stage's `tensor.fusion` bodies
/// (their ops keep the locations of the ops they come from).
fn fusion_changed(
    ctx: &mut Context,
    subject: &Subject<'_>,
    ops: &[Operation],
    position: usize,
) -> Option<bool> {
    let name_of =
        |ctx: &Context, op: Operation| strata_ir::diagnostics::find_loc_name(ctx, ctx.op_loc(op));
    let target = name_of(ctx, *ops.get(position.checked_sub(1)?)?)?;
    let later: std::collections::HashSet<String> = ops[position..]
        .iter()
        .filter_map(|&o| name_of(ctx, o))
        .collect();
    let mut mapping = strata_ir::IrMapping::default();
    let copy = ctx.clone_op(subject.module, &mut mapping);
    let shapes: Vec<Vec<usize>> = subject.inputs.iter().map(|t| t.shape().to_vec()).collect();
    let until_tensor = tensor_stage(subject.pipeline)?;
    let lowered = crate::compiled::lower(ctx, copy, subject.function, &shapes, &until_tensor);
    let answer = lowered.ok().map(|()| {
        ctx.nested_ops(copy, strata_ir::WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| ctx.op_name_str(o) == "tensor.fusion")
            .any(|fusion| {
                let names: Vec<String> = ctx
                    .nested_ops(fusion, strata_ir::WalkOrder::PreOrder)
                    .into_iter()
                    .filter_map(|o| name_of(ctx, o))
                    .collect();
                names.contains(&target) && names.iter().any(|n| later.contains(n))
            })
    });
    ctx.erase_op(copy);
    answer
}

/// `pipeline` up to and including `tensor-fuse` (the tensor stage), or
/// `None` when it has no such pass.
fn tensor_stage(pipeline: &str) -> Option<String> {
    let end = pipeline.find("tensor-fuse")?;
    let rest = &pipeline[end..];
    // The pass with its options, if any.
    let len = match (rest.find('{'), rest.find([',', ')'])) {
        (Some(brace), Some(stop)) if brace < stop => rest.find('}')? + 1,
        (_, Some(stop)) => stop,
        _ => rest.len(),
    };
    Some(format!("{})", &pipeline[..end + len]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tensor_stage_ends_after_tensor_fuse() {
        assert_eq!(
            tensor_stage("builtin.module(a,convert-graph-to-tensor,tensor-fuse{max-ops=4},convert-tensor-to-kernel)").as_deref(),
            Some("builtin.module(a,convert-graph-to-tensor,tensor-fuse{max-ops=4})")
        );
        assert_eq!(
            tensor_stage("builtin.module(a,tensor-fuse,b)").as_deref(),
            Some("builtin.module(a,tensor-fuse)")
        );
        assert_eq!(tensor_stage("builtin.module(a)"), None);
    }

    #[test]
    fn bisection_steps_around_skips() {
        let answer = |bad: bool| if bad { Answer::Bad } else { Answer::Good };
        // Bad from 13 on; 14 fails to compile: 13 is found.
        let (good, bad, stopped) = bisect_range(0, 40, |p| match p {
            14 => Answer::Skip,
            p => answer(p >= 13),
        });
        assert_eq!((good, bad, stopped), (12, 13, None));
        // 12 fails too: 12 or 13, a range.
        let (good, bad, stopped) = bisect_range(0, 40, |p| match p {
            12 | 14 => Answer::Skip,
            p => answer(p >= 13),
        });
        assert_eq!((good, bad), (11, 13));
        assert!(stopped.is_some_and(|w| w.contains("12 to 12")));
        let (good, bad, stopped) = bisect_range(0, 4, |_| Answer::Skip);
        assert_eq!((good, bad), (0, 4));
        assert!(stopped.is_some());
        let (_, _, stopped) = bisect_range(0, 4, |_| Answer::Stop("spent".into()));
        assert_eq!(stopped.as_deref(), Some("spent"));
    }
}
