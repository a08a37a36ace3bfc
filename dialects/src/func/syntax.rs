//! The custom assembly form of `func.func` (MLIR's): visibility, name,
//! arguments with their attributes, results, and the attribute dictionary.

use strata_ir::attributes::AttrKind;
use strata_ir::parser::asm::{Argument, OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{Attribute, Context, Diagnostic, Ident, Operation, OperationState, Type, TypeKind};

use crate::func::function_signature;
use crate::func::ops::FuncOp;

/// The properties the custom form spells itself (`no_inline` stays in the
/// attribute dictionary, as MLIR prints it: `attributes {no_inline}`).
const FUNC_INHERENT: [&str; 5] = [
    "sym_name",
    "function_type",
    "sym_visibility",
    "arg_attrs",
    "res_attrs",
];

/// `(type {attrs}?, ...)` or `type` after `->`.
fn parse_result_list(
    p: &mut OpAsmParser<'_, '_>,
) -> Result<(Vec<Type>, Vec<Option<Attribute>>), Diagnostic> {
    if !p.parse_optional_punct(Punct::LParen) {
        let pos = p.pos();
        let ty = p.parse_type()?;
        if matches!(p.ctx().type_kind(ty), TypeKind::Function { .. }) {
            return Err(p.error_at(pos, "expected non-function type"));
        }
        return Ok((vec![ty], vec![None]));
    }
    let (mut types, mut attrs) = (Vec::new(), Vec::new());
    if p.parse_optional_punct(Punct::RParen) {
        return Ok((types, attrs));
    }
    loop {
        types.push(p.parse_type()?);
        let dict = p.parse_optional_attr_dict()?;
        attrs.push((!dict.is_empty()).then(|| p.ctx().dictionary_attr(dict)));
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RParen)?;
    Ok((types, attrs))
}

fn dict_array(ctx: &mut Context, attrs: &[Option<Attribute>]) -> Option<Attribute> {
    if attrs.iter().all(Option::is_none) {
        return None;
    }
    let items: Vec<Attribute> = attrs
        .iter()
        .map(|a| a.unwrap_or_else(|| ctx.empty_dictionary()))
        .collect();
    Some(ctx.array_attr(items))
}

/// `[visibility] @name(args) [-> results] [attributes {...}] [{ body }]`.
pub(crate) fn parse_func(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let visibility = ["private", "public", "nested"]
        .into_iter()
        .find(|v| p.parse_optional_keyword(v));
    let name = p.parse_symbol_name()?;
    // Arguments: named (`%a: i32`) in a definition, bare types in a declaration.
    p.parse_punct(Punct::LParen)?;
    let mut arguments: Vec<Argument<'_>> = Vec::new();
    let mut input_types = Vec::new();
    let mut arg_attrs = Vec::new();
    if !p.parse_optional_punct(Punct::RParen) {
        loop {
            if p.peek_operand() {
                if !input_types.is_empty() && arguments.is_empty() {
                    return Err(p.error("expected type instead of SSA identifier"));
                }
                let argument = p.parse_argument(true, true)?;
                input_types.extend(argument.ty);
                arg_attrs.push(argument.attrs);
                arguments.push(argument);
            } else {
                if !arguments.is_empty() {
                    return Err(p.error("expected SSA identifier"));
                }
                input_types.push(p.parse_type()?);
                let dict = p.parse_optional_attr_dict()?;
                arg_attrs.push((!dict.is_empty()).then(|| p.ctx().dictionary_attr(dict)));
            }
            if !p.parse_optional_punct(Punct::Comma) {
                break;
            }
        }
        p.parse_punct(Punct::RParen)?;
    }
    let (result_types, res_attrs) = if p.parse_optional_punct(Punct::Arrow) {
        parse_result_list(p)?
    } else {
        (Vec::new(), Vec::new())
    };
    let attrs_pos = p.pos();
    let extra = p.parse_optional_attr_dict_with_keyword()?;
    for (key, _) in &extra {
        let key = p.ctx().ident_str(*key).to_string();
        // As MLIR: the name, type and visibility come from the signature;
        // `arg_attrs` and `res_attrs` may be given (the verifier checks them).
        if FUNC_INHERENT[..3].contains(&key.as_str()) {
            return Err(p.error_at(
                attrs_pos,
                format!("'{key}' is an inferred attribute and should not be specified in the explicit attribute dictionary"),
            ));
        }
    }
    let ctx = p.ctx();
    let mut attributes: Vec<(Ident, Attribute)> = Vec::new();
    let sym = ctx.string_attr(&name);
    attributes.push((ctx.ident("sym_name"), sym));
    let fn_type = ctx.function_type(input_types, result_types);
    let fn_type = ctx.type_attr(fn_type);
    attributes.push((ctx.ident("function_type"), fn_type));
    if let Some(v) = visibility {
        let v = ctx.string_attr(v);
        attributes.push((ctx.ident("sym_visibility"), v));
    }
    if let Some(a) = dict_array(ctx, &arg_attrs) {
        attributes.push((ctx.ident("arg_attrs"), a));
    }
    if let Some(a) = dict_array(ctx, &res_attrs) {
        attributes.push((ctx.ident("res_attrs"), a));
    }
    // Attributes the signature gave win over the same names in the dictionary.
    for (key, value) in extra {
        if !attributes.iter().any(|(k, _)| *k == key) {
            attributes.push((key, value));
        }
    }
    state.attributes = attributes;
    let body = p.ctx().create_region();
    let body_pos = p.pos();
    if p.parse_optional_region(body, &arguments)? && p.ctx().region_is_empty(body) {
        return Err(p.error_at(body_pos, "expected non-empty function body"));
    }
    state.regions.push(body);
    Ok(())
}

pub(crate) fn print_func(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let func = FuncOp(op);
    p.write_char(' ');
    if let Some(vis) = func.sym_visibility(ctx) {
        p.write(&vis);
        p.write_char(' ');
    }
    if let Some(name) = ctx.symbol_name(op) {
        p.print_symbol_name(&String::from_utf8_lossy(name));
    }
    let (inputs, results) = function_signature(ctx, op).unwrap_or_default();
    let arg_attrs = dict_items(ctx, func.arg_attrs(ctx));
    let res_attrs = dict_items(ctx, func.res_attrs(ctx));
    let entry = func.body(ctx).and_then(|b| ctx.region_entry_block(b));
    p.write_char('(');
    for (i, &ty) in inputs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        let attrs = arg_attrs.get(i).copied();
        match entry {
            Some(block) if i < ctx.num_block_args(block) => {
                p.print_region_argument(strata_ir::Value::Argument(block, i as u32), attrs);
            }
            _ => {
                p.print_type(ty);
                print_nonempty_dict(p, attrs);
            }
        }
    }
    p.write_char(')');
    if !results.is_empty() {
        p.write(" -> ");
        let wrap = results.len() > 1
            || res_attrs
                .iter()
                .any(|&a| !ctx.dictionary_entries(a).is_empty())
            || matches!(ctx.type_kind(results[0]), TypeKind::Function { .. });
        if wrap {
            p.write_char('(');
        }
        for (i, &ty) in results.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.print_type(ty);
            print_nonempty_dict(p, res_attrs.get(i).copied());
        }
        if wrap {
            p.write_char(')');
        }
    }
    p.print_optional_attr_dict_with_keyword(op, &FUNC_INHERENT);
    if let Some(body) = func.body(ctx) {
        if !ctx.region_is_empty(body) {
            p.write_char(' ');
            p.print_region(body, false, true);
        }
    }
}

pub(super) fn dict_items(ctx: &Context, array: Option<Attribute>) -> Vec<Attribute> {
    match array.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items.to_vec(),
        _ => Vec::new(),
    }
}

fn print_nonempty_dict(p: &mut OpAsmPrinter<'_, '_>, dict: Option<Attribute>) {
    if let Some(dict) = dict {
        if !p.ctx().dictionary_entries(dict).is_empty() {
            p.write_char(' ');
            p.print_dictionary_entries(dict);
        }
    }
}
