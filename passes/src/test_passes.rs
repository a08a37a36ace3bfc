//! Passes that exist to test the pass infrastructure itself (as MLIR's
//! `-test-*` passes do).

use strata_ir::pass::{Pass, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation};

#[pass(
    name = "test-reverse-ops",
    display_name = "TestReverseOps",
    summary = "Reverse the order of the operations of every block (leaves invalid IR; tests --verify-each)"
)]
pub(crate) struct ReverseOps;

impl Pass for ReverseOps {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        for region in ctx.op_regions(op).to_vec() {
            let blocks: Vec<_> = ctx.region_blocks(region).collect();
            for block in blocks {
                let ops: Vec<Operation> = ctx.block_ops(block).collect();
                for &o in &ops {
                    ctx.detach_op(o);
                }
                for &o in ops.iter().rev() {
                    ctx.append_op(block, o);
                }
            }
        }
        Ok(())
    }
}
