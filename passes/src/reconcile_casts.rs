//! `reconcile-unrealized-casts`: fold away the
//! `builtin.unrealized_conversion_cast` operations that partial conversions
//! leave behind, as MLIR 22's pass of that name.
//!
//! Chains of casts that come back to their input types (`A -> B -> A`,
//! `A -> B -> C -> A`, or a single `A -> A`) are replaced by their inputs,
//! and casts without uses are erased, cascading up the chains (see
//! [`reconcile_unrealized_casts`]). Live casts that cannot be folded
//! (`A -> B` with a user of `B`) stay: like MLIR 22's pass, this one does
//! not fail on them.

use strata_ir::pass::{Pass, Statistics};
use strata_ir::rewrite::conversion::reconcile_unrealized_casts;
use strata_ir::{pass, Context, Diagnostic, Operation, WalkOrder};

#[pass(
    name = "reconcile-unrealized-casts",
    display_name = "ReconcileUnrealizedCastsPass",
    summary = "Simplify and eliminate unrealized conversion casts"
)]
pub(crate) struct ReconcileUnrealizedCasts;

impl Pass for ReconcileUnrealizedCasts {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        // MLIR's pass has no statistics; neither has this one.
        let casts = collect_casts(ctx, op);
        reconcile_unrealized_casts(ctx, &casts);
        Ok(())
    }
}

/// The casts nested in `root` (and `root` itself if it is one), in
/// program order.
fn collect_casts(ctx: &Context, root: Operation) -> Vec<Operation> {
    ctx.collect_ops(root, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&op| ctx.op_name_str(op) == "builtin.unrealized_conversion_cast")
        .collect()
}
