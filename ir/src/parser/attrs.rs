//! Parsing builtin attributes and locations (mlir/lib/AsmParser/AttributeParser.cpp
//! and LocationParser.cpp).

use super::lexer::{Tok, Token};
use super::types::ExtendedSymbol;
use super::{unescape, PResult, Parser};
use crate::attributes::{dense_storage_bytes, AttrKind, DenseData, LocKind};
use crate::context::{Attribute, Ident, Location, Type};
use crate::float::{self, FloatKind};
use crate::types::{Signedness, TypeKind, DYNAMIC};

/// A parsed literal of a `dense<...>` attribute.
#[derive(Clone, Copy)]
struct Element {
    negative: bool,
    tok: Token,
}

impl<'a> Parser<'a> {
    /// attribute-value, optionally with a known type (as MLIR's `parseAttribute(Type)`).
    pub(crate) fn parse_attribute(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        self.enter_nesting()?;
        let result = self.parse_attribute_inner(ty);
        self.depth -= 1;
        result
    }

    pub(crate) fn parse_attribute_inner(&mut self, ty: Option<Type>) -> PResult<Attribute> {
        match self.tok.kind {
            Tok::BareId => match self.spelling() {
                "array" => self.parse_dense_array(),
                "dense" => self.parse_dense_elements(ty),
                "true" | "false" => {
                    let value = self.spelling() == "true";
                    self.bump();
                    Ok(self.ctx.bool_attr(value))
                }
                "loc" => {
                    self.bump();
                    self.expect(Tok::LParen, "'(' in inline location")?;
                    let loc = self.parse_location_instance()?;
                    self.expect(Tok::RParen, "')' in inline location")?;
                    Ok(loc)
                }
                "strided" => self.parse_strided_layout(),
                "unit" => {
                    self.bump();
                    Ok(self.ctx.unit_attr())
                }
                "dense_resource" => self.parse_dense_resource(ty),
                "distinct" => self.parse_distinct(),
                word @ ("affine_map" | "affine_set" | "sparse") => Err(self.error_here(format!(
                    "'{word}' attributes are not supported by strata yet"
                ))),
                _ => {
                    let ty = self.parse_type()?;
                    Ok(self.ctx.type_attr(ty))
                }
            },
            Tok::LSquare => self.parse_array_attr(),
            Tok::LBrace => self.parse_dictionary_attr(),
            Tok::HashId => self.parse_extended_attr(),
            Tok::Float | Tok::Integer => self.parse_number_attr(ty, false),
            Tok::Minus => {
                self.bump();
                if !matches!(self.tok.kind, Tok::Float | Tok::Integer) {
                    return Err(
                        self.wrong_token("expected constant integer or floating point value")
                    );
                }
                self.parse_number_attr(ty, true)
            }
            Tok::String => {
                let value = unescape(self.spelling());
                self.bump();
                let ty = match ty {
                    Some(ty) => Some(ty),
                    None if self.consume_if(Tok::Colon) => Some(self.parse_type()?),
                    None => None,
                };
                let ty = ty.filter(|&t| !matches!(self.ctx.type_kind(t), TypeKind::None));
                Ok(self.ctx.intern_attr(AttrKind::String {
                    value: value.into(),
                    ty,
                }))
            }
            Tok::AtId => self.parse_symbol_ref(),
            Tok::LParen | Tok::BangId => {
                let ty = self.parse_type()?;
                Ok(self.ctx.type_attr(ty))
            }
            _ => Err(self.wrong_token("expected attribute value")),
        }
    }

    fn parse_number_attr(&mut self, ty: Option<Type>, negative: bool) -> PResult<Attribute> {
        let tok = self.tok;
        self.bump();
        let ty = match ty {
            Some(ty) => ty,
            None if self.consume_if(Tok::Colon) => self.parse_type()?,
            None if tok.kind == Tok::Float => self.ctx.float_type(FloatKind::F64),
            None => self.ctx.integer_type(64),
        };
        if tok.kind == Tok::Float {
            let Some(kind) = self.ctx.float_kind(ty) else {
                return Err(self.error_here("floating point value not valid for specified type"));
            };
            let bits = self.float_from_literal(Element { negative, tok }, kind)?;
            return Ok(self.ctx.intern_attr(AttrKind::Float { ty, bits }));
        }
        if let Some(kind) = self.ctx.float_kind(ty) {
            let bits = self.float_from_integer_literal(tok, negative, kind)?;
            return Ok(self.ctx.intern_attr(AttrKind::Float { ty, bits }));
        }
        if !self.ctx.is_int_or_index(ty) {
            return Err(self.error_at(tok.start, "integer literal not valid for specified type"));
        }
        if negative && self.is_unsigned(ty) {
            return Err(self.error_at(
                tok.start,
                "negative integer literal not valid for unsigned integer type",
            ));
        }
        let spelling = self.text(tok.start, tok.end);
        if self.ctx.int_or_float_bit_width(ty).unwrap_or(64) > 128 {
            let words = self.build_wide_int(ty, negative, spelling, tok.start)?;
            return Ok(self.ctx.intern_attr(AttrKind::WideInteger {
                ty,
                words: words.into(),
            }));
        }
        let value = self.build_int(
            ty,
            negative,
            spelling,
            tok.start,
            "integer constant out of range for attribute",
        )?;
        Ok(self.ctx.intern_attr(AttrKind::Integer { ty, value }))
    }

    fn is_unsigned(&self, ty: Type) -> bool {
        matches!(
            self.ctx.type_kind(ty),
            TypeKind::Integer {
                signedness: Signedness::Unsigned,
                ..
            }
        )
    }

    /// MLIR's `buildAttributeAPInt`: the value of an integer literal in `ty`'s
    /// width, or an error when it does not fit.
    fn build_int(
        &mut self,
        ty: Type,
        negative: bool,
        spelling: &str,
        pos: u32,
        message: &str,
    ) -> PResult<u128> {
        let (signed, width) = match self.ctx.type_kind(ty) {
            TypeKind::Index => (true, 64),
            TypeKind::Integer { width, signedness } => (*signedness == Signedness::Signed, *width),
            _ => (false, 64),
        };
        if width > 128 {
            return Err(self.error_at(
                pos,
                "integers wider than 128 bits are not supported by strata yet",
            ));
        }
        let magnitude = if let Some(hex) = spelling.strip_prefix("0x") {
            u128::from_str_radix(hex, 16).ok()
        } else {
            spelling.parse::<u128>().ok()
        };
        let Some(magnitude) = magnitude else {
            return Err(self.error_at(pos, message));
        };
        let active_bits = 128 - magnitude.leading_zeros();
        if active_bits > width {
            return Err(self.error_at(pos, message));
        }
        if width == 0 {
            return if negative {
                Err(self.error_at(pos, message))
            } else {
                Ok(0)
            };
        }
        let sign_bit = 1u128 << (width - 1);
        if negative {
            let value = crate::attributes::truncate(magnitude.wrapping_neg(), width);
            if value & sign_bit == 0 {
                return Err(self.error_at(pos, message));
            }
            return Ok(value);
        }
        if signed && magnitude & sign_bit != 0 {
            return Err(self.error_at(pos, message));
        }
        Ok(magnitude)
    }

    /// `build_int` for widths above 128 bits.
    fn build_wide_int(
        &mut self,
        ty: Type,
        negative: bool,
        spelling: &str,
        pos: u32,
    ) -> PResult<Vec<u64>> {
        use crate::wide_int;
        let (signed, width) = match self.ctx.type_kind(ty) {
            TypeKind::Integer { width, signedness } => (*signedness == Signedness::Signed, *width),
            _ => (false, 64),
        };
        let message = "integer constant out of range for attribute";
        let Some(magnitude) = wide_int::parse_magnitude(spelling) else {
            return Err(self.error_at(pos, message));
        };
        if wide_int::active_bits(&magnitude) > width {
            return Err(self.error_at(pos, message));
        }
        let magnitude = wide_int::fit(magnitude, width);
        if negative {
            let value = wide_int::negate(&magnitude, width);
            if !wide_int::sign_bit(&value, width) {
                return Err(self.error_at(pos, message));
            }
            return Ok(value);
        }
        if signed && wide_int::sign_bit(&magnitude, width) {
            return Err(self.error_at(pos, message));
        }
        Ok(magnitude)
    }

    /// A decimal float literal converted as MLIR does: through `double`, then
    /// rounded to the target semantics.
    fn float_from_literal(&mut self, elt: Element, kind: FloatKind) -> PResult<u128> {
        if elt.tok.kind == Tok::Integer {
            return self.float_from_integer_literal(elt.tok, elt.negative, kind);
        }
        if elt.tok.kind != Tok::Float {
            return Err(self.error_at(elt.tok.start, "expected floating point literal"));
        }
        let spelling = self.text(elt.tok.start, elt.tok.end);
        // Types wider than f64 get literals with more digits than a double
        // holds (that is how they print): those are rounded directly, so that
        // printed IR reads back to the same value. mlir-opt goes through
        // `double` here too and loses them; for everything else we do as it
        // does: through `double` (overflow becomes infinity), then rounded.
        let significant = spelling
            .bytes()
            .take_while(|&b| b != b'e' && b != b'E')
            .filter(u8::is_ascii_digit)
            .skip_while(|&b| b == b'0')
            .count();
        if kind.bit_width() > 64 && significant > 17 {
            let text = if elt.negative {
                format!("-{spelling}")
            } else {
                spelling.to_string()
            };
            return float::parse_decimal(kind, &text).map_err(|e| {
                self.error_at(
                    elt.tok.start,
                    format!("invalid floating point literal: {e}"),
                )
            });
        }
        let value: f64 = spelling.parse().unwrap_or(f64::INFINITY);
        let value = if elt.negative { -value } else { value };
        Ok(float::from_f64(kind, value))
    }

    fn float_from_integer_literal(
        &mut self,
        tok: Token,
        negative: bool,
        kind: FloatKind,
    ) -> PResult<u128> {
        let spelling = self.text(tok.start, tok.end);
        let Some(hex) = spelling.strip_prefix("0x") else {
            let loc = self.loc_at(tok.start);
            return Err(crate::Diagnostic::error(
                loc,
                "unexpected decimal integer literal for a floating point value",
            )
            .with_note(loc, "add a trailing dot to make the literal a float"));
        };
        if negative {
            return Err(self.error_at(
                tok.start,
                "hexadecimal float literal should not have a leading minus",
            ));
        }
        let digits = hex.trim_start_matches('0');
        let bits = if digits.len() > 32 {
            None
        } else {
            u128::from_str_radix(if digits.is_empty() { "0" } else { digits }, 16).ok()
        };
        match bits {
            Some(bits) if 128 - bits.leading_zeros() <= kind.bit_width() => Ok(bits),
            _ => Err(self.error_at(
                tok.start,
                "hexadecimal float constant out of range for type",
            )),
        }
    }

    fn parse_array_attr(&mut self) -> PResult<Attribute> {
        self.bump();
        let mut elements = Vec::new();
        if !self.consume_if(Tok::RSquare) {
            loop {
                elements.push(self.parse_attribute(None)?);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "',' or ']'")?;
        }
        Ok(self.ctx.array_attr(elements))
    }

    /// `{` (name (`=` attribute)?)* `}`; also used for operation attribute dictionaries.
    pub(crate) fn parse_dictionary_entries(&mut self) -> PResult<Vec<(Ident, Attribute)>> {
        self.expect(Tok::LBrace, "'{'")?;
        let mut entries: Vec<(Ident, Attribute)> = Vec::new();
        if self.consume_if(Tok::RBrace) {
            return Ok(entries);
        }
        loop {
            let name_pos = self.tok.start;
            let name = match self.tok.kind {
                Tok::BareId => self.spelling().to_string(),
                Tok::String => {
                    let bytes = unescape(self.spelling());
                    match String::from_utf8(bytes) {
                        Ok(s) => s,
                        Err(_) => {
                            return Err(self.error_here("attribute names must be valid UTF-8"))
                        }
                    }
                }
                _ => return Err(self.wrong_token("expected attribute name")),
            };
            if name.is_empty() {
                return Err(self.error_here("expected valid attribute name"));
            }
            self.bump();
            let name = self.ctx.ident(&name);
            if entries.iter().any(|(n, _)| *n == name) {
                let text = self.ctx.ident_str(name).to_string();
                return Err(self.error_at(
                    name_pos,
                    format!("duplicate key '{text}' in dictionary attribute"),
                ));
            }
            let value = if self.consume_if(Tok::Equal) {
                self.parse_attribute(None)?
            } else {
                self.ctx.unit_attr()
            };
            entries.push((name, value));
            if !self.consume_if(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace, "'}' in attribute dictionary")?;
        Ok(entries)
    }

    fn parse_dictionary_attr(&mut self) -> PResult<Attribute> {
        let entries = self.parse_dictionary_entries()?;
        Ok(self.ctx.dictionary_attr(entries))
    }

    fn parse_symbol_ref(&mut self) -> PResult<Attribute> {
        let root = self.symbol_name();
        self.bump();
        let mut nested = Vec::new();
        while self.is(Tok::Colon) && self.src.get(self.tok.end as usize) == Some(&b':') {
            // `::` is lexed as two colons; the second must follow immediately.
            self.bump();
            self.bump();
            if !self.is(Tok::AtId) {
                return Err(self.wrong_token("expected nested symbol reference identifier"));
            }
            nested.push(self.symbol_name().into_boxed_slice());
            self.bump();
        }
        Ok(self.ctx.intern_attr(AttrKind::SymbolRef {
            root: root.into(),
            nested: nested.into(),
        }))
    }

    /// The name of an `@name` / `@"name"` token.
    pub(crate) fn symbol_name(&self) -> Vec<u8> {
        let spelling = &self.spelling()[1..];
        if spelling.starts_with('"') {
            unescape(spelling)
        } else {
            spelling.as_bytes().to_vec()
        }
    }

    /// `#alias` or `#dialect.attr<...>` (with an optional `: type`).
    fn parse_extended_attr(&mut self) -> PResult<Attribute> {
        let start = self.tok.start;
        match self.parse_extended_symbol()? {
            ExtendedSymbol::Alias(name) => match self.attr_aliases.get(name) {
                Some(&attr) => Ok(attr),
                None => Err(self.wrong_token(&format!("undefined symbol alias id '{name}'"))),
            },
            ExtendedSymbol::Dialect { dialect, data } => {
                if !self.ctx.allows_unregistered_dialects() {
                    // MLIR points at the symbol data of `!d.x`, at the start of `!d<x>`.
                    let pretty = self.src.get(start as usize + 1 + dialect.len()) == Some(&b'.');
                    let data_pos = if pretty {
                        start + 2 + dialect.len() as u32
                    } else {
                        start
                    };
                    return Err(self.error_at(
                        data_pos,
                        format!("#\"{dialect}\"<\"{data}\"> : 'none' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"),
                    ));
                }
                let ty = if self.consume_if(Tok::Colon) {
                    Some(self.parse_type()?)
                } else {
                    None
                };
                let ty = ty.filter(|&t| !matches!(self.ctx.type_kind(t), TypeKind::None));
                let dialect = self.ctx.ident(dialect);
                Ok(self.ctx.intern_attr(AttrKind::Opaque {
                    dialect,
                    data: data.into(),
                    ty,
                }))
            }
        }
    }

    fn parse_strided_layout(&mut self) -> PResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'strided'")?;
        self.expect(Tok::LSquare, "'['")?;
        let mut strides = Vec::new();
        if !self.consume_if(Tok::RSquare) {
            loop {
                strides.push(self.parse_optional_dynamic_int()?);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "']'")?;
        }
        let mut offset = 0;
        if self.consume_if(Tok::Comma) {
            self.expect_keyword("offset", "expected 'offset' after comma")?;
            self.expect(Tok::Colon, "':' after 'offset'")?;
            offset = self.parse_optional_dynamic_int()?;
        }
        self.expect(Tok::Greater, "'>'")?;
        Ok(self.ctx.intern_attr(AttrKind::Strided {
            strides: strides.into(),
            offset,
        }))
    }

    fn parse_optional_dynamic_int(&mut self) -> PResult<i64> {
        if self.consume_if(Tok::Question) {
            return Ok(DYNAMIC);
        }
        let negative = self.consume_if(Tok::Minus);
        if !self.is(Tok::Integer) {
            return Err(self.wrong_token("expected '?' or integer"));
        }
        let value = self
            .spelling()
            .parse::<i64>()
            .map_err(|_| self.error_here("integer value too large"))?;
        self.bump();
        Ok(if negative { -value } else { value })
    }

    /// `distinct[N]<attr>`: the same `N` in one file is the same attribute.
    fn parse_distinct(&mut self) -> PResult<Attribute> {
        self.bump();
        self.expect(Tok::LSquare, "'[' after 'distinct'")?;
        let id_pos = self.tok.start;
        if !self.is(Tok::Integer) {
            return Err(self.wrong_token("expected distinct ID"));
        }
        let Ok(id) = self.spelling().parse::<u64>() else {
            return Err(self.error_at(
                id_pos,
                format!(
                    "expected an unsigned 64-bit integer, got: {}",
                    self.spelling()
                ),
            ));
        };
        self.bump();
        self.expect(Tok::RSquare, "']' to close distinct ID")?;
        self.expect(Tok::Less, "'<' after distinct ID")?;
        let referenced = if self.is(Tok::Greater) {
            self.ctx.unit_attr()
        } else {
            self.parse_attribute(None)?
        };
        self.expect(Tok::Greater, "'>' to close distinct attribute")?;
        if let Some(&(existing, previous)) = self.distinct_ids.get(&id) {
            if previous != referenced {
                let printed = crate::printer::attribute_to_string(self.ctx, previous);
                return Err(self.error_at(
                    id_pos,
                    format!("referenced attribute does not match previous definition: {printed}"),
                ));
            }
            return Ok(existing);
        }
        let unique = self.ctx.next_distinct_id();
        let attr = self
            .ctx
            .intern_attr(AttrKind::Distinct { unique, referenced });
        self.distinct_ids.insert(id, (attr, referenced));
        Ok(attr)
    }

    /// `dense_resource<key> : type`
    fn parse_dense_resource(&mut self, known_type: Option<Type>) -> PResult<Attribute> {
        let pos = self.tok.start;
        self.bump();
        self.expect(Tok::Less, "'<' after 'dense_resource'")?;
        let key = self.parse_resource_key()?;
        self.expect(Tok::Greater, "'>'")?;
        let (ty, type_pos) = match known_type {
            Some(ty) => (ty, pos),
            None => {
                let type_pos = self.tok.start;
                self.expect(Tok::Colon, "':'")?;
                (self.parse_type()?, type_pos)
            }
        };
        if self.ctx.type_kind(ty).element_type().is_none() {
            return Err(self.error_at(type_pos, "`dense_resource` expected a shaped type"));
        }
        let key = self.ctx.ident(&key);
        Ok(self.ctx.intern_attr(AttrKind::DenseResource { ty, key }))
    }

    // ----- array<T: ...> -----

    fn parse_dense_array(&mut self) -> PResult<Attribute> {
        self.bump();
        self.expect(Tok::Less, "'<' after 'array'")?;
        let type_pos = self.tok.start;
        let element = self.parse_type()?;
        let Some(width) = self.ctx.int_or_float_bit_width(element) else {
            let printed = crate::printer::type_to_string(self.ctx, element);
            return Err(self.error_at(
                type_pos,
                format!("expected integer or float type, got: '{printed}'"),
            ));
        };
        if width != 1 && width % 8 != 0 {
            return Err(self.error_at(type_pos, "element type bitwidth must be a multiple of 8"));
        }
        let mut values = Vec::new();
        if !self.consume_if(Tok::Greater) {
            self.expect(Tok::Colon, "':' after dense array type")?;
            let float_kind = self.ctx.float_kind(element);
            loop {
                let negative = self.consume_if(Tok::Minus);
                let tok = self.tok;
                let value = match float_kind {
                    Some(kind) => {
                        if !matches!(tok.kind, Tok::Float | Tok::Integer) {
                            return Err(self.error_here("expected floating point literal"));
                        }
                        self.float_from_literal(Element { negative, tok }, kind)? as u64
                    }
                    None => match tok.kind {
                        Tok::BareId if matches!(self.spelling(), "true" | "false") => {
                            if width != 1 {
                                return Err(self
                                    .error_here("expected i1 type for 'true' or 'false' values"));
                            }
                            u64::from(self.spelling() == "true")
                        }
                        Tok::Integer => {
                            let spelling = self.spelling();
                            self.build_int(
                                element,
                                negative,
                                spelling,
                                tok.start,
                                "integer constant out of range",
                            )? as u64
                        }
                        _ => return Err(self.error_here("expected integer literal")),
                    },
                };
                self.bump();
                values.push(value);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Greater, "'>' to close an array attribute")?;
        }
        Ok(self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: values.into(),
        }))
    }

    // ----- dense<...> -----

    fn parse_dense_elements(&mut self, known_type: Option<Type>) -> PResult<Attribute> {
        let attr_pos = self.tok.start;
        self.bump();
        self.expect(Tok::Less, "'<' after 'dense'")?;
        let mut elements = Vec::new();
        let mut shape: Vec<i64> = Vec::new();
        let mut hex: Option<Token> = None;
        if !self.consume_if(Tok::Greater) {
            match self.tok.kind {
                Tok::LSquare => self.parse_tensor_literal_list(&mut elements, &mut shape)?,
                Tok::String if self.spelling().starts_with("\"0x") => {
                    hex = Some(self.tok);
                    self.bump();
                }
                _ => self.parse_tensor_literal_element(&mut elements)?,
            }
            self.expect(Tok::Greater, "'>'")?;
        }
        let ty = match known_type {
            Some(ty) => ty,
            None => {
                self.expect(Tok::Colon, "':'")?;
                self.parse_type()?
            }
        };
        let (type_shape, element_type) = match self.ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, element, .. }
            | TypeKind::Vector { shape, element, .. } => (shape.clone(), *element),
            TypeKind::MemRef { shape, element, .. } => (shape.clone(), *element),
            TypeKind::UnrankedTensor { .. } | TypeKind::UnrankedMemRef { .. } => {
                return Err(self.error_at(attr_pos, "elements literal type must have static shape"));
            }
            _ => return Err(self.error_at(attr_pos, "elements literal must be a shaped type")),
        };
        if type_shape.contains(&DYNAMIC) {
            return Err(self.error_at(attr_pos, "elements literal type must have static shape"));
        }
        let num_elements = crate::types::num_elements(&type_shape);
        let storage = dense_storage_bytes(self.ctx, element_type);
        if let Some(hex) = hex {
            return self.dense_from_hex(attr_pos, hex, ty, element_type, num_elements);
        }
        if !shape.is_empty() && shape != type_shape {
            return Err(self.error_at(
                attr_pos,
                format!(
                    "inferred shape of elements literal ([{}]) does not match type ([{}])",
                    join_dims(&shape),
                    join_dims(&type_shape)
                ),
            ));
        }
        if elements.is_empty() && num_elements != 0 {
            let printed = crate::printer::type_to_string(self.ctx, ty);
            return Err(self.error_at(
                attr_pos,
                format!("parsed zero elements, but type ('{printed}') expected at least 1"),
            ));
        }
        let Some(storage) = storage else {
            return self.dense_strings(attr_pos, ty, &elements);
        };
        let (scalar_type, complex) = match self.ctx.type_kind(element_type) {
            TypeKind::Complex(inner) => (*inner, true),
            _ => (element_type, false),
        };
        if complex {
            let expected = if shape.is_empty() && num_elements != 0 {
                2
            } else {
                (num_elements as usize).saturating_mul(2)
            };
            if elements.len() != expected {
                let printed = if shape.is_empty() {
                    crate::printer::type_to_string(self.ctx, element_type)
                } else {
                    crate::printer::type_to_string(self.ctx, ty)
                };
                return Err(self.error_at(
                    attr_pos,
                    format!(
                        "parsed {} elements, but type ('{printed}') expected {expected} elements",
                        elements.len()
                    ),
                ));
            }
        }
        let scalar_bytes = if complex { storage / 2 } else { storage };
        let mut raw = Vec::with_capacity(elements.len() * scalar_bytes);
        for elt in &elements {
            let bits = self.dense_element_bits(*elt, scalar_type)?;
            raw.extend_from_slice(&bits.to_le_bytes()[..scalar_bytes]);
        }
        let parsed = raw.len() / scalar_bytes.max(1) / if complex { 2 } else { 1 };
        if parsed != 1 && parsed as u64 != num_elements {
            let printed = crate::printer::type_to_string(self.ctx, ty);
            return Err(self.error_at(
                attr_pos,
                format!("parsed {parsed} elements, but type ('{printed}') expected {num_elements} elements"),
            ));
        }
        Ok(self.make_dense(ty, raw, storage))
    }

    /// Intern a dense attribute, storing it as a splat when all elements are equal.
    fn make_dense(&mut self, ty: Type, mut raw: Vec<u8>, storage: usize) -> Attribute {
        // Zero-width elements have no storage in MLIR, so they are never a splat.
        let zero_width = self
            .ctx
            .type_kind(ty)
            .element_type()
            .and_then(|e| self.ctx.int_or_float_bit_width(e))
            == Some(0);
        let splat =
            !zero_width && !raw.is_empty() && raw.chunks(storage).all(|c| c == &raw[..storage]);
        if splat {
            raw.truncate(storage);
        }
        self.ctx.intern_attr(AttrKind::DenseElements {
            ty,
            data: DenseData {
                raw: raw.into(),
                splat,
            },
        })
    }

    fn dense_element_bits(&mut self, elt: Element, ty: Type) -> PResult<u128> {
        if let Some(kind) = self.ctx.float_kind(ty) {
            return self.float_from_literal(elt, kind);
        }
        let spelling = self.text(elt.tok.start, elt.tok.end);
        if elt.negative && self.is_unsigned(ty) {
            return Err(self.error_at(
                elt.tok.start,
                "expected unsigned integer elements, but parsed negative value",
            ));
        }
        match elt.tok.kind {
            Tok::Float => Err(self.error_at(
                elt.tok.start,
                "expected integer elements, but parsed floating-point",
            )),
            Tok::BareId => {
                if self.ctx.int_or_float_bit_width(ty) != Some(1)
                    || self.ctx.type_kind(ty) == &TypeKind::Index
                {
                    return Err(self.error_at(
                        elt.tok.start,
                        "expected i1 type for 'true' or 'false' values",
                    ));
                }
                Ok(u128::from(spelling == "true"))
            }
            Tok::Integer => self.build_int(
                ty,
                elt.negative,
                spelling,
                elt.tok.start,
                "integer constant out of range for type",
            ),
            _ => Err(self.error_at(elt.tok.start, "expected integer elements")),
        }
    }

    fn dense_strings(&mut self, pos: u32, ty: Type, elements: &[Element]) -> PResult<Attribute> {
        let mut values = Vec::with_capacity(elements.len());
        for elt in elements {
            if elt.tok.kind != Tok::String {
                return Err(
                    self.error_at(elt.tok.start, "expected string token, got non-string token")
                );
            }
            values.push(unescape(self.text(elt.tok.start, elt.tok.end)).into_boxed_slice());
        }
        if values.is_empty() {
            return Err(self.error_at(pos, "expected string elements"));
        }
        if values.iter().all(|v| *v == values[0]) {
            values.truncate(1);
        }
        Ok(self.ctx.intern_attr(AttrKind::DenseStrings {
            ty,
            values: values.into(),
        }))
    }

    fn dense_from_hex(
        &mut self,
        pos: u32,
        hex: Token,
        ty: Type,
        element: Type,
        num_elements: u64,
    ) -> PResult<Attribute> {
        let Some(storage) = dense_storage_bytes(self.ctx, element) else {
            let printed = crate::printer::type_to_string(self.ctx, element);
            return Err(self.error_at(
                pos,
                format!("expected floating-point, integer, or complex element type, got {printed}"),
            ));
        };
        let text = self.text(hex.start + 3, hex.end - 1);
        if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.error_at(
                hex.start,
                "expected string containing hex digits starting with `0x`",
            ));
        }
        let data: Vec<u8> = text
            .as_bytes()
            .chunks(2)
            .map(|pair| {
                let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                digit(pair[0]) * 16 + digit(pair[1])
            })
            .collect();
        let is_bool = self.ctx.int_or_float_bit_width(element) == Some(1)
            && matches!(self.ctx.type_kind(element), TypeKind::Integer { .. });
        let invalid = || {
            let printed = crate::printer::type_to_string(self.ctx, ty);
            format!("elements hex data size is invalid for provided type: '{printed}'")
        };
        if is_bool {
            if data.len() == 1 && (data[0] == 0 || data[0] == 0xFF) {
                return Ok(self.make_dense(ty, vec![u8::from(data[0] != 0)], 1));
            }
            if data.len() as u64 != num_elements.div_ceil(8) {
                let message = invalid();
                return Err(self.error_at(pos, message));
            }
            let raw = (0..num_elements)
                .map(|i| (data[(i / 8) as usize] >> (i % 8)) & 1)
                .collect();
            return Ok(self.make_dense(ty, raw, 1));
        }
        if data.len() == storage {
            return Ok(self.make_dense(ty, data, storage));
        }
        if Some(data.len() as u64) != (storage as u64).checked_mul(num_elements) {
            let message = invalid();
            return Err(self.error_at(pos, message));
        }
        Ok(self.make_dense(ty, data, storage))
    }

    fn parse_tensor_literal_list(
        &mut self,
        elements: &mut Vec<Element>,
        dims: &mut Vec<i64>,
    ) -> PResult<()> {
        self.enter_nesting()?;
        let result = self.parse_tensor_literal_list_inner(elements, dims);
        self.depth -= 1;
        result
    }

    fn parse_tensor_literal_list_inner(
        &mut self,
        elements: &mut Vec<Element>,
        dims: &mut Vec<i64>,
    ) -> PResult<()> {
        self.expect(Tok::LSquare, "'['")?;
        let mut size = 0i64;
        let mut inner: Option<Vec<i64>> = None;
        if !self.consume_if(Tok::RSquare) {
            loop {
                let mut this = Vec::new();
                if self.is(Tok::LSquare) {
                    self.parse_tensor_literal_list(elements, &mut this)?;
                } else {
                    self.parse_tensor_literal_element(elements)?;
                }
                size += 1;
                match &inner {
                    Some(prev) if *prev != this => {
                        return Err(self.error_here(
                            "tensor literal is invalid; ranks are not consistent between elements",
                        ));
                    }
                    Some(_) => {}
                    None => inner = Some(this),
                }
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "']'")?;
        }
        dims.clear();
        dims.push(size);
        dims.extend(inner.unwrap_or_default());
        Ok(())
    }

    fn parse_tensor_literal_element(&mut self, elements: &mut Vec<Element>) -> PResult<()> {
        match self.tok.kind {
            Tok::Float | Tok::Integer | Tok::String => {}
            Tok::BareId if matches!(self.spelling(), "true" | "false") => {}
            Tok::Minus => {
                self.bump();
                if !matches!(self.tok.kind, Tok::Float | Tok::Integer) {
                    return Err(self.error_here("expected integer or floating point literal"));
                }
                elements.push(Element {
                    negative: true,
                    tok: self.tok,
                });
                self.bump();
                return Ok(());
            }
            Tok::LParen => {
                self.bump();
                self.parse_tensor_literal_element(elements)?;
                self.expect(Tok::Comma, "',' between complex elements")?;
                self.parse_tensor_literal_element(elements)?;
                self.expect(Tok::RParen, "')' after complex elements")?;
                return Ok(());
            }
            _ => return Err(self.error_here("expected element literal of primitive type")),
        }
        elements.push(Element {
            negative: false,
            tok: self.tok,
        });
        self.bump();
        Ok(())
    }

    // ----- locations -----

    /// The inside of `loc(...)`.
    pub(crate) fn parse_location_instance(&mut self) -> PResult<Location> {
        self.enter_nesting()?;
        let result = self.parse_location_instance_inner();
        self.depth -= 1;
        result
    }

    pub(crate) fn parse_location_instance_inner(&mut self) -> PResult<Location> {
        match self.tok.kind {
            Tok::HashId => {
                let start = self.tok.start;
                let attr = self.parse_extended_attr()?;
                if !self.ctx.is_location(attr) {
                    let printed = crate::printer::attribute_to_string(self.ctx, attr);
                    return Err(self.error_at(
                        start,
                        format!("expected location attribute, but got{printed}"),
                    ));
                }
                Ok(attr)
            }
            Tok::String => self.parse_name_or_file_loc(),
            Tok::BareId => match self.spelling() {
                "callsite" => self.parse_callsite_loc(),
                "fused" => self.parse_fused_loc(),
                "unknown" => {
                    self.bump();
                    Ok(self.ctx.unknown_loc())
                }
                _ => Err(self.wrong_token("expected location instance")),
            },
            _ => Err(self.wrong_token("expected location instance")),
        }
    }

    fn parse_location_number(&mut self, message: &str) -> PResult<u32> {
        if !self.is(Tok::Integer) {
            return Err(self.wrong_token(message));
        }
        let value = self
            .spelling()
            .parse::<u32>()
            .map_err(|_| self.error_here(message.to_string()))?;
        self.bump();
        Ok(value)
    }

    fn parse_name_or_file_loc(&mut self) -> PResult<Location> {
        let name = unescape(self.spelling());
        self.bump();
        if self.consume_if(Tok::Colon) {
            let line =
                self.parse_location_number("expected integer line number in FileLineColRange")?;
            if !self.consume_if(Tok::Colon) {
                return Ok(self.file_loc(name, line, 0, None));
            }
            let col =
                self.parse_location_number("expected integer column number in FileLineColRange")?;
            if !self.consume_keyword("to") {
                return Ok(self.file_loc(name, line, col, None));
            }
            let mut end_line = line;
            if self.is(Tok::Integer) {
                end_line =
                    self.parse_location_number("expected integer line number in FileLineColRange")?;
            }
            if !self.consume_if(Tok::Colon) {
                return Err(self
                    .wrong_token("expected either integer or `:` post `to` in FileLineColRange"));
            }
            let end_col =
                self.parse_location_number("expected integer column number in FileLineColRange")?;
            return Ok(self.file_loc(name, line, col, Some((end_line, end_col))));
        }
        let mut child = None;
        if self.consume_if(Tok::LParen) {
            let loc = self.parse_location_instance()?;
            self.expect(Tok::RParen, "')' after child location of NameLoc")?;
            if !matches!(
                self.ctx.attr_kind(loc),
                AttrKind::Location(LocKind::Unknown)
            ) {
                child = Some(loc);
            }
        }
        Ok(self.ctx.intern_attr(AttrKind::Location(LocKind::Name {
            name: name.into(),
            child,
        })))
    }

    fn file_loc(
        &mut self,
        file: Vec<u8>,
        line: u32,
        col: u32,
        end: Option<(u32, u32)>,
    ) -> Location {
        let end = end.filter(|&e| e != (line, col));
        // File names are interned strings; a name that is not UTF-8 is kept lossily.
        let file = self.ctx.ident(&String::from_utf8_lossy(&file));
        self.ctx
            .intern_attr(AttrKind::Location(LocKind::FileLineCol {
                file,
                line,
                col,
                end,
            }))
    }

    fn parse_callsite_loc(&mut self) -> PResult<Location> {
        self.bump();
        self.expect(Tok::LParen, "'(' in callsite location")?;
        let callee = self.parse_location_instance()?;
        self.expect_keyword("at", "expected 'at' in callsite location")?;
        let caller = self.parse_location_instance()?;
        self.expect(Tok::RParen, "')' in callsite location")?;
        Ok(self
            .ctx
            .intern_attr(AttrKind::Location(LocKind::CallSite { callee, caller })))
    }

    fn parse_fused_loc(&mut self) -> PResult<Location> {
        self.bump();
        let mut metadata = None;
        if self.consume_if(Tok::Less) {
            metadata = Some(self.parse_attribute(None)?);
            self.expect(Tok::Greater, "'>' after fused location metadata")?;
        }
        self.expect(Tok::LSquare, "'[' in fused location")?;
        let mut locs = Vec::new();
        if !self.consume_if(Tok::RSquare) {
            loop {
                locs.push(self.parse_location_instance()?);
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RSquare, "']' in fused location")?;
        }
        Ok(self.ctx.fused_loc(&locs, metadata))
    }
}

fn join_dims(dims: &[i64]) -> String {
    dims.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
