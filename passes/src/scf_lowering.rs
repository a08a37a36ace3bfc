//! The `scf` loop conversions of MLIR 22's `SCF/Transforms`, op for op as
//! they write their output:
//!
//! - `scf-forall-to-for`: an `scf.forall` becomes a nest of `scf.for`s,
//!   one per dimension, outermost first;
//! - `scf-forall-to-parallel`: an `scf.forall` becomes an `scf.parallel`
//!   (its `mapping` kept);
//! - `scf-parallel-for-to-nested-fors`: an `scf.parallel` without
//!   reductions becomes a nest of `scf.for`s (one with reductions stays);
//! - `scf-for-to-while`: an `scf.for` becomes an `scf.while` whose `before`
//!   region compares the induction variable with the upper bound and whose
//!   `after` region adds the step and runs the body.
//!
//! Static bounds of `scf.forall` become `arith.constant`s before the loop,
//! all lower bounds first, then the upper ones, then the steps. An
//! `scf.forall` with shared outputs cannot be converted (strata has no op
//! that writes them): the passes fail on it with a located error.

use strata_dialects::arith::CMPI_PREDICATE;
use strata_dialects::scf::{ForOp, ForallOp, ParallelOp, WhileOp};
use strata_ir::pass::{Pass, Statistics};
use strata_ir::rewrite::{FnPattern, PatternRewriter};
use strata_ir::types::DYNAMIC;
use strata_ir::{
    pass, AttrKind, Block, Context, Diagnostic, Location, Operation, OperationState, Type, Value,
    WalkOrder,
};

#[pass(
    name = "scf-forall-to-for",
    display_name = "SCFForallToForLoop",
    summary = "Convert SCF forall loops to SCF for loops"
)]
pub(crate) struct ForallToFor;

impl Pass for ForallToFor {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        for forall in ops_named(ctx, op, ForallOp::NAME) {
            let (bounds, body) = forall_parts(ctx, forall)?;
            replace_by_loop_nest(ctx, forall, &bounds, body);
        }
        Ok(())
    }
}

#[pass(
    name = "scf-forall-to-parallel",
    display_name = "SCFForallToParallelLoop",
    summary = "Convert SCF forall loops to SCF parallel loops"
)]
pub(crate) struct ForallToParallel;

impl Pass for ForallToParallel {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        for forall in ops_named(ctx, op, ForallOp::NAME) {
            let (bounds, body) = forall_parts(ctx, forall)?;
            let loc = ctx.op_loc(forall);
            // The body moves into the new loop, its terminator replaced by
            // an empty `scf.reduce`.
            if let Some(terminator) = ctx.block_last_op(body) {
                ctx.erase_op(terminator);
            }
            let reduce = OperationState::new(ctx.ident("scf.reduce"), loc);
            let reduce = ctx.create_operation(reduce);
            ctx.append_op(body, reduce);
            let region = ctx.create_region();
            ctx.detach_block(body);
            ctx.append_block(region, body);
            let mut state = OperationState::new(ctx.ident(ParallelOp::NAME), loc);
            for list in &bounds {
                state.operands.extend_from_slice(list);
            }
            let n = bounds[0].len();
            let sizes = ctx.segment_sizes_attr(&[n, n, n, 0]);
            let mut properties = vec![(ctx.ident("operandSegmentSizes"), sizes)];
            if let Some(mapping) = strata_ir::ods::inherent_attr(ctx, forall, "mapping") {
                properties.push((ctx.ident("mapping"), mapping));
            }
            state.properties = Some(ctx.dictionary_attr(properties));
            state.regions.push(region);
            let parallel = ctx.create_operation(state);
            ctx.insert_op_before(forall, parallel);
            ctx.erase_op(forall);
        }
        Ok(())
    }
}

#[pass(
    name = "scf-parallel-for-to-nested-fors",
    display_name = "SCFParallelForToNestedFors",
    summary = "Convert SCF parallel for loops to nested SCF for loops"
)]
pub(crate) struct ParallelToNestedFors;

impl Pass for ParallelToNestedFors {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        for parallel in ops_named(ctx, op, ParallelOp::NAME) {
            // A loop with reductions stays, as in MLIR 22.
            if ctx.num_results(parallel) != 0 {
                continue;
            }
            let p = ParallelOp(parallel);
            let bounds = [p.lower_bound(ctx), p.upper_bound(ctx), p.step(ctx)];
            let Some(body) = ctx
                .op_regions(parallel)
                .first()
                .and_then(|&r| ctx.region_entry_block(r))
            else {
                continue;
            };
            replace_by_loop_nest(ctx, parallel, &bounds, body);
        }
        Ok(())
    }
}

#[pass(
    name = "scf-for-to-while",
    display_name = "SCFForToWhileLoop",
    summary = "Convert SCF for loops to SCF while loops"
)]
pub(crate) struct ForToWhile;

impl Pass for ForToWhile {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        crate::run_pattern_greedily(
            ctx,
            op,
            FnPattern::new(ForOp::NAME, "ForLoopLoweringPattern", for_to_while),
        )
    }
}

/// The ops named `name` in `root`, innermost first (a post-order walk).
fn ops_named(ctx: &Context, root: Operation, name: &str) -> Vec<Operation> {
    ctx.collect_ops(root, WalkOrder::PostOrder)
        .into_iter()
        .filter(|&o| ctx.op_name_str(o) == name)
        .collect()
}

/// The bounds of an `scf.forall` as values (lower, upper, step; static ones
/// as constants created before it, in that order) and its body; an error
/// for a loop with shared outputs.
fn forall_parts(
    ctx: &mut Context,
    forall: Operation,
) -> Result<([Vec<Value>; 3], Block), Diagnostic> {
    if !ForallOp(forall).outputs(ctx).is_empty() {
        return Err(Diagnostic::op_error(
            ctx,
            forall,
            "with shared outputs cannot be converted: only an scf.forall without them can",
        ));
    }
    let Some(body) = ctx
        .op_regions(forall)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return Err(Diagnostic::op_error(ctx, forall, "has no body"));
    };
    let forall_op = ForallOp(forall);
    let dynamic = [
        forall_op.dynamic_lower_bound(ctx),
        forall_op.dynamic_upper_bound(ctx),
        forall_op.dynamic_step(ctx),
    ];
    let loc = ctx.op_loc(forall);
    let index = ctx.index_type();
    let mut bounds: [Vec<Value>; 3] = Default::default();
    for (k, (name, values)) in ["staticLowerBound", "staticUpperBound", "staticStep"]
        .iter()
        .zip(dynamic)
        .enumerate()
    {
        let statics: Vec<i64> = match strata_ir::ods::inherent_attr(ctx, forall, name)
            .map(|a| ctx.attr_kind(a).clone())
        {
            Some(AttrKind::DenseArray { values, .. }) => values.iter().map(|&v| v as i64).collect(),
            _ => Vec::new(),
        };
        let mut values = values.into_iter();
        for s in statics {
            let value = if s == DYNAMIC {
                values.next()
            } else {
                let attr = ctx.integer_attr(index, s as i128);
                let constant =
                    strata_dialects::arith::ConstantOp::build(ctx, loc, attr, index).op();
                ctx.insert_op_before(forall, constant);
                Some(Value::Result(constant, 0))
            };
            let Some(value) = value else {
                return Err(Diagnostic::op_error(
                    ctx,
                    forall,
                    "has fewer bound operands than its bounds say",
                ));
            };
            bounds[k].push(value);
        }
    }
    Ok((bounds, body))
}

/// Replace `op` by a nest of `scf.for`s over `bounds` running `body` (its
/// terminator left out) with the nest's induction variables.
fn replace_by_loop_nest(ctx: &mut Context, op: Operation, bounds: &[Vec<Value>; 3], body: Block) {
    let ivs = build_loop_nest(ctx, op, bounds);
    if let Some(innermost) = ivs.last().and_then(|&iv| ctx.value_parent_block(iv)) {
        inline_body(ctx, body, innermost, &ivs);
    }
    ctx.erase_op(op);
}

/// MLIR's `buildLoopNest` without loop-carried values: one `scf.for` per
/// dimension before `at`, each in the previous one's body (before its
/// `scf.yield`); their induction variables.
fn build_loop_nest(ctx: &mut Context, at: Operation, bounds: &[Vec<Value>; 3]) -> Vec<Value> {
    let loc = ctx.op_loc(at);
    let mut ivs = Vec::new();
    let mut before = at;
    for ((&lb, &ub), &step) in bounds[0].iter().zip(&bounds[1]).zip(&bounds[2]) {
        let (for_op, iv, yield_op) = build_for(ctx, loc, lb, ub, step);
        ctx.insert_op_before(before, for_op);
        ivs.push(iv);
        before = yield_op;
    }
    ivs
}

/// A detached `scf.for %iv = lb to ub step step` whose body is only an
/// `scf.yield`; the op, its induction variable and the yield.
fn build_for(
    ctx: &mut Context,
    loc: Location,
    lb: Value,
    ub: Value,
    step: Value,
) -> (Operation, Value, Operation) {
    let region = ctx.create_region();
    let block = ctx.create_block();
    ctx.append_block(region, block);
    let ty = ctx.value_type(lb);
    let iv = ctx.add_block_argument(block, ty, loc);
    let yield_op = strata_dialects::scf::YieldOp::build(ctx, loc, &[]).op();
    ctx.append_op(block, yield_op);
    let mut state = OperationState::new(ctx.ident(ForOp::NAME), loc);
    state.operands = vec![lb, ub, step];
    state.regions.push(region);
    (ctx.create_operation(state), iv, yield_op)
}

/// Move the ops of `body` but its terminator before `block`'s terminator,
/// with `body`'s arguments replaced by `args`.
fn inline_body(ctx: &mut Context, body: Block, block: Block, args: &[Value]) {
    let params: Vec<Value> = ctx.block_args(body).collect();
    for (&param, &arg) in params.iter().zip(args) {
        ctx.replace_all_uses_with(param, arg);
    }
    let Some(terminator) = ctx.block_last_op(block) else {
        return;
    };
    let ops: Vec<Operation> = ctx.block_ops(body).collect();
    if let Some((&last, rest)) = ops.split_last() {
        for &op in rest {
            ctx.detach_op(op);
            ctx.insert_op_before(terminator, op);
        }
        ctx.erase_op(last);
    }
}

/// MLIR's `ForLoopLoweringPattern`: `scf.for` to `scf.while` carrying the
/// induction variable first.
fn for_to_while(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let for_op = ForOp(op);
    let Some(body) = for_op.region(ctx).and_then(|r| ctx.region_entry_block(r)) else {
        return false;
    };
    let loc = ctx.op_loc(op);
    let (lb, ub, step) = (ctx.operand(op, 0), ctx.operand(op, 1), ctx.operand(op, 2));
    let inits: Vec<Value> = ctx.operands(op).skip(3).collect();
    let args: Vec<Value> = ctx.block_args(body).collect();
    let types: Vec<Type> = args.iter().map(|&a| ctx.value_type(a)).collect();
    let locs: Vec<Location> = (0..args.len())
        .map(|i| ctx.block_arg_loc(body, i))
        .collect();
    let unsigned = for_op.unsigned_cmp(ctx).is_some();
    let results: Vec<Value> = ctx.results(op).collect();
    // MLIR gives the new loop all the old one's attributes (`unsignedCmp`
    // becomes a discardable one).
    let mut attributes: Vec<_> = ctx
        .op_properties(op)
        .map(|p| ctx.dictionary_entries(p).to_vec())
        .unwrap_or_default();
    attributes.extend(ctx.dictionary_entries(ctx.op_attr_dict(op)).iter().copied());

    let ctx = rewriter.ctx_mut();
    let make_block = |ctx: &mut Context| {
        let block = ctx.create_block();
        let values: Vec<Value> = types
            .iter()
            .zip(&locs)
            .map(|(&ty, &l)| ctx.add_block_argument(block, ty, l))
            .collect();
        (block, values)
    };
    // before: the comparison and the condition forwarding every argument.
    let (before, before_args) = make_block(ctx);
    let predicate = CMPI_PREDICATE
        .value_of(if unsigned { "ult" } else { "slt" })
        .and_then(|code| CMPI_PREDICATE.attr(ctx, code));
    let Some(predicate) = predicate else {
        return false;
    };
    let i1 = ctx.integer_type(1);
    let mut cmp = OperationState::new(ctx.ident("arith.cmpi"), loc);
    cmp.operands = vec![before_args[0], ub];
    cmp.result_types = vec![i1];
    let key = ctx.ident("predicate");
    cmp.properties = Some(ctx.dictionary_attr(vec![(key, predicate)]));
    let cmp = ctx.create_operation(cmp);
    ctx.append_op(before, cmp);
    let condition =
        strata_dialects::scf::ConditionOp::build(ctx, loc, Value::Result(cmp, 0), &before_args)
            .op();
    ctx.append_op(before, condition);
    // after: the step added, then the body.
    let (after, after_args) = make_block(ctx);
    let iv_type = types[0];
    let mut add = OperationState::new(ctx.ident("arith.addi"), loc);
    add.operands = vec![after_args[0], step];
    add.result_types = vec![iv_type];
    let add = ctx.create_operation(add);
    ctx.append_op(after, add);
    let mut operands = vec![lb];
    operands.extend(inits);
    let mut state = OperationState::new(ctx.ident(WhileOp::NAME), loc);
    state.operands = operands;
    state.result_types = types.clone();
    state.attributes = attributes;
    let (before_region, after_region) = (ctx.create_region(), ctx.create_region());
    ctx.append_block(before_region, before);
    ctx.append_block(after_region, after);
    state.regions = vec![before_region, after_region];
    let while_op = rewriter.create(state);
    for (&arg, &new) in args.iter().zip(&after_args) {
        rewriter.replace_all_uses_with(arg, new);
    }
    let ops: Vec<Operation> = rewriter.ctx().block_ops(body).collect();
    for inner in ops {
        let ctx = rewriter.ctx_mut();
        ctx.detach_op(inner);
        ctx.append_op(after, inner);
    }
    // The yields also carry the next induction variable.
    let ctx = rewriter.ctx();
    let yields: Vec<Operation> = ctx
        .block_ops(after)
        .filter(|&o| ctx.op_name_str(o) == "scf.yield")
        .collect();
    for y in yields {
        let mut values = vec![Value::Result(add, 0)];
        values.extend(rewriter.ctx().operands(y));
        rewriter.modify_op_in_place(y, |ctx| ctx.set_operands(y, &values));
    }
    for (i, &result) in results.iter().enumerate() {
        rewriter.replace_all_uses_with(result, Value::Result(while_op, i as u32 + 1));
    }
    rewriter.erase_op(op);
    true
}
