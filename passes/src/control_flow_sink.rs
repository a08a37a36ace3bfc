//! `control-flow-sink`: move an op without memory effects into the region
//! of a region op that runs at most once (the ops with the
//! `RegionInvocationBounds` interface: `scf.if`, `scf.index_switch`) and
//! holds all its users, so that it only runs when its result is needed; as
//! MLIR's pass of that name.
//!
//! Region ops are visited innermost first, their regions in order. In each
//! region, its ops are visited last first; an op defined outside the region
//! that feeds one of them, whose users are all inside the region and which
//! has no memory effect, moves to the start of the region's entry block,
//! and is visited in turn (so that what feeds it can follow).

use strata_ir::interfaces::RegionInvocationBounds;
use strata_ir::pass::{Pass, Statistics};
use strata_ir::{pass, Attribute, Context, Diagnostic, Operation, Region, Value, WalkOrder};

use crate::cse::effect_free;

#[pass(
    name = "control-flow-sink",
    display_name = "ControlFlowSink",
    summary = "Sink operations into conditional blocks"
)]
pub(crate) struct ControlFlowSink;

impl Pass for ControlFlowSink {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let branches: Vec<(Operation, RegionInvocationBounds)> = ctx
            .collect_ops(op, WalkOrder::PostOrder)
            .into_iter()
            .filter_map(|o| {
                ctx.op_interface::<RegionInvocationBounds>(o)
                    .map(|b| (o, *b))
            })
            .collect();
        let mut sunk = 0;
        for (branch, bounds) in branches {
            let constants: Vec<Option<Attribute>> = ctx
                .operands(branch)
                .map(|v| strata_ir::rewrite::constant_attr(ctx, v))
                .collect();
            let upper = (bounds.upper_bounds)(ctx, branch, &constants);
            let regions: Vec<Region> = ctx.op_regions(branch).to_vec();
            for (region, bound) in regions.into_iter().zip(upper) {
                if bound.is_some_and(|b| b <= 1) {
                    sunk += sink_into(ctx, region);
                }
            }
        }
        stats.add("num-sunk", "Number of operations sunk", sunk);
        Ok(())
    }
}

/// Sink what can be sunk into `region` (MLIR's `Sinker::sinkRegion`); the
/// number of ops moved.
fn sink_into(ctx: &mut Context, region: Region) -> u64 {
    let Some(entry) = ctx.region_entry_block(region) else {
        return 0;
    };
    let mut stack: Vec<Operation> = ctx
        .region_blocks(region)
        .flat_map(|b| ctx.block_ops(b))
        .collect();
    let mut sunk = 0;
    while let Some(user) = stack.pop() {
        let operands: Vec<Value> = ctx.operands(user).collect();
        for value in operands {
            let Some(def) = ctx.defining_op(value) else {
                continue;
            };
            if ctx.op_parent_region(def) == Some(region) {
                continue;
            }
            if !all_users_inside(ctx, def, region) || !effect_free(ctx, def) {
                continue;
            }
            ctx.detach_op(def);
            match ctx.block_first_op(entry) {
                Some(first) => ctx.insert_op_before(first, def),
                None => ctx.append_op(entry, def),
            }
            sunk += 1;
            stack.push(def);
        }
    }
    sunk
}

/// Whether every user of `op`'s results is inside `region` (at any depth):
/// the region's entry block dominates their blocks.
fn all_users_inside(ctx: &Context, op: Operation, region: Region) -> bool {
    ctx.results(op)
        .all(|result| ctx.uses(result).all(|u| ctx.region_contains(region, u.op)))
}
