//! `tensor_to_kernel`.

use strata_ir::pass::PassRegistry;

/// Register this conversion's passes.
pub fn register_passes(_registry: &mut PassRegistry) {}
