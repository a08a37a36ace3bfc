//! Printing builtin types, attributes and locations exactly as MLIR's
//! `AsmPrinter` does (mlir/lib/IR/AsmPrinter.cpp).

use std::fmt::Write;

use super::Printer;
use crate::attributes::{sign_extend, AttrKind, DenseData, LocKind};
use crate::context::{Attribute, Type};
use crate::float;
use crate::types::{Signedness, TypeKind, DYNAMIC};

/// Whether the type of an attribute may be left out (`AttrTypeElision`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Elision {
    Never,
    May,
    /// MLIR's `printAttributeWithoutType`: never print the `: type` suffix.
    Always,
}

/// Dense attributes with more elements than this print as a hex blob.
const HEX_ELEMENT_THRESHOLD: usize = 100;

/// MLIR's `isBareIdentifier`.
pub(crate) fn is_bare_identifier(name: &[u8]) -> bool {
    match name.split_first() {
        Some((&first, rest)) => {
            (first.is_ascii_alphabetic() || first == b'_')
                && rest
                    .iter()
                    .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
        }
        None => false,
    }
}

/// LLVM's `printEscapedString`: printable ASCII except `"` and `\` as is, the rest as `\XX`.
pub(crate) fn write_escaped(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\22"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
}

/// A quoted, escaped string literal.
pub(crate) fn write_string(out: &mut String, bytes: &[u8]) {
    out.push('"');
    write_escaped(out, bytes);
    out.push('"');
}

/// A name as a bare identifier when possible, else as a string literal.
pub(crate) fn write_keyword_or_string(out: &mut String, name: &[u8]) {
    if is_bare_identifier(name) {
        out.push_str(&String::from_utf8_lossy(name));
    } else {
        write_string(out, name);
    }
}

fn write_dim(out: &mut String, dim: i64) {
    if dim == DYNAMIC {
        out.push('?');
    } else {
        let _ = write!(out, "{dim}");
    }
}

/// MLIR's `printDialectSymbol`: `!dialect.data` when simple enough, else `!dialect<data>`.
fn write_dialect_symbol(out: &mut String, prefix: char, dialect: &str, data: &str) {
    out.push(prefix);
    out.push_str(dialect);
    let simple = {
        let bytes = data.as_bytes();
        match bytes.first() {
            Some(c) if c.is_ascii_alphabetic() => {
                let rest: &[u8] = {
                    let n = bytes
                        .iter()
                        .position(|&c| !(c.is_ascii_alphanumeric() || c == b'.' || c == b'_'))
                        .unwrap_or(bytes.len());
                    &bytes[n..]
                };
                // Deliberate difference from mlir-opt, which only checks the
                // first and last characters: `#d.a<1>, b<2>` would not read
                // back, so the `<...>` must be one balanced group.
                rest.is_empty()
                    || (rest[0] == b'<' && rest[rest.len() - 1] == b'>' && closes_at_end(rest))
            }
            _ => false,
        }
    };
    // Deliberate difference from mlir-opt: `#d<x->` cannot be read back (`->`
    // is an arrow), so data made of identifier characters that ends in `-`
    // keeps the pretty form `#d.x-`, which can.
    let simple = simple
        || (data.ends_with('-')
            && data
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"._$-".contains(&c)));
    if simple {
        out.push('.');
        out.push_str(data);
    } else {
        out.push('<');
        out.push_str(data);
        out.push('>');
    }
}

/// Whether the `<` at the start of `text` is closed by its last character
/// (brackets balanced, strings skipped, `->` not a closer), so that the
/// pretty form `#d.name<...>` reads back as one symbol.
fn closes_at_end(text: &[u8]) -> bool {
    let mut depth = 0usize;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'<' | b'[' | b'(' | b'{' => depth += 1,
            b'-' if text.get(i + 1) == Some(&b'>') => i += 1,
            b'>' | b']' | b')' | b'}' => {
                depth = match depth.checked_sub(1) {
                    Some(d) => d,
                    None => return false,
                };
                if depth == 0 {
                    return i + 1 == text.len();
                }
            }
            b'"' => {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    if text[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

impl Printer<'_> {
    pub(crate) fn print_type(&mut self, ty: Type) {
        if let Some(collect) = self.collect.as_mut() {
            collect.visit(super::aliases::Item::Type(ty), false);
            return;
        }
        if let Some(alias) = self.aliases.alias_of_type(ty) {
            self.out.push_str(alias);
            return;
        }
        self.print_type_impl(ty);
    }

    pub(crate) fn print_type_impl(&mut self, ty: Type) {
        let ctx = self.ctx;
        match ctx.type_kind(ty) {
            TypeKind::Integer { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                let _ = write!(self.out, "{prefix}{width}");
            }
            TypeKind::Index => self.out.push_str("index"),
            TypeKind::Float(kind) => self.out.push_str(kind.mlir_name()),
            TypeKind::None => self.out.push_str("none"),
            TypeKind::Complex(element) => {
                self.out.push_str("complex<");
                self.print_type(*element);
                self.out.push('>');
            }
            TypeKind::Tuple(elements) => {
                self.out.push_str("tuple<");
                self.print_type_list(elements);
                self.out.push('>');
            }
            TypeKind::Function { inputs, results } => {
                self.out.push('(');
                self.print_type_list(inputs);
                self.out.push_str(") -> ");
                self.print_result_types(results);
            }
            TypeKind::RankedTensor {
                shape,
                element,
                encoding,
            } => {
                self.out.push_str("tensor<");
                for &dim in shape {
                    write_dim(&mut self.out, dim);
                    self.out.push('x');
                }
                self.print_type(*element);
                if let Some(encoding) = encoding {
                    self.out.push_str(", ");
                    self.print_attribute(*encoding, Elision::Never);
                }
                self.out.push('>');
            }
            TypeKind::UnrankedTensor { element } => {
                self.out.push_str("tensor<*x");
                self.print_type(*element);
                self.out.push('>');
            }
            TypeKind::MemRef {
                shape,
                element,
                layout,
                memory_space,
            } => {
                self.out.push_str("memref<");
                for &dim in shape {
                    write_dim(&mut self.out, dim);
                    self.out.push('x');
                }
                self.print_type(*element);
                if let Some(layout) = layout {
                    self.out.push_str(", ");
                    self.print_attribute(*layout, Elision::May);
                }
                if let Some(space) = memory_space {
                    self.out.push_str(", ");
                    self.print_attribute(*space, Elision::May);
                }
                self.out.push('>');
            }
            TypeKind::UnrankedMemRef {
                element,
                memory_space,
            } => {
                self.out.push_str("memref<*x");
                self.print_type(*element);
                if let Some(space) = memory_space {
                    self.out.push_str(", ");
                    self.print_attribute(*space, Elision::May);
                }
                self.out.push('>');
            }
            TypeKind::Vector {
                shape,
                scalable,
                element,
            } => {
                self.out.push_str("vector<");
                for (i, &dim) in shape.iter().enumerate() {
                    if scalable.get(i).copied().unwrap_or(false) {
                        let _ = write!(self.out, "[{dim}]x");
                    } else {
                        let _ = write!(self.out, "{dim}x");
                    }
                }
                self.print_type(*element);
                self.out.push('>');
            }
            TypeKind::Opaque { dialect, data, .. } => {
                write_dialect_symbol(&mut self.out, '!', ctx.ident_str(*dialect), data);
            }
        }
    }

    pub(crate) fn print_type_list(&mut self, types: &[Type]) {
        for (i, &ty) in types.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_type(ty);
        }
    }

    /// `printArrowTypeList` without the arrow: parentheses unless there is
    /// exactly one result that is not a function type.
    pub(crate) fn print_result_types(&mut self, results: &[Type]) {
        let wrapped = results.len() != 1
            || matches!(self.ctx.type_kind(results[0]), TypeKind::Function { .. });
        if wrapped {
            self.out.push('(');
        }
        self.print_type_list(results);
        if wrapped {
            self.out.push(')');
        }
    }

    pub(crate) fn print_attribute(&mut self, attr: Attribute, elision: Elision) {
        if let Some(collect) = self.collect.as_mut() {
            collect.visit(super::aliases::Item::Attr(attr), false);
            return;
        }
        if let Some(alias) = self.aliases.alias_of_attr(attr) {
            self.out.push_str(alias);
            return;
        }
        self.print_attribute_impl(attr, elision);
    }

    pub(crate) fn print_attribute_impl(&mut self, attr: Attribute, elision: Elision) {
        if let Some(collect) = self.collect.as_mut() {
            collect.visit(super::aliases::Item::Attr(attr), false);
            return;
        }
        let ctx = self.ctx;
        let mut typed: Option<Type> = None;
        match ctx.attr_kind(attr) {
            AttrKind::Integer { ty, value } => {
                typed = self.print_integer_attr(*ty, *value, elision)
            }
            AttrKind::WideInteger { ty, words } => {
                let (width, signedness) = match ctx.type_kind(*ty) {
                    TypeKind::Integer { width, signedness } => (*width, *signedness),
                    _ => (64, Signedness::Signed),
                };
                let text =
                    crate::wide_int::to_decimal(words, width, signedness != Signedness::Unsigned);
                self.out.push_str(&text);
                typed = Some(*ty);
            }
            AttrKind::Float { ty, bits } => {
                let kind = ctx.float_kind(*ty).unwrap_or(float::FloatKind::F64);
                let text = float::format_float(kind, *bits);
                let hex = text.starts_with("0x");
                self.out.push_str(&text);
                if !(elision == Elision::May && kind == float::FloatKind::F64 && !hex) {
                    typed = Some(*ty);
                }
            }
            AttrKind::String { value, ty } => {
                write_string(&mut self.out, value);
                typed = *ty;
            }
            AttrKind::Unit => self.out.push_str("unit"),
            AttrKind::Array(elements) => {
                self.out.push('[');
                for (i, &element) in elements.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.print_attribute(element, Elision::May);
                }
                self.out.push(']');
            }
            AttrKind::Dictionary(entries) => {
                self.out.push('{');
                self.print_named_attributes(entries);
                self.out.push('}');
            }
            AttrKind::Type(ty) => self.print_type(*ty),
            AttrKind::SymbolRef { root, nested } => {
                self.out.push('@');
                write_keyword_or_string(&mut self.out, root);
                for name in nested.iter() {
                    self.out.push_str("::@");
                    write_keyword_or_string(&mut self.out, name);
                }
            }
            AttrKind::DenseElements { ty, data } => {
                self.out.push_str("dense<");
                self.print_dense_elements(*ty, data, true);
                self.out.push('>');
                typed = Some(*ty);
            }
            AttrKind::Distinct { referenced, .. } => {
                let next = self.distinct_ids.len() as u64;
                let id = *self.distinct_ids.entry(attr).or_insert(next);
                let _ = write!(self.out, "distinct[{id}]<");
                if !matches!(ctx.attr_kind(*referenced), AttrKind::Unit) {
                    self.print_attribute(*referenced, Elision::Never);
                }
                self.out.push('>');
            }
            AttrKind::Sparse {
                ty,
                indices,
                values,
            } => {
                self.print_sparse_elements(*indices, *values);
                typed = Some(*ty);
            }
            AttrKind::DenseResource { ty, key } => {
                self.out.push_str("dense_resource<");
                write_keyword_or_string(&mut self.out, ctx.ident_str(*key).as_bytes());
                self.out.push('>');
                if !self.used_resources.contains(key) {
                    self.used_resources.push(*key);
                }
                typed = Some(*ty);
            }
            AttrKind::DenseStrings { ty, values } => {
                self.out.push_str("dense<");
                let shape = ctx.type_kind(*ty).shape().unwrap_or(&[]).to_vec();
                let splat = values.len() == 1;
                let values = values.clone();
                print_nested(&mut self.out, &shape, splat, |out, i| {
                    write_string(out, &values[i])
                });
                self.out.push('>');
                typed = Some(*ty);
            }
            AttrKind::DenseArray { element, values } => {
                self.print_dense_array(*element, values);
                return;
            }
            AttrKind::AffineMap(map) => {
                let _ = write!(self.out, "affine_map<{map}>");
            }
            AttrKind::IntegerSet(set) => {
                let _ = write!(self.out, "affine_set<{set}>");
            }
            AttrKind::Strided { strides, offset } => {
                self.out.push_str("strided<[");
                for (i, &s) in strides.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    write_dim(&mut self.out, s);
                }
                self.out.push(']');
                if *offset != 0 {
                    self.out.push_str(", offset: ");
                    write_dim(&mut self.out, *offset);
                }
                self.out.push('>');
            }
            AttrKind::Opaque { dialect, data, ty } => {
                write_dialect_symbol(&mut self.out, '#', ctx.ident_str(*dialect), data);
                typed = *ty;
            }
            AttrKind::Location(_) => {
                self.out.push_str("loc(");
                self.print_location_inner(attr, true);
                self.out.push(')');
            }
        }
        if let Some(ty) = typed.filter(|_| elision != Elision::Always) {
            self.out.push_str(" : ");
            self.print_type(ty);
        }
    }

    /// An integer attribute's value; the type to print after it, unless it
    /// is elided (`true`/`false`, an elidable `i64`).
    fn print_integer_attr(&mut self, ty: Type, value: u128, elision: Elision) -> Option<Type> {
        let ctx = self.ctx;
        let (width, signedness) = match ctx.type_kind(ty) {
            TypeKind::Integer { width, signedness } => (*width, *signedness),
            _ => (64, Signedness::Signed),
        };
        if width == 1 && signedness == Signedness::Signless {
            self.out.push_str(if value != 0 { "true" } else { "false" });
            return None;
        }
        if signedness == Signedness::Unsigned {
            let _ = write!(self.out, "{value}");
        } else {
            let _ = write!(self.out, "{}", sign_extend(value, width));
        }
        let is_i64 = width == 64
            && signedness == Signedness::Signless
            && matches!(ctx.type_kind(ty), TypeKind::Integer { .. });
        if elision == Elision::May && is_i64 {
            None
        } else {
            Some(ty)
        }
    }

    /// `sparse<indices, values>`, its body empty when there are no entries.
    fn print_sparse_elements(&mut self, indices: Attribute, values: Attribute) {
        let ctx = self.ctx;
        self.out.push_str("sparse<");
        if let (
            AttrKind::DenseElements {
                ty: ity,
                data: idata,
            },
            AttrKind::DenseElements {
                ty: vty,
                data: vdata,
            },
        ) = (ctx.attr_kind(indices), ctx.attr_kind(values))
        {
            let count = ctx.type_kind(*ity).shape().map(crate::types::num_elements);
            if count != Some(0) {
                self.print_dense_elements(*ity, idata, false);
                self.out.push_str(", ");
                self.print_dense_elements(*vty, vdata, true);
            }
        }
        self.out.push('>');
    }

    /// `array<element: v, ...>`.
    fn print_dense_array(&mut self, element: Type, values: &[u64]) {
        let ctx = self.ctx;
        self.out.push_str("array<");
        self.print_type(element);
        if !values.is_empty() {
            self.out.push_str(": ");
            let kind = ctx.float_kind(element);
            let (width, unsigned) = match ctx.type_kind(element) {
                TypeKind::Integer { width, signedness } => {
                    (*width, *signedness == Signedness::Unsigned)
                }
                _ => (64, false),
            };
            for (i, &v) in values.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                if let Some(kind) = kind {
                    self.out.push_str(&float::format_float(kind, v as u128));
                } else if width == 1 {
                    self.out.push_str(if v != 0 { "true" } else { "false" });
                } else if unsigned {
                    let _ = write!(self.out, "{v}");
                } else {
                    let _ = write!(self.out, "{}", sign_extend(v as u128, width));
                }
            }
        }
        self.out.push('>');
    }

    pub(crate) fn print_named_attributes(&mut self, entries: &[(crate::Ident, Attribute)]) {
        let ctx = self.ctx;
        for (i, &(name, value)) in entries.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            write_keyword_or_string(&mut self.out, ctx.ident_str(name).as_bytes());
            if matches!(ctx.attr_kind(value), AttrKind::Unit) {
                continue;
            }
            self.out.push_str(" = ");
            self.print_attribute(value, Elision::Never);
        }
    }

    fn print_dense_elements(&mut self, ty: Type, data: &DenseData, allow_hex: bool) {
        let ctx = self.ctx;
        let kind = ctx.type_kind(ty);
        let shape = kind.shape().unwrap_or(&[]).to_vec();
        let element = kind.element_type().unwrap_or(ty);
        let num_elements = crate::types::num_elements(&shape);
        let storage = crate::attributes::dense_storage_bytes(ctx, element).unwrap_or(1);
        let (scalar, complex) = match ctx.type_kind(element) {
            TypeKind::Complex(inner) => (*inner, true),
            _ => (element, false),
        };
        let is_bool =
            !complex && matches!(ctx.type_kind(scalar), TypeKind::Integer { width: 1, .. });
        if allow_hex && !data.splat && num_elements as usize > HEX_ELEMENT_THRESHOLD {
            self.out.push_str("\"0x");
            if is_bool {
                let mut packed = vec![0u8; (num_elements as usize).div_ceil(8)];
                for (i, &b) in data.raw.iter().enumerate() {
                    packed[i / 8] |= (b & 1) << (i % 8);
                }
                push_hex(&mut self.out, &packed);
            } else {
                push_hex(&mut self.out, &data.raw);
            }
            self.out.push('"');
            return;
        }
        let scalar_bytes = if complex { storage / 2 } else { storage };
        let (width, signedness) = match ctx.type_kind(scalar) {
            TypeKind::Integer { width, signedness } => (*width, *signedness),
            _ => (64, Signedness::Signed),
        };
        let float_kind = ctx.float_kind(scalar);
        let read = |i: usize| -> u128 {
            let mut bytes = [0u8; 16];
            let start = i * scalar_bytes;
            if let Some(src) = data.raw.get(start..start + scalar_bytes) {
                bytes[..scalar_bytes].copy_from_slice(src);
            }
            u128::from_le_bytes(bytes)
        };
        let scalar_text = |out: &mut String, bits: u128| {
            if let Some(kind) = float_kind {
                out.push_str(&float::format_float(kind, bits));
            } else if width == 1 {
                out.push_str(if bits != 0 { "true" } else { "false" });
            } else if signedness == Signedness::Unsigned {
                let _ = write!(out, "{bits}");
            } else {
                let _ = write!(out, "{}", sign_extend(bits, width));
            }
        };
        print_nested(&mut self.out, &shape, data.splat, |out, i| {
            if complex {
                out.push('(');
                scalar_text(out, read(2 * i));
                out.push(',');
                scalar_text(out, read(2 * i + 1));
                out.push(')');
            } else {
                scalar_text(out, read(i));
            }
        });
    }

    /// The inside of `loc(...)`; nested locations use their aliases.
    pub(crate) fn print_location_inner(&mut self, loc: Attribute, top_level: bool) {
        if !top_level {
            if let Some(alias) = self.aliases.alias_of_attr(loc) {
                self.out.push_str(alias);
                return;
            }
        }
        let ctx = self.ctx;
        let AttrKind::Location(kind) = ctx.attr_kind(loc) else {
            self.print_attribute(loc, Elision::Never);
            return;
        };
        match kind {
            LocKind::Unknown => self.out.push_str("unknown"),
            LocKind::FileLineCol {
                file,
                line,
                col,
                end,
            } => {
                write_string(&mut self.out, ctx.ident_str(*file).as_bytes());
                let _ = match end {
                    None => write!(self.out, ":{line}:{col}"),
                    Some((end_line, end_col)) if end_line == line => {
                        write!(self.out, ":{line}:{col} to :{end_col}")
                    }
                    Some((end_line, end_col)) => {
                        write!(self.out, ":{line}:{col} to {end_line}:{end_col}")
                    }
                };
            }
            LocKind::Name { name, child } => {
                write_string(&mut self.out, name);
                if let Some(child) = child {
                    self.out.push('(');
                    self.print_location_inner(*child, false);
                    self.out.push(')');
                }
            }
            LocKind::CallSite { callee, caller } => {
                self.out.push_str("callsite(");
                self.print_location_inner(*callee, false);
                self.out.push_str(" at ");
                self.print_location_inner(*caller, false);
                self.out.push(')');
            }
            LocKind::Fused { locs, metadata } => {
                self.out.push_str("fused");
                if let Some(metadata) = metadata {
                    self.out.push('<');
                    self.print_attribute(*metadata, Elision::Never);
                    self.out.push('>');
                }
                self.out.push('[');
                for (i, &l) in locs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.print_location_inner(l, false);
                }
                self.out.push(']');
            }
        }
    }
}

/// MLIR's `printDenseElementsAttrImpl`: nested brackets following `shape`.
fn print_nested(
    out: &mut String,
    shape: &[i64],
    splat: bool,
    mut element: impl FnMut(&mut String, usize),
) {
    if splat {
        element(out, 0);
        return;
    }
    let num_elements = crate::types::num_elements(shape);
    if num_elements == 0 {
        return;
    }
    let rank = shape.len();
    let mut counter = vec![0i64; rank];
    let mut open = 0usize;
    for idx in 0..num_elements as usize {
        if idx != 0 {
            out.push_str(", ");
        }
        while open < rank {
            out.push('[');
            open += 1;
        }
        element(out, idx);
        if rank == 0 {
            continue;
        }
        counter[rank - 1] += 1;
        for i in (1..rank).rev() {
            if counter[i] >= shape[i] {
                counter[i] = 0;
                counter[i - 1] += 1;
                open -= 1;
                out.push(']');
            }
        }
    }
    while open > 0 {
        out.push(']');
        open -= 1;
    }
}

/// Appends `bytes` as uppercase hex digits, two a byte (the hex form of
/// large dense elements: megabytes of weights, so not through `write!`).
fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    out.reserve(bytes.len() * 2);
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
}
