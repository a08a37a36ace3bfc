//! Canonicalization patterns of `scf.while`, in MLIR 22's order (those
//! strata has so far): a value forwarded by `scf.condition` that is the
//! condition itself is `true` in the `after` region; results that neither
//! the `after` region nor any user reads are dropped; a value forwarded
//! twice is forwarded once.

use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Block, Operation, Region, Type, Value};

use super::ops::{ConditionOp, WhileOp};

pub(super) fn while_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        "scf.while",
        "WhileConditionTruth",
        condition_truth,
    ));
    set.add(FnPattern::new(
        "scf.while",
        "WhileUnusedResult",
        unused_result,
    ));
    set.add(FnPattern::new(
        "scf.while",
        "WhileRemoveDuplicatedResults",
        duplicated_results,
    ));
}

/// The entry blocks of the `before` and `after` regions, and the
/// `scf.condition` ending `before`.
fn parts(rewriter: &PatternRewriter<'_>, op: Operation) -> Option<(Block, Block, Operation)> {
    let ctx = rewriter.ctx();
    let regions = ctx.op_regions(op);
    let before = ctx.region_entry_block(*regions.first()?)?;
    let after = ctx.region_entry_block(*regions.get(1)?)?;
    let condition = ctx
        .block_last_op(before)
        .filter(|&t| ctx.op_name_str(t) == ConditionOp::NAME)?;
    Some((before, after, condition))
}

/// MLIR's `WhileConditionTruth`: the `after` region runs only when the
/// condition holds, so an argument it receives from the condition itself
/// is `true` there.
fn condition_truth(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((_, after, term)) = parts(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let condition = ctx.operand(term, 0);
    let forwarded: Vec<Value> = ctx.operands(term).skip(1).collect();
    let args: Vec<Value> = ctx.block_args(after).collect();
    let targets: Vec<Value> = forwarded
        .iter()
        .zip(&args)
        .filter(|(&v, &arg)| v == condition && !ctx.use_empty(arg))
        .map(|(_, &arg)| arg)
        .collect();
    if targets.is_empty() {
        return false;
    }
    let loc = ctx.op_loc(op);
    let ty = ctx.value_type(condition);
    rewriter.set_insertion_point(op);
    let attr = rewriter.ctx_mut().bool_attr(true);
    let constant = crate::arith::ConstantOp::build(rewriter.ctx_mut(), loc, attr, ty);
    rewriter.insert(constant.op());
    for arg in targets {
        rewriter.replace_all_uses_with(arg, Value::Result(constant.op(), 0));
    }
    true
}

/// MLIR's `WhileUnusedResult`: a result unused outside and whose `after`
/// argument is unused inside is not forwarded any more.
fn unused_result(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((_, after, term)) = parts(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let results: Vec<Value> = ctx.results(op).collect();
    let args: Vec<Value> = ctx.block_args(after).collect();
    let forwarded: Vec<Value> = ctx.operands(term).skip(1).collect();
    if args.len() != results.len() || forwarded.len() != results.len() {
        return false;
    }
    let mut kept = Vec::new();
    let map: Vec<Option<usize>> = (0..results.len())
        .map(|i| {
            if ctx.use_empty(results[i]) && ctx.use_empty(args[i]) {
                return None;
            }
            kept.push(forwarded[i]);
            Some(kept.len() - 1)
        })
        .collect();
    if kept.len() == results.len() {
        return false;
    }
    rebuild(op, rewriter, &kept, &map);
    true
}

/// MLIR's `WhileRemoveDuplicatedResults`: a value `scf.condition` forwards
/// twice is forwarded once, its results and `after` arguments merged.
fn duplicated_results(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((_, after, term)) = parts(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let forwarded: Vec<Value> = ctx.operands(term).skip(1).collect();
    if forwarded.len() != ctx.num_results(op) || forwarded.len() != ctx.num_block_args(after) {
        return false;
    }
    let mut unique: Vec<Value> = Vec::new();
    let map: Vec<Option<usize>> = forwarded
        .iter()
        .map(|v| match unique.iter().position(|u| u == v) {
            Some(k) => Some(k),
            None => {
                unique.push(*v);
                Some(unique.len() - 1)
            }
        })
        .collect();
    if unique.len() == forwarded.len() {
        return false;
    }
    rebuild(op, rewriter, &unique, &map);
    true
}

/// Replace `op` by an `scf.while` whose `scf.condition` forwards
/// `forwarded`: its `before` region is `op`'s, its `after` block takes one
/// argument per forwarded value, and old result or `after` argument `i`
/// becomes new one `map[i]` (`None`: it has no uses).
fn rebuild(
    op: Operation,
    rewriter: &mut PatternRewriter<'_>,
    forwarded: &[Value],
    map: &[Option<usize>],
) {
    let Some((_, after, term)) = parts(rewriter, op) else {
        return;
    };
    let ctx = rewriter.ctx();
    let loc = ctx.op_loc(op);
    let term_loc = ctx.op_loc(term);
    let condition = ctx.operand(term, 0);
    let inits: Vec<Value> = ctx.operands(op).collect();
    let types: Vec<Type> = forwarded.iter().map(|&v| ctx.value_type(v)).collect();
    let results: Vec<Value> = ctx.results(op).collect();
    let args: Vec<Value> = ctx.block_args(after).collect();

    // The condition forwards the new values.
    let new_term = ConditionOp::build(rewriter.ctx_mut(), term_loc, condition, forwarded);
    rewriter.set_insertion_point(term);
    rewriter.insert(new_term.op());
    rewriter.erase_op(term);

    // A new loop takes the old `before` region and a new `after` block.
    let new_while = WhileOp::build(rewriter.ctx_mut(), loc, &inits, &types);
    rewriter.set_insertion_point(op);
    rewriter.insert(new_while.op());
    let ctx = rewriter.ctx_mut();
    let old_regions: Vec<Region> = ctx.op_regions(op).to_vec();
    let new_regions: Vec<Region> = ctx.op_regions(new_while.op()).to_vec();
    move_blocks(ctx, old_regions[0], new_regions[0]);
    let new_after = ctx.create_block();
    ctx.append_block(new_regions[1], new_after);
    let mut new_args = Vec::with_capacity(types.len());
    for &ty in &types {
        new_args.push(ctx.add_block_argument(new_after, ty, loc));
    }
    for (i, &target) in map.iter().enumerate() {
        if let (Some(k), Some(&arg)) = (target, args.get(i)) {
            rewriter.replace_all_uses_with(arg, new_args[k]);
        }
    }
    let ctx = rewriter.ctx_mut();
    let ops: Vec<Operation> = ctx.block_ops(after).collect();
    for inner in ops {
        ctx.detach_op(inner);
        ctx.append_op(new_after, inner);
    }
    for (i, &target) in map.iter().enumerate() {
        if let (Some(k), Some(&result)) = (target, results.get(i)) {
            rewriter.replace_all_uses_with(result, Value::Result(new_while.op(), k as u32));
        }
    }
    rewriter.erase_op(op);
}

/// Move every block of `from` to the end of `to`.
fn move_blocks(ctx: &mut strata_ir::Context, from: Region, to: Region) {
    let blocks: Vec<Block> = ctx.region_blocks(from).collect();
    for block in blocks {
        ctx.detach_block(block);
        ctx.append_block(to, block);
    }
}
