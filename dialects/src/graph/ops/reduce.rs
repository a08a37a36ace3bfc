//! Reductions: the `reduce_*` ops, `argmax` and `argmin`, `det`, the
//! cumulative sum and product, and `top_k`.

use strata_ir::ods::constraints::I64Attr;
use strata_ir::op;

use super::{AnyTensor, BoolAttr, FloatTensor, IntTensor};
use crate::graph::fold::fold_graph;
use crate::graph::infer::{self, verify_shapes, ShapeFunction};

macro_rules! reduce {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt) => {
        #[doc = $summary]
        ///
        /// `axes` (an optional 1-D `i64` tensor) lists the reduced
        /// dimensions; without it, or when it is empty, every dimension is
        /// reduced unless `noop_with_empty_axes` is set.
        #[op($mnemonic,
             traits(Pure),
             format = "$input (`axes` $axes^)? attr-dict `:` functional-type(operands, results)",
             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<AnyTensor>,
            axes: Optional<IntTensor>,
            #[default = "true"]
            keepdims: Attr<BoolAttr>,
            #[default = "false"]
            noop_with_empty_axes: Attr<BoolAttr>,
            output: Result<AnyTensor>,
        }
    };
}

reduce!(
    ReduceSumOp,
    "graph.reduce_sum",
    infer_reduce,
    "Sum over the given axes."
);
reduce!(
    ReduceMeanOp,
    "graph.reduce_mean",
    infer_reduce,
    "Mean over the given axes."
);
reduce!(
    ReduceMaxOp,
    "graph.reduce_max",
    infer_reduce,
    "Maximum over the given axes."
);
reduce!(
    ReduceMinOp,
    "graph.reduce_min",
    infer_reduce,
    "Minimum over the given axes."
);
reduce!(
    ReduceProdOp,
    "graph.reduce_prod",
    infer_reduce,
    "Product over the given axes."
);
reduce!(
    ReduceSumSquareOp,
    "graph.reduce_sum_square",
    infer_reduce,
    "Sum of squares over the given axes."
);
reduce!(
    ReduceL1Op,
    "graph.reduce_l1",
    infer_reduce,
    "Sum of absolute values over the given axes."
);
reduce!(
    ReduceL2Op,
    "graph.reduce_l2",
    infer_reduce,
    "Euclidean norm over the given axes."
);
reduce!(
    ReduceLogSumExpOp,
    "graph.reduce_log_sum_exp",
    infer_reduce,
    "`log(sum(exp(x)))` over the given axes."
);

macro_rules! arg_reduce {
    ($name:ident, $mnemonic:tt, $shape:ident, $summary:tt) => {
        #[doc = $summary]
        #[op($mnemonic,
                             traits(Pure),
                             format = "$input attr-dict `:` functional-type(operands, results)",
                             fold = fold_graph,
             verify = verify_shapes,
             interfaces(ShapeFunction(infer::$shape)))]
        pub struct $name {
            input: Operand<AnyTensor>,
            #[default = "0"]
            axis: Attr<I64Attr>,
            #[default = "true"]
            keepdims: Attr<BoolAttr>,
            #[default = "false"]
            select_last_index: Attr<BoolAttr>,
            output: Result<IntTensor>,
        }
    };
}

arg_reduce!(
    ArgMaxOp,
    "graph.argmax",
    infer_arg_reduce,
    "Index (`i64`) of the maximum along one axis."
);
arg_reduce!(
    ArgMinOp,
    "graph.argmin",
    infer_arg_reduce,
    "Index (`i64`) of the minimum along one axis."
);

/// Running sums along the axis given by the scalar `axis` operand;
/// `exclusive` leaves each element out of its own sum, `reverse` sums from
/// the end.
#[op("graph.cumsum",
     traits(Pure),
     format = "$input `,` $axis attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_cumsum)))]
pub struct CumsumOp {
    input: Operand<AnyTensor>,
    axis: Operand<IntTensor>,
    #[default = "false"]
    exclusive: Attr<BoolAttr>,
    #[default = "false"]
    reverse: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// The determinant of each square matrix in the last two dimensions of
/// `input` (`[..., M, M] -> [...]`), as ONNX's `Det`.
#[op("graph.det",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_det)))]
pub struct DetOp {
    input: Operand<FloatTensor>,
    output: Result<FloatTensor>,
}

/// Running products along the axis given by the scalar `axis` operand;
/// `exclusive` leaves each element out of its own product (which starts at
/// 1), `reverse` multiplies from the end.
#[op("graph.cumprod",
     traits(Pure),
     format = "$input `,` $axis attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_cumsum)))]
pub struct CumprodOp {
    input: Operand<AnyTensor>,
    axis: Operand<IntTensor>,
    #[default = "false"]
    exclusive: Attr<BoolAttr>,
    #[default = "false"]
    reverse: Attr<BoolAttr>,
    output: Result<AnyTensor>,
}

/// The `k` largest (`largest`) or smallest elements along `axis`, sorted,
/// and their positions (`i64`); equal elements keep their index order and
/// NaN is larger than every number. `k` is a one-element operand.
#[op("graph.top_k",
     traits(Pure),
     format = "$input `,` $k attr-dict `:` functional-type(operands, results)",
     fold = fold_graph,
             verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_top_k)))]
pub struct TopKOp {
    input: Operand<AnyTensor>,
    k: Operand<IntTensor>,
    #[default = "-1"]
    axis: Attr<I64Attr>,
    #[default = "true"]
    largest: Attr<BoolAttr>,
    values: Result<AnyTensor>,
    indices: Result<IntTensor>,
}
