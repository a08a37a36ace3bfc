//! strata-passes: generic transformations (`canonicalize`, `cse`, `dce`,
//! `symbol-dce`, ...)
//! and, later, the graph- and tensor-level ones.
//!
//! Each pass lives in its own file and is registered by [`register_all`].

mod canonicalize;
mod cse;
mod dce;
mod graph;
mod inline;
mod reconcile_casts;
mod symbol_dce;
mod test_passes;

use strata_ir::pass::PassRegistry;

/// Register every pass of this crate.
pub fn register_all(registry: &mut PassRegistry) {
    registry.register(canonicalize::registration());
    registry.register(cse::registration());
    registry.register(dce::registration());
    for registration in graph::registrations() {
        registry.register(registration);
    }
    registry.register(inline::registration());
    registry.register(reconcile_casts::registration());
    registry.register(symbol_dce::registration());
    for registration in test_passes::registrations() {
        registry.register(registration);
    }
}
