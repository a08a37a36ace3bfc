//! `scf.execute_region`: runs its region, which may hold several blocks,
//! once, and yields its values. Its custom form, verifier, region
//! successors and the patterns that inline it (unless `no_inline`), as
//! MLIR 22 has them:
//!
//! ```text
//! %v = scf.execute_region -> i64 {
//!   cf.cond_br %c, ^bb1, ^bb2
//! ^bb1:
//!   scf.yield %a : i64
//! ^bb2:
//!   scf.yield %b : i64
//! }
//! ```

use strata_ir::interfaces::RegionSuccessor;
use strata_ir::parser::asm::{OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Block, Context, Diagnostic, Operation, OperationState, Type, Value};

use super::ops::{ExecuteRegionOp, YieldOp};

pub(super) fn parse_execute_region(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    if p.parse_optional_punct(Punct::Arrow) {
        state.result_types = p.parse_function_result_types()?;
    }
    if p.parse_optional_keyword("no_inline") {
        let unit = p.ctx().unit_attr();
        let name = p.ctx().ident("no_inline");
        state.attributes.push((name, unit));
    }
    let region = p.ctx().create_region();
    p.parse_region(region, &[])?;
    state.regions.push(region);
    state.attributes.extend(p.parse_optional_attr_dict()?);
    Ok(())
}

pub(super) fn print_execute_region(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let types: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    if !types.is_empty() {
        p.write(" -> ");
        p.print_result_types(&types);
    }
    if ExecuteRegionOp(op).no_inline(ctx).is_some() {
        p.write(" no_inline");
    }
    p.write_char(' ');
    if let Some(&region) = ctx.op_regions(op).first() {
        p.print_region(region, false, true);
    }
    p.print_optional_attr_dict(op, &["no_inline"]);
}

pub(super) fn verify_execute_region(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let entry = ctx
        .op_regions(op)
        .first()
        .and_then(|&r| ctx.region_entry_block(r));
    let Some(entry) = entry else {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "region needs to have at least one block",
        ));
    };
    if ctx.block_args(entry).len() > 0 {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "region cannot have any arguments",
        ));
    }
    Ok(())
}

/// Entering runs the region; its end goes out.
pub(super) fn execute_region_successors(
    _: &Context,
    _: Operation,
    point: Option<usize>,
    _: &[Option<strata_ir::Attribute>],
) -> Vec<RegionSuccessor> {
    match point {
        None => vec![RegionSuccessor::Region(0)],
        Some(_) => vec![RegionSuccessor::Parent],
    }
}

pub(super) fn execute_region_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        "scf.execute_region",
        "SingleBlockExecuteInliner",
        inline_single_block,
    ));
    set.add(FnPattern::new(
        "scf.execute_region",
        "MultiBlockExecuteInliner",
        inline_multi_block,
    ));
}

/// The region's blocks, when the op may be inlined.
fn inlinable_blocks(rewriter: &PatternRewriter<'_>, op: Operation) -> Option<Vec<Block>> {
    let ctx = rewriter.ctx();
    if ExecuteRegionOp(op).no_inline(ctx).is_some() {
        return None;
    }
    let region = *ctx.op_regions(op).first()?;
    Some(ctx.region_blocks(region).collect())
}

/// MLIR's `SingleBlockExecuteInliner`: a single block's ops replace the
/// op, its terminator's operands the results.
fn inline_single_block(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(blocks) = inlinable_blocks(rewriter, op) else {
        return false;
    };
    let [block] = blocks.as_slice() else {
        return false;
    };
    let ops: Vec<Operation> = rewriter.ctx().block_ops(*block).collect();
    let Some((&terminator, body)) = ops.split_last() else {
        return false;
    };
    for &inner in body {
        rewriter.move_op_before(inner, op);
    }
    let results: Vec<Value> = rewriter.ctx().operands(terminator).collect();
    rewriter.replace_op(op, &results);
    true
}

/// MLIR's `MultiBlockExecuteInliner`: in a function (or another
/// `scf.execute_region`), the op's block is split before it, branches into
/// the region, whose `scf.yield`s branch to the rest of the block, which
/// takes the results as arguments.
fn inline_multi_block(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(blocks) = inlinable_blocks(rewriter, op) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let parent_ok = ctx.op_parent_op(op).is_some_and(|p| {
        ctx.op_name_str(p) == ExecuteRegionOp::NAME
            || ctx.op_definition(p).is_some_and(|d| d.traits.callable)
    });
    let (Some(&entry), Some(prev)) = (blocks.first(), ctx.op_parent_block(op)) else {
        return false;
    };
    if !parent_ok {
        return false;
    }
    let loc = ctx.op_loc(op);
    // Split: `op` and what follows it go to a new block after `prev`.
    let ctx = rewriter.ctx_mut();
    let post = ctx.create_block();
    match ctx.block_next(prev) {
        Some(next) => ctx.insert_block_before(post, next),
        None => {
            let Some(region) = ctx.block_parent_region(prev) else {
                return false;
            };
            ctx.append_block(region, post);
        }
    }
    let mut moved = Vec::new();
    let mut current = Some(op);
    while let Some(o) = current {
        current = ctx.op_next(o);
        moved.push(o);
    }
    for o in moved {
        ctx.detach_op(o);
        ctx.append_op(post, o);
    }
    let branch = crate::cf::BranchOp::build(ctx, loc, &[], entry);
    ctx.append_op(prev, branch.op());
    for &block in &blocks {
        let Some(terminator) = rewriter.ctx().block_last_op(block) else {
            continue;
        };
        if rewriter.ctx().op_name_str(terminator) != YieldOp::NAME {
            continue;
        }
        let values: Vec<Value> = rewriter.ctx().operands(terminator).collect();
        let yield_loc = rewriter.ctx().op_loc(terminator);
        let to_post = crate::cf::BranchOp::build(rewriter.ctx_mut(), yield_loc, &values, post);
        rewriter.set_insertion_point(terminator);
        rewriter.insert(to_post.op());
        rewriter.erase_op(terminator);
    }
    let ctx = rewriter.ctx_mut();
    for &block in &blocks {
        ctx.detach_block(block);
        ctx.insert_block_before(block, post);
    }
    let results: Vec<Value> = ctx.results(op).collect();
    let mut args = Vec::with_capacity(results.len());
    for result in results {
        let ty = ctx.value_type(result);
        args.push(ctx.add_block_argument(post, ty, loc));
    }
    rewriter.replace_op(op, &args);
    true
}
