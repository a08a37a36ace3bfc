//! Constant-folding helpers shared by the dialects' folders.

use strata_ir::attributes::{sign_extend, AttrKind};
use strata_ir::float;
use strata_ir::{Attribute, Context, Type, TypeKind};

/// A scalar integer constant: its bits (truncated to `width`) and width.
#[derive(Clone, Copy, Debug)]
pub struct IntConst {
    /// The value's bits, zero-extended.
    pub value: u128,
    /// The bit width (64 for `index`).
    pub width: u32,
}

impl IntConst {
    /// The value read as signed.
    pub fn signed(&self) -> i128 {
        sign_extend(self.value, self.width)
    }

    /// The smallest signed value of the width.
    pub fn min_signed(&self) -> i128 {
        if self.width >= 128 {
            i128::MIN
        } else {
            -(1i128 << (self.width - 1))
        }
    }

    /// Whether every bit is set.
    pub fn is_all_ones(&self) -> bool {
        self.value == mask(self.width)
    }
}

/// A scalar float constant.
#[derive(Clone, Copy, Debug)]
pub struct FloatConst {
    /// The value as an `f64` (exact for every kind up to f64).
    pub value: f64,
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The integer constant an attribute holds.
pub fn const_int(ctx: &Context, attr: Attribute) -> Option<IntConst> {
    match ctx.attr_kind(attr) {
        AttrKind::Integer { ty, value } => Some(IntConst {
            value: *value,
            width: ctx.int_or_float_bit_width(*ty)?,
        }),
        _ => None,
    }
}

/// The float constant an attribute holds (kinds wider than f64 excluded).
pub fn const_float(ctx: &Context, attr: Attribute) -> Option<FloatConst> {
    match ctx.attr_kind(attr) {
        AttrKind::Float { ty, bits } => {
            let kind = ctx.float_kind(*ty)?;
            (kind.bit_width() <= 64).then(|| FloatConst {
                value: float::to_f64(kind, *bits),
            })
        }
        _ => None,
    }
}

/// A folded scalar before it is given a type.
#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    /// Integer bits (truncated to the result width).
    Int(u128),
    /// A float value (rounded to the result type).
    Float(f64),
    /// Raw bits reinterpreted as the result type.
    Bits(u128),
}

/// An integer attribute of the scalar type `ty` (no shaped types).
pub fn int_attr_like(ctx: &mut Context, ty: Type, value: u128) -> Option<Attribute> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { .. } | TypeKind::Index => Some(ctx.integer_attr(ty, value as i128)),
        _ => None,
    }
}

/// A float attribute of the scalar float type `ty`.
pub fn float_attr_like(ctx: &mut Context, ty: Type, value: f64) -> Option<Attribute> {
    let kind = ctx.float_kind(ty)?;
    if kind.bit_width() > 64 {
        return None;
    }
    Some(ctx.float_attr(ty, value))
}

/// An attribute of the scalar type `ty` holding `scalar`.
pub fn scalar_attr_like(ctx: &mut Context, ty: Type, scalar: Scalar) -> Option<Attribute> {
    match (scalar, ctx.type_kind(ty).clone()) {
        (Scalar::Int(v), TypeKind::Integer { .. } | TypeKind::Index) => int_attr_like(ctx, ty, v),
        (Scalar::Float(v), TypeKind::Float(_)) => float_attr_like(ctx, ty, v),
        (Scalar::Bits(bits), TypeKind::Integer { .. }) => int_attr_like(ctx, ty, bits),
        (Scalar::Bits(bits), TypeKind::Float(kind)) => {
            let bits = bits & mask(kind.bit_width());
            Some(ctx.intern_attr(AttrKind::Float { ty, bits }))
        }
        _ => None,
    }
}

/// IEEE 754-2019 `maximum`: NaN-propagating, `+0 > -0`.
pub fn maximum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == b && a == 0.0 {
        return if a.is_sign_negative() { b } else { a };
    }
    a.max(b)
}

/// IEEE 754-2019 `minimum`: NaN-propagating, `-0 < +0`.
pub fn minimum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == b && a == 0.0 {
        return if a.is_sign_negative() { a } else { b };
    }
    a.min(b)
}
