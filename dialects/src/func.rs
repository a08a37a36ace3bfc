//! The `func` dialect: functions, calls and returns (MLIR's `func`).

use strata_ir::attributes::AttrKind;
use strata_ir::ods::constraints::{
    AnyType, DictArrayAttr, FlatSymbolRefAttr, FunctionTypeAttr, StrAttr, UnitAttr,
};
use strata_ir::parser::asm::{Argument, OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{
    op, Attribute, Context, Diagnostic, Ident, Operation, OperationState, Type, TypeKind,
};

/// An operation with a name containing a single `SSACFG` region.
///
/// `func.func @name(%arg0: i32) -> i32 { ... }` defines a function;
/// without a body it declares one (which may not be public).
#[op("func.func",
     traits(IsolatedFromAbove, Symbol, Callable),
     default_dialect = "func",
     parse = parse_func,
     print = print_func,
     verify = verify_func)]
pub struct FuncOp {
    sym_name: Attr<StrAttr>,
    function_type: Attr<FunctionTypeAttr>,
    sym_visibility: OptionalAttr<StrAttr>,
    arg_attrs: OptionalAttr<DictArrayAttr>,
    res_attrs: OptionalAttr<DictArrayAttr>,
    no_inline: OptionalAttr<UnitAttr>,
    body: Region,
}

/// The inputs and results of a function type attribute.
pub fn function_signature(ctx: &Context, op: Operation) -> Option<(Vec<Type>, Vec<Type>)> {
    let attr = FuncOp(op).function_type(ctx)?;
    let AttrKind::Type(ty) = ctx.attr_kind(attr) else {
        return None;
    };
    match ctx.type_kind(*ty) {
        TypeKind::Function { inputs, results } => Some((inputs.clone(), results.clone())),
        _ => None,
    }
}

fn verify_func(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let Some((inputs, results)) = function_signature(ctx, op) else {
        return Ok(());
    };
    if let Some(vis) = ctx.symbol_visibility(op) {
        if !matches!(vis, b"public" | b"private" | b"nested") {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got \"{}\"",
                    String::from_utf8_lossy(vis)
                ),
            ));
        }
    }
    for (what, attr, count) in [
        ("argument", FuncOp(op).arg_attrs(ctx), inputs.len()),
        ("result", FuncOp(op).res_attrs(ctx), results.len()),
    ] {
        let n = dict_items(ctx, attr).len();
        if attr.is_some() && n != count {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "expects {what} attribute array to have the same number of elements as the number of function {what}s, got {n}, but expected {count}"
                ),
            ));
        }
    }
    let Some(body) = FuncOp(op).body(ctx) else {
        return Ok(());
    };
    let Some(entry) = ctx.region_entry_block(body) else {
        if ctx.symbol_visibility(op).is_none_or(|v| v == b"public") {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                "symbol declaration cannot have public visibility",
            ));
        }
        return Ok(());
    };
    if ctx.num_block_args(entry) != inputs.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "entry block must have {} arguments to match function signature",
                inputs.len()
            ),
        ));
    }
    for (i, (arg, &ty)) in ctx.block_args(entry).zip(&inputs).enumerate() {
        let actual = ctx.value_type(arg);
        if actual != ty {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                    strata_ir::printer::type_to_string(ctx, actual),
                    strata_ir::printer::type_to_string(ctx, ty)
                ),
            ));
        }
    }
    Ok(())
}

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
fn parse_func(p: &mut OpAsmParser<'_, '_>, state: &mut OperationState) -> Result<(), Diagnostic> {
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
        if FUNC_INHERENT.contains(&key.as_str()) {
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
    attributes.extend(extra);
    state.attributes = attributes;
    let body = p.ctx().create_region();
    p.parse_optional_region(body, &arguments)?;
    state.regions.push(body);
    Ok(())
}

fn print_func(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
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

fn dict_items(ctx: &Context, array: Option<Attribute>) -> Vec<Attribute> {
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

/// Function return operation.
///
/// Returns its operands to the caller of the enclosing `func.func`; their
/// types must match the function's results.
#[op("func.return",
     traits(Pure, Terminator, ReturnLike),
     format = "attr-dict ($operands^ `:` type($operands))?",
     verify = verify_return)]
pub struct ReturnOp {
    operands: Variadic<AnyType>,
}

fn verify_return(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let parent = ctx.op_parent_op(op);
    let Some(func) = parent.filter(|&f| ctx.op_name_str(f) == FuncOp::NAME) else {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "expects parent op 'func.func'",
        ));
    };
    let Some((_, results)) = function_signature(ctx, func) else {
        return Ok(());
    };
    let name = ctx
        .symbol_name(func)
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .unwrap_or_default();
    let operands: Vec<Type> = ctx.operands(op).map(|v| ctx.value_type(v)).collect();
    if operands.len() != results.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "has {} operands, but enclosing function (@{name}) returns {}",
                operands.len(),
                results.len()
            ),
        ));
    }
    for (i, (&have, &want)) in operands.iter().zip(&results).enumerate() {
        if have != want {
            return Err(Diagnostic::error(
                ctx.op_loc(op),
                format!(
                    "type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{name}",
                    strata_ir::printer::type_to_string(ctx, have),
                    strata_ir::printer::type_to_string(ctx, want)
                ),
            )
            .on_op(op));
        }
    }
    Ok(())
}

/// Call operation: calls the function named by `callee` with the operands.
#[op("func.call",
     traits(Call),
     format = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)",
     verify_symbol_uses = verify_call)]
pub struct CallOp {
    callee: Attr<FlatSymbolRefAttr>,
    arg_attrs: OptionalAttr<DictArrayAttr>,
    res_attrs: OptionalAttr<DictArrayAttr>,
    no_inline: OptionalAttr<UnitAttr>,
    operands: Variadic<AnyType>,
    results: VariadicResult<AnyType>,
}

fn verify_call(
    ctx: &Context,
    op: Operation,
    symbols: &strata_ir::symbol_table::SymbolTableCollection,
) -> Result<(), Diagnostic> {
    let Some(callee) = CallOp(op).callee(ctx) else {
        return Ok(());
    };
    let AttrKind::SymbolRef { root, .. } = ctx.attr_kind(callee) else {
        return Ok(());
    };
    let name = String::from_utf8_lossy(root).into_owned();
    let target = symbols
        .lookup_nearest(ctx, op, root)
        .filter(|&o| ctx.op_name_str(o) == FuncOp::NAME);
    let Some(target) = target else {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!("'{name}' does not reference a valid function"),
        ));
    };
    let Some((inputs, results)) = function_signature(ctx, target) else {
        return Ok(());
    };
    if inputs.len() != ctx.num_operands(op) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "incorrect number of operands for callee",
        ));
    }
    for (i, (value, &want)) in ctx.operands(op).zip(&inputs).enumerate() {
        let have = ctx.value_type(value);
        if have != want {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "operand type mismatch: expected operand type '{}', but provided '{}' for operand number {i}",
                    strata_ir::printer::type_to_string(ctx, want),
                    strata_ir::printer::type_to_string(ctx, have)
                ),
            ));
        }
    }
    if results.len() != ctx.num_results(op) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "incorrect number of results for callee",
        ));
    }
    for (i, (value, &want)) in ctx.results(op).zip(&results).enumerate() {
        let have = ctx.value_type(value);
        if have != want {
            let have_s = strata_ir::printer::type_to_string(ctx, have);
            let want_s = strata_ir::printer::type_to_string(ctx, want);
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("result type mismatch at index {i}"),
            )
            .with_note(ctx.op_loc(op), format!("      op result types: '{have_s}'"))
            .with_note(ctx.op_loc(op), format!("function result types: '{want_s}'")));
        }
    }
    Ok(())
}

/// Register the func dialect.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "func");
}
