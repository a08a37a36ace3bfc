//! `loop-invariant-code-motion`: move the ops of a loop body that compute
//! the same value on every iteration to just before the loop, as MLIR's
//! pass of that name.
//!
//! Loops are the ops with the [`LoopLike`] interface, visited innermost
//! first (a post-order walk), so that what leaves an inner loop can leave
//! the outer one too. In each loop region, the top-level ops are visited in
//! order; an op moves when it is not a terminator, every value it (or an op
//! in its regions) uses comes from outside the loop or from inside the op,
//! it has no memory effect and it may run speculatively (see
//! [`is_speculatable`]). When an op moves, its users at the top of the
//! region are visited again.

use std::collections::VecDeque;

use strata_ir::interfaces::{LoopLike, Speculatability, Speculation};
use strata_ir::pass::{Pass, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation, Region, Value, WalkOrder};

use crate::cse::effect_free;

#[pass(
    name = "loop-invariant-code-motion",
    display_name = "LoopInvariantCodeMotion",
    summary = "Hoist loop invariant instructions outside of the loop"
)]
pub(crate) struct LoopInvariantCodeMotion;

impl Pass for LoopInvariantCodeMotion {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let loops: Vec<(Operation, LoopLike)> = ctx
            .collect_ops(op, WalkOrder::PostOrder)
            .into_iter()
            .filter_map(|o| ctx.op_interface::<LoopLike>(o).map(|l| (o, *l)))
            .collect();
        let mut moved = 0;
        for (loop_op, looplike) in loops {
            for region in (looplike.loop_regions)(ctx, loop_op) {
                moved += hoist_from(ctx, loop_op, region);
            }
        }
        stats.add(
            "num-moved",
            "Number of operations moved out of loops",
            moved,
        );
        Ok(())
    }
}

/// Move the invariant ops of `region` (a body of `loop_op`) before the loop;
/// the number moved.
fn hoist_from(ctx: &mut Context, loop_op: Operation, region: Region) -> u64 {
    let mut worklist: VecDeque<Operation> = ctx
        .region_blocks(region)
        .flat_map(|b| ctx.block_ops(b))
        .collect();
    let mut moved = 0;
    while let Some(op) = worklist.pop_front() {
        // Skip ops already moved.
        if ctx.op_parent_region(op) != Some(region) {
            continue;
        }
        if !effect_free(ctx, op) || !is_speculatable(ctx, op) || !can_be_hoisted(ctx, op, loop_op) {
            continue;
        }
        ctx.detach_op(op);
        ctx.insert_op_before(loop_op, op);
        moved += 1;
        let results: Vec<Value> = ctx.results(op).collect();
        for result in results {
            for user in ctx.uses(result).map(|u| u.op).collect::<Vec<_>>() {
                if ctx.op_parent_region(user) == Some(region) {
                    worklist.push_back(user);
                }
            }
        }
    }
    moved
}

/// Whether `op` is not a terminator and every value it and the ops in its
/// regions use is defined outside `loop_op` or inside `op` itself (MLIR's
/// `canBeHoisted`).
fn can_be_hoisted(ctx: &Context, op: Operation, loop_op: Operation) -> bool {
    if ctx.op_definition(op).is_some_and(|d| d.traits.terminator) {
        return false;
    }
    let defined_in = |value: Value, ancestor: Operation| {
        ctx.value_parent_block(value)
            .and_then(|b| ctx.block_parent_op(b))
            .is_some_and(|parent| ctx.is_ancestor(ancestor, parent))
    };
    ctx.collect_ops(op, WalkOrder::PreOrder)
        .into_iter()
        .all(|inner| {
            ctx.operands(inner)
                .all(|v| defined_in(v, op) || !defined_in(v, loop_op))
        })
}

/// Whether `op` may run where the program would not run it (MLIR's
/// `isSpeculatable`): a `Pure` op always, an op with the [`Speculation`]
/// interface as it says (recursively: when every op in its regions may),
/// any other op never.
pub(crate) fn is_speculatable(ctx: &Context, op: Operation) -> bool {
    let Some(def) = ctx.op_definition(op) else {
        return false;
    };
    if def.traits.pure {
        return true;
    }
    let Some(speculation) = ctx.op_interface::<Speculation>(op) else {
        return false;
    };
    match (speculation.speculatability)(ctx, op) {
        Speculatability::NotSpeculatable => false,
        Speculatability::Speculatable => true,
        Speculatability::RecursivelySpeculatable => ctx
            .op_regions(op)
            .iter()
            .flat_map(|&r| ctx.region_blocks(r))
            .flat_map(|b| ctx.block_ops(b))
            .all(|inner| is_speculatable(ctx, inner)),
    }
}
