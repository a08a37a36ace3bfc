//! Parsing `dense<...>`, `array<T: ...>` element literals
//! (mlir/lib/AsmParser/AttributeParser.cpp, `TensorLiteralParser`).

use super::attrs::Element;
use super::lexer::{Tok, Token};
use super::{unescape, PResult, Parser};
use crate::attributes::{dense_storage_bytes, AttrKind, DenseData};
use crate::context::{Attribute, Type};
use crate::types::{TypeKind, DYNAMIC};

/// What was between `dense<` and `>`.
#[derive(Default)]
struct TensorLiteral {
    elements: Vec<Element>,
    shape: Vec<i64>,
    hex: Option<Token>,
}

impl Parser<'_> {
    // ----- array<T: ...> -----

    pub(super) fn parse_dense_array(&mut self) -> PResult<Attribute> {
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

    pub(super) fn parse_dense_elements(&mut self, known_type: Option<Type>) -> PResult<Attribute> {
        let attr_pos = self.tok.start;
        self.bump();
        self.expect(Tok::Less, "'<' after 'dense'")?;
        let mut literal = TensorLiteral::default();
        if !self.consume_if(Tok::Greater) {
            literal = self.parse_tensor_literal(true)?;
            self.expect(Tok::Greater, "'>'")?;
        }
        let ty = self.parse_elements_type(known_type)?;
        self.build_dense(attr_pos, literal, ty)
    }

    /// `sparse<indices, values> : type` (MLIR's `parseSparseElementsAttr`).
    pub(super) fn parse_sparse_elements(&mut self, known_type: Option<Type>) -> PResult<Attribute> {
        let attr_pos = self.tok.start;
        self.bump();
        self.expect(Tok::Less, "'<' after 'sparse'")?;
        let i64_type = self.ctx.integer_type(64);
        if self.consume_if(Tok::Greater) {
            let ty = self.parse_elements_type(known_type)?;
            self.check_shaped_static(attr_pos, ty)?;
            let (shape, element) = self.shape_and_element(ty);
            let indices_ty = self.ctx.tensor_type(vec![0, shape.len() as i64], i64_type);
            let values_ty = self.ctx.tensor_type(vec![0], element);
            let indices = self.build_dense(attr_pos, TensorLiteral::default(), indices_ty)?;
            let values = self.build_dense(attr_pos, TensorLiteral::default(), values_ty)?;
            return Ok(self.ctx.intern_attr(AttrKind::Sparse {
                ty,
                indices,
                values,
            }));
        }
        let indices_pos = self.tok.start;
        let indices_literal = self.parse_tensor_literal(false)?;
        self.expect(Tok::Comma, "','")?;
        let values_pos = self.tok.start;
        let values_literal = self.parse_tensor_literal(true)?;
        self.expect(Tok::Greater, "'>'")?;
        let ty = self.parse_elements_type(known_type)?;
        self.check_shaped_static(attr_pos, ty)?;
        let (shape, element) = self.shape_and_element(ty);
        let indices_shape = if indices_literal.shape.is_empty() {
            vec![1, shape.len() as i64]
        } else {
            indices_literal.shape.clone()
        };
        let num_indices = indices_shape.first().copied().unwrap_or(0);
        let indices_ty = self.ctx.tensor_type(indices_shape.clone(), i64_type);
        let indices = self.build_dense(indices_pos, indices_literal, indices_ty)?;
        let values_shape = if values_literal.shape.is_empty() {
            vec![num_indices]
        } else {
            values_literal.shape.clone()
        };
        let values_ty = self.ctx.tensor_type(values_shape.clone(), element);
        let values = self.build_dense(values_pos, values_literal, values_ty)?;
        self.verify_sparse(attr_pos, ty, &shape, indices, &indices_shape, &values_shape)?;
        Ok(self.ctx.intern_attr(AttrKind::Sparse {
            ty,
            indices,
            values,
        }))
    }

    /// MLIR's `SparseElementsAttr::verify`: indices of shape [N, rank] (or
    /// [N] for 1-d types), N values, every index inside the shape.
    fn verify_sparse(
        &mut self,
        pos: u32,
        ty: Type,
        shape: &[i64],
        indices: Attribute,
        indices_shape: &[i64],
        values_shape: &[i64],
    ) -> PResult<()> {
        if values_shape.len() != 1 {
            return Err(self.error_at(pos, "expected 1-d tensor for sparse element values"));
        }
        let rank = shape.len();
        let shape_error = |this: &mut Self| {
            this.error_at(
                pos,
                format!(
                    "expected shape ([{}]); inferred shape of indices literal ([{}]); inferred shape of values literal ([{}])",
                    join_dims(shape),
                    join_dims(indices_shape),
                    join_dims(values_shape)
                ),
            )
        };
        match indices_shape.len() {
            2 if indices_shape[1] != rank as i64 => return Err(shape_error(self)),
            2 => {}
            1 if rank == 1 => {}
            _ => return Err(shape_error(self)),
        }
        let num_indices = indices_shape[0];
        if num_indices != values_shape[0] {
            return Err(shape_error(self));
        }
        let AttrKind::DenseElements { data, .. } = self.ctx.attr_kind(indices) else {
            return Ok(());
        };
        let read = |i: usize| -> i64 {
            if data.splat {
                return data
                    .raw
                    .get(..8)
                    .map_or(0, |b| i64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
            }
            data.raw
                .get(i * 8..i * 8 + 8)
                .map_or(0, |b| i64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
        };
        let count = if data.splat {
            1
        } else {
            num_indices.max(0) as usize
        };
        for i in 0..count {
            let index: Vec<i64> = (0..rank).map(|d| read(i * rank + d)).collect();
            let inside = index.iter().zip(shape).all(|(&x, &d)| x >= 0 && x < d);
            if !inside {
                let printed = crate::printer::type_to_string(self.ctx, ty);
                let index: Vec<String> = index.iter().map(|x| (*x as u64).to_string()).collect();
                return Err(self.error_at(
                    pos,
                    format!(
                        "sparse index #{i} is not contained within the value shape, with index=[{}], and type='{printed}'",
                        index.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The literal between `dense<` and `>`: a nested list, a single element,
    /// or (when allowed) a hex blob.
    fn parse_tensor_literal(&mut self, allow_hex: bool) -> PResult<TensorLiteral> {
        let mut literal = TensorLiteral::default();
        match self.tok.kind {
            Tok::LSquare => {
                self.parse_tensor_literal_list(&mut literal.elements, &mut literal.shape)?
            }
            Tok::String if allow_hex && self.spelling().starts_with("\"0x") => {
                literal.hex = Some(self.tok);
                self.bump();
            }
            _ => self.parse_tensor_literal_element(&mut literal.elements)?,
        }
        Ok(literal)
    }

    /// The `: type` after an elements literal (unless the type is known).
    fn parse_elements_type(&mut self, known_type: Option<Type>) -> PResult<Type> {
        match known_type {
            Some(ty) => Ok(ty),
            None => {
                self.expect(Tok::Colon, "':'")?;
                self.parse_type()
            }
        }
    }

    fn check_shaped_static(&mut self, attr_pos: u32, ty: Type) -> PResult<()> {
        match self.ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, .. }
            | TypeKind::Vector { shape, .. }
            | TypeKind::MemRef { shape, .. } => {
                if shape.contains(&DYNAMIC) {
                    return Err(
                        self.error_at(attr_pos, "elements literal type must have static shape")
                    );
                }
                Ok(())
            }
            TypeKind::UnrankedTensor { .. } | TypeKind::UnrankedMemRef { .. } => {
                Err(self.error_at(attr_pos, "elements literal type must have static shape"))
            }
            _ => Err(self.error_at(attr_pos, "elements literal must be a shaped type")),
        }
    }

    fn shape_and_element(&self, ty: Type) -> (Vec<i64>, Type) {
        let kind = self.ctx.type_kind(ty);
        (
            kind.shape().unwrap_or(&[]).to_vec(),
            kind.element_type().unwrap_or(ty),
        )
    }

    /// A dense attribute of type `ty` from a parsed literal (MLIR's `TensorLiteralParser::getAttr`).
    fn build_dense(
        &mut self,
        attr_pos: u32,
        literal: TensorLiteral,
        ty: Type,
    ) -> PResult<Attribute> {
        let TensorLiteral {
            elements,
            shape,
            hex,
        } = literal;
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
}

fn join_dims(dims: &[i64]) -> String {
    dims.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
