//! The `scf` dialect: structured control flow (MLIR's `scf`): `for` loops
//! with loop-carried values, `if` with results, `while` loops, switches on
//! an index, regions run once, and parallel loops with reductions.
//!
//! As MLIR's `Dialect/SCF/`: the op declarations are in `ops`, their custom
//! assembly forms in `syntax`, their verifiers and the region-branch
//! interface (which region control enters next) in `control_flow`, and the
//! canonicalization patterns in `canonicalize`; `index_switch`,
//! `execute_region` and `parallel` (with `scf.reduce`) have a file each.

mod canonicalize;
mod control_flow;
mod execute_region;
mod forall;
mod index_switch;
mod ops;
mod parallel;
mod syntax;
mod while_loop;

pub use ops::*;

use strata_ir::{Context, Operation, Region};

/// The terminator of the single block of `region`.
fn terminator(ctx: &Context, region: Region) -> Option<Operation> {
    ctx.region_entry_block(region)
        .and_then(|b| ctx.block_last_op(b))
}

/// Register the scf dialect.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "scf");
}
