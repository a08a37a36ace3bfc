//! The `test` dialect: a handful of registered ops with known traits and
//! folders, for testing the pass infrastructure and generic passes before
//! the real dialects exist (as MLIR's test dialect does for mlir-opt).
//! `strata-opt` registers it; nothing else should depend on it.

use crate::attributes::{truncate, AttrKind};
use crate::context::{Attribute, Context, Location, Operation, Type};
use crate::diagnostics::Diagnostic;
use crate::dialect::{FoldResult, OpDefinition, OpTraits};
use crate::ir::OperationState;

/// Register the `test` dialect's operations in `ctx`.
pub fn register_test_dialect(ctx: &mut Context) {
    let registry = ctx.registry_mut();
    // As MLIR's `test` dialect: `test.*` ops it does not define verify as
    // unregistered ops do (MLIR's own tests use them freely).
    registry.allow_unknown_operations("test");
    registry.register_op(OpDefinition {
        name: "test.constant",
        summary: "A constant holding its `value` property",
        traits: OpTraits {
            pure: true,
            constant_like: true,
            num_operands: Some(0),
            num_results: Some(1),
            num_regions: Some(0),
            ..OpTraits::default()
        },
        inherent_attrs: &["value"],
        verify: Some(verify_constant),
        fold: Some(fold_constant),
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "test.addi",
        summary: "Integer addition, folded as arith.addi: `x + 0` and constant operands",
        traits: OpTraits {
            pure: true,
            commutative: true,
            num_operands: Some(2),
            num_results: Some(1),
            num_regions: Some(0),
            ..OpTraits::default()
        },
        inherent_attrs: &[],
        verify: None,
        fold: Some(fold_addi),
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "test.pure",
        summary: "An op without memory effects (any operands and results)",
        traits: OpTraits {
            pure: true,
            num_regions: Some(0),
            ..OpTraits::default()
        },
        inherent_attrs: &[],
        verify: None,
        fold: None,
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "test.effect",
        summary: "An op with unknown memory effects (any operands and results)",
        traits: OpTraits::default(),
        inherent_attrs: &[],
        verify: None,
        fold: None,
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "test.func",
        summary: "A function-like op: isolated from above, a symbol, one region",
        traits: OpTraits {
            isolated_from_above: true,
            callable: true,
            symbol: true,
            no_terminator: true,
            num_operands: Some(0),
            num_results: Some(0),
            num_regions: Some(1),
            ..OpTraits::default()
        },
        inherent_attrs: &["sym_name", "sym_visibility"],
        verify: None,
        fold: None,
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "test.call",
        summary: "Calls the `callee` symbol with its operands (unknown effects)",
        traits: OpTraits {
            call: true,
            num_regions: Some(0),
            ..OpTraits::default()
        },
        inherent_attrs: &["callee"],
        verify: None,
        fold: None,
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "test.region",
        summary: "An op with one region that sees values from above (unknown effects)",
        traits: OpTraits {
            no_terminator: true,
            single_block: true,
            num_regions: Some(1),
            ..OpTraits::default()
        },
        inherent_attrs: &[],
        verify: None,
        fold: None,
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "test.return",
        summary: "A terminator returning its operands",
        traits: OpTraits {
            terminator: true,
            return_like: true,
            num_results: Some(0),
            num_regions: Some(0),
            ..OpTraits::default()
        },
        inherent_attrs: &[],
        verify: None,
        fold: None,
        ..OpDefinition::EMPTY
    });
    registry.register_constant_materializer("test", materialize_constant);
}

fn value_property(ctx: &Context, op: Operation) -> Option<Attribute> {
    ctx.op_properties(op).and_then(|p| {
        ctx.dictionary_entries(p)
            .iter()
            .find(|(n, _)| ctx.ident_str(*n) == "value")
            .map(|(_, a)| *a)
    })
}

fn verify_constant(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    if value_property(ctx, op).is_none() {
        return Err(Diagnostic::error(
            ctx.op_loc(op),
            "'test.constant' op requires attribute 'value'",
        )
        .on_op(op));
    }
    Ok(())
}

fn fold_constant(
    ctx: &mut Context,
    op: Operation,
    _: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    value_property(ctx, op).map(|v| vec![FoldResult::Attr(v)])
}

fn fold_addi(
    ctx: &mut Context,
    op: Operation,
    operands: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let int = |a: Option<Attribute>| match a.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { ty, value }) => Some((*ty, *value)),
        _ => None,
    };
    let (lhs, rhs) = (
        int(operands.first().copied()?),
        int(operands.get(1).copied()?),
    );
    // As arith.addi's folder: `x + 0` first, then constants.
    match (lhs, rhs) {
        (_, Some((_, 0))) => Some(vec![FoldResult::Value(ctx.operand(op, 0))]),
        (Some((ty, a)), Some((_, b))) => {
            let width = ctx.int_or_float_bit_width(ty).unwrap_or(64);
            let sum = truncate(a.wrapping_add(b), width);
            let attr = ctx.intern_attr(AttrKind::Integer { ty, value: sum });
            Some(vec![FoldResult::Attr(attr)])
        }
        _ => None,
    }
}

fn materialize_constant(
    ctx: &mut Context,
    value: Attribute,
    ty: Type,
    loc: Location,
) -> Option<Operation> {
    let name = ctx.ident("test.constant");
    let key = ctx.ident("value");
    let props = ctx.dictionary_attr(vec![(key, value)]);
    let mut state = OperationState::new(name, loc);
    state.result_types.push(ty);
    state.properties = Some(props);
    Some(ctx.create_operation(state))
}
