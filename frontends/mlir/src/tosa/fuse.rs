//! The ops TOSA has no op for, as producers spell them out, recognized
//! after import and replaced by the one `graph` op: softmax
//! (`exp(x - reduce_max(x))` times the reciprocal of its `reduce_sum`, with
//! or without the max) and the exact GELU (`x * 0.5 * (1 + erf(x / √2))`,
//! its products and sums in any order, the scale as a product or a
//! division). The `graph` op then lowers as one fused kernel instead of
//! five or six maps and reductions. The ops left without users are
//! removed.

use strata_dialects::builders::build_graph_op;
use strata_dialects::graph::infer::operand_info;
use strata_ir::printer::attribute_to_string;
use strata_ir::{Block, Context, Operation, Value};

use super::text::numbers;

/// Recognize the spelled-out ops in `block`; how many were replaced.
pub(super) fn recognize(ctx: &mut Context, block: Block) -> Result<usize, String> {
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    let mut replaced = 0;
    for op in ops {
        if ctx.op_name_str(op) != "graph.mul" || ctx.num_results(op) != 1 {
            continue;
        }
        let (name, x, axis) = if let Some((x, axis)) = softmax(ctx, op) {
            ("graph.softmax", x, Some(axis))
        } else if let Some(x) = gelu(ctx, op) {
            ("graph.gelu", x, None)
        } else {
            continue;
        };
        let loc = ctx.op_loc(op);
        let mut props = Vec::new();
        if let Some(axis) = axis {
            let i64t = ctx.integer_type(64);
            props.push(("axis", ctx.integer_attr(i64t, axis.into())));
        }
        let new = build_graph_op(ctx, loc, name, &[x], &props, 1, None)
            .map_err(|e| format!("{name}: {}", e.message))?;
        let old = ctx.result(op, 0);
        let result = ctx.result(new, 0);
        if ctx.value_type(result) != ctx.value_type(old) {
            // The recognized op would not have the spelled-out form's type.
            ctx.erase_op(new);
            continue;
        }
        ctx.insert_op_before(op, new);
        ctx.replace_all_uses_with(old, result);
        replaced += 1;
    }
    if replaced > 0 {
        remove_dead(ctx, block);
    }
    Ok(replaced)
}

/// Erase the `graph` ops (all pure) whose results have no users, last
/// first, so that a chain left unused goes as a whole.
fn remove_dead(ctx: &mut Context, block: Block) {
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    for op in ops.into_iter().rev() {
        let pure = ctx.op_name_str(op).starts_with("graph.");
        if pure && ctx.results(op).all(|r| ctx.use_empty(r)) {
            ctx.erase_op(op);
        }
    }
}

/// The op named `name` that defines `v`.
fn def(ctx: &Context, v: Value, name: &str) -> Option<Operation> {
    ctx.defining_op(v).filter(|&op| ctx.op_name_str(op) == name)
}

fn operands2(ctx: &Context, op: Operation) -> Option<(Value, Value)> {
    (ctx.num_operands(op) == 2).then(|| (ctx.operand(op, 0), ctx.operand(op, 1)))
}

/// The value of a constant whose elements are all one number, through a
/// `reciprocal` of one and the reshapes that lift a scalar to a rank.
fn splat(ctx: &Context, v: Value) -> Option<f64> {
    if let Some(r) = def(ctx, v, "graph.reciprocal") {
        return splat(ctx, ctx.operand(r, 0)).map(|c| 1.0 / c);
    }
    let through = [
        "graph.reshape",
        "graph.identity",
        "graph.expand",
        "graph.unsqueeze",
        "graph.squeeze",
    ];
    if let Some(op) = ctx
        .defining_op(v)
        .filter(|&op| through.contains(&ctx.op_name_str(op)))
    {
        return splat(ctx, ctx.operand(op, 0));
    }
    let op = def(ctx, v, "graph.constant")?;
    let attr = strata_ir::ods::inherent_attr(ctx, op, "value")?;
    let values = numbers(&attr_text(ctx, attr))?;
    let first = *values.first()?;
    values.iter().all(|&x| x == first).then_some(first)
}

fn attr_text(ctx: &Context, attr: strata_ir::Attribute) -> String {
    attribute_to_string(ctx, attr)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

/// `v = x * c` (either order) or `x / (1 / c)`: `(x, c)`.
fn scaled(ctx: &Context, v: Value) -> Option<(Value, f64)> {
    if let Some(op) = def(ctx, v, "graph.mul") {
        let (a, b) = operands2(ctx, op)?;
        if let Some(c) = splat(ctx, b) {
            return Some((a, c));
        }
        return splat(ctx, a).map(|c| (b, c));
    }
    let op = def(ctx, v, "graph.div")?;
    let (a, b) = operands2(ctx, op)?;
    splat(ctx, b).map(|c| (a, 1.0 / c))
}

/// The single axis a reduction with kept dims reduces over.
fn reduced_axis(ctx: &Context, reduce: Operation) -> Option<i64> {
    if ctx.num_operands(reduce) != 2 {
        return None;
    }
    let kept = strata_ir::ods::inherent_attr(ctx, reduce, "keepdims")
        .is_none_or(|a| attr_text(ctx, a) == "true");
    let axes = operand_info(ctx, ctx.operand(reduce, 1))?.value?;
    let rank = operand_info(ctx, ctx.operand(reduce, 0))?.shape.rank()? as i64;
    match axes[..] {
        [a] if kept => Some(a.rem_euclid(rank)),
        _ => None,
    }
}

/// `mul(e, reciprocal(reduce_sum(e, [a])))` with `e = exp(x - reduce_max(x,
/// [a]))` or `e = exp(x)`: `(x, a)`.
fn softmax(ctx: &Context, out: Operation) -> Option<(Value, i64)> {
    let (p, q) = operands2(ctx, out)?;
    for (e, r) in [(p, q), (q, p)] {
        let Some(recip) = def(ctx, r, "graph.reciprocal") else {
            continue;
        };
        let Some(sum) = def(ctx, ctx.operand(recip, 0), "graph.reduce_sum") else {
            continue;
        };
        if ctx.operand(sum, 0) != e {
            continue;
        }
        let axis = reduced_axis(ctx, sum)?;
        let exp = def(ctx, e, "graph.exp")?;
        let inner = ctx.operand(exp, 0);
        let Some(sub) = def(ctx, inner, "graph.sub") else {
            return Some((inner, axis));
        };
        let (x, m) = operands2(ctx, sub)?;
        let max = def(ctx, m, "graph.reduce_max")?;
        if ctx.operand(max, 0) == x && reduced_axis(ctx, max) == Some(axis) {
            return Some((x, axis));
        }
    }
    None
}

/// The exact GELU: `x * 0.5 * (1 + erf(x / √2))`, as a product of `x *
/// 0.5` and the sum, or `(x * sum) * 0.5`: `x`.
fn gelu(ctx: &Context, out: Operation) -> Option<Value> {
    // `1 + erf(x * (1/√2))`, either order: x.
    let sum_of = |v: Value| -> Option<Value> {
        let add = def(ctx, v, "graph.add")?;
        let (a, b) = operands2(ctx, add)?;
        let (one, erf) = if splat(ctx, a).is_some_and(|c| close(c, 1.0)) {
            (a, b)
        } else {
            (b, a)
        };
        if !splat(ctx, one).is_some_and(|c| close(c, 1.0)) {
            return None;
        }
        let erf = def(ctx, erf, "graph.erf")?;
        let (x, k) = scaled(ctx, ctx.operand(erf, 0))?;
        close(k, std::f64::consts::FRAC_1_SQRT_2).then_some(x)
    };
    let (p, q) = operands2(ctx, out)?;
    // (x * 0.5) * sum, either order.
    for (h, t) in [(p, q), (q, p)] {
        if let (Some((x, half)), Some(x2)) = (scaled(ctx, h), sum_of(t)) {
            if close(half, 0.5) && x == x2 {
                return Some(x);
            }
        }
    }
    // (x * sum) * 0.5.
    let (inner, half) = scaled(ctx, ctx.result(out, 0))?;
    if !close(half, 0.5) {
        return None;
    }
    let m = def(ctx, inner, "graph.mul")?;
    let (a, b) = operands2(ctx, m)?;
    for (x, t) in [(a, b), (b, a)] {
        if sum_of(t) == Some(x) {
            return Some(x);
        }
    }
    None
}
