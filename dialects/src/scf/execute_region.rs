//! `scf.execute_region`: runs its region, which may hold several blocks,
//! once, and yields its values. Its custom form, verifier, region
//! successors and the patterns that inline it, as MLIR 22 has them:
//!
//! ```text
//! %v = scf.execute_region -> i64 {
//!   cf.cond_br %c, ^bb1, ^bb2
//! ^bb1:
//!   scf.yield %a : i64
//! ^bb2:
//!   scf.yield %b : i64
//! }
//! ```

use strata_ir::interfaces::RegionSuccessor;
use strata_ir::parser::asm::{OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{Context, Diagnostic, Operation, OperationState, Type};

pub(super) fn parse_execute_region(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    if p.parse_optional_punct(Punct::Arrow) {
        state.result_types = p.parse_function_result_types()?;
    }
    let region = p.ctx().create_region();
    p.parse_region(region, &[])?;
    state.regions.push(region);
    state.attributes.extend(p.parse_optional_attr_dict()?);
    Ok(())
}

pub(super) fn print_execute_region(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let types: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    if !types.is_empty() {
        p.write(" -> ");
        p.print_result_types(&types);
    }
    p.write_char(' ');
    if let Some(&region) = ctx.op_regions(op).first() {
        p.print_region(region, false, true);
    }
    p.print_optional_attr_dict(op, &[]);
}

pub(super) fn verify_execute_region(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let entry = ctx
        .op_regions(op)
        .first()
        .and_then(|&r| ctx.region_entry_block(r));
    let Some(entry) = entry else {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "region needs to have at least one block",
        ));
    };
    if ctx.block_args(entry).len() > 0 {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "region cannot have any arguments",
        ));
    }
    Ok(())
}

/// Entering runs the region; its end goes out.
pub(super) fn execute_region_successors(
    _: &Context,
    _: Operation,
    point: Option<usize>,
    _: &[Option<strata_ir::Attribute>],
) -> Vec<RegionSuccessor> {
    match point {
        None => vec![RegionSuccessor::Region(0)],
        Some(_) => vec![RegionSuccessor::Parent],
    }
}
