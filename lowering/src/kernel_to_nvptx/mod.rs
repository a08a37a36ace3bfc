//! `convert-kernel-to-nvptx{sm num-warps}`: each `kernel.func` tile
//! program gets its GPU form, a `func.func` of the same name in a nested
//! `builtin.module @gpu {nvptx.target = "sm_XX"}` (the `kernel.func`s stay,
//! for the host plan that launches them by name). A program without kernels
//! gets an empty `@gpu` module, which records the target.
//!
//! One program is one thread block of `32 * num_warps` threads. How a tile
//! is dealt out to them is a layout on its type, as in Triton's GPU IR:
//! `tensor<64x64xf32, #nvptx.blocked<{sizePerThread, threadsPerWarp,
//! warpsPerCTA, order}>>` (`strata_dialects::nvptx::layout`) is held by the
//! block in that layout, `#nvptx.mma<...>` is a `dot` accumulator's, a tile
//! type without one is computed where it is used, and
//! `kernel.convert_layout` changes a tile's layout (from none: computed at
//! the new layout's elements; from one: through shared memory). The
//! conversion follows the layouts the types give and gives the tiles it
//! materializes the ones it chooses (`elements::retype`), so the kernel IR
//! after it shows every distribution and converting it again gives the
//! same GPU form. By default a store's tile of `N`
//! elements is dealt out in runs of `V` consecutive elements
//! (`sizePerThread = [1, ..., V]`), lanes and warps along the innermost
//! dimension first; for a tile whose sizes are powers of two that is
//! cyclic in row-major order, thread `t`
//! stores runs `t, t + T, t + 2T, ...` (consecutive threads own consecutive
//! runs, so contiguous tiles are read and written coalesced, and a thread's
//! run is one vector access where it is aligned; see `elements::runs`).
//! A tile whose sizes are not all powers of two is dealt out flat (a
//! layout of rank 1, row-major), so that no lane idles past a dimension's
//! size. Loop-carried tiles are dealt out one element at a time (`V = 1`),
//! and a store that reads one takes its layout.
//! Every `kernel.store` is a loop over the
//! elements its thread owns, and the value, pointer and mask of each
//! element are computed where they are needed, from the elements of the
//! ops they depend on, as the host target computes its fused loops: a
//! `range` element is its index, a `splat` its scalar, a `broadcast` or
//! `expand_dims` reads its source at the index it maps to, a `load` loads
//! the element's pointer under its mask, a `reduce` element folds its
//! source along the axis, a `dot` element sums its row and column. A tile
//! carried by an `scf.for` lives in registers, the thread's own elements
//! of it; an op that reads it at other elements (or in another layout)
//! reads it through a `kernel.convert_layout`, which writes it to shared
//! memory.
//!
//! A tile reduced to a scalar (a row kernel's `reduce` of its 1-D tile of
//! 32-bit numbers, at the top of the kernel) is reduced by the block
//! together: each thread folds its own elements, each warp folds its
//! threads' by butterfly `shfl_sync`s, and after a `barrier` every thread
//! folds the warps' results from shared memory.
//!
//! A `dot` is computed by the block (`elements::mma`): its operand tiles
//! staged in shared memory, and for f16/bf16 with an f32 accumulator run on
//! `mma_sync` by each warp, the accumulator held in the MMA layout across
//! its loop and written through shared memory for the ops after it.
//! Otherwise every element is computed by the thread that stores it. (A
//! reduction along one axis of a 2-D tile is still a loop in the thread
//! that stores its element; shuffles for it are the next step.)

mod elements;

use strata_ir::pass::{Pass, PassRegistry, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation};

/// Register this conversion's passes.
pub fn register_passes(registry: &mut PassRegistry) {
    registry.register(ConvertKernelToNvptx::registration());
}

#[pass(
    name = "convert-kernel-to-nvptx",
    required = true,
    display_name = "ConvertKernelToNvptx",
    summary = "Give each kernel.func its GPU form: a thread-block kernel in an nvptx module"
)]
pub(crate) struct ConvertKernelToNvptx {
    #[option(
        name = "sm",
        default = 90,
        description = "The GPU's compute capability: 80 or 90"
    )]
    sm: i64,
    #[option(
        name = "num-warps",
        default = 0,
        description = "Warps per program (a power of two from 1 to 32); 0: each kernel's num_warps"
    )]
    num_warps: i64,
    #[option(
        name = "ptx",
        default = 0,
        description = "The PTX ISA version as major * 10 + minor (78: PTX 7.8), from 70 to 88 (78 or later for sm_90); 0: the translation's default (8.8)"
    )]
    ptx: i64,
    #[option(
        name = "max-unroll",
        default = 64,
        description = "The most elements per thread a store or loop-carried tile is unrolled to"
    )]
    max_unroll: i64,
    #[option(
        name = "vector-bytes",
        default = 16,
        description = "The widest access a thread makes to consecutive elements of a tile, in bytes (a power of two up to 16; 1: one element at a time)"
    )]
    vector_bytes: i64,
}

impl Pass for ConvertKernelToNvptx {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let target = match self.sm {
            80 => "sm_80",
            90 => "sm_90",
            other => {
                return Err(Diagnostic::op_error(
                    ctx,
                    root,
                    format!("convert-kernel-to-nvptx: sm {other}: expected 80 or 90"),
                ))
            }
        };
        let w = self.num_warps;
        if w != 0 && (!(1..=32).contains(&w) || w & (w - 1) != 0) {
            return Err(Diagnostic::op_error(
                ctx,
                root,
                format!(
                    "convert-kernel-to-nvptx: num-warps {}: expected a power of two from 1 to 32 (or 0)",
                    self.num_warps
                ),
            ));
        }
        let vb = self.vector_bytes;
        if !(1..=16).contains(&vb) || vb & (vb - 1) != 0 {
            return Err(Diagnostic::op_error(
                ctx,
                root,
                format!("convert-kernel-to-nvptx: vector-bytes {vb}: expected a power of two from 1 to 16"),
            ));
        }
        let min_ptx = if self.sm == 90 { 78 } else { 70 };
        if self.ptx != 0 && !(min_ptx..=88).contains(&self.ptx) {
            return Err(Diagnostic::op_error(
                ctx,
                root,
                format!(
                    "convert-kernel-to-nvptx: ptx {}: expected {min_ptx} to 88 for {target} (major * 10 + minor)",
                    self.ptx
                ),
            ));
        }
        let kernels = crate::kernel_to_host::kernel_funcs(ctx, root);
        // A program without kernels (its outputs constants, views or
        // copies of its inputs) still gets an empty `@gpu` module: it
        // records the target, so that its artifact is one for the GPU.
        check_offsets(ctx, root)?;
        // A GPU form made before (the pass run again) is replaced.
        let old = gpu_modules(ctx, root);
        for m in old {
            ctx.erase_op(m);
        }
        let loc = ctx.op_loc(root);
        let gpu = strata_ir::ModuleOp::build(ctx, loc, Some("gpu"));
        let t = ctx.string_attr(target);
        ctx.set_op_attr(gpu.op(), "nvptx.target", t);
        if self.ptx != 0 {
            let i64t = ctx.integer_type(64);
            let v = ctx.integer_attr(i64t, i128::from(self.ptx));
            ctx.set_op_attr(gpu.op(), "nvptx.ptx_version", v);
        }
        let mut converted = 0;
        for k in kernels {
            let warps = if self.num_warps > 0 {
                self.num_warps
            } else {
                strata_ir::ods::inherent_attr(ctx, k, "num_warps")
                    .and_then(|a| match ctx.attr_kind(a) {
                        strata_ir::AttrKind::Integer { value, .. } => Some(*value as i64),
                        _ => None,
                    })
                    .unwrap_or(4)
            };
            let f = elements::convert_kernel(
                ctx,
                k,
                32 * warps,
                self.max_unroll.max(1),
                self.vector_bytes,
            )?;
            gpu.push(ctx, f);
            converted += 1;
        }
        let Some(body) = strata_ir::ModuleOp(root).body(ctx) else {
            return Err(Diagnostic::op_error(ctx, root, "has no body"));
        };
        ctx.append_op(body, gpu.op());
        stats.add(
            "num-kernels",
            "Number of kernels given a GPU form",
            converted,
        );
        Ok(())
    }
}

/// The GPU form indexes a buffer with 32-bit element offsets: every buffer
/// a kernel is launched on must have fewer than 2^31 elements.
fn check_offsets(ctx: &Context, root: Operation) -> Result<(), Diagnostic> {
    for op in ctx.nested_ops(root, strata_ir::WalkOrder::PreOrder) {
        if ctx.op_name_str(op) != "kernel.launch" {
            continue;
        }
        for v in ctx.operands(op) {
            if let strata_ir::TypeKind::MemRef { shape, .. } = ctx.type_kind(ctx.value_type(v)) {
                let n = strata_ir::types::num_elements(shape);
                if n > i32::MAX as u64 {
                    return Err(Diagnostic::op_error(
                        ctx,
                        op,
                        format!(
                            "launches a kernel on a buffer of {n} elements: the GPU form indexes buffers with 32-bit offsets (at most 2^31 - 1 elements)"
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The modules directly in `root` that hold GPU kernels (an
/// `nvptx.target`).
fn gpu_modules(ctx: &Context, root: Operation) -> Vec<Operation> {
    let mut out = Vec::new();
    for &region in ctx.op_regions(root) {
        for block in ctx.region_blocks(region) {
            for op in ctx.block_ops(block) {
                if ctx.op_name_str(op) == "builtin.module"
                    && ctx.op_attr(op, "nvptx.target").is_some()
                {
                    out.push(op);
                }
            }
        }
    }
    out
}
