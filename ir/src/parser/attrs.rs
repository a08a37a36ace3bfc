//! Parsing builtin attributes (mlir/lib/AsmParser/AttributeParser.cpp); dense
//! elements are in `dense.rs`, locations in `locations.rs`.

use super::lexer::{Tok, Token};
use super::types::ExtendedSymbol;
use super::{unescape, PResult, Parser};
use crate::attributes::AttrKind;
use crate::context::{Attribute, Ident, Type};
use crate::float::{self, FloatKind};
use crate::types::{Signedness, TypeKind, DYNAMIC};

/// A parsed numeric literal (with its sign) of an attribute or a `dense<...>` element.
#[derive(Clone, Copy)]
pub(super) struct Element {
    pub(super) negative: bool,
    pub(super) tok: Token,
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
                "affine_map" | "affine_set" => self.parse_affine(),
                "sparse" => self.parse_sparse_elements(ty),
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

    pub(super) fn is_unsigned(&self, ty: Type) -> bool {
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
    pub(super) fn build_int(
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
    pub(super) fn float_from_literal(&mut self, elt: Element, kind: FloatKind) -> PResult<u128> {
        if elt.tok.kind == Tok::Integer {
            return self.float_from_integer_literal(elt.tok, elt.negative, kind);
        }
        if elt.tok.kind != Tok::Float {
            return Err(self.error_at(elt.tok.start, "expected floating point literal"));
        }
        let spelling = self.text(elt.tok.start, elt.tok.end);
        // Types wider than f64 are rounded directly from the decimal text, so
        // that every printed value reads back to itself. (mlir-opt goes
        // through `double` here, which loses their extra precision and range:
        // its own output does not always read back.) Everything else goes
        // through `double` as in mlir-opt: overflow becomes infinity.
        if kind.bit_width() > 64 {
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
    pub(super) fn parse_extended_attr(&mut self) -> PResult<Attribute> {
        let start = self.tok.start;
        match self.parse_extended_symbol()? {
            ExtendedSymbol::Alias(name) => match self.attr_aliases.get(name) {
                Some(&attr) => Ok(attr),
                None => Err(self.wrong_token(&format!("undefined symbol alias id '{name}'"))),
            },
            ExtendedSymbol::Dialect { dialect, data } => {
                if let Some(parse) = self.ctx.registry().attr_parser(dialect) {
                    // `#dialect.` precedes the body.
                    let body_start = start + 2 + dialect.len() as u32;
                    return parse(self.ctx, &data).map_err(|errors| {
                        let mut errors = errors.into_iter();
                        let (offset, message) = errors
                            .next()
                            .unwrap_or((0, "invalid attribute".to_string()));
                        let mut diag = self.error_at(body_start + offset as u32, message);
                        for (offset, message) in errors {
                            let follow_up = self.error_at(body_start + offset as u32, message);
                            diag.notes.push(follow_up);
                        }
                        diag
                    });
                }
                self.check_opaque_symbol(start, dialect, || {
                    format!("#\"{dialect}\"<\"{data}\"> : 'none' attribute")
                })?;
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
        if !self.consume_if(Tok::Greater) {
            self.expect(Tok::Comma, "','")?;
            self.expect_keyword("offset", "expected 'offset' after comma")?;
            self.expect(Tok::Colon, "':' after 'offset'")?;
            offset = self.parse_optional_dynamic_int()?;
            self.expect(Tok::Greater, "'>'")?;
        }
        Ok(self.ctx.intern_attr(AttrKind::Strided {
            strides: strides.into(),
            offset,
        }))
    }

    fn parse_optional_dynamic_int(&mut self) -> PResult<i64> {
        if self.consume_if(Tok::Question) {
            return Ok(DYNAMIC);
        }
        const MESSAGE: &str = "expected a 64-bit signed integer or '?'";
        let negative = self.consume_if(Tok::Minus);
        if !self.is(Tok::Integer) {
            return Err(self.error_here(MESSAGE));
        }
        let digits = self.spelling();
        let value = if negative {
            format!("-{digits}").parse::<i64>()
        } else {
            digits.parse::<i64>()
        };
        let value = value.map_err(|_| self.error_here(MESSAGE))?;
        self.bump();
        Ok(value)
    }

    /// `affine_map<...>` or `affine_set<...>`, parsed by the affine parser on
    /// the text after `<`.
    fn parse_affine(&mut self) -> PResult<Attribute> {
        let is_map = self.spelling() == "affine_map";
        self.bump();
        if !self.is(Tok::Less) {
            let what = if is_map { "affine_map" } else { "affine_set" };
            return Err(self.wrong_token(&format!("expected '<' after '{what}'")));
        }
        let body_start = self.tok.end as usize;
        let text = std::str::from_utf8(&self.src[body_start..]).unwrap_or("");
        let parsed = if is_map {
            crate::affine::parse_affine_map_prefix(text).map(|(m, n)| (AttrKind::AffineMap(m), n))
        } else {
            crate::affine::parse_integer_set_prefix(text).map(|(s, n)| (AttrKind::IntegerSet(s), n))
        };
        match parsed {
            Ok((kind, consumed)) => {
                self.lexer.reset(body_start + consumed);
                self.bump();
                Ok(self.ctx.intern_attr(kind))
            }
            Err(e) => Err(self.error_at((body_start + e.offset) as u32, e.message)),
        }
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
}
