//! The branches' verifiers: each successor gets as many values as it has
//! block arguments, of their types (MLIR's `BranchOpInterface`, with its
//! messages, which name no op); and the `Branch` interface: the operands
//! each successor gets, the successor known operands take.

use strata_ir::attributes::AttrKind;
use strata_ir::{Attribute, Context, Diagnostic, Operation, Value};

use super::ops::{BranchOp, CondBranchOp, SwitchOp};
use super::syntax::{case_operand_groups, case_values};

/// `values` against the arguments of successor `index` of `op`.
fn verify_successor(
    ctx: &Context,
    op: Operation,
    index: usize,
    values: &[Value],
) -> Result<(), Diagnostic> {
    let Some(dest) = ctx.successors(op).nth(index) else {
        return Ok(());
    };
    let args: Vec<Value> = ctx.block_args(dest).collect();
    if values.len() != args.len() {
        return Err(Diagnostic::error(
            ctx.op_loc(op),
            format!(
                "branch has {} operands for successor #{index}, but target block has {}",
                values.len(),
                args.len()
            ),
        )
        .on_op(op));
    }
    for (i, (&v, &a)) in values.iter().zip(&args).enumerate() {
        if ctx.value_type(v) != ctx.value_type(a) {
            return Err(Diagnostic::error(
                ctx.op_loc(op),
                format!("type mismatch for bb argument #{i} of successor #{index}"),
            )
            .on_op(op));
        }
    }
    Ok(())
}

pub(super) fn verify_br(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    verify_successor(ctx, op, 0, &BranchOp(op).dest_operands(ctx))
}

pub(super) fn verify_cond_br(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let branch = CondBranchOp(op);
    verify_successor(ctx, op, 0, &branch.true_dest_operands(ctx))?;
    verify_successor(ctx, op, 1, &branch.false_dest_operands(ctx))?;
    // MLIR's WeightedBranchOpInterface: one weight per successor, not all 0.
    if let Some(AttrKind::DenseArray { values, .. }) =
        branch.branch_weights(ctx).map(|a| ctx.attr_kind(a))
    {
        let error = |message: String| Err(Diagnostic::error(ctx.op_loc(op), message).on_op(op));
        if values.len() != ctx.num_successors(op) {
            return error(format!(
                "expects number of branch weights to match number of successors: {} vs {}",
                values.len(),
                ctx.num_successors(op)
            ));
        }
        if values.iter().all(|&w| w as u32 == 0) {
            return error("branch weights cannot all be zero".into());
        }
    }
    Ok(())
}

pub(super) fn verify_switch(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let switch = SwitchOp(op);
    let dests = ctx.num_successors(op).saturating_sub(1);
    let case_operands = switch.case_operands(ctx).len();
    let segments: Vec<u32> = match switch.case_operand_segments(ctx).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::DenseArray { values, .. }) => values.iter().map(|&v| v as u32).collect(),
        _ => Vec::new(),
    };
    let total: u64 = segments.iter().map(|&s| u64::from(s)).sum();
    if total != case_operands as u64 {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "caseOperands count ({case_operands}) does not match with the total size ({total}) \
                 specified in attribute 'case_operand_segments'"
            ),
        ));
    }
    if let (Some(attr), Some(flag)) = (switch.case_values(ctx), switch.flag(ctx)) {
        let flag = ctx.value_type(flag);
        let AttrKind::DenseElements { ty, .. } = ctx.attr_kind(attr) else {
            return Ok(());
        };
        let element = ctx.type_kind(*ty).element_type();
        if element != Some(flag) {
            let name = |t| strata_ir::printer::type_to_string(ctx, t);
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "'flag' type ('{}') should match case value type ('{}')",
                    name(flag),
                    element.map(name).unwrap_or_default()
                ),
            ));
        }
    }
    // (MLIR 22 crashes on case destinations without case values.)
    let values = case_values(ctx, op).len();
    if values != dests {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "number of case values ({values}) should match number of case destinations ({dests})"
            ),
        ));
    }
    if segments.len() != dests {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "'case_operand_segments' has {} entries for {dests} case destinations",
                segments.len()
            ),
        ));
    }
    verify_successor(ctx, op, 0, &switch.default_operands(ctx))?;
    for (i, group) in case_operand_groups(ctx, op).iter().enumerate() {
        verify_successor(ctx, op, i + 1, group)?;
    }
    Ok(())
}

/// `cf.br` passes its operands to its one successor, always taken.
pub(super) fn br_operands(ctx: &Context, op: Operation, _: usize) -> std::ops::Range<usize> {
    0..ctx.num_operands(op)
}

pub(super) fn br_taken(_: &Context, _: Operation, _: &[Option<Attribute>]) -> Option<usize> {
    Some(0)
}

/// The operand range of group `group` of `op`, sized by
/// `operandSegmentSizes`.
fn group_range(ctx: &Context, op: Operation, group: usize) -> std::ops::Range<usize> {
    let sizes = segment_sizes(ctx, op, "operandSegmentSizes");
    let start: usize = sizes.iter().take(group).sum();
    start..start + sizes.get(group).copied().unwrap_or(0)
}

/// `cf.cond_br`: successor 0 (true) or 1 (false), with its operand group.
pub(super) fn cond_br_operands(
    ctx: &Context,
    op: Operation,
    successor: usize,
) -> std::ops::Range<usize> {
    group_range(ctx, op, 1 + successor.min(1))
}

/// A known condition takes one successor.
pub(super) fn cond_br_taken(
    ctx: &Context,
    _: Operation,
    constants: &[Option<Attribute>],
) -> Option<usize> {
    let taken = constants.first().copied().flatten()?;
    Some(if ctx.bool_value(taken)? { 0 } else { 1 })
}

/// `cf.switch`: successor 0 is the default, successor `i + 1` case `i`.
pub(super) fn switch_operands(
    ctx: &Context,
    op: Operation,
    successor: usize,
) -> std::ops::Range<usize> {
    if successor == 0 {
        return group_range(ctx, op, 1);
    }
    let cases = segment_sizes(ctx, op, "case_operand_segments");
    let base = group_range(ctx, op, 2).start;
    let start = base + cases.iter().take(successor - 1).sum::<usize>();
    start..start + cases.get(successor - 1).copied().unwrap_or(0)
}

/// A known flag takes the case equal to it, or the default.
pub(super) fn switch_taken(
    ctx: &Context,
    op: Operation,
    constants: &[Option<Attribute>],
) -> Option<usize> {
    let Some(AttrKind::Integer { ty, value }) = constants
        .first()
        .copied()
        .flatten()
        .map(|a| ctx.attr_kind(a))
    else {
        return None;
    };
    let flag = int_bits(ctx, *ty, *value);
    let case = case_values(ctx, op).iter().position(|&c| c == flag);
    Some(case.map_or(0, |i| i + 1))
}

/// The `i32` dense array property `name` of `op`, as sizes.
fn segment_sizes(ctx: &Context, op: Operation, name: &str) -> Vec<usize> {
    match strata_ir::ods::inherent_attr(ctx, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::DenseArray { values, .. }) => {
            values.iter().map(|&v| v as u32 as usize).collect()
        }
        _ => Vec::new(),
    }
}

/// Remove operand `index` of group `group` of `op`'s operands, sized by
/// `operandSegmentSizes`.
fn erase_from_group(ctx: &mut Context, op: Operation, group: usize, index: usize) {
    let mut sizes = segment_sizes(ctx, op, "operandSegmentSizes");
    if group >= sizes.len() || index >= sizes[group] {
        return;
    }
    let start: usize = sizes[..group].iter().sum();
    ctx.erase_operand(op, start + index);
    sizes[group] -= 1;
    let attr = ctx.segment_sizes_attr(&sizes);
    ctx.set_op_property(op, "operandSegmentSizes", attr);
}

pub(super) fn br_erase_operand(ctx: &mut Context, op: Operation, _: usize, index: usize) {
    ctx.erase_operand(op, index);
}

pub(super) fn cond_br_erase_operand(
    ctx: &mut Context,
    op: Operation,
    successor: usize,
    index: usize,
) {
    erase_from_group(ctx, op, 1 + successor.min(1), index);
}

pub(super) fn switch_erase_operand(
    ctx: &mut Context,
    op: Operation,
    successor: usize,
    index: usize,
) {
    if successor == 0 {
        return erase_from_group(ctx, op, 1, index);
    }
    let mut cases = segment_sizes(ctx, op, "case_operand_segments");
    let case = successor - 1;
    if case >= cases.len() || index >= cases[case] {
        return;
    }
    let before: usize = cases[..case].iter().sum();
    erase_from_group(ctx, op, 2, before + index);
    cases[case] -= 1;
    let attr = ctx.segment_sizes_attr(&cases);
    ctx.set_op_property(op, "case_operand_segments", attr);
}

/// An integer attribute's value as the low `width` bits (at most 128) of
/// its type, zero-extended: how `case_values` reads case values.
pub(super) fn int_bits(ctx: &Context, ty: strata_ir::Type, value: u128) -> u128 {
    let width = ctx.int_or_float_bit_width(ty).unwrap_or(64);
    if width >= 128 {
        value
    } else {
        value & ((1u128 << width) - 1)
    }
}
