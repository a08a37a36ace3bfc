//! The `tensor` dialect: strata's structured ops on value-semantic tensors.

use strata_ir::Context;

/// Register the tensor dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut().register_dialect("tensor");
}
