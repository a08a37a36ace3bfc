//! `graph-fold-constants`: evaluate `graph` ops whose operands are all
//! constants at compile time, up to an element limit (which a transpose or
//! reshape of a constant used nowhere else does not have: its fold only
//! reorders the constant).
//!
//! Ops are visited in order, each op's result types refined by its shape
//! function just before it is tried, so a chain of constant ops (shape
//! arithmetic, weight preprocessing, and the sizes of values whose shapes
//! those constants fix) folds in one run. Each op that folds is replaced
//! by `graph.constant`s of its results, placed where it was, and the
//! constants it read are erased when nothing else uses them. The values
//! are computed by the context's constant evaluator (the runtime installs
//! the reference interpreter); without one only `graph.shape_of` and
//! `graph.size` of static tensors fold. A `graph.if` whose condition is
//! (or has become) a constant is replaced by its taken branch.

use strata_dialects::graph::fold::{build_constant, constant_results, static_if_branch};
use strata_ir::pass::{Pass, Statistics};
use strata_ir::{pass, Attribute, Context, Diagnostic, Operation, WalkOrder};

#[pass(
    name = "graph-fold-constants",
    display_name = "GraphFoldConstants",
    summary = "Evaluate graph ops on constant operands at compile time"
)]
pub(crate) struct GraphFoldConstants {
    #[option(
        name = "max-elements",
        default = 4096, // strata_dialects::graph::fold::FOLD_LIMIT
        description = "Largest operand or result (in elements) that is folded"
    )]
    max_elements: i64,
}

impl Pass for GraphFoldConstants {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let limit = usize::try_from(self.max_elements).unwrap_or(0);
        let mut folded = 0;
        // The ops of the branches not taken, erased with their `graph.if`.
        let mut erased = std::collections::HashSet::new();
        for op in ctx.nested_ops(root, WalkOrder::PreOrder) {
            if ctx.op_parent_block(op).is_none()
                || erased.contains(&op)
                || !ctx.op_name_str(op).starts_with("graph.")
            {
                continue;
            }
            if ctx.op_name_str(op) == "graph.if" {
                // The taken branch's ops come next in the walk, where they
                // fold in turn; the other branch's are erased with the op.
                if let Some((body, yielded)) = static_if_branch(ctx, op) {
                    for inner in body {
                        ctx.detach_op(inner);
                        ctx.insert_op_before(op, inner);
                    }
                    let results: Vec<_> = ctx.results(op).collect();
                    for (r, y) in results.into_iter().zip(yielded) {
                        ctx.replace_all_uses_with(r, y);
                    }
                    let cond = ctx.defining_op(ctx.operand(op, 0));
                    erased.extend(ctx.nested_ops(op, WalkOrder::PreOrder));
                    ctx.erase_op(op);
                    if let Some(c) = cond.filter(|&c| ctx.results(c).all(|r| ctx.use_empty(r))) {
                        ctx.erase_op(c);
                    }
                    folded += 1;
                }
                continue;
            }
            // The op's types first, from operands that folding may have
            // made constant (a reshape's shape, an expand's sizes): a size
            // known only now lets the ops after it fold in this same walk
            // (`shape_of` of a value whose shape it fixes), where otherwise
            // each round of shape inference would need another fold.
            // An op whose types do not infer is left for
            // `graph-infer-shapes` to report, and not folded here.
            if crate::graph::refine_op(ctx, op, &[]).is_err() {
                continue;
            }
            let consts: Vec<Option<Attribute>> =
                ctx.operands(op).map(|v| constant_value(ctx, v)).collect();
            let limit = if reorders_its_only_use(ctx, op) {
                usize::MAX
            } else {
                limit
            };
            let Some(values) = constant_results(ctx, op, &consts, limit) else {
                continue;
            };
            if values.len() != ctx.num_results(op) {
                continue;
            }
            let loc = ctx.op_loc(op);
            let results: Vec<_> = ctx.results(op).collect();
            for (result, value) in results.into_iter().zip(values) {
                let ty = ctx.value_type(result);
                let constant = build_constant(ctx, value, ty, loc);
                ctx.insert_op_before(op, constant);
                let new = ctx.result(constant, 0);
                ctx.replace_all_uses_with(result, new);
            }
            let feeders: Vec<Operation> = ctx
                .operands(op)
                .filter_map(|v| ctx.defining_op(v))
                .collect();
            ctx.erase_op(op);
            for feeder in feeders {
                if ctx.op_parent_block(feeder).is_some()
                    && ctx.op_name_str(feeder) == "graph.constant"
                    && ctx.results(feeder).all(|r| ctx.uses(r).next().is_none())
                {
                    ctx.erase_op(feeder);
                }
            }
            folded += 1;
        }
        stats.add("num-folded", "Number of ops folded to constants", folded);
        Ok(())
    }
}

/// Whether `op` only reorders, reshapes or slices a constant that nothing
/// else uses (a weight's transpose into a convolution's layout): folding
/// it replaces the constant by one of the same size or smaller, so the
/// element limit does not apply. Slices that share a constant, and
/// nothing else uses it, fold too when together they hold no more
/// elements than it does (a 3-D convolution's weight cut into its depth
/// taps): once the last one is folded, the constant goes.
fn reorders_its_only_use(ctx: &Context, op: Operation) -> bool {
    // A slice only shrinks it (a convolution's weight cut to its live taps).
    let reorders = matches!(
        ctx.op_name_str(op),
        "graph.transpose"
            | "graph.reshape"
            | "graph.flatten"
            | "graph.squeeze"
            | "graph.unsqueeze"
            | "graph.slice"
    );
    if !reorders || ctx.num_operands(op) == 0 {
        return false;
    }
    let source = ctx.operand(op, 0);
    let users: Vec<(Operation, u32)> = ctx.uses(source).map(|u| (u.op, u.index)).collect();
    if users.len() == 1 {
        return true;
    }
    let elements = |v: strata_ir::Value| -> Option<u128> {
        match ctx.type_kind(ctx.value_type(v)) {
            strata_ir::TypeKind::RankedTensor { shape, .. } => shape
                .iter()
                .try_fold(1u128, |n, &d| u128::try_from(d).ok().map(|d| n * d)),
            _ => None,
        }
    };
    let slices = users
        .iter()
        .all(|&(u, i)| i == 0 && ctx.op_name_str(u) == "graph.slice" && ctx.num_results(u) == 1);
    if !slices {
        return false;
    }
    let together = users
        .iter()
        .map(|&(u, _)| elements(ctx.result(u, 0)))
        .sum::<Option<u128>>();
    together.is_some_and(|t| elements(source).is_some_and(|s| t <= s))
}

/// The value of `v` when a `graph.constant` defines it.
fn constant_value(ctx: &Context, v: strata_ir::Value) -> Option<Attribute> {
    let def = ctx.defining_op(v)?;
    if ctx.op_name_str(def) != "graph.constant" {
        return None;
    }
    strata_ir::ods::inherent_attr(ctx, def, "value")
}
