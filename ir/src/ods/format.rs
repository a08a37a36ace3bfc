//! Declarative assembly formats (MLIR's `assemblyFormat`), compiled once per
//! op and interpreted by one parser and one printer.
//!
//! Supported: literals (`` `,` ``, `` `to` ``), spaces (`` ` ` `` and
//! ` `` `), `$name` for operands, attributes, regions and successors,
//! `attr-dict`, `attr-dict-with-keyword`, `type(...)`, `functional-type(...,
//! ...)`, the `operands`, `results`, `regions` and `successors` directives,
//! and optional groups `( ... $anchor^ ... )?`. Types missing from the format
//! come from `SameOperandsAndResultType`, `AllTypesMatch` or the op's
//! result-type inference, as in ODS. Spacing follows ODS's printer rules.

use super::constraints::EnumSpec;
use super::{Arity, AttrPresence, AttrSyntax, OpSpec};
use crate::context::{Attribute, Context, Operation, Type};
use crate::diagnostics::Diagnostic;
use crate::ir::{OperationState, Value};
use crate::parser::asm::{OpAsmParser, Punct, SourcePos};
use crate::parser::UnresolvedOperand;
use crate::printer::asm::OpAsmPrinter;

/// What a `type(...)` directive or a functional type refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Operand(usize),
    Result(usize),
    Operands,
    Results,
}

#[derive(Clone, Debug)]
enum Kind {
    Literal(&'static str),
    Space(bool),
    Operand(usize),
    Operands,
    Attr(usize),
    Region(usize),
    Regions,
    Successor(usize),
    Successors,
    AttrDict { keyword: bool },
    Type(Target),
    FunctionalType(Target, Target),
    Optional { then: Vec<Element>, anchor: Anchor },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    Operand(usize),
    Operands,
    Attr(usize),
    Region(usize),
    Successor(usize),
    Target(Target),
}

#[derive(Clone, Debug)]
struct Element {
    kind: Kind,
    /// Whether the printer writes a space before it (ODS's spacing rules).
    space: bool,
}

/// A compiled assembly format.
#[derive(Debug)]
pub struct Format {
    elements: Vec<Element>,
    /// Attributes the format prints itself (left out of `attr-dict`).
    used_attrs: Vec<&'static str>,
}

// ----- compiling -----

#[derive(Debug, PartialEq)]
enum FTok {
    Literal(&'static str),
    Var(&'static str),
    Word(&'static str),
    LParen,
    RParen,
    Question,
    Caret,
    Comma,
}

fn tokenize(text: &'static str) -> Result<Vec<FTok>, String> {
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b' ' | b'\n' | b'\t' => i += 1,
            b'`' => {
                let end = text[i + 1..]
                    .find('`')
                    .ok_or_else(|| "unterminated literal".to_string())?;
                toks.push(FTok::Literal(&text[i + 1..i + 1 + end]));
                i += end + 2;
            }
            b'$' => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_')
                {
                    end += 1;
                }
                if end == start {
                    return Err("expected a variable name after '$'".into());
                }
                toks.push(FTok::Var(&text[start..end]));
                i = end;
            }
            b'(' => {
                toks.push(FTok::LParen);
                i += 1;
            }
            b')' => {
                toks.push(FTok::RParen);
                i += 1;
            }
            b'?' => {
                toks.push(FTok::Question);
                i += 1;
            }
            b'^' => {
                toks.push(FTok::Caret);
                i += 1;
            }
            b',' => {
                toks.push(FTok::Comma);
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'-' | b'_'))
                {
                    i += 1;
                }
                toks.push(FTok::Word(&text[start..i]));
            }
            _ => return Err(format!("unexpected character '{}'", c as char)),
        }
    }
    Ok(toks)
}

struct Compiler<'s> {
    spec: &'s OpSpec,
    toks: Vec<FTok>,
    pos: usize,
    used_attrs: Vec<&'static str>,
}

impl Compiler<'_> {
    fn next(&mut self) -> Option<&FTok> {
        let t = self.toks.get(self.pos);
        self.pos += 1;
        t
    }

    fn peek(&self) -> Option<&FTok> {
        self.toks.get(self.pos)
    }

    fn expect(&mut self, tok: FTok) -> Result<(), String> {
        match self.next() {
            Some(t) if *t == tok => Ok(()),
            other => Err(format!("expected {tok:?}, found {other:?}")),
        }
    }

    fn elements(&mut self, in_group: bool) -> Result<(Vec<Element>, Option<Anchor>), String> {
        let mut out = Vec::new();
        let mut anchor = None;
        while let Some(tok) = self.peek() {
            if *tok == FTok::RParen && in_group {
                break;
            }
            let kind = match self.next() {
                Some(FTok::Literal(text)) => {
                    let text: &'static str = text;
                    match text {
                        "" => Kind::Space(false),
                        " " => Kind::Space(true),
                        _ => Kind::Literal(text),
                    }
                }
                Some(FTok::Var(name)) => {
                    let name: &'static str = name;
                    let (kind, this_anchor) = self.variable(name)?;
                    if self.peek() == Some(&FTok::Caret) {
                        self.pos += 1;
                        if !in_group {
                            return Err("'^' outside of an optional group".into());
                        }
                        anchor = Some(this_anchor);
                    }
                    kind
                }
                Some(FTok::Word(word)) => {
                    let word: &'static str = word;
                    let (kind, this_anchor) = self.directive(word)?;
                    if self.peek() == Some(&FTok::Caret) {
                        self.pos += 1;
                        anchor = this_anchor;
                    }
                    kind
                }
                Some(FTok::LParen) => {
                    let (then, group_anchor) = self.elements(true)?;
                    self.expect(FTok::RParen)?;
                    self.expect(FTok::Question)?;
                    let anchor = group_anchor.ok_or("optional group has no anchor ('^')")?;
                    if then.is_empty() {
                        return Err("optional group is empty".into());
                    }
                    Kind::Optional { then, anchor }
                }
                other => return Err(format!("unexpected {other:?}")),
            };
            out.push(Element { kind, space: false });
        }
        Ok((out, anchor))
    }

    fn variable(&mut self, name: &'static str) -> Result<(Kind, Anchor), String> {
        let spec = self.spec;
        if let Some(i) = spec.operands.iter().position(|o| o.name == name) {
            return Ok((Kind::Operand(i), Anchor::Operand(i)));
        }
        if let Some(i) = spec.attributes.iter().position(|a| a.name == name) {
            self.used_attrs.push(spec.attributes[i].name);
            return Ok((Kind::Attr(i), Anchor::Attr(i)));
        }
        if let Some(i) = spec.regions.iter().position(|r| r.name == name) {
            return Ok((Kind::Region(i), Anchor::Region(i)));
        }
        if let Some(i) = spec.successors.iter().position(|r| r.name == name) {
            return Ok((Kind::Successor(i), Anchor::Successor(i)));
        }
        if spec.results.iter().any(|r| r.name == name) {
            return Err(format!(
                "result '{name}' can only appear in a type directive"
            ));
        }
        Err(format!(
            "'{name}' is not an operand, attribute, region or successor"
        ))
    }

    fn target(&mut self) -> Result<Target, String> {
        match self.next() {
            Some(FTok::Var(name)) => {
                let name: &'static str = name;
                if let Some(i) = self.spec.operands.iter().position(|o| o.name == name) {
                    Ok(Target::Operand(i))
                } else if let Some(i) = self.spec.results.iter().position(|o| o.name == name) {
                    Ok(Target::Result(i))
                } else {
                    Err(format!("'{name}' is not an operand or result"))
                }
            }
            Some(FTok::Word("operands")) => Ok(Target::Operands),
            Some(FTok::Word("results")) => Ok(Target::Results),
            other => Err(format!("expected a type target, found {other:?}")),
        }
    }

    fn directive(&mut self, word: &'static str) -> Result<(Kind, Option<Anchor>), String> {
        Ok(match word {
            "attr-dict" => (Kind::AttrDict { keyword: false }, None),
            "attr-dict-with-keyword" => (Kind::AttrDict { keyword: true }, None),
            "operands" => (Kind::Operands, Some(Anchor::Operands)),
            "regions" => (Kind::Regions, None),
            "successors" => (Kind::Successors, None),
            "type" => {
                self.expect(FTok::LParen)?;
                let target = self.target()?;
                self.expect(FTok::RParen)?;
                (Kind::Type(target), Some(Anchor::Target(target)))
            }
            "functional-type" => {
                self.expect(FTok::LParen)?;
                let inputs = self.target()?;
                self.expect(FTok::Comma)?;
                let results = self.target()?;
                self.expect(FTok::RParen)?;
                (Kind::FunctionalType(inputs, results), None)
            }
            _ => return Err(format!("unknown directive '{word}'")),
        })
    }
}

/// ODS's `shouldEmitSpaceBefore` for a literal.
fn space_before_literal(value: &str, last_was_punct: bool) -> bool {
    if value.len() != 1 && value != "->" {
        return true;
    }
    let first = value.as_bytes()[0];
    if last_was_punct {
        !b">)}],".contains(&first)
    } else {
        !b"<>(){}[],".contains(&first)
    }
}

/// Computes each element's leading space as ODS's generated printer does.
fn assign_spaces(elements: &mut [Element], emit_space: &mut bool, last_punct: &mut bool) {
    for element in elements {
        match &mut element.kind {
            Kind::Literal(text) => {
                element.space = *emit_space && space_before_literal(text, *last_punct);
                let first = text.as_bytes()[0];
                *emit_space = text.len() != 1 || !b"<({[".contains(&first);
                *last_punct = first != b'_' && !first.is_ascii_alphabetic();
            }
            Kind::Space(value) => {
                element.space = *value;
                *last_punct = !*value;
                *emit_space = false;
            }
            Kind::AttrDict { .. } => {
                *last_punct = false;
            }
            Kind::Optional { then, .. } => assign_spaces(then, emit_space, last_punct),
            _ => {
                element.space = *emit_space || !*last_punct;
                *last_punct = false;
                *emit_space = true;
            }
        }
    }
}

impl Format {
    /// Compile `text` for `spec`, or say why it is not a valid format.
    pub fn compile(spec: &OpSpec, text: &'static str) -> Result<Format, String> {
        let toks = tokenize(text)?;
        let mut compiler = Compiler {
            spec,
            toks,
            pos: 0,
            used_attrs: Vec::new(),
        };
        let (mut elements, anchor) = compiler.elements(false)?;
        if anchor.is_some() {
            return Err("'^' outside of an optional group".into());
        }
        if compiler.pos < compiler.toks.len() {
            return Err("unbalanced ')'".into());
        }
        let (mut emit_space, mut last_punct) = (true, false);
        assign_spaces(&mut elements, &mut emit_space, &mut last_punct);
        Ok(Format {
            elements,
            used_attrs: compiler.used_attrs,
        })
    }
}

fn spec_of(ctx: &Context, name: &str) -> Option<&'static OpSpec> {
    ctx.registry().op(name).and_then(|d| d.spec)
}

fn compiled(spec: &'static OpSpec) -> Result<&'static Format, String> {
    match spec.compiled_format() {
        Some(Ok(format)) => Ok(format),
        Some(Err(e)) => Err(format!("invalid assembly format of '{}': {e}", spec.name)),
        None => Err(format!("'{}' has no assembly format", spec.name)),
    }
}

// ----- parsing -----

struct ParseState<'a> {
    operands: Vec<Vec<UnresolvedOperand<'a>>>,
    operand_types: Vec<Option<Vec<Type>>>,
    result_types: Vec<Option<Vec<Type>>>,
    all_operand_types: Option<Vec<Type>>,
    all_result_types: Option<Vec<Type>>,
    regions_parsed: bool,
}

/// The parse hook of every op with a declarative format.
pub fn parse_with_format(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let name = p.op_name().to_string();
    let Some(spec) = spec_of(p.ctx(), &name) else {
        return Err(p.error("is not a declarative op"));
    };
    let format = compiled(spec).map_err(|e| p.error(e))?;
    let mut ps = ParseState {
        operands: vec![Vec::new(); spec.operands.len()],
        operand_types: vec![None; spec.operands.len()],
        result_types: vec![None; spec.results.len()],
        all_operand_types: None,
        all_result_types: None,
        regions_parsed: false,
    };
    for _ in spec.regions {
        state.regions.push(p.ctx().create_region());
    }
    let operands_pos = p.pos();
    parse_elements(p, spec, &format.elements, &mut ps, state)?;
    finish_parse(p, spec, ps, state, operands_pos)
}

fn parse_elements<'a>(
    p: &mut OpAsmParser<'_, 'a>,
    spec: &'static OpSpec,
    elements: &[Element],
    ps: &mut ParseState<'a>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    for element in elements {
        parse_element(p, spec, element, ps, state)?;
    }
    Ok(())
}

fn parse_literal(p: &mut OpAsmParser<'_, '_>, text: &str) -> Result<(), Diagnostic> {
    match Punct::from_spelling(text) {
        Some(punct) => p.parse_punct(punct),
        None => p.parse_keyword(text),
    }
}

fn parse_optional_literal(p: &mut OpAsmParser<'_, '_>, text: &str) -> bool {
    match Punct::from_spelling(text) {
        Some(punct) => p.parse_optional_punct(punct),
        None => p.parse_optional_keyword(text),
    }
}

fn parse_type_list_optional(p: &mut OpAsmParser<'_, '_>) -> Result<Vec<Type>, Diagnostic> {
    let mut types = Vec::new();
    if let Some(ty) = p.parse_optional_type()? {
        types.push(ty);
        while p.parse_optional_punct(Punct::Comma) {
            types.push(p.parse_type()?);
        }
    }
    Ok(types)
}

fn parse_element<'a>(
    p: &mut OpAsmParser<'_, 'a>,
    spec: &'static OpSpec,
    element: &Element,
    ps: &mut ParseState<'a>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    match &element.kind {
        Kind::Literal(text) => parse_literal(p, text)?,
        Kind::Space(_) => {}
        Kind::Operand(i) => {
            ps.operands[*i] = match spec.operands[*i].arity {
                Arity::Single => vec![p.parse_operand()?],
                Arity::Optional => p.parse_optional_operand()?.into_iter().collect(),
                Arity::Variadic => p.parse_operand_list(crate::parser::asm::Delimiter::None)?,
            };
        }
        Kind::Operands => {
            let all = p.parse_operand_list(crate::parser::asm::Delimiter::None)?;
            if let Some(first) = ps.operands.first_mut() {
                *first = all;
            }
        }
        Kind::Attr(i) => {
            let attr_spec = &spec.attributes[*i];
            let value = parse_attr_value(p, attr_spec)?;
            let name = p.ctx().ident(attr_spec.name);
            state.attributes.push((name, value));
        }
        Kind::Region(i) => {
            let region = state.regions[*i];
            p.parse_region(region, &[])?;
            ps.regions_parsed = true;
        }
        Kind::Regions => {
            let mut first = true;
            while first || p.parse_optional_punct(Punct::Comma) {
                first = false;
                let region = p.ctx().create_region();
                if !p.parse_optional_region(region, &[])? {
                    break;
                }
                state.regions.push(region);
            }
            ps.regions_parsed = true;
        }
        Kind::Successor(_) => {
            let block = p.parse_successor()?;
            state.successors.push(block);
        }
        Kind::Successors => {
            if p.peek_punct(Punct::LSquare) {
                return Err(p.wrong_token("expected successor list"));
            }
            let mut first = true;
            while first || p.parse_optional_punct(Punct::Comma) {
                first = false;
                let block = p.parse_successor()?;
                state.successors.push(block);
            }
        }
        Kind::AttrDict { keyword } => {
            let entries = if *keyword {
                p.parse_optional_attr_dict_with_keyword()?
            } else {
                p.parse_optional_attr_dict()?
            };
            state.attributes.extend(entries);
        }
        Kind::Type(target) => {
            let types = match target {
                Target::Operand(i) if spec.operands[*i].arity == Arity::Single => {
                    vec![p.parse_type()?]
                }
                Target::Result(i) if spec.results[*i].arity == Arity::Single => {
                    vec![p.parse_type()?]
                }
                _ => parse_type_list_optional(p)?,
            };
            store_types(ps, *target, types);
        }
        Kind::FunctionalType(inputs, results) => {
            let (input_types, result_types) = p.parse_function_type()?;
            store_types(ps, *inputs, input_types);
            store_types(ps, *results, result_types);
        }
        Kind::Optional { then, .. } => {
            let Some(first) = then.first() else {
                return Ok(());
            };
            let present = match &first.kind {
                Kind::Literal(text) => {
                    if !parse_optional_literal(p, text) {
                        return Ok(());
                    }
                    return parse_elements(p, spec, &then[1..], ps, state);
                }
                Kind::Operand(_) | Kind::Operands => p.peek_operand(),
                Kind::Attr(i) => attr_may_start(p, &spec.attributes[*i]),
                Kind::Type(_) | Kind::FunctionalType(..) => p.peek_type(),
                Kind::Region(_) | Kind::Regions => p.peek_punct(Punct::LBrace),
                Kind::Successor(_) | Kind::Successors => false,
                Kind::AttrDict { .. } | Kind::Space(_) | Kind::Optional { .. } => true,
            };
            if present {
                parse_elements(p, spec, then, ps, state)?;
                // A unit-attribute anchor that is not printed is set by the group.
                if let Some(Anchor::Attr(i)) = group_anchor(element) {
                    let attr_spec = &spec.attributes[i];
                    if attr_spec.constraint.unit {
                        let name = p.ctx().ident(attr_spec.name);
                        if !state.attributes.iter().any(|(n, _)| *n == name) {
                            let unit = p.ctx().unit_attr();
                            state.attributes.push((name, unit));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn group_anchor(element: &Element) -> Option<Anchor> {
    match &element.kind {
        Kind::Optional { anchor, .. } => Some(*anchor),
        _ => None,
    }
}

fn store_types(ps: &mut ParseState<'_>, target: Target, types: Vec<Type>) {
    match target {
        Target::Operand(i) => ps.operand_types[i] = Some(types),
        Target::Result(i) => ps.result_types[i] = Some(types),
        Target::Operands => ps.all_operand_types = Some(types),
        Target::Results => ps.all_result_types = Some(types),
    }
}

/// Whether an attribute of this kind can start at the next token.
fn attr_may_start(p: &OpAsmParser<'_, '_>, spec: &super::AttrSpec) -> bool {
    match spec.constraint.syntax {
        AttrSyntax::Keyword(e) => e.cases.iter().any(|c| p.peek_keyword(c.0)),
        AttrSyntax::Stripped(_) => p.peek_punct(Punct::Less),
        _ => {
            !(p.peek_punct(Punct::Colon)
                || p.peek_punct(Punct::LBrace)
                || p.peek_punct(Punct::RParen)
                || p.peek_operand())
        }
    }
}

fn parse_attr_value(
    p: &mut OpAsmParser<'_, '_>,
    spec: &super::AttrSpec,
) -> Result<Attribute, Diagnostic> {
    let constraint = spec.constraint;
    if constraint.unit {
        return Ok(p.ctx().unit_attr());
    }
    match constraint.syntax {
        AttrSyntax::Generic => p.parse_attribute(None),
        AttrSyntax::Typed(ty) => {
            let ty = ty(p.ctx());
            p.parse_attribute(Some(ty))
        }
        AttrSyntax::Keyword(e) => parse_enum_keyword(p, e, spec.name),
        AttrSyntax::Stripped(e) => {
            let pos = p.pos();
            let body = p.parse_dialect_attr_body()?;
            let inner = &body[1..body.len() - 1];
            let Some(value) = e.parse_text(inner) else {
                // MLIR reports the bad case (at it), then that the
                // attribute's parameter did not parse.
                let (_, message) = e.diagnose(inner);
                let at = SourcePos(pos.0 + 1);
                let mut diag = p.error_at(at, message);
                if !e.attr_def.is_empty() {
                    let close = SourcePos(pos.0 + body.len() as u32 - 1);
                    let follow_up = p.error_at(
                        close,
                        format!(
                            "failed to parse {} parameter 'value' which is to be a `{}`",
                            e.attr_def, e.name
                        ),
                    );
                    diag.notes.push(follow_up);
                }
                return Err(diag);
            };
            match e.attr(p.ctx(), value) {
                Some(attr) => Ok(attr),
                None => Err(p.error_at(pos, format!("invalid {} value", e.name))),
            }
        }
    }
}

fn parse_enum_keyword(
    p: &mut OpAsmParser<'_, '_>,
    e: &'static EnumSpec,
    attr_name: &str,
) -> Result<Attribute, Diagnostic> {
    let pos = p.pos();
    let word = match p.parse_optional_string()? {
        Some(s) => Some(s),
        None => p.parse_optional_keyword_any().map(str::to_string),
    };
    let value = word.as_deref().and_then(|w| e.value_of(w));
    let attr = match value {
        Some(v) => e.attr(p.ctx(), v),
        None => None,
    };
    match attr {
        Some(attr) => Ok(attr),
        None => Err(p.error_at(
            pos,
            format!(
                "expected string or keyword containing one of the following enum values for attribute '{attr_name}' [{}]",
                e.case_list()
            ),
        )),
    }
}

fn finish_parse<'a>(
    p: &mut OpAsmParser<'_, 'a>,
    spec: &'static OpSpec,
    mut ps: ParseState<'a>,
    state: &mut OperationState,
    operands_pos: SourcePos,
) -> Result<(), Diagnostic> {
    // `type(operands)` / `functional-type(operands, ...)`: split over groups.
    if let Some(all) = ps.all_operand_types.take() {
        let sizes: Vec<usize> = ps.operands.iter().map(Vec::len).collect();
        let mut rest = all.as_slice();
        for (i, &n) in sizes.iter().enumerate() {
            let last = i + 1 == sizes.len();
            let take = if last { rest.len() } else { n.min(rest.len()) };
            ps.operand_types[i] = Some(rest[..take].to_vec());
            rest = &rest[take..];
        }
    }
    if let Some(all) = ps.all_result_types.take() {
        distribute_results(spec, &mut ps, all);
    }
    // Types the format leaves out.
    let known = ps
        .operand_types
        .iter()
        .chain(&ps.result_types)
        .flatten()
        .flatten()
        .next()
        .copied();
    if spec.traits.same_operands_and_result_type {
        if let Some(ty) = known {
            for (i, slot) in ps.operand_types.iter_mut().enumerate() {
                if slot.is_none() {
                    *slot = Some(vec![ty; ps.operands[i].len()]);
                }
            }
            for (i, slot) in ps.result_types.iter_mut().enumerate() {
                if slot.is_none() {
                    let n = if spec.results[i].arity == Arity::Single {
                        1
                    } else {
                        0
                    };
                    *slot = Some(vec![ty; n]);
                }
            }
        }
    }
    if spec.traits.same_type_operands {
        let known = ps.operand_types.iter().flatten().flatten().next().copied();
        if let Some(ty) = known {
            for (i, slot) in ps.operand_types.iter_mut().enumerate() {
                if slot.is_none() {
                    *slot = Some(vec![ty; ps.operands[i].len()]);
                }
            }
        }
    }
    for group in spec.all_types_match {
        let mut ty = None;
        for name in group.iter() {
            if let Some(i) = spec.operands.iter().position(|o| o.name == *name) {
                ty = ty.or(ps.operand_types[i]
                    .as_ref()
                    .and_then(|t| t.first().copied()));
            } else if let Some(i) = spec.results.iter().position(|o| o.name == *name) {
                ty = ty.or(ps.result_types[i].as_ref().and_then(|t| t.first().copied()));
            }
        }
        let Some(ty) = ty else { continue };
        for name in group.iter() {
            if let Some(i) = spec.operands.iter().position(|o| o.name == *name) {
                if ps.operand_types[i].is_none() {
                    ps.operand_types[i] = Some(vec![ty; ps.operands[i].len()]);
                }
            } else if let Some(i) = spec.results.iter().position(|o| o.name == *name) {
                if ps.result_types[i].is_none() {
                    ps.result_types[i] = Some(vec![ty]);
                }
            }
        }
    }
    for (i, slot) in ps.operand_types.iter_mut().enumerate() {
        if slot.is_none() {
            if let Some(build) = spec.operands[i].constraint.build {
                let ty = build(p.ctx());
                *slot = Some(vec![ty; ps.operands[i].len()]);
            }
        }
    }
    // Resolve operands.
    let mut segment_sizes = Vec::new();
    for (i, uses) in ps.operands.iter().enumerate() {
        let Some(types) = &ps.operand_types[i] else {
            if uses.is_empty() {
                segment_sizes.push(0);
                continue;
            }
            return Err(p.error_at(
                operands_pos,
                format!(
                    "could not infer the type of operand '{}'",
                    spec.operands[i].name
                ),
            ));
        };
        let pos = uses.first().map_or(operands_pos, |u| u.pos());
        let values = p.resolve_operands(uses, types, pos)?;
        segment_sizes.push(values.len() as u64);
        state.operands.extend(values);
    }
    if spec.operand_segments() {
        let attr = segment_attr(p.ctx(), &segment_sizes);
        let name = p.ctx().ident("operandSegmentSizes");
        state.attributes.push((name, attr));
    }
    // Result types.
    if ps.result_types.iter().all(Option::is_some) {
        let sizes: Vec<u64> = ps
            .result_types
            .iter()
            .flatten()
            .map(|t| t.len() as u64)
            .collect();
        state.result_types = ps.result_types.into_iter().flatten().flatten().collect();
        if spec.result_segments() {
            let attr = segment_attr(p.ctx(), &sizes);
            let name = p.ctx().ident("resultSegmentSizes");
            state.attributes.push((name, attr));
        }
    } else if let Some(infer) = spec.infer_result_types {
        // As ODS: operand types are checked before inference relies on them.
        let name_pos = p.name_pos();
        check_operand_types(p, spec, &ps.operand_types, name_pos)?;
        match infer(p.ctx(), state) {
            Ok(types) => state.result_types = types,
            Err(message) => {
                let pos = p.name_pos();
                return Err(p.error_at(pos, message));
            }
        }
    } else if !spec.results.is_empty() {
        let pos = p.name_pos();
        return Err(p.error_at(pos, "could not infer the result types"));
    }
    Ok(())
}

/// The operand type constraints, checked before result-type inference
/// relies on them (ODS's generated parsers do this; the error is at the op).
fn check_operand_types(
    p: &mut OpAsmParser<'_, '_>,
    spec: &OpSpec,
    types: &[Option<Vec<Type>>],
    at: SourcePos,
) -> Result<(), Diagnostic> {
    for (i, group) in types.iter().enumerate() {
        let operand = &spec.operands[i];
        for &ty in group.iter().flatten() {
            if !(operand.constraint.check)(p.ctx(), ty) {
                let printed = crate::printer::type_to_string(p.ctx(), ty);
                return Err(p.error_at(
                    at,
                    format!(
                        "'{}' must be {}, but got '{printed}'",
                        operand.name, operand.constraint.summary
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn distribute_results(spec: &OpSpec, ps: &mut ParseState<'_>, all: Vec<Type>) {
    let fixed = spec
        .results
        .iter()
        .filter(|r| r.arity == Arity::Single)
        .count();
    let extra = all.len().saturating_sub(fixed);
    let mut rest = all.as_slice();
    for (i, result) in spec.results.iter().enumerate() {
        let n = if result.arity == Arity::Single {
            1
        } else {
            extra
        };
        let take = n.min(rest.len());
        ps.result_types[i] = Some(rest[..take].to_vec());
        rest = &rest[take..];
    }
}

fn segment_attr(ctx: &mut Context, sizes: &[u64]) -> Attribute {
    let element = ctx.integer_type(32);
    ctx.intern_attr(crate::AttrKind::DenseArray {
        element,
        values: sizes.into(),
    })
}

// ----- printing -----

/// The print hook of every op with a declarative format.
pub fn print_with_format(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let Some(spec) = spec_of(ctx, ctx.op_name_str(op)) else {
        return;
    };
    let Ok(format) = compiled(spec) else {
        p.write(" <<invalid assembly format>>");
        return;
    };
    print_elements(p, op, spec, format, &format.elements);
}

fn print_elements(
    p: &mut OpAsmPrinter<'_, '_>,
    op: Operation,
    spec: &'static OpSpec,
    format: &Format,
    elements: &[Element],
) {
    let ctx = p.ctx();
    for element in elements {
        if element.space {
            p.write_char(' ');
        }
        match &element.kind {
            Kind::Literal(text) => p.write(text),
            Kind::Space(_) => {}
            Kind::Operand(i) => p.print_operands(super::operand_group(ctx, op, spec, *i)),
            Kind::Operands => p.print_operands(ctx.operands(op)),
            Kind::Attr(i) => {
                let attr_spec = &spec.attributes[*i];
                if let Some(value) = super::inherent_attr(ctx, op, attr_spec.name) {
                    print_attr_value(p, attr_spec, value);
                }
            }
            Kind::Region(i) => {
                if let Some(&region) = ctx.op_regions(op).get(*i) {
                    p.print_region(region, true, true);
                }
            }
            Kind::Regions => {
                for (k, &region) in ctx.op_regions(op).iter().enumerate() {
                    if k > 0 {
                        p.write(", ");
                    }
                    p.print_region(region, true, true);
                }
            }
            Kind::Successor(i) => {
                if let Some(block) = ctx.successors(op).nth(*i) {
                    p.print_successor(block);
                }
            }
            Kind::Successors => {
                for (k, block) in ctx.successors(op).enumerate() {
                    if k > 0 {
                        p.write(", ");
                    }
                    p.print_successor(block);
                }
            }
            Kind::AttrDict { keyword } => {
                let elided = elided_attrs(ctx, op, spec, format);
                if *keyword {
                    p.print_optional_attr_dict_with_keyword(op, &elided);
                } else {
                    p.print_optional_attr_dict(op, &elided);
                }
            }
            Kind::Type(target) => {
                let types = target_types(ctx, op, spec, *target);
                p.print_types(types);
            }
            Kind::FunctionalType(inputs, results) => {
                let inputs = target_types(ctx, op, spec, *inputs);
                let results = target_types(ctx, op, spec, *results);
                p.print_function_type(&inputs, &results);
            }
            Kind::Optional { then, anchor } => {
                if anchor_present(ctx, op, spec, *anchor) {
                    let anchor_unit = match anchor {
                        Anchor::Attr(i) => spec.attributes[*i].constraint.unit.then_some(*i),
                        _ => None,
                    };
                    let kept: Vec<Element> = then
                        .iter()
                        .filter(|e| !matches!(e.kind, Kind::Attr(j) if Some(j) == anchor_unit))
                        .cloned()
                        .collect();
                    print_elements(p, op, spec, format, &kept);
                }
            }
        }
    }
}

fn print_attr_value(p: &mut OpAsmPrinter<'_, '_>, spec: &super::AttrSpec, value: Attribute) {
    let ctx = p.ctx();
    match spec.constraint.syntax {
        AttrSyntax::Generic => p.print_attribute(value),
        AttrSyntax::Typed(_) => p.print_attribute_without_type(value),
        AttrSyntax::Keyword(e) => match e.value(ctx, value).and_then(|v| e.keyword(v)) {
            Some(word) => p.write(word),
            None => p.print_attribute(value),
        },
        AttrSyntax::Stripped(e) => match e.value(ctx, value).and_then(|v| e.stringify(v)) {
            Some(text) => {
                p.write_char('<');
                p.write(&text);
                p.write_char('>');
            }
            None => p.print_attribute(value),
        },
    }
}

/// Whether `attr` is the declared default of `spec`.
fn is_default(ctx: &Context, spec: &super::AttrSpec, attr: Attribute) -> bool {
    match spec.presence {
        AttrPresence::Default(text) => match ctx.registry().cached_default(text) {
            Some(default) => default == attr,
            None => crate::printer::attribute_to_string(ctx, attr) == text,
        },
        _ => false,
    }
}

fn anchor_present(ctx: &Context, op: Operation, spec: &'static OpSpec, anchor: Anchor) -> bool {
    match anchor {
        Anchor::Operand(i) => !super::operand_group(ctx, op, spec, i).is_empty(),
        Anchor::Operands => ctx.num_operands(op) > 0,
        Anchor::Attr(i) => {
            let attr_spec = &spec.attributes[i];
            super::inherent_attr(ctx, op, attr_spec.name)
                .is_some_and(|a| !is_default(ctx, attr_spec, a))
        }
        Anchor::Region(i) => ctx
            .op_regions(op)
            .get(i)
            .is_some_and(|&r| !ctx.region_is_empty(r)),
        Anchor::Successor(i) => ctx.successors(op).nth(i).is_some(),
        Anchor::Target(t) => !target_types(ctx, op, spec, t).is_empty(),
    }
}

fn target_types(ctx: &Context, op: Operation, spec: &'static OpSpec, target: Target) -> Vec<Type> {
    let values: Vec<Value> = match target {
        Target::Operand(i) => super::operand_group(ctx, op, spec, i),
        Target::Result(i) => super::result_group(ctx, op, spec, i),
        Target::Operands => ctx.operands(op).collect(),
        Target::Results => ctx.results(op).collect(),
    };
    values.into_iter().map(|v| ctx.value_type(v)).collect()
}

fn elided_attrs(ctx: &Context, op: Operation, spec: &OpSpec, format: &Format) -> Vec<&'static str> {
    let mut elided = format.used_attrs.clone();
    elided.push("operandSegmentSizes");
    elided.push("resultSegmentSizes");
    for attr_spec in spec.attributes {
        if let Some(value) = super::inherent_attr(ctx, op, attr_spec.name) {
            if is_default(ctx, attr_spec, value) {
                elided.push(attr_spec.name);
            }
        }
    }
    elided
}
