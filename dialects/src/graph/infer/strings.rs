//! Shape functions of the string ops and of `image_decode` (bytes to
//! pixels).

use strata_ir::{Context, Operation};

use super::{attr_str, operand, Inferred, OperandInfo, ResultElem};
use crate::graph::shape::{Dim, Shape};

pub(in crate::graph) fn infer_regex_full_match(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let pattern = attr_str(ctx, op, "pattern").ok_or("requires a string pattern")?;
    regex::Regex::new(&pattern).map_err(|e| format!("pattern does not compile: {e}"))?;
    Ok(vec![(operand(ops, 0)?.shape.clone(), ResultElem::I1)])
}

pub(in crate::graph) fn infer_string_split(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let pieces = match x.shape.dims() {
        Some(d) => {
            let mut d = d.to_vec();
            d.push(Dim::Unknown);
            Shape::ranked(d)
        }
        None => Shape::unranked(),
    };
    Ok(vec![
        (pieces, ResultElem::Of(x.elem)),
        (x.shape.clone(), ResultElem::I64),
    ])
}

pub(in crate::graph) fn infer_string_normalizer(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let action = attr_str(ctx, op, "case_change_action").unwrap_or_else(|| "NONE".into());
    if !matches!(action.as_str(), "NONE" | "LOWER" | "UPPER") {
        return Err(format!(
            "case_change_action must be \"NONE\", \"LOWER\" or \"UPPER\", not \"{action}\""
        ));
    }
    let x = operand(ops, 0)?;
    let shape = match x.shape.dims() {
        Some([_]) => Shape::ranked(vec![Dim::Unknown]),
        Some([Dim::Known(1) | Dim::Unknown, _]) => Shape::ranked(vec![Dim::Known(1), Dim::Unknown]),
        Some(d) => {
            return Err(format!(
                "takes a [C] or [1, C] tensor, but the input has shape {}",
                Shape::ranked(d.to_vec())
            ))
        }
        None => Shape::unranked(),
    };
    Ok(vec![(shape, ResultElem::Of(x.elem))])
}

/// The element type and element count of an elements attribute
/// (`dense<...>`, strings included).
fn elements(ctx: &Context, op: Operation, name: &str) -> Result<(strata_ir::Type, u64), String> {
    let attr =
        strata_ir::ods::inherent_attr(ctx, op, name).ok_or_else(|| format!("requires '{name}'"))?;
    let dense = matches!(
        ctx.attr_kind(attr),
        strata_ir::attributes::AttrKind::DenseElements { .. }
            | strata_ir::attributes::AttrKind::DenseStrings { .. }
    );
    let shape = strata_ir::ods::constraints::attr_type(ctx, attr)
        .filter(|_| dense)
        .and_then(|ty| crate::graph::shape::shape_of(ctx, ty));
    match shape {
        Some((shape, elem)) => {
            let count = shape
                .dims()
                .and_then(|d| {
                    d.iter().try_fold(1u64, |acc, d| match d {
                        Dim::Known(n) => acc.checked_mul(*n as u64),
                        _ => None,
                    })
                })
                .ok_or_else(|| format!("'{name}' must have a static shape"))?;
            Ok((elem, count))
        }
        None => Err(format!(
            "'{name}' must be an elements attribute (dense<...>)"
        )),
    }
}

pub(in crate::graph) fn infer_label_encoder(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let (key_elem, keys) = elements(ctx, op, "keys")?;
    let (value_elem, values) = elements(ctx, op, "values")?;
    let (default_elem, defaults) = elements(ctx, op, "default_value")?;
    let name = |t| strata_ir::printer::type_to_string(ctx, t);
    if key_elem != x.elem {
        return Err(format!(
            "keys are {} but the input is of {}",
            name(key_elem),
            name(x.elem)
        ));
    }
    if keys != values {
        return Err(format!("has {keys} keys but {values} values"));
    }
    if default_elem != value_elem || defaults != 1 {
        return Err(format!(
            "default_value must be one {}, the values' type",
            name(value_elem)
        ));
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(value_elem))])
}

pub(in crate::graph) fn infer_image_decode(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let ui8 = matches!(
        ctx.type_kind(x.elem),
        strata_ir::TypeKind::Integer {
            width: 8,
            signedness: strata_ir::types::Signedness::Unsigned
        }
    );
    if !ui8 || x.shape.rank().is_some_and(|r| r != 1) {
        return Err(format!(
            "takes the encoded bytes as a 1-D ui8 tensor, got {} of {}",
            x.shape,
            strata_ir::printer::type_to_string(ctx, x.elem)
        ));
    }
    let channels = match attr_str(ctx, op, "pixel_format").as_deref() {
        None | Some("RGB") | Some("BGR") => 3,
        Some("Grayscale") => 1,
        Some(other) => {
            return Err(format!(
                "pixel_format must be \"RGB\", \"BGR\" or \"Grayscale\", not \"{other}\""
            ))
        }
    };
    let shape = Shape::ranked(vec![Dim::Unknown, Dim::Unknown, Dim::Known(channels)]);
    Ok(vec![(shape, ResultElem::Of(x.elem))])
}
