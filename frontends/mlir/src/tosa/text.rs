//! Reading upstream's printed attributes and types.

use strata_ir::{Context, Type};

pub(super) fn is_float(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_kind(ty), strata_ir::TypeKind::Float(_))
}

pub(super) fn is_bool(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_kind(ty),
        strata_ir::TypeKind::Integer { width: 1, .. }
    )
}

/// A ranked tensor type's dims, when all are static.
pub(super) fn static_shape(ctx: &Context, ty: Type) -> Option<Vec<i64>> {
    match ctx.type_kind(ty) {
        strata_ir::TypeKind::RankedTensor { shape, .. } if shape.iter().all(|&d| d >= 0) => {
            Some(shape.to_vec())
        }
        _ => None,
    }
}

pub(super) fn is_static(ctx: &Context, ty: Type) -> bool {
    static_shape(ctx, ty).is_some()
}

/// The numbers of an attribute's text, for the small lists that TOSA's
/// attributes and shape constants hold: `array<i32: 1, 0>`,
/// `dense<[3, 2]> : tensor<2xindex>`, `dense<0.0> : tensor<1xf32>` (a
/// splat is one number), `6.0 : f32`, `2 : i32`. `None` for anything else
/// (a hex blob, a string).
pub fn numbers(text: &str) -> Option<Vec<f64>> {
    let mut splat_count = None;
    let body = if let Some(rest) = text.strip_prefix("array<") {
        let inner = rest.strip_suffix('>')?;
        match inner.split_once(':') {
            Some((_, list)) => list.to_string(),
            None => String::new(),
        }
    } else if let Some(rest) = text.strip_prefix("dense<") {
        let end = rest.rfind("> :").or_else(|| rest.rfind('>'))?;
        // A splat (`dense<0> : tensor<4xindex>`) holds its type's count.
        if !rest[..end].contains('[') {
            splat_count = element_count(&rest[end..]);
        }
        rest[..end].to_string()
    } else {
        text.split(" : ").next()?.to_string()
    };
    if body.starts_with('"') {
        return None;
    }
    let mut out = Vec::new();
    for token in body.split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace()) {
        if token.is_empty() {
            continue;
        }
        let v = match token {
            "true" => 1.0,
            "false" => 0.0,
            t => t.parse::<f64>().ok()?,
        };
        out.push(v);
    }
    if let (Some(n), [one]) = (splat_count, out.as_slice()) {
        out = vec![*one; n];
    }
    Some(out)
}

/// The element count of the tensor type in `text` (`> : tensor<2x4xf32>`).
fn element_count(text: &str) -> Option<usize> {
    let dims = text.split("tensor<").nth(1)?;
    let mut count = 1usize;
    for part in dims.split('x') {
        match part.parse::<usize>() {
            Ok(d) => count = count.checked_mul(d)?,
            Err(_) => break,
        }
    }
    Some(count)
}

pub(super) fn abbreviate(text: &str) -> String {
    if text.len() > 80 {
        format!(
            "{}...",
            &text[..text.char_indices().nth(77).map_or(text.len(), |(i, _)| i)]
        )
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_attributes() {
        assert_eq!(numbers("array<i32: 1, 0>"), Some(vec![1.0, 0.0]));
        assert_eq!(numbers("array<i64>"), Some(vec![]));
        assert_eq!(
            numbers("dense<[3, 2]> : tensor<2xindex>"),
            Some(vec![3.0, 2.0])
        );
        assert_eq!(
            numbers("dense<0.000000e+00> : tensor<1xf32>"),
            Some(vec![0.0])
        );
        assert_eq!(numbers("dense<0> : tensor<4xindex>"), Some(vec![0.0; 4]));
        assert_eq!(numbers("dense<2> : tensor<f32>"), Some(vec![2.0]));
        assert_eq!(numbers("6.000000e+00 : f32"), Some(vec![6.0]));
        assert_eq!(numbers("2 : i32"), Some(vec![2.0]));
        assert_eq!(numbers("dense<\"0x0000803F\"> : tensor<1xf32>"), None);
    }
}
