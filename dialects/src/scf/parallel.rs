//! `scf.parallel` and its terminator `scf.reduce` (with `scf.reduce.return`
//! ending each reduction): a loop nest whose iterations may run in any
//! order, and the values it reduces. Their custom form, verifiers and region
//! successors, as MLIR 22 has them:
//!
//! ```text
//! %sum = scf.parallel (%i) = (%lb) to (%ub) step (%c1) init (%zero) -> f32 {
//!   %x = memref.load %buffer[%i] : memref<?xf32>
//!   scf.reduce(%x : f32) {
//!   ^bb0(%lhs: f32, %rhs: f32):
//!     %s = arith.addf %lhs, %rhs : f32
//!     scf.reduce.return %s : f32
//!   }
//! }
//! ```

use strata_ir::parser::asm::{Delimiter, OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::printer::type_to_string;
use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Block, Context, Diagnostic, Operation, OperationState, Type, Value};

use super::control_flow::expect_parent;
use super::forall::{trip_count, Mixed};
use super::ops::{ParallelOp, ReduceOp};
use super::syntax::ensure_terminator_with;

pub(super) fn parse_parallel(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let mut ivs = p.parse_argument_list(Delimiter::Paren, false, false)?;
    let index = p.ctx().index_type();
    let bounds = |p: &mut OpAsmParser<'_, '_>, state: &mut OperationState| {
        let pos = p.pos();
        let operands = p.parse_operand_list(Delimiter::Paren)?;
        if operands.len() != ivs.len() {
            return Err(p.error_at(pos, format!("expected {} operands", ivs.len())));
        }
        for operand in operands {
            state.operands.push(p.resolve_operand(operand, index)?);
        }
        Ok::<usize, Diagnostic>(ivs.len())
    };
    p.parse_punct(Punct::Equal)?;
    let lower = bounds(p, state)?;
    p.parse_keyword("to")?;
    let upper = bounds(p, state)?;
    p.parse_keyword("step")?;
    let steps = bounds(p, state)?;
    let inits = if p.parse_optional_keyword("init") {
        p.parse_operand_list(Delimiter::Paren)?
    } else {
        Vec::new()
    };
    if p.parse_optional_punct(Punct::Arrow) {
        state.result_types = p.parse_function_result_types()?;
    }
    for iv in &mut ivs {
        iv.ty = Some(index);
    }
    let region = p.ctx().create_region();
    p.parse_region(region, &ivs)?;
    state.regions.push(region);
    let ctx = p.ctx();
    let sizes = ctx.segment_sizes_attr(&[lower, upper, steps, inits.len()]);
    state
        .attributes
        .push((ctx.ident("operandSegmentSizes"), sizes));
    state.attributes.extend(p.parse_optional_attr_dict()?);
    let types = state.result_types.clone();
    if inits.len() != types.len() {
        let pos = p.name_pos();
        return Err(p.error_at(
            pos,
            format!(
                "number of operands and types do not match: got {} operands and {} types",
                inits.len(),
                types.len()
            ),
        ));
    }
    for (init, ty) in inits.into_iter().zip(types) {
        state.operands.push(p.resolve_operand(init, ty)?);
    }
    let loc = p.loc(p.name_pos());
    ensure_terminator_with(p.ctx(), region, loc, |ctx, loc| {
        ReduceOp::build(ctx, loc, &[], 0).op()
    });
    Ok(())
}

pub(super) fn print_parallel(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let parallel = ParallelOp(op);
    let Some(region) = ctx.op_regions(op).first().copied() else {
        return;
    };
    let ivs: Vec<_> = ctx
        .region_entry_block(region)
        .map(|b| ctx.block_args(b).collect())
        .unwrap_or_default();
    p.write(" (");
    p.print_operands(ivs);
    p.write(") = (");
    p.print_operands(parallel.lower_bound(ctx));
    p.write(") to (");
    p.print_operands(parallel.upper_bound(ctx));
    p.write(") step (");
    p.print_operands(parallel.step(ctx));
    p.write_char(')');
    let inits: Vec<_> = parallel.init_vals(ctx);
    if !inits.is_empty() {
        p.write(" init (");
        p.print_operands(inits);
        p.write_char(')');
    }
    let types: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    if !types.is_empty() {
        p.write(" -> ");
        p.print_result_types(&types);
    }
    p.write_char(' ');
    p.print_region(region, false, true);
    p.print_optional_attr_dict(op, &["operandSegmentSizes"]);
}

/// MLIR 22's `ParallelOp::verify`: at least one dimension, positive
/// constant steps, one index induction variable per dimension, and an
/// `scf.reduce` with one reduction per result, of its type.
pub(super) fn verify_parallel(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let parallel = ParallelOp(op);
    let steps: Vec<_> = parallel.step(ctx);
    if steps.is_empty() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "needs at least one tuple element for lowerBound, upperBound and step",
        ));
    }
    if steps
        .iter()
        .any(|&s| constant_int(ctx, s).is_some_and(|c| c <= 0))
    {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "constant step operand must be positive",
        ));
    }
    let Some(region) = ctx.op_regions(op).first().copied() else {
        return Ok(());
    };
    let Some(body) = ctx.region_entry_block(region) else {
        return Ok(());
    };
    let args: Vec<_> = ctx.block_args(body).collect();
    if args.len() != steps.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "expects the same number of induction variables: {} as bound and step values: {}",
                args.len(),
                steps.len()
            ),
        ));
    }
    if args
        .iter()
        .any(|&a| !matches!(ctx.type_kind(ctx.value_type(a)), strata_ir::TypeKind::Index))
    {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "expects arguments for the induction variable to be of index type",
        ));
    }
    let last = ctx.block_last_op(body);
    let Some(reduce) = last.filter(|&t| ctx.op_name_str(t) == ReduceOp::NAME) else {
        let mut diag = Diagnostic::op_error(ctx, op, "expects body to terminate with 'scf.reduce'");
        if let Some(t) = last {
            diag = diag.with_note(ctx.op_loc(t), "terminator here");
        }
        return Err(diag);
    };
    let results = ctx.num_results(op);
    let reductions = ctx.op_regions(reduce).len();
    let inits = parallel.init_vals(ctx).len();
    if results != reductions {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "expects number of results: {results} to be the same as number of reductions: {reductions}"
            ),
        ));
    }
    if results != inits {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "expects number of results: {results} to be the same as number of initial values: {inits}"
            ),
        ));
    }
    for (i, (result, operand)) in ctx.results(op).zip(ctx.operands(reduce)).enumerate() {
        let (want, have) = (ctx.value_type(result), ctx.value_type(operand));
        if want != have {
            return Err(Diagnostic::op_error(
                ctx,
                reduce,
                format!(
                    "expects type of {i}-th reduction operand: '{}' to be the same as the {i}-th result type: '{}'",
                    type_to_string(ctx, have),
                    type_to_string(ctx, want)
                ),
            ));
        }
    }
    Ok(())
}

/// The induction variables receive no forwarded value.
pub(super) fn parallel_leading_arguments(ctx: &Context, op: Operation, _: usize) -> usize {
    ctx.op_regions(op)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
        .map_or(0, |b| ctx.num_block_args(b))
}

/// `scf.reduce` forwards nothing to the loop's results (they are its
/// reductions', which no value carries).
pub(super) fn reduce_forwarded(_: &Context, _: Operation) -> Vec<strata_ir::Value> {
    Vec::new()
}

/// `scf.reduce` sits in `scf.parallel` (`HasParent`).
pub(super) fn verify_reduce(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    expect_parent(ctx, op, ParallelOp::NAME)
}

/// Each reduction region has two arguments of its operand's type and ends
/// in `scf.reduce.return`.
pub(super) fn verify_reduce_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    for (i, (&region, operand)) in ctx.op_regions(op).iter().zip(ctx.operands(op)).enumerate() {
        let ty = ctx.value_type(operand);
        let Some(block) = ctx.region_entry_block(region) else {
            continue;
        };
        let Some(last) = ctx.block_last_op(block) else {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("{i}-th reduction has an empty body"),
            ));
        };
        let args: Vec<_> = ctx.block_args(block).collect();
        if args.len() != 2 || args.iter().any(|&a| ctx.value_type(a) != ty) {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "expected two block arguments with type '{}' in the {i}-th reduction region",
                    type_to_string(ctx, ty)
                ),
            ));
        }
        if ctx.op_name_str(last) != "scf.reduce.return" {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                "reduction bodies must be terminated with an 'scf.reduce.return' op",
            ));
        }
    }
    Ok(())
}

/// `scf.reduce.return` sits in `scf.reduce` and returns the type of the
/// reduction's arguments.
pub(super) fn verify_reduce_return(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    expect_parent(ctx, op, ReduceOp::NAME)?;
    let Some(block) = ctx.op_parent_block(op) else {
        return Ok(());
    };
    let (Some(arg), Some(value)) = (ctx.block_args(block).next(), ctx.operands(op).next()) else {
        return Ok(());
    };
    let (want, have) = (ctx.value_type(arg), ctx.value_type(value));
    if want != have {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "must have type '{}' (the type of the reduction inputs)",
                type_to_string(ctx, want)
            ),
        ));
    }
    Ok(())
}

/// MLIR's `ParallelOp` canonicalization patterns, in its order.
pub(super) fn parallel_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        ParallelOp::NAME,
        "ParallelOpSingleOrZeroIterationDimsFolder",
        single_or_zero_iteration_dims,
    ));
    set.add(FnPattern::new(
        ParallelOp::NAME,
        "MergeNestedParallelLoops",
        merge_nested,
    ));
}

/// The body block of an `scf.parallel`.
fn body(ctx: &Context, op: Operation) -> Option<Block> {
    ctx.op_regions(op)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
}

/// A new `scf.parallel` before `op` with these bounds and initial values
/// (`op`'s attributes but the segment sizes) and a body block with its
/// induction variables but no operation.
fn build_parallel(
    rewriter: &mut PatternRewriter<'_>,
    op: Operation,
    bounds: [&[Value]; 3],
    inits: &[Value],
) -> (Operation, Block) {
    let ctx = rewriter.ctx_mut();
    let loc = ctx.op_loc(op);
    let region = ctx.create_region();
    let block = ctx.create_block();
    ctx.append_block(region, block);
    let index = ctx.index_type();
    for _ in bounds[0] {
        ctx.add_block_argument(block, index, loc);
    }
    let mut state = OperationState::new(ctx.ident(ParallelOp::NAME), loc);
    for list in bounds {
        state.operands.extend_from_slice(list);
    }
    state.operands.extend_from_slice(inits);
    state.result_types = inits.iter().map(|&v| ctx.value_type(v)).collect();
    let sizes = ctx.segment_sizes_attr(&[
        bounds[0].len(),
        bounds[1].len(),
        bounds[2].len(),
        inits.len(),
    ]);
    let mut properties: Vec<_> = ctx
        .op_properties(op)
        .map(|p| ctx.dictionary_entries(p).to_vec())
        .unwrap_or_default();
    properties.retain(|(name, _)| ctx.ident_str(*name) != "operandSegmentSizes");
    properties.push((ctx.ident("operandSegmentSizes"), sizes));
    state.properties = Some(ctx.dictionary_attr(properties));
    state.attributes = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
    state.regions.push(region);
    let new = ctx.create_operation(state);
    rewriter.set_insertion_point(op);
    rewriter.insert(new);
    (new, block)
}

/// Move the operations of `from` to the end of `to`.
fn move_ops(ctx: &mut Context, from: Block, to: Block) {
    let ops: Vec<Operation> = ctx.block_ops(from).collect();
    for inner in ops {
        ctx.detach_op(inner);
        ctx.append_op(to, inner);
    }
}

/// MLIR's `ParallelOpSingleOrZeroIterationDimsFolder`: a loop with a
/// dimension of no iteration is its initial values; a dimension of one
/// iteration goes, its induction variable replaced by the lower bound; with
/// none left, the body and then each reduction run in the loop's place.
fn single_or_zero_iteration_dims(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let parallel = ParallelOp(op);
    let (lower, upper, step) = (
        parallel.lower_bound(ctx),
        parallel.upper_bound(ctx),
        parallel.step(ctx),
    );
    let inits = parallel.init_vals(ctx);
    let Some(block) = body(ctx, op) else {
        return false;
    };
    let ivs: Vec<Value> = ctx.block_args(block).collect();
    let mut kept: [Vec<Value>; 3] = Default::default();
    let mut kept_ivs = Vec::new();
    let mut single = Vec::new();
    for (i, ((&lb, &ub), &st)) in lower.iter().zip(&upper).zip(&step).enumerate() {
        let (l, u, s) = (Mixed::Dynamic(lb), Mixed::Dynamic(ub), Mixed::Dynamic(st));
        match trip_count(ctx, l, u, s) {
            Some(0) => {
                rewriter.replace_op(op, &inits);
                return true;
            }
            Some(1) => single.push((i, lb)),
            _ => {
                kept[0].push(lb);
                kept[1].push(ub);
                kept[2].push(st);
                kept_ivs.push(ivs[i]);
            }
        }
    }
    if single.is_empty() {
        return false;
    }
    for &(i, lb) in &single {
        rewriter.replace_all_uses_with(ivs[i], lb);
    }
    if !kept_ivs.is_empty() {
        let (new, new_block) = build_parallel(rewriter, op, [&kept[0], &kept[1], &kept[2]], &inits);
        let new_ivs: Vec<Value> = rewriter.ctx().block_args(new_block).collect();
        for (&iv, &new_iv) in kept_ivs.iter().zip(&new_ivs) {
            rewriter.replace_all_uses_with(iv, new_iv);
        }
        move_ops(rewriter.ctx_mut(), block, new_block);
        let results: Vec<Value> = rewriter.ctx().results(new).collect();
        rewriter.replace_op(op, &results);
        return true;
    }
    // Every dimension runs once: the body, then each reduction combining
    // the initial value with the body's value.
    let ops: Vec<Operation> = rewriter.ctx().block_ops(block).collect();
    let Some((&reduce, body_ops)) = ops.split_last() else {
        return false;
    };
    for &inner in body_ops {
        rewriter.move_op_before(inner, op);
    }
    let ctx = rewriter.ctx();
    let operands: Vec<Value> = ctx.operands(reduce).collect();
    let regions = ctx.op_regions(reduce).to_vec();
    let mut results = Vec::new();
    for ((&region, &operand), &init) in regions.iter().zip(&operands).zip(&inits) {
        let Some(reduction) = rewriter.ctx().region_entry_block(region) else {
            return false;
        };
        let args: Vec<Value> = rewriter.ctx().block_args(reduction).collect();
        if let [lhs, rhs] = args.as_slice() {
            rewriter.replace_all_uses_with(*lhs, init);
            rewriter.replace_all_uses_with(*rhs, operand);
        }
        let ops: Vec<Operation> = rewriter.ctx().block_ops(reduction).collect();
        let Some((&ret, reduction_ops)) = ops.split_last() else {
            return false;
        };
        for &inner in reduction_ops {
            rewriter.move_op_before(inner, op);
        }
        results.push(rewriter.ctx().operand(ret, 0));
    }
    rewriter.replace_op(op, &results);
    true
}

/// MLIR's `MergeNestedParallelLoops`: an `scf.parallel` whose body is only
/// another one, without reductions and with bounds that do not use the
/// outer induction variables, becomes one loop over both dimensions.
fn merge_nested(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let Some(outer) = body(ctx, op) else {
        return false;
    };
    let ops: Vec<Operation> = ctx.block_ops(outer).collect();
    let [inner, _] = ops.as_slice() else {
        return false;
    };
    let inner = *inner;
    if ctx.op_name_str(inner) != ParallelOp::NAME {
        return false;
    }
    let (o, i) = (ParallelOp(op), ParallelOp(inner));
    if !o.init_vals(ctx).is_empty() || !i.init_vals(ctx).is_empty() {
        return false;
    }
    let outer_ivs: Vec<Value> = ctx.block_args(outer).collect();
    let inner_bounds: Vec<Value> = [i.lower_bound(ctx), i.upper_bound(ctx), i.step(ctx)].concat();
    if outer_ivs.iter().any(|iv| inner_bounds.contains(iv)) {
        return false;
    }
    let Some(inner_body) = body(ctx, inner) else {
        return false;
    };
    let inner_ivs: Vec<Value> = ctx.block_args(inner_body).collect();
    let lower = [o.lower_bound(ctx), i.lower_bound(ctx)].concat();
    let upper = [o.upper_bound(ctx), i.upper_bound(ctx)].concat();
    let step = [o.step(ctx), i.step(ctx)].concat();
    let (_, block) = build_parallel(rewriter, op, [&lower, &upper, &step], &[]);
    let new_ivs: Vec<Value> = rewriter.ctx().block_args(block).collect();
    for (&iv, &new_iv) in outer_ivs.iter().chain(&inner_ivs).zip(&new_ivs) {
        rewriter.replace_all_uses_with(iv, new_iv);
    }
    move_ops(rewriter.ctx_mut(), inner_body, block);
    rewriter.replace_op(op, &[]);
    true
}

/// The integer a constant-like op's `value` holds (MLIR's
/// `getConstantIntValue`, without folding).
pub(super) fn constant_int(ctx: &Context, value: strata_ir::Value) -> Option<i128> {
    let attr = strata_ir::rewrite::constant_attr(ctx, value)?;
    match ctx.attr_kind(attr) {
        strata_ir::AttrKind::Integer { ty, value } => {
            let width = ctx.int_or_float_bit_width(*ty)?;
            Some(strata_ir::attributes::sign_extend(*value, width))
        }
        _ => None,
    }
}
