//! The verifiers of `func.func`, `func.return` (against the enclosing
//! function's results) and `func.call` (against its callee's signature).

use strata_ir::attributes::AttrKind;
use strata_ir::{Context, Diagnostic, Operation, Type};

use crate::func::function_signature;
use crate::func::ops::{CallOp, FuncOp};
use crate::func::syntax::dict_items;

pub(super) fn verify_func(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
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
    // SymbolOpInterface: a symbol that is not `nested` sits in a symbol table.
    let nested = ctx.symbol_visibility(op) == Some(b"nested");
    if !nested
        && ctx
            .op_parent_op(op)
            .is_some_and(|p| !ctx.is_symbol_table(p))
    {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "symbol's parent must have the SymbolTable trait",
        ));
    }
    // FunctionOpInterface: one attribute dictionary per argument and result,
    // holding dialect attributes only (their names have a `.`).
    for (what, attr, count) in [
        ("argument", FuncOp(op).arg_attrs(ctx), inputs.len()),
        ("result", FuncOp(op).res_attrs(ctx), results.len()),
    ] {
        let dicts = dict_items(ctx, attr);
        let n = dicts.len();
        if attr.is_some() && n != count {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "expects {what} attribute array to have the same number of elements as the number of function {what}s, got {n}, but expected {count}"
                ),
            ));
        }
        if dicts
            .iter()
            .flat_map(|&d| ctx.dictionary_entries(d))
            .any(|&(name, _)| !ctx.ident_str(name).contains('.'))
        {
            let plural = if what == "argument" {
                "arguments"
            } else {
                "results"
            };
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("{plural} may only have dialect attributes"),
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

pub(super) fn verify_return(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
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

/// The `func.func` that `symbol` names as seen from `op`: `Ok(None)` when
/// `symbol` is no symbol reference, `Err(name)` when no function has the
/// name (`func.call` and `func.constant` each say so in their words).
pub(super) fn lookup_func(
    ctx: &Context,
    op: Operation,
    symbol: strata_ir::Attribute,
    symbols: &strata_ir::symbol_table::SymbolTableCollection,
) -> Result<Option<Operation>, String> {
    let AttrKind::SymbolRef { root, .. } = ctx.attr_kind(symbol) else {
        return Ok(None);
    };
    symbols
        .lookup_nearest(ctx, op, root)
        .filter(|&o| ctx.op_name_str(o) == FuncOp::NAME)
        .map(Some)
        .ok_or_else(|| String::from_utf8_lossy(root).into_owned())
}

pub(super) fn verify_call(
    ctx: &Context,
    op: Operation,
    symbols: &strata_ir::symbol_table::SymbolTableCollection,
) -> Result<(), Diagnostic> {
    let Some(callee) = CallOp(op).callee(ctx) else {
        return Ok(());
    };
    let target = match lookup_func(ctx, op, callee, symbols) {
        Ok(Some(target)) => target,
        Ok(None) => return Ok(()),
        Err(name) => {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("'{name}' does not reference a valid function"),
            ))
        }
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
            let list = |types: Vec<Type>| {
                types
                    .iter()
                    .map(|&t| format!("'{}'", strata_ir::printer::type_to_string(ctx, t)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let have_s = list(ctx.results(op).map(|v| ctx.value_type(v)).collect());
            let want_s = list(results.clone());
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("result type mismatch at index {i}"),
            )
            .with_note(ctx.op_loc(op), format!("      op result types: {have_s}"))
            .with_note(ctx.op_loc(op), format!("function result types: {want_s}")));
        }
    }
    Ok(())
}
