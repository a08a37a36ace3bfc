//! The `cf` dialect: unstructured control flow (MLIR's `cf`): branches
//! between the blocks of a region, and runtime assertions.
//!
//! As MLIR's `Dialect/ControlFlow/`: the op declarations are in `ops`, the
//! custom assembly form of `cf.switch` in `syntax`, and the check that each
//! branch passes its successor the values that block takes (MLIR's
//! `BranchOpInterface`) and the ops' own rules in `verify`, the
//! canonicalization patterns in `canonicalize`.

mod canonicalize;
mod ops;
mod syntax;
mod verify;

pub use ops::*;

use strata_ir::Context;

/// Register the cf dialect.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "cf");
}
