//! The `nvptx` dialect: the GPU's own terms below `kernel`, as the
//! `convert-kernel-to-nvptx` lowering will produce them and the NVPTX
//! back end of LLVM compiles them (NVVM intrinsics).
//!
//! A module for the GPU carries its target as discardable attributes:
//! `nvptx.target = "sm_80" | "sm_90"` and optionally `nvptx.ptx_version`
//! (`88` for PTX 8.8, the default). Every `nvptx` op is verified against
//! the target of its nearest enclosing op that has one, and refused
//! outside any: `nvptx.cluster_id` needs `sm_90`, `nvptx.mma_sync` `sm_80`
//! and PTX 7.0. Pointers name their address space:
//! `!nvptx.ptr<f32, global>`, `!nvptx.ptr<f16, shared>`. A tile's
//! distribution over a block's threads is a `#nvptx.blocked<{...}>`
//! layout ([`layout::BlockedLayout`]).

pub mod layout;
mod ops;
pub mod types;
mod verify;

pub use ops::*;
pub use verify::{target_of, NvptxTarget, MAX_STATIC_SHARED_BYTES};

use strata_ir::Context;

/// Register the nvptx dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut()
        .register_type_parser("nvptx", types::parse_nvptx_type);
    ctx.registry_mut()
        .register_attr_parser("nvptx", layout::parse_nvptx_attr);
    ctx.registry_mut()
        .register_attr_alias("nvptx", layout::nvptx_attr_alias);
    ThreadIdOp::register(ctx);
    BlockIdOp::register(ctx);
    BlockDimOp::register(ctx);
    GridDimOp::register(ctx);
    LaneIdOp::register(ctx);
    ClusterIdOp::register(ctx);
    BarrierOp::register(ctx);
    ShflSyncOp::register(ctx);
    SharedAllocOp::register(ctx);
    LoadOp::register(ctx);
    StoreOp::register(ctx);
    MmaSyncOp::register(ctx);
}
