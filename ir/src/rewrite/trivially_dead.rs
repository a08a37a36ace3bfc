//! Trivially dead operations (MLIR's `isOpTriviallyDead` and
//! `wouldOpBeTriviallyDead`): operations that can be erased without looking
//! further than themselves.

use crate::context::{Context, Operation};

/// Whether `op` can be erased right now: none of its results is used and it
/// [would be trivially dead](would_op_be_trivially_dead).
pub fn is_trivially_dead(ctx: &Context, op: Operation) -> bool {
    ctx.results(op).all(|v| ctx.use_empty(v)) && would_op_be_trivially_dead(ctx, op)
}

/// Whether `op` could be erased if its results were unused: it is a
/// registered, `pure` operation that is neither a terminator nor a symbol,
/// and everything nested in its regions is `pure` too. Unregistered
/// operations are assumed to have effects.
pub fn would_op_be_trivially_dead(ctx: &Context, op: Operation) -> bool {
    let Some(def) = ctx.op_definition(op) else {
        return false;
    };
    if !def.traits.pure || def.traits.terminator || ctx.symbol_name(op).is_some() {
        return false;
    }
    // The common case, without allocating.
    if ctx.op_regions(op).is_empty() {
        return true;
    }
    let mut pending = vec![op];
    while let Some(current) = pending.pop() {
        if !ctx.op_definition(current).is_some_and(|d| d.traits.pure) {
            return false;
        }
        for &region in ctx.op_regions(current) {
            for block in ctx.region_blocks(region) {
                pending.extend(ctx.block_ops(block));
            }
        }
    }
    true
}
