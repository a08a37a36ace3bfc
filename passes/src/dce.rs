//! `dce`: erase operations that are trivially dead (no uses of their results
//! and no effects), cascading to the operations that fed them.

use strata_ir::pass::{Pass, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation, Value, WalkOrder};

#[pass(
    name = "dce",
    display_name = "DCE",
    summary = "Erase trivially dead operations"
)]
pub(crate) struct Dce;

impl Pass for Dce {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let erased = erase_trivially_dead(ctx, op);
        stats.add("num-dce'd", "Number of operations DCE'd", erased);
        Ok(())
    }
}

pub(crate) use strata_ir::rewrite::is_trivially_dead;

/// Erase every trivially dead op nested in `root`; returns how many.
pub(crate) fn erase_trivially_dead(ctx: &mut Context, root: Operation) -> u64 {
    let mut worklist = ctx.nested_ops(root, WalkOrder::PreOrder);
    // Later ops first, so that a use disappears before its definition is looked at.
    worklist.reverse();
    let mut erased = 0;
    let mut index = 0;
    while index < worklist.len() {
        let op = worklist[index];
        index += 1;
        if ctx.op_parent_block(op).is_none() || !is_trivially_dead(ctx, op) {
            continue;
        }
        let feeders: Vec<Operation> = ctx
            .operands(op)
            .filter_map(|v| match v {
                Value::Result(def, _) => Some(def),
                Value::Argument(..) => None,
            })
            .collect();
        ctx.erase_op(op);
        erased += 1;
        worklist.extend(feeders);
    }
    erased
}
