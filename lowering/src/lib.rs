//! strata-lowering: the descent below `graph`.
//!
//! One folder per conversion (`graph_to_tensor`, `tensor_to_kernel`,
//! `kernel_to_host`) and `llvm/`, LLVM IR through inkwell.

pub mod graph_to_tensor;
pub mod kernel_to_host;
pub mod kernel_to_nvptx;
pub mod llvm;
pub mod nvptx_to_llvm;
pub mod tensor_to_kernel;

use strata_ir::pass::PassRegistry;

/// Register every pass of this crate.
pub fn register_passes(registry: &mut PassRegistry) {
    graph_to_tensor::register_passes(registry);
    tensor_to_kernel::register_passes(registry);
    kernel_to_nvptx::register_passes(registry);
}
