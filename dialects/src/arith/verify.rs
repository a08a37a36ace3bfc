//! The verifiers of `arith` ops beyond their declarations' constraints:
//! constants, comparison results, selects and the width and shape rules of
//! casts.

use strata_ir::attributes::AttrKind;
use strata_ir::ods::constraints::{attr_type, element_type_or_self};
use strata_ir::types::Signedness;
use strata_ir::{Context, Diagnostic, Operation, Type, TypeKind};

use crate::arith::ops::ConstantOp;

pub(super) fn verify_constant(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let Some(value) = ConstantOp(op).value(ctx) else {
        return Ok(());
    };
    let result = ctx.value_type(ctx.result(op, 0));
    // An untyped attribute (a string) has type `none`.
    let same_type = match attr_type(ctx, value) {
        Some(ty) => ty == result,
        None => matches!(ctx.type_kind(result), TypeKind::None),
    };
    if !same_type {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that all of {value, result} have same type",
        ));
    }
    if let TypeKind::Integer { signedness, .. } = ctx.type_kind(result) {
        if *signedness != Signedness::Signless {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                "integer return type must be signless",
            ));
        }
    }
    if !matches!(
        ctx.attr_kind(value),
        AttrKind::Integer { .. }
            | AttrKind::WideInteger { .. }
            | AttrKind::Float { .. }
            | AttrKind::DenseElements { .. }
            | AttrKind::DenseResource { .. }
            | AttrKind::Sparse { .. }
    ) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "value must be an integer, float, or elements attribute",
        ));
    }
    let scalable = matches!(ctx.type_kind(result), TypeKind::Vector { scalable, .. } if scalable.contains(&true));
    let splat = matches!(ctx.attr_kind(value), AttrKind::DenseElements { data, .. } if data.splat);
    if scalable && !splat {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "intializing scalable vectors with elements attribute is not supported unless it's a vector splat",
        ));
    }
    Ok(())
}

/// The result of a comparison (or a float classification): `i1` elements in
/// the operand's shape.
pub(crate) fn verify_cmp_result(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let lhs = ctx.value_type(ctx.operand(op, 0));
    let result = ctx.value_type(ctx.result(op, 0));
    let same_shape = ctx.type_kind(lhs).shape() == ctx.type_kind(result).shape()
        && std::mem::discriminant(ctx.type_kind(lhs))
            == std::mem::discriminant(ctx.type_kind(result))
        || (ctx.type_kind(lhs).shape().is_none() && ctx.type_kind(result).shape().is_none());
    let element = element_type_or_self(ctx, result);
    // `getI1SameShape` keeps a tensor's encoding.
    let same_encoding = tensor_encoding(ctx, lhs) == tensor_encoding(ctx, result);
    if !same_shape || !same_encoding || !strata_ir::ods::constraints::is_i1(ctx, element) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that result type has i1 element type and same shape as operands",
        ));
    }
    Ok(())
}

pub(super) fn verify_select(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let cond = ctx.value_type(ctx.operand(op, 0));
    let result = ctx.value_type(ctx.result(op, 0));
    let ok = strata_ir::ods::constraints::is_i1(ctx, cond)
        || ctx.type_kind(cond).shape() == ctx.type_kind(result).shape()
            && ctx.type_kind(result).shape().is_some();
    if !ok {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that condition is signless i1 or has matching shape",
        ));
    }
    Ok(())
}

/// MLIR 22's `SelectOp::verify`, after the traits: a shaped condition is
/// exactly the result's shape of `i1` (its encoding too).
pub(super) fn verify_select_condition(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let cond = ctx.value_type(ctx.operand(op, 0));
    let result = ctx.value_type(ctx.result(op, 0));
    if !strata_ir::ods::constraints::is_i1(ctx, cond) {
        if let Some(expected) = i1_same_shape_string(ctx, result) {
            let got = strata_ir::printer::type_to_string(ctx, cond);
            if expected != got {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!(
                        "expected condition type to have the same shape as the result type, expected '{expected}', but got '{got}'"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The encoding of a ranked tensor type.
fn tensor_encoding(ctx: &Context, ty: Type) -> Option<strata_ir::Attribute> {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { encoding, .. } => *encoding,
        _ => None,
    }
}

/// The text of `ty`'s shape with `i1` elements (MLIR's `getI1SameShape`)
/// for a vector or tensor.
fn i1_same_shape_string(ctx: &Context, ty: Type) -> Option<String> {
    let dims = |shape: &[i64], scalable: Option<&[bool]>| -> String {
        shape
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let text = if d == strata_ir::types::DYNAMIC {
                    "?".to_string()
                } else {
                    d.to_string()
                };
                if scalable.is_some_and(|s| s.get(i) == Some(&true)) {
                    format!("[{text}]x")
                } else {
                    format!("{text}x")
                }
            })
            .collect()
    };
    Some(match ctx.type_kind(ty) {
        TypeKind::Vector {
            shape, scalable, ..
        } => format!("vector<{}i1>", dims(shape, Some(scalable))),
        TypeKind::RankedTensor {
            shape, encoding, ..
        } => match encoding {
            Some(e) => format!(
                "tensor<{}i1, {}>",
                dims(shape, None),
                strata_ir::printer::attribute_to_string(ctx, *e)
            ),
            None => format!("tensor<{}i1>", dims(shape, None)),
        },
        TypeKind::UnrankedTensor { .. } => "tensor<*xi1>".to_string(),
        _ => return None,
    })
}

/// The in/out types of a cast with the container kinds and shapes compared.
fn cast_types(ctx: &Context, op: Operation) -> Option<(Type, Type)> {
    let a = ctx.value_type(ctx.operand(op, 0));
    let b = ctx.value_type(ctx.result(op, 0));
    // Tensors of different encodings are not cast compatible.
    if tensor_encoding(ctx, a) != tensor_encoding(ctx, b) {
        return None;
    }
    let same_container = std::mem::discriminant(ctx.type_kind(a))
        == std::mem::discriminant(ctx.type_kind(b))
        || (ctx.type_kind(a).element_type().is_none() && ctx.type_kind(b).element_type().is_none());
    same_container.then(|| (element_type_or_self(ctx, a), element_type_or_self(ctx, b)))
}

fn cast_incompatible(ctx: &Context, op: Operation) -> Diagnostic {
    let a = strata_ir::printer::type_to_string(ctx, ctx.value_type(ctx.operand(op, 0)));
    let b = strata_ir::printer::type_to_string(ctx, ctx.value_type(ctx.result(op, 0)));
    Diagnostic::op_error(
        ctx,
        op,
        format!("operand type '{a}' and result type '{b}' are cast incompatible"),
    )
}

fn check_cast(
    ctx: &Context,
    op: Operation,
    ok: impl Fn(Type, Type) -> bool,
) -> Result<(), Diagnostic> {
    match cast_types(ctx, op) {
        Some((a, b)) if ok(a, b) => Ok(()),
        _ => Err(cast_incompatible(ctx, op)),
    }
}

fn width(ctx: &Context, ty: Type) -> u32 {
    ctx.int_or_float_bit_width(ty).unwrap_or(0)
}

/// `SameInputOutputTensorDims`: a ranked tensor operand and result have the
/// same dimensions (a type that is not a ranked tensor has none), checked
/// with the other predicates, before `SameOperandsAndResultShape`.
pub(super) fn verify_same_tensor_dims(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let dims = |t: Type| match ctx.type_kind(t) {
        TypeKind::RankedTensor { shape, .. } => shape.as_slice(),
        _ => &[],
    };
    let a = ctx.value_type(ctx.operand(op, 0));
    let b = ctx.value_type(ctx.result(op, 0));
    if dims(a) != dims(b) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that input and output have the same tensor dimensions",
        ));
    }
    Ok(())
}

pub(super) fn verify_widening_int(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, b) > width(ctx, a))
}

pub(super) fn verify_narrowing_int(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, b) < width(ctx, a))
}

pub(super) fn verify_widening_float(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, b) > width(ctx, a))
}

pub(super) fn verify_narrowing_float(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, b) < width(ctx, a))
}

pub(super) fn verify_same_shape_cast(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |_, _| true)
}

pub(super) fn verify_index_cast(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let is_index = |t: Type| matches!(ctx.type_kind(t), TypeKind::Index);
    check_cast(ctx, op, |a, b| is_index(a) != is_index(b))
}

pub(super) fn verify_bitcast(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, a) == width(ctx, b))
}
