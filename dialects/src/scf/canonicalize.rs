//! The canonicalization patterns of `scf.if` and `scf.for`, in MLIR's order.

use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Operation, OperationState, Region, Type, Value};

use crate::scf::ops::{ForOp, IfOp, YieldOp};
use crate::scf::terminator;

/// The integer an `arith.constant`-like value holds.
fn constant_int(rewriter: &mut PatternRewriter<'_>, value: Value) -> Option<i128> {
    let attr = strata_ir::rewrite::constant_value(rewriter.ctx_mut(), value)?;
    match rewriter.ctx().attr_kind(attr) {
        strata_ir::AttrKind::Integer { ty, value } => {
            let width = rewriter.ctx().int_or_float_bit_width(*ty)?;
            Some(strata_ir::attributes::sign_extend(*value, width))
        }
        _ => None,
    }
}

/// Move the ops of `block` but its terminator before `before`, with the
/// block's arguments replaced by `args`; returns the terminator's operands.
fn inline_block_before(
    rewriter: &mut PatternRewriter<'_>,
    block: strata_ir::Block,
    before: Operation,
    args: &[Value],
) -> Vec<Value> {
    let params: Vec<Value> = rewriter.ctx().block_args(block).collect();
    for (&param, &arg) in params.iter().zip(args) {
        rewriter.replace_all_uses_with(param, arg);
    }
    let ops: Vec<Operation> = rewriter.ctx().block_ops(block).collect();
    let Some((&terminator, body)) = ops.split_last() else {
        return Vec::new();
    };
    for &op in body {
        rewriter.move_op_before(op, before);
    }
    rewriter.ctx().operands(terminator).collect()
}

/// `scf.if` on a constant condition: the taken region's ops replace it
/// (MLIR's `RemoveStaticCondition`).
fn remove_static_condition(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let cond = rewriter.ctx().operand(op, 0);
    let Some(value) = constant_int(rewriter, cond) else {
        return false;
    };
    let regions = rewriter.ctx().op_regions(op).to_vec();
    let taken = if value != 0 {
        regions.first()
    } else {
        regions.get(1)
    };
    let block = taken.and_then(|&r| rewriter.ctx().region_entry_block(r));
    let Some(block) = block else {
        // The false branch of an `scf.if` without `else`: nothing runs.
        if rewriter.ctx().num_results(op) != 0 {
            return false;
        }
        rewriter.erase_op(op);
        return true;
    };
    let results = inline_block_before(rewriter, block, op, &[]);
    rewriter.replace_op(op, &results);
    true
}

/// `scf.if` yielding values defined outside it: those results become
/// `arith.select`s of them (or the value itself when both branches yield
/// it); the others stay in a smaller `scf.if` (MLIR's
/// `ConvertTrivialIfToSelect`).
fn convert_trivial_if_to_select(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    if ctx.num_results(op) == 0 {
        return false;
    }
    let regions = ctx.op_regions(op).to_vec();
    let terminators: Vec<Operation> = regions.iter().filter_map(|&r| terminator(ctx, r)).collect();
    let [then_yield, else_yield] = terminators.as_slice() else {
        return false;
    };
    let (then_yield, else_yield) = (*then_yield, *else_yield);
    let then_values: Vec<Value> = ctx.operands(then_yield).collect();
    let else_values: Vec<Value> = ctx.operands(else_yield).collect();
    let defined_in = |v: Value, region: Region| {
        ctx.value_parent_block(v)
            .and_then(|b| ctx.block_parent_region(b))
            == Some(region)
    };
    let stays: Vec<bool> = then_values
        .iter()
        .zip(&else_values)
        .map(|(&t, &f)| defined_in(t, regions[0]) || defined_in(f, regions[1]))
        .collect();
    if stays.iter().all(|&s| s) {
        return false;
    }
    let cond = ctx.operand(op, 0);
    let loc = ctx.op_loc(op);
    let name = ctx.op_name(op);
    let attributes: Vec<_> = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
    let remaining: Vec<Type> = then_values
        .iter()
        .zip(&stays)
        .filter(|(_, &s)| s)
        .map(|(&v, _)| ctx.value_type(v))
        .collect();
    // The smaller `scf.if` takes over both blocks (also with no results: the
    // blocks may have effects; an empty one is then dead).
    let replacement = {
        let ctx = rewriter.ctx_mut();
        let mut state = OperationState::new(name, loc);
        state.operands = vec![cond];
        state.result_types = remaining;
        state.attributes = attributes;
        for &region in &regions {
            let new_region = ctx.create_region();
            let blocks: Vec<_> = ctx.region_blocks(region).collect();
            for block in blocks {
                ctx.detach_block(block);
                ctx.append_block(new_region, block);
            }
            state.regions.push(new_region);
        }
        rewriter.create(state)
    };
    rewriter.set_insertion_point(replacement);
    let mut results = Vec::new();
    let (mut true_yields, mut false_yields) = (Vec::new(), Vec::new());
    for (i, (&t, &f)) in then_values.iter().zip(&else_values).enumerate() {
        if stays[i] {
            let index = true_yields.len();
            true_yields.push(t);
            false_yields.push(f);
            results.push(rewriter.ctx().result(replacement, index));
        } else if t == f {
            results.push(t);
        } else {
            let ty = rewriter.ctx().value_type(t);
            let select =
                crate::arith::SelectOp::build(rewriter.ctx_mut(), loc, cond, t, f, ty).op();
            rewriter.insert(select);
            results.push(rewriter.ctx().result(select, 0));
        }
    }
    rewriter.modify_op_in_place(then_yield, |ctx| ctx.set_operands(then_yield, &true_yields));
    rewriter.modify_op_in_place(else_yield, |ctx| {
        ctx.set_operands(else_yield, &false_yields)
    });

    rewriter.replace_op(op, &results);
    true
}

/// `scf.for` that runs zero times (results: the inits) or once (its body
/// inlined with the lower bound) (MLIR's `SimplifyTrivialLoops`).
fn simplify_trivial_loops(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let (lb, ub, step) = (ctx.operand(op, 0), ctx.operand(op, 1), ctx.operand(op, 2));
    let inits: Vec<Value> = ctx.operands(op).skip(3).collect();
    let unsigned = ForOp(op).unsigned_cmp(ctx).is_some();
    if lb == ub {
        rewriter.replace_op(op, &inits);
        return true;
    }
    // A constant step that is not positive: MLIR gives the loop no
    // iterations.
    if constant_int(rewriter, step).is_some_and(|s| s <= 0) {
        rewriter.replace_op(op, &inits);
        return true;
    }
    let Some(diff) = bounds_difference(rewriter, lb, ub, unsigned) else {
        return false;
    };
    if diff <= 0 {
        rewriter.replace_op(op, &inits);
        return true;
    }
    let Some(s) = constant_int(rewriter, step) else {
        return false;
    };
    let Some(block) = ForOp(op)
        .region(rewriter.ctx())
        .and_then(|r| rewriter.ctx().region_entry_block(r))
    else {
        return false;
    };
    if diff > s {
        // A loop that runs more than once, does nothing and yields values
        // from outside is those values.
        let ctx = rewriter.ctx();
        let ops: Vec<Operation> = ctx.block_ops(block).collect();
        let [yield_op] = ops.as_slice() else {
            return false;
        };
        let yielded: Vec<Value> = ctx.operands(*yield_op).collect();
        if !yielded.iter().all(|&v| defined_outside(ctx, op, v)) {
            return false;
        }
        rewriter.replace_op(op, &yielded);
        return true;
    }
    let mut args = vec![lb];
    args.extend(inits);
    let results = inline_block_before(rewriter, block, op, &args);
    rewriter.replace_op(op, &results);
    true
}

/// `ub - lb` when it is known (MLIR's `computeUbMinusLb`): both are
/// constants (compared as unsigned integers for an unsigned loop), or `ub`
/// is `arith.addi lb, c` for a constant `c`, with the no-wrap flag of the
/// loop's comparison (`nsw` signed, `nuw` unsigned).
fn bounds_difference(
    rewriter: &mut PatternRewriter<'_>,
    lb: Value,
    ub: Value,
    unsigned: bool,
) -> Option<i128> {
    if let (Some(l), Some(u)) = (constant_int(rewriter, lb), constant_int(rewriter, ub)) {
        let width = {
            let ctx = rewriter.ctx();
            ctx.int_or_float_bit_width(ctx.value_type(lb)).unwrap_or(64)
        };
        let as_unsigned = |v: i128| {
            if width >= 128 {
                v
            } else {
                v & ((1i128 << width) - 1)
            }
        };
        return Some(if unsigned {
            as_unsigned(u) - as_unsigned(l)
        } else {
            u - l
        });
    }
    let add = rewriter
        .ctx()
        .defining_op(ub)
        .filter(|&d| rewriter.ctx().op_name_str(d) == crate::arith::AddIOp::NAME)?;
    // The addition must not wrap in the loop's comparison.
    let ctx = rewriter.ctx();
    let flags = strata_ir::ods::inherent_attr(ctx, add, "overflowFlags")
        .and_then(|f| crate::arith::OVERFLOW.value(ctx, f))
        .unwrap_or(0);
    let no_wrap = if unsigned { 2 } else { 1 };
    if flags & no_wrap == 0 || ctx.operand(add, 0) != lb {
        return None;
    }
    let c = ctx.operand(add, 1);
    constant_int(rewriter, c)
}

/// `scf.if` without results whose `else` only yields: the `else` region
/// goes (MLIR's `RemoveEmptyElseBranch`).
fn remove_empty_else_branch(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    if ctx.num_results(op) != 0 {
        return false;
    }
    let Some(&else_region) = ctx.op_regions(op).get(1) else {
        return false;
    };
    let blocks: Vec<_> = ctx.region_blocks(else_region).collect();
    let [block] = blocks.as_slice() else {
        return false;
    };
    let block = *block;
    let only_yield = ctx.block_first_op(block).is_some_and(|first| {
        ctx.block_last_op(block) == Some(first) && ctx.op_name_str(first) == YieldOp::NAME
    });
    if !only_yield {
        return false;
    }
    rewriter.modify_op_in_place(op, |ctx| ctx.erase_block(block));
    true
}

/// Inside `scf.if %c`, `%c` is true in the `then` region and false in the
/// `else` region (MLIR's `ConditionPropagation`).
fn condition_propagation(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let cond = ctx.operand(op, 0);
    if ctx
        .defining_op(cond)
        .and_then(|d| ctx.op_definition(d))
        .is_some_and(|d| d.traits.constant_like)
    {
        return false;
    }
    let regions = ctx.op_regions(op).to_vec();
    let region_of = |user: Operation| -> Option<usize> {
        let mut current = user;
        loop {
            let region = ctx
                .op_parent_block(current)
                .and_then(|b| ctx.block_parent_region(b))?;
            if let Some(i) = regions.iter().position(|&r| r == region) {
                return Some(i);
            }
            current = ctx.region_parent_op(region)?;
        }
    };
    let uses: Vec<(Operation, usize, usize)> = ctx
        .uses(cond)
        .filter_map(|u| region_of(u.op).map(|r| (u.op, u.index as usize, r)))
        .collect();
    if uses.is_empty() {
        return false;
    }
    let loc = ctx.op_loc(op);
    let i1 = ctx.value_type(cond);
    let mut constants: [Option<Value>; 2] = [None, None];
    for (user, index, region) in uses {
        let value = match constants[region] {
            Some(v) => v,
            None => {
                let attr = rewriter.ctx_mut().bool_attr(region == 0);
                let c = crate::arith::ConstantOp::build(rewriter.ctx_mut(), loc, attr, i1).op();
                rewriter.insert(c);
                let v = rewriter.ctx().result(c, 0);
                constants[region] = Some(v);
                v
            }
        };
        rewriter.modify_op_in_place(user, |ctx| ctx.set_operand(user, index, value));
    }
    true
}

/// Two consecutive `scf.if`s on the same condition, or on a condition and
/// its negation (`arith.xori %c, true`), become one on the first's
/// condition, each region running the first's ops, then the second's
/// matching ones (MLIR's `CombineIfs`).
fn combine_ifs(next: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let Some(prev) = ctx
        .op_prev(next)
        .filter(|&p| ctx.op_name_str(p) == IfOp::NAME)
    else {
        return false;
    };
    let (prev_cond, next_cond) = (ctx.operand(prev, 0), ctx.operand(next, 0));
    let block_of = |op: Operation, i: usize| {
        ctx.op_regions(op)
            .get(i)
            .and_then(|&r| ctx.region_entry_block(r))
    };
    let (Some(prev_then), Some(next_then_block)) = (block_of(prev, 0), block_of(next, 0)) else {
        return false;
    };
    let (prev_else, next_else_block) = (block_of(prev, 1), block_of(next, 1));
    // The blocks of the second op that run when the first's condition holds
    // (`next_then`) and when it does not (`next_else`).
    let (mut next_then, mut next_else) = (None, None);
    if next_cond == prev_cond {
        (next_then, next_else) = (Some(next_then_block), next_else_block);
    }
    if is_not(ctx, next_cond, prev_cond) || is_not(ctx, prev_cond, next_cond) {
        next_else = Some(next_then_block);
        if next_else_block.is_some() {
            next_then = next_else_block;
        }
    }
    if next_then.is_none() && next_else.is_none() {
        return false;
    }
    let yield_of = |block: strata_ir::Block| {
        ctx.block_last_op(block)
            .filter(|&t| ctx.op_name_str(t) == YieldOp::NAME)
    };
    let Some(prev_then_yield) = yield_of(prev_then) else {
        return false;
    };
    let prev_then_values: Vec<Value> = ctx.operands(prev_then_yield).collect();
    let prev_else_values: Vec<Value> = prev_else
        .and_then(yield_of)
        .map(|y| ctx.operands(y).collect())
        .unwrap_or_default();
    let region_of =
        |block: Option<strata_ir::Block>| block.and_then(|b| ctx.block_parent_region(b));
    let (then_region, else_region) = (region_of(next_then), region_of(next_else));
    let prev_results: Vec<Value> = ctx.results(prev).collect();
    let next_results: Vec<Value> = ctx.results(next).collect();
    let within = |user: Operation, region: Option<Region>| {
        region.is_some_and(|r| ctx.region_contains(r, user))
    };
    // Uses of the first results inside the second op take the yielded values.
    let mut rewires = Vec::new();
    for (i, &result) in prev_results.iter().enumerate() {
        let (Some(&then_value), Some(&else_value)) =
            (prev_then_values.get(i), prev_else_values.get(i))
        else {
            continue;
        };
        for u in ctx.uses(result) {
            if within(u.op, then_region) {
                rewires.push((u.op, u.index as usize, then_value));
            } else if within(u.op, else_region) {
                rewires.push((u.op, u.index as usize, else_value));
            }
        }
    }
    let result_types: Vec<Type> = prev_results
        .iter()
        .chain(&next_results)
        .map(|&v| ctx.value_type(v))
        .collect();
    let loc = ctx.op_loc(next);
    let name = ctx.op_name(next);
    for (user, index, value) in rewires {
        rewriter.modify_op_in_place(user, |ctx| ctx.set_operand(user, index, value));
    }
    let ctx = rewriter.ctx_mut();
    // Then: the first op's block, with the second's matching ops appended.
    let then_region = ctx.create_region();
    ctx.detach_block(prev_then);
    ctx.append_block(then_region, prev_then);
    if let Some(block) = next_then {
        append_block_ops(ctx, block, prev_then_yield);
    }
    // Else: the first op's else block (with the second's matching ops
    // appended), or the second's matching block when the first has none.
    let else_region = ctx.create_region();
    match (prev_else, next_else) {
        (Some(pe), next_else) => {
            ctx.detach_block(pe);
            ctx.append_block(else_region, pe);
            if let (Some(ne), Some(pe_yield)) = (next_else, ctx.block_last_op(pe)) {
                append_block_ops(ctx, ne, pe_yield);
            }
        }
        (None, Some(ne)) => {
            ctx.detach_block(ne);
            ctx.append_block(else_region, ne);
        }
        (None, None) => {}
    }
    let mut state = OperationState::new(name, loc);
    state.operands = vec![prev_cond];
    state.result_types = result_types;
    state.regions = vec![then_region, else_region];
    let combined = rewriter.create(state);
    let combined_results: Vec<Value> = rewriter.ctx().results(combined).collect();
    let (first, second) = combined_results.split_at(prev_results.len());
    rewriter.replace_op(prev, first);
    rewriter.replace_op(next, second);
    true
}

/// `scf.if` on `arith.xori %c, true` with an `else` region: the same op on
/// `%c` with its regions swapped (MLIR's `IfOp::fold`).
fn swap_negated_if(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let regions = ctx.op_regions(op).to_vec();
    let [then_region, else_region] = regions.as_slice() else {
        return false;
    };
    let (then_region, else_region) = (*then_region, *else_region);
    if ctx.region_is_empty(else_region) {
        return false;
    }
    let Some(xor) = ctx
        .defining_op(ctx.operand(op, 0))
        .filter(|&d| ctx.op_name_str(d) == crate::arith::XOrIOp::NAME)
    else {
        return false;
    };
    let (lhs, rhs) = (ctx.operand(xor, 0), ctx.operand(xor, 1));
    if !is_one(ctx, rhs) {
        return false;
    }
    let (Some(then_block), Some(else_block)) = (
        ctx.region_entry_block(then_region),
        ctx.region_entry_block(else_region),
    ) else {
        return false;
    };
    rewriter.modify_op_in_place(op, |ctx| {
        ctx.set_operand(op, 0, lhs);
        ctx.detach_block(then_block);
        ctx.detach_block(else_block);
        ctx.append_block(then_region, else_block);
        ctx.append_block(else_region, then_block);
    });
    true
}

/// Move the ops of `block` but its `scf.yield` before `yield_op`, which
/// then also yields that yield's values.
fn append_block_ops(ctx: &mut strata_ir::Context, block: strata_ir::Block, yield_op: Operation) {
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    let mut values: Vec<Value> = ctx.operands(yield_op).collect();
    if let Some((&last, body)) = ops.split_last() {
        values.extend(ctx.operands(last));
        for &op in body {
            ctx.detach_op(op);
            ctx.insert_op_before(yield_op, op);
        }
    }
    ctx.set_operands(yield_op, &values);
}

/// Whether `value` is `arith.xori %of, true` (MLIR's `not` idiom).
fn is_not(ctx: &strata_ir::Context, value: Value, of: Value) -> bool {
    let Some(xor) = ctx
        .defining_op(value)
        .filter(|&d| ctx.op_name_str(d) == crate::arith::XOrIOp::NAME)
    else {
        return false;
    };
    ctx.operand(xor, 0) == of && is_one(ctx, ctx.operand(xor, 1))
}

/// Whether `value` is a constant one (MLIR's `m_One`: an integer, or a
/// splat of one).
fn is_one(ctx: &strata_ir::Context, value: Value) -> bool {
    let Some(attr) = strata_ir::rewrite::constant_attr(ctx, value) else {
        return false;
    };
    match ctx.attr_kind(attr) {
        strata_ir::AttrKind::Integer { value, .. } => *value == 1,
        _ => ctx.bool_value(attr) == Some(true),
    }
}

/// `scf.if %a { scf.if %b { ... } }`, the inner op alone in the outer
/// `then` block and each `else` only yielding: one `scf.if` on `%a and %b`
/// (MLIR's `CombineNestedIfs`). A value the outer op yields from the inner
/// one must be the one both `else`s yield; any other it yields from outside
/// becomes an `arith.select` on `%a`.
fn combine_nested_ifs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let block_of = |o: Operation, i: usize| {
        ctx.op_regions(o)
            .get(i)
            .and_then(|&r| ctx.region_entry_block(r))
    };
    let only_yields =
        |block: Option<strata_ir::Block>| block.is_none_or(|b| ctx.block_ops(b).count() == 1);
    let Some(then_block) = block_of(op, 0) else {
        return false;
    };
    let ops: Vec<Operation> = ctx.block_ops(then_block).collect();
    let [inner, then_yield] = ops.as_slice() else {
        return false;
    };
    let (inner, then_yield) = (*inner, *then_yield);
    if ctx.op_name_str(inner) != IfOp::NAME
        || !only_yields(block_of(op, 1))
        || !only_yields(block_of(inner, 1))
    {
        return false;
    }
    let Some(inner_then) = block_of(inner, 0) else {
        return false;
    };
    let yield_values = |block: Option<strata_ir::Block>| -> Vec<Value> {
        block
            .and_then(|b| ctx.block_last_op(b))
            .map(|y| ctx.operands(y).collect())
            .unwrap_or_default()
    };
    let mut then_values: Vec<Value> = ctx.operands(then_yield).collect();
    let else_values = yield_values(block_of(op, 1));
    let inner_then_values = yield_values(Some(inner_then));
    let inner_else_values = yield_values(block_of(inner, 1));
    let then_region = ctx.op_regions(op)[0];
    let mut selects = Vec::new();
    for (i, value) in then_values.iter_mut().enumerate() {
        if let Value::Result(def, k) = *value {
            if def == inner {
                let k = k as usize;
                if inner_else_values.get(k) != else_values.get(i) {
                    return false;
                }
                let Some(&v) = inner_then_values.get(k) else {
                    return false;
                };
                *value = v;
                continue;
            }
        }
        let region = ctx
            .value_parent_block(*value)
            .and_then(|b| ctx.block_parent_region(b));
        if region == Some(then_region) {
            return false;
        }
        selects.push(i);
    }
    let (outer_cond, inner_cond, loc) = (ctx.operand(op, 0), ctx.operand(inner, 0), ctx.op_loc(op));
    let types: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    let name = ctx.op_name(op);
    let and = crate::arith::AndIOp::build(rewriter.ctx_mut(), loc, outer_cond, inner_cond).op();
    rewriter.insert(and);
    let cond = rewriter.ctx().result(and, 0);
    let mut results = Vec::new();
    for &i in &selects {
        let ty = rewriter.ctx().value_type(then_values[i]);
        let select = crate::arith::SelectOp::build(
            rewriter.ctx_mut(),
            loc,
            outer_cond,
            then_values[i],
            else_values[i],
            ty,
        )
        .op();
        rewriter.insert(select);
        results.push((i, rewriter.ctx().result(select, 0)));
    }
    let ctx = rewriter.ctx_mut();
    let new_then = ctx.create_region();
    ctx.detach_block(inner_then);
    ctx.append_block(new_then, inner_then);
    if let Some(old_yield) = ctx.block_last_op(inner_then) {
        ctx.set_operands(old_yield, &then_values);
    }
    let new_else = ctx.create_region();
    if !else_values.is_empty() {
        let block = ctx.create_block();
        ctx.append_block(new_else, block);
        let new_yield = YieldOp::build(ctx, loc, &else_values).op();
        ctx.append_op(block, new_yield);
    }
    let mut state = OperationState::new(name, loc);
    state.operands = vec![cond];
    state.result_types = types;
    state.regions = vec![new_then, new_else];
    let new_if = rewriter.create(state);
    let mut replacements: Vec<Value> = rewriter.ctx().results(new_if).collect();
    for (i, value) in results {
        replacements[i] = value;
    }
    rewriter.replace_op(op, &replacements);
    true
}

/// `scf.if` results without uses go: a smaller `scf.if` takes the blocks,
/// whose yields lose those values (MLIR's region-branch patterns).
fn remove_unused_if_results(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let results: Vec<Value> = ctx.results(op).collect();
    let used: Vec<bool> = results.iter().map(|&r| !ctx.use_empty(r)).collect();
    if !used.contains(&false) {
        return false;
    }
    let regions = ctx.op_regions(op).to_vec();
    let yields: Vec<Operation> = regions.iter().filter_map(|&r| terminator(ctx, r)).collect();
    if yields.iter().any(|&y| ctx.num_operands(y) != results.len()) {
        return false;
    }
    let types: Vec<Type> = results
        .iter()
        .zip(&used)
        .filter(|(_, &u)| u)
        .map(|(&r, _)| ctx.value_type(r))
        .collect();
    let (cond, loc, name) = (ctx.operand(op, 0), ctx.op_loc(op), ctx.op_name(op));
    let attributes: Vec<_> = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
    let ctx = rewriter.ctx_mut();
    let mut state = OperationState::new(name, loc);
    state.operands = vec![cond];
    state.result_types = types;
    state.attributes = attributes;
    for &region in &regions {
        let new_region = ctx.create_region();
        let blocks: Vec<_> = ctx.region_blocks(region).collect();
        for block in blocks {
            ctx.detach_block(block);
            ctx.append_block(new_region, block);
        }
        state.regions.push(new_region);
    }
    let replacement = rewriter.create(state);
    for y in yields {
        let kept: Vec<Value> = rewriter
            .ctx()
            .operands(y)
            .zip(&used)
            .filter(|(_, &u)| u)
            .map(|(v, _)| v)
            .collect();
        rewriter.modify_op_in_place(y, |ctx| ctx.set_operands(y, &kept));
    }
    let mut k = 0;
    let mut values = Vec::new();
    for (i, &u) in used.iter().enumerate() {
        if u {
            values.push(rewriter.ctx().result(replacement, k));
            k += 1;
        } else {
            // Unused: any value of the right type will do.
            values.push(results[i]);
        }
    }
    // The unused results have no uses: replacing them with themselves is
    // fine before the op goes.
    rewriter.replace_op(op, &values);
    true
}

/// In MLIR's order (`IfOp::getCanonicalizationPatterns`), which decides
/// which pattern applies first.
pub(super) fn if_patterns(set: &mut RewritePatternSet) {
    // MLIR's `IfOp::fold`, which the canonicalizer tries before the patterns.
    set.add(FnPattern::new(IfOp::NAME, "IfOpFold", swap_negated_if));
    set.add(FnPattern::new(IfOp::NAME, "CombineIfs", combine_ifs));
    set.add(FnPattern::new(
        IfOp::NAME,
        "CombineNestedIfs",
        combine_nested_ifs,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "ConditionPropagation",
        condition_propagation,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "ConvertTrivialIfToSelect",
        convert_trivial_if_to_select,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "RemoveEmptyElseBranch",
        remove_empty_else_branch,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "RemoveStaticCondition",
        remove_static_condition,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "RemoveUnusedIfResults",
        remove_unused_if_results,
    ));
}

pub(super) fn for_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        ForOp::NAME,
        "SimplifyTrivialLoops",
        simplify_trivial_loops,
    ));
    set.add(FnPattern::new(
        ForOp::NAME,
        "ForwardInvariantIterArgs",
        forward_invariant_iter_args,
    ));
}

/// `scf.for` loop-carried values the body yields back unchanged are loop
/// invariant: uses of them (and of the loop's result) become the initial
/// value, and the loop drops them; so do values whose result and argument
/// are both unused (what MLIR's region-branch patterns do to such
/// `scf.for`s), and duplicates of an earlier value (the same init and the
/// same yielded value), whose uses become that value's.
fn forward_invariant_iter_args(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let Some(region) = ForOp(op).region(ctx) else {
        return false;
    };
    let Some(block) = ctx.region_entry_block(region) else {
        return false;
    };
    let Some(yield_op) = ctx
        .block_last_op(block)
        .filter(|&t| ctx.op_name_str(t) == YieldOp::NAME)
    else {
        return false;
    };
    let args: Vec<Value> = ctx.block_args(block).collect();
    let inits: Vec<Value> = ctx.operands(op).skip(3).collect();
    let yielded: Vec<Value> = ctx.operands(yield_op).collect();
    if args.len() != inits.len() + 1 || yielded.len() != inits.len() {
        return false;
    }
    let results: Vec<Value> = ctx.results(op).collect();
    // A value yielded back unchanged is invariant; one whose result and
    // argument are both unused is dead. Either way the loop can drop it.
    // So is a value that only ever takes values from one source outside
    // the loop, through a cycle of loop-carried values (`%a` for both
    // `%x = %a, %y = %a` yielding `%y, %x`).
    let forwarded: Vec<bool> = (0..inits.len())
        .map(|i| {
            yielded[i] == args[i + 1]
                || yielded[i] == inits[i]
                || (ctx.use_empty(results[i]) && ctx.use_empty(args[i + 1]))
                || single_source(ctx, op, &args[1..], &inits, &yielded, i)
        })
        .collect();
    // A kept value whose init and yielded value an earlier kept one has too
    // is that one's duplicate (MLIR's `ForOpIterArgsFolder`).
    let mut duplicate_of: Vec<Option<usize>> = vec![None; inits.len()];
    let mut seen: Vec<usize> = Vec::new();
    for i in (0..inits.len()).filter(|&i| !forwarded[i]) {
        match seen
            .iter()
            .find(|&&j| inits[j] == inits[i] && yielded[j] == yielded[i])
        {
            Some(&first) => duplicate_of[i] = Some(first),
            None => seen.push(i),
        }
    }
    if !forwarded.contains(&true) && duplicate_of.iter().all(Option::is_none) {
        return false;
    }
    let loc = ctx.op_loc(op);
    let name = ctx.op_name(op);
    let properties = ctx.op_properties(op);
    let attributes: Vec<_> = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
    let bounds: Vec<Value> = ctx.operands(op).take(3).collect();
    let arg_locs: Vec<_> = (0..args.len())
        .map(|i| ctx.block_arg_loc(block, i))
        .collect();
    // The invariant values: their uses inside and after the loop take the init.
    for i in (0..inits.len()).filter(|&i| forwarded[i]) {
        rewriter.replace_all_uses_with(args[i + 1], inits[i]);
        rewriter.replace_all_uses_with(results[i], inits[i]);
    }
    // A duplicate's argument is its first's.
    for (i, first) in duplicate_of.iter().enumerate() {
        if let Some(first) = *first {
            rewriter.replace_all_uses_with(args[i + 1], args[first + 1]);
        }
    }
    let kept: Vec<usize> = (0..inits.len())
        .filter(|&i| !forwarded[i] && duplicate_of[i].is_none())
        .collect();
    // The new loop, with a new body block taking the old one's ops.
    let ctx = rewriter.ctx_mut();
    let new_region = ctx.create_region();
    let new_block = ctx.create_block();
    let iv_type = ctx.value_type(args[0]);
    let new_iv = ctx.add_block_argument(new_block, iv_type, arg_locs[0]);
    let mut new_args = Vec::new();
    for &i in &kept {
        let ty = ctx.value_type(args[i + 1]);
        new_args.push(ctx.add_block_argument(new_block, ty, arg_locs[i + 1]));
    }
    ctx.append_block(new_region, new_block);
    let mut state = OperationState::new(name, loc);
    state.operands = bounds;
    state.operands.extend(kept.iter().map(|&i| inits[i]));
    state.result_types = kept.iter().map(|&i| ctx.value_type(results[i])).collect();
    state.properties = properties;
    state.attributes = attributes;
    state.regions.push(new_region);
    let new_op = rewriter.create(state);
    rewriter.replace_all_uses_with(args[0], new_iv);
    for (k, &i) in kept.iter().enumerate() {
        rewriter.replace_all_uses_with(args[i + 1], new_args[k]);
    }
    let ops: Vec<Operation> = rewriter.ctx().block_ops(block).collect();
    let ctx = rewriter.ctx_mut();
    for moved in ops {
        ctx.detach_op(moved);
        ctx.append_op(new_block, moved);
    }
    let kept_yields: Vec<Value> = kept.iter().map(|&i| ctx.operand(yield_op, i)).collect();
    rewriter.modify_op_in_place(yield_op, |ctx| ctx.set_operands(yield_op, &kept_yields));
    let new_index = |i: usize| kept.iter().position(|&k| k == i);
    let replacements: Vec<Value> = (0..inits.len())
        .map(|i| {
            let source = duplicate_of[i].unwrap_or(i);
            match new_index(source) {
                Some(k) if !forwarded[i] => rewriter.ctx().result(new_op, k),
                _ => inits[i],
            }
        })
        .collect();
    rewriter.replace_op(op, &replacements);
    true
}

/// Whether loop-carried value `i` only ever holds one value from outside
/// the loop: following its initial and yielded values through the other
/// loop-carried values (`args`) reaches a single value that is not one of
/// them, defined outside `op`.
fn single_source(
    ctx: &strata_ir::Context,
    op: Operation,
    args: &[Value],
    inits: &[Value],
    yielded: &[Value],
    i: usize,
) -> bool {
    let mut source = None;
    let mut seen = vec![false; args.len()];
    let mut stack = vec![i];
    while let Some(j) = stack.pop() {
        if std::mem::replace(&mut seen[j], true) {
            continue;
        }
        for value in [inits[j], yielded[j]] {
            if let Some(k) = args.iter().position(|&a| a == value) {
                stack.push(k);
            } else if source.is_some_and(|s| s != value) {
                return false;
            } else {
                source = Some(value);
            }
        }
    }
    source.is_some_and(|v| defined_outside(ctx, op, v))
}

/// Whether `value` is defined outside `op` (MLIR's `isDefinedOutsideOfLoop`).
fn defined_outside(ctx: &strata_ir::Context, op: Operation, value: Value) -> bool {
    ctx.value_parent_block(value)
        .and_then(|b| ctx.block_parent_op(b))
        .is_none_or(|parent| !ctx.is_ancestor(op, parent))
}

/// `scf.index_switch` on a constant: the matching case's region (or the
/// default one) replaces it (MLIR's `FoldConstantCase`).
fn fold_constant_case(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let arg = rewriter.ctx().operand(op, 0);
    let Some(value) = constant_int(rewriter, arg) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let cases = crate::scf::index_switch::case_values(ctx, op);
    let regions = ctx.op_regions(op).to_vec();
    let taken = match cases.iter().position(|&c| i128::from(c) == value) {
        Some(i) => regions.get(i + 1),
        None => regions.first(),
    };
    let Some(block) = taken.and_then(|&r| ctx.region_entry_block(r)) else {
        return false;
    };
    let results = inline_block_before(rewriter, block, op, &[]);
    rewriter.replace_op(op, &results);
    true
}

pub(super) fn index_switch_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        "scf.index_switch",
        "FoldConstantCase",
        fold_constant_case,
    ));
}
