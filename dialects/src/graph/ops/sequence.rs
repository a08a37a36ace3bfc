//! Sequences and optionals (ONNX's `seq(tensor)` and `optional(T)` values
//! and the ops on them): `!graph.seq<T>` and `!graph.opt<T>` values are
//! made, read and taken apart here. Their types are in
//! [`crate::graph::types`]; their verifiers and result types in
//! [`crate::graph::sequence`].
//!
//! A sequence's length and its elements' shapes are known only when the
//! graph runs: these ops run in eager mode (the interpreter); graph mode
//! does not lower them.

use strata_ir::ods::constraints::I64Attr;
use strata_ir::{op, type_constraint};

use super::{AnyTensor, BoolAttr, BoolTensor, IntTensor};
use crate::graph::sequence::verify_sequence_op;
use crate::graph::types::{
    is_tensor, opt_element, seq_element, valid_opt_element, valid_seq_element,
};

type_constraint!(
    /// A `!graph.seq<...>`.
    SeqType, "sequence of tensors", |ctx, ty| {
        seq_element(ctx, ty).is_some_and(|e| valid_seq_element(ctx, e))
    }
);
type_constraint!(
    /// A `!graph.opt<...>`.
    OptType, "optional tensor or sequence", |ctx, ty| {
        opt_element(ctx, ty).is_some_and(|e| valid_opt_element(ctx, e))
    }
);
type_constraint!(
    /// A tensor or a `!graph.seq<...>` (what an optional holds).
    TensorOrSeq, "tensor or sequence of tensors", |ctx, ty| {
        is_tensor(ctx, ty) || seq_element(ctx, ty).is_some()
    }
);

/// A sequence of the given tensors, in order.
///
/// The result's element type must be one each input could have (the
/// importer gives it their join: a dimension they disagree on is `?`).
///
/// ```mlir
/// %s = graph.sequence_construct %a, %b : (tensor<2xf32>, tensor<3xf32>) -> !graph.seq<tensor<?xf32>>
/// ```
#[op("graph.sequence_construct",
     traits(Pure),
     format = "$inputs attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct SequenceConstructOp {
    inputs: Variadic<AnyTensor>,
    output: Result<SeqType>,
}

/// An empty sequence of the result's element type.
///
/// ```mlir
/// %s = graph.sequence_empty : !graph.seq<tensor<*xf32>>
/// ```
#[op("graph.sequence_empty",
     traits(Pure),
     format = "attr-dict `:` type($output)",
     verify = verify_sequence_op)]
pub struct SequenceEmptyOp {
    output: Result<SeqType>,
}

/// The element of a sequence at `position` (a one-element `i32` or `i64`
/// tensor; negative positions count from the end). A position out of
/// range is an error when the graph runs.
///
/// ```mlir
/// %t = graph.sequence_at %s, %i : (!graph.seq<tensor<?xf32>>, tensor<i64>) -> tensor<?xf32>
/// ```
#[op("graph.sequence_at",
     traits(Pure),
     format = "$input_sequence `,` $position attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct SequenceAtOp {
    input_sequence: Operand<SeqType>,
    position: Operand<IntTensor>,
    tensor: Result<AnyTensor>,
}

/// The sequence with `tensor` inserted before `position` (at the end
/// without a position; a position equal to the length appends).
///
/// ```mlir
/// %t = graph.sequence_insert %s, %x at %i : (!graph.seq<tensor<?xf32>>, tensor<3xf32>, tensor<i64>) -> !graph.seq<tensor<?xf32>>
/// ```
#[op("graph.sequence_insert",
     traits(Pure),
     format = "$input_sequence `,` $tensor (`at` $position^)? attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct SequenceInsertOp {
    input_sequence: Operand<SeqType>,
    tensor: Operand<AnyTensor>,
    position: Optional<IntTensor>,
    output_sequence: Result<SeqType>,
}

/// The sequence without the element at `position` (the last one without
/// a position).
///
/// ```mlir
/// %t = graph.sequence_erase %s at %i : (!graph.seq<tensor<?xf32>>, tensor<i64>) -> !graph.seq<tensor<?xf32>>
/// ```
#[op("graph.sequence_erase",
     traits(Pure),
     format = "$input_sequence (`at` $position^)? attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct SequenceEraseOp {
    input_sequence: Operand<SeqType>,
    position: Optional<IntTensor>,
    output_sequence: Result<SeqType>,
}

/// The number of elements of a sequence, as a `tensor<i64>`.
///
/// ```mlir
/// %n = graph.sequence_length %s : (!graph.seq<tensor<?xf32>>) -> tensor<i64>
/// ```
#[op("graph.sequence_length",
     traits(Pure),
     format = "$input_sequence attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct SequenceLengthOp {
    input_sequence: Operand<SeqType>,
    length: Result<IntTensor>,
}

/// A tensor split along `axis` into a sequence.
///
/// `split`, when given, is a scalar (pieces of that size, the last one
/// smaller if it does not divide) or a 1-D tensor of the pieces' sizes.
/// Without it the pieces have size 1 along `axis`, which is removed
/// unless `keepdims`.
///
/// ```mlir
/// %s = graph.split_to_sequence %x sizes %n {axis = 1 : i64} : (tensor<3x6xf32>, tensor<i64>) -> !graph.seq<tensor<3x?xf32>>
/// ```
#[op("graph.split_to_sequence",
     traits(Pure),
     format = "$input (`sizes` $split^)? attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct SplitToSequenceOp {
    input: Operand<AnyTensor>,
    split: Optional<IntTensor>,
    #[default = "0"]
    axis: Attr<I64Attr>,
    #[default = "true"]
    keepdims: Attr<BoolAttr>,
    output_sequence: Result<SeqType>,
}

/// The elements of a sequence concatenated along `axis`, or stacked
/// along a new `axis` when `new_axis` (ONNX's `ConcatFromSequence`).
///
/// ```mlir
/// %t = graph.concat_from_sequence %s {axis = 0 : i64} : (!graph.seq<tensor<?x4xf32>>) -> tensor<?x4xf32>
/// ```
#[op("graph.concat_from_sequence",
     traits(Pure),
     format = "$input_sequence attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct ConcatFromSequenceOp {
    input_sequence: Operand<SeqType>,
    axis: Attr<I64Attr>,
    #[default = "false"]
    new_axis: Attr<BoolAttr>,
    concat_result: Result<AnyTensor>,
}

/// An optional holding `input`, or nothing without an input.
///
/// ```mlir
/// %some = graph.optional %x : (tensor<2xf32>) -> !graph.opt<tensor<2xf32>>
/// %none = graph.optional : () -> !graph.opt<tensor<2xf32>>
/// ```
#[op("graph.optional",
     traits(Pure),
     format = "($input^)? attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct OptionalOp {
    input: Optional<TensorOrSeq>,
    output: Result<OptType>,
}

/// The value an optional holds; an empty optional is an error when the
/// graph runs.
///
/// ```mlir
/// %x = graph.optional_get_element %o : (!graph.opt<tensor<2xf32>>) -> tensor<2xf32>
/// ```
#[op("graph.optional_get_element",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct OptionalGetElementOp {
    input: Operand<OptType>,
    output: Result<TensorOrSeq>,
}

/// Whether an optional holds a value, as a `tensor<i1>`.
///
/// ```mlir
/// %b = graph.optional_has_element %o : (!graph.opt<tensor<2xf32>>) -> tensor<i1>
/// ```
#[op("graph.optional_has_element",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     verify = verify_sequence_op)]
pub struct OptionalHasElementOp {
    input: Operand<OptType>,
    output: Result<BoolTensor>,
}
