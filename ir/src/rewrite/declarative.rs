//! What the rewrites that `strata_ir::pattern!` declares are made of (see
//! `docs/passes.md`, "Declarative patterns").

use crate::context::{Attribute, Context, Location, Operation, Type};
use crate::ir::{OperationState, Value};
use crate::rewrite::rewriter::PatternRewriter;

/// Create a one-result op named `name` at the rewriter's insertion point:
/// `operands`, result type `result_type`, the `properties` that are
/// `Some`, and the op's declared attribute defaults for the others (as an
/// ODS builder); returns its result.
pub fn create_op(
    rewriter: &mut PatternRewriter<'_>,
    name: &str,
    loc: Location,
    operands: &[Value],
    result_type: Type,
    properties: &[(&str, Option<Attribute>)],
) -> Value {
    let ctx = rewriter.ctx_mut();
    let ident = ctx.ident(name);
    let mut state = OperationState::new(ident, loc);
    state.operands = operands.to_vec();
    state.result_types = vec![result_type];
    let entries: Vec<_> = properties
        .iter()
        .filter_map(|&(key, value)| Some((ctx.ident(key), value?)))
        .collect();
    if !entries.is_empty() {
        state.properties = Some(ctx.dictionary_attr(entries));
    }
    if let Some(spec) = ctx.registry().op_spec(name) {
        crate::ods::fill_default_properties(ctx, spec, &mut state);
    }
    let op = rewriter.create(state);
    rewriter.ctx().result(op, 0)
}

/// The op defining `value` when it is named `name`.
pub fn defining_op_named(ctx: &Context, value: Value, name: &str) -> Option<Operation> {
    ctx.defining_op(value)
        .filter(|&op| ctx.op_name_str(op) == name)
}
