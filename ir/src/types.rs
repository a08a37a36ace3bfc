//! Builtin types, spelled and uniqued as in MLIR's builtin dialect.

use crate::context::{Attribute, Context, Ident, Type};
use crate::float::FloatKind;

/// The marker for a dynamic dimension (`?`), as MLIR's `ShapedType::kDynamic`.
pub const DYNAMIC: i64 = i64::MIN;

/// Number of elements of a static shape; `u64::MAX` when it does not fit
/// (such shapes are legal types; only a splat can fill them).
pub fn num_elements(shape: &[i64]) -> u64 {
    checked_num_elements(shape).unwrap_or(u64::MAX)
}

/// The number of elements of `shape` (dynamic sizes count as 0), or
/// `None` when it does not fit in `u64`. A shape with a zero dimension has
/// 0 elements however large the others are.
pub fn checked_num_elements(shape: &[i64]) -> Option<u64> {
    if shape.iter().any(|&d| d <= 0) {
        return Some(0);
    }
    shape
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d as u64))
}

/// Integer signedness semantics: `i32` (signless), `si32`, `ui32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `iN`.
    Signless,
    /// `siN`.
    Signed,
    /// `uiN`.
    Unsigned,
}

/// What a type is. Compare types through their interned `Type` handles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// `iN`, `siN`, `uiN`.
    Integer { width: u32, signedness: Signedness },
    /// `index`.
    Index,
    /// `f16`, `bf16`, `f32`, ... and the f8/f6/f4 types.
    Float(FloatKind),
    /// `none`.
    None,
    /// `complex<T>`.
    Complex(Type),
    /// `tuple<T, ...>`.
    Tuple(Vec<Type>),
    /// `(inputs) -> results`.
    Function {
        inputs: Vec<Type>,
        results: Vec<Type>,
    },
    /// `tensor<4x?xf32, encoding>`.
    RankedTensor {
        shape: Vec<i64>,
        element: Type,
        encoding: Option<Attribute>,
    },
    /// `tensor<*xf32>`.
    UnrankedTensor { element: Type },
    /// `memref<4x?xf32, layout, memory_space>`.
    MemRef {
        shape: Vec<i64>,
        element: Type,
        layout: Option<Attribute>,
        memory_space: Option<Attribute>,
    },
    /// `memref<*xf32, memory_space>`.
    UnrankedMemRef {
        element: Type,
        memory_space: Option<Attribute>,
    },
    /// `vector<2x[4]xf32>`; `scalable[i]` marks `[n]` dimensions.
    Vector {
        shape: Vec<i64>,
        scalable: Vec<bool>,
        element: Type,
    },
    /// A dialect type, kept as its canonical text: `!foo.bar<...>` is
    /// dialect `foo`, data `bar<...>`. `params` are the types it is built
    /// from (a sequence's element type, a pointer's pointee), in the order
    /// its dialect defines, so that they can be read back without parsing
    /// the text; a type of an unregistered dialect has none.
    Opaque {
        dialect: Ident,
        data: Box<str>,
        params: Vec<Type>,
    },
}

impl TypeKind {
    /// The shape of a ranked shaped type (tensor, memref, vector).
    pub fn shape(&self) -> Option<&[i64]> {
        match self {
            TypeKind::RankedTensor { shape, .. }
            | TypeKind::MemRef { shape, .. }
            | TypeKind::Vector { shape, .. } => Some(shape),
            _ => None,
        }
    }

    /// The element type of a shaped type.
    pub fn element_type(&self) -> Option<Type> {
        match self {
            TypeKind::RankedTensor { element, .. }
            | TypeKind::UnrankedTensor { element }
            | TypeKind::MemRef { element, .. }
            | TypeKind::UnrankedMemRef { element, .. }
            | TypeKind::Vector { element, .. } => Some(*element),
            _ => None,
        }
    }
}

/// Convenience constructors for builtin types.
impl Context {
    /// `iN` (signless).
    pub fn integer_type(&mut self, width: u32) -> Type {
        self.intern_type(TypeKind::Integer {
            width,
            signedness: Signedness::Signless,
        })
    }

    /// `uiN`.
    pub fn unsigned_integer_type(&mut self, width: u32) -> Type {
        self.intern_type(TypeKind::Integer {
            width,
            signedness: Signedness::Unsigned,
        })
    }

    /// `index`.
    pub fn index_type(&mut self) -> Type {
        self.intern_type(TypeKind::Index)
    }

    /// A float type.
    pub fn float_type(&mut self, kind: FloatKind) -> Type {
        self.intern_type(TypeKind::Float(kind))
    }

    /// `none`.
    pub fn none_type(&mut self) -> Type {
        self.intern_type(TypeKind::None)
    }

    /// The dialect type `!dialect.data` built from the types `params`
    /// (see [`TypeKind::Opaque`]).
    pub fn dialect_type(&mut self, dialect: &str, data: String, params: Vec<Type>) -> Type {
        let dialect = self.ident(dialect);
        self.intern_type(TypeKind::Opaque {
            dialect,
            data: data.into(),
            params,
        })
    }

    /// The type parameters of a dialect type (empty for any other type).
    pub fn type_params(&self, ty: Type) -> &[Type] {
        match self.type_kind(ty) {
            TypeKind::Opaque { params, .. } => params,
            _ => &[],
        }
    }

    /// `(inputs) -> results`.
    pub fn function_type(&mut self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.intern_type(TypeKind::Function { inputs, results })
    }

    /// `tensor<shape x element>` without encoding.
    pub fn tensor_type(&mut self, shape: Vec<i64>, element: Type) -> Type {
        self.intern_type(TypeKind::RankedTensor {
            shape,
            element,
            encoding: None,
        })
    }

    /// Whether `ty` is an integer type (any signedness) or `index`.
    pub fn is_int_or_index(&self, ty: Type) -> bool {
        matches!(
            self.type_kind(ty),
            TypeKind::Integer { .. } | TypeKind::Index
        )
    }

    /// The float kind of `ty`, if it is a float type.
    pub fn float_kind(&self, ty: Type) -> Option<FloatKind> {
        match self.type_kind(ty) {
            TypeKind::Float(kind) => Some(*kind),
            _ => None,
        }
    }

    /// Bit width of integer, index (64) and float types.
    pub fn int_or_float_bit_width(&self, ty: Type) -> Option<u32> {
        match self.type_kind(ty) {
            TypeKind::Integer { width, .. } => Some(*width),
            TypeKind::Index => Some(64),
            TypeKind::Float(kind) => Some(kind.bit_width()),
            _ => None,
        }
    }
}
