//! Resampling ops: `resize` and `grid_sample`.

use strata_ir::ods::constraints::StrAttr;
use strata_ir::op;

use super::{AnyTensor, BoolAttr, F64Attr, FloatTensor, I64ArrayAttr, IntTensor};
use crate::graph::fold::fold_graph;
use crate::graph::infer::{self, verify_shapes, ShapeFunction};

/// Resizes the input by interpolation (ONNX `Resize`): along `axes` (every
/// axis when absent), to `floor(scale * size)` for each of `scales`, or to
/// `sizes` (exactly one of the two is given). `mode` is `"nearest"`,
/// `"linear"` or `"cubic"`; `coordinate_transformation_mode` maps output
/// coordinates to input ones (`"half_pixel"`, `"half_pixel_symmetric"`,
/// `"pytorch_half_pixel"`, `"align_corners"`, `"asymmetric"`,
/// `"tf_crop_and_resize"`, which needs `roi`).
#[op("graph.resize",
     traits(Pure),
     format = "$input (`roi` $roi^)? (`scales` $scales^)? (`sizes` $sizes^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_resize)))]
pub struct ResizeOp {
    input: Operand<AnyTensor>,
    roi: Optional<FloatTensor>,
    scales: Optional<FloatTensor>,
    sizes: Optional<IntTensor>,
    #[default = "\"nearest\""]
    mode: Attr<StrAttr>,
    #[default = "\"half_pixel\""]
    coordinate_transformation_mode: Attr<StrAttr>,
    #[default = "\"round_prefer_floor\""]
    nearest_mode: Attr<StrAttr>,
    #[default = "-7.500000e-01 : f64"]
    cubic_coeff_a: Attr<F64Attr>,
    #[default = "false"]
    exclude_outside: Attr<BoolAttr>,
    #[default = "0.000000e+00 : f64"]
    extrapolation_value: Attr<F64Attr>,
    #[default = "false"]
    antialias: Attr<BoolAttr>,
    #[default = "\"stretch\""]
    keep_aspect_ratio_policy: Attr<StrAttr>,
    axes: OptionalAttr<I64ArrayAttr>,
    output: Result<AnyTensor>,
}

/// ONNX's `AffineGrid`: the sampling grid of the affine maps `theta`
/// (`[N, 2, 3]` in 2-D, `[N, 3, 4]` in 3-D) over an output of `size`
/// (`[N, C, H, W]` or `[N, C, D, H, W]`, a 1-D integer tensor): each point's
/// normalized coordinates `(x, y[, z], 1)` in `[-1, 1]` (pixel centers, or
/// corners with `align_corners`) mapped by its batch's `theta`, as
/// `[N, H, W, 2]` or `[N, D, H, W, 3]` for `graph.grid_sample`.
#[op("graph.affine_grid",
     traits(Pure),
     format = "$theta `,` $size attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_affine_grid)))]
pub struct AffineGridOp {
    theta: Operand<FloatTensor>,
    size: Operand<IntTensor>,
    #[default = "false"]
    align_corners: Attr<BoolAttr>,
    output: Result<FloatTensor>,
}

/// Samples `input: [N, C, D1..Dk]` at the normalized coordinates in `[-1,
/// 1]` of `grid: [N, H1..Hk, k]` (a point's last entry addresses the last
/// dimension): `mode` `"nearest"`, `"linear"` or `"cubic"`,
/// `padding_mode` `"zeros"`, `"border"` or `"reflection"`; the result is
/// `[N, C, H1..Hk]`.
#[op("graph.grid_sample",
     traits(Pure),
     format = "$input `,` $grid attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_grid_sample)))]
pub struct GridSampleOp {
    input: Operand<FloatTensor>,
    grid: Operand<FloatTensor>,
    #[default = "\"linear\""]
    mode: Attr<StrAttr>,
    #[default = "\"zeros\""]
    padding_mode: Attr<StrAttr>,
    #[default = "false"]
    align_corners: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}
