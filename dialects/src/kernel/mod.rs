//! The `kernel` dialect: target-neutral SPMD tile programs and the host plan.

use strata_ir::Context;

/// Register the kernel dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut().register_dialect("kernel");
}
