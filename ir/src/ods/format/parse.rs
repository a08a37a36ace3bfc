//! The parse hook of every op with a declarative format: the elements read
//! in order (optional groups by their first element), then the types the
//! format leaves out taken from the op's traits or result-type inference,
//! and the operands, attributes and regions stored in the state.

use crate::context::{Attribute, Type};
use crate::diagnostics::Diagnostic;
use crate::ir::OperationState;
use crate::ods::constraints::EnumSpec;
use crate::ods::format::{compiled, spec_of, Anchor, Element, Kind, Target};
use crate::ods::{Arity, AttrSyntax, OpSpec};
use crate::parser::asm::{OpAsmParser, Punct, SourcePos};
use crate::parser::UnresolvedOperand;

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
    // A variadic group's regions are made as they are parsed.
    for _ in spec.regions.iter().filter(|r| !r.variadic) {
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
        Kind::Region(i) if spec.regions[*i].variadic => {
            // `{...}, {...}`: zero or more, comma-separated.
            let region = p.ctx().create_region();
            if p.parse_optional_region(region, &[])? {
                state.regions.push(region);
                while p.parse_optional_punct(Punct::Comma) {
                    let region = p.ctx().create_region();
                    p.parse_region(region, &[])?;
                    state.regions.push(region);
                }
            }
            ps.regions_parsed = true;
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

/// `[v, ...]`: a dense array of `element`'s integers.
fn parse_int_array(
    p: &mut OpAsmParser<'_, '_>,
    element: fn(&mut crate::Context) -> crate::Type,
) -> Result<Attribute, Diagnostic> {
    let element = element(p.ctx());
    let width = p
        .ctx()
        .int_or_float_bit_width(element)
        .unwrap_or(64)
        .min(64);
    p.parse_punct(Punct::LSquare)?;
    let mut values = Vec::new();
    if !p.parse_optional_punct(Punct::RSquare) {
        loop {
            let pos = p.pos();
            let v = p.parse_integer()?;
            let (lo, hi) = (-(1i128 << (width - 1)), (1i128 << width) - 1);
            if v < lo || v > hi {
                return Err(p.error_at(pos, "integer constant out of range"));
            }
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            values.push((v as u64) & mask);
            if !p.parse_optional_punct(Punct::Comma) {
                break;
            }
        }
        p.parse_punct(Punct::RSquare)?;
    }
    Ok(p.ctx()
        .intern_attr(crate::attributes::AttrKind::DenseArray {
            element,
            values: values.into(),
        }))
}

/// Whether an attribute of this kind can start at the next token.
fn attr_may_start(p: &OpAsmParser<'_, '_>, spec: &crate::ods::AttrSpec) -> bool {
    match spec.constraint.syntax {
        AttrSyntax::Keyword(e) => e.cases.iter().any(|c| p.peek_keyword(c.0)),
        AttrSyntax::Stripped(_) => p.peek_punct(Punct::Less),
        AttrSyntax::IntArray(_) => p.peek_punct(Punct::LSquare),
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
    spec: &crate::ods::AttrSpec,
) -> Result<Attribute, Diagnostic> {
    let constraint = spec.constraint;
    if constraint.unit {
        return Ok(p.ctx().unit_attr());
    }
    match constraint.syntax {
        AttrSyntax::Generic => p.parse_attribute(None),
        AttrSyntax::Kind(is_kind) => {
            let pos = p.pos();
            let attr = p.parse_attribute(None)?;
            if !is_kind(p.ctx(), attr) {
                return Err(p.error_at(pos, "invalid kind of attribute specified"));
            }
            Ok(attr)
        }
        AttrSyntax::Typed(ty) => {
            let ty = ty(p.ctx());
            p.parse_attribute(Some(ty))
        }
        AttrSyntax::Keyword(e) => parse_enum_keyword(p, e, spec.name),
        AttrSyntax::IntArray(ty) => parse_int_array(p, ty),
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
        segment_sizes.push(values.len());
        state.operands.extend(values);
    }
    if spec.operand_segments() {
        let attr = p.ctx().segment_sizes_attr(&segment_sizes);
        let name = p.ctx().ident("operandSegmentSizes");
        state.attributes.push((name, attr));
    }
    // Result types.
    if ps.result_types.iter().all(Option::is_some) {
        let sizes: Vec<usize> = ps.result_types.iter().flatten().map(Vec::len).collect();
        state.result_types = ps.result_types.into_iter().flatten().flatten().collect();
        if spec.result_segments() {
            let attr = p.ctx().segment_sizes_attr(&sizes);
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
