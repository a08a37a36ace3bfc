//! `scf.forall` and its terminator `scf.forall.in_parallel`: MLIR 22's
//! custom form (bounds mixing SSA values and integers, the normalized
//! `in (...)` form, `shared_outs`), its verifier and its canonicalization
//! patterns.
//!
//! A bound is held as MLIR holds it: a `DenseI64ArrayAttr` per kind
//! (`staticLowerBound`, `staticUpperBound`, `staticStep`) whose
//! [`DYNAMIC`] entries take, in order, the kind's operands.
//!
//! strata has no `ParallelCombiningOpInterface` op (MLIR's is
//! `tensor.parallel_insert_slice`), so an `scf.forall.in_parallel` here is
//! always empty and no shared output is ever written: the canonicalizer
//! forwards every one (MLIR's `ForallOpIterArgsFolder` does the same for a
//! shared output no combining op writes).

use strata_ir::parser::asm::{Argument, Delimiter, OpAsmParser, Punct};
use strata_ir::parser::UnresolvedOperand;
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::types::DYNAMIC;
use strata_ir::{
    AttrKind, Attribute, Context, Diagnostic, Operation, OperationState, Type, TypeKind, Value,
};

use super::ops::{ForallOp, InParallelOp};
use super::parallel::constant_int;
use super::syntax::{ensure_terminator_with, parse_init_list, print_init_list};

/// The three kinds of bound, with the attribute holding each and its name
/// in diagnostics, in operand order.
const BOUNDS: [(&str, &str); 3] = [
    ("staticLowerBound", "lower bound"),
    ("staticUpperBound", "upper bound"),
    ("staticStep", "step"),
];

/// The attributes the custom form leaves out of the attribute dictionary.
const ELIDED: [&str; 4] = [
    "operandSegmentSizes",
    "staticLowerBound",
    "staticUpperBound",
    "staticStep",
];

/// One bound of each dimension: an integer, or a value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mixed {
    Static(i64),
    Dynamic(Value),
}

/// `(%a, 4, ...)`: MLIR's `parseDynamicIndexList`. An integer is held in
/// the static list, a value as [`DYNAMIC`] there and in the operand list.
fn parse_index_list<'a>(
    p: &mut OpAsmParser<'_, 'a>,
) -> Result<(Vec<UnresolvedOperand<'a>>, Vec<i64>), Diagnostic> {
    let (mut values, mut statics) = (Vec::new(), Vec::new());
    p.parse_punct(Punct::LParen)?;
    if p.parse_optional_punct(Punct::RParen) {
        return Ok((values, statics));
    }
    loop {
        if let Some(operand) = p.parse_optional_operand()? {
            values.push(operand);
            statics.push(DYNAMIC);
        } else {
            let pos = p.pos();
            let value = p.parse_integer()?;
            let Ok(value) = i64::try_from(value) else {
                return Err(p.error_at(pos, "integer value too large"));
            };
            statics.push(value);
        }
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RParen)?;
    Ok((values, statics))
}

/// The integers of an `i64` dense array attribute.
fn dense_values(ctx: &Context, attr: Option<Attribute>) -> Vec<i64> {
    match attr.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::DenseArray { values, .. }) => values.iter().map(|&v| v as i64).collect(),
        _ => Vec::new(),
    }
}

/// `scf.forall (%i, ...) in (ubs)` or `= (lbs) to (ubs) step (steps)`,
/// then `shared_outs(%o = %t, ...) -> (types)`, the body and attributes.
pub(super) fn parse_forall(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let mut ivs = p.parse_argument_list(Delimiter::Paren, false, false)?;
    let rank = ivs.len();
    let (lower, upper, step) = if p.parse_optional_keyword("in") {
        let upper = parse_index_list(p)?;
        let lower = (Vec::new(), vec![0; rank]);
        let step = (Vec::new(), vec![1; rank]);
        (lower, upper, step)
    } else {
        p.parse_punct(Punct::Equal)?;
        let lower = parse_index_list(p)?;
        p.parse_keyword("to")?;
        let upper = parse_index_list(p)?;
        p.parse_keyword("step")?;
        let step = parse_index_list(p)?;
        (lower, upper, step)
    };
    let index = p.ctx().index_type();
    let mut sizes = Vec::new();
    for (values, _) in [&lower, &upper, &step] {
        for &value in values {
            state.operands.push(p.resolve_operand(value, index)?);
        }
        sizes.push(values.len());
    }

    let outs_pos = p.pos();
    let (mut out_args, mut outs): (Vec<Argument<'_>>, Vec<_>) = (Vec::new(), Vec::new());
    if p.parse_optional_keyword("shared_outs") {
        (out_args, outs) = parse_init_list(p)?;
        if p.parse_optional_punct(Punct::Arrow) {
            state.result_types = p.parse_function_result_types()?;
        }
        if outs.len() != state.result_types.len() {
            return Err(p.error_at(
                outs_pos,
                format!(
                    "number of operands and types do not match: got {} operands and {} types",
                    outs.len(),
                    state.result_types.len()
                ),
            ));
        }
        for (&out, &ty) in outs.iter().zip(&state.result_types) {
            state.operands.push(p.resolve_operand(out, ty)?);
        }
    }
    sizes.push(outs.len());

    for iv in &mut ivs {
        iv.ty = Some(index);
    }
    for (arg, &ty) in out_args.iter_mut().zip(&state.result_types) {
        arg.ty = Some(ty);
    }
    ivs.extend(out_args);
    let region = p.ctx().create_region();
    p.parse_region(region, &ivs)?;
    let loc = p.loc(p.name_pos());
    ensure_terminator_with(p.ctx(), region, loc, build_in_parallel);
    state.regions.push(region);
    state.attributes.extend(p.parse_optional_attr_dict()?);

    let ctx = p.ctx();
    for ((name, _), (_, statics)) in BOUNDS.iter().zip([&lower, &upper, &step]) {
        let attr = ctx.dense_i64_array(statics);
        state.attributes.push((ctx.ident(name), attr));
    }
    let sizes = ctx.segment_sizes_attr(&sizes);
    state
        .attributes
        .push((ctx.ident("operandSegmentSizes"), sizes));
    Ok(())
}

/// An `scf.forall.in_parallel` with an empty block.
pub(super) fn build_in_parallel(ctx: &mut Context, loc: strata_ir::Location) -> Operation {
    let op = InParallelOp::build(ctx, loc).op();
    if let Some(&region) = ctx.op_regions(op).first() {
        let block = ctx.create_block();
        ctx.append_block(region, block);
    }
    op
}

/// The bounds of one kind (0: lower, 1: upper, 2: step), static or not.
fn mixed(ctx: &Context, op: Operation, kind: usize) -> Vec<Mixed> {
    let forall = ForallOp(op);
    let values = match kind {
        0 => forall.dynamic_lower_bound(ctx),
        1 => forall.dynamic_upper_bound(ctx),
        _ => forall.dynamic_step(ctx),
    };
    let statics = dense_values(ctx, strata_ir::ods::inherent_attr(ctx, op, BOUNDS[kind].0));
    let mut values = values.into_iter();
    statics
        .into_iter()
        .map(|s| match (s == DYNAMIC).then(|| values.next()).flatten() {
            Some(v) => Mixed::Dynamic(v),
            None => Mixed::Static(s),
        })
        .collect()
}

/// The integer a bound is known to be: its static value, or a constant's.
fn known(ctx: &Context, bound: Mixed) -> Option<i128> {
    match bound {
        Mixed::Static(s) => Some(s as i128),
        Mixed::Dynamic(v) => constant_int(ctx, v),
    }
}

/// The number of dimensions (`staticLowerBound`'s size, MLIR's `getRank`).
fn rank(ctx: &Context, op: Operation) -> usize {
    dense_values(ctx, strata_ir::ods::inherent_attr(ctx, op, BOUNDS[0].0)).len()
}

/// The body block.
fn body(ctx: &Context, op: Operation) -> Option<strata_ir::Block> {
    ctx.op_regions(op)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
}

fn print_index_list(p: &mut OpAsmPrinter<'_, '_>, bounds: &[Mixed]) {
    p.write_char('(');
    for (i, bound) in bounds.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        match *bound {
            Mixed::Static(s) => p.write(&s.to_string()),
            Mixed::Dynamic(v) => p.print_operand(v),
        }
    }
    p.write_char(')');
}

pub(super) fn print_forall(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let Some(region) = ctx.op_regions(op).first().copied() else {
        return;
    };
    let rank = rank(ctx, op);
    let args: Vec<Value> = body(ctx, op)
        .map(|b| ctx.block_args(b).collect())
        .unwrap_or_default();
    let [lower, upper, step] = [0, 1, 2].map(|k| mixed(ctx, op, k));
    let normalized = lower.iter().all(|&b| known(ctx, b) == Some(0))
        && step.iter().all(|&b| known(ctx, b) == Some(1));
    let outs = ForallOp(op).outputs(ctx);
    let types: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    let (ivs, out_args) = args.split_at(rank.min(args.len()));
    let out_args = out_args.to_vec();
    p.write(" (");
    p.print_operands(ivs.iter().copied());
    if normalized {
        p.write(") in ");
        print_index_list(p, &upper);
    } else {
        p.write(") = ");
        print_index_list(p, &lower);
        p.write(" to ");
        print_index_list(p, &upper);
        p.write(" step ");
        print_index_list(p, &step);
    }
    print_init_list(p, " shared_outs", &out_args, &outs);
    p.write_char(' ');
    if !out_args.is_empty() {
        p.write("-> (");
        p.print_types(types.iter().copied());
        p.write(") ");
    }
    p.print_region(region, false, !types.is_empty());
    p.print_optional_attr_dict(op, &ELIDED);
}

/// `scf.forall.in_parallel { ... }`.
pub(super) fn parse_in_parallel(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let region = p.ctx().create_region();
    p.parse_region(region, &[])?;
    if p.ctx().region_is_empty(region) {
        let block = p.ctx().create_block();
        p.ctx().append_block(region, block);
    }
    state.regions.push(region);
    state.attributes.extend(p.parse_optional_attr_dict()?);
    Ok(())
}

pub(super) fn print_in_parallel(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let Some(region) = p.ctx().op_regions(op).first().copied() else {
        return;
    };
    p.write_char(' ');
    p.print_region(region, false, false);
    p.print_optional_attr_dict(op, &[]);
}

/// MLIR 22's `ForallOp::verify`: one result per shared output, the body's
/// arguments (an index per dimension, then one per shared output of its
/// type), the mapping's size, and the bound lists.
pub(super) fn verify_forall(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let rank = rank(ctx, op);
    let outs = ForallOp(op).outputs(ctx);
    let results = ctx.num_results(op);
    if results != outs.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "produces {results} results, but has only {} outputs",
                outs.len()
            ),
        ));
    }
    if let Some(block) = body(ctx, op) {
        let args: Vec<Value> = ctx.block_args(block).collect();
        if args.len() != rank + outs.len() {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("region expects {rank} arguments"),
            ));
        }
        for (i, &arg) in args[..rank].iter().enumerate() {
            if !matches!(ctx.type_kind(ctx.value_type(arg)), TypeKind::Index) {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!("expects {i}-th block argument to be an index"),
                ));
            }
        }
        for (i, (&arg, &out)) in args[rank..].iter().zip(&outs).enumerate() {
            if ctx.value_type(arg) != ctx.value_type(out) {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!("type mismatch between {i}-th output and corresponding block argument"),
                ));
            }
        }
    }
    if let Some(mapping) = strata_ir::ods::inherent_attr(ctx, op, "mapping") {
        if let AttrKind::Array(items) = ctx.attr_kind(mapping) {
            if !items.is_empty() && items.len() != rank {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    "mapping attribute size must match op rank",
                ));
            }
        }
    }
    let forall = ForallOp(op);
    let dynamic = [
        forall.dynamic_lower_bound(ctx).len(),
        forall.dynamic_upper_bound(ctx).len(),
        forall.dynamic_step(ctx).len(),
    ];
    for (&(attr, name), values) in BOUNDS.iter().zip(dynamic) {
        let statics = dense_values(ctx, strata_ir::ods::inherent_attr(ctx, op, attr));
        if statics.len() != rank {
            return Err(Diagnostic::error(
                ctx.op_loc(op),
                format!("expected {rank} {name} values, got {}", statics.len()),
            )
            .on_op(op));
        }
        let expected = statics.iter().filter(|&&s| s == DYNAMIC).count();
        if values != expected {
            return Err(Diagnostic::error(
                ctx.op_loc(op),
                format!("expected {expected} dynamic {name} values"),
            )
            .on_op(op));
        }
    }
    Ok(())
}

/// `SingleBlockImplicitTerminator<"scf::InParallelOp">`: the body ends in
/// `scf.forall.in_parallel` (checked after the ops inside, as MLIR's
/// region trait is).
pub(super) fn verify_forall_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let Some(block) = body(ctx, op) else {
        return Ok(());
    };
    let Some(last) = ctx.block_last_op(block) else {
        return Err(Diagnostic::op_error(ctx, op, "expects a non-empty block"));
    };
    if ctx.op_name_str(last) != InParallelOp::NAME {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "expects regions to end with '{}', found '{}'",
                InParallelOp::NAME,
                ctx.op_name_str(last)
            ),
        )
        .with_note(
            ctx.op_loc(op),
            format!(
                "in custom textual format, the absence of terminator implies '{}'",
                InParallelOp::NAME
            ),
        ));
    }
    Ok(())
}

/// `scf.forall.in_parallel` sits in `scf.forall` and holds only
/// `ParallelCombiningOpInterface` ops, of which strata has none.
pub(super) fn verify_in_parallel(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    super::control_flow::expect_parent(ctx, op, ForallOp::NAME)?;
    let nonempty = ctx
        .op_regions(op)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
        .and_then(|b| ctx.block_last_op(b))
        .is_some();
    if nonempty {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "expected only ParallelCombiningOpInterface ops",
        ));
    }
    Ok(())
}

/// The induction variables and shared outputs receive no forwarded value.
pub(super) fn forall_leading_arguments(ctx: &Context, op: Operation, _: usize) -> usize {
    body(ctx, op).map_or(0, |b| ctx.num_block_args(b))
}

/// `scf.forall.in_parallel` forwards nothing to the loop's results.
pub(super) fn in_parallel_forwarded(_: &Context, _: Operation) -> Vec<Value> {
    Vec::new()
}

pub(super) fn forall_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        ForallOp::NAME,
        "ForallOpControlOperandsFolder",
        control_operands,
    ));
    set.add(FnPattern::new(
        ForallOp::NAME,
        "ForallOpIterArgsFolder",
        iter_args,
    ));
    set.add(FnPattern::new(
        ForallOp::NAME,
        "ForallOpSingleOrZeroIterationDimsFolder",
        single_or_zero_iteration_dims,
    ));
}

/// The operands and inherent attributes of a loop with `bounds` (lower,
/// upper, step) and shared outputs `outs`.
fn bound_parts(
    ctx: &mut Context,
    bounds: &[Vec<Mixed>; 3],
    outs: &[Value],
) -> (Vec<Value>, Vec<(&'static str, Attribute)>) {
    let mut operands = Vec::new();
    let mut sizes = Vec::new();
    let mut attrs = Vec::new();
    for ((attr, _), list) in BOUNDS.iter().zip(bounds) {
        let mut statics = Vec::new();
        for bound in list {
            match *bound {
                Mixed::Static(s) => statics.push(s),
                Mixed::Dynamic(v) => {
                    statics.push(DYNAMIC);
                    operands.push(v);
                }
            }
        }
        sizes.push(statics.iter().filter(|&&s| s == DYNAMIC).count());
        attrs.push((*attr, ctx.dense_i64_array(&statics)));
    }
    sizes.push(outs.len());
    operands.extend_from_slice(outs);
    attrs.push(("operandSegmentSizes", ctx.segment_sizes_attr(&sizes)));
    (operands, attrs)
}

/// MLIR's `ForallOpControlOperandsFolder`: a bound that is a constant
/// becomes a static one.
fn control_operands(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let mut changed = false;
    let bounds = [0, 1, 2].map(|k| {
        mixed(ctx, op, k)
            .into_iter()
            .map(|b| match b {
                Mixed::Dynamic(v) => {
                    match constant_int(ctx, v).and_then(|c| i64::try_from(c).ok()) {
                        Some(c) => {
                            changed = true;
                            Mixed::Static(c)
                        }
                        None => b,
                    }
                }
                Mixed::Static(_) => b,
            })
            .collect::<Vec<_>>()
    });
    if !changed {
        return false;
    }
    let outs = ForallOp(op).outputs(ctx);
    rewriter.modify_op_in_place(op, |ctx| {
        let (operands, attrs) = bound_parts(ctx, &bounds, &outs);
        ctx.set_operands(op, &operands);
        for (name, value) in attrs {
            ctx.set_op_property(op, name, value);
        }
    });
    true
}

/// A new `scf.forall` before `op` with `bounds` and shared outputs `outs`,
/// `op`'s other attributes, and a body with its arguments but no
/// operation.
fn build_forall(
    rewriter: &mut PatternRewriter<'_>,
    op: Operation,
    bounds: &[Vec<Mixed>; 3],
    outs: &[Value],
) -> (Operation, strata_ir::Block) {
    let ctx = rewriter.ctx_mut();
    let loc = ctx.op_loc(op);
    let types: Vec<Type> = outs.iter().map(|&v| ctx.value_type(v)).collect();
    let region = ctx.create_region();
    let block = ctx.create_block();
    ctx.append_block(region, block);
    let index = ctx.index_type();
    for _ in 0..bounds[0].len() {
        ctx.add_block_argument(block, index, loc);
    }
    for &ty in &types {
        ctx.add_block_argument(block, ty, loc);
    }
    let (operands, attrs) = bound_parts(ctx, bounds, outs);
    let mut properties: Vec<(strata_ir::Ident, Attribute)> = ctx
        .op_properties(op)
        .map(|p| ctx.dictionary_entries(p).to_vec())
        .unwrap_or_default();
    properties.retain(|(name, _)| !ELIDED.contains(&ctx.ident_str(*name)));
    for (name, value) in attrs {
        properties.push((ctx.ident(name), value));
    }
    let mut state = OperationState::new(ctx.ident(ForallOp::NAME), loc);
    state.operands = operands;
    state.result_types = types;
    state.regions.push(region);
    state.properties = Some(ctx.dictionary_attr(properties));
    state.attributes = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
    let new = ctx.create_operation(state);
    rewriter.set_insertion_point(op);
    rewriter.insert(new);
    (new, block)
}

/// Move the body of `op` into `block` (the body of a new loop): its
/// induction variables that `ivs` keeps (in order) become `block`'s first
/// arguments, and its shared outputs `block`'s next ones, or, when
/// `forward` is set, their values.
fn move_body(
    rewriter: &mut PatternRewriter<'_>,
    op: Operation,
    block: strata_ir::Block,
    ivs: &[usize],
    forward: bool,
) {
    let ctx = rewriter.ctx();
    let Some(old) = body(ctx, op) else {
        return;
    };
    let rank = rank(ctx, op);
    let old_args: Vec<Value> = ctx.block_args(old).collect();
    let new_args: Vec<Value> = ctx.block_args(block).collect();
    let outs = ForallOp(op).outputs(ctx);
    for (k, &i) in ivs.iter().enumerate() {
        rewriter.replace_all_uses_with(old_args[i], new_args[k]);
    }
    for (j, &arg) in old_args.iter().skip(rank).enumerate() {
        let to = if forward {
            outs[j]
        } else {
            new_args[ivs.len() + j]
        };
        rewriter.replace_all_uses_with(arg, to);
    }
    let ctx = rewriter.ctx_mut();
    let ops: Vec<Operation> = ctx.block_ops(old).collect();
    for inner in ops {
        ctx.detach_op(inner);
        ctx.append_op(block, inner);
    }
}

/// MLIR's `ForallOpIterArgsFolder` where no op combines into a shared
/// output (strata has no combining op): every result is its shared
/// output's value, and the body reads that value directly.
fn iter_args(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let outs = ForallOp(op).outputs(ctx);
    if outs.is_empty() {
        return false;
    }
    let bounds = [0, 1, 2].map(|k| mixed(ctx, op, k));
    let ivs: Vec<usize> = (0..rank(ctx, op)).collect();
    let (_, block) = build_forall(rewriter, op, &bounds, &[]);
    move_body(rewriter, op, block, &ivs, true);
    rewriter.replace_op(op, &outs);
    true
}

/// The number of iterations of one dimension when it is known (MLIR's
/// `constantTripCount`): zero when the upper bound is the lower one or
/// below it.
pub(super) fn trip_count(ctx: &Context, lower: Mixed, upper: Mixed, step: Mixed) -> Option<i128> {
    if lower == upper {
        return Some(0);
    }
    let (lb, ub, st) = (known(ctx, lower)?, known(ctx, upper)?, known(ctx, step)?);
    if st <= 0 {
        return None;
    }
    if ub <= lb {
        return Some(0);
    }
    Some((ub - lb + st - 1) / st)
}

/// MLIR's `ForallOpSingleOrZeroIterationDimsFolder` (for a loop without a
/// mapping, or with an empty one): a loop with a dimension of no iteration is its shared
/// outputs; a dimension of one iteration goes, its induction variable
/// replaced by the lower bound; with none left, the body is inlined.
fn single_or_zero_iteration_dims(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let mapped = strata_ir::ods::inherent_attr(ctx, op, "mapping")
        .is_some_and(|m| !matches!(ctx.attr_kind(m), AttrKind::Array(items) if items.is_empty()));
    if mapped {
        return false;
    }
    let Some(old) = body(ctx, op) else {
        return false;
    };
    let [lower, upper, step] = [0, 1, 2].map(|k| mixed(ctx, op, k));
    let outs = ForallOp(op).outputs(ctx);
    let old_args: Vec<Value> = ctx.block_args(old).collect();
    let mut kept: [Vec<Mixed>; 3] = Default::default();
    let mut kept_ivs = Vec::new();
    let mut single = Vec::new();
    for (i, ((&lb, &ub), &st)) in lower.iter().zip(&upper).zip(&step).enumerate() {
        match trip_count(ctx, lb, ub, st) {
            Some(0) => {
                rewriter.replace_op(op, &outs);
                return true;
            }
            Some(1) => single.push((i, lb)),
            _ => {
                kept[0].push(lb);
                kept[1].push(ub);
                kept[2].push(st);
                kept_ivs.push(i);
            }
        }
    }
    if single.is_empty() {
        return false;
    }
    let loc = ctx.op_loc(op);
    rewriter.set_insertion_point(op);
    for (i, lb) in single {
        let value = match lb {
            Mixed::Dynamic(v) => v,
            Mixed::Static(s) => {
                let ctx = rewriter.ctx_mut();
                let index = ctx.index_type();
                let attr = ctx.integer_attr(index, s as i128);
                let constant = crate::arith::ConstantOp::build(ctx, loc, attr, index);
                rewriter.insert(constant.op());
                Value::Result(constant.op(), 0)
            }
        };
        rewriter.replace_all_uses_with(old_args[i], value);
    }
    if !kept_ivs.is_empty() {
        // The other dimensions make a smaller loop with the same body.
        let (new, block) = build_forall(rewriter, op, &kept, &outs);
        move_body(rewriter, op, block, &kept_ivs, false);
        let results: Vec<Value> = rewriter.ctx().results(new).collect();
        rewriter.replace_op(op, &results);
        return true;
    }
    // Every dimension runs once (MLIR's `promote`): the body, without its
    // terminator, takes the loop's place; the results are the shared
    // outputs.
    let rank = rank(rewriter.ctx(), op);
    for (&arg, &out) in old_args.iter().skip(rank).zip(&outs) {
        rewriter.replace_all_uses_with(arg, out);
    }
    let ops: Vec<Operation> = rewriter.ctx().block_ops(old).collect();
    for inner in ops {
        if rewriter.ctx().op_name_str(inner) == InParallelOp::NAME {
            rewriter.erase_op(inner);
            continue;
        }
        rewriter.ctx_mut().detach_op(inner);
        rewriter.set_insertion_point(op);
        rewriter.insert(inner);
    }
    rewriter.replace_op(op, &outs);
    true
}
