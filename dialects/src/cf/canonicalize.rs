//! The canonicalization patterns of `cf`, in MLIR 22's order: a branch to
//! a block only it reaches merges that block in; a branch through a block
//! that only branches on goes straight on; a conditional branch on a known
//! condition, or to one block with the same operands, becomes a branch; a
//! conditional branch whose block is reached only by a branch on the same
//! condition takes the way that one took; the condition is known true or
//! false in a successor it alone reaches; `cf.assert` on `true` goes; a
//! `cf.switch` with only a default, on a known flag, or reached through a
//! switch on the same flag takes the known way, and drops cases that go
//! where the default goes or cannot happen.

use strata_ir::rewrite::{constant_value, FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Block, Operation, OperationState, TypeKind, Value};

use super::ops::{BranchOp, CondBranchOp, SwitchOp};
use super::syntax::{case_operand_groups, case_values};

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

pub(super) fn switch_patterns(set: &mut RewritePatternSet) {
    let patterns: [(&'static str, SwitchPattern); 6] = [
        ("SimplifySwitchWithOnlyDefault", switch_only_default),
        (
            "DropSwitchCasesThatMatchDefault",
            drop_cases_matching_default,
        ),
        ("SimplifyConstSwitchValue", constant_switch),
        ("SimplifyPassThroughSwitch", pass_through_switch),
        (
            "SimplifySwitchFromSwitchOnSameCondition",
            switch_from_case_of_same_switch,
        ),
        (
            "SimplifySwitchFromDefaultSwitchOnSameCondition",
            switch_from_default_of_same_switch,
        ),
    ];
    for (name, pattern) in patterns {
        set.add(FnPattern::new(SwitchOp::NAME, name, pattern));
    }
}

type SwitchPattern = fn(Operation, &mut PatternRewriter<'_>) -> bool;

/// A `cf.switch` taken apart: its flag, default and cases.
struct Switch {
    flag: Value,
    default: (Block, Vec<Value>),
    /// Value (zero-extended from the flag's width), destination, operands.
    cases: Vec<(u128, Block, Vec<Value>)>,
}

impl Switch {
    fn of(rewriter: &PatternRewriter<'_>, op: Operation) -> Option<Switch> {
        let ctx = rewriter.ctx();
        let switch = SwitchOp(op);
        let flag = switch.flag(ctx)?;
        let successors: Vec<Block> = ctx.successors(op).collect();
        let (&default, dests) = successors.split_first()?;
        let values = case_values(ctx, op);
        let groups = case_operand_groups(ctx, op);
        if values.len() != dests.len() || groups.len() != dests.len() {
            return None;
        }
        let cases = values
            .into_iter()
            .zip(dests.iter().copied())
            .zip(groups)
            .map(|((v, d), g)| (v, d, g))
            .collect();
        Some(Switch {
            flag,
            default: (default, switch.default_operands(ctx)),
            cases,
        })
    }

    /// Replace `op` by a `cf.switch` of these parts (MLIR's
    /// `replaceOpWithNewOp<SwitchOp>`).
    fn replace(self, rewriter: &mut PatternRewriter<'_>, op: Operation) {
        let ctx = rewriter.ctx_mut();
        let loc = ctx.op_loc(op);
        let flag_type = ctx.value_type(self.flag);
        let width = ctx.int_or_float_bit_width(flag_type).unwrap_or(64);
        let mut state = OperationState::new(ctx.ident(SwitchOp::NAME), loc);
        let mut properties = Vec::new();
        if !self.cases.is_empty() {
            let ty = ctx.intern_type(TypeKind::Vector {
                shape: vec![self.cases.len() as i64],
                scalable: vec![false],
                element: flag_type,
            });
            let bytes = width.div_ceil(8) as usize;
            let raw: Vec<u8> = self
                .cases
                .iter()
                .flat_map(|(v, _, _)| {
                    let mut b = v.to_le_bytes().to_vec();
                    b.resize(bytes.max(16), 0);
                    b.truncate(bytes);
                    b
                })
                .collect();
            if let Some(attr) = ctx.dense_elements_attr(ty, raw) {
                properties.push((ctx.ident("case_values"), attr));
            }
        }
        let segments: Vec<usize> = self.cases.iter().map(|(_, _, o)| o.len()).collect();
        let segments = ctx.segment_sizes_attr(&segments);
        properties.push((ctx.ident("case_operand_segments"), segments));
        let case_operands: usize = self.cases.iter().map(|(_, _, o)| o.len()).sum();
        let sizes = ctx.segment_sizes_attr(&[1, self.default.1.len(), case_operands]);
        properties.push((ctx.ident("operandSegmentSizes"), sizes));
        state.properties = Some(ctx.dictionary_attr(properties));
        state.operands.push(self.flag);
        state.operands.extend(self.default.1.iter().copied());
        state.successors.push(self.default.0);
        for (_, dest, operands) in self.cases {
            state.operands.extend(operands);
            state.successors.push(dest);
        }
        let new = ctx.create_operation(state);
        replace_with(rewriter, op, new);
    }
}

/// Replace `op` by `cf.br dest(operands)`.
fn branch_to(rewriter: &mut PatternRewriter<'_>, op: Operation, dest: Block, operands: &[Value]) {
    let loc = rewriter.ctx().op_loc(op);
    let branch = BranchOp::build(rewriter.ctx_mut(), loc, operands, dest);
    replace_with(rewriter, op, branch.op());
}

/// MLIR's `simplifySwitchWithOnlyDefault`.
fn switch_only_default(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(switch) = Switch::of(rewriter, op) else {
        return false;
    };
    if !switch.cases.is_empty() {
        return false;
    }
    branch_to(rewriter, op, switch.default.0, &switch.default.1);
    true
}

/// MLIR's `dropSwitchCasesThatMatchDefault`: a case that goes where the
/// default goes, with the same operands, is dropped.
fn drop_cases_matching_default(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(mut switch) = Switch::of(rewriter, op) else {
        return false;
    };
    let before = switch.cases.len();
    let default = switch.default.clone();
    switch
        .cases
        .retain(|(_, dest, operands)| !(*dest == default.0 && *operands == default.1));
    if switch.cases.len() == before {
        return false;
    }
    switch.replace(rewriter, op);
    true
}

/// Replace `op` by a branch to the case of `value`, or to the default
/// (MLIR's `foldSwitch`).
fn fold_switch(rewriter: &mut PatternRewriter<'_>, op: Operation, switch: Switch, value: u128) {
    let (dest, operands) = match switch.cases.into_iter().find(|(v, _, _)| *v == value) {
        Some((_, dest, operands)) => (dest, operands),
        None => switch.default,
    };
    branch_to(rewriter, op, dest, &operands);
}

/// MLIR's `simplifyConstSwitchValue`.
fn constant_switch(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(switch) = Switch::of(rewriter, op) else {
        return false;
    };
    let Some(attr) = constant_value(rewriter.ctx_mut(), switch.flag) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let strata_ir::AttrKind::Integer { ty, value } = *ctx.attr_kind(attr) else {
        return false;
    };
    let value = super::verify::int_bits(ctx, ty, value);
    fold_switch(rewriter, op, switch, value);
    true
}

/// MLIR's `simplifyPassThroughSwitch`: each destination collapsed when it
/// only branches on.
fn pass_through_switch(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(mut switch) = Switch::of(rewriter, op) else {
        return false;
    };
    let mut changed = false;
    for (_, dest, operands) in switch.cases.iter_mut() {
        if let Some((next, passed)) = collapse(rewriter, *dest, operands) {
            (*dest, *operands) = (next, passed);
            changed = true;
        }
    }
    if let Some((next, passed)) = collapse(rewriter, switch.default.0, &switch.default.1) {
        switch.default = (next, passed);
        changed = true;
    }
    if !changed {
        return false;
    }
    switch.replace(rewriter, op);
    true
}

/// The `cf.switch` on the same flag that ends the only predecessor (one
/// edge) of `op`'s block, with that block.
fn predecessor_switch(
    rewriter: &PatternRewriter<'_>,
    op: Operation,
    flag: Value,
) -> Option<(Switch, Block)> {
    let block = block_of(rewriter, op)?;
    let [pred] = predecessors(rewriter, block)[..] else {
        return None;
    };
    if rewriter.ctx().op_name_str(pred) != SwitchOp::NAME {
        return None;
    }
    let pred_switch = Switch::of(rewriter, pred)?;
    (pred_switch.flag == flag).then_some((pred_switch, block))
}

/// MLIR's `simplifySwitchFromSwitchOnSameCondition`: reached through a case
/// of a switch on the same flag, the flag is that case's value.
fn switch_from_case_of_same_switch(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(switch) = Switch::of(rewriter, op) else {
        return false;
    };
    let Some((pred, block)) = predecessor_switch(rewriter, op, switch.flag) else {
        return false;
    };
    if pred.default.0 == block {
        return false;
    }
    match pred.cases.iter().find(|(_, dest, _)| *dest == block) {
        Some(&(value, _, _)) => fold_switch(rewriter, op, switch, value),
        None => branch_to(rewriter, op, switch.default.0, &switch.default.1),
    }
    true
}

/// MLIR's `simplifySwitchFromDefaultSwitchOnSameCondition`: reached through
/// the default of a switch on the same flag, the cases that switch sends
/// elsewhere cannot happen.
fn switch_from_default_of_same_switch(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(mut switch) = Switch::of(rewriter, op) else {
        return false;
    };
    let Some((pred, block)) = predecessor_switch(rewriter, op, switch.flag) else {
        return false;
    };
    if pred.default.0 != block {
        return false;
    }
    let impossible: Vec<u128> = pred
        .cases
        .iter()
        .filter(|(_, dest, _)| *dest != block)
        .map(|(v, _, _)| *v)
        .collect();
    let before = switch.cases.len();
    switch.cases.retain(|(v, _, _)| !impossible.contains(v));
    if switch.cases.len() == before {
        return false;
    }
    switch.replace(rewriter, op);
    true
}
