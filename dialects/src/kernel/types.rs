//! `!kernel.ptr<T>`: a pointer to elements of type `T` in global memory.
//!
//! Dialect types are stored in the context as their canonical text
//! (`TypeKind::Opaque`); these helpers build and read them.

use strata_ir::printer::type_to_string;
use strata_ir::{Context, Type, TypeKind};

/// The canonical body of a pointer type: `ptr<f32>`.
fn ptr_body(ctx: &Context, pointee: Type) -> String {
    format!("ptr<{}>", type_to_string(ctx, pointee))
}

/// `!kernel.ptr<pointee>`.
pub fn ptr_type(ctx: &mut Context, pointee: Type) -> Type {
    let data = ptr_body(ctx, pointee);
    ctx.dialect_type("kernel", data, vec![pointee])
}

/// Whether `ty` is a `!kernel.ptr<...>`.
pub fn is_ptr(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_kind(ty), TypeKind::Opaque { dialect, data, .. }
        if ctx.ident_str(*dialect) == "kernel" && data.starts_with("ptr<"))
}

/// Whether `ty` is a pointer or a tile (ranked tensor) of pointers.
pub fn is_ptr_like(ctx: &Context, ty: Type) -> bool {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { element, .. } => is_ptr(ctx, *element),
        _ => is_ptr(ctx, ty),
    }
}

/// Whether `ptr` (a pointer type) points to `element`.
pub fn points_to(ctx: &Context, ptr: Type, element: Type) -> bool {
    matches!(ctx.type_kind(ptr), TypeKind::Opaque { data, .. }
        if is_ptr(ctx, ptr) && **data == *ptr_body(ctx, element))
}

/// The pointee of a pointer type.
pub fn pointee(ctx: &Context, ptr: Type) -> Option<Type> {
    if !is_ptr(ctx, ptr) {
        return None;
    }
    ctx.type_params(ptr).first().copied()
}

/// The element type of a tile (the type itself for a scalar).
pub fn element_of(ctx: &Context, ty: Type) -> Type {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { element, .. } => *element,
        _ => ty,
    }
}

/// The shape of a tile (empty for a scalar).
pub fn tile_shape(ctx: &Context, ty: Type) -> Vec<i64> {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { shape, .. } => shape.clone(),
        _ => Vec::new(),
    }
}

/// `ty` with the shape of `like`: the scalar `element` when `like` is a
/// scalar, else a tile of `element` shaped as `like` (in its layout, the
/// encoding).
pub fn shaped_like(ctx: &mut Context, like: Type, element: Type) -> Type {
    match ctx.type_kind(like).clone() {
        TypeKind::RankedTensor {
            shape, encoding, ..
        } => ctx.intern_type(TypeKind::RankedTensor {
            shape,
            element,
            encoding,
        }),
        _ => element,
    }
}

/// Tile type `ty` with layout `encoding` (none: without one); scalars
/// stay.
pub fn with_encoding(ctx: &mut Context, ty: Type, encoding: Option<strata_ir::Attribute>) -> Type {
    match ctx.type_kind(ty).clone() {
        TypeKind::RankedTensor { shape, element, .. } => ctx.intern_type(TypeKind::RankedTensor {
            shape,
            element,
            encoding,
        }),
        _ => ty,
    }
}

/// The layout (encoding) of tile type `ty`.
pub fn encoding_of(ctx: &Context, ty: Type) -> Option<strata_ir::Attribute> {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { encoding, .. } => *encoding,
        _ => None,
    }
}

/// The type parser of the dialect: `!kernel.ptr<T>`.
pub(crate) fn parse_kernel_type(
    ctx: &mut Context,
    body: &str,
) -> Result<Type, Vec<(usize, String)>> {
    let Some(inner) = body
        .strip_prefix("ptr")
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('<'))
        .and_then(|r| r.strip_suffix('>'))
    else {
        return Err(vec![(0, format!("unknown kernel type '{body}'"))]);
    };
    let pointee = strata_ir::parser::parse_type(ctx, inner.trim())
        .map_err(|e| vec![(4, format!("invalid pointee type: {}", e.message))])?;
    if !matches!(
        ctx.type_kind(pointee),
        TypeKind::Integer { .. } | TypeKind::Float(_) | TypeKind::Index
    ) {
        return Err(vec![(
            4,
            format!(
                "pointee must be an integer or float type, got '{}'",
                type_to_string(ctx, pointee)
            ),
        )]);
    }
    Ok(ptr_type(ctx, pointee))
}

/// The bytes one element of type `element` takes in a buffer, as LLVM
/// lays out an array of it and as the runtime reads it: the bits rounded up
/// to whole bytes, then to a power of two (`i1` to `i8` and the 4- and
/// 8-bit floats take 1, `i12` and `f16` 2, `i24` 4); `None` for types no
/// buffer holds (integers wider than 128 bits, non-scalars). The arena
/// planner, the plan reader, the runtime's copies and the code generators
/// all size buffers with it.
pub fn element_bytes(ctx: &Context, element: strata_ir::Type) -> Option<u64> {
    let bits = match ctx.type_kind(element) {
        TypeKind::Integer { width, .. } if *width <= 128 => u64::from(*width),
        TypeKind::Index => 64,
        TypeKind::Float(k) => u64::from(k.bit_width()),
        _ => return None,
    };
    Some(bits.div_ceil(8).max(1).next_power_of_two())
}

/// The byte size of a static memref type, `u64::MAX` when it does not fit
/// (or its element type has no size): a buffer that large is refused
/// wherever one is placed.
pub fn memref_bytes(ctx: &Context, ty: strata_ir::Type) -> u64 {
    checked_memref_bytes(ctx, ty).unwrap_or(u64::MAX)
}

/// [`memref_bytes`], `None` when it does not fit in `u64`, the element
/// has no size, or `ty` is not a memref.
pub fn checked_memref_bytes(ctx: &Context, ty: strata_ir::Type) -> Option<u64> {
    match ctx.type_kind(ty) {
        TypeKind::MemRef { shape, element, .. } => strata_ir::types::checked_num_elements(shape)?
            .checked_mul(element_bytes(ctx, *element)?),
        _ => None,
    }
}
