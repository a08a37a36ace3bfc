//! `graph-eliminate-layout`: transposes and reshapes sink through
//! elementwise ops toward their consumers, where they meet and cancel.
//!
//! - `f(transpose(a, p), transpose(b, p), ...)` becomes
//!   `transpose(f(a, b, ...), p)` for an elementwise op `f` (trait
//!   `Elementwise`, or `ResultsBroadcastableShape`: the `graph` dialect's
//!   elementwise ops, which broadcast) when every transposed operand has the
//!   result's rank; an operand whose dimensions are all 1 (a scalar, a
//!   `1x1x1` constant) is the same in any order and may stand untransposed
//!   beside them, and another constant operand is transposed back (a
//!   transpose of a constant, which `graph-fold-constants` evaluates);
//! - `batch_norm(transpose(y, p), ...)` becomes `transpose(y * s + t, p)`
//!   with the per-channel `s` and `t` laid along `y`'s channel dim;
//! - `f(reshape(a, s))` becomes `reshape(f(a), s)` for a one-operand
//!   elementwise op;
//! - with `graph.transpose`'s and `graph.reshape`'s canonicalizations,
//!   `transpose(transpose(x, p), q)` is one transpose (none when `p` and `q`
//!   cancel) and `reshape(reshape(x))` one reshape.
//!
//! A transpose or reshape sinks only when `f` is its one user, so no work is
//! duplicated. This is the layout clean-up of TensorFlow's and TVM's
//! graph optimizers (transpose sinking): models exported from NHWC
//! frameworks carry transposes around every elementwise chain.

use strata_dialects::graph::infer::{attr_i64_array, infer_results, result_type};
use strata_ir::pass::{Pass, Statistics};
use strata_ir::rewrite::{
    apply_patterns_greedily, GreedyConfig, PatternRewriter, RewritePattern, RewritePatternSet,
};
use strata_ir::{pass, Context, Diagnostic, IrMapping, Operation, Value};

#[pass(
    name = "graph-eliminate-layout",
    display_name = "GraphEliminateLayout",
    summary = "Sink transposes and reshapes through elementwise ops and cancel them"
)]
pub(crate) struct GraphEliminateLayout;

impl Pass for GraphEliminateLayout {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let count = |ctx: &Context, name: &str| {
            ctx.nested_ops(op, strata_ir::WalkOrder::PreOrder)
                .into_iter()
                .filter(|&o| ctx.op_name_str(o) == name)
                .count() as u64
        };
        let before = count(ctx, "graph.transpose");
        let mut set = RewritePatternSet::new();
        set.add(SinkTranspose);
        set.add(SinkReshape);
        set.add(crate::conv_layout::SinkTransposeBatchNorm);
        for def in ctx.registry().ops() {
            if matches!(def.name, "graph.transpose" | "graph.reshape") {
                if let Some(add) = def.canonicalize {
                    add(&mut set);
                }
            }
        }
        let patterns = set.freeze(ctx);
        apply_patterns_greedily(ctx, op, &patterns, &GreedyConfig::default())?;
        let after = count(ctx, "graph.transpose");
        stats.add(
            "num-transposes-removed",
            "Number of transposes that cancelled",
            before.saturating_sub(after),
        );
        Ok(())
    }
}

fn defining(ctx: &Context, v: Value, name: &str) -> Option<Operation> {
    ctx.defining_op(v).filter(|&d| ctx.op_name_str(d) == name)
}

/// A transpose's permutation (without `perm`: the dimensions reversed).
fn perm_of(ctx: &Context, transpose: Operation, rank: usize) -> Vec<i64> {
    attr_i64_array(ctx, transpose, "perm").unwrap_or_else(|| (0..rank as i64).rev().collect())
}

fn one_use(ctx: &Context, v: Value) -> bool {
    ctx.uses(v).count() == 1
}

fn static_shape(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    ctx.type_kind(ctx.value_type(v)).shape().map(|s| s.to_vec())
}

/// Whether `v`'s dimensions are all statically 1 (or it has none).
fn order_free(ctx: &Context, v: Value) -> bool {
    static_shape(ctx, v).is_some_and(|s| s.iter().all(|&d| d == 1))
}

/// A copy of `op` (one result) on `operands`, its result type inferred by
/// its shape function (`None` when it has none), inserted before `op`.
fn rebuild(
    rewriter: &mut PatternRewriter<'_>,
    op: Operation,
    operands: &[Value],
) -> Option<Operation> {
    let ctx = rewriter.ctx_mut();
    let mut mapping = IrMapping::default();
    let new = ctx.clone_op(op, &mut mapping);
    for (i, &v) in operands.iter().enumerate() {
        ctx.set_operand(new, i, v);
    }
    let inferred = match infer_results(ctx, new) {
        Some(Ok(results)) if results.len() == 1 => results,
        _ => {
            ctx.erase_op(new);
            return None;
        }
    };
    let declared = ctx.value_type(ctx.result(op, 0));
    let ty = result_type(ctx, &inferred[0], declared);
    let r = ctx.result(new, 0);
    ctx.set_value_type(r, ty);
    rewriter.set_insertion_point(op);
    rewriter.insert(new);
    Some(new)
}

/// Replaces `op` by a copy of `layout` (a transpose or reshape) applied to
/// `new` (op rebuilt on the layout op's source), with `op`'s result type.
pub(crate) fn sink_after(
    rewriter: &mut PatternRewriter<'_>,
    op: Operation,
    new: Operation,
    layout: Operation,
) {
    let ctx = rewriter.ctx_mut();
    let ty = ctx.value_type(ctx.result(op, 0));
    let sunk = ctx.clone_op(layout, &mut IrMapping::default());
    let new_result = ctx.result(new, 0);
    ctx.set_operand(sunk, 0, new_result);
    let sunk_result = ctx.result(sunk, 0);
    ctx.set_value_type(sunk_result, ty);
    rewriter.set_insertion_point(op);
    rewriter.insert(sunk);
    rewriter.replace_op(op, &[sunk_result]);
}

/// `f(transpose(a, p), ...)` to `transpose(f(a, ...), p)`.
struct SinkTranspose;

impl RewritePattern for SinkTranspose {
    fn root_name(&self) -> Option<&str> {
        None
    }

    fn name(&self) -> &str {
        "SinkTranspose"
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        let ctx = rewriter.ctx();
        let Some(traits) = ctx.op_definition(op).map(|d| d.traits) else {
            return false;
        };
        if !(traits.elementwise || traits.results_broadcastable_shape) || ctx.num_results(op) != 1 {
            return false;
        }
        let result = ctx.result(op, 0);
        let Some(rank) = static_shape(ctx, result).map(|s| s.len()) else {
            return false;
        };
        let mut perm: Option<Operation> = None;
        let mut operands = Vec::new();
        let mut constants = Vec::new();
        for v in ctx.operands(op) {
            if let Some(t) = defining(ctx, v, "graph.transpose") {
                let same_rank = static_shape(ctx, v).is_some_and(|s| s.len() == rank);
                let same_perm = perm.is_none_or(|p| perm_of(ctx, p, rank) == perm_of(ctx, t, rank));
                if !one_use(ctx, v) || !same_rank || !same_perm {
                    return false;
                }
                perm = Some(t);
                operands.push(ctx.operand(t, 0));
            } else if order_free(ctx, v) {
                operands.push(v);
            } else if defining(ctx, v, "graph.constant").is_some()
                && static_shape(ctx, v).is_some_and(|s| s.len() <= rank)
            {
                constants.push(operands.len());
                operands.push(v);
            } else {
                return false;
            }
        }
        let Some(transpose) = perm else {
            return false;
        };
        // A transposed constant beside a constant would swap sides forever.
        let constant_source = operands
            .iter()
            .enumerate()
            .any(|(i, &v)| !constants.contains(&i) && defining(ctx, v, "graph.constant").is_some());
        if !constants.is_empty() && constant_source {
            return false;
        }
        // A constant beside the transposed operands: in their source's order
        // (a transpose that folding evaluates).
        let p = perm_of(rewriter.ctx(), transpose, rank);
        for i in constants {
            let ctx = rewriter.ctx_mut();
            match crate::conv_layout::untransposed_constant(ctx, op, operands[i], rank, &p) {
                Some(c) => operands[i] = c,
                None => return false,
            }
        }
        let Some(new) = rebuild(rewriter, op, &operands) else {
            return false;
        };
        // The transpose again, now of `new`'s result.
        sink_after(rewriter, op, new, transpose);
        true
    }
}

/// `f(reshape(a, s))` to `reshape(f(a), s)` for a one-operand elementwise `f`.
struct SinkReshape;

impl RewritePattern for SinkReshape {
    fn root_name(&self) -> Option<&str> {
        None
    }

    fn name(&self) -> &str {
        "SinkReshape"
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        let ctx = rewriter.ctx();
        let elementwise = ctx
            .op_definition(op)
            .is_some_and(|d| d.traits.elementwise || d.traits.results_broadcastable_shape);
        if !elementwise || ctx.num_operands(op) != 1 || ctx.num_results(op) != 1 {
            return false;
        }
        let input = ctx.operand(op, 0);
        let Some(reshape) = defining(ctx, input, "graph.reshape").filter(|_| one_use(ctx, input))
        else {
            return false;
        };
        let source = ctx.operand(reshape, 0);
        let Some(new) = rebuild(rewriter, op, &[source]) else {
            return false;
        };
        sink_after(rewriter, op, new, reshape);
        true
    }
}
