//! Region simplification run by the greedy driver between sweeps, as MLIR's
//! `simplifyRegions` (`RegionUtils.cpp`): blocks that control flow from the
//! entry block cannot reach are erased, then dead code (`runRegionDCE`):
//! ops without effects whose results nothing live uses, and the arguments
//! of non-entry blocks that nothing live uses, with the operands branches
//! pass them.

use rustc_hash::FxHashSet;

use crate::context::{Block, Context, Operation, Region};
use crate::dominance::reverse_post_order;
use crate::interfaces::Branch;
use crate::ir::Value;
use crate::rewrite::would_op_be_trivially_dead;
use crate::rewrite::RewriterListener;
use crate::walk::{WalkOrder, WalkResult};

/// How much the greedy driver simplifies regions between sweeps (MLIR's
/// `GreedySimplifyRegionLevel`, the canonicalizer's `region-simplify`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RegionSimplify {
    /// Leave the region tree alone.
    Disabled,
    /// Erase unreachable blocks and dead code (the default).
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

/// MLIR's `runRegionDCE` on `regions` and every region nested in them:
/// liveness is propagated backwards to a fixpoint (an op is live if it may
/// have effects, is a terminator, or a live op uses a result; a non-entry
/// block argument is live if a live op uses it, a branch that cannot say
/// which operand feeds it branches there, or it is produced by the branch;
/// an operand a branch passes to a dead argument does not make its value
/// live), then what is not live is erased, with the branch operands that
/// fed dead arguments. Every erased op is reported to `listener`. Returns
/// whether anything was erased.
pub fn run_region_dce(
    ctx: &mut Context,
    regions: &[Region],
    listener: &mut dyn RewriterListener,
) -> bool {
    let mut live = Liveness::default();
    loop {
        live.changed = false;
        for &region in regions {
            live.propagate_region(ctx, region);
        }
        if !live.changed {
            break;
        }
    }
    let mut erased = false;
    for &region in regions {
        erased |= delete_dead(ctx, region, &live, listener);
    }
    erased
}

#[derive(Default)]
struct Liveness {
    ops: FxHashSet<Operation>,
    values: FxHashSet<Value>,
    changed: bool,
}

impl Liveness {
    fn set_op(&mut self, op: Operation) {
        if self.ops.insert(op) {
            self.changed = true;
        }
    }

    /// A live result makes its op live.
    fn set_value(&mut self, value: Value) {
        if let Value::Result(op, _) = value {
            return self.set_op(op);
        }
        if self.values.insert(value) {
            self.changed = true;
        }
    }

    fn propagate_region(&mut self, ctx: &Context, region: Region) {
        let mut post = reverse_post_order(ctx, region);
        post.reverse();
        for block in post {
            let ops: Vec<Operation> = ctx.block_ops(block).collect();
            for &op in ops.iter().rev() {
                self.propagate_op(ctx, op);
            }
            // Entry block arguments are never removed: no need to track them.
            if ctx.is_entry_block(block) {
                continue;
            }
            for arg in ctx.block_args(block) {
                if !self.values.contains(&arg) {
                    self.process_value(ctx, arg);
                }
            }
        }
    }

    fn propagate_op(&mut self, ctx: &Context, op: Operation) {
        for &region in ctx.op_regions(op) {
            self.propagate_region(ctx, region);
        }
        let terminator = ctx.op_definition(op).is_some_and(|d| d.traits.terminator);
        if terminator {
            return self.propagate_terminator(ctx, op);
        }
        if self.ops.contains(&op) {
            return;
        }
        if !would_op_be_trivially_dead(ctx, op) {
            return self.set_op(op);
        }
        for result in ctx.results(op) {
            self.process_value(ctx, result);
        }
    }

    /// A terminator is live; the arguments of its successors that it does
    /// not pass an operand to (or all, when it cannot say) are live too.
    fn propagate_terminator(&mut self, ctx: &Context, op: Operation) {
        self.set_op(op);
        let successors: Vec<Block> = ctx.successors(op).collect();
        let branch = ctx.op_interface::<Branch>(op).copied();
        for (i, &successor) in successors.iter().enumerate() {
            // The arguments past the passed operands are produced by the
            // branch itself (MLIR's produced operands); a branch that cannot
            // say what it passes makes them all live.
            let forwarded = branch.map_or(0, |b| (b.successor_operands)(ctx, op, i).len());
            for arg in ctx.block_args(successor).skip(forwarded) {
                self.set_value(arg);
            }
        }
    }

    fn process_value(&mut self, ctx: &Context, value: Value) {
        let live = ctx
            .uses(value)
            .any(|user| !self.known_dead_use(ctx, user) && self.ops.contains(&user.op));
        if live {
            self.set_value(value);
        }
    }

    /// A branch operand feeding a dead successor argument is not a use.
    fn known_dead_use(&self, ctx: &Context, user: crate::ir::OpOperand) -> bool {
        let Some(branch) = ctx.op_interface::<Branch>(user.op).copied() else {
            return false;
        };
        let index = user.index as usize;
        for (i, successor) in ctx.successors(user.op).enumerate() {
            let range = (branch.successor_operands)(ctx, user.op, i);
            if range.contains(&index) {
                let arg = Value::Argument(successor, (index - range.start) as u32);
                return !self.values.contains(&arg);
            }
        }
        false
    }
}

/// MLIR's `deleteDeadness`.
fn delete_dead(
    ctx: &mut Context,
    region: Region,
    live: &Liveness,
    listener: &mut dyn RewriterListener,
) -> bool {
    let blocks: Vec<Block> = ctx.region_blocks(region).collect();
    let Some(&entry) = blocks.first() else {
        return false;
    };
    let single = blocks.len() == 1;
    let mut erased = false;
    let mut post = reverse_post_order(ctx, region);
    post.reverse();
    for block in post {
        if !single {
            if let Some(terminator) = ctx.block_last_op(block) {
                erase_dead_successor_operands(ctx, terminator, live);
            }
        }
        let ops: Vec<Operation> = ctx.block_ops(block).collect();
        for &op in ops.iter().rev() {
            if !live.ops.contains(&op) {
                erased = true;
                notify_erased(ctx, op, listener);
                // Users come first in post order (only a graph region may
                // still have a dead user left, erased later in this loop).
                ctx.erase_op(op);
            } else {
                let regions: Vec<Region> = ctx.op_regions(op).to_vec();
                for inner in regions {
                    erased |= delete_dead(ctx, inner, live, listener);
                }
            }
        }
    }
    for &block in blocks.iter().filter(|&&b| b != entry) {
        for index in (0..ctx.num_block_args(block)).rev() {
            let arg = Value::Argument(block, index as u32);
            if !live.values.contains(&arg) && ctx.use_empty(arg) {
                ctx.erase_block_argument(block, index);
            }
        }
    }
    erased
}

/// Drop the operands `terminator` passes to dead successor arguments.
fn erase_dead_successor_operands(ctx: &mut Context, terminator: Operation, live: &Liveness) {
    let Some(branch) = ctx.op_interface::<Branch>(terminator).copied() else {
        return;
    };
    let successors: Vec<Block> = ctx.successors(terminator).collect();
    for (i, &successor) in successors.iter().enumerate().rev() {
        let count = (branch.successor_operands)(ctx, terminator, i).len();
        for k in (0..count).rev() {
            if !live.values.contains(&Value::Argument(successor, k as u32)) {
                (branch.erase_successor_operand)(ctx, terminator, i, k);
            }
        }
    }
}
