//! The builtin dialect's operations: `builtin.module` and
//! `builtin.unrealized_conversion_cast`.

use crate::attributes::AttrKind;
use crate::context::{Block, Context, Location, Operation};
use crate::diagnostics::Diagnostic;
use crate::dialect::{OpDefinition, OpTraits};
use crate::ir::OperationState;
use crate::ods::TypedOp;

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

/// A `builtin.module`: the top-level container (MLIR's `ModuleOp`), with
/// one region of one block.
///
/// ```
/// use strata_ir::{Context, ModuleOp};
///
/// let mut ctx = Context::new();
/// let loc = ctx.unknown_loc();
/// let module = ModuleOp::build(&mut ctx, loc, None);
/// let body = module.body(&ctx).expect("a module has a body block");
/// assert_eq!(ctx.block_ops(body).count(), 0);
/// assert!(strata_ir::verifier::verify(&ctx, module.op()).is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModuleOp(pub Operation);

impl ModuleOp {
    /// The op's name.
    pub const NAME: &'static str = "builtin.module";

    /// Create a module (detached) with its body block, named `name`
    /// (`module @name`) when given.
    pub fn build(ctx: &mut Context, loc: Location, name: Option<&str>) -> Self {
        let region = ctx.create_region();
        let block = ctx.create_block();
        ctx.append_block(region, block);
        let ident = ctx.ident(Self::NAME);
        let mut state = OperationState::new(ident, loc);
        state.regions.push(region);
        if let Some(name) = name {
            let key = ctx.ident("sym_name");
            let value = ctx.string_attr(name);
            state.properties = Some(ctx.dictionary_attr(vec![(key, value)]));
        }
        ModuleOp(ctx.create_operation(state))
    }

    /// The module's body block (`None` only for a malformed module).
    pub fn body(self, ctx: &Context) -> Option<Block> {
        ctx.region_entry_block(*ctx.op_regions(self.0).first()?)
    }

    /// Append the detached `op` at the end of the body; `false` (and `op`
    /// left alone) for a malformed module without a body block.
    pub fn push(self, ctx: &mut Context, op: Operation) -> bool {
        match self.body(ctx) {
            Some(body) => {
                ctx.append_op(body, op);
                true
            }
            None => false,
        }
    }

    /// The underlying operation.
    pub fn op(self) -> Operation {
        self.0
    }
}

impl TypedOp for ModuleOp {
    const NAME: &'static str = ModuleOp::NAME;

    fn from_op(ctx: &Context, op: Operation) -> Option<Self> {
        (ctx.op_name_str(op) == Self::NAME).then_some(ModuleOp(op))
    }

    fn op(self) -> Operation {
        self.0
    }
}
