//! `scf.index_switch`: runs the region of the case whose value equals the
//! index `arg`, or the default region, and yields its values. Its custom
//! form, verifier, region successors and constant-argument fold, as MLIR
//! 22 has them:
//!
//! ```text
//! %0 = scf.index_switch %i -> i32
//! case 2 {
//!   scf.yield %a : i32
//! }
//! default {
//!   scf.yield %b : i32
//! }
//! ```

use strata_ir::attributes::AttrKind;
use strata_ir::interfaces::RegionSuccessor;
use strata_ir::parser::asm::{OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{Attribute, Context, Diagnostic, Operation, OperationState, Region};

use super::ops::IndexSwitchOp;
use super::syntax::ensure_terminator;
use super::terminator;

/// The case values.
pub(super) fn case_values(ctx: &Context, op: Operation) -> Vec<i64> {
    match IndexSwitchOp(op).cases(ctx).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::DenseArray { values, .. }) => values.iter().map(|&v| v as i64).collect(),
        _ => Vec::new(),
    }
}

pub(super) fn parse_index_switch(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let arg = p.parse_operand()?;
    state.attributes.extend(p.parse_optional_attr_dict()?);
    if p.parse_optional_punct(Punct::Arrow) {
        state.result_types = p.parse_type_list()?;
    }
    let loc = p.loc(p.name_pos());
    let (mut cases, mut regions) = (Vec::new(), Vec::new());
    while p.parse_optional_keyword("case") {
        let pos = p.pos();
        let value = p.parse_integer()?;
        let value = i64::try_from(value).map_err(|_| p.error_at(pos, "integer value too large"))?;
        cases.push(value as u64);
        let region = p.ctx().create_region();
        p.parse_region(region, &[])?;
        ensure_terminator(p.ctx(), region, loc);
        regions.push(region);
    }
    p.parse_keyword("default")?;
    let default = p.ctx().create_region();
    p.parse_region(default, &[])?;
    ensure_terminator(p.ctx(), default, loc);
    // Resolved last, as MLIR's generated parser does.
    let index = p.ctx().index_type();
    let arg = p.resolve_operand(arg, index)?;
    state.operands.push(arg);
    let ctx = p.ctx();
    let element = ctx.integer_type(64);
    let cases = ctx.intern_attr(AttrKind::DenseArray {
        element,
        values: cases.into(),
    });
    state.attributes.push((ctx.ident("cases"), cases));
    state.regions.push(default);
    state.regions.extend(regions);
    Ok(())
}

pub(super) fn print_index_switch(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    p.write_char(' ');
    p.print_operand(ctx.operand(op, 0));
    p.print_optional_attr_dict(op, &["cases"]);
    if ctx.num_results(op) > 0 {
        p.write(" -> ");
        p.print_value_types(ctx.results(op));
    }
    p.write_char(' ');
    let regions = ctx.op_regions(op).to_vec();
    for (value, &region) in case_values(ctx, op).iter().zip(regions.iter().skip(1)) {
        p.print_newline(0);
        p.write(&format!("case {value} "));
        p.print_region(region, false, true);
    }
    p.print_newline(0);
    p.write("default ");
    if let Some(&default) = regions.first() {
        // The implicit terminator is left out when it yields nothing.
        let print_terminator = terminator(ctx, default).is_some_and(|t| {
            ctx.num_operands(t) != 0 || !ctx.dictionary_entries(ctx.op_attr_dict(t)).is_empty()
        });
        p.print_region(default, true, print_terminator);
    }
}

/// MLIR 22's rules: one region per case value, no value twice, and every
/// region yields the results' types.
pub(super) fn verify_index_switch(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let cases = case_values(ctx, op);
    let regions = ctx.op_regions(op).to_vec();
    let case_regions = regions.len().saturating_sub(1);
    if cases.len() != case_regions {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "has {case_regions} case regions but {} case values",
                cases.len()
            ),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(v) = cases.iter().find(|v| !seen.insert(**v)) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!("has duplicate case value: {v}"),
        ));
    }
    let results: Vec<strata_ir::Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    let check = |region: Region, name: String| -> Result<(), Diagnostic> {
        let Some(last) = ctx
            .region_entry_block(region)
            .and_then(|b| ctx.block_last_op(b))
        else {
            return Ok(());
        };
        if ctx.op_name_str(last) != "scf.yield" {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "expected region to end with scf.yield, but got {}",
                    ctx.op_name_str(last)
                ),
            ));
        }
        let yielded: Vec<strata_ir::Type> = ctx.operands(last).map(|v| ctx.value_type(v)).collect();
        if yielded.len() != results.len() {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "expected each region to return {} values, but {name} returns {}",
                    results.len(),
                    yielded.len()
                ),
            )
            .with_note(ctx.op_loc(last), "see yield operation here"));
        }
        for (i, (want, have)) in results.iter().zip(&yielded).enumerate() {
            if want != have {
                let name_of = |t| strata_ir::printer::type_to_string(ctx, t);
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!(
                        "expected result #{i} of each region to be '{}'",
                        name_of(*want)
                    ),
                )
                .with_note(
                    ctx.op_loc(last),
                    format!("{name} returns '{}' here", name_of(*have)),
                ));
            }
        }
        Ok(())
    };
    if let Some(&default) = regions.first() {
        check(default, "default region".into())?;
    }
    for (i, &region) in regions.iter().skip(1).enumerate() {
        check(region, format!("case region #{i}"))?;
    }
    Ok(())
}

/// Entering goes to the region of the case equal to a known argument (the
/// default region when none is), or to any region; each region's end goes
/// out.
pub(super) fn index_switch_successors(
    ctx: &Context,
    op: Operation,
    point: Option<usize>,
    constants: &[Option<Attribute>],
) -> Vec<RegionSuccessor> {
    if point.is_some() {
        return vec![RegionSuccessor::Parent];
    }
    if let Some(AttrKind::Integer { value, .. }) = constants
        .first()
        .copied()
        .flatten()
        .map(|a| ctx.attr_kind(a))
    {
        let arg = *value as i64;
        let case = case_values(ctx, op).iter().position(|&c| c == arg);
        return vec![RegionSuccessor::Region(case.map_or(0, |i| i + 1))];
    }
    (0..ctx.op_regions(op).len())
        .map(RegionSuccessor::Region)
        .collect()
}
