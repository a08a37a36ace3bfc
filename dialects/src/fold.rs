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
        if self.width == 0 {
            0
        } else if self.width >= 128 {
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

/// The constant elements an attribute holds: one for a scalar integer or
/// float attribute, all of them (or one, for a splat) for dense elements.
#[derive(Clone, Debug)]
pub struct Consts {
    /// The element type.
    pub elem: Type,
    /// Each element's bits (one value when `splat`).
    pub values: Vec<u128>,
    /// Whether one value stands for every element.
    pub splat: bool,
}

impl Consts {
    /// Element `i` (the splat value for any `i`).
    pub fn get(&self, i: usize) -> u128 {
        if self.splat {
            self.values[0]
        } else {
            self.values.get(i).copied().unwrap_or(0)
        }
    }

    /// Whether every element satisfies `pred`.
    pub fn all(&self, pred: impl Fn(u128) -> bool) -> bool {
        self.values.iter().all(|&v| pred(v))
    }
}

/// The elements of an integer, float or dense (non-complex) attribute.
pub fn consts(ctx: &Context, attr: Attribute) -> Option<Consts> {
    // Wider integers (stored as `WideInteger`) are not folded.
    let narrow = |ty: Type| ctx.int_or_float_bit_width(ty).is_some_and(|w| w <= 128);
    match ctx.attr_kind(attr) {
        AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } if !narrow(*ty) => None,
        AttrKind::Integer { ty, value } => Some(Consts {
            elem: *ty,
            values: vec![*value],
            splat: true,
        }),
        AttrKind::Float { ty, bits } => Some(Consts {
            elem: *ty,
            values: vec![*bits],
            splat: true,
        }),
        AttrKind::DenseElements { ty, data } => {
            let elem = ctx.type_kind(*ty).element_type()?;
            let width = ctx.int_or_float_bit_width(elem)?;
            if width > 128 {
                return None;
            }
            let bytes = (width as usize).div_ceil(8).max(1);
            let values: Vec<u128> = data
                .raw
                .chunks_exact(bytes)
                .map(|chunk| {
                    let mut buf = [0u8; 16];
                    buf[..bytes].copy_from_slice(chunk);
                    u128::from_le_bytes(buf) & mask(width)
                })
                .collect();
            if values.is_empty() {
                return None;
            }
            Some(Consts {
                elem,
                values,
                splat: data.splat,
            })
        }
        _ => None,
    }
}

/// An integer view of element bits.
pub fn int_const(ctx: &Context, elem: Type, bits: u128) -> Option<IntConst> {
    let width = ctx.int_or_float_bit_width(elem).filter(|&w| w <= 128)?;
    ctx.is_int_or_index(elem).then_some(IntConst {
        value: bits & mask(width),
        width,
    })
}

/// A float view of element bits (kinds wider than f64 excluded).
pub fn float_const(ctx: &Context, elem: Type, bits: u128) -> Option<FloatConst> {
    let kind = ctx.float_kind(elem)?;
    (kind.bit_width() <= 64).then(|| FloatConst {
        value: float::to_f64(kind, bits),
    })
}

/// The integer constant an attribute holds (a scalar or a splat).
pub fn const_int(ctx: &Context, attr: Attribute) -> Option<IntConst> {
    let c = consts(ctx, attr)?;
    if !c.splat {
        return None;
    }
    int_const(ctx, c.elem, c.values[0])
}

/// The float constant an attribute holds (a scalar or a splat).
pub fn const_float(ctx: &Context, attr: Attribute) -> Option<FloatConst> {
    let c = consts(ctx, attr)?;
    if !c.splat {
        return None;
    }
    float_const(ctx, c.elem, c.values[0])
}

/// An attribute of type `ty` (a scalar, or a statically shaped vector or
/// tensor) holding `values` (one per element, or one for all).
pub fn make_attr(ctx: &mut Context, ty: Type, values: &[u128]) -> Option<Attribute> {
    let kind = ctx.type_kind(ty).clone();
    let (elem, count) = match &kind {
        TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_) => {
            let &[value] = values else { return None };
            let width = ctx.int_or_float_bit_width(ty).filter(|&w| w <= 128)?;
            let bits = value & mask(width);
            return Some(match kind {
                TypeKind::Float(_) => ctx.intern_attr(AttrKind::Float { ty, bits }),
                _ => ctx.intern_attr(AttrKind::Integer { ty, value: bits }),
            });
        }
        TypeKind::Vector { shape, element, .. } | TypeKind::RankedTensor { shape, element, .. } => {
            if shape.iter().any(|&d| d < 0) {
                return None;
            }
            (*element, strata_ir::types::num_elements(shape))
        }
        _ => return None,
    };
    let width = ctx.int_or_float_bit_width(elem)?;
    if width > 128 || values.is_empty() || (values.len() != 1 && values.len() as u64 != count) {
        return None;
    }
    let bytes = (width as usize).div_ceil(8).max(1);
    // Truncate first: equal elements make a splat (as MLIR detects).
    let values: Vec<u128> = values.iter().map(|&v| v & mask(width)).collect();
    let splat = values.windows(2).all(|w| w[0] == w[1]);
    let stored = if splat { &values[..1] } else { &values[..] };
    let mut raw = Vec::with_capacity(stored.len() * bytes);
    for &v in stored {
        raw.extend_from_slice(&v.to_le_bytes()[..bytes]);
    }
    Some(ctx.intern_attr(AttrKind::DenseElements {
        ty,
        data: strata_ir::attributes::DenseData {
            raw: raw.into(),
            splat,
        },
    }))
}

/// Applies `f` element by element to two constants of the same shape and
/// builds the result of type `ty`.
pub fn map2(
    ctx: &mut Context,
    ty: Type,
    a: &Consts,
    b: &Consts,
    f: impl Fn(u128, u128) -> Option<u128>,
) -> Option<Attribute> {
    let n = if a.splat && b.splat {
        1
    } else {
        a.values.len().max(b.values.len())
    };
    let values: Option<Vec<u128>> = (0..n).map(|i| f(a.get(i), b.get(i))).collect();
    make_attr(ctx, ty, &values?)
}

/// Applies `f` element by element to a constant and builds the result of
/// type `ty`.
pub fn map1(
    ctx: &mut Context,
    ty: Type,
    a: &Consts,
    f: impl Fn(u128) -> Option<u128>,
) -> Option<Attribute> {
    let values: Option<Vec<u128>> = a.values.iter().map(|&v| f(v)).collect();
    make_attr(ctx, ty, &values?)
}

/// LLVM's `maxnum` (IEEE 754-2008 `maxNum`): a NaN operand yields the
/// other operand; `+0 > -0`.
pub fn maxnum(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b && a == 0.0 {
        return if a.is_sign_negative() { b } else { a };
    }
    a.max(b)
}

/// LLVM's `minnum`: a NaN operand yields the other operand; `-0 < +0`.
pub fn minnum(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b && a == 0.0 {
        return if a.is_sign_negative() { a } else { b };
    }
    a.min(b)
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
