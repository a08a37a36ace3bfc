//! Passes that exist to test the pass infrastructure itself (as MLIR's
//! `-test-*` passes do).

use strata_ir::pass::{Pass, PassRegistration, Statistics};
use strata_ir::{Context, Diagnostic, Operation};

pub(crate) fn registrations() -> [PassRegistration; 1] {
    [PassRegistration {
        name: "test-reverse-ops",
        description: "Reverse the order of the operations of every block (leaves invalid IR; tests --verify-each)",
        options: &[],
        create: || Box::new(ReverseOps),
    }]
}

struct ReverseOps;

impl Pass for ReverseOps {
    fn name(&self) -> &'static str {
        "test-reverse-ops"
    }

    fn display_name(&self) -> &'static str {
        "TestReverseOps"
    }

    fn description(&self) -> &'static str {
        "Reverse the order of the operations of every block"
    }

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
