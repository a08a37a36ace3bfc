//! Ops that read or write elements by index: gathers, scatters and
//! `non_max_suppression`, `non_zero`, `unique` and `roi_align`.

use strata_ir::ods::constraints::{I64Attr, StrAttr};
use strata_ir::op;

use super::{AnyTensor, BoolAttr, F64Attr, FloatTensor, IntTensor};
use crate::graph::fold::fold_graph;
use crate::graph::infer::{self, verify_shapes, ShapeFunction};

/// Gathers slices of `input` along `axis` at `indices` (negative indices
/// count from the end).
#[op("graph.gather",
     traits(Pure),
     format = "$input `[` $indices `]` attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gather)))]
pub struct GatherOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// Gathers single elements: `output[p] = input[p with p[axis] =
/// indices[p]]` (negative indices count from the end). `indices` has the
/// rank of `input`; the result has its shape.
#[op("graph.gather_elements",
     traits(Pure),
     format = "$input `[` $indices `]` attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gather_elements)))]
pub struct GatherElementsOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// Gathers slices of `input` at the index tuples in the last dimension of
/// `indices` (ONNX `GatherND`; negative entries count from the end); the
/// first `batch_dims` dimensions are shared.
#[op("graph.gather_nd",
     traits(Pure),
     format = "$input `[` $indices `]` attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gather_nd)))]
pub struct GatherNdOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    #[default = "0"]
    batch_dims: Attr<I64Attr>,
    output: Result<AnyTensor>,
}

/// A copy of `input` with each element of `updates` written at
/// `p with p[axis] = indices[p]`, or combined with the element there by
/// `reduction` (`"none"`, `"add"`, `"mul"`, `"max"`, `"min"`).
#[op("graph.scatter_elements",
     traits(Pure),
     format = "$input `[` $indices `]` `,` $updates attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_scatter_elements)))]
pub struct ScatterElementsOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    updates: Operand<AnyTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    #[default = "\"none\""]
    reduction: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

/// A copy of `input` with slices of `updates` written (or combined by
/// `reduction`) at the index tuples in the last dimension of `indices`.
#[op("graph.scatter_nd",
     traits(Pure),
     format = "$input `[` $indices `]` `,` $updates attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_scatter_nd)))]
pub struct ScatterNdOp {
    input: Operand<AnyTensor>,
    indices: Operand<IntTensor>,
    updates: Operand<AnyTensor>,
    #[default = "\"none\""]
    reduction: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

/// Non-maximum suppression (ONNX `NonMaxSuppression`) of `boxes: [B, N,
/// 4]` by `scores: [B, C, N]`: the `[K, 3]` `(batch, class, box)` indices
/// kept, K known only at run time. Without `max_output_boxes_per_class`
/// nothing is kept, as ONNX says.
#[op("graph.non_max_suppression",
     traits(Pure),
     format = "$boxes `,` $scores (`max_output` $max_output_boxes_per_class^)? (`iou` $iou_threshold^)? (`score` $score_threshold^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_nms)))]
pub struct NonMaxSuppressionOp {
    boxes: Operand<FloatTensor>,
    scores: Operand<FloatTensor>,
    max_output_boxes_per_class: Optional<IntTensor>,
    iou_threshold: Optional<FloatTensor>,
    score_threshold: Optional<FloatTensor>,
    #[default = "false"]
    center_point_box: Attr<BoolAttr>,
    output: Result<IntTensor>,
}

/// The indices of the non-zero elements of `input`: `[rank, count]`, each
/// column one element's index, in row-major order; `count` is known only
/// at run time.
#[op("graph.non_zero",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_non_zero)))]
pub struct NonZeroOp {
    input: Operand<AnyTensor>,
    output: Result<IntTensor>,
}

/// The distinct elements of `input` (flattened), or its distinct slices
/// along `axis`: ascending when `sorted` (slices in lexicographic order),
/// else in order of first occurrence; with each one's first index, each
/// input element's (or slice's) index into the result, and the counts. The
/// number of distinct values is known only at run time.
#[op("graph.unique",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_unique)))]
pub struct UniqueOp {
    input: Operand<AnyTensor>,
    axis: OptionalAttr<I64Attr>,
    #[default = "true"]
    sorted: Attr<BoolAttr>,
    output: Result<AnyTensor>,
    indices: Result<IntTensor>,
    inverse_indices: Result<IntTensor>,
    counts: Result<IntTensor>,
}

/// Region-of-interest alignment (Mask R-CNN): `input: [N, C, H, W]` pooled
/// over each region `rois[r] = (x1, y1, x2, y2)` of image
/// `batch_indices[r]` into `[R, C, output_height, output_width]`, each bin
/// the average (`mode = "avg"`) or max of bilinear samples on a grid of
/// `sampling_ratio` (0: adaptive) points per axis; `half_pixel` shifts the
/// region by half a pixel (`coordinate_transformation_mode`).
#[op("graph.roi_align",
     traits(Pure),
     format = "$input `,` $rois `,` $batch_indices attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_roi_align)))]
pub struct RoiAlignOp {
    input: Operand<FloatTensor>,
    rois: Operand<FloatTensor>,
    batch_indices: Operand<IntTensor>,
    #[default = "\"avg\""]
    mode: Attr<StrAttr>,
    #[default = "1"]
    output_height: Attr<I64Attr>,
    #[default = "1"]
    output_width: Attr<I64Attr>,
    #[default = "0"]
    sampling_ratio: Attr<I64Attr>,
    #[default = "1.000000e+00 : f64"]
    spatial_scale: Attr<F64Attr>,
    #[default = "true"]
    half_pixel: Attr<BoolAttr>,
    output: Result<FloatTensor>,
}
