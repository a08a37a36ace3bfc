//! The ops of the `graph` dialect.
//!
//! Semantics follow the ONNX operator of the same name (opset 13 and later):
//! what ONNX passes as an input tensor (a reshape's target shape, a slice's
//! bounds, a reduction's axes) is an operand here too, so that a graph with
//! dynamic values can be represented; what ONNX passes as an attribute is a
//! property. Every op verifies its operands and declared result types with
//! its shape function (see [`super::infer`]).
//!
//! This module holds the type and attribute constraints the declarations
//! share and `graph.custom`; the declarations themselves are grouped by op
//! family in the submodules (`control`, `elementwise`, `nn`, `reduce`, `shape`,
//! `indexing`, `resample`, `signal`, `sequence`, `strings`), all re-exported
//! here.

use strata_ir::ods::constraints::{AnyAttr, I64Attr, StrAttr};
use strata_ir::TypeKind;
use strata_ir::{attr_constraint, op, type_constraint};

use super::infer::{self, verify_shapes, ShapeFunction};

mod control;
mod elementwise;
mod indexing;
mod nn;
mod recurrent;
mod reduce;
mod resample;
mod sequence;
mod shape;
mod signal;
mod strings;

pub use control::*;
pub use elementwise::*;
pub use indexing::*;
pub use nn::*;
pub use recurrent::*;
pub use reduce::*;
pub use resample::*;
pub use sequence::*;
pub use shape::*;
pub use signal::*;
pub use strings::*;

/// Whether `ty` is an element type the graph ops compute with: `f16`,
/// `bf16`, `f32`, `f64`, integers of 1, 8, 16, 32 or 64 bits (any
/// signedness) and `index` (what the interpreter and the kernels implement).
fn is_graph_element(ctx: &strata_ir::Context, ty: strata_ir::Type) -> bool {
    is_graph_integer(ctx, ty)
        || matches!(ctx.type_kind(ty), TypeKind::Index)
        || strata_ir::ods::constraints::is_f16_bf16_f32_f64(ctx, ty)
}

/// Whether `ty` is an integer of 1, 8, 16, 32 or 64 bits.
fn is_graph_integer(ctx: &strata_ir::Context, ty: strata_ir::Type) -> bool {
    matches!(
        ctx.type_kind(ty),
        TypeKind::Integer {
            width: 1 | 8 | 16 | 32 | 64,
            ..
        }
    )
}

type_constraint!(
    /// A ranked or unranked tensor of an element type the graph ops compute
    /// with (see `is_graph_element`): not complex numbers, 8-bit or wide
    /// floats, or integers of other widths.
    AnyTensor, "tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit, 8-bit, 16-bit, 32-bit or 64-bit integer or index values", |ctx, ty| {
        strata_ir::ods::constraints::is_tensor_of(ctx, ty, is_graph_element)
    }
);
type_constraint!(
    /// What `graph.cast` converts from and to: an [`AnyTensor`], or a tensor
    /// of the storage-only narrow types (ONNX's 8- and 4-bit floats
    /// `f8E4M3FN`, `f8E4M3FNUZ`, `f8E5M2`, `f8E5M2FNUZ`, `f4E2M1FN`, and
    /// 4- and 2-bit integers), which the graph ops move and convert but do
    /// not compute with.
    CastTensor, "tensor of a graph element type or of 8-bit float, 4-bit float, 4-bit or 2-bit integer values", |ctx, ty| {
        strata_ir::ods::constraints::is_tensor_of(ctx, ty, |ctx, e| {
            is_graph_element(ctx, e) || is_narrow_element(ctx, e)
        })
    }
);

/// Whether `ty` is one of the narrow storage types [`CastTensor`] adds.
pub fn is_narrow_element(ctx: &strata_ir::Context, ty: strata_ir::Type) -> bool {
    use strata_ir::float::FloatKind as F;
    match ctx.type_kind(ty) {
        TypeKind::Float(k) => matches!(
            k,
            F::F8E4M3FN | F::F8E4M3FNUZ | F::F8E5M2 | F::F8E5M2FNUZ | F::F4E2M1FN | F::F8E8M0FNU
        ),
        TypeKind::Integer { width: 2 | 4, .. } => true,
        _ => false,
    }
}

type_constraint!(
    /// A value of the graph: an [`AnyTensor`], a `!graph.seq` or a
    /// `!graph.opt` (what control flow carries).
    AnyValue, "tensor, sequence or optional", |ctx, ty| {
        strata_ir::ods::constraints::is_tensor_of(ctx, ty, is_graph_element)
            || crate::graph::types::seq_element(ctx, ty).is_some()
            || crate::graph::types::opt_element(ctx, ty).is_some()
    }
);
type_constraint!(
    /// A tensor of the floats the graph ops compute with: `f16`, `bf16`,
    /// `f32` or `f64` (not the 8-bit, 80-bit or 128-bit formats, which the
    /// interpreter and the kernels do not implement).
    FloatTensor, "tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values", |ctx, ty| {
        strata_ir::ods::constraints::is_tensor_of(ctx, ty, strata_ir::ods::constraints::is_f16_bf16_f32_f64)
    }
);
type_constraint!(
    /// A tensor of `i1`.
    BoolTensor, "tensor of 1-bit signless integer values", |ctx, ty| matches!(
        ctx.type_kind(ty),
        TypeKind::RankedTensor { element, .. } | TypeKind::UnrankedTensor { element }
            if strata_ir::ods::constraints::is_i1(ctx, *element)
    )
);
type_constraint!(
    /// A tensor of integers of 1, 8, 16, 32 or 64 bits, any signedness.
    AnyIntTensor, "tensor of 1-bit, 8-bit, 16-bit, 32-bit or 64-bit integer values", |ctx, ty| {
        strata_ir::ods::constraints::is_tensor_of(ctx, ty, is_graph_integer)
    }
);
type_constraint!(
    /// A tensor of signless integers of 1, 8, 16, 32 or 64 bits (indices,
    /// shapes, axes).
    IntTensor, "tensor of 1-bit, 8-bit, 16-bit, 32-bit or 64-bit signless integer values", |ctx, ty| {
        strata_ir::ods::constraints::is_tensor_of(ctx, ty, |ctx, t| {
            is_graph_integer(ctx, t) && strata_ir::ods::constraints::is_signless_int(ctx, t)
        })
    }
);

attr_constraint!(
    /// `array<i64: ...>`.
    I64ArrayAttr, "i64 dense array attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::DenseArray { element, .. }
            if matches!(ctx.type_kind(*element), TypeKind::Integer { width: 64, .. })
    ),
    value: Vec<i64> = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::attributes::AttrKind::DenseArray { values, .. } => {
            Some(values.iter().map(|&v| v as i64).collect())
        }
        _ => None,
    }
);
attr_constraint!(
    /// A 64-bit float attribute.
    F64Attr, "64-bit float attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::Float { ty, .. }
            if ctx.float_kind(*ty) == Some(strata_ir::float::FloatKind::F64)
    ),
    value: f64 = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::attributes::AttrKind::Float { ty, bits }
            if ctx.float_kind(*ty) == Some(strata_ir::float::FloatKind::F64) =>
        {
            Some(f64::from_bits(*bits as u64))
        }
        _ => None,
    }
);
attr_constraint!(
    /// `array<f64: ...>`.
    F64ArrayAttr, "f64 dense array attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::DenseArray { element, .. }
            if ctx.float_kind(*element) == Some(strata_ir::float::FloatKind::F64)
    ),
    value: Vec<f64> = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::attributes::AttrKind::DenseArray { values, .. } => {
            Some(values.iter().map(|&v| f64::from_bits(v)).collect())
        }
        _ => None,
    }
);
attr_constraint!(
    /// An array of string attributes.
    StrArrayAttr, "string array attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::Array(items)
            if items.iter().all(|&a| matches!(ctx.attr_kind(a), strata_ir::attributes::AttrKind::String { .. }))
    ),
    value: Vec<String> = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::attributes::AttrKind::Array(items) => items
            .iter()
            .map(|&a| match ctx.attr_kind(a) {
                strata_ir::attributes::AttrKind::String { value, .. } => {
                    Some(String::from_utf8_lossy(value).into_owned())
                }
                _ => None,
            })
            .collect(),
        _ => None,
    }
);
attr_constraint!(
    /// A boolean (`true` / `false`).
    BoolAttr, "bool attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| strata_ir::ods::constraints::is_signless_int_attr(ctx, attr, 1),
    value: bool = |ctx, attr| match ctx.attr_kind(attr) {
        strata_ir::attributes::AttrKind::Integer { value, .. } => Some(*value != 0),
        _ => None,
    }
);
attr_constraint!(
    /// An elements attribute (`dense<...>`, `dense_resource<...>`).
    ElementsAttr, "constant vector/tensor attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::DenseElements { .. }
            | strata_ir::attributes::AttrKind::DenseResource { .. }
    )
);

// ----- custom ops -----

/// A registered custom op, named by `name` and `version`; its shape
/// function and reference implementation come from the custom-op registry
/// (`strata_dialects::graph::custom`).
#[op("graph.custom",
     format = "$name `(` $inputs `)` attr-dict `:` functional-type(operands, results)",
     verify = verify_shapes,
     interfaces(ShapeFunction(infer::infer_custom)))]
pub struct CustomOp {
    name: Attr<StrAttr>,
    #[default = "1"]
    version: Attr<I64Attr>,
    config: OptionalAttr<AnyAttr>,
    inputs: Variadic<AnyTensor>,
    outputs: VariadicResult<AnyTensor>,
}
