//! The `#[op]` declarations of `kernel`: tile programs (`kernel.func` and
//! the ops in its body) and the host plan (`kernel.launch`, arena buffers).

use strata_ir::ods::constraints::{
    AnyAttr, AnyType, EnumSpec, EnumStorage, FunctionTypeAttr, I32Attr, I64Attr, StrAttr,
};
use strata_ir::{attr_constraint, enum_attr, op, type_constraint, TypeKind};

use crate::kernel::syntax::{
    parse_kernel_func, parse_load, parse_store, print_kernel_func, print_load, print_store,
};
use crate::kernel::types::is_ptr_like;
use crate::kernel::verify::{
    infer_load, verify_addptr, verify_alloc, verify_broadcast, verify_check_indices,
    verify_convert_layout, verify_custom_call, verify_dot, verify_expand_dims, verify_gemm,
    verify_kernel_func, verify_launch, verify_load, verify_range, verify_reduce,
    verify_reduce_regions, verify_return, verify_splat, verify_store, verify_view, verify_yield,
};

/// The axes of a launch grid.
pub static PROGRAM_AXIS: EnumSpec = EnumSpec {
    name: "ProgramIDDim",
    attr_def: "",
    summary: "allowed 32-bit signless integer cases: 0, 1, 2",
    cases: &[("x", 0), ("y", 1), ("z", 2)],
    bit_enum: false,
    separator: "",
    storage: EnumStorage::Integer(32),
};

enum_attr!(
    /// The grid axis of `program_id` and `num_programs` (`x`, `y`, `z`).
    ProgramAxisAttr, PROGRAM_AXIS, Keyword
);

/// `index`, implied in formats (the grid sizes of `kernel.launch`).
pub struct GridSize;
impl strata_ir::ods::TypeConstraintDef for GridSize {
    const CONSTRAINT: strata_ir::ods::TypeConstraint = strata_ir::ods::TypeConstraint {
        summary: "index",
        check: |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::Index),
        build: Some(|ctx| ctx.index_type()),
    };
}

type_constraint!(
    /// A pointer or a tile of pointers.
    PtrLike, "pointer or tile of pointers", |ctx, ty| is_ptr_like(ctx, ty)
);
type_constraint!(
    /// A 32-bit signless integer.
    I32, "32-bit signless integer", |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::Integer { width: 32, signedness: strata_ir::types::Signedness::Signless })
);
type_constraint!(
    /// A tile: a statically shaped ranked tensor.
    Tile, "statically shaped tile", |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::RankedTensor { shape, .. } if shape.iter().all(|&d| d >= 0))
);
type_constraint!(
    /// A tile or a scalar of integers (offsets).
    IntLike, "signless-integer-like", |ctx, ty| strata_ir::ods::constraints::is_like(ctx, ty, strata_ir::ods::constraints::is_signless_int)
);
type_constraint!(
    /// A statically shaped memref (a buffer of the host plan).
    StaticMemRef, "statically shaped memref", |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::MemRef { shape, .. } if shape.iter().all(|&d| d >= 0))
);
attr_constraint!(
    /// A symbol reference to a `kernel.func`.
    KernelRefAttr, "flat symbol reference attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(ctx.attr_kind(attr), strata_ir::AttrKind::SymbolRef { nested, .. } if nested.is_empty())
);
attr_constraint!(
    /// An elements attribute holding a constant buffer's data.
    DenseAttr, "constant tensor attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(ctx.attr_kind(attr), strata_ir::AttrKind::DenseElements { .. } | strata_ir::AttrKind::DenseResource { .. })
);

// ----- tile programs -----

/// A tile program, run once per point of its launch grid.
///
/// `kernel.func @name(%x: !kernel.ptr<f32>, %n: i32) attributes {grid = 1 : i32, num_warps = 4 : i32} { ... }`.
/// The parameters are pointers and scalars; `grid` is the rank of the launch
/// grid (1 to 3) and `num_warps` the GPU warps per program (a hint the host
/// target ignores). The body is SPMD: each program reads its coordinates with
/// `kernel.program_id` and works on tiles.
#[op("kernel.func",
     traits(IsolatedFromAbove, Symbol, Callable),
     default_dialect = "kernel",
     parse = parse_kernel_func,
     print = print_kernel_func,
     verify = verify_kernel_func)]
pub struct KernelFuncOp {
    sym_name: Attr<StrAttr>,
    function_type: Attr<FunctionTypeAttr>,
    #[default = "1 : i32"]
    grid: Attr<I32Attr>,
    #[default = "4 : i32"]
    num_warps: Attr<I32Attr>,
    body: Region,
}

/// Ends a tile program.
#[op("kernel.return",
     traits(Pure, Terminator, ReturnLike),
     format = "attr-dict",
     verify = verify_return)]
pub struct ReturnOp {}

/// The coordinate of this program along a grid axis.
#[op(
    "kernel.program_id",
    traits(Pure),
    format = "$axis attr-dict `:` type($result)"
)]
pub struct ProgramIdOp {
    axis: Attr<ProgramAxisAttr>,
    result: Result<I32>,
}

/// The number of programs along a grid axis.
#[op(
    "kernel.num_programs",
    traits(Pure),
    format = "$axis attr-dict `:` type($result)"
)]
pub struct NumProgramsOp {
    axis: Attr<ProgramAxisAttr>,
    result: Result<I32>,
}

/// A 1-D tile of the consecutive integers `start, ..., end - 1`.
#[op("kernel.range",
     traits(Pure),
     format = "$start `,` $end attr-dict `:` type($result)",
     verify = verify_range)]
pub struct RangeOp {
    start: Attr<I32Attr>,
    end: Attr<I32Attr>,
    result: Result<Tile>,
}

/// A tile whose every element is the scalar `src`.
#[op("kernel.splat",
     traits(Pure),
     format = "$src attr-dict `:` type($src) `->` type($result)",
     verify = verify_splat)]
pub struct SplatOp {
    src: Operand<AnyType>,
    result: Result<Tile>,
}

/// A tile broadcast along its dimensions of size 1 to a larger shape of the
/// same rank.
#[op("kernel.broadcast",
     traits(Pure),
     format = "$src attr-dict `:` type($src) `->` type($result)",
     verify = verify_broadcast)]
pub struct BroadcastOp {
    src: Operand<Tile>,
    result: Result<Tile>,
}

/// A tile with a new dimension of size 1 inserted at `axis`.
#[op("kernel.expand_dims",
     traits(Pure),
     format = "$src `axis` `=` $axis attr-dict `:` type($src) `->` type($result)",
     verify = verify_expand_dims)]
pub struct ExpandDimsOp {
    src: Operand<Tile>,
    axis: Attr<I32Attr>,
    result: Result<Tile>,
}

/// The same tile in another layout: how the result type's encoding (an
/// `#nvptx.blocked` or `#nvptx.mma` layout, or none) deals its elements
/// out to a GPU block's threads. A tile without one is computed where it
/// is used; converting to a layout materializes it there, and converting
/// from one goes through shared memory (see docs/gpu.md). The host target
/// computes elements where they are used and reads through it.
#[op("kernel.convert_layout",
     traits(Pure),
     format = "$src attr-dict `:` type($src) `->` type($result)",
     verify = verify_convert_layout)]
pub struct ConvertLayoutOp {
    src: Operand<Tile>,
    result: Result<Tile>,
}

/// Pointer arithmetic: `ptr + offset` elements, elementwise on tiles.
#[op("kernel.addptr",
     traits(Pure),
     all_types_match(ptr, result),
     format = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)",
     verify = verify_addptr)]
pub struct AddPtrOp {
    ptr: Operand<PtrLike>,
    offset: Operand<IntLike>,
    result: Result<PtrLike>,
}

/// Loads the elements the pointers point to.
///
/// `kernel.load %ptrs, %mask, %other : tensor<128x!kernel.ptr<f32>>`: where
/// `mask` (an `i1` tile shaped as the pointers) is false, nothing is read
/// and the element is `other` (zero when absent).
#[op("kernel.load",
     parse = parse_load,
     print = print_load,
     infer = infer_load,
     verify = verify_load)]
pub struct LoadOp {
    ptr: Operand<PtrLike>,
    mask: Optional<AnyType>,
    other: Optional<AnyType>,
    result: Result<AnyType>,
}

/// Stores `value` where the pointers point, skipping masked-off elements.
///
/// `kernel.store %ptrs, %value, %mask : tensor<128x!kernel.ptr<f32>>`.
#[op("kernel.store",
     parse = parse_store,
     print = print_store,
     verify = verify_store)]
pub struct StoreOp {
    ptr: Operand<PtrLike>,
    value: Operand<AnyType>,
    mask: Optional<AnyType>,
}

/// Matrix product with accumulation: `d = a * b + c`.
///
/// `a` is `M x K`, `b` is `K x N`, `c` and `d` are `M x N`. For `f16` and
/// `bf16` operands the accumulator `c` is `f32`: products are summed in
/// `f32`.
#[op("kernel.dot",
     traits(Pure),
     all_types_match(c, d),
     format = "$a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)",
     verify = verify_dot)]
pub struct DotOp {
    a: Operand<Tile>,
    b: Operand<Tile>,
    c: Operand<Tile>,
    d: Result<Tile>,
}

/// Reduces a tile along `axis` with the combiner region.
///
/// The combiner takes two scalars of the element type and yields their
/// combination with `kernel.yield`; it must be associative and commutative
/// (the order of combination is unspecified). Reducing a 1-D tile gives a
/// scalar.
#[op("kernel.reduce",
     traits(RecursiveMemoryEffects, SingleBlock),
     format = "$src `axis` `=` $axis $combiner attr-dict `:` type($src) `->` type($result)",
     verify = verify_reduce,
     verify_regions = verify_reduce_regions)]
pub struct ReduceOp {
    src: Operand<Tile>,
    axis: Attr<I32Attr>,
    result: Result<AnyType>,
    combiner: SizedRegion<1>,
}

/// Yields the combination from a `kernel.reduce` combiner.
#[op("kernel.yield",
     traits(Pure, Terminator, ReturnLike),
     format = "attr-dict ($values^ `:` type($values))?",
     verify = verify_yield)]
pub struct YieldOp {
    values: Variadic<AnyType>,
}

// ----- the host plan -----

/// Runs `kernel` once per point of the grid on buffers and scalars.
///
/// `kernel.launch @k grid(%gx, %gy) (%a, %b) : memref<4x8xf32>, memref<8xf32>`:
/// each buffer is passed as a pointer to its first element, in order; the
/// grid has as many sizes as the kernel's `grid` rank.
#[op("kernel.launch",
     format = "$kernel `grid` `(` $grid `)` `(` $args `)` attr-dict (`:` type($args)^)?",
     verify_symbol_uses = verify_launch)]
pub struct LaunchOp {
    kernel: Attr<KernelRefAttr>,
    grid: Variadic<GridSize>,
    args: Variadic<AnyType>,
}

/// A buffer at byte `offset` of the plan's arena.
///
/// Not pure: two allocations of one type and offset are two buffers until
/// the arena is planned (`cse` must not merge them).
#[op("kernel.alloc",
     format = "`offset` $offset attr-dict `:` type($result)",
     verify = verify_alloc)]
pub struct AllocOp {
    offset: Attr<I64Attr>,
    result: Result<StaticMemRef>,
}

/// A constant buffer holding `value`'s elements.
#[op(
    "kernel.constant",
    traits(Pure),
    format = "$value attr-dict `:` type($result)"
)]
pub struct ConstantOp {
    value: Attr<DenseAttr>,
    result: Result<StaticMemRef>,
}

/// The same buffer with another shape (row-major; the element count and
/// type are kept).
#[op("kernel.view",
     traits(Pure),
     format = "$src attr-dict `:` type($src) `to` type($result)",
     verify = verify_view)]
pub struct ViewOp {
    src: Operand<StaticMemRef>,
    result: Result<StaticMemRef>,
}

attr_constraint!(
    /// `array<i64: ...>`.
    I64Array, "i64 dense array attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::AttrKind::DenseArray { element, .. }
            if matches!(ctx.type_kind(*element), TypeKind::Integer { width: 64, .. })
    ),
    value: Vec<i64> = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::AttrKind::DenseArray { values, .. } => Some(values.iter().map(|&v| v as i64).collect()),
        _ => None,
    }
);

/// A batched, strided matrix product by a library routine, in the host
/// plan: `out[b][i][j] = sum_p lhs[b][i][p] * rhs[b][p][j]`.
///
/// `batch` lists the batch sizes; `m`, `n`, `k` the matrix sizes. Each
/// `*_strides` gives, in elements, one stride per batch dim then the row
/// and column strides of that operand (`lhs`: M then K, `rhs`: K then N,
/// `out`: M then N), so that transposed and broadcast operands need no
/// copy. The target chooses the routine (on the host, the `gemm` crate's
/// f32/f64 GEMM); kernel selection in `convert-tensor-to-kernel` emits it
/// for f32 and f64 contractions.
#[op("kernel.gemm",
     format = "$lhs `,` $rhs `,` $out attr-dict `:` type($lhs) `,` type($rhs) `,` type($out)",
     verify = verify_gemm)]
pub struct GemmOp {
    lhs: Operand<StaticMemRef>,
    rhs: Operand<StaticMemRef>,
    out: Operand<StaticMemRef>,
    batch: Attr<I64Array>,
    m: Attr<I64Attr>,
    n: Attr<I64Attr>,
    k: Attr<I64Attr>,
    lhs_strides: Attr<I64Array>,
    rhs_strides: Attr<I64Array>,
    out_strides: Attr<I64Array>,
}

/// A step of the host plan that calls a registered custom op's
/// implementation on whole buffers: the first `num_inputs` buffers are its
/// inputs, the rest its outputs (arena buffers it writes).
#[op("kernel.custom_call",
     format = "$name `(` $buffers `)` attr-dict `:` type($buffers)",
     verify = verify_custom_call)]
pub struct CustomCallOp {
    name: Attr<StrAttr>,
    #[default = "1"]
    version: Attr<I64Attr>,
    config: OptionalAttr<AnyAttr>,
    num_inputs: Attr<I64Attr>,
    buffers: Variadic<StaticMemRef>,
}

/// A step of the host plan that checks the indices in a buffer before a
/// kernel gathers with them (`tensor.check_indices` below the tensor
/// level): element `k` must lie in `[-s, s)` for `s = sizes[k mod n]`, or
/// the run stops with `message` (its `{index}`, `{axis}`, `{size}` filled
/// in) at the op's location. Executors run it on the host.
#[op("kernel.check_indices",
     format = "$indices attr-dict `:` type($indices)",
     verify = verify_check_indices)]
pub struct CheckIndicesOp {
    indices: Operand<StaticMemRef>,
    sizes: Attr<I64Array>,
    axes: Attr<I64Array>,
    message: Attr<StrAttr>,
}
