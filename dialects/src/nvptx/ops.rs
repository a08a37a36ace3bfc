//! The `#[op]` declarations of `nvptx`: thread and block coordinates,
//! barriers, warp shuffles, shared memory, vector loads and stores, and
//! `mma.sync`.

use strata_ir::ods::constraints::{AnyType, EnumSpec, EnumStorage, I64Attr};
use strata_ir::{enum_attr, op, type_constraint, TypeKind};

use crate::kernel::ProgramAxisAttr;
use crate::nvptx::verify::{
    verify_cluster, verify_load, verify_mma, verify_shared_alloc, verify_shfl, verify_store,
    verify_targeted,
};

/// `i32`, implied in formats where an operand always has it (indices,
/// shuffle offsets).
pub struct Index32;
impl strata_ir::ods::TypeConstraintDef for Index32 {
    const CONSTRAINT: strata_ir::ods::TypeConstraint = strata_ir::ods::TypeConstraint {
        summary: "32-bit signless integer",
        check: |ctx, ty| {
            matches!(
                ctx.type_kind(ty),
                TypeKind::Integer {
                    width: 32,
                    signedness: strata_ir::types::Signedness::Signless
                }
            )
        },
        build: Some(|ctx| ctx.integer_type(32)),
    };
}

type_constraint!(
    /// A 32-bit signless integer.
    I32, "32-bit signless integer", |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::Integer { width: 32, signedness: strata_ir::types::Signedness::Signless })
);
type_constraint!(
    /// An `!nvptx.ptr`.
    NvptxPtr, "nvptx pointer", |ctx, ty| crate::nvptx::types::is_ptr(ctx, ty)
);

/// The kinds of `shfl.sync`.
pub static SHUFFLE_KIND: EnumSpec = EnumSpec {
    name: "ShflKind",
    attr_def: "",
    summary: "allowed 32-bit signless integer cases: 0, 1, 2, 3",
    cases: &[("bfly", 0), ("down", 1), ("up", 2), ("idx", 3)],
    bit_enum: false,
    separator: "",
    storage: EnumStorage::Integer(32),
};

enum_attr!(
    /// How `shfl_sync` picks its source lane: `bfly` (lane xor offset),
    /// `down` (lane + offset), `up` (lane - offset), `idx` (lane offset).
    ShuffleKindAttr, SHUFFLE_KIND, Keyword
);

/// This thread's coordinate in its block (`%tid.x`).
#[op("nvptx.thread_id", traits(Pure), format = "$axis attr-dict `:` type($result)", verify = verify_targeted)]
pub struct ThreadIdOp {
    axis: Attr<ProgramAxisAttr>,
    result: Result<I32>,
}

/// This block's coordinate in the grid (`%ctaid.x`).
#[op("nvptx.block_id", traits(Pure), format = "$axis attr-dict `:` type($result)", verify = verify_targeted)]
pub struct BlockIdOp {
    axis: Attr<ProgramAxisAttr>,
    result: Result<I32>,
}

/// The number of threads of a block along an axis (`%ntid.x`).
#[op("nvptx.block_dim", traits(Pure), format = "$axis attr-dict `:` type($result)", verify = verify_targeted)]
pub struct BlockDimOp {
    axis: Attr<ProgramAxisAttr>,
    result: Result<I32>,
}

/// The number of blocks of the grid along an axis (`%nctaid.x`).
#[op("nvptx.grid_dim", traits(Pure), format = "$axis attr-dict `:` type($result)", verify = verify_targeted)]
pub struct GridDimOp {
    axis: Attr<ProgramAxisAttr>,
    result: Result<I32>,
}

/// This thread's lane in its warp (`%laneid`, 0 to 31).
#[op("nvptx.lane_id", traits(Pure), format = "attr-dict `:` type($result)", verify = verify_targeted)]
pub struct LaneIdOp {
    result: Result<I32>,
}

/// This block's cluster's coordinate in the grid (`%clusterid.x`;
/// `sm_90` and later).
#[op("nvptx.cluster_id", traits(Pure), format = "$axis attr-dict `:` type($result)", verify = verify_cluster)]
pub struct ClusterIdOp {
    axis: Attr<ProgramAxisAttr>,
    result: Result<I32>,
}

/// Waits until every thread of the block arrives, and makes their
/// shared-memory writes visible (`bar.sync 0`).
#[op("nvptx.barrier", format = "attr-dict", verify = verify_targeted)]
pub struct BarrierOp {}

/// `shfl.sync.{kind}.b32` over the full warp: the value of `value` in the
/// source lane that `kind` and `offset` pick (this lane's own when the
/// source is outside the warp's `width` segment).
#[op("nvptx.shfl_sync",
     format = "$kind $value `,` $offset attr-dict `:` type($value) `->` type($result)",
     verify = verify_shfl)]
pub struct ShflSyncOp {
    kind: Attr<ShuffleKindAttr>,
    value: Operand<AnyType>,
    offset: Operand<Index32>,
    #[default = "32"]
    width: Attr<I64Attr>,
    result: Result<AnyType>,
}

/// A statically sized shared-memory buffer of `elements` elements, one per
/// thread block (a module-level `.shared` array).
#[op("nvptx.shared_alloc", format = "attr-dict `:` type($result)", verify = verify_shared_alloc)]
pub struct SharedAllocOp {
    elements: Attr<I64Attr>,
    result: Result<NvptxPtr>,
}

/// Reads the element at `ptr + index` (a scalar of the pointee type), or
/// the vector of consecutive elements there (`vector<NxT>`, up to 128
/// bits, aligned to its size: `ld.v4.f32`).
#[op("nvptx.load",
     format = "$ptr `[` $index `]` attr-dict `:` type($ptr) `->` type($result)",
     verify = verify_load)]
pub struct LoadOp {
    ptr: Operand<NvptxPtr>,
    index: Operand<Index32>,
    result: Result<AnyType>,
}

/// Writes a scalar or a vector (as `nvptx.load` reads) at `ptr + index`.
#[op("nvptx.store",
     format = "$value `,` $ptr `[` $index `]` attr-dict `:` type($value) `,` type($ptr)",
     verify = verify_store)]
pub struct StoreOp {
    value: Operand<AnyType>,
    ptr: Operand<NvptxPtr>,
    index: Operand<Index32>,
}

/// One warp's `mma.sync.aligned.m16n8k16.row.col.f32.{f16|bf16}`: this
/// lane's fragments of `A` (16x16, `vector<8xT>`), `B` (16x8,
/// `vector<4xT>`) and the accumulator `C` (16x8, `vector<4xf32>`) give its
/// fragment of `D = A * B + C` (`sm_80` and later).
#[op("nvptx.mma_sync",
     format = "$a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c) `->` type($result)",
     verify = verify_mma)]
pub struct MmaSyncOp {
    a: Operand<AnyType>,
    b: Operand<AnyType>,
    c: Operand<AnyType>,
    result: Result<AnyType>,
}
