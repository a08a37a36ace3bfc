//! The verifiers of the `scf` ops and their regions (values flowing along
//! each region-branch edge must match in number and type), and the
//! `RegionBranch` successors of `for`, `if` and `while`.

use strata_ir::interfaces::{RegionSuccessor, Speculatability};
use strata_ir::{Attribute, Context, Diagnostic, Operation, Region, Type, Value};

use crate::scf::ops::{ConditionOp, ForOp, WhileOp, YieldOp};
use crate::scf::terminator;

fn type_str(ctx: &Context, ty: Type) -> String {
    strata_ir::printer::type_to_string(ctx, ty)
}

pub(super) fn verify_for(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let for_op = ForOp(op);
    if for_op.init_args(ctx).len() != ctx.num_results(op) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "mismatch in number of loop-carried values and defined values",
        ));
    }
    Ok(())
}

pub(super) fn verify_for_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let for_op = ForOp(op);
    let Some(body) = for_op.region(ctx).and_then(|r| ctx.region_entry_block(r)) else {
        return Ok(());
    };
    let args: Vec<Value> = ctx.block_args(body).collect();
    let inits = for_op.init_args(ctx);
    let Some((&iv, iter_args)) = args.split_first() else {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "different number of inits and region iter_args: {} != {}",
                inits.len(),
                u64::MAX
            ),
        ));
    };
    if ctx.value_type(iv) != ctx.value_type(ctx.operand(op, 0)) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "expected induction variable to be same type as bounds and step",
        ));
    }
    if iter_args.len() != inits.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "different number of inits and region iter_args: {} != {}",
                inits.len(),
                iter_args.len()
            ),
        ));
    }
    let yield_op = ctx
        .block_last_op(body)
        .filter(|&y| ctx.op_name_str(y) == YieldOp::NAME);
    let yielded: Vec<Value> = yield_op
        .map(|y| ctx.operands(y).collect())
        .unwrap_or_default();
    if !yielded.is_empty() && yielded.len() != iter_args.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "different number of region iter_args and yielded values: {} != {}",
                iter_args.len(),
                yielded.len()
            ),
        ));
    }
    for (i, (&init, &arg)) in inits.iter().zip(iter_args).enumerate() {
        let (a, b) = (ctx.value_type(init), ctx.value_type(arg));
        if a != b {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "{i}-th init and {i}-th region iter_arg have different type: '{}' != '{}'",
                    type_str(ctx, a),
                    type_str(ctx, b)
                ),
            ));
        }
    }
    for (i, (&arg, result)) in iter_args.iter().zip(ctx.results(op)).enumerate() {
        let (a, b) = (ctx.value_type(arg), ctx.value_type(result));
        if a != b {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "{i}-th region iter_arg and {i}-th loop result have different type: '{}' != '{}'",
                    type_str(ctx, a),
                    type_str(ctx, b)
                ),
            ));
        }
    }
    if let Some(yield_op) = yield_op {
        if yielded.len() != iter_args.len() {
            let iter_types: Vec<Type> = iter_args.iter().map(|&v| ctx.value_type(v)).collect();
            check_edge(ctx, op, yield_op, "Region #0", &yielded, &iter_types)?;
        }
        for (i, (&arg, &value)) in iter_args.iter().zip(&yielded).enumerate() {
            let (a, b) = (ctx.value_type(arg), ctx.value_type(value));
            if a != b {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!(
                        "{i}-th region iter_arg and {i}-th yielded value have different type: '{}' != '{}'",
                        type_str(ctx, a),
                        type_str(ctx, b)
                    ),
                ));
            }
        }
    }
    Ok(())
}

pub(super) fn verify_if(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    for (i, &region) in ctx.op_regions(op).iter().enumerate() {
        if ctx
            .region_entry_block(region)
            .is_some_and(|b| ctx.num_block_args(b) > 0)
        {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("region #{i} should have no arguments"),
            ));
        }
    }
    let else_empty = ctx
        .op_regions(op)
        .get(1)
        .is_none_or(|&r| ctx.region_is_empty(r));
    if ctx.num_results(op) != 0 && else_empty {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "must have an else block if defining values",
        ));
    }
    Ok(())
}

/// MLIR's region-branch check of values flowing from `terminator` to the
/// results of `op` (`to parent`) or to a region's arguments.
fn check_edge(
    ctx: &Context,
    op: Operation,
    from: Operation,
    to: &str,
    operands: &[Value],
    inputs: &[Type],
) -> Result<(), Diagnostic> {
    let from_name = if from == op {
        "parent".to_string()
    } else {
        format!("Operation {}", ctx.op_name_str(from))
    };
    let note = |d: Diagnostic| d.with_note(ctx.op_loc(from), "region branch point");
    if operands.len() != inputs.len() {
        return Err(note(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "along control flow edge from {from_name} to {to}: region branch point has {} operands, but region successor needs {} inputs",
                operands.len(),
                inputs.len()
            ),
        )));
    }
    for (i, (&value, &ty)) in operands.iter().zip(inputs).enumerate() {
        let have = ctx.value_type(value);
        if have != ty {
            return Err(note(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "along control flow edge from {from_name} to {to}: successor operand type #{i} '{}' should match successor input type #{i} '{}'",
                    type_str(ctx, have),
                    type_str(ctx, ty)
                ),
            )));
        }
    }
    Ok(())
}

pub(super) fn verify_if_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    for &region in ctx.op_regions(op) {
        if let Some(term) = terminator(ctx, region).filter(|&t| ctx.op_name_str(t) == YieldOp::NAME)
        {
            let operands: Vec<Value> = ctx.operands(term).collect();
            check_edge(ctx, op, term, "parent", &operands, &results)?;
        }
    }
    Ok(())
}

/// The terminators of `scf.while`'s regions: `scf.condition` ending
/// `before` and `scf.yield` ending `after` (MLIR's `WhileOp::verify`, which
/// runs before the ops inside are verified).
fn while_terminators(
    ctx: &Context,
    op: Operation,
) -> Result<Option<(Operation, Operation)>, Diagnostic> {
    let regions = ctx.op_regions(op).to_vec();
    let (Some(&before), Some(&after)) = (regions.first(), regions.get(1)) else {
        return Ok(None);
    };
    let expect_terminator = |region: Region, name: &str, which: &str| {
        let term = terminator(ctx, region);
        match term.filter(|&t| ctx.op_name_str(t) == name) {
            Some(t) => Ok(t),
            None => {
                let error = Diagnostic::op_error(
                    ctx,
                    op,
                    format!("expects the '{which}' region to terminate with '{name}'"),
                );
                Err(match term {
                    Some(t) => error.with_note(ctx.op_loc(t), "terminator here"),
                    None => error,
                })
            }
        }
    };
    let condition = expect_terminator(before, ConditionOp::NAME, "before")?;
    let yield_op = expect_terminator(after, YieldOp::NAME, "after")?;
    Ok(Some((condition, yield_op)))
}

pub(super) fn verify_while(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    while_terminators(ctx, op).map(|_| ())
}

/// The types along `scf.while`'s control-flow edges.
pub(super) fn verify_while_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let Some((condition, yield_op)) = while_terminators(ctx, op)? else {
        return Ok(());
    };
    let regions = ctx.op_regions(op).to_vec();
    let (before, after) = (regions[0], regions[1]);
    let block_types = |region: Region| -> Vec<Type> {
        ctx.region_entry_block(region)
            .map(|b| ctx.block_args(b).map(|v| ctx.value_type(v)).collect())
            .unwrap_or_default()
    };
    let inits: Vec<Value> = ctx.operands(op).collect();
    let forwarded: Vec<Value> = ctx.operands(condition).skip(1).collect();
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    let yielded: Vec<Value> = ctx.operands(yield_op).collect();
    let before_types = block_types(before);
    check_edge(ctx, op, op, "Region #0", &inits, &before_types)?;
    check_edge(ctx, op, condition, "parent", &forwarded, &results)?;
    check_edge(
        ctx,
        op,
        condition,
        "Region #1",
        &forwarded,
        &block_types(after),
    )?;
    check_edge(ctx, op, yield_op, "Region #0", &yielded, &before_types)?;
    Ok(())
}

pub(super) fn verify_yield(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let parent = ctx.op_parent_op(op).map(|p| ctx.op_name_str(p));
    if !matches!(
        parent,
        Some("scf.execute_region" | "scf.for" | "scf.if" | "scf.index_switch" | "scf.while")
    ) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'",
        ));
    }
    Ok(())
}

pub(super) fn verify_condition(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    expect_parent(ctx, op, WhileOp::NAME)
}

/// `HasParent<"name">`.
pub(super) fn expect_parent(ctx: &Context, op: Operation, name: &str) -> Result<(), Diagnostic> {
    if ctx.op_parent_op(op).map(|p| ctx.op_name_str(p)) != Some(name) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!("expects parent op '{name}'"),
        ));
    }
    Ok(())
}

/// The boolean a known constant holds (`i1` integer attribute).
pub(super) fn constant_bool(ctx: &Context, value: Option<&Option<Attribute>>) -> Option<bool> {
    value.copied().flatten().and_then(|a| ctx.bool_value(a))
}

/// `scf.for` and `scf.parallel`: entering may skip the loop (zero trips)
/// or run the body; the body's end goes around again or out.
pub(super) fn loop_successors(
    _: &Context,
    _: Operation,
    _: Option<usize>,
    _: &[Option<Attribute>],
) -> Vec<RegionSuccessor> {
    vec![RegionSuccessor::Region(0), RegionSuccessor::Parent]
}

/// `scf.for` forwards its `iter_args`.
pub(super) fn for_entry_operands(ctx: &Context, op: Operation) -> Vec<Value> {
    ForOp(op).init_args(ctx)
}

/// The induction variable receives no forwarded value.
pub(super) fn one_leading_argument(_: &Context, _: Operation, _: usize) -> usize {
    1
}

/// No operand is forwarded (they steer control only).
pub(super) fn no_entry_operands(_: &Context, _: Operation) -> Vec<Value> {
    Vec::new()
}

pub(super) fn no_leading_arguments(_: &Context, _: Operation, _: usize) -> usize {
    0
}

/// `scf.if`: entering goes to the region its condition selects, or to
/// either when it is not known (an empty `else` means straight out); each
/// region's end goes out.
pub(super) fn if_successors(
    ctx: &Context,
    op: Operation,
    point: Option<usize>,
    constants: &[Option<Attribute>],
) -> Vec<RegionSuccessor> {
    if point.is_some() {
        return vec![RegionSuccessor::Parent];
    }
    let else_region = match ctx.op_regions(op).get(1) {
        Some(&r) if !ctx.region_is_empty(r) => RegionSuccessor::Region(1),
        _ => RegionSuccessor::Parent,
    };
    match constant_bool(ctx, constants.first()) {
        Some(true) => vec![RegionSuccessor::Region(0)],
        Some(false) => vec![else_region],
        None => vec![RegionSuccessor::Region(0), else_region],
    }
}

/// `scf.while`: entering runs `before`; its `scf.condition` goes to `after`
/// or out (only one of them when the condition is known); `after` goes back
/// to `before`. Forwards all its operands.
pub(super) fn while_successors(
    ctx: &Context,
    _: Operation,
    point: Option<usize>,
    constants: &[Option<Attribute>],
) -> Vec<RegionSuccessor> {
    match point {
        None | Some(1) => vec![RegionSuccessor::Region(0)],
        Some(_) => match constant_bool(ctx, constants.first()) {
            Some(true) => vec![RegionSuccessor::Region(1)],
            Some(false) => vec![RegionSuccessor::Parent],
            None => vec![RegionSuccessor::Region(1), RegionSuccessor::Parent],
        },
    }
}

pub(super) fn all_operands(ctx: &Context, op: Operation) -> Vec<Value> {
    ctx.operands(op).collect()
}

/// `scf.condition` forwards its operands but the condition.
pub(super) fn condition_forwarded(ctx: &Context, op: Operation) -> Vec<Value> {
    ctx.operands(op).skip(1).collect()
}

/// The body of a loop with one region (`LoopLike`).
pub(super) fn first_region(ctx: &Context, op: Operation) -> Vec<Region> {
    ctx.op_regions(op).iter().take(1).copied().collect()
}

/// Both regions of `scf.while`, which run repeatedly (`LoopLike`).
pub(super) fn all_regions(ctx: &Context, op: Operation) -> Vec<Region> {
    ctx.op_regions(op).to_vec()
}

/// MLIR's `ForOp::getSpeculatability`: with a constant step of 1 the loop
/// ends, so it may run speculatively when its body may; with another step
/// it might not end.
pub(super) fn for_speculatability(ctx: &Context, op: Operation) -> Speculatability {
    match super::parallel::constant_int(ctx, ctx.operand(op, 2)) {
        Some(1) => Speculatability::RecursivelySpeculatable,
        _ => Speculatability::NotSpeculatable,
    }
}

/// `RecursivelySpeculatable` (`scf.if`).
pub(super) fn recursively_speculatable(_: &Context, _: Operation) -> Speculatability {
    Speculatability::RecursivelySpeculatable
}

/// Each region runs at most once per run of the op (`scf.if`,
/// `scf.index_switch`; MLIR 22 gives `scf.execute_region` no bounds).
pub(super) fn at_most_once(
    ctx: &Context,
    op: Operation,
    _: &[Option<Attribute>],
) -> Vec<Option<u64>> {
    vec![Some(1); ctx.op_regions(op).len()]
}
