//! Function values: `func.constant` (a function as an SSA value) and
//! `func.call_indirect` (a call of one), with their custom form, checks,
//! folder, constant materializer and MLIR's canonicalization of an
//! indirect call of a constant into a `func.call`.

use strata_ir::attributes::AttrKind;
use strata_ir::dialect::FoldResult;
use strata_ir::parser::asm::{Delimiter, OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{
    Attribute, Context, Diagnostic, Location, Operation, OperationState, Type, TypeKind, Value,
};

use super::ops::{ConstantOp, FuncOp};
use super::verify::lookup_func;

/// The inputs and results of a function type.
fn signature(ctx: &Context, ty: Type) -> Option<(Vec<Type>, Vec<Type>)> {
    match ctx.type_kind(ty) {
        TypeKind::Function { inputs, results } => Some((inputs.clone(), results.clone())),
        _ => None,
    }
}

pub(super) fn parse_call_indirect(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let callee = p.parse_operand()?;
    p.parse_punct(Punct::LParen)?;
    let operands_pos = p.pos();
    let operands = p.parse_operand_list(Delimiter::None)?;
    p.parse_punct(Punct::RParen)?;
    state.attributes.extend(p.parse_optional_attr_dict()?);
    p.parse_punct(Punct::Colon)?;
    let type_pos = p.pos();
    let ty = p.parse_type()?;
    let Some((inputs, results)) = signature(p.ctx(), ty) else {
        let name = strata_ir::printer::type_to_string(p.ctx(), ty);
        return Err(p.error_at(
            type_pos,
            format!(
                "invalid kind of type specified: expected builtin.function, but found '{name}'"
            ),
        ));
    };
    let callee = p.resolve_operand(callee, ty)?;
    if operands.len() != inputs.len() {
        return Err(p.error_at(
            operands_pos,
            format!(
                "number of operands and types do not match: got {} operands and {} types",
                operands.len(),
                inputs.len()
            ),
        ));
    }
    let operands = p.resolve_operands(&operands, &inputs, operands_pos)?;
    state.operands.push(callee);
    state.operands.extend(operands);
    state.result_types = results;
    Ok(())
}

pub(super) fn print_call_indirect(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let operands: Vec<Value> = ctx.operands(op).collect();
    let Some((&callee, args)) = operands.split_first() else {
        return;
    };
    p.write_char(' ');
    p.print_operand(callee);
    p.write_char('(');
    p.print_operands(args.iter().copied());
    p.write_char(')');
    p.print_optional_attr_dict(op, &[]);
    p.write(" : ");
    p.print_type(ctx.value_type(callee));
}

/// MLIR's `TypesMatchWith` checks: the callee is a function whose inputs
/// are the operands' types and whose results are the results' types.
pub(super) fn verify_call_indirect(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let Some(callee) = ctx.operands(op).next() else {
        return Ok(());
    };
    let ty = ctx.value_type(callee);
    let Some((inputs, results)) = signature(ctx, ty) else {
        let name = strata_ir::printer::type_to_string(ctx, ty);
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!("operand #0 must be function type, but got '{name}'"),
        ));
    };
    let args: Vec<Type> = ctx
        .operands(op)
        .skip(1)
        .map(|v| ctx.value_type(v))
        .collect();
    if args != inputs {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that callee input types match argument types",
        ));
    }
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    if outs != results {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that callee result types match result types",
        ));
    }
    Ok(())
}

/// The function a `func.constant` names must exist and have its type.
pub(super) fn verify_constant_use(
    ctx: &Context,
    op: Operation,
    symbols: &strata_ir::symbol_table::SymbolTableCollection,
) -> Result<(), Diagnostic> {
    let Some(value) = ConstantOp(op).value(ctx) else {
        return Ok(());
    };
    let target = match lookup_func(ctx, op, value, symbols) {
        Ok(Some(target)) => target,
        Ok(None) => return Ok(()),
        Err(name) => {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("reference to undefined function '{name}'"),
            ))
        }
    };
    let ty = FuncOp(target)
        .function_type(ctx)
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Type(t) => Some(*t),
            _ => None,
        });
    if ty != Some(ctx.value_type(ctx.result(op, 0))) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "reference to function with mismatched type",
        ));
    }
    Ok(())
}

/// A constant folds to its symbol.
pub(super) fn fold_constant(
    ctx: &mut Context,
    op: Operation,
    _: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Attr(ConstantOp(op).value(ctx)?)])
}

/// `%f`, as MLIR names a function constant.
pub(super) fn constant_names(ctx: &Context, op: Operation) -> Vec<(Value, String)> {
    vec![(ctx.result(op, 0), "f".to_string())]
}

/// A symbol of function type is a `func.constant` (MLIR's func dialect
/// materializer).
pub(super) fn materialize_constant(
    ctx: &mut Context,
    value: Attribute,
    ty: Type,
    loc: Location,
) -> Option<Operation> {
    let flat =
        matches!(ctx.attr_kind(value), AttrKind::SymbolRef { nested, .. } if nested.is_empty());
    if !flat || signature(ctx, ty).is_none() {
        return None;
    }
    Some(ConstantOp::build(ctx, loc, value, ty).op())
}

/// `call_indirect` of a constant function: a `func.call` of it (MLIR's
/// `CallIndirectOp::canonicalize`, which keeps no attribute).
fn call_of_constant(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some(callee) = rewriter.ctx().operands(op).next() else {
        return false;
    };
    let Some(symbol) = strata_ir::rewrite::constant_value(rewriter.ctx_mut(), callee) else {
        return false;
    };
    if !matches!(rewriter.ctx().attr_kind(symbol), AttrKind::SymbolRef { .. }) {
        return false;
    }
    let ctx = rewriter.ctx();
    let operands: Vec<Value> = ctx.operands(op).skip(1).collect();
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    let loc = ctx.op_loc(op);
    let ctx = rewriter.ctx_mut();
    let name = ctx.ident("func.call");
    let mut state = OperationState::new(name, loc);
    state.attributes = vec![(ctx.ident("callee"), symbol)];
    state.operands = operands;
    state.result_types = results;
    rewriter.replace_op_with_new(op, state);
    true
}

pub(super) fn call_indirect_patterns(patterns: &mut RewritePatternSet) {
    patterns.add(FnPattern::new(
        "func.call_indirect",
        "CallIndirectOfConstant",
        call_of_constant,
    ));
}
