//! Common type and attribute constraints (MLIR's `CommonTypeConstraints.td`
//! and `CommonAttrConstraints.td`), and enum attributes.
//!
//! A constraint is a zero-sized type implementing [`TypeConstraintDef`] or
//! [`AttrConstraintDef`], so that an op declaration names it as a type:
//! `Operand<SignlessIntegerOrIndexLike>`. Define new ones with
//! [`type_constraint!`], [`attr_constraint!`](crate::attr_constraint) and
//! [`enum_attr!`](crate::enum_attr).

use super::{AttrConstraint, AttrConstraintDef, AttrSyntax, TypeConstraint, TypeConstraintDef};
use crate::attributes::AttrKind;
use crate::context::{Attribute, Context, Type};
use crate::float::FloatKind;
use crate::types::{Signedness, TypeKind};

/// Defines a type constraint: `type_constraint!(Name, "summary", |ctx, ty| predicate);`.
#[macro_export]
macro_rules! type_constraint {
    ($(#[$meta:meta])* $name:ident, $summary:expr, |$ctx:ident, $ty:ident| $body:expr) => {
        $(#[$meta])*
        pub struct $name;
        impl $crate::ods::TypeConstraintDef for $name {
            const CONSTRAINT: $crate::ods::TypeConstraint = $crate::ods::TypeConstraint {
                summary: $summary,
                check: {
                    fn check($ctx: &$crate::Context, $ty: $crate::Type) -> bool {
                        $body
                    }
                    check
                },
                build: None,
            };
        }
    };
}

/// Defines an attribute constraint:
/// `attr_constraint!(Name, "summary", AttrSyntax::Generic, |ctx, attr| predicate);`;
/// the [`AttrSyntax`] says how an assembly format reads and writes it. A
/// trailing `value: Type = |ctx, attr| conversion` gives the Rust value its
/// attributes hold (an `Option<Type>`), which the ops' typed accessors
/// return ([`AttrValue`](crate::ods::AttrValue)); `Type` must implement
/// `Default`, the value a defaulted attribute reads as where neither it nor
/// its default can be read (an op kind not registered with the context).
#[macro_export]
macro_rules! attr_constraint {
    ($(#[$meta:meta])* $name:ident, $summary:expr, $syntax:expr, |$ctx:ident, $attr:ident| $body:expr,
     value: $value:ty = |$vctx:ident, $vattr:ident| $conv:expr) => {
        $crate::attr_constraint!(@def $(#[$meta])* $name, $summary, $syntax, |$ctx, $attr| $body);
        impl $crate::ods::AttrValue for $name {
            type Value = $value;
            fn value($vctx: &$crate::Context, $vattr: $crate::Attribute) -> Option<$value> {
                $conv
            }
        }
        impl $crate::ods::AttrAccess<$crate::ods::presence::Required> for $name {
            type Output = Option<$value>;
            fn get(
                ctx: &$crate::Context,
                op: $crate::Operation,
                name: &str,
                default: Option<&'static str>,
            ) -> Option<$value> {
                $crate::ods::attr_value::<$name>(ctx, op, name, default)
            }
        }
        impl $crate::ods::AttrAccess<$crate::ods::presence::Optional> for $name {
            type Output = Option<$value>;
            fn get(
                ctx: &$crate::Context,
                op: $crate::Operation,
                name: &str,
                default: Option<&'static str>,
            ) -> Option<$value> {
                $crate::ods::attr_value::<$name>(ctx, op, name, default)
            }
        }
        impl $crate::ods::AttrAccess<$crate::ods::presence::Default> for $name {
            type Output = $value;
            fn get(
                ctx: &$crate::Context,
                op: $crate::Operation,
                name: &str,
                default: Option<&'static str>,
            ) -> $value {
                $crate::ods::attr_value::<$name>(ctx, op, name, default).unwrap_or_default()
            }
        }
    };
    ($(#[$meta:meta])* $name:ident, $summary:expr, $syntax:expr, |$ctx:ident, $attr:ident| $body:expr) => {
        $crate::attr_constraint!(@def $(#[$meta])* $name, $summary, $syntax, |$ctx, $attr| $body);
        $crate::attr_constraint!(@untyped $name);
    };
    (@def $(#[$meta:meta])* $name:ident, $summary:expr, $syntax:expr, |$ctx:ident, $attr:ident| $body:expr) => {
        $(#[$meta])*
        pub struct $name;
        impl $crate::ods::AttrConstraintDef for $name {
            const CONSTRAINT: $crate::ods::AttrConstraint = $crate::ods::AttrConstraint {
                summary: $summary,
                check: {
                    fn check($ctx: &$crate::Context, $attr: $crate::Attribute) -> bool {
                        $body
                    }
                    check
                },
                syntax: $syntax,
                unit: false,
            };
        }
    };
    (@untyped $name:ident) => {
        impl<P> $crate::ods::AttrAccess<P> for $name {
            type Output = Option<$crate::Attribute>;
            fn get(
                ctx: &$crate::Context,
                op: $crate::Operation,
                name: &str,
                default: Option<&'static str>,
            ) -> Option<$crate::Attribute> {
                $crate::ods::attr_or_default(ctx, op, name, default)
            }
        }
    };
}

pub use crate::{attr_constraint, type_constraint};

// ----- type predicates -----

/// `iN` without signedness, or `index`.
pub fn is_signless_int_or_index(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_kind(ty),
        TypeKind::Integer {
            signedness: Signedness::Signless,
            ..
        } | TypeKind::Index
    )
}

/// `iN` without signedness.
pub fn is_signless_int(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_kind(ty),
        TypeKind::Integer {
            signedness: Signedness::Signless,
            ..
        }
    )
}

/// Any float type.
pub fn is_float(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_kind(ty), TypeKind::Float(_))
}

/// `i1`.
pub fn is_i1(ctx: &Context, ty: Type) -> bool {
    matches!(
        ctx.type_kind(ty),
        TypeKind::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// `ty` itself, or the element type of a vector or tensor, satisfies `pred`
/// (MLIR's `*Like` constraints: scalar, `VectorOfAnyRankOf`, `TensorOf`).
pub fn is_like(ctx: &Context, ty: Type, pred: fn(&Context, Type) -> bool) -> bool {
    match ctx.type_kind(ty) {
        TypeKind::Vector { element, .. }
        | TypeKind::RankedTensor { element, .. }
        | TypeKind::UnrankedTensor { element } => pred(ctx, *element),
        _ => pred(ctx, ty),
    }
}

/// The element type of a vector or tensor, or the type itself.
pub fn element_type_or_self(ctx: &Context, ty: Type) -> Type {
    ctx.type_kind(ty).element_type().unwrap_or(ty)
}

/// The element type of a ranked or unranked tensor (`None` for any other
/// type).
pub fn tensor_element_type(ctx: &Context, ty: Type) -> Option<Type> {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { element, .. } | TypeKind::UnrankedTensor { element } => {
            Some(*element)
        }
        _ => None,
    }
}

/// A ranked or unranked tensor whose element type satisfies `pred`
/// (MLIR's `TensorOf<[...]>`).
pub fn is_tensor_of(ctx: &Context, ty: Type, pred: fn(&Context, Type) -> bool) -> bool {
    tensor_element_type(ctx, ty).is_some_and(|element| pred(ctx, element))
}

/// A float type of one of `kinds` (MLIR's `F16`, `BF16`, `F32`, ... in an
/// `AnyTypeOf`).
pub fn is_float_of(ctx: &Context, ty: Type, kinds: &[FloatKind]) -> bool {
    ctx.float_kind(ty).is_some_and(|kind| kinds.contains(&kind))
}

/// `f16`, `bf16`, `f32` or `f64`: the float types with host arithmetic
/// (the reference interpreter's float data types). A constraint on what a
/// backend computes with names these rather than every float type
/// (`is_float` also accepts `f80`, `f128`, `tf32` and the 8-, 6- and 4-bit
/// formats).
pub fn is_f16_bf16_f32_f64(ctx: &Context, ty: Type) -> bool {
    is_float_of(
        ctx,
        ty,
        &[
            FloatKind::F16,
            FloatKind::BF16,
            FloatKind::F32,
            FloatKind::F64,
        ],
    )
}

type_constraint!(
    /// Any type.
    AnyType, "any type", |_ctx, _ty| true
);
/// `index` (buildable, as in ODS: a format may leave it out).
pub struct Index;
impl TypeConstraintDef for Index {
    const CONSTRAINT: TypeConstraint = TypeConstraint {
        summary: "index",
        check: |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::Index),
        build: Some(|ctx| ctx.index_type()),
    };
}
/// `i1`.
pub struct I1;
impl TypeConstraintDef for I1 {
    const CONSTRAINT: TypeConstraint = TypeConstraint {
        summary: "1-bit signless integer",
        check: is_i1,
        build: Some(|ctx| ctx.integer_type(1)),
    };
}
type_constraint!(
    /// A signless integer or index, or a vector or tensor of them.
    SignlessIntegerOrIndexLike, "signless-integer-like", |ctx, ty| is_like(ctx, ty, is_signless_int_or_index)
);
type_constraint!(
    /// A signless integer, or a vector or tensor of them (no index).
    SignlessFixedWidthIntegerLike, "signless-fixed-width-integer-like", |ctx, ty| is_like(ctx, ty, is_signless_int)
);
type_constraint!(
    /// A float, or a vector or tensor of floats.
    FloatLike, "floating-point-like", |ctx, ty| is_like(ctx, ty, is_float)
);
type_constraint!(
    /// A tensor of `f16`, `bf16`, `f32` or `f64` (MLIR's
    /// `TensorOf<[F16, BF16, F32, F64]>`, with its summary).
    TensorOfF16BF16F32F64, "tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values", |ctx, ty| is_tensor_of(ctx, ty, is_f16_bf16_f32_f64)
);
type_constraint!(
    /// `i1`, or a vector or tensor of `i1`.
    BoolLike, "bool-like", |ctx, ty| is_like(ctx, ty, is_i1)
);
type_constraint!(
    /// A signless integer, index or float, or a vector or tensor of them.
    SignlessIntegerOrFloatLike, "signless-integer-or-float-like", |ctx, ty| is_like(ctx, ty, |c, t| is_signless_int_or_index(c, t) || is_float(c, t))
);
type_constraint!(
    /// A signless integer or index or float, or a vector or tensor of them
    /// (the operands of `arith.bitcast`).
    SignlessIntegerOrFloatLikeNoIndex, "signless-integer-or-float-like", |ctx, ty| is_like(ctx, ty, |c, t| is_signless_int(c, t) || is_float(c, t))
);

// ----- attribute constraints -----

fn i64_type(ctx: &mut Context) -> Type {
    ctx.integer_type(64)
}

fn i32_type(ctx: &mut Context) -> Type {
    ctx.integer_type(32)
}

/// Whether `attr` is an integer attribute of the signless type of `width` bits.
pub fn is_signless_int_attr(ctx: &Context, attr: Attribute, width: u32) -> bool {
    match ctx.attr_kind(attr) {
        AttrKind::Integer { ty, .. } => matches!(
            ctx.type_kind(*ty),
            TypeKind::Integer { width: w, signedness: Signedness::Signless } if *w == width
        ),
        _ => false,
    }
}

attr_constraint!(
    /// Any attribute.
    AnyAttr, "any attribute", AttrSyntax::Generic, |_ctx, _attr| true
);
attr_constraint!(
    /// An attribute with a type (integer, float, string, elements...).
    TypedAttr, "TypedAttr instance", AttrSyntax::Generic, |ctx, attr| attr_type(ctx, attr).is_some() || matches!(ctx.attr_kind(attr), AttrKind::String { .. })
);
attr_constraint!(
    /// A 64-bit signless integer attribute.
    I64Attr, "64-bit signless integer attribute", AttrSyntax::Typed(i64_type), |ctx, attr| is_signless_int_attr(ctx, attr, 64),
    value: i64 = |ctx, attr| match ctx.attr_kind(attr) {
        // Stored truncated to the type's width: read back as two's complement.
        AttrKind::Integer { value, .. } => Some(*value as i64),
        _ => None,
    }
);
attr_constraint!(
    /// A 32-bit signless integer attribute.
    I32Attr, "32-bit signless integer attribute", AttrSyntax::Typed(i32_type), |ctx, attr| is_signless_int_attr(ctx, attr, 32),
    value: i32 = |ctx, attr| match ctx.attr_kind(attr) {
        AttrKind::Integer { value, .. } => Some(*value as i32),
        _ => None,
    }
);
attr_constraint!(
    /// A string attribute.
    StrAttr, "string attribute", AttrSyntax::Kind(is_string_attr), |ctx, attr| is_string_attr(ctx, attr),
    value: String = |ctx, attr| match ctx.attr_kind(attr) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
);
attr_constraint!(
    /// A symbol reference without nested references.
    FlatSymbolRefAttr, "flat symbol reference attribute", AttrSyntax::Kind(is_flat_symbol_ref), |ctx, attr| is_flat_symbol_ref(ctx, attr)
);

/// Whether `attr` is a string (MLIR's `StringAttr` storage).
pub fn is_string_attr(ctx: &Context, attr: Attribute) -> bool {
    matches!(ctx.attr_kind(attr), AttrKind::String { .. })
}

/// Whether `attr` is a symbol reference without nested references (MLIR's
/// `FlatSymbolRefAttr` storage).
pub fn is_flat_symbol_ref(ctx: &Context, attr: Attribute) -> bool {
    matches!(ctx.attr_kind(attr), AttrKind::SymbolRef { nested, .. } if nested.is_empty())
}
attr_constraint!(
    /// A type attribute holding a function type.
    FunctionTypeAttr, "type attribute of function type", AttrSyntax::Generic, |ctx, attr| matches!(ctx.attr_kind(attr), AttrKind::Type(t) if matches!(ctx.type_kind(*t), TypeKind::Function { .. }))
);
attr_constraint!(
    /// An array of dictionary attributes.
    DictArrayAttr, "Array of dictionary attributes", AttrSyntax::Generic, |ctx, attr| matches!(ctx.attr_kind(attr), AttrKind::Array(items) if items.iter().all(|&a| matches!(ctx.attr_kind(a), AttrKind::Dictionary(_))))
);

/// A unit attribute (a flag).
pub struct UnitAttr;
impl AttrConstraintDef for UnitAttr {
    const CONSTRAINT: AttrConstraint = AttrConstraint {
        summary: "unit attribute",
        check: |ctx, attr| matches!(ctx.attr_kind(attr), AttrKind::Unit),
        syntax: AttrSyntax::Generic,
        unit: true,
    };
}
crate::attr_constraint!(@untyped UnitAttr);

/// The type of a typed attribute.
pub fn attr_type(ctx: &Context, attr: Attribute) -> Option<Type> {
    match ctx.attr_kind(attr) {
        AttrKind::Integer { ty, .. }
        | AttrKind::WideInteger { ty, .. }
        | AttrKind::Float { ty, .. }
        | AttrKind::DenseElements { ty, .. }
        | AttrKind::DenseStrings { ty, .. }
        | AttrKind::DenseResource { ty, .. }
        | AttrKind::Sparse { ty, .. } => Some(*ty),
        AttrKind::String { ty, .. } => *ty,
        AttrKind::Opaque { ty, .. } => *ty,
        _ => None,
    }
}

// ----- enums -----

/// How an enum attribute is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnumStorage {
    /// An integer attribute of this width (`I64EnumAttr`): `2 : i64`.
    Integer(u32),
    /// A dialect attribute `#dialect.mnemonic<cases>`.
    Dialect {
        /// The dialect namespace.
        dialect: &'static str,
        /// The attribute mnemonic.
        mnemonic: &'static str,
    },
}

/// An enum (or bit-enum) attribute: its cases and how it is stored.
#[derive(Debug)]
pub struct EnumSpec {
    /// The enum's name (MLIR's C++ name, as its parse errors spell it).
    pub name: &'static str,
    /// For a dialect attribute, the name of its attribute definition
    /// (`Arith_FastMathAttr`), which MLIR's second parse error names.
    pub attr_def: &'static str,
    /// Verifier summary.
    pub summary: &'static str,
    /// Cases: keyword and value. For a bit enum, single bits and named
    /// combinations (`fast`); the value 0 is the `none` case.
    pub cases: &'static [(&'static str, u64)],
    /// Whether values are sets of bits.
    pub bit_enum: bool,
    /// Separator between printed bits (`,` or `, `).
    pub separator: &'static str,
    /// Storage.
    pub storage: EnumStorage,
}

impl EnumSpec {
    /// The keyword of a plain enum value.
    pub fn keyword(&self, value: u64) -> Option<&'static str> {
        self.cases.iter().find(|c| c.1 == value).map(|c| c.0)
    }

    /// The value of a keyword.
    pub fn value_of(&self, word: &str) -> Option<u64> {
        self.cases.iter().find(|c| c.0 == word).map(|c| c.1)
    }

    /// Text of a value: a keyword, or for a bit enum a combination's name
    /// or the set bits joined by the separator (MLIR's `stringifyEnum`).
    pub fn stringify(&self, value: u64) -> Option<String> {
        if !self.bit_enum || value == 0 {
            return self.keyword(value).map(str::to_string);
        }
        if let Some(word) = self
            .cases
            .iter()
            .find(|c| c.1 == value && c.1.count_ones() > 1)
        {
            return Some(word.0.to_string());
        }
        let mut words = Vec::new();
        let mut covered = 0;
        for &(word, bits) in self.cases {
            if bits.count_ones() == 1 && value & bits == bits {
                words.push(word);
                covered |= bits;
            }
        }
        (covered == value).then(|| words.join(self.separator))
    }

    /// The value of a (bit-)enum text: `nnan, ninf`.
    pub fn parse_text(&self, text: &str) -> Option<u64> {
        if !self.bit_enum {
            return self.value_of(text.trim());
        }
        let mut value = 0;
        for word in text.split(',') {
            value |= self.value_of(word.trim())?;
        }
        Some(value)
    }

    /// The attribute holding `value`.
    pub fn attr(&self, ctx: &mut Context, value: u64) -> Option<Attribute> {
        match self.storage {
            EnumStorage::Integer(width) => {
                let ty = ctx.integer_type(width);
                Some(ctx.integer_attr(ty, value as i128))
            }
            EnumStorage::Dialect { dialect, mnemonic } => {
                let text = self.stringify(value)?;
                let dialect = ctx.ident(dialect);
                Some(ctx.intern_attr(AttrKind::Opaque {
                    dialect,
                    data: format!("{mnemonic}<{text}>").into(),
                    ty: None,
                }))
            }
        }
    }

    /// The value an attribute holds, if it is one of this enum's.
    pub fn value(&self, ctx: &Context, attr: Attribute) -> Option<u64> {
        match (self.storage, ctx.attr_kind(attr)) {
            (EnumStorage::Integer(width), AttrKind::Integer { ty, value })
                if is_signless_int_attr(ctx, attr, width) =>
            {
                let _ = ty;
                let value = *value as u64;
                self.keyword(value).map(|_| value)
            }
            (
                EnumStorage::Dialect { dialect, mnemonic },
                AttrKind::Opaque {
                    dialect: d, data, ..
                },
            ) if ctx.ident_str(*d) == dialect => {
                let body = data.strip_prefix(mnemonic)?;
                let inner = body.strip_prefix('<')?.strip_suffix('>')?;
                self.parse_text(inner)
            }
            _ => None,
        }
    }

    /// Parses `mnemonic<cases>` (the body of `#dialect.mnemonic<cases>`)
    /// into the canonical attribute.
    pub fn parse_dialect_body(
        &self,
        ctx: &mut Context,
        body: &str,
    ) -> Result<Attribute, Vec<(usize, String)>> {
        let EnumStorage::Dialect { mnemonic, .. } = self.storage else {
            return Err(vec![(
                0,
                format!("'{}' is not a dialect attribute", self.name),
            )]);
        };
        let open = body.find('<');
        let inner = body
            .strip_prefix(mnemonic)
            .and_then(|b| b.trim_start().strip_prefix('<'))
            .and_then(|b| b.strip_suffix('>'));
        let (Some(inner), Some(open)) = (inner, open) else {
            return Err(vec![(
                mnemonic.len().min(body.len()),
                "expected '<'".to_string(),
            )]);
        };
        match self.parse_text(inner).and_then(|v| self.attr(ctx, v)) {
            Some(attr) => Ok(attr),
            None => {
                // As MLIR: the first error at the start of the list, the
                // second at its closing `>`.
                let (_, message) = self.diagnose(inner);
                let follow_up = format!(
                    "failed to parse {} parameter 'value' which is to be a `{}`",
                    self.attr_def, self.name
                );
                Err(vec![(open + 1, message), (body.len() - 1, follow_up)])
            }
        }
    }

    /// Why a `<...>` body of an enum does not parse: the offset (in the
    /// body) of the first bad case and MLIR's message for it.
    pub fn diagnose(&self, inner: &str) -> (usize, String) {
        let mut offset = 0;
        for word in inner.split(',') {
            let lead = word.len() - word.trim_start().len();
            if self.value_of(word.trim()).is_none() {
                if word.trim().is_empty() {
                    return (
                        offset + lead,
                        "expected valid keyword or string".to_string(),
                    );
                }
                let list = std::iter::once("none")
                    .chain(self.cases.iter().map(|c| c.0).filter(|&w| w != "none"))
                    .collect::<Vec<_>>()
                    .join(", ");
                return (
                    offset + lead,
                    format!("expected {} to be one of: {list}", self.name),
                );
            }
            offset += word.len() + 1;
        }
        (0, format!("invalid {} value", self.name))
    }

    /// `a, b, c`: the case keywords.
    pub fn case_list(&self) -> String {
        self.cases
            .iter()
            .map(|c| c.0)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Defines an enum attribute constraint from an [`EnumSpec`] static:
/// `enum_attr!(Name, SPEC, Keyword)` or `enum_attr!(Name, SPEC, Stripped)`.
#[macro_export]
macro_rules! enum_attr {
    ($(#[$meta:meta])* $name:ident, $spec:path, $syntax:ident) => {
        $(#[$meta])*
        pub struct $name;
        impl $crate::ods::AttrConstraintDef for $name {
            const CONSTRAINT: $crate::ods::AttrConstraint = $crate::ods::AttrConstraint {
                summary: $spec.summary,
                check: {
                    fn check(ctx: &$crate::Context, attr: $crate::Attribute) -> bool {
                        $spec.value(ctx, attr).is_some()
                    }
                    check
                },
                syntax: $crate::ods::AttrSyntax::$syntax(&$spec),
                unit: false,
            };
        }
        $crate::attr_constraint!(@untyped $name);
    };
}

pub use crate::enum_attr;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensors_of_host_floats() {
        let mut ctx = Context::new();
        let check = TensorOfF16BF16F32F64::CONSTRAINT.check;
        for kind in [
            FloatKind::F16,
            FloatKind::BF16,
            FloatKind::F32,
            FloatKind::F64,
        ] {
            let element = ctx.float_type(kind);
            let ranked = ctx.tensor_type(vec![2], element);
            let unranked = ctx.intern_type(TypeKind::UnrankedTensor { element });
            assert!(check(&ctx, ranked) && check(&ctx, unranked), "{kind:?}");
            assert!(!check(&ctx, element), "a scalar {kind:?} is not a tensor");
        }
        for kind in [
            FloatKind::F80,
            FloatKind::F128,
            FloatKind::TF32,
            FloatKind::F8E4M3FN,
            FloatKind::F8E5M2,
        ] {
            let element = ctx.float_type(kind);
            let ranked = ctx.tensor_type(vec![2], element);
            assert!(is_float(&ctx, element));
            assert!(!check(&ctx, ranked), "{kind:?}");
        }
        let i32 = ctx.integer_type(32);
        let ints = ctx.tensor_type(vec![2], i32);
        assert!(!check(&ctx, ints));
        assert_eq!(tensor_element_type(&ctx, ints), Some(i32));
        assert_eq!(tensor_element_type(&ctx, i32), None);
    }
}
