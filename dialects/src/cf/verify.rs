//! The branches' verifiers: each successor gets as many values as it has
//! block arguments, of their types (MLIR's `BranchOpInterface`, with its
//! messages, which name no op).

use strata_ir::{Context, Diagnostic, Operation, Value};

use super::ops::{BranchOp, CondBranchOp};

/// `values` against the arguments of successor `index` of `op`.
fn verify_successor(
    ctx: &Context,
    op: Operation,
    index: usize,
    values: &[Value],
) -> Result<(), Diagnostic> {
    let Some(dest) = ctx.successors(op).nth(index) else {
        return Ok(());
    };
    let args: Vec<Value> = ctx.block_args(dest).collect();
    if values.len() != args.len() {
        return Err(Diagnostic::error(
            ctx.op_loc(op),
            format!(
                "branch has {} operands for successor #{index}, but target block has {}",
                values.len(),
                args.len()
            ),
        )
        .on_op(op));
    }
    for (i, (&v, &a)) in values.iter().zip(&args).enumerate() {
        if ctx.value_type(v) != ctx.value_type(a) {
            return Err(Diagnostic::error(
                ctx.op_loc(op),
                format!("type mismatch for bb argument #{i} of successor #{index}"),
            )
            .on_op(op));
        }
    }
    Ok(())
}

pub(super) fn verify_br(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    verify_successor(ctx, op, 0, &BranchOp(op).dest_operands(ctx))
}

pub(super) fn verify_cond_br(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let branch = CondBranchOp(op);
    verify_successor(ctx, op, 0, &branch.true_dest_operands(ctx))?;
    verify_successor(ctx, op, 1, &branch.false_dest_operands(ctx))
}
