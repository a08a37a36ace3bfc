//! Ops that make or move tensors without reading elements by index:
//! `constant`, reshapes, transposes, broadcasts, concatenation and
//! splitting, slices, squeezes, padding, tiling, and the shape queries and
//! generators (`shape_of`, `size`, `constant_of_shape`, `range`).

use strata_ir::ods::constraints::{I64Attr, StrAttr};
use strata_ir::op;
use strata_ir::{Context, OperationState, Type};

use super::{AnyTensor, BoolAttr, CastTensor, ElementsAttr, I64ArrayAttr, IntTensor};
use crate::graph::fold::{fold_constant, fold_graph, reshape_patterns, transpose_patterns};
use crate::graph::infer::{self, verify_shapes, ShapeFunction};

/// A constant tensor.
///
/// `%0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>`; the result has
/// the type of the value.
#[op("graph.constant",
     traits(Pure, ConstantLike),
     format = "attr-dict $value",
     infer = infer_constant,
     fold = fold_constant,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_constant)))]
pub struct ConstantOp {
    value: Attr<ElementsAttr>,
    // Constants may hold the storage-only narrow types too (an ONNX
    // initializer of f8E4M3FN, a folded cast).
    output: Result<CastTensor>,
}

fn infer_constant(ctx: &mut Context, state: &OperationState) -> Result<Vec<Type>, String> {
    let value = state
        .attributes
        .iter()
        .chain(
            state
                .properties
                .and_then(|p| match ctx.attr_kind(p) {
                    strata_ir::attributes::AttrKind::Dictionary(entries) => Some(&entries[..]),
                    _ => None,
                })
                .unwrap_or(&[]),
        )
        .find(|(n, _)| ctx.ident_str(*n) == "value")
        .map(|(_, v)| *v)
        .ok_or_else(|| "requires attribute 'value'".to_string())?;
    strata_ir::ods::constraints::attr_type(ctx, value)
        .map(|t| vec![t])
        .ok_or_else(|| "'value' must be an elements attribute".to_string())
}

/// The same elements with another shape.
///
/// `shape` is a 1-D `i64` tensor; `0` copies the input's dimension (unless
/// `allowzero`), `-1` is inferred from the element count.
#[op("graph.reshape",
     traits(Pure),
     canonicalize = reshape_patterns,
     format = "$input `,` $shape attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_reshape)))]
pub struct ReshapeOp {
    input: Operand<AnyTensor>,
    shape: Operand<IntTensor>,
    #[default = "false"]
    allowzero: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// Permutes the dimensions: result dimension `i` is input dimension
/// `perm[i]` (reversed when `perm` is absent).
#[op("graph.transpose",
     traits(Pure),
     canonicalize = transpose_patterns,
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_transpose)))]
pub struct TransposeOp {
    input: Operand<AnyTensor>,
    perm: OptionalAttr<I64ArrayAttr>,
    output: Result<AnyTensor>,
}

/// Broadcasts the input to a shape (1-D `i64` tensor), with the
/// multidirectional rule.
#[op("graph.expand",
     traits(Pure),
     format = "$input `,` $shape attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_expand)))]
pub struct ExpandOp {
    input: Operand<AnyTensor>,
    shape: Operand<IntTensor>,
    output: Result<AnyTensor>,
}

/// Concatenation along one axis.
#[op("graph.concat",
     traits(Pure),
     format = "$inputs attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_concat)))]
pub struct ConcatOp {
    inputs: Variadic<AnyTensor>,
    axis: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// Splits along one axis, into the sizes of `split` (a 1-D `i64` tensor)
/// or into as many equal parts as there are results.
#[op("graph.split",
     traits(Pure),
     format = "$input (`sizes` $split^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_split)))]
pub struct SplitOp {
    input: Operand<AnyTensor>,
    split: Optional<IntTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    outputs: VariadicResult<AnyTensor>,
}

/// A strided slice: `starts`, `ends`, `axes` and `steps` are 1-D integer
/// tensors with ONNX's semantics (negative indices count from the end,
/// out-of-range bounds clamp, negative steps go backwards).
#[op("graph.slice",
     traits(Pure),
     format = "$input `,` $starts `,` $ends (`axes` $axes^)? (`steps` $steps^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_slice)))]
pub struct SliceOp {
    input: Operand<AnyTensor>,
    starts: Operand<IntTensor>,
    ends: Operand<IntTensor>,
    axes: Optional<IntTensor>,
    steps: Optional<IntTensor>,
    output: Result<AnyTensor>,
}

/// Removes dimensions of size 1: those listed in `axes` (a 1-D `i64`
/// tensor), or all of them.
#[op("graph.squeeze",
     traits(Pure),
     format = "$input (`axes` $axes^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_squeeze)))]
pub struct SqueezeOp {
    input: Operand<AnyTensor>,
    axes: Optional<IntTensor>,
    output: Result<AnyTensor>,
}

/// Inserts dimensions of size 1 at the positions of `axes` (a 1-D `i64`
/// tensor, positions in the result).
#[op("graph.unsqueeze",
     traits(Pure),
     format = "$input `,` $axes attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_unsqueeze)))]
pub struct UnsqueezeOp {
    input: Operand<AnyTensor>,
    axes: Operand<IntTensor>,
    output: Result<AnyTensor>,
}

/// Flattens to 2-D: dimensions before `axis` and from `axis` on.
#[op("graph.flatten",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_flatten)))]
pub struct FlattenOp {
    input: Operand<AnyTensor>,
    #[default = "1"]
    axis: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// Pads (or crops, with negative amounts) each dimension.
///
/// `pads` is a 1-D `i64` tensor of all the begin amounts, then all the end
/// amounts (of the dimensions listed in `axes` when given, else of every
/// dimension); `mode` is `constant` (with `value`, default 0), `reflect`,
/// `edge` or `wrap`.
#[op("graph.pad",
     traits(Pure),
     format = "$input `,` $pads (`value` $value^)? (`axes` $axes^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_pad)))]
pub struct PadOp {
    input: Operand<AnyTensor>,
    pads: Operand<IntTensor>,
    value: Optional<AnyTensor>,
    axes: Optional<IntTensor>,
    #[default = "\"constant\""]
    mode: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

/// Repeats the input `repeats[i]` times along each dimension.
#[op("graph.tile",
     traits(Pure),
     format = "$input `,` $repeats attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_tile)))]
pub struct TileOp {
    input: Operand<AnyTensor>,
    repeats: Operand<IntTensor>,
    output: Result<AnyTensor>,
}

/// The shape of the input as a 1-D `i64` tensor, dimensions
/// `[start, end)` (negative values count from the end).
#[op("graph.shape_of",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_shape_of)))]
pub struct ShapeOfOp {
    input: Operand<AnyTensor>,
    #[default = "0"]
    start: Attr<I64Attr>,
    end: OptionalAttr<I64Attr>,
    output: Result<IntTensor>,
}

/// The number of elements of the input, as an `i64` scalar tensor.
#[op("graph.size",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_size)))]
pub struct SizeOp {
    input: Operand<AnyTensor>,
    output: Result<IntTensor>,
}

/// A tensor of the given shape (a 1-D `i64` tensor) filled with `value`
/// (a one-element tensor; zero of `f32` when absent).
#[op("graph.constant_of_shape",
     traits(Pure),
     format = "$shape attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_constant_of_shape)))]
pub struct ConstantOfShapeOp {
    shape: Operand<IntTensor>,
    value: OptionalAttr<ElementsAttr>,
    output: Result<AnyTensor>,
}

/// `start, start + delta, ...` up to (excluding) `limit`; all three are
/// scalar tensors of the result's element type.
#[op("graph.range",
     traits(Pure),
     format = "$start `,` $limit `,` $delta attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_range)))]
pub struct RangeOp {
    start: Operand<AnyTensor>,
    limit: Operand<AnyTensor>,
    delta: Operand<AnyTensor>,
    output: Result<AnyTensor>,
}
