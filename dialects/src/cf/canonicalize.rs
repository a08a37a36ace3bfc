//! The canonicalization patterns of `cf`, in MLIR 22's order: a branch to
//! a block only it reaches merges that block in; a branch through a block
//! that only branches on goes straight on; a conditional branch on a known
//! condition, or to one block with the same operands, becomes a branch; a
//! conditional branch whose block is reached only by a branch on the same
//! condition takes the way that one took; the condition is known true or
//! false in a successor it alone reaches; `cf.assert` on `true` goes.

use strata_ir::rewrite::{constant_value, FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Block, Operation, Value};

use super::ops::{BranchOp, CondBranchOp};

pub(super) fn br_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        "cf.br",
        "SimplifyBrToBlockWithSinglePred",
        merge_single_predecessor,
    ));
    set.add(FnPattern::new(
        "cf.br",
        "SimplifyPassThroughBr",
        pass_through_br,
    ));
}

pub(super) fn cond_br_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        "cf.cond_br",
        "SimplifyConstCondBranchPred",
        constant_condition,
    ));
    set.add(FnPattern::new(
        "cf.cond_br",
        "SimplifyPassThroughCondBranch",
        pass_through_cond_br,
    ));
    set.add(FnPattern::new(
        "cf.cond_br",
        "SimplifyCondBranchIdenticalSuccessors",
        identical_successors,
    ));
    set.add(FnPattern::new(
        "cf.cond_br",
        "SimplifyCondBranchFromCondBranchOnSameCondition",
        same_condition_as_predecessor,
    ));
    set.add(FnPattern::new(
        "cf.cond_br",
        "CondBranchTruthPropagation",
        propagate_truth,
    ));
}

pub(super) fn assert_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        "cf.assert",
        "EraseRedundantAssertions",
        |op, rewriter| {
            let arg = rewriter.ctx().operand(op, 0);
            if constant_bool(rewriter, arg) != Some(true) {
                return false;
            }
            rewriter.erase_op(op);
            true
        },
    ));
}

/// The boolean a constant-like value holds.
fn constant_bool(rewriter: &mut PatternRewriter<'_>, value: Value) -> Option<bool> {
    let attr = constant_value(rewriter.ctx_mut(), value)?;
    rewriter.ctx().bool_value(attr)
}

/// The blocks that branch to `block`, once per branch edge.
fn predecessors(rewriter: &PatternRewriter<'_>, block: Block) -> Vec<Operation> {
    rewriter
        .ctx()
        .block_predecessors(block)
        .map(|p| p.op)
        .collect()
}

/// The block `op` is in (branches always are).
fn block_of(rewriter: &PatternRewriter<'_>, op: Operation) -> Option<Block> {
    rewriter.ctx().op_parent_block(op)
}

/// MLIR's `SimplifyBrToBlockWithSinglePred`: the destination, reached from
/// this branch only, is merged into the branch's block.
fn merge_single_predecessor(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(dest) = rewriter.ctx().successors(op).next() else {
        return false;
    };
    if block_of(rewriter, op) == Some(dest) || predecessors(rewriter, dest).len() != 1 {
        return false;
    }
    let Some(block) = block_of(rewriter, op) else {
        return false;
    };
    let operands: Vec<Value> = rewriter.ctx().operands(op).collect();
    rewriter.erase_op(op);
    merge_blocks(rewriter, dest, block, &operands);
    true
}

/// Move the ops of `source` to the end of `dest`, its arguments replaced by
/// `values`, and erase `source` (MLIR's `RewriterBase::mergeBlocks`).
fn merge_blocks(rewriter: &mut PatternRewriter<'_>, source: Block, dest: Block, values: &[Value]) {
    let args: Vec<Value> = rewriter.ctx().block_args(source).collect();
    for (&arg, &value) in args.iter().zip(values) {
        rewriter.replace_all_uses_with(arg, value);
    }
    let ctx = rewriter.ctx_mut();
    let ops: Vec<Operation> = ctx.block_ops(source).collect();
    for op in ops {
        ctx.detach_op(op);
        ctx.append_op(dest, op);
    }
    ctx.erase_block(source);
}

/// MLIR's `collapseBranch`: when `dest` holds only a `cf.br` elsewhere,
/// whose operands use `dest`'s arguments at most, the branch can go to
/// that block directly: its destination and operands (in terms of
/// `operands`, those passed to `dest`).
fn collapse(
    rewriter: &PatternRewriter<'_>,
    dest: Block,
    operands: &[Value],
) -> Option<(Block, Vec<Value>)> {
    let ctx = rewriter.ctx();
    let only = ctx.block_first_op(dest)?;
    if ctx.op_next(only).is_some() || ctx.op_name_str(only) != BranchOp::NAME {
        return None;
    }
    let only_used_there = ctx
        .block_args(dest)
        .all(|arg| ctx.uses(arg).all(|u| u.op == only));
    let next = ctx.successors(only).next()?;
    if !only_used_there || next == dest {
        return None;
    }
    // Not through a cycle of unconditional branches either.
    let mut visited = vec![dest, next];
    let mut current = ctx.block_last_op(next);
    while let Some(branch) = current.filter(|&b| ctx.op_name_str(b) == BranchOp::NAME) {
        let Some(target) = ctx.successors(branch).next() else {
            break;
        };
        if visited.contains(&target) {
            return None;
        }
        visited.push(target);
        current = ctx.block_last_op(target);
    }
    let passed = ctx
        .operands(only)
        .map(|v| match v {
            Value::Argument(b, i) if b == dest => operands.get(i as usize).copied(),
            other => Some(other),
        })
        .collect::<Option<Vec<Value>>>()?;
    Some((next, passed))
}

/// MLIR's `SimplifyPassThroughBr`.
fn pass_through_br(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(dest) = rewriter.ctx().successors(op).next() else {
        return false;
    };
    if block_of(rewriter, op) == Some(dest) {
        return false;
    }
    let operands: Vec<Value> = rewriter.ctx().operands(op).collect();
    let Some((next, passed)) = collapse(rewriter, dest, &operands) else {
        return false;
    };
    let loc = rewriter.ctx().op_loc(op);
    let branch = BranchOp::build(rewriter.ctx_mut(), loc, &passed, next);
    replace_with(rewriter, op, branch.op());
    true
}

/// Insert `new` before `op` and erase `op` (a terminator: no results).
fn replace_with(rewriter: &mut PatternRewriter<'_>, op: Operation, new: Operation) {
    rewriter.set_insertion_point(op);
    rewriter.insert(new);
    rewriter.erase_op(op);
}

/// MLIR's `SimplifyConstCondBranchPred`.
fn constant_condition(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let condition = rewriter.ctx().operand(op, 0);
    let Some(taken) = constant_bool(rewriter, condition) else {
        return false;
    };
    take_side(op, rewriter, taken)
}

/// Replace `cf.cond_br` `op` by a `cf.br` to its true (or false)
/// destination, with that destination's operands.
fn take_side(op: Operation, rewriter: &mut PatternRewriter<'_>, on_true: bool) -> bool {
    let branch = CondBranchOp(op);
    let ctx = rewriter.ctx();
    let (dest, operands) = if on_true {
        (branch.true_dest(ctx), branch.true_dest_operands(ctx))
    } else {
        (branch.false_dest(ctx), branch.false_dest_operands(ctx))
    };
    let Some(dest) = dest else {
        return false;
    };
    let loc = ctx.op_loc(op);
    let new = BranchOp::build(rewriter.ctx_mut(), loc, &operands, dest);
    replace_with(rewriter, op, new.op());
    true
}

/// MLIR's `SimplifyPassThroughCondBranch`: each successor collapsed when
/// it only branches on.
fn pass_through_cond_br(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let branch = CondBranchOp(op);
    let ctx = rewriter.ctx();
    let (Some(true_dest), Some(false_dest)) = (branch.true_dest(ctx), branch.false_dest(ctx))
    else {
        return false;
    };
    let (true_operands, false_operands) = (
        branch.true_dest_operands(ctx),
        branch.false_dest_operands(ctx),
    );
    let weights = branch.branch_weights(ctx);
    let condition = ctx.operand(op, 0);
    let collapsed_true = collapse(rewriter, true_dest, &true_operands);
    let collapsed_false = collapse(rewriter, false_dest, &false_operands);
    if collapsed_true.is_none() && collapsed_false.is_none() {
        return false;
    }
    let (true_dest, true_operands) = collapsed_true.unwrap_or((true_dest, true_operands));
    let (false_dest, false_operands) = collapsed_false.unwrap_or((false_dest, false_operands));
    let loc = rewriter.ctx().op_loc(op);
    let new = CondBranchOp::build(
        rewriter.ctx_mut(),
        loc,
        condition,
        &true_operands,
        &false_operands,
        weights,
        true_dest,
        false_dest,
    );
    replace_with(rewriter, op, new.op());
    true
}

/// MLIR's `SimplifyCondBranchIdenticalSuccessors`: one destination; the
/// operands that differ become `arith.select`s on the condition (only when
/// this block alone reaches the destination).
fn identical_successors(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let branch = CondBranchOp(op);
    let ctx = rewriter.ctx();
    let (Some(dest), Some(other)) = (branch.true_dest(ctx), branch.false_dest(ctx)) else {
        return false;
    };
    if dest != other {
        return false;
    }
    let (true_operands, false_operands) = (
        branch.true_dest_operands(ctx),
        branch.false_dest_operands(ctx),
    );
    let condition = ctx.operand(op, 0);
    let loc = ctx.op_loc(op);
    if true_operands == false_operands {
        let new = BranchOp::build(rewriter.ctx_mut(), loc, &true_operands, dest);
        replace_with(rewriter, op, new.op());
        return true;
    }
    let unique = {
        let preds = predecessors(rewriter, dest);
        let from: Vec<Option<Block>> = preds.iter().map(|&p| block_of(rewriter, p)).collect();
        from.iter().all(|&b| b == block_of(rewriter, op))
    };
    if !unique {
        return false;
    }
    rewriter.set_insertion_point(op);
    let mut merged = Vec::with_capacity(true_operands.len());
    for (&t, &f) in true_operands.iter().zip(&false_operands) {
        if t == f {
            merged.push(t);
            continue;
        }
        let ty = rewriter.ctx().value_type(t);
        let select = crate::arith::SelectOp::build(rewriter.ctx_mut(), loc, condition, t, f, ty);
        rewriter.insert(select.op());
        merged.push(Value::Result(select.op(), 0));
    }
    let new = BranchOp::build(rewriter.ctx_mut(), loc, &merged, dest);
    replace_with(rewriter, op, new.op());
    true
}

/// MLIR's `SimplifyCondBranchFromCondBranchOnSameCondition`: this block's
/// single predecessor branched on the same condition to this block on one
/// side only, so the condition is known here.
fn same_condition_as_predecessor(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(block) = block_of(rewriter, op) else {
        return false;
    };
    let preds = predecessors(rewriter, block);
    let [pred] = preds.as_slice() else {
        return false;
    };
    let ctx = rewriter.ctx();
    if ctx.op_name_str(*pred) != CondBranchOp::NAME || ctx.operand(*pred, 0) != ctx.operand(op, 0) {
        return false;
    }
    let previous = CondBranchOp(*pred);
    let (on_true, on_false) = (
        previous.true_dest(ctx) == Some(block),
        previous.false_dest(ctx) == Some(block),
    );
    if on_true == on_false {
        return false;
    }
    take_side(op, rewriter, on_true)
}

/// MLIR's `CondBranchTruthPropagation`: in a successor that only this
/// edge reaches, the condition is a constant (made before the branch, once
/// per value, for the uses directly in that block).
fn propagate_truth(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let branch = CondBranchOp(op);
    let ctx = rewriter.ctx();
    let (Some(true_dest), Some(false_dest)) = (branch.true_dest(ctx), branch.false_dest(ctx))
    else {
        return false;
    };
    let condition = ctx.operand(op, 0);
    let loc = ctx.op_loc(op);
    let mut changed = false;
    for (dest, value) in [(true_dest, true), (false_dest, false)] {
        if predecessors(rewriter, dest).len() != 1 {
            continue;
        }
        let ctx = rewriter.ctx();
        let uses: Vec<_> = ctx
            .uses(condition)
            .filter(|u| ctx.op_parent_block(u.op) == Some(dest))
            .collect();
        if uses.is_empty() {
            continue;
        }
        rewriter.set_insertion_point(op);
        let attr = rewriter.ctx_mut().bool_attr(value);
        let ty = rewriter.ctx_mut().integer_type(1);
        let constant = crate::arith::ConstantOp::build(rewriter.ctx_mut(), loc, attr, ty);
        rewriter.insert(constant.op());
        let constant = Value::Result(constant.op(), 0);
        for user in uses {
            rewriter.modify_op_in_place(user.op, |ctx| {
                ctx.set_operand(user.op, user.index as usize, constant)
            });
        }
        changed = true;
    }
    changed
}
