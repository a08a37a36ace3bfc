//! Parsing builtin and dialect types (mlir/lib/AsmParser/TypeParser.cpp).

use super::lexer::Tok;
use super::{PResult, Parser};
use crate::context::Type;
use crate::float::FloatKind;
use crate::types::{Signedness, TypeKind, DYNAMIC};

/// The largest integer width MLIR accepts.
const MAX_INT_WIDTH: u64 = 16_777_215;

impl<'a> Parser<'a> {
    /// type ::= function-type | non-function-type
    pub(crate) fn parse_type(&mut self) -> PResult<Type> {
        self.enter_nesting()?;
        let result = self.parse_type_inner();
        self.depth -= 1;
        result
    }

    pub(crate) fn parse_type_inner(&mut self) -> PResult<Type> {
        if self.is(Tok::LParen) {
            return self.parse_function_type();
        }
        self.parse_non_function_type()
    }

    /// `(inputs) -> results`
    pub(crate) fn parse_function_type(&mut self) -> PResult<Type> {
        let inputs = self.parse_type_list_parens()?;
        self.expect(Tok::Arrow, "'->' in function type")?;
        let results = self.parse_function_result_types()?;
        Ok(self.ctx.function_type(inputs, results))
    }

    fn parse_function_result_types(&mut self) -> PResult<Vec<Type>> {
        if self.is(Tok::LParen) {
            return self.parse_type_list_parens();
        }
        Ok(vec![self.parse_non_function_type()?])
    }

    /// `(` `)` or `(` type (`,` type)* `)`
    pub(crate) fn parse_type_list_parens(&mut self) -> PResult<Vec<Type>> {
        self.expect(Tok::LParen, "'('")?;
        let mut types = Vec::new();
        if self.consume_if(Tok::RParen) {
            return Ok(types);
        }
        loop {
            types.push(self.parse_type()?);
            if !self.consume_if(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "')'")?;
        Ok(types)
    }

    /// A comma separated list of types without delimiters (at least one).
    pub(crate) fn parse_type_list_no_parens(&mut self) -> PResult<Vec<Type>> {
        let mut types = vec![self.parse_type()?];
        while self.consume_if(Tok::Comma) {
            types.push(self.parse_type()?);
        }
        Ok(types)
    }

    /// Every type but function types.
    pub(crate) fn parse_non_function_type(&mut self) -> PResult<Type> {
        match self.tok.kind {
            Tok::BangId => self.parse_extended_type(),
            Tok::BareId => self.parse_builtin_type(),
            Tok::LParen => Err(self.wrong_token("expected non-function type")),
            _ => Err(self.wrong_token("expected non-function type")),
        }
    }

    fn parse_builtin_type(&mut self) -> PResult<Type> {
        let word = self.spelling();
        if let Some(kind) = FloatKind::from_mlir_name(word) {
            self.bump();
            return Ok(self.ctx.float_type(kind));
        }
        match word {
            "index" => {
                self.bump();
                return Ok(self.ctx.index_type());
            }
            "none" => {
                self.bump();
                return Ok(self.ctx.none_type());
            }
            "tensor" => return self.parse_tensor_type(),
            "memref" => return self.parse_memref_type(),
            "vector" => return self.parse_vector_type(),
            "complex" => return self.parse_complex_type(),
            "tuple" => return self.parse_tuple_type(),
            _ => {}
        }
        let (signedness, digits) = if let Some(d) = word.strip_prefix("si") {
            (Signedness::Signed, d)
        } else if let Some(d) = word.strip_prefix("ui") {
            (Signedness::Unsigned, d)
        } else if let Some(d) = word.strip_prefix('i') {
            (Signedness::Signless, d)
        } else {
            return Err(self.wrong_token("expected non-function type"));
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.wrong_token("expected non-function type"));
        }
        // A width that does not fit 32 bits is invalid; a larger one than
        // MLIR's limit is refused with the limit (as MLIR's parser).
        let Ok(width) = digits.parse::<u32>().map(u64::from) else {
            return Err(self.error_here("invalid integer width"));
        };
        if width > MAX_INT_WIDTH {
            return Err(self.error_here(format!(
                "integer bitwidth is limited to {MAX_INT_WIDTH} bits"
            )));
        }
        self.bump();
        Ok(self.ctx.intern_type(TypeKind::Integer {
            width: width as u32,
            signedness,
        }))
    }

    /// `!alias`, `!dialect.type<body>` or `!dialect<body>`.
    fn parse_extended_type(&mut self) -> PResult<Type> {
        let start = self.tok.start;
        let (dialect, data) = match self.parse_extended_symbol()? {
            ExtendedSymbol::Alias(name) => {
                return match self.type_aliases.get(name) {
                    Some(&ty) => Ok(ty),
                    None => Err(self.wrong_token(&format!("undefined symbol alias id '{name}'"))),
                };
            }
            ExtendedSymbol::Dialect { dialect, data } => (dialect, data),
        };
        if let Some(parse) = self.ctx.registry().type_parser(dialect) {
            // `!dialect.` precedes the body.
            let body_start = start + 2 + dialect.len() as u32;
            return parse(self.ctx, &data).map_err(|errors| {
                let mut errors = errors.into_iter();
                let (offset, message) = errors.next().unwrap_or((0, "invalid type".to_string()));
                let mut diag = self.error_at(body_start + offset as u32, message);
                for (offset, message) in errors {
                    let follow_up = self.error_at(body_start + offset as u32, message);
                    diag.notes.push(follow_up);
                }
                diag
            });
        }
        self.check_opaque_symbol(start, dialect, || {
            format!("`!\"{dialect}\"<\"{data}\">` type")
        })?;
        let dialect = self.ctx.ident(dialect);
        Ok(self.ctx.intern_type(TypeKind::Opaque {
            dialect,
            data: data.into(),
            params: Vec::new(),
        }))
    }

    /// Checks for a dialect type or attribute kept opaque (MLIR's
    /// `OpaqueType::verify` / `OpaqueAttr::verify`): a valid namespace, and
    /// unknown dialects only when allowed. `what` names it in the message.
    pub(crate) fn check_opaque_symbol(
        &mut self,
        start: u32,
        dialect: &str,
        what: impl FnOnce() -> String,
    ) -> PResult<()> {
        // MLIR points at the symbol data of `!d.x`, at the start of `!d<x>`.
        let pretty = self.src.get(start as usize + 1 + dialect.len()) == Some(&b'.');
        let data_pos = if pretty {
            start + 2 + dialect.len() as u32
        } else {
            start
        };
        let valid = dialect.bytes().enumerate().all(|(i, c)| {
            c.is_ascii_alphabetic() || c == b'_' || (i > 0 && (c.is_ascii_digit() || c == b'$'))
        }) && !dialect.is_empty();
        if !valid {
            let mut quoted = String::new();
            crate::printer::write_string_literal(&mut quoted, dialect.as_bytes());
            return Err(self.error_at(data_pos, format!("invalid dialect namespace '{quoted}'")));
        }
        if !self.ctx.allows_unregistered_dialects() {
            let what = what();
            return Err(self.error_at(
                data_pos,
                format!("{what} created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"),
            ));
        }
        Ok(())
    }

    /// After `!` or `#`: an alias name, or a dialect symbol with its verbatim body.
    pub(crate) fn parse_extended_symbol(&mut self) -> PResult<ExtendedSymbol<'a>> {
        let identifier = &self.spelling()[1..];
        let id_end = self.tok.end;
        self.bump();
        let (dialect, rest) = identifier.split_once('.').unwrap_or((identifier, ""));
        let is_pretty = identifier.contains('.');
        let has_body = self.is(Tok::Less) && self.tok.start == id_end;
        if !has_body && !is_pretty {
            return Ok(ExtendedSymbol::Alias(identifier));
        }
        if !is_pretty {
            let body = self.parse_dialect_symbol_body()?;
            return Ok(ExtendedSymbol::Dialect {
                dialect,
                data: body[1..body.len() - 1].to_string(),
            });
        }
        let mut data = rest.to_string();
        if has_body {
            data.push_str(self.parse_dialect_symbol_body()?);
        }
        Ok(ExtendedSymbol::Dialect { dialect, data })
    }

    /// The verbatim text of a `<...>` body with balanced brackets and strings
    /// (MLIR's `parseDialectSymbolBody`).
    pub(super) fn parse_dialect_symbol_body(&mut self) -> PResult<&'a str> {
        let start = self.tok.start as usize;
        let src = self.src;
        let mut nested: Vec<u8> = Vec::new();
        let mut i = start;
        loop {
            let Some(&c) = src.get(i) else {
                return Err(match nested.last() {
                    Some(&open) => self.error_here(format!(
                        "unbalanced '{}' character in pretty dialect name",
                        open as char
                    )),
                    None => self.error_here("unexpected nul or EOF in pretty dialect name"),
                });
            };
            i += 1;
            let open = match c {
                b'<' | b'[' | b'(' | b'{' => {
                    nested.push(c);
                    continue;
                }
                b'-' => {
                    if src.get(i) == Some(&b'>') {
                        i += 1;
                    }
                    continue;
                }
                b'>' => b'<',
                b']' => b'[',
                b')' => b'(',
                b'}' => b'{',
                b'"' => {
                    let mut closed = false;
                    while let Some(&s) = src.get(i) {
                        i += 1;
                        if s == b'\\' {
                            i += 1;
                        } else if s == b'"' {
                            closed = true;
                            break;
                        } else if s == b'\n' {
                            break;
                        }
                    }
                    if !closed {
                        return Err(
                            self.error_at((i - 1) as u32, "expected '\"' in string literal")
                        );
                    }
                    if nested.is_empty() {
                        break;
                    }
                    continue;
                }
                b'\0' => {
                    return Err(self.error_here("unexpected nul or EOF in pretty dialect name"));
                }
                _ => continue,
            };
            match nested.last() {
                Some(&top) if top == open => {
                    nested.pop();
                }
                Some(&top) => {
                    return Err(self.error_here(format!(
                        "unbalanced '{}' character in pretty dialect name",
                        top as char
                    )))
                }
                None => break,
            }
            if nested.is_empty() {
                break;
            }
        }
        self.lexer.reset(i);
        self.bump();
        Ok(self.text(start as u32, i as u32))
    }

    fn parse_tensor_type(&mut self) -> PResult<Type> {
        self.bump();
        self.expect(Tok::Less, "'<' in tensor type")?;
        let unranked = self.consume_if(Tok::Star);
        let mut shape = Vec::new();
        if unranked {
            self.parse_x_in_dimension_list()?;
        } else {
            self.parse_dimension_list(&mut shape, None)?;
        }
        let elem_pos = self.tok.start;
        let element = self.parse_type()?;
        let mut encoding = None;
        if self.consume_if(Tok::Comma) {
            encoding = Some(self.parse_attribute(None)?);
        }
        self.expect(Tok::Greater, "'>' in tensor type")?;
        if !self.is_valid_tensor_element(element) {
            return Err(self.error_at(elem_pos, "invalid tensor element type"));
        }
        if unranked {
            if encoding.is_some() {
                return Err(self.error_here("cannot apply encoding to unranked tensor"));
            }
            return Ok(self.ctx.intern_type(TypeKind::UnrankedTensor { element }));
        }
        Ok(self.ctx.intern_type(TypeKind::RankedTensor {
            shape,
            element,
            encoding,
        }))
    }

    fn is_valid_tensor_element(&self, ty: Type) -> bool {
        matches!(
            self.ctx.type_kind(ty),
            TypeKind::Integer { .. }
                | TypeKind::Index
                | TypeKind::Float(_)
                | TypeKind::Complex(_)
                | TypeKind::Vector { .. }
                | TypeKind::Opaque { .. }
        )
    }

    fn parse_memref_type(&mut self) -> PResult<Type> {
        let start = self.tok.start;
        self.bump();
        self.expect(Tok::Less, "'<' in memref type")?;
        let unranked = self.consume_if(Tok::Star);
        let mut shape = Vec::new();
        if unranked {
            self.parse_x_in_dimension_list()?;
        } else {
            self.parse_dimension_list(&mut shape, None)?;
        }
        let elem_pos = self.tok.start;
        let element = self.parse_type()?;
        let valid = matches!(
            self.ctx.type_kind(element),
            TypeKind::Integer { .. }
                | TypeKind::Index
                | TypeKind::Float(_)
                | TypeKind::Complex(_)
                | TypeKind::Vector { .. }
                | TypeKind::MemRef { .. }
                | TypeKind::UnrankedMemRef { .. }
                | TypeKind::Opaque { .. }
        );
        if !valid {
            return Err(self.error_at(elem_pos, "invalid memref element type"));
        }
        let mut layout = None;
        let mut memory_space = None;
        if !self.consume_if(Tok::Greater) {
            self.expect(Tok::Comma, "',' or '>' in memref type")?;
            // MLIR's `parseCommaSeparatedListUntil` without an empty list.
            if self.is(Tok::Greater) {
                return Err(self.wrong_token("expected list element"));
            }
            loop {
                let attr = self.parse_attribute(None)?;
                let is_layout = matches!(
                    self.ctx.attr_kind(attr),
                    crate::attributes::AttrKind::Strided { .. }
                        | crate::attributes::AttrKind::AffineMap(_)
                );
                if is_layout {
                    if unranked {
                        return Err(
                            self.error_here("cannot have affine map for unranked memref type")
                        );
                    }
                    if memory_space.is_some() {
                        return Err(
                            self.error_here("expected memory space to be last in memref type")
                        );
                    }
                    layout = Some(attr);
                } else if memory_space.is_some() {
                    return Err(self.error_here("multiple memory spaces specified in memref type"));
                } else {
                    memory_space = Some(attr);
                }
                if !self.consume_if(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Greater, "',' or '>' in memref type")?;
        }
        // An affine-map layout takes one dimension per memref dimension; the
        // identity map is the default layout and is not stored, as in MLIR.
        if let Some(l) = layout {
            if let crate::attributes::AttrKind::Strided { strides, .. } = self.ctx.attr_kind(l) {
                if strides.len() != shape.len() {
                    return Err(
                        self.error_at(start, "expected the number of strides to match the rank")
                    );
                }
            }
            if let crate::attributes::AttrKind::AffineMap(map) = self.ctx.attr_kind(l) {
                if map.num_dims as usize != shape.len() {
                    return Err(self.error_at(
                        start,
                        format!(
                            "memref layout mismatch between rank and affine map: {} != {}",
                            shape.len(),
                            map.num_dims
                        ),
                    ));
                }
                if map.is_identity() {
                    layout = None;
                }
            }
        }
        // Integer, string and dictionary attributes (or another dialect's) name
        // a memory space, as MLIR's `isSupportedMemorySpace`.
        if let Some(space) = memory_space {
            use crate::attributes::AttrKind;
            if !matches!(
                self.ctx.attr_kind(space),
                AttrKind::Integer { .. } | AttrKind::String { .. } | AttrKind::Dictionary(_)
            ) {
                return Err(self.error_at(start, "unsupported memory space Attribute"));
            }
        }
        // The default memory space (integer 0) is not stored, as in MLIR.
        if let Some(space) = memory_space {
            if let crate::attributes::AttrKind::Integer { value: 0, .. } = self.ctx.attr_kind(space)
            {
                memory_space = None;
            }
        }
        let kind = if unranked {
            TypeKind::UnrankedMemRef {
                element,
                memory_space,
            }
        } else {
            TypeKind::MemRef {
                shape,
                element,
                layout,
                memory_space,
            }
        };
        Ok(self.ctx.intern_type(kind))
    }

    fn parse_vector_type(&mut self) -> PResult<Type> {
        let start = self.tok.start;
        self.bump();
        self.expect(Tok::Less, "'<' in vector type")?;
        let mut shape = Vec::new();
        let mut scalable = Vec::new();
        self.parse_dimension_list(&mut shape, Some(&mut scalable))?;
        let element = self.parse_type()?;
        self.expect(Tok::Greater, "'>' in vector type")?;
        if shape.iter().any(|&d| d <= 0) {
            let sizes: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            return Err(self.error_at(
                start,
                format!(
                    "vector types must have positive constant sizes but got {}",
                    sizes.join(", ")
                ),
            ));
        }
        // MLIR 22 checks the element type through `VectorElementTypeInterface`
        // (integers, index and floats), at the vector type.
        if !matches!(
            self.ctx.type_kind(element),
            TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_)
        ) {
            return Err(self.error_at(
                start,
                "failed to verify 'elementType': VectorElementTypeInterface instance",
            ));
        }
        Ok(self.ctx.intern_type(TypeKind::Vector {
            shape,
            scalable,
            element,
        }))
    }

    fn parse_complex_type(&mut self) -> PResult<Type> {
        self.bump();
        self.expect(Tok::Less, "'<' in complex type")?;
        let elem_pos = self.tok.start;
        let element = self.parse_type()?;
        self.expect(Tok::Greater, "'>' in complex type")?;
        if !matches!(
            self.ctx.type_kind(element),
            TypeKind::Integer { .. } | TypeKind::Float(_)
        ) {
            return Err(self.error_at(elem_pos, "invalid element type for complex"));
        }
        Ok(self.ctx.intern_type(TypeKind::Complex(element)))
    }

    fn parse_tuple_type(&mut self) -> PResult<Type> {
        self.bump();
        self.expect(Tok::Less, "'<' in tuple type")?;
        let mut elements = Vec::new();
        if !self.consume_if(Tok::Greater) {
            elements = self.parse_type_list_no_parens()?;
            self.expect(Tok::Greater, "'>' in tuple type")?;
        }
        Ok(self.ctx.intern_type(TypeKind::Tuple(elements)))
    }

    /// `(dim x)*` where dim is an integer, `?`, or (for vectors) `[n]`.
    pub(crate) fn parse_dimension_list(
        &mut self,
        shape: &mut Vec<i64>,
        mut scalable: Option<&mut Vec<bool>>,
    ) -> PResult<()> {
        loop {
            let is_scalable = scalable.is_some() && self.is(Tok::LSquare);
            if is_scalable {
                self.bump();
            }
            let dim = match self.tok.kind {
                Tok::Question if scalable.is_none() => {
                    self.bump();
                    DYNAMIC
                }
                Tok::Integer => self.parse_integer_in_dimension_list()?,
                _ if is_scalable => return Err(self.wrong_token("expected integer value")),
                _ => return Ok(()),
            };
            shape.push(dim);
            if let Some(flags) = scalable.as_deref_mut() {
                if is_scalable && !self.consume_if(Tok::RSquare) {
                    return Err(self.error_here("missing ']' closing scalable dimension"));
                }
                flags.push(is_scalable);
            }
            self.parse_x_in_dimension_list()?;
        }
    }

    fn parse_integer_in_dimension_list(&mut self) -> PResult<i64> {
        let spelling = self.spelling();
        // `0xf32` is `0`, `x`, `f32` here, not a hexadecimal literal.
        if spelling.len() > 1 && spelling.as_bytes()[1] == b'x' {
            self.lexer.reset(self.tok.start as usize + 1);
            self.bump();
            return Ok(0);
        }
        match spelling.parse::<i64>() {
            Ok(value) => {
                self.bump();
                Ok(value)
            }
            Err(_) => Err(self.error_here("invalid dimension")),
        }
    }

    fn parse_x_in_dimension_list(&mut self) -> PResult<()> {
        if !self.is(Tok::BareId) || !self.spelling().starts_with('x') {
            return Err(self.wrong_token("expected 'x' in dimension list"));
        }
        if self.spelling().len() != 1 {
            self.lexer.reset(self.tok.start as usize + 1);
        }
        self.bump();
        Ok(())
    }
}

/// The result of parsing `!...` or `#...`.
pub(crate) enum ExtendedSymbol<'a> {
    /// A reference to an alias defined in the file.
    Alias(&'a str),
    /// A dialect symbol: its dialect and verbatim data.
    Dialect { dialect: &'a str, data: String },
}
