//! The builtin dialect's operations: `builtin.module` and
//! `builtin.unrealized_conversion_cast`.

use crate::attributes::AttrKind;
use crate::context::{Context, Operation};
use crate::diagnostics::Diagnostic;
use crate::dialect::{OpDefinition, OpTraits};

/// Register the builtin dialect in `ctx`.
pub(crate) fn register(ctx: &mut Context) {
    let registry = ctx.registry_mut();
    registry.register_op(OpDefinition {
        name: "builtin.module",
        summary: "A top level container operation",
        traits: OpTraits {
            no_terminator: true,
            isolated_from_above: true,
            single_block: true,
            symbol_table: true,
            symbol: true,
            graph_region: true,
            num_operands: Some(0),
            num_results: Some(0),
            num_regions: Some(1),
            ..OpTraits::default()
        },
        inherent_attrs: &["sym_name", "sym_visibility"],
        verify: Some(verify_module),
        fold: None,
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "builtin.unrealized_conversion_cast",
        summary: "An unrealized conversion from one set of types to another",
        traits: OpTraits {
            num_regions: Some(0),
            pure: true,
            ..OpTraits::default()
        },
        inherent_attrs: &[],
        verify: Some(verify_cast),
        fold: None,
        ..OpDefinition::EMPTY
    });
}

fn verify_module(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let error = |message: String| {
        Diagnostic::error(ctx.op_loc(op), format!("'builtin.module' op {message}")).on_op(op)
    };
    if let Some(props) = ctx.op_properties(op) {
        for (name, value) in ctx.dictionary_entries(props) {
            let name = ctx.ident_str(*name);
            if matches!(name, "sym_name" | "sym_visibility")
                && !matches!(ctx.attr_kind(*value), AttrKind::String { ty: None, .. })
            {
                return Err(error(format!(
                    "attribute '{name}' failed to satisfy constraint: string attribute"
                )));
            }
        }
    }
    if let Some(&region) = ctx.op_regions(op).first() {
        let blocks = ctx.region_blocks(region).count();
        if blocks != 1 {
            return Err(error(
                "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks".into(),
            ));
        }
        if let Some(block) = ctx.region_entry_block(region) {
            if ctx.num_block_args(block) != 0 {
                return Err(error("region should have no arguments".into()));
            }
        }
    }
    for (name, _) in ctx.dictionary_entries(ctx.op_attr_dict(op)) {
        let name = ctx.ident_str(*name);
        if !name.contains('.') {
            return Err(error(format!(
                "can only contain attributes with dialect-prefixed names, found: '{name}'"
            )));
        }
    }
    Ok(())
}

fn verify_cast(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    if ctx.num_results(op) == 0 {
        return Err(Diagnostic::error(
            ctx.op_loc(op),
            "'builtin.unrealized_conversion_cast' op expected at least one result for cast operation",
        )
        .on_op(op));
    }
    Ok(())
}
