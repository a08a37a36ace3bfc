//! The `kernel` dialect: target-neutral SPMD tile programs, in the style of
//! Triton's TTIR, and the host plan that launches them.
//!
//! A `kernel.func` runs once per point of a launch grid. Its values are
//! scalars, pointers (`!kernel.ptr<T>`) and tiles (statically shaped builtin
//! tensors, of numbers or of pointers). Tile arithmetic uses `arith` and
//! `math` ops on tensors; loops are `scf.for`. Memory is touched only by the
//! masked `kernel.load` and `kernel.store`. The host plan is a `func.func`
//! on memrefs that allocates buffers in one arena (`kernel.alloc`) and
//! launches kernels on them (`kernel.launch`).

mod ops;
mod syntax;
pub mod types;
mod verify;

pub use ops::*;
pub use syntax::segment_sizes;

use strata_ir::Context;

/// Register the kernel dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut()
        .register_type_parser("kernel", types::parse_kernel_type);
    KernelFuncOp::register(ctx);
    ReturnOp::register(ctx);
    ProgramIdOp::register(ctx);
    NumProgramsOp::register(ctx);
    RangeOp::register(ctx);
    SplatOp::register(ctx);
    BroadcastOp::register(ctx);
    ExpandDimsOp::register(ctx);
    ConvertLayoutOp::register(ctx);
    AddPtrOp::register(ctx);
    LoadOp::register(ctx);
    StoreOp::register(ctx);
    DotOp::register(ctx);
    ReduceOp::register(ctx);
    YieldOp::register(ctx);
    LaunchOp::register(ctx);
    AllocOp::register(ctx);
    ConstantOp::register(ctx);
    ViewOp::register(ctx);
    GemmOp::register(ctx);
    CustomCallOp::register(ctx);
    CheckIndicesOp::register(ctx);
}
