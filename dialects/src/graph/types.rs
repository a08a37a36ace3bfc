//! The `graph` dialect's types beyond tensors: ONNX's sequences and
//! optionals.
//!
//! - `!graph.seq<tensor<...>>`: a sequence of any number of tensors (ONNX's
//!   `seq(tensor(T))`); the element type says what every element could be,
//!   so it is the join of their types (a dimension they disagree on is `?`,
//!   different ranks make it unranked), with one element type.
//! - `!graph.opt<T>`: a value of type `T` (a tensor or a sequence type) or
//!   nothing (ONNX's `optional(T)`).
//! - `!graph.string`: a string, as the element type of a tensor
//!   (`tensor<?x!graph.string>`, ONNX's `STRING` tensors): UTF-8 text of
//!   any length, which only the string ops compute with.
//!
//! Like every dialect type they are stored as their canonical text, with
//! the element type as their one type parameter
//! ([`Context::type_params`]).

use strata_ir::printer::type_to_string;
use strata_ir::{Context, Type, TypeKind};

use super::shape::{shape_of, tensor_type};

/// `!graph.seq<element>` (`element` a tensor type).
pub fn seq_type(ctx: &mut Context, element: Type) -> Type {
    let data = format!("seq<{}>", type_to_string(ctx, element));
    ctx.dialect_type("graph", data, vec![element])
}

/// `!graph.opt<element>` (`element` a tensor or sequence type).
pub fn opt_type(ctx: &mut Context, element: Type) -> Type {
    let data = format!("opt<{}>", type_to_string(ctx, element));
    ctx.dialect_type("graph", data, vec![element])
}

/// `!graph.string`, the element type of string tensors.
pub fn string_type(ctx: &mut Context) -> Type {
    ctx.dialect_type("graph", "string".to_string(), vec![])
}

/// Whether `ty` is `!graph.string`.
pub fn is_string(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_kind(ty),
        TypeKind::Opaque { dialect, data, .. }
            if ctx.ident_str(*dialect) == "graph" && &**data == "string"
    )
}

/// Whether `ty` is a tensor of `!graph.string`.
pub fn is_string_tensor(ctx: &Context, ty: Type) -> bool {
    shape_of(ctx, ty).is_some_and(|(_, e)| is_string(ctx, e))
}

/// The graph type `ty` is, with its element type.
fn graph_type(ctx: &Context, ty: Type) -> Option<(&str, Type)> {
    match ctx.type_kind(ty) {
        TypeKind::Opaque {
            dialect,
            data,
            params,
        } if ctx.ident_str(*dialect) == "graph" => {
            let kind = data.split_once('<')?.0;
            Some((kind, *params.first()?))
        }
        _ => None,
    }
}

/// The element type of a `!graph.seq`.
pub fn seq_element(ctx: &Context, ty: Type) -> Option<Type> {
    graph_type(ctx, ty)
        .filter(|(k, _)| *k == "seq")
        .map(|(_, e)| e)
}

/// The element type of a `!graph.opt`.
pub fn opt_element(ctx: &Context, ty: Type) -> Option<Type> {
    graph_type(ctx, ty)
        .filter(|(k, _)| *k == "opt")
        .map(|(_, e)| e)
}

/// Whether `ty` can be the element type of a `!graph.seq`: a tensor.
pub fn valid_seq_element(ctx: &Context, ty: Type) -> bool {
    is_tensor(ctx, ty)
}

/// Whether `ty` can be the element type of a `!graph.opt`: a tensor or a
/// sequence of tensors.
pub fn valid_opt_element(ctx: &Context, ty: Type) -> bool {
    is_tensor(ctx, ty) || seq_element(ctx, ty).is_some_and(|e| valid_seq_element(ctx, e))
}

/// Whether `ty` is a tensor (ranked or unranked).
pub fn is_tensor(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_kind(ty),
        TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }
    )
}

/// The join of two tensor types of one element type: the most precise
/// type both are instances of (`None` when the element types differ or
/// one is not a tensor).
pub fn join_tensor_types(ctx: &mut Context, a: Type, b: Type) -> Option<Type> {
    if a == b {
        return Some(a);
    }
    let (sa, ea) = shape_of(ctx, a)?;
    let (sb, eb) = shape_of(ctx, b)?;
    if ea != eb {
        return None;
    }
    let joined = super::infer::control::join(&sa, &sb);
    Some(tensor_type(ctx, &joined, ea))
}

/// The join of two types of graph values: tensors as
/// [`join_tensor_types`], sequences (and optionals) of the join of their
/// elements; `None` when they are of different kinds or element types.
pub fn join_types(ctx: &mut Context, a: Type, b: Type) -> Option<Type> {
    if a == b {
        return Some(a);
    }
    match (graph_type(ctx, a), graph_type(ctx, b)) {
        (Some(("seq", ea)), Some(("seq", eb))) => {
            let e = join_tensor_types(ctx, ea, eb)?;
            Some(seq_type(ctx, e))
        }
        (Some(("opt", ea)), Some(("opt", eb))) => {
            let e = join_types(ctx, ea, eb)?;
            Some(opt_type(ctx, e))
        }
        (None, None) => join_tensor_types(ctx, a, b),
        _ => None,
    }
}

/// Whether [`join_types`] of `a` and `b` exists: values of the same kind
/// (tensor, sequence, optional) whose tensors have one element type.
pub fn joinable(ctx: &Context, a: Type, b: Type) -> bool {
    match (graph_type(ctx, a), graph_type(ctx, b)) {
        (Some((ka, ea)), Some((kb, eb))) => ka == kb && joinable(ctx, ea, eb),
        (None, None) => match (shape_of(ctx, a), shape_of(ctx, b)) {
            (Some((_, ea)), Some((_, eb))) => ea == eb,
            _ => a == b,
        },
        _ => false,
    }
}

/// Whether a value of type `actual` can be where `expected` is: the same
/// type, or tensors (or sequences, optionals of them) of one element type
/// whose shapes could agree.
pub fn could_be(ctx: &Context, actual: Type, expected: Type) -> bool {
    if actual == expected {
        return true;
    }
    match (graph_type(ctx, actual), graph_type(ctx, expected)) {
        (Some((ka, ea)), Some((kb, eb))) => ka == kb && could_be(ctx, ea, eb),
        (None, None) => match (shape_of(ctx, actual), shape_of(ctx, expected)) {
            (Some((sa, ea)), Some((sb, eb))) => {
                ea == eb && super::infer::control::compatible(&sa, &sb)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Parses the body of a `!graph.` type: `seq<tensor<?xf32>>`,
/// `opt<tensor<f32>>`, `opt<!graph.seq<tensor<*xi64>>>`, `string`.
pub(crate) fn parse_graph_type(
    ctx: &mut Context,
    body: &str,
) -> Result<Type, Vec<(usize, String)>> {
    if body.trim() == "string" {
        return Ok(string_type(ctx));
    }
    let (kind, rest) = body
        .split_once('<')
        .map(|(k, r)| (k.trim(), r))
        .ok_or_else(|| vec![(0, format!("unknown graph type '{body}'"))])?;
    let inner_at = kind.len() + 1;
    let inner = rest
        .trim_end()
        .strip_suffix('>')
        .ok_or_else(|| vec![(body.len(), "expected '>'".to_string())])?;
    if kind != "seq" && kind != "opt" {
        return Err(vec![(
            0,
            format!("unknown graph type '{kind}' (expected 'seq', 'opt' or 'string')"),
        )]);
    }
    let element = strata_ir::parser::parse_type(ctx, inner.trim())
        .map_err(|e| vec![(inner_at, format!("invalid element type: {}", e.message))])?;
    let ok = match kind {
        "seq" => valid_seq_element(ctx, element),
        _ => valid_opt_element(ctx, element),
    };
    if !ok {
        let expected = if kind == "seq" {
            "a tensor type"
        } else {
            "a tensor or sequence type"
        };
        return Err(vec![(
            inner_at,
            format!(
                "the element type of '{kind}' must be {expected}, got '{}'",
                type_to_string(ctx, element)
            ),
        )]);
    }
    Ok(if kind == "seq" {
        seq_type(ctx, element)
    } else {
        opt_type(ctx, element)
    })
}
