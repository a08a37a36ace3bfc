//! Neural-network ops: `matmul`, `gemm`, convolutions, pools, softmax,
//! normalizations, `dropout`, `random_uniform_like` and `attention`.

use strata_ir::ods::constraints::{I64Attr, StrAttr};
use strata_ir::op;

use super::{AnyTensor, BoolAttr, BoolTensor, F64Attr, FloatTensor, I64ArrayAttr, IntTensor};
use crate::graph::conv_taps::conv_patterns;
use crate::graph::fold::fold_graph;
use crate::graph::infer::{self, verify_shapes, ShapeFunction};

/// Matrix product with NumPy's rules: 1-D operands are promoted, leading
/// (batch) dimensions broadcast.
#[op("graph.matmul",
     traits(Pure),
     format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_matmul)))]
pub struct MatMulOp {
    lhs: Operand<AnyTensor>,
    rhs: Operand<AnyTensor>,
    output: Result<AnyTensor>,
}

/// General matrix multiplication: `alpha * op(a) * op(b) + beta * c`,
/// where `op` transposes when `transA` / `transB` is set; `c` broadcasts to
/// the result.
#[op("graph.gemm",
     traits(Pure),
     format = "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_gemm)))]
pub struct GemmOp {
    a: Operand<AnyTensor>,
    b: Operand<AnyTensor>,
    c: Optional<AnyTensor>,
    #[default = "1.000000e+00 : f64"]
    alpha: Attr<F64Attr>,
    #[default = "1.000000e+00 : f64"]
    beta: Attr<F64Attr>,
    #[default = "false"]
    transA: Attr<BoolAttr>,
    #[default = "false"]
    transB: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// 2-D convolution.
///
/// `layout` is `"nchw"` (ONNX's: input `[N, C, H, W]`, weight `[M, C /
/// group, kH, kW]`, result `[N, M, OH, OW]`) or `"nhwc"` (channels last:
/// input `[N, H, W, C]`, weight `[M, kH, kW, C / group]`, result `[N, OH,
/// OW, M]`; what `graph-convert-conv-layout` makes). `pads` is `[top,
/// left, bottom, right]`.
#[op("graph.conv2d",
     traits(Pure),
     format = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
     canonicalize = conv_patterns,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_conv2d)))]
pub struct Conv2dOp {
    input: Operand<FloatTensor>,
    weight: Operand<FloatTensor>,
    bias: Optional<FloatTensor>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "1"]
    group: Attr<I64Attr>,
    #[default = "\"nchw\""]
    layout: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

/// 2-D deformable convolution (ONNX `DeformConv`) of `input: [N, C, H,
/// W]` with `weight: [M, C / group, kH, kW]`: each kernel tap samples the
/// input bilinearly (zero outside it) at its usual position moved by
/// `offset: [N, offset_group * 2 * kH * kW, OH, OW]` (`(dy, dx)` per tap),
/// times `mask` (`[N, offset_group * kH * kW, OH, OW]`, ones without it),
/// plus `bias: [M]`. The input channels split into `offset_group` groups,
/// each with its own offsets and mask.
#[op("graph.deform_conv2d",
     traits(Pure),
     format = "$input `,` $weight `,` $offset (`bias` $bias^)? (`mask` $mask^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_deform_conv2d)))]
pub struct DeformConv2dOp {
    input: Operand<FloatTensor>,
    weight: Operand<FloatTensor>,
    offset: Operand<FloatTensor>,
    bias: Optional<FloatTensor>,
    mask: Optional<FloatTensor>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "1"]
    group: Attr<I64Attr>,
    #[default = "1"]
    offset_group: Attr<I64Attr>,
    output: Result<FloatTensor>,
}

/// 2-D transposed convolution (ONNX `ConvTranspose`) of `input: [N, C, H,
/// W]` with `weight: [C, M/group, kH, kW]` and an optional `bias: [M]`.
/// Each input element scatters `weight` times itself into the output at
/// `(i * stride + k * dilation - pad_begin)`; the output's spatial sizes
/// are `output_shape` when given, else `stride * (in - 1) + output_padding
/// + (kernel - 1) * dilation + 1 - pad_begin - pad_end`.
#[op("graph.conv_transpose2d",
     traits(Pure),
     format = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_conv_transpose2d)))]
pub struct ConvTranspose2dOp {
    input: Operand<FloatTensor>,
    weight: Operand<FloatTensor>,
    bias: Optional<FloatTensor>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "1"]
    group: Attr<I64Attr>,
    #[default = "array<i64: 0, 0>"]
    output_padding: Attr<I64ArrayAttr>,
    output_shape: OptionalAttr<I64ArrayAttr>,
    output: Result<AnyTensor>,
}

/// ONNX's `Col2Im`: sums the sliding blocks of `input`
/// (`[N, C * prod(block_shape), L]`, one column per block position, as
/// im2col lays them out) into images of `image_shape`
/// (`[N, C, *image_shape]`). `image_shape` and `block_shape` are 1-D
/// integer tensors of the spatial rank `D`; `dilations` and `strides`
/// (`D` entries) default to 1, `pads` (`2 D`: the begins, then the ends)
/// to 0.
#[op("graph.col2im",
     traits(Pure),
     format = "$input `,` $image_shape `,` $block_shape attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_col2im)))]
pub struct Col2ImOp {
    input: Operand<AnyTensor>,
    image_shape: Operand<IntTensor>,
    block_shape: Operand<IntTensor>,
    dilations: OptionalAttr<I64ArrayAttr>,
    pads: OptionalAttr<I64ArrayAttr>,
    strides: OptionalAttr<I64ArrayAttr>,
    output: Result<AnyTensor>,
}

/// 2-D max pooling of an NCHW tensor (NHWC when `layout` is `"nhwc"`);
/// padding never wins.
///
/// The optional `indices` result (`i64`, NCHW only) holds, for each
/// output, the position of the maximum in the input flattened in row-major
/// order, or with each H x W plane in column-major order when
/// `storage_order` is 1.
#[op("graph.max_pool2d",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_pool)))]
pub struct MaxPool2dOp {
    input: Operand<AnyTensor>,
    kernel_shape: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "false"]
    ceil_mode: Attr<BoolAttr>,
    #[default = "0"]
    storage_order: Attr<I64Attr>,
    #[default = "\"nchw\""]
    layout: Attr<StrAttr>,
    output: Result<AnyTensor>,
    indices: OptionalResult<IntTensor>,
}

/// 2-D average pooling of an NCHW tensor (NHWC when `layout` is
/// `"nhwc"`).
#[op("graph.avg_pool2d",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_pool)))]
pub struct AvgPool2dOp {
    input: Operand<FloatTensor>,
    kernel_shape: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    strides: Attr<I64ArrayAttr>,
    #[default = "array<i64: 0, 0, 0, 0>"]
    pads: Attr<I64ArrayAttr>,
    #[default = "array<i64: 1, 1>"]
    dilations: Attr<I64ArrayAttr>,
    #[default = "false"]
    ceil_mode: Attr<BoolAttr>,
    #[default = "false"]
    count_include_pad: Attr<BoolAttr>,
    #[default = "\"nchw\""]
    layout: Attr<StrAttr>,
    output: Result<AnyTensor>,
}

macro_rules! global_pool {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<FloatTensor>,
            output: Result<AnyTensor>,
        }
    };
}

global_pool!(
    GlobalAvgPoolOp,
    "graph.global_avg_pool",
    infer_global_pool,
    "Average over all spatial dimensions (2 and up), kept as size 1."
);
global_pool!(
    GlobalMaxPoolOp,
    "graph.global_max_pool",
    infer_global_pool,
    "Maximum over all spatial dimensions (2 and up), kept as size 1."
);

// ----- normalizations -----

macro_rules! softmax {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<FloatTensor>,
            #[default = "-1"]
            axis: Attr<I64Attr>,
            output: Result<AnyTensor>,
        }
    };
}

softmax!(
    SoftmaxOp,
    "graph.softmax",
    infer_axis_same,
    "Softmax along one axis."
);
softmax!(
    LogSoftmaxOp,
    "graph.log_softmax",
    infer_axis_same,
    "Logarithm of the softmax along one axis."
);

/// Layer normalization over the dimensions from `axis` on, then
/// `* scale + bias`.
#[op("graph.layer_norm",
     traits(Pure),
     format = "$input `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_norm)))]
pub struct LayerNormOp {
    input: Operand<FloatTensor>,
    scale: Operand<FloatTensor>,
    bias: Optional<FloatTensor>,
    #[default = "-1"]
    axis: Attr<I64Attr>,
    #[default = "9.9999997473787516E-6 : f64"]
    epsilon: Attr<F64Attr>,
    output: Result<AnyTensor>,
}

/// Root-mean-square normalization over the dimensions from `axis` on,
/// then `* scale`.
#[op("graph.rms_norm",
     traits(Pure),
     format = "$input `,` $scale attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_norm)))]
pub struct RmsNormOp {
    input: Operand<FloatTensor>,
    scale: Operand<FloatTensor>,
    #[default = "-1"]
    axis: Attr<I64Attr>,
    #[default = "9.9999997473787516E-6 : f64"]
    epsilon: Attr<F64Attr>,
    output: Result<AnyTensor>,
}

/// Batch normalization for inference: `(x - mean) / sqrt(var + epsilon) *
/// scale + bias`, per channel (dimension 1).
#[op("graph.batch_norm",
     traits(Pure),
     format = "$input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_batch_norm)))]
pub struct BatchNormOp {
    input: Operand<FloatTensor>,
    scale: Operand<FloatTensor>,
    bias: Operand<FloatTensor>,
    mean: Operand<FloatTensor>,
    variance: Operand<FloatTensor>,
    #[default = "9.9999997473787516E-6 : f64"]
    epsilon: Attr<F64Attr>,
    output: Result<AnyTensor>,
}

/// Dropout in training mode: each element is zeroed with probability
/// `ratio` (a scalar in `[0, 1)`) and the others are scaled by
/// `1 / (1 - ratio)`. The optional `mask` result is true where an element
/// was kept.
///
/// With the optional `training` operand (a scalar `i1`), the op drops only
/// when it is true and is the identity (mask all true) otherwise, as ONNX's
/// `training_mode` input. The draws are a function of `seed` and the
/// input's shape, so the same program gives the same result on every run.
/// Dropout known to run in inference is the identity and has no op.
#[op("graph.dropout",
     traits(Pure),
     format = "$input `,` $ratio (`training` $training^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_dropout)))]
pub struct DropoutOp {
    input: Operand<FloatTensor>,
    ratio: Operand<FloatTensor>,
    training: Optional<BoolTensor>,
    #[default = "0"]
    seed: Attr<I64Attr>,
    output: Result<AnyTensor>,
    mask: OptionalResult<BoolTensor>,
}

/// Random numbers uniform in `[low, high)` shaped as `input` (ONNX's
/// `RandomUniformLike`), of the result's element type (a float).
///
/// The draws are a function of `seed` and the shape (strata's own stream,
/// as `graph.dropout`'s), so the same program gives the same result on
/// every run; they do not reproduce NumPy's or any framework's draws.
#[op("graph.random_uniform_like",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_cast)))]
pub struct RandomUniformLikeOp {
    input: Operand<AnyTensor>,
    #[default = "0.0 : f64"]
    low: Attr<F64Attr>,
    #[default = "1.0 : f64"]
    high: Attr<F64Attr>,
    #[default = "0"]
    seed: Attr<I64Attr>,
    output: Result<FloatTensor>,
}

/// Scaled dot-product attention: `softmax(q kᵀ * scale + mask) v`.
///
/// `q` is `[..., L, E]`, `k` is `[..., S, E]`, `v` is `[..., S, Ev]`; an
/// `i1` mask keeps the positions where it is true, a float mask is added;
/// `scale` defaults to `1 / sqrt(E)`; `is_causal` masks positions after the
/// query's.
#[op("graph.attention",
     traits(Pure),
     format = "$q `,` $k `,` $v (`mask` $mask^)? attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_attention)))]
pub struct AttentionOp {
    q: Operand<FloatTensor>,
    k: Operand<FloatTensor>,
    v: Operand<FloatTensor>,
    mask: Optional<AnyTensor>,
    scale: OptionalAttr<F64Attr>,
    #[default = "false"]
    is_causal: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}
