//! Builtin attributes and locations, uniqued in the context as in MLIR.

use crate::context::{Attribute, Context, Ident, Location, Type};
use crate::float::FloatKind;
use crate::types::TypeKind;

/// What an attribute is. Compare attributes through their interned handles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrKind {
    /// `42 : i32`, `true` (an `i1` integer), `-1 : index`. The value is kept in
    /// two's complement truncated to the type's width (at most 128 bits).
    Integer { ty: Type, value: u128 },
    /// An integer of more than 128 bits (`1 : i1024`): little-endian words,
    /// two's complement, truncated to the type's width.
    WideInteger { ty: Type, words: Box<[u64]> },
    /// `1.0 : f32`; `bits` is the IEEE (or f8...) bit pattern.
    Float { ty: Type, bits: u128 },
    /// `"text"`, optionally typed (`"text" : i32`). Bytes, as MLIR strings may hold any.
    String { value: Box<[u8]>, ty: Option<Type> },
    /// `unit`.
    Unit,
    /// `[a, b, c]`.
    Array(Box<[Attribute]>),
    /// `{a = 1, b}`, entries sorted by name.
    Dictionary(Box<[(Ident, Attribute)]>),
    /// A type used as an attribute.
    Type(Type),
    /// `@root::@nested...`.
    SymbolRef {
        root: Box<[u8]>,
        nested: Box<[Box<[u8]>]>,
    },
    /// `dense<...> : tensor<...>` of integers, floats or complex numbers.
    DenseElements { ty: Type, data: DenseData },
    /// `dense<"a", "b"> : tensor<2x!foo.string>`-like string elements.
    DenseStrings { ty: Type, values: Box<[Box<[u8]>]> },
    /// `sparse<indices, values> : tensor<...>`: `indices` is a dense
    /// `tensor<N x rank x i64>`, `values` a dense `tensor<N x T>`.
    Sparse {
        ty: Type,
        indices: Attribute,
        values: Attribute,
    },
    /// `dense_resource<key> : tensor<...>`: elements held in the file's
    /// `dialect_resources` section (see `Context::resource_blob`).
    DenseResource { ty: Type, key: Ident },
    /// `array<i64: 1, 2>`; element bit patterns.
    DenseArray { element: Type, values: Box<[u64]> },
    /// `affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>` (also a memref layout).
    AffineMap(crate::affine::AffineMap),
    /// `affine_set<(d0)[s0] : (d0 - s0 >= 0)>`.
    IntegerSet(crate::affine::IntegerSet),
    /// `strided<[s0, s1], offset: o>` memref layout.
    Strided { strides: Box<[i64]>, offset: i64 },
    /// An attribute of an unregistered dialect kept as text: `#foo.bar<...>`.
    Opaque {
        dialect: Ident,
        data: Box<str>,
        ty: Option<Type>,
    },
    /// `distinct[N]<referenced>`: never equal to another distinct attribute;
    /// `unique` is the context's identity for it (printed ids are renumbered).
    Distinct { unique: u64, referenced: Attribute },
    /// A source location.
    Location(LocKind),
}

/// Element data of a `dense<...>` attribute: each element (or each half of a
/// complex element) stored little-endian in `ceil(bits / 8)` bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DenseData {
    /// The raw element bytes (one element when `splat`).
    pub raw: Box<[u8]>,
    /// All elements are equal; `raw` holds one of them.
    pub splat: bool,
}

/// What a location is (locations are attributes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LocKind {
    /// `loc(unknown)`.
    Unknown,
    /// `loc("file":line:col)`, or a range `"file":l:c to l2:c2`.
    FileLineCol {
        /// The file name (interned: many locations share it).
        file: Ident,
        line: u32,
        col: u32,
        end: Option<(u32, u32)>,
    },
    /// `loc("name")` or `loc("name"(child))`.
    Name {
        name: Box<[u8]>,
        child: Option<Location>,
    },
    /// `loc(callsite(callee at caller))`.
    CallSite { callee: Location, caller: Location },
    /// `loc(fused<metadata>[locs...])`.
    Fused {
        locs: Box<[Location]>,
        metadata: Option<Attribute>,
    },
}

/// Storage bytes of one element (one half of a complex element) of type `ty`.
pub fn dense_storage_bytes(ctx: &Context, ty: Type) -> Option<usize> {
    let bits = match ctx.type_kind(ty) {
        TypeKind::Complex(inner) => return dense_storage_bytes(ctx, *inner).map(|b| b * 2),
        _ => ctx.int_or_float_bit_width(ty)?,
    };
    Some((bits as usize).div_ceil(8).max(1))
}

/// Convenience constructors for builtin attributes and locations.
impl Context {
    /// An integer attribute; `value` is truncated to the type's width.
    pub fn integer_attr(&mut self, ty: Type, value: i128) -> Attribute {
        let width = self.int_or_float_bit_width(ty).unwrap_or(64);
        let value = truncate(value as u128, width);
        self.intern_attr(AttrKind::Integer { ty, value })
    }

    /// `array<i64: values...>`, each value stored as its bits, as the
    /// parser stores them.
    pub fn dense_i64_array(&mut self, values: &[i64]) -> Attribute {
        let element = self.integer_type(64);
        self.intern_attr(AttrKind::DenseArray {
            element,
            values: values.iter().map(|&v| v as u64).collect(),
        })
    }

    /// `array<i32: sizes...>`: the sizes of an op's operand groups
    /// (`operandSegmentSizes`, `case_operand_segments`).
    pub fn segment_sizes_attr(&mut self, sizes: &[usize]) -> Attribute {
        let element = self.integer_type(32);
        self.intern_attr(AttrKind::DenseArray {
            element,
            values: sizes.iter().map(|&v| v as u64).collect(),
        })
    }

    /// `true` / `false` (`i1` integer attributes).
    pub fn bool_attr(&mut self, value: bool) -> Attribute {
        let i1 = self.integer_type(1);
        self.intern_attr(AttrKind::Integer {
            ty: i1,
            value: value as u128,
        })
    }

    /// The boolean an integer attribute holds (its low bit, as an `i1`
    /// constant's), or `None` for another attribute.
    pub fn bool_value(&self, attr: Attribute) -> Option<bool> {
        match self.attr_kind(attr) {
            AttrKind::Integer { value, .. } => Some(*value & 1 == 1),
            _ => None,
        }
    }

    /// A float attribute from an `f64` value, rounded to the type.
    pub fn float_attr(&mut self, ty: Type, value: f64) -> Attribute {
        let kind = self.float_kind(ty).unwrap_or(FloatKind::F64);
        let bits = crate::float::from_f64(kind, value);
        self.intern_attr(AttrKind::Float { ty, bits })
    }

    /// The integer, index or float attribute of `element` whose value is
    /// the little-endian bytes `raw` (as one element of a dense
    /// attribute's storage); `None` for other types.
    pub fn scalar_attr_from_le_bytes(&mut self, element: Type, raw: &[u8]) -> Option<Attribute> {
        let mut bits: u128 = 0;
        for (i, &byte) in raw.iter().take(16).enumerate() {
            bits |= u128::from(byte) << (8 * i);
        }
        match self.type_kind(element) {
            TypeKind::Integer { width, .. } => {
                let w = *width;
                let value = if w < 128 && w > 0 && (bits >> (w - 1)) & 1 == 1 {
                    // sign-extend for the attribute's printed value
                    (bits | (!0u128 << w)) as i128
                } else {
                    bits as i128
                };
                Some(self.integer_attr(element, value))
            }
            TypeKind::Float(_) => Some(self.intern_attr(AttrKind::Float { ty: element, bits })),
            TypeKind::Index => Some(self.integer_attr(element, bits as i64 as i128)),
            _ => None,
        }
    }

    /// An untyped string attribute.
    pub fn string_attr(&mut self, value: &str) -> Attribute {
        self.intern_attr(AttrKind::String {
            value: value.as_bytes().into(),
            ty: None,
        })
    }

    /// `unit`.
    pub fn unit_attr(&mut self) -> Attribute {
        self.intern_attr(AttrKind::Unit)
    }

    /// A type attribute.
    pub fn type_attr(&mut self, ty: Type) -> Attribute {
        self.intern_attr(AttrKind::Type(ty))
    }

    /// `[elements...]`.
    pub fn array_attr(&mut self, elements: Vec<Attribute>) -> Attribute {
        self.intern_attr(AttrKind::Array(elements.into()))
    }

    /// A dictionary; entries are sorted by name and, for equal names, the last wins.
    pub fn dictionary_attr(&mut self, mut entries: Vec<(Ident, Attribute)>) -> Attribute {
        sort_dictionary(self, &mut entries);
        self.intern_attr(AttrKind::Dictionary(entries.into()))
    }

    /// The empty dictionary `{}`.
    pub fn empty_dictionary(&mut self) -> Attribute {
        self.intern_attr(AttrKind::Dictionary(Box::new([])))
    }

    /// The entries of a dictionary attribute (empty for other attributes).
    pub fn dictionary_entries(&self, dict: Attribute) -> &[(Ident, Attribute)] {
        match self.attr_kind(dict) {
            AttrKind::Dictionary(entries) => entries,
            _ => &[],
        }
    }

    /// `loc(unknown)`.
    /// `dense<...> : ty` from the elements' little-endian bytes
    /// (`ceil(bits / 8)` bytes each, `i1` as one byte 0 or 1), stored as a
    /// splat when all elements are equal, as MLIR's `DenseElementsAttr::get`.
    /// `None` when the byte count does not match the type.
    pub fn dense_elements_attr(&mut self, ty: Type, mut raw: Vec<u8>) -> Option<Attribute> {
        let elem = self.type_kind(ty).element_type()?;
        let storage = dense_storage_bytes(self, elem)?;
        let count = self
            .type_kind(ty)
            .shape()?
            .iter()
            .try_fold(1usize, |acc, &d| {
                usize::try_from(d).ok().and_then(|d| acc.checked_mul(d))
            })?;
        if storage == 0 || raw.len() != count.checked_mul(storage)? {
            return None;
        }
        let splat = !raw.is_empty() && raw.chunks(storage).all(|c| c == &raw[..storage]);
        if splat {
            raw.truncate(storage);
        }
        Some(self.intern_attr(AttrKind::DenseElements {
            ty,
            data: DenseData {
                raw: raw.into(),
                splat,
            },
        }))
    }

    /// `dense<v> : ty` with every element `one` (one element's bytes, as
    /// [`Context::dense_elements_attr`] takes them), stored as a splat
    /// however many elements `ty` has: nothing of the size of `ty` is
    /// allocated. `None` when `one` is not one element of `ty`'s type.
    pub fn dense_splat_attr(&mut self, ty: Type, one: Vec<u8>) -> Option<Attribute> {
        let elem = self.type_kind(ty).element_type()?;
        let storage = dense_storage_bytes(self, elem)?;
        if storage == 0 || one.len() != storage || self.type_kind(ty).shape().is_none() {
            return None;
        }
        Some(self.intern_attr(AttrKind::DenseElements {
            ty,
            data: DenseData {
                raw: one.into(),
                splat: true,
            },
        }))
    }

    pub fn unknown_loc(&mut self) -> Location {
        self.intern_attr(AttrKind::Location(LocKind::Unknown))
    }

    /// `loc("file":line:col)`.
    pub fn file_line_col_loc(&mut self, file: &str, line: u32, col: u32) -> Location {
        let file = self.ident(file);
        self.intern_attr(AttrKind::Location(LocKind::FileLineCol {
            file,
            line,
            col,
            end: None,
        }))
    }

    /// `loc("name")`, or `loc("name"(child))`.
    pub fn name_loc(&mut self, name: &str, child: Option<Location>) -> Location {
        self.intern_attr(AttrKind::Location(LocKind::Name {
            name: name.as_bytes().into(),
            child,
        }))
    }

    /// `loc(fused<metadata>[locs])`, canonicalized as MLIR's `FusedLoc::get`:
    /// nested fused locations with the same metadata are flattened, unknown
    /// and duplicate locations dropped, and a single location without metadata
    /// stands for itself.
    pub fn fused_loc(&mut self, locs: &[Location], metadata: Option<Attribute>) -> Location {
        let mut flat: Vec<Location> = Vec::with_capacity(locs.len());
        for &loc in locs {
            match self.attr_kind(loc) {
                AttrKind::Location(LocKind::Fused {
                    locs: inner,
                    metadata: m,
                }) if *m == metadata => {
                    for &l in inner.iter() {
                        if !flat.contains(&l) {
                            flat.push(l);
                        }
                    }
                }
                AttrKind::Location(LocKind::Unknown) => {}
                _ => {
                    if !flat.contains(&loc) {
                        flat.push(loc);
                    }
                }
            }
        }
        if flat.is_empty() {
            let unknown = self.unknown_loc();
            if metadata.is_none() {
                return unknown;
            }
            flat.push(unknown);
        } else if flat.len() == 1 && metadata.is_none() {
            return flat[0];
        }
        self.intern_attr(AttrKind::Location(LocKind::Fused {
            locs: flat.into(),
            metadata,
        }))
    }

    /// Whether `attr` is a location.
    pub fn is_location(&self, attr: Attribute) -> bool {
        matches!(self.attr_kind(attr), AttrKind::Location(_))
    }
}

/// Sort dictionary entries by name (byte order, as MLIR's `StringRef` compare)
/// and drop earlier duplicates.
pub(crate) fn sort_dictionary(ctx: &Context, entries: &mut Vec<(Ident, Attribute)>) {
    entries.sort_by(|a, b| ctx.ident_str(a.0).cmp(ctx.ident_str(b.0)));
    entries.dedup_by(|later, earlier| {
        if later.0 == earlier.0 {
            earlier.1 = later.1;
            true
        } else {
            false
        }
    });
}

/// Keep the low `width` bits of `value`.
pub fn truncate(value: u128, width: u32) -> u128 {
    if width >= 128 {
        value
    } else {
        value & ((1u128 << width) - 1)
    }
}

/// Interpret the low `width` bits of `value` as a two's complement number.
pub fn sign_extend(value: u128, width: u32) -> i128 {
    if width == 0 {
        return 0;
    }
    if width >= 128 {
        return value as i128;
    }
    let shift = 128 - width;
    ((value << shift) as i128) >> shift
}
