//! Canonicalization patterns of `scf.while`, all eight of MLIR 22's, in
//! its order. Most of them rebuild the loop with fewer or reordered
//! loop-carried or forwarded values; [`rebuild`] does that from a [`Plan`].

use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Block, Operation, Region, Type, Value};

use super::ops::{ConditionOp, WhileOp, YieldOp};
use crate::arith::{CmpIOp, CMPI_PREDICATE};
use crate::arith_patterns::invert_cmpi;

pub(super) fn while_patterns(set: &mut RewritePatternSet) {
    let patterns: [(&'static str, PatternFn); 8] = [
        (
            "RemoveLoopInvariantArgsFromBeforeBlock",
            invariant_before_args,
        ),
        ("RemoveLoopInvariantValueYielded", invariant_value_yielded),
        ("WhileConditionTruth", condition_truth),
        ("WhileCmpCond", cmp_cond),
        ("WhileUnusedResult", unused_result),
        ("WhileRemoveDuplicatedResults", duplicated_results),
        ("WhileRemoveUnusedArgs", unused_args),
        ("WhileOpAlignBeforeArgs", align_before_args),
    ];
    for (name, pattern) in patterns {
        set.add(FnPattern::new(WhileOp::NAME, name, pattern));
    }
}

type PatternFn = fn(Operation, &mut PatternRewriter<'_>) -> bool;

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

/// MLIR's `RemoveLoopInvariantArgsFromBeforeBlock`: a loop-carried value
/// that the `after` region yields back unchanged (its initial value, or the
/// `before` argument itself forwarded through `scf.condition`) is its
/// initial value on every iteration.
fn invariant_before_args(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((before, after, term)) = parts(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let Some(yield_op) = ctx.block_last_op(after) else {
        return false;
    };
    let inits: Vec<Value> = ctx.operands(op).collect();
    let yielded: Vec<Value> = ctx.operands(yield_op).collect();
    let before_args: Vec<Value> = ctx.block_args(before).collect();
    let forwarded: Vec<Value> = ctx.operands(term).skip(1).collect();
    let invariant = |i: usize| {
        let (init, value) = (inits[i], yielded[i]);
        if value == init {
            return true;
        }
        match value {
            Value::Argument(block, k) if block == after => forwarded
                .get(k as usize)
                .is_some_and(|&f| Some(&f) == before_args.get(i) || f == init),
            _ => false,
        }
    };
    let n = inits.len().min(yielded.len());
    if !(0..n).any(invariant) {
        return false;
    }
    let mut plan = Plan::keep(ctx, op, after);
    plan.inits.clear();
    plan.before.clear();
    let mut new_yielded = Vec::new();
    for i in 0..n {
        if invariant(i) {
            plan.before.push(Slot::Value(inits[i]));
        } else {
            plan.before.push(Slot::New(plan.inits.len()));
            plan.inits.push(inits[i]);
            new_yielded.push(yielded[i]);
        }
    }
    plan.yielded = Some(new_yielded);
    rebuild(op, rewriter, plan);
    true
}

/// MLIR's `RemoveLoopInvariantValueYielded`: a value `scf.condition`
/// forwards that is defined outside the `before` block replaces its
/// `after` argument and its result.
fn invariant_value_yielded(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((before, after, term)) = parts(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let forwarded: Vec<Value> = ctx.operands(term).skip(1).collect();
    let outside = |v: Value| ctx.value_parent_block(v) != Some(before);
    if !forwarded.iter().any(|&v| outside(v)) {
        return false;
    }
    let mut plan = Plan::keep(ctx, op, after);
    plan.after.clear();
    let mut kept = Vec::new();
    for &v in &forwarded {
        if outside(v) {
            plan.after.push(Slot::Value(v));
        } else {
            plan.after.push(Slot::New(kept.len()));
            kept.push(v);
        }
    }
    plan.forwarded = Some(kept);
    rebuild(op, rewriter, plan);
    true
}

/// MLIR's `WhileCmpCond`: where the condition is an `arith.cmpi` and the
/// `after` region compares a forwarded operand of it with its other
/// operand again, that comparison is known: `true` under the same
/// predicate, `false` under the inverse one.
fn cmp_cond(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((_, after, term)) = parts(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let Some(cmp) = ctx
        .defining_op(ctx.operand(term, 0))
        .filter(|&d| ctx.op_name_str(d) == CmpIOp::NAME)
    else {
        return false;
    };
    let predicate = |ctx: &strata_ir::Context, o: Operation| {
        CmpIOp(o)
            .predicate(ctx)
            .and_then(|p| CMPI_PREDICATE.value(ctx, p))
    };
    let Some(cmp_predicate) = predicate(ctx, cmp) else {
        return false;
    };
    let pairs: Vec<(Value, Value)> = ctx
        .operands(term)
        .skip(1)
        .zip(ctx.block_args(after))
        .collect();
    let mut changed = false;
    for (forwarded, arg) in pairs {
        for side in 0..2 {
            let ctx = rewriter.ctx();
            if forwarded != ctx.operand(cmp, side) {
                continue;
            }
            let mut users: Vec<Operation> = ctx.uses(arg).map(|u| u.op).collect();
            users.dedup();
            for user in users {
                let ctx = rewriter.ctx();
                if ctx.op_name_str(user) != CmpIOp::NAME
                    || ctx.operand(user, 1 - side) != ctx.operand(cmp, 1 - side)
                {
                    continue;
                }
                let value = match predicate(ctx, user) {
                    Some(p) if p == cmp_predicate => true,
                    Some(p) if Some(p) == invert_cmpi(cmp_predicate) => false,
                    _ => continue,
                };
                let loc = ctx.op_loc(user);
                let ctx = rewriter.ctx_mut();
                let ty = ctx.integer_type(1);
                let attr = ctx.bool_attr(value);
                let constant = crate::arith::ConstantOp::build(ctx, loc, attr, ty);
                rewriter.set_insertion_point(user);
                rewriter.insert(constant.op());
                rewriter.replace_op(user, &[Value::Result(constant.op(), 0)]);
                changed = true;
            }
        }
    }
    changed
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
    let mut plan = Plan::keep(ctx, op, after);
    plan.after.clear();
    let mut kept = Vec::new();
    for i in 0..results.len() {
        if ctx.use_empty(results[i]) && ctx.use_empty(args[i]) {
            plan.after.push(Slot::Gone);
        } else {
            plan.after.push(Slot::New(kept.len()));
            kept.push(forwarded[i]);
        }
    }
    if kept.len() == results.len() {
        return false;
    }
    plan.forwarded = Some(kept);
    rebuild(op, rewriter, plan);
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
    let mut plan = Plan::keep(ctx, op, after);
    plan.after.clear();
    let mut unique: Vec<Value> = Vec::new();
    for v in &forwarded {
        let k = unique.iter().position(|u| u == v).unwrap_or_else(|| {
            unique.push(*v);
            unique.len() - 1
        });
        plan.after.push(Slot::New(k));
    }
    if unique.len() == forwarded.len() {
        return false;
    }
    plan.forwarded = Some(unique);
    rebuild(op, rewriter, plan);
    true
}

/// MLIR's `WhileRemoveUnusedArgs`: a `before` argument without uses is not
/// carried any more (neither its initial nor its yielded value).
fn unused_args(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((before, after, _)) = parts(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let Some(yield_op) = ctx.block_last_op(after) else {
        return false;
    };
    let args: Vec<Value> = ctx.block_args(before).collect();
    if !args.iter().any(|&a| ctx.use_empty(a)) {
        return false;
    }
    let inits: Vec<Value> = ctx.operands(op).collect();
    let yielded: Vec<Value> = ctx.operands(yield_op).collect();
    let mut plan = Plan::keep(ctx, op, after);
    plan.inits.clear();
    plan.before.clear();
    let mut new_yielded = Vec::new();
    for ((&arg, &init), &value) in args.iter().zip(&inits).zip(&yielded) {
        if ctx.use_empty(arg) {
            plan.before.push(Slot::Gone);
        } else {
            plan.before.push(Slot::New(plan.inits.len()));
            plan.inits.push(init);
            new_yielded.push(value);
        }
    }
    plan.yielded = Some(new_yielded);
    rebuild(op, rewriter, plan);
    true
}

/// MLIR's `WhileOpAlignBeforeArgs`: when `scf.condition` forwards exactly
/// the `before` arguments, each once, in another order, it forwards them in
/// their own order; the results and `after` arguments follow.
fn align_before_args(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((before, after, term)) = parts(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let args: Vec<Value> = ctx.block_args(before).collect();
    let forwarded: Vec<Value> = ctx.operands(term).skip(1).collect();
    if args == forwarded || args.len() != forwarded.len() {
        return false;
    }
    let has_duplicates = forwarded
        .iter()
        .enumerate()
        .any(|(i, v)| forwarded[..i].contains(v));
    if has_duplicates {
        return false;
    }
    // `position[k]`: the `before` argument forwarded at position `k`.
    let mut position = vec![0; forwarded.len()];
    for (i, arg) in args.iter().enumerate() {
        let Some(k) = forwarded.iter().position(|v| v == arg) else {
            return false;
        };
        position[k] = i;
    }
    let mut plan = Plan::keep(ctx, op, after);
    plan.after = position.into_iter().map(Slot::New).collect();
    plan.forwarded = Some(args);
    plan.merge = true;
    rebuild(op, rewriter, plan);
    true
}

/// Where an old `before` argument, or an old `after` argument and the
/// result beside it, goes in the rebuilt loop.
#[derive(Clone, Copy)]
enum Slot {
    /// The new loop's argument (and result) at this position.
    New(usize),
    /// A value from outside the region, which replaces it.
    Value(Value),
    /// Nothing: it has no uses.
    Gone,
}

/// How [`rebuild`] makes the new loop: its operands, what each old
/// argument and result becomes, and the new terminator operands (`None`:
/// the terminator stays).
struct Plan {
    inits: Vec<Value>,
    before: Vec<Slot>,
    after: Vec<Slot>,
    yielded: Option<Vec<Value>>,
    forwarded: Option<Vec<Value>>,
    /// Move the ops of both blocks one by one, telling the rewriter's
    /// listener of each (MLIR's `mergeBlocks`, as `WhileOpAlignBeforeArgs`
    /// does; the other patterns move whole regions silently).
    merge: bool,
}

impl Plan {
    /// The plan that keeps everything as it is, for a pattern to change.
    fn keep(ctx: &strata_ir::Context, op: Operation, after: Block) -> Plan {
        Plan {
            inits: ctx.operands(op).collect(),
            before: (0..ctx.num_operands(op)).map(Slot::New).collect(),
            after: (0..ctx.num_block_args(after)).map(Slot::New).collect(),
            yielded: None,
            forwarded: None,
            merge: false,
        }
    }
}

/// Replace `op` by an `scf.while` made as `plan` says: the blocks of the
/// new regions take new arguments, and the old ones' operations.
fn rebuild(op: Operation, rewriter: &mut PatternRewriter<'_>, plan: Plan) {
    let Some((before, after, term)) = parts(rewriter, op) else {
        return;
    };
    let ctx = rewriter.ctx();
    let Some(yield_op) = ctx.block_last_op(after) else {
        return;
    };
    let loc = ctx.op_loc(op);
    let forwarded: Vec<Value> = match &plan.forwarded {
        Some(values) => values.clone(),
        None => ctx.operands(term).skip(1).collect(),
    };
    let types: Vec<Type> = forwarded.iter().map(|&v| ctx.value_type(v)).collect();
    let init_types: Vec<Type> = plan.inits.iter().map(|&v| ctx.value_type(v)).collect();
    let results: Vec<Value> = ctx.results(op).collect();

    if let Some(values) = &plan.forwarded {
        let (term_loc, condition) = (ctx.op_loc(term), ctx.operand(term, 0));
        let new_term = ConditionOp::build(rewriter.ctx_mut(), term_loc, condition, values);
        rewriter.set_insertion_point(term);
        rewriter.insert(new_term.op());
        rewriter.erase_op(term);
    }
    if let Some(values) = &plan.yielded {
        let yield_loc = rewriter.ctx().op_loc(yield_op);
        let new_yield = YieldOp::build(rewriter.ctx_mut(), yield_loc, values);
        rewriter.set_insertion_point(yield_op);
        rewriter.insert(new_yield.op());
        rewriter.erase_op(yield_op);
    }

    let new_while = WhileOp::build(rewriter.ctx_mut(), loc, &plan.inits, &types);
    rewriter.set_insertion_point(op);
    rewriter.insert(new_while.op());
    let new_regions: Vec<Region> = rewriter.ctx().op_regions(new_while.op()).to_vec();
    move_block(
        rewriter,
        before,
        new_regions[0],
        &init_types,
        (&plan.before, plan.merge),
        loc,
    );
    let after_slots = (&plan.after[..], plan.merge);
    move_block(rewriter, after, new_regions[1], &types, after_slots, loc);
    for (&result, &slot) in results.iter().zip(&plan.after) {
        if let Some(value) = slot_value(slot, |k| Value::Result(new_while.op(), k as u32)) {
            rewriter.replace_all_uses_with(result, value);
        }
    }
    rewriter.erase_op(op);
}

/// The value that replaces an old argument or result in `slot`; `new`
/// gives the new loop's value at a position.
fn slot_value(slot: Slot, new: impl Fn(usize) -> Value) -> Option<Value> {
    match slot {
        Slot::New(k) => Some(new(k)),
        Slot::Value(v) => Some(v),
        Slot::Gone => None,
    }
}

/// Move the operations of `block` into a new block of `region` with
/// arguments of `types`, replacing each old argument as `slots` says.
fn move_block(
    rewriter: &mut PatternRewriter<'_>,
    block: Block,
    region: Region,
    types: &[Type],
    (slots, merge): (&[Slot], bool),
    loc: strata_ir::Location,
) {
    let ctx = rewriter.ctx_mut();
    let old_args: Vec<Value> = ctx.block_args(block).collect();
    let new_block = ctx.create_block();
    ctx.append_block(region, new_block);
    // A kept argument keeps its location.
    let mut locs = vec![loc; types.len()];
    for (i, slot) in slots.iter().enumerate() {
        if let Slot::New(k) = *slot {
            if k < locs.len() && i < old_args.len() {
                locs[k] = ctx.block_arg_loc(block, i);
            }
        }
    }
    let new_args: Vec<Value> = types
        .iter()
        .zip(locs)
        .map(|(&ty, l)| ctx.add_block_argument(new_block, ty, l))
        .collect();
    for (&arg, &slot) in old_args.iter().zip(slots) {
        if let Some(value) = slot_value(slot, |k| new_args[k]) {
            rewriter.replace_all_uses_with(arg, value);
        }
    }
    let ops: Vec<Operation> = rewriter.ctx().block_ops(block).collect();
    rewriter.set_insertion_point_to_end(new_block);
    for inner in ops {
        rewriter.ctx_mut().detach_op(inner);
        if merge {
            rewriter.insert(inner);
        } else {
            rewriter.ctx_mut().append_op(new_block, inner);
        }
    }
}
