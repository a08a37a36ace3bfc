//! The conversion driver (MLIR's `OperationConverter` and
//! `OperationLegalizer`).
//!
//! The operations to convert are collected first, in pre-order, the root
//! included (not looking inside recursively legal operations). Each one
//! still in the IR is legalized: a legal operation is left alone; any
//! other is offered to the patterns for its name, best first. A pattern's
//! changes are kept only if it matched and everything it produced is legal
//! or can be legalized in turn (recursively; a pattern is not applied again
//! to what it produced unless it says its recursion is bounded); otherwise
//! they are rolled back and the next pattern is tried.
//!
//! When every operation is done, the casts the driver created to bridge
//! types are reconciled (round trips folded, dead ones erased); those still
//! needed are handed to the type converter's materializations, and stay
//! `builtin.unrealized_conversion_cast` when none applies. Only then are the
//! erased operations destroyed. Any failure rolls the whole conversion back.

use crate::context::{Context, Operation};
use crate::diagnostics::Diagnostic;
use crate::ir::Value;
use crate::printer::{print_op_generic_inline, type_to_string};
use crate::rewrite::conversion::pattern::FrozenConversionPatternSet;
use crate::rewrite::conversion::reconcile::reconcile_with;
use crate::rewrite::conversion::rewriter::{ConversionPatternRewriter, MaterializationKind};
use crate::rewrite::conversion::target::{ConversionTarget, Legality};
use crate::rewrite::conversion::type_converter::TypeConverter;
use crate::walk::{WalkOrder, WalkResult};

/// What a failure to legalize means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Only operations explicitly illegal must be legalized.
    Partial,
    /// Every operation must end up legal.
    Full,
    /// Nothing is changed: find which operations could be legalized.
    Analysis,
}

/// Applies patterns to make operations legal.
struct Legalizer<'p> {
    target: &'p ConversionTarget,
    patterns: &'p FrozenConversionPatternSet,
    /// The patterns being applied, innermost last.
    active: Vec<usize>,
}

impl Legalizer<'_> {
    fn legalize(&mut self, rewriter: &mut ConversionPatternRewriter<'_>, op: Operation) -> bool {
        if self.target.legality(rewriter.ctx(), op) == Legality::Legal {
            return true;
        }
        self.legalize_with_pattern(rewriter, op)
    }

    fn legalize_with_pattern(
        &mut self,
        rewriter: &mut ConversionPatternRewriter<'_>,
        op: Operation,
    ) -> bool {
        let patterns = self.patterns;
        let name = rewriter.ctx().op_name(op);
        // Under --pass-bisect-limit (in a pass that is not required): no
        // pattern once the limit is reached, each application a step.
        let bisect = rewriter.ctx().bisect_describe(op);
        for &index in patterns.candidates(name) {
            if !rewriter.ctx().bisect_may_apply() {
                break;
            }
            let pattern = patterns.pattern(index);
            if self.active.contains(&index) && !pattern.has_bounded_rewrite_recursion() {
                continue;
            }
            let mark = rewriter.checkpoint();
            let saved = rewriter.insertion_point();
            rewriter.set_insertion_point(op);
            let applied = match rewriter.adaptor_operands(op) {
                Some(operands) => {
                    let after_operands = rewriter.checkpoint();
                    self.active.push(index);
                    let applied = pattern.match_and_rewrite(op, &operands, rewriter)
                        && self.legalize_pattern_result(rewriter, op, after_operands);
                    self.active.pop();
                    applied
                }
                None => false,
            };
            rewriter.restore_insertion_point(saved);
            if applied {
                if let Some(before) = bisect {
                    rewriter.ctx_mut().bisect_applied(pattern.name(), before);
                }
                return true;
            }
            rewriter.rollback(mark);
        }
        false
    }

    /// Whether what a pattern did to `op` (since `mark`) leaves legal IR.
    fn legalize_pattern_result(
        &mut self,
        rewriter: &mut ConversionPatternRewriter<'_>,
        op: Operation,
        mark: usize,
    ) -> bool {
        let (created, modified) = rewriter.changes_since(mark);
        // The root must have been replaced, erased or changed in place.
        if rewriter.is_live(op) && !modified.contains(&op) {
            return false;
        }
        for new_op in created {
            if rewriter.is_live(new_op)
                && rewriter.materialization_kind(new_op).is_none()
                && !self.legalize(rewriter, new_op)
            {
                return false;
            }
        }
        for changed in modified {
            if rewriter.is_live(changed) && !self.legalize(rewriter, changed) {
                return false;
            }
        }
        true
    }
}

/// The operations to convert: `root` and what is nested in it, in
/// pre-order, without the insides of recursively legal operations.
fn collect(ctx: &Context, root: Operation, target: &ConversionTarget) -> Vec<Operation> {
    let mut order = Vec::new();
    ctx.walk(root, WalkOrder::PreOrder, |op| {
        order.push(op);
        if target.is_recursively_legal(ctx, op) {
            WalkResult::Skip
        } else {
            WalkResult::Advance
        }
    });
    order
}

/// Run a conversion; in analysis mode, returns the legalizable operations.
pub(crate) fn run(
    ctx: &mut Context,
    root: Operation,
    target: &ConversionTarget,
    patterns: &FrozenConversionPatternSet,
    type_converter: Option<&TypeConverter>,
    mode: Mode,
) -> Result<Vec<Operation>, Diagnostic> {
    let order = collect(ctx, root, target);
    let mut rewriter = ConversionPatternRewriter::new(ctx, root, type_converter);
    let mut legalizer = Legalizer {
        target,
        patterns,
        active: Vec::new(),
    };
    let mut legalizable = Vec::new();
    for op in order {
        if !rewriter.is_live(op) {
            continue;
        }
        if legalizer.legalize(&mut rewriter, op) {
            if mode == Mode::Analysis {
                legalizable.push(op);
            }
            continue;
        }
        let name = rewriter.ctx().op_name_str(op).to_string();
        let message = match mode {
            Mode::Full => format!("failed to legalize operation '{name}'"),
            Mode::Partial if target.legality(rewriter.ctx(), op) == Legality::Illegal => {
                format!("failed to legalize operation '{name}' that was explicitly marked illegal")
            }
            _ => continue,
        };
        let loc = rewriter.ctx().op_loc(op);
        rewriter.rollback(0);
        return Err(Diagnostic::error(loc, message).on_op(op));
    }
    if mode == Mode::Analysis {
        rewriter.rollback(0);
        return Ok(legalizable);
    }
    if let Err(diag) = finish_materializations(&mut rewriter) {
        rewriter.rollback(0);
        return Err(diag);
    }
    rewriter.commit();
    Ok(legalizable)
}

/// Reconcile the driver's casts, then hand the live ones to the type
/// converter's materializations.
fn finish_materializations(rewriter: &mut ConversionPatternRewriter<'_>) -> Result<(), Diagnostic> {
    let casts = rewriter.live_materializations();
    let remaining = reconcile_with(rewriter, &casts);
    for cast in remaining {
        let Some(kind) = rewriter.materialization_kind(cast) else {
            continue;
        };
        let ctx = rewriter.ctx();
        let inputs: Vec<Value> = ctx.operands(cast).collect();
        let result = Value::Result(cast, 0);
        let ty = ctx.value_type(result);
        let loc = ctx.op_loc(cast);
        let replacement = match rewriter.type_converter() {
            Some(converter) => {
                let saved = rewriter.insertion_point();
                rewriter.set_insertion_point(cast);
                let value = match kind {
                    MaterializationKind::Source => {
                        converter.materialize_source(rewriter, ty, &inputs, loc)
                    }
                    MaterializationKind::Target { original } => {
                        converter.materialize_target(rewriter, ty, &inputs, loc, original)
                    }
                };
                rewriter.restore_insertion_point(saved);
                value
            }
            None => None,
        };
        match replacement {
            Some(value) => rewriter.replace_op(cast, &[value]),
            None if inputs.is_empty() => return Err(unresolved(rewriter.ctx(), cast)),
            // The default materialization: the cast itself.
            None => {}
        }
    }
    Ok(())
}

/// MLIR's error for a materialization nothing could produce.
fn unresolved(ctx: &Context, cast: Operation) -> Diagnostic {
    let types = |values: Vec<Value>| {
        values
            .into_iter()
            .map(|v| type_to_string(ctx, ctx.value_type(v)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let message = format!(
        "failed to legalize unresolved materialization from ({}) to ({}) that remained live after conversion",
        types(ctx.operands(cast).collect()),
        types(ctx.results(cast).collect()),
    );
    // Not `on_op`: the cast is gone once the conversion is rolled back.
    let mut diag = Diagnostic::error(ctx.op_loc(cast), message);
    if let Some(user) = ctx.results(cast).find_map(|r| ctx.uses(r).next()) {
        let printed = print_op_generic_inline(ctx, user.op);
        diag = diag.with_note(
            ctx.op_loc(user.op),
            format!("see existing live user here: {printed}"),
        );
    }
    diag
}
