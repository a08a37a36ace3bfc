//! The result types and verifiers of the sequence and optional ops
//! (`graph.sequence_*`, `graph.split_to_sequence`,
//! `graph.concat_from_sequence`, `graph.optional*`).
//!
//! These ops are not tensor ops, so they have no [`ShapeFunction`]
//! (`super::infer`): each has a verifier here, and the builders (the ONNX
//! importer) take the result type from the `*_type` functions, which
//! compute the most precise type the verifier accepts.
//!
//! [`ShapeFunction`]: super::infer::ShapeFunction

use strata_ir::printer::type_to_string;
use strata_ir::{Context, Diagnostic, Operation, Type, Value};

use super::infer::{attr_bool, attr_i64, norm_axis, operand_info};
use super::shape::{shape_of, tensor_type, Dim, Shape};
use super::types::{could_be, join_tensor_types, opt_element, seq_element, seq_type};

fn type_str(ctx: &Context, ty: Type) -> String {
    type_to_string(ctx, ty)
}

/// The element type of a sequence value.
fn element_of(ctx: &Context, seq: Value) -> Result<Type, String> {
    let ty = ctx.value_type(seq);
    seq_element(ctx, ty).ok_or_else(|| format!("expects a sequence, got '{}'", type_str(ctx, ty)))
}

/// The type of `graph.sequence_construct` of `inputs`: a sequence of the
/// join of their types.
pub fn construct_type(ctx: &mut Context, inputs: &[Value]) -> Result<Type, String> {
    let (&first, rest) = inputs
        .split_first()
        .ok_or("needs at least one tensor (an empty sequence is graph.sequence_empty)")?;
    let mut element = ctx.value_type(first);
    if !super::types::is_tensor(ctx, element) {
        return Err(format!(
            "the elements of a sequence are tensors, not '{}'",
            type_str(ctx, element)
        ));
    }
    for &v in rest {
        let ty = ctx.value_type(v);
        element = join_tensor_types(ctx, element, ty).ok_or_else(|| {
            format!(
                "the elements of a sequence have one element type, but '{}' and '{}' differ",
                type_str(ctx, element),
                type_str(ctx, ty)
            )
        })?;
    }
    Ok(seq_type(ctx, element))
}

/// The type of `graph.sequence_insert` of `tensor` into `seq`.
pub fn insert_type(ctx: &mut Context, seq: Value, tensor: Value) -> Result<Type, String> {
    let element = element_of(ctx, seq)?;
    let ty = ctx.value_type(tensor);
    let joined = join_tensor_types(ctx, element, ty).ok_or_else(|| {
        format!(
            "cannot insert a '{}' into a sequence of '{}'",
            type_str(ctx, ty),
            type_str(ctx, element)
        )
    })?;
    Ok(seq_type(ctx, joined))
}

/// The type of `graph.sequence_at` of `seq`: its element type.
pub fn at_type(ctx: &Context, seq: Value) -> Result<Type, String> {
    element_of(ctx, seq)
}

/// `tensor<i64>`, the type of `graph.sequence_length`.
pub fn length_type(ctx: &mut Context) -> Type {
    let i64 = ctx.integer_type(64);
    ctx.tensor_type(Vec::new(), i64)
}

/// `tensor<i1>`, the type of `graph.optional_has_element`.
pub fn has_element_type(ctx: &mut Context) -> Type {
    let i1 = ctx.integer_type(1);
    ctx.tensor_type(Vec::new(), i1)
}

/// What a `graph.split_to_sequence` knows of its `split` operand.
#[derive(Clone, Copy, Debug)]
pub enum SplitSizes<'a> {
    /// No `split`: pieces of size 1.
    Absent,
    /// A scalar `split`: pieces of that size (the last may be smaller).
    Scalar(Option<i64>),
    /// A 1-D `split`: the pieces' sizes.
    List(Option<&'a [i64]>),
}

/// The element shape of `graph.split_to_sequence` of a tensor of
/// `shape`: the split axis keeps the pieces' size where every piece has
/// the same known one and is `?` otherwise; without `split` the pieces
/// have size 1 there, and the axis is removed unless `keepdims`.
pub fn split_element_shape(
    shape: &Shape,
    axis: i64,
    split: SplitSizes,
    keepdims: bool,
) -> Result<Shape, String> {
    let Some(dims) = shape.dims() else {
        return Ok(Shape::unranked());
    };
    let a = norm_axis(axis, dims.len(), "axis")?;
    let mut out = dims.to_vec();
    match split {
        SplitSizes::Absent if keepdims => out[a] = Dim::Known(1),
        SplitSizes::Absent => {
            out.remove(a);
        }
        SplitSizes::Scalar(n) => {
            out[a] = match (n, dims[a].known()) {
                (Some(n), Some(total)) if n > 0 && total % n == 0 => Dim::Known(n),
                _ => Dim::Unknown,
            }
        }
        SplitSizes::List(sizes) => {
            out[a] = match sizes {
                Some([first, rest @ ..]) if rest.iter().all(|s| s == first) => Dim::Known(*first),
                _ => Dim::Unknown,
            }
        }
    }
    Ok(Shape::ranked(out))
}

/// The type of `graph.split_to_sequence` of `input` (with the optional
/// `split` operand) along `axis`.
pub fn split_type(
    ctx: &mut Context,
    input: Value,
    split: Option<Value>,
    axis: i64,
    keepdims: bool,
) -> Result<Type, String> {
    let (shape, elem) = shape_of(ctx, ctx.value_type(input)).ok_or("expects a tensor input")?;
    let values = split
        .and_then(|s| operand_info(ctx, s))
        .and_then(|i| i.value);
    let scalar = split
        .and_then(|s| shape_of(ctx, ctx.value_type(s)))
        .is_some_and(|(s, _)| s.rank() == Some(0));
    let sizes = match split {
        None => SplitSizes::Absent,
        Some(_) if scalar => SplitSizes::Scalar(values.as_deref().and_then(|v| v.first().copied())),
        Some(_) => SplitSizes::List(values.as_deref()),
    };
    let element = split_element_shape(&shape, axis, sizes, keepdims)?;
    let element = tensor_type(ctx, &element, elem);
    Ok(seq_type(ctx, element))
}

/// The shape of `graph.concat_from_sequence` of elements of `element`
/// along `axis` (a new axis when `new_axis`): that axis is `?`.
pub fn concat_shape(element: &Shape, axis: i64, new_axis: bool) -> Result<Shape, String> {
    let Some(dims) = element.dims() else {
        return Ok(Shape::unranked());
    };
    let mut out = dims.to_vec();
    if new_axis {
        let a = norm_axis(axis, dims.len() + 1, "axis")?;
        out.insert(a, Dim::Unknown);
    } else {
        let a = norm_axis(axis, dims.len(), "axis")?;
        out[a] = Dim::Unknown;
    }
    Ok(Shape::ranked(out))
}

/// The type of `graph.concat_from_sequence` of `seq`.
pub fn concat_type(
    ctx: &mut Context,
    seq: Value,
    axis: i64,
    new_axis: bool,
) -> Result<Type, String> {
    let element = element_of(ctx, seq)?;
    let (shape, elem) = shape_of(ctx, element).ok_or("expects a sequence of tensors")?;
    let shape = concat_shape(&shape, axis, new_axis)?;
    Ok(tensor_type(ctx, &shape, elem))
}

/// The type of `graph.optional_get_element` of `opt`.
pub fn get_element_type(ctx: &Context, opt: Value) -> Result<Type, String> {
    let ty = ctx.value_type(opt);
    opt_element(ctx, ty).ok_or_else(|| format!("expects an optional, got '{}'", type_str(ctx, ty)))
}

fn err(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op_error(ctx, op, message)
}

/// Checks that `actual` (described by `what`) could be `expected`.
fn check(ctx: &Context, actual: Type, expected: Type, what: &str) -> Result<(), String> {
    if could_be(ctx, actual, expected) {
        Ok(())
    } else {
        Err(format!(
            "{what} has type '{}', which cannot be '{}'",
            type_str(ctx, actual),
            type_str(ctx, expected)
        ))
    }
}

/// A position operand: a one-element `i32` or `i64` tensor.
fn check_position(ctx: &Context, v: Value) -> Result<(), String> {
    let ty = ctx.value_type(v);
    let ok = shape_of(ctx, ty).is_some_and(|(shape, elem)| {
        matches!(
            ctx.type_kind(elem),
            strata_ir::TypeKind::Integer { width: 32 | 64, .. }
        ) && matches!(
            shape.num_elements(),
            Dim::Known(1) | Dim::Unknown | Dim::Sym(_)
        )
    });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "the position must be a one-element tensor of i32 or i64, but is '{}'",
            type_str(ctx, ty)
        ))
    }
}

/// The sequence and optional ops (the ops this module verifies).
pub const SEQUENCE_OPS: [&str; 11] = [
    "graph.sequence_construct",
    "graph.sequence_empty",
    "graph.sequence_at",
    "graph.sequence_insert",
    "graph.sequence_erase",
    "graph.sequence_length",
    "graph.split_to_sequence",
    "graph.concat_from_sequence",
    "graph.optional",
    "graph.optional_get_element",
    "graph.optional_has_element",
];

/// Whether `name` is one of [`SEQUENCE_OPS`].
pub fn is_sequence_op(name: &str) -> bool {
    SEQUENCE_OPS.contains(&name)
}

/// The verifier of every sequence and optional op.
pub fn verify_sequence_op(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    verify(ctx, op).map_err(|m| err(ctx, op, m))
}

fn verify(ctx: &Context, op: Operation) -> Result<(), String> {
    let operands: Vec<Value> = ctx.operands(op).collect();
    let result = ctx.results(op).next().map(|r| ctx.value_type(r));
    let result = result.ok_or("must have one result")?;
    let result_element = || {
        seq_element(ctx, result)
            .ok_or_else(|| format!("result must be a sequence, got '{}'", type_str(ctx, result)))
    };
    match ctx.op_name_str(op) {
        "graph.sequence_construct" => {
            if operands.is_empty() {
                return Err(
                    "needs at least one tensor (an empty sequence is graph.sequence_empty)".into(),
                );
            }
            let element = result_element()?;
            for (i, &v) in operands.iter().enumerate() {
                check(ctx, ctx.value_type(v), element, &format!("element #{i}"))?;
            }
        }
        "graph.sequence_empty" => {
            result_element()?;
        }
        "graph.sequence_insert" => {
            let element = result_element()?;
            let input = element_of(ctx, operands[0])?;
            check(ctx, input, element, "the input sequence's element type")?;
            check(
                ctx,
                ctx.value_type(operands[1]),
                element,
                "the inserted tensor",
            )?;
            if let Some(&p) = operands.get(2) {
                check_position(ctx, p)?;
            }
        }
        "graph.sequence_erase" => {
            let element = result_element()?;
            let input = element_of(ctx, operands[0])?;
            check(ctx, input, element, "the input sequence's element type")?;
            if let Some(&p) = operands.get(1) {
                check_position(ctx, p)?;
            }
        }
        "graph.sequence_at" => {
            let element = element_of(ctx, operands[0])?;
            check_position(ctx, operands[1])?;
            check(ctx, element, result, "the sequence's element type")?;
        }
        "graph.sequence_length" => {
            element_of(ctx, operands[0])?;
            let ok = shape_of(ctx, result).is_some_and(|(s, e)| {
                s.rank() == Some(0)
                    && matches!(
                        ctx.type_kind(e),
                        strata_ir::TypeKind::Integer { width: 64, .. }
                    )
            });
            if !ok {
                return Err(format!(
                    "result must be tensor<i64>, got '{}'",
                    type_str(ctx, result)
                ));
            }
        }
        "graph.split_to_sequence" => {
            let element = result_element()?;
            let (shape, elem) =
                shape_of(ctx, ctx.value_type(operands[0])).ok_or("expects a tensor input")?;
            let axis = attr_i64(ctx, op, "axis").unwrap_or(0);
            let keepdims = attr_bool(ctx, op, "keepdims");
            if let Some(&split) = operands.get(1) {
                let rank = shape_of(ctx, ctx.value_type(split)).and_then(|(s, _)| s.rank());
                if rank.is_some_and(|r| r > 1) {
                    return Err("split must be a scalar or a 1-D tensor".into());
                }
            }
            let sizes = if operands.len() > 1 {
                SplitSizes::List(None)
            } else {
                SplitSizes::Absent
            };
            let expected = split_element_shape(&shape, axis, sizes, keepdims)?;
            let (declared, declared_elem) =
                shape_of(ctx, element).ok_or("the element type must be a tensor")?;
            if declared_elem != elem {
                return Err(format!(
                    "the elements have element type '{}', but the input has '{}'",
                    type_str(ctx, declared_elem),
                    type_str(ctx, elem)
                ));
            }
            super::infer::refine(&declared, &expected)
                .map_err(|m| format!("the element type {m}"))?;
        }
        "graph.concat_from_sequence" => {
            let element = element_of(ctx, operands[0])?;
            let (shape, elem) = shape_of(ctx, element).ok_or("expects a sequence of tensors")?;
            let axis = attr_i64(ctx, op, "axis").ok_or("requires 'axis'")?;
            let new_axis = attr_bool(ctx, op, "new_axis");
            let expected = concat_shape(&shape, axis, new_axis)?;
            let expected_ty = shape_of(ctx, result).ok_or("result must be a tensor")?;
            if expected_ty.1 != elem {
                return Err(format!(
                    "result has element type '{}', but the elements have '{}'",
                    type_str(ctx, expected_ty.1),
                    type_str(ctx, elem)
                ));
            }
            super::infer::refine(&expected_ty.0, &expected).map_err(|m| format!("result {m}"))?;
        }
        "graph.optional" => {
            let element = opt_element(ctx, result).ok_or_else(|| {
                format!(
                    "result must be an optional, got '{}'",
                    type_str(ctx, result)
                )
            })?;
            if let Some(&v) = operands.first() {
                check(ctx, ctx.value_type(v), element, "the input")?;
            }
        }
        "graph.optional_get_element" => {
            let element = get_element_type(ctx, operands[0])?;
            check(ctx, element, result, "the optional's element type")?;
        }
        "graph.optional_has_element" => {
            get_element_type(ctx, operands[0])?;
            let ok = shape_of(ctx, result).is_some_and(|(s, e)| {
                s.rank() == Some(0) && strata_ir::ods::constraints::is_i1(ctx, e)
            });
            if !ok {
                return Err(format!(
                    "result must be tensor<i1>, got '{}'",
                    type_str(ctx, result)
                ));
            }
        }
        name => return Err(format!("'{name}' is not a sequence op")),
    }
    Ok(())
}
