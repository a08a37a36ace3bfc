//! String ops: ONNX's ops on `STRING` tensors (`tensor<...x!graph.string>`,
//! see [`crate::graph::types`]): `string_concat`, `string_equal`,
//! `string_split`, `string_normalizer`, `regex_full_match`, and
//! `label_encoder` (ONNX-ML's table lookup, on strings or numbers).
//!
//! Strings have no fixed size, so these ops run in eager mode (the
//! interpreter) only; graph mode does not lower them.

use strata_ir::ods::constraints::{AnyAttr, I64Attr, StrAttr};
use strata_ir::{op, type_constraint};

use super::{BoolAttr, BoolTensor, IntTensor, StrArrayAttr};
use crate::graph::infer::{self, verify_shapes, ShapeFunction};
use crate::graph::types::is_string_tensor;

type_constraint!(
    /// A tensor of `!graph.string`.
    StringTensor, "tensor of string values", |ctx, ty| is_string_tensor(ctx, ty)
);

/// Elementwise concatenation of two string tensors, broadcasting (ONNX
/// `StringConcat`).
#[op("graph.string_concat",
     traits(Pure),
     format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_arith)))]
pub struct StringConcatOp {
    lhs: Operand<StringTensor>,
    rhs: Operand<StringTensor>,
    output: Result<StringTensor>,
}

/// Elementwise equality of two string tensors, broadcasting (ONNX `Equal`
/// on strings).
#[op("graph.string_equal",
     traits(Pure),
     format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_compare)))]
pub struct StringEqualOp {
    lhs: Operand<StringTensor>,
    rhs: Operand<StringTensor>,
    output: Result<BoolTensor>,
}

/// Whether each string matches `pattern` as a whole (ONNX
/// `RegexFullMatch`). The pattern is in the `regex` crate's syntax, RE2's
/// (no look-around or back-references), with Unicode classes (`\w`, `\d`,
/// `\b` are Unicode-aware, as in ONNX's reference); it must compile.
#[op("graph.regex_full_match",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_regex_full_match)))]
pub struct RegexFullMatchOp {
    input: Operand<StringTensor>,
    pattern: Attr<StrAttr>,
    output: Result<BoolTensor>,
}

/// Splits each string at `delimiter` (ONNX `StringSplit`): `substrings`
/// has the input's shape plus one axis, as long as the most pieces of any
/// string, shorter lists padded with empty strings; `lengths` (`i64`, the
/// input's shape) counts each string's pieces. Without a delimiter (or an
/// empty one) the strings split at runs of whitespace, leading and trailing
/// whitespace ignored; `maxsplit` (when set and not negative) bounds the
/// splits per string, the rest staying in the last piece.
#[op("graph.string_split",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_string_split)))]
pub struct StringSplitOp {
    input: Operand<StringTensor>,
    delimiter: OptionalAttr<StrAttr>,
    maxsplit: OptionalAttr<I64Attr>,
    substrings: Result<StringTensor>,
    lengths: Result<IntTensor>,
}

/// Removes stop words and changes case (ONNX `StringNormalizer`) in a
/// `[C]` or `[1, C]` tensor: the strings equal to one of `stopwords`
/// (compared ignoring case unless `is_case_sensitive`) are dropped, the
/// rest are changed to `case_change_action` (`"LOWER"`, `"UPPER"` or
/// `"NONE"`); when none is left the result holds one empty string.
#[op("graph.string_normalizer",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_string_normalizer)))]
pub struct StringNormalizerOp {
    input: Operand<StringTensor>,
    case_change_action: OptionalAttr<StrAttr>,
    is_case_sensitive: OptionalAttr<BoolAttr>,
    stopwords: OptionalAttr<StrArrayAttr>,
    output: Result<StringTensor>,
}

type_constraint!(
    /// A tensor of a graph element type or of strings.
    TensorOrStrings, "tensor of a graph element type or of strings", |ctx, ty| {
        is_string_tensor(ctx, ty)
            || strata_ir::ods::constraints::is_tensor_of(ctx, ty, super::is_graph_element)
    }
);

/// Maps each element through a table (ONNX-ML `LabelEncoder`): an element
/// equal to `keys[i]` becomes `values[i]`, one equal to no key becomes
/// `default_value`. `keys` (`tensor<N x T>`, `T` the input's element type)
/// and `values` (`tensor<N x U>`, `U` the result's) are elements
/// attributes, strings as `dense<["a", "b"]> : tensor<2x!graph.string>`;
/// `default_value` holds one `U`. Float keys match NaN to NaN; a key listed
/// twice maps to its first value.
#[op("graph.label_encoder",
     traits(Pure),
     format = "$input attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_label_encoder)))]
pub struct LabelEncoderOp {
    input: Operand<TensorOrStrings>,
    keys: Attr<AnyAttr>,
    values: Attr<AnyAttr>,
    default_value: Attr<AnyAttr>,
    output: Result<TensorOrStrings>,
}
