//! Two `math` rewrites of MLIR 22's `Math/Transforms`, run through the
//! greedy driver as there:
//!
//! - `math-uplift-to-fma`: `arith.addf` of an `arith.mulf` and a value,
//!   both allowed to contract (`fastmath<contract>` or more), becomes
//!   `math.fma` with the flags the two share;
//! - `math-sincos-fusion`: `math.sin` and `math.cos` of the same value with
//!   the same flags, in one block, become one `math.sincos` where the first
//!   of them was.

use strata_dialects::arith::FASTMATH;
use strata_ir::pass::{Pass, Statistics};
use strata_ir::rewrite::{FnPattern, PatternRewriter};
use strata_ir::{
    pass, Attribute, Context, Diagnostic, Operation, OperationState, Value, WalkOrder,
};

#[pass(
    name = "math-uplift-to-fma",
    display_name = "MathUpliftToFMA",
    summary = "Uplift arith ops to math.fma."
)]
pub(crate) struct UpliftToFma;

impl Pass for UpliftToFma {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        crate::run_pattern_greedily(
            ctx,
            op,
            FnPattern::new("arith.addf", "UpliftFma", uplift_fma),
        )
    }
}

#[pass(
    name = "math-sincos-fusion",
    display_name = "MathSincosFusionPass",
    summary = "Fuse sin and cos operations."
)]
pub(crate) struct SincosFusion;

impl Pass for SincosFusion {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        crate::run_pattern_greedily(
            ctx,
            op,
            FnPattern::new("math.sin", "SincosFusionPattern", fuse_sincos),
        )
    }
}

/// The fast-math flags of `op` (0 without the attribute).
fn flags(ctx: &Context, op: Operation) -> u64 {
    strata_ir::ods::inherent_attr(ctx, op, "fastmath")
        .and_then(|a| FASTMATH.value(ctx, a))
        .unwrap_or(0)
}

const CONTRACT: u64 = 32;

/// MLIR's `UpliftFma`.
fn uplift_fma(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let add_flags = flags(ctx, op);
    if add_flags & CONTRACT == 0 {
        return false;
    }
    let (lhs, rhs) = (ctx.operand(op, 0), ctx.operand(op, 1));
    let mulf = |v: Value| {
        ctx.defining_op(v)
            .filter(|&d| ctx.op_name_str(d) == "arith.mulf")
    };
    let (mul, c) = match (mulf(lhs), mulf(rhs)) {
        (Some(m), _) => (m, rhs),
        (None, Some(m)) => (m, lhs),
        (None, None) => return false,
    };
    let mul_flags = flags(ctx, mul);
    if mul_flags & CONTRACT == 0 {
        return false;
    }
    let (a, b) = (ctx.operand(mul, 0), ctx.operand(mul, 1));
    let ty = ctx.value_type(ctx.result(op, 0));
    let loc = ctx.op_loc(op);
    let ctx = rewriter.ctx_mut();
    let Some(fastmath) = FASTMATH.attr(ctx, add_flags & mul_flags) else {
        return false;
    };
    let mut state = OperationState::new(ctx.ident("math.fma"), loc);
    state.operands = vec![a, b, c];
    state.result_types = vec![ty];
    let key = ctx.ident("fastmath");
    state.properties = Some(ctx.dictionary_attr(vec![(key, fastmath)]));
    rewriter.set_insertion_point(op);
    let fma = rewriter.create(state);
    let result = rewriter.ctx().result(fma, 0);
    rewriter.replace_op(op, &[result]);
    true
}

/// MLIR's `SincosFusionPattern`: the first `math.cos` in `sin`'s block (at
/// any depth) of the same operand with the same flags.
fn fuse_sincos(sin: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let Some(block) = ctx.op_parent_block(sin) else {
        return false;
    };
    let operand = ctx.operand(sin, 0);
    let sin_flags = flags(ctx, sin);
    let cos = ctx
        .block_ops(block)
        .flat_map(|o| ctx.collect_ops(o, WalkOrder::PostOrder))
        .find(|&o| {
            ctx.op_name_str(o) == "math.cos"
                && ctx.operand(o, 0) == operand
                && flags(ctx, o) == sin_flags
        });
    let Some(cos) = cos else {
        return false;
    };
    // The first of the two in the block (`cos` when it comes before).
    let first = ctx
        .block_ops(block)
        .find(|&o| o == sin || o == cos)
        .unwrap_or(sin);
    let ty = ctx.value_type(operand);
    let loc = ctx.op_loc(first);
    let fastmath: Option<Attribute> = strata_ir::ods::inherent_attr(ctx, sin, "fastmath");
    let ctx = rewriter.ctx_mut();
    let mut state = OperationState::new(ctx.ident("math.sincos"), loc);
    state.operands = vec![operand];
    state.result_types = vec![ty, ty];
    if let Some(fastmath) = fastmath {
        let key = ctx.ident("fastmath");
        state.properties = Some(ctx.dictionary_attr(vec![(key, fastmath)]));
    }
    rewriter.set_insertion_point(first);
    let sincos = rewriter.create(state);
    let (s, c) = (
        rewriter.ctx().result(sincos, 0),
        rewriter.ctx().result(sincos, 1),
    );
    rewriter.replace_op(sin, &[s]);
    rewriter.replace_op(cos, &[c]);
    true
}
