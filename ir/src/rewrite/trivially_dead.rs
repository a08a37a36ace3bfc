//! Trivially dead operations (MLIR's `isOpTriviallyDead` and
//! `wouldOpBeTriviallyDead`): operations that can be erased without looking
//! further than themselves.

use crate::context::{Context, Operation};
use crate::walk::{WalkOrder, WalkResult};

/// Whether `op` can be erased right now: none of its results is used and it
/// [would be trivially dead](would_op_be_trivially_dead).
pub fn is_trivially_dead(ctx: &Context, op: Operation) -> bool {
    ctx.results(op).all(|v| ctx.use_empty(v)) && would_op_be_trivially_dead(ctx, op)
}

/// Whether `op` could be erased if its results were unused: it is a
/// registered operation that is neither a terminator nor a symbol, with no
/// memory effects: `pure`, or `RecursiveMemoryEffects` with only such ops
/// nested in its regions. Unregistered operations are assumed to have
/// effects.
pub fn would_op_be_trivially_dead(ctx: &Context, op: Operation) -> bool {
    let Some(def) = ctx.op_definition(op) else {
        return false;
    };
    let effect_free = |traits: &crate::dialect::OpTraits| {
        traits.memory_effect_free() || traits.recursive_memory_effects
    };
    if !effect_free(&def.traits) || def.traits.terminator || ctx.symbol_name(op).is_some() {
        return false;
    }
    // The common case, without allocating.
    if ctx.op_regions(op).is_empty() {
        return true;
    }
    !ctx.walk(op, WalkOrder::PreOrder, |current| {
        if ctx
            .op_definition(current)
            .is_some_and(|d| effect_free(&d.traits))
        {
            WalkResult::Advance
        } else {
            WalkResult::Interrupt
        }
    })
    .was_interrupted()
}

/// Whether `op` has no memory effects at all (MLIR's `isMemoryEffectFree`):
/// a registered op that is `Pure` or `NoMemoryEffect`, or
/// `RecursiveMemoryEffects` with only such ops nested in its regions.
/// Unlike [`would_op_be_trivially_dead`], terminators and symbols may be
/// effect free; unregistered ops never are.
pub fn is_memory_effect_free(ctx: &Context, op: Operation) -> bool {
    let free = |current: Operation| {
        ctx.op_definition(current)
            .is_some_and(|d| d.traits.memory_effect_free() || d.traits.recursive_memory_effects)
    };
    !ctx.walk(op, WalkOrder::PreOrder, |current| {
        if free(current) {
            WalkResult::Advance
        } else {
            WalkResult::Interrupt
        }
    })
    .was_interrupted()
}
