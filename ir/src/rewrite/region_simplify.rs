//! Region simplification run by the greedy driver between sweeps, as MLIR's
//! `simplifyRegions` (`RegionUtils.cpp`): blocks that control flow from the
//! entry block cannot reach are erased.

use rustc_hash::FxHashSet;

use crate::context::{Block, Context, Operation, Region};
use crate::dominance::reverse_post_order;
use crate::ir::Value;
use crate::rewrite::RewriterListener;
use crate::walk::{WalkOrder, WalkResult};

/// How much the greedy driver simplifies regions between sweeps (MLIR's
/// `GreedySimplifyRegionLevel`, the canonicalizer's `region-simplify`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RegionSimplify {
    /// Leave the region tree alone.
    Disabled,
    /// Erase unreachable blocks (the default).
    #[default]
    Normal,
    /// [`Normal`](Self::Normal); MLIR also merges identical blocks here,
    /// which strata does not do yet.
    Aggressive,
}

/// Erase, in `regions` and every region nested in them, the blocks that no
/// path of successors from their region's entry block reaches. Blocks whose
/// values are still used from outside the unreachable set are kept (only
/// invalid IR can have such uses). Every erased op is reported to
/// `listener`. Returns whether anything was erased.
pub fn erase_unreachable_blocks(
    ctx: &mut Context,
    regions: &[Region],
    listener: &mut dyn RewriterListener,
) -> bool {
    let mut changed = false;
    let mut worklist: Vec<Region> = regions.to_vec();
    while let Some(region) = worklist.pop() {
        let blocks: Vec<Block> = ctx.region_blocks(region).collect();
        if blocks.is_empty() {
            continue;
        }
        let reachable: FxHashSet<Block> = if blocks.len() == 1 {
            blocks.iter().copied().collect()
        } else {
            reverse_post_order(ctx, region).into_iter().collect()
        };
        let dead: Vec<Block> = blocks
            .iter()
            .copied()
            .filter(|b| !reachable.contains(b))
            .collect();
        if !dead.is_empty() && only_used_within(ctx, &dead) {
            for &block in &dead {
                for op in ctx.block_ops(block).collect::<Vec<Operation>>() {
                    notify_erased(ctx, op, listener);
                }
            }
            for block in dead {
                ctx.erase_block(block);
            }
            changed = true;
        }
        for block in blocks.into_iter().filter(|b| reachable.contains(b)) {
            for op in ctx.block_ops(block) {
                worklist.extend(ctx.op_regions(op).iter().copied());
            }
        }
    }
    changed
}

/// Whether every use of a value defined in `blocks` (arguments, results,
/// nested results) and every branch to them comes from inside `blocks`.
fn only_used_within(ctx: &Context, blocks: &[Block]) -> bool {
    let inside = |op: Operation| {
        let mut current = Some(op);
        while let Some(o) = current {
            match ctx.op_parent_block(o) {
                Some(b) if blocks.contains(&b) => return true,
                _ => current = ctx.op_parent_op(o),
            }
        }
        false
    };
    blocks.iter().all(|&block| {
        let branches_inside = ctx.block_predecessors(block).all(|p| inside(p.op));
        let args_inside = ctx
            .block_args(block)
            .all(|v| ctx.uses(v).all(|u| inside(u.op)));
        let only_inside = |v: Value| ctx.uses(v).all(|u| inside(u.op));
        let results_inside = !ctx
            .walk(block, WalkOrder::PreOrder, |op| {
                let nested_args = ctx
                    .op_regions(op)
                    .iter()
                    .flat_map(|&r| ctx.region_blocks(r))
                    .all(|b| ctx.block_args(b).all(only_inside));
                if ctx.results(op).all(only_inside) && nested_args {
                    WalkResult::Advance
                } else {
                    WalkResult::Interrupt
                }
            })
            .was_interrupted();
        branches_inside && args_inside && results_inside
    })
}

/// Report `op` and everything nested in it (innermost first) as erased.
fn notify_erased(ctx: &Context, op: Operation, listener: &mut dyn RewriterListener) {
    ctx.walk(op, WalkOrder::PostOrder, |inner| {
        listener.notify_operation_erased(ctx, inner);
        WalkResult::Advance
    });
}
