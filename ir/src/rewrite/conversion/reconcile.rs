//! Folding `builtin.unrealized_conversion_cast` chains away (MLIR's
//! `reconcileUnrealizedCasts`).
//!
//! Casts are processed from the last to the first. A cast without uses is
//! erased. A cast whose result types equal the input types of a cast up its
//! chain (`A -> B -> ... -> A`, including itself: `A -> A`) is replaced by
//! that cast's inputs and erased. Each erasure puts the casts feeding the
//! erased one back on the worklist, since they may have become dead. Casts
//! that remain are live and open (`A -> B` with a user of `B`).

use rustc_hash::FxHashSet;

use crate::context::{Context, Operation, Type};
use crate::ir::Value;
use crate::rewrite::conversion::rewriter::{ConversionPatternRewriter, CAST};

/// What the algorithm needs to change the IR.
pub(crate) trait CastEditor {
    fn ctx(&self) -> &Context;
    fn replace_uses(&mut self, from: Value, to: Value);
    fn erase(&mut self, op: Operation);
}

impl CastEditor for Context {
    fn ctx(&self) -> &Context {
        self
    }

    fn replace_uses(&mut self, from: Value, to: Value) {
        self.replace_all_uses_with(from, to);
    }

    fn erase(&mut self, op: Operation) {
        self.erase_op(op);
    }
}

impl CastEditor for ConversionPatternRewriter<'_> {
    fn ctx(&self) -> &Context {
        ConversionPatternRewriter::ctx(self)
    }

    fn replace_uses(&mut self, from: Value, to: Value) {
        self.replace_all_uses_with(from, to);
    }

    fn erase(&mut self, op: Operation) {
        self.erase_op(op);
    }
}

/// Fold the round trips among `casts` (operations named
/// `builtin.unrealized_conversion_cast`; others are ignored) and erase the
/// dead ones; returns the casts of `casts` that remain, in order.
pub fn reconcile_unrealized_casts(ctx: &mut Context, casts: &[Operation]) -> Vec<Operation> {
    reconcile_with(ctx, casts)
}

fn is_cast(ctx: &Context, op: Operation) -> bool {
    ctx.op_name_str(op) == CAST
}

/// The cast whose results are exactly the inputs of `cast`, if any.
fn input_cast(ctx: &Context, cast: Operation) -> Option<Operation> {
    let first = ctx.operands(cast).next()?;
    let producer = ctx.defining_op(first)?;
    if !is_cast(ctx, producer) {
        return None;
    }
    ctx.results(producer)
        .eq(ctx.operands(cast))
        .then_some(producer)
}

/// Put the casts that define inputs of `cast` on the worklist.
fn enqueue_inputs(
    ctx: &Context,
    cast: Operation,
    worklist: &mut Vec<Operation>,
    queued: &mut FxHashSet<Operation>,
) {
    for input in ctx.operands(cast) {
        if let Some(producer) = ctx.defining_op(input) {
            if is_cast(ctx, producer) && queued.insert(producer) {
                worklist.push(producer);
            }
        }
    }
}

/// [`reconcile_unrealized_casts`] through any editor (the conversion
/// driver passes its rewriter, so that reconciling can be rolled back).
pub(crate) fn reconcile_with(editor: &mut impl CastEditor, casts: &[Operation]) -> Vec<Operation> {
    let mut worklist: Vec<Operation> = Vec::with_capacity(casts.len());
    let mut queued: FxHashSet<Operation> = FxHashSet::default();
    for &cast in casts {
        if is_cast(editor.ctx(), cast) && queued.insert(cast) {
            worklist.push(cast);
        }
    }
    let mut erased: FxHashSet<Operation> = FxHashSet::default();

    while let Some(cast) = worklist.pop() {
        queued.remove(&cast);
        let ctx = editor.ctx();
        if ctx.results(cast).all(|r| ctx.use_empty(r)) {
            enqueue_inputs(ctx, cast, &mut worklist, &mut queued);
            erased.insert(cast);
            editor.erase(cast);
            continue;
        }
        let result_types: Vec<Type> = ctx.results(cast).map(|r| ctx.value_type(r)).collect();
        let mut visited = FxHashSet::default();
        let mut next = Some(cast);
        while let Some(candidate) = next {
            if !visited.insert(candidate) {
                break;
            }
            let ctx = editor.ctx();
            if ctx
                .operands(candidate)
                .map(|v| ctx.value_type(v))
                .eq(result_types.iter().copied())
            {
                let inputs: Vec<Value> = ctx.operands(candidate).collect();
                enqueue_inputs(ctx, cast, &mut worklist, &mut queued);
                for (index, input) in inputs.into_iter().enumerate() {
                    editor.replace_uses(Value::Result(cast, index as u32), input);
                }
                erased.insert(cast);
                editor.erase(cast);
                break;
            }
            next = input_cast(ctx, candidate);
        }
    }
    casts
        .iter()
        .copied()
        .filter(|&cast| !erased.contains(&cast) && is_cast(editor.ctx(), cast))
        .collect()
}
