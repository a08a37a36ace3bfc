//! `!nvptx.ptr<T, space>`: a pointer to elements of `T` in an address space
//! of the GPU, `global` (LLVM address space 1) or `shared` (3).
//!
//! Stored in the context as its canonical text (`TypeKind::Opaque`), as
//! `!kernel.ptr<T>` is.

use strata_ir::printer::type_to_string;
use strata_ir::{Context, Type, TypeKind};

/// A GPU address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressSpace {
    /// Device memory, visible to every thread (LLVM address space 1).
    Global,
    /// On-chip memory of one thread block (LLVM address space 3).
    Shared,
}

impl AddressSpace {
    /// Its keyword in the type: `global`, `shared`.
    pub fn keyword(self) -> &'static str {
        match self {
            AddressSpace::Global => "global",
            AddressSpace::Shared => "shared",
        }
    }

    /// Its LLVM NVPTX address space number.
    pub fn llvm(self) -> u32 {
        match self {
            AddressSpace::Global => 1,
            AddressSpace::Shared => 3,
        }
    }

    fn parse(word: &str) -> Option<AddressSpace> {
        match word {
            "global" => Some(AddressSpace::Global),
            "shared" => Some(AddressSpace::Shared),
            _ => None,
        }
    }
}

/// `!nvptx.ptr<pointee, space>`.
pub fn ptr_type(ctx: &mut Context, pointee: Type, space: AddressSpace) -> Type {
    let data = format!("ptr<{}, {}>", type_to_string(ctx, pointee), space.keyword());
    ctx.dialect_type("nvptx", data, vec![pointee])
}

/// The pointee and address space of an `!nvptx.ptr`.
pub fn ptr_parts(ctx: &Context, ty: Type) -> Option<(Type, AddressSpace)> {
    if !is_ptr(ctx, ty) {
        return None;
    }
    let TypeKind::Opaque { data, params, .. } = ctx.type_kind(ty) else {
        return None;
    };
    let (_, space) = data.strip_suffix('>')?.rsplit_once(',')?;
    let space = AddressSpace::parse(space.trim())?;
    Some((*params.first()?, space))
}

/// Whether `ty` is an `!nvptx.ptr`.
pub fn is_ptr(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_kind(ty), TypeKind::Opaque { dialect, data, .. }
        if ctx.ident_str(*dialect) == "nvptx" && data.starts_with("ptr<"))
}

/// Parses the body of an `!nvptx.` type: `ptr<f32, shared>`.
pub(crate) fn parse_nvptx_type(
    ctx: &mut Context,
    body: &str,
) -> Result<Type, Vec<(usize, String)>> {
    let Some(inner) = body
        .strip_prefix("ptr")
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('<'))
        .and_then(|r| r.strip_suffix('>'))
    else {
        return Err(vec![(0, format!("unknown nvptx type '{body}'"))]);
    };
    let Some((pointee, space)) = inner.rsplit_once(',') else {
        return Err(vec![(4, "expected 'ptr<type, global|shared>'".to_string())]);
    };
    let Some(space) = AddressSpace::parse(space.trim()) else {
        return Err(vec![(
            4,
            format!(
                "unknown address space '{}' (expected global or shared)",
                space.trim()
            ),
        )]);
    };
    let pointee = strata_ir::parser::parse_type(ctx, pointee.trim())
        .map_err(|e| vec![(4, format!("invalid pointee type: {}", e.message))])?;
    if !matches!(
        ctx.type_kind(pointee),
        TypeKind::Integer { .. } | TypeKind::Float(_)
    ) {
        return Err(vec![(
            4,
            format!(
                "pointee must be an integer or float type, got '{}'",
                type_to_string(ctx, pointee)
            ),
        )]);
    }
    Ok(ptr_type(ctx, pointee, space))
}
