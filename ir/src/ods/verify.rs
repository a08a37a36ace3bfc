//! The verifier of every declarative op: operand, result, region and
//! successor counts, attributes, value types, regions and traits, checked
//! against the op's [`OpSpec`] with MLIR's messages.

use super::{
    group_range, group_sizes, inherent_attr, operand_group, result_group, Arity, AttrPresence,
    OpSpec, ValueSpec,
};
use crate::context::{Context, Operation, Type};
use crate::diagnostics::Diagnostic;

fn type_str(ctx: &Context, ty: Type) -> String {
    crate::printer::type_to_string(ctx, ty)
}

/// The verifier of every declarative op: counts, attributes, operand and
/// result types, regions, traits, then the op's own verifier, in MLIR's order.
pub fn verify_op(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let Some(spec) = ctx.op_definition(op).and_then(|d| d.spec) else {
        return Ok(());
    };
    verify_counts(ctx, op, spec)?;
    verify_attributes(ctx, op, spec)?;
    verify_value_groups(ctx, op, spec)?;
    // MLIR's generated verifier checks the predicate traits (`AllTypesMatch`)
    // after operand and result types and before regions.
    verify_all_types_match(ctx, op, spec)?;
    if let Some(verify) = spec.verify_predicates {
        verify(ctx, op)?;
    }
    verify_regions_decl(ctx, op, spec)?;
    verify_traits(ctx, op, spec)?;
    if let Some(verify) = spec.verify {
        verify(ctx, op)?;
    }
    // After the op's invariants and its parent (`HasParent`, which strata's
    // ops check in their own verifier), as mlir-opt 22 reports them.
    if spec.traits.terminator && ctx.op_next(op).is_some() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "must be the last operation in the parent block",
        ));
    }
    Ok(())
}

/// Whether `op` has the operand, result, region and successor counts its
/// spec declares (and computable segment sizes): what custom printers rely
/// on. An op without them prints in the generic form, as MLIR prints ops
/// that fail to verify.
pub fn has_declared_shape(ctx: &Context, op: Operation, spec: &OpSpec) -> bool {
    verify_counts(ctx, op, spec).is_ok()
        && group_sizes(
            ctx,
            op,
            spec.operands,
            ctx.num_operands(op),
            "operandSegmentSizes",
        )
        .is_ok()
        && group_sizes(
            ctx,
            op,
            spec.results,
            ctx.num_results(op),
            "resultSegmentSizes",
        )
        .is_ok()
}

fn verify_counts(ctx: &Context, op: Operation, spec: &OpSpec) -> Result<(), Diagnostic> {
    let num_regions = ctx.op_regions(op).len();
    let declared_regions = spec.regions.len();
    if !spec.regions.iter().any(|r| r.variadic) && num_regions != declared_regions {
        let message = match declared_regions {
            0 => "requires zero regions".to_string(),
            1 => "requires one region".to_string(),
            n => format!("expected {n} regions"),
        };
        return Err(Diagnostic::op_error(ctx, op, message));
    }
    let results = ctx.num_results(op);
    let fixed_results = spec
        .results
        .iter()
        .filter(|r| r.arity == Arity::Single)
        .count();
    if !spec.has_variadic_results() {
        if results != fixed_results {
            let message = match fixed_results {
                0 => "requires zero results".to_string(),
                1 => "requires one result".to_string(),
                n => format!("expected {n} results, but found {results}"),
            };
            return Err(Diagnostic::op_error(ctx, op, message));
        }
    } else if results < fixed_results {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!("expected {fixed_results} or more results, but found {results}"),
        ));
    }
    let successors = ctx.num_successors(op);
    if spec.successors.is_empty() && successors != 0 {
        return Err(Diagnostic::op_error(ctx, op, "requires zero successors"));
    }
    if !spec.successors.iter().any(|s| s.variadic) && successors != spec.successors.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "requires {} successor{} but found {successors}",
                spec.successors.len(),
                if spec.successors.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    let operands = ctx.num_operands(op);
    let fixed_operands = spec
        .operands
        .iter()
        .filter(|o| o.arity == Arity::Single)
        .count();
    if !spec.has_variadic_operands() {
        if operands != fixed_operands {
            let message = match fixed_operands {
                0 => "requires zero operands".to_string(),
                1 => "requires a single operand".to_string(),
                n => format!("expected {n} operands, but found {operands}"),
            };
            return Err(Diagnostic::op_error(ctx, op, message));
        }
    } else if operands < fixed_operands {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!("expected {fixed_operands} or more operands, but found {operands}"),
        ));
    }
    Ok(())
}

fn verify_attributes(ctx: &Context, op: Operation, spec: &OpSpec) -> Result<(), Diagnostic> {
    for attr in spec.attributes {
        match inherent_attr(ctx, op, attr.name) {
            None if attr.presence == AttrPresence::Required => {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!("requires attribute '{}'", attr.name),
                ));
            }
            None => {}
            Some(value) if !(attr.constraint.check)(ctx, value) => {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!(
                        "attribute '{}' failed to satisfy constraint: {}",
                        attr.name, attr.constraint.summary
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

fn verify_value_groups(ctx: &Context, op: Operation, spec: &OpSpec) -> Result<(), Diagnostic> {
    // The common case, every group a single value: no sizes to compute.
    if !spec.has_variadic_operands() && !spec.has_variadic_results() {
        for (i, (value, group)) in ctx.operands(op).zip(spec.operands).enumerate() {
            check_value_type(ctx, op, "operand", i, ctx.value_type(value), group)?;
        }
        for (i, (value, group)) in ctx.results(op).zip(spec.results).enumerate() {
            check_value_type(ctx, op, "result", i, ctx.value_type(value), group)?;
        }
        return Ok(());
    }
    let operand_sizes = group_sizes(
        ctx,
        op,
        spec.operands,
        ctx.num_operands(op),
        "operandSegmentSizes",
    )
    .map_err(|m| Diagnostic::op_error(ctx, op, m))?;
    for (index, group) in spec.operands.iter().enumerate() {
        let range = group_range(&operand_sizes, index);
        if group.arity == Arity::Optional && range.len() > 1 {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "operand group starting at #{} requires 0 or 1 element, but found {}",
                    range.start,
                    range.len()
                ),
            ));
        }
        for i in range {
            let ty = ctx.value_type(ctx.operand(op, i));
            if !(group.constraint.check)(ctx, ty) {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!(
                        "operand #{i} must be {}, but got '{}'",
                        group.constraint.summary,
                        type_str(ctx, ty)
                    ),
                ));
            }
        }
    }
    let result_sizes = group_sizes(
        ctx,
        op,
        spec.results,
        ctx.num_results(op),
        "resultSegmentSizes",
    )
    .map_err(|m| Diagnostic::op_error(ctx, op, m))?;
    for (index, group) in spec.results.iter().enumerate() {
        let range = group_range(&result_sizes, index);
        if group.arity == Arity::Optional && range.len() > 1 {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "result group starting at #{} requires 0 or 1 element, but found {}",
                    range.start,
                    range.len()
                ),
            ));
        }
        for i in range {
            let ty = ctx.value_type(ctx.result(op, i));
            if !(group.constraint.check)(ctx, ty) {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!(
                        "result #{i} must be {}, but got '{}'",
                        group.constraint.summary,
                        type_str(ctx, ty)
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_value_type(
    ctx: &Context,
    op: Operation,
    what: &str,
    index: usize,
    ty: Type,
    group: &ValueSpec,
) -> Result<(), Diagnostic> {
    if (group.constraint.check)(ctx, ty) {
        return Ok(());
    }
    Err(Diagnostic::op_error(
        ctx,
        op,
        format!(
            "{what} #{index} must be {}, but got '{}'",
            group.constraint.summary,
            type_str(ctx, ty)
        ),
    ))
}

fn verify_regions_decl(ctx: &Context, op: Operation, spec: &OpSpec) -> Result<(), Diagnostic> {
    for (i, region) in ctx.op_regions(op).iter().enumerate() {
        // A variadic group (the last one) declares every region after it.
        let Some(decl) = spec
            .regions
            .get(i)
            .or_else(|| spec.regions.last().filter(|d| d.variadic))
        else {
            break;
        };
        if let Some(n) = decl.num_blocks {
            if ctx.region_blocks(*region).count() != n {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!(
                        "region #{i} ('{}') failed to verify constraint: region with {n} blocks",
                        decl.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn verify_traits(ctx: &Context, op: Operation, spec: &OpSpec) -> Result<(), Diagnostic> {
    if spec.trait_order.is_empty() {
        return Ok(());
    }
    let operand_types = || ctx.operands(op).map(|v| ctx.value_type(v));
    let all_types = || {
        ctx.operands(op)
            .chain(ctx.results(op))
            .map(|v| ctx.value_type(v))
    };
    let all_equal = |mut types: Box<dyn Iterator<Item = Type> + '_>| match types.next() {
        Some(first) => types.all(|t| t == first),
        None => true,
    };
    for &name in spec.trait_order {
        match name {
            "same_type_operands" if !all_equal(Box::new(operand_types())) => {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    "requires all operands to have the same type",
                ));
            }
            "same_operands_and_result_shape" => {
                let mut types = operand_types();
                let Some(first) = types.next() else {
                    continue;
                };
                let mut others = ctx.results(op).map(|v| ctx.value_type(v)).chain(types);
                if !others.all(|t| compatible_shapes(ctx, t, first)) {
                    return Err(Diagnostic::op_error(
                        ctx,
                        op,
                        "requires the same shape for all operands and results",
                    ));
                }
            }
            // Scalars only: nothing to compare.
            "elementwise" if all_types().any(|t| ctx.type_kind(t).element_type().is_some()) => {
                let operands: Vec<Type> = operand_types().collect();
                let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
                verify_elementwise(ctx, op, &operands, &results)?;
            }
            "same_operands_and_result_type" if !all_equal(Box::new(all_types())) => {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    "requires the same type for all operands and results",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// MLIR's `verifyCompatibleShape` on two types: both shaped or neither;
/// an unranked one fits any; ranked ones have one rank, equal static sizes
/// (a dynamic size fits any), and vectors the same scalable dimensions.
fn compatible_shapes(ctx: &Context, a: Type, b: Type) -> bool {
    use crate::types::TypeKind;
    let shaped = |k: &TypeKind| {
        matches!(
            k,
            TypeKind::RankedTensor { .. }
                | TypeKind::UnrankedTensor { .. }
                | TypeKind::MemRef { .. }
                | TypeKind::UnrankedMemRef { .. }
                | TypeKind::Vector { .. }
        )
    };
    let (ka, kb) = (ctx.type_kind(a), ctx.type_kind(b));
    if !shaped(ka) || !shaped(kb) {
        return shaped(ka) == shaped(kb);
    }
    if let (TypeKind::Vector { scalable: sa, .. }, TypeKind::Vector { scalable: sb, .. }) = (ka, kb)
    {
        if sa != sb {
            return false;
        }
    }
    let (Some(da), Some(db)) = (ka.shape(), kb.shape()) else {
        return true;
    };
    da.len() == db.len()
        && da
            .iter()
            .zip(db)
            .all(|(&x, &y)| x == y || x == crate::types::DYNAMIC || y == crate::types::DYNAMIC)
}

/// `AllTypesMatch`: the named operands and results have one type.
fn verify_all_types_match(ctx: &Context, op: Operation, spec: &OpSpec) -> Result<(), Diagnostic> {
    for group in spec.all_types_match {
        let types: Vec<Type> = group
            .iter()
            .filter_map(|name| named_value_type(ctx, op, spec, name))
            .collect();
        if types.windows(2).any(|w| w[0] != w[1]) {
            let names: Vec<String> = group.iter().map(|n| n.to_string()).collect();
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "failed to verify that all of {{{}}} have same type",
                    names.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// The type of the single operand or result called `name`.
fn named_value_type(ctx: &Context, op: Operation, spec: &OpSpec, name: &str) -> Option<Type> {
    if let Some(i) = spec.operands.iter().position(|o| o.name == name) {
        return operand_group(ctx, op, spec, i)
            .first()
            .map(|&v| ctx.value_type(v));
    }
    let i = spec.results.iter().position(|o| o.name == name)?;
    result_group(ctx, op, spec, i)
        .first()
        .map(|&v| ctx.value_type(v))
}

fn verify_elementwise(
    ctx: &Context,
    op: Operation,
    operands: &[Type],
    results: &[Type],
) -> Result<(), Diagnostic> {
    let is_shaped = |t: Type| {
        matches!(
            ctx.type_kind(t),
            crate::TypeKind::RankedTensor { .. }
                | crate::TypeKind::UnrankedTensor { .. }
                | crate::TypeKind::Vector { .. }
        )
    };
    let shaped_result = results.iter().find(|&&t| is_shaped(t));
    if shaped_result.is_none() {
        if operands.iter().any(|&t| is_shaped(t)) {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                "if an operand is non-scalar, then there must be at least one non-scalar result",
            ));
        }
        return Ok(());
    }
    if results.len() != 1 && results.iter().any(|&t| !is_shaped(t)) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "if an operand is non-scalar, then all results must be non-scalar",
        ));
    }
    let container = |t: Type| -> Option<(u8, Option<Vec<i64>>)> {
        match ctx.type_kind(t) {
            crate::TypeKind::RankedTensor { shape, .. } => Some((0, Some(shape.clone()))),
            crate::TypeKind::UnrankedTensor { .. } => Some((0, None)),
            crate::TypeKind::Vector { shape, .. } => Some((1, Some(shape.clone()))),
            _ => None,
        }
    };
    let shapes: Vec<(u8, Option<Vec<i64>>)> = operands
        .iter()
        .chain(results)
        .filter_map(|&t| container(t))
        .collect();
    let compatible = |a: &(u8, Option<Vec<i64>>), b: &(u8, Option<Vec<i64>>)| {
        a.0 == b.0
            && match (&a.1, &b.1) {
                (Some(x), Some(y)) => {
                    x.len() == y.len()
                        && x.iter().zip(y).all(|(&p, &q)| {
                            p == q || p == crate::types::DYNAMIC || q == crate::types::DYNAMIC
                        })
                }
                _ => true,
            }
    };
    if shapes.windows(2).any(|w| !compatible(&w[0], &w[1])) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "all non-scalar operands/results must have the same shape and base type",
        ));
    }
    Ok(())
}
