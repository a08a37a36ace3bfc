//! The ops TOSA has no op for, as producers spell them out, recognized
//! after import and replaced by the one `graph` op: softmax
//! (`exp(x - reduce_max(x))` times the reciprocal of its `reduce_sum`, with
//! or without the max), GELU, exact (`x * 0.5 * (1 + erf(x / √2))`) or
//! with tanh (`x * 0.5 * (1 + tanh(√(2/π) * (x + 0.044715 * x³)))`), its
//! products and sums in any order, the scale as a product or a division,
//! layer norm over trailing axes (`(x - mean) * rsqrt(variance + eps) *
//! scale (+ bias)`, the means as sums times `1 / n`) and inference batch
//! norm over axis 1 (`(x - mean) * rsqrt(var + eps) * scale + bias`, the
//! scale applied to the normalized value or to the reciprocal root, the
//! four parameters per channel). The `graph` op then lowers as one fused
//! kernel instead of five or six maps and reductions. The ops left without
//! users are removed.

use strata_dialects::graph::emit::Emitter;
use strata_dialects::graph::infer::operand_info;
use strata_ir::printer::attribute_to_string;
use strata_ir::{Block, Context, Operation, Value};

use super::text::numbers;

/// Recognize the spelled-out ops in `block`; how many were replaced.
pub(super) fn recognize(ctx: &mut Context, block: Block) -> Result<usize, String> {
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    let mut replaced = 0;
    // Whether ops were built (and so may be left without users).
    let mut built = false;
    for op in ops {
        let root = ctx.op_name_str(op).to_string();
        if !matches!(root.as_str(), "graph.mul" | "graph.add") || ctx.num_results(op) != 1 {
            continue;
        }
        let recognized = if let Some(norm) = layer_norm(ctx, op) {
            Recognized::LayerNorm(norm)
        } else if let Some(norm) = batch_norm(ctx, op) {
            Recognized::BatchNorm(norm)
        } else if root != "graph.mul" {
            continue;
        } else if let Some((x, axis)) = softmax(ctx, op) {
            Recognized::Softmax(x, axis)
        } else if let Some((x, tanh)) = gelu(ctx, op) {
            Recognized::Gelu(x, tanh)
        } else {
            continue;
        };
        built = true;
        let mut e = Emitter::before(ctx, op);
        let result = match recognized {
            Recognized::LayerNorm(LayerNorm {
                x,
                scale,
                bias,
                axis,
                epsilon,
                dims,
            }) => {
                // The scale and bias as the normalized dims' shape.
                let mut operands = vec![x];
                for v in [Some(scale), bias].into_iter().flatten() {
                    operands.push(reshaped(&mut e, v, &dims)?);
                }
                let props = [("axis", e.i64_attr(axis)), ("epsilon", e.f64_attr(epsilon))];
                e.op1("graph.layer_norm", &operands, &props)?
            }
            Recognized::Softmax(x, axis) => {
                let props = [("axis", e.i64_attr(axis))];
                e.op1("graph.softmax", &[x], &props)?
            }
            Recognized::BatchNorm(BatchNorm {
                x,
                params,
                epsilon,
                channels,
            }) => {
                // scale, bias, mean, variance, each as [C].
                let mut operands = vec![x];
                for v in params {
                    operands.push(reshaped(&mut e, v, &[channels])?);
                }
                let props = [("epsilon", e.f64_attr(epsilon))];
                e.op1("graph.batch_norm", &operands, &props)?
            }
            Recognized::Gelu(x, false) => e.op1("graph.gelu", &[x], &[])?,
            Recognized::Gelu(x, true) => {
                let tanh = e.ctx.string_attr("tanh");
                e.op1("graph.gelu", &[x], &[("approximate", tanh)])?
            }
        };
        let old = ctx.result(op, 0);
        if ctx.value_type(result) != ctx.value_type(old) {
            // The recognized op would not have the spelled-out form's type
            // (what was built for it is left without users).
            if let Some(new) = ctx.defining_op(result) {
                ctx.erase_op(new);
            }
            continue;
        }
        ctx.replace_all_uses_with(old, result);
        replaced += 1;
    }
    if built {
        remove_dead(ctx, block);
    }
    Ok(replaced)
}

/// A spelled-out op found, with what its `graph` op takes.
enum Recognized {
    LayerNorm(LayerNorm),
    BatchNorm(BatchNorm),
    Softmax(Value, i64),
    /// The input, and whether the GELU is tanh's.
    Gelu(Value, bool),
}

/// `v` reshaped to `dims` (itself if it has that shape).
fn reshaped(e: &mut Emitter<'_>, v: Value, dims: &[i64]) -> Result<Value, String> {
    let shape = operand_info(e.ctx, v).and_then(|i| i.shape.dims().map(|d| d.to_vec()));
    let same = shape.is_some_and(|s| {
        s.len() == dims.len() && s.iter().zip(dims).all(|(a, &b)| a.known() == Some(b))
    });
    if same {
        return Ok(v);
    }
    let shape = e.const_i64(dims)?;
    e.reshape(v, shape)
}

/// A recognized layer norm.
struct LayerNorm {
    x: Value,
    scale: Value,
    bias: Option<Value>,
    axis: i64,
    epsilon: f64,
    /// The normalized dims (the scale's and bias's shape).
    dims: Vec<i64>,
}

/// `reduce_sum` over consecutive trailing axes (one reduction per axis,
/// kept), then times `1 / n`: the mean of `v` over those axes, as `(v,
/// first axis)`.
fn mean_of(ctx: &Context, m: Value) -> Option<(Value, i64, i64)> {
    let (mut v, factor) = scaled(ctx, m)?;
    let mut axes = Vec::new();
    while let Some(sum) = def(ctx, v, "graph.reduce_sum") {
        axes.push(reduced_axis(ctx, sum)?);
        v = ctx.operand(sum, 0);
    }
    axes.sort_unstable();
    let shape = operand_info(ctx, v)?.shape;
    let dims = shape.dims()?;
    let rank = dims.len() as i64;
    let first = *axes.first()?;
    if axes.iter().copied().ne(first..rank) {
        return None;
    }
    let n: i64 = dims[first as usize..]
        .iter()
        .map(|d| d.known())
        .product::<Option<i64>>()?;
    close(factor, 1.0 / n as f64).then_some((v, first, n))
}

/// `add(mul(norm, scale), bias)` or `mul(norm, scale)` where `norm = (x -
/// mean(x)) * rsqrt(mean((x - mean(x))^2) + eps)`.
fn layer_norm(ctx: &Context, root: Operation) -> Option<LayerNorm> {
    let (p, q) = operands2(ctx, root)?;
    let (product, bias) = if ctx.op_name_str(root) == "graph.add" {
        if let Some(m) = def(ctx, p, "graph.mul") {
            (m, Some(q))
        } else {
            (def(ctx, q, "graph.mul")?, Some(p))
        }
    } else {
        // A product whose one user adds a bias is that add's to take.
        let r = ctx.result(root, 0);
        let mut users = ctx.uses(r);
        if let (Some(u), None) = (users.next(), users.next()) {
            if ctx.op_name_str(u.op) == "graph.add" {
                return None;
            }
        }
        (root, None)
    };
    let (a, b) = operands2(ctx, product)?;
    for (norm, scale) in [(a, b), (b, a)] {
        let Some(n) = def(ctx, norm, "graph.mul") else {
            continue;
        };
        let (c, e) = operands2(ctx, n)?;
        for (d, r) in [(c, e), (e, c)] {
            let (Some(sub), Some(rsqrt)) = (def(ctx, d, "graph.sub"), def(ctx, r, "graph.rsqrt"))
            else {
                continue;
            };
            let (x, mean) = operands2(ctx, sub)?;
            let (x2, axis, _) = mean_of(ctx, mean)?;
            if x2 != x {
                continue;
            }
            let plus = def(ctx, ctx.operand(rsqrt, 0), "graph.add")?;
            let (v1, v2) = operands2(ctx, plus)?;
            let (var, epsilon) = match (splat(ctx, v1), splat(ctx, v2)) {
                (_, Some(eps)) => (v1, eps),
                (Some(eps), _) => (v2, eps),
                _ => continue,
            };
            let (sq, axis2, _) = mean_of(ctx, var)?;
            let square = def(ctx, sq, "graph.mul")?;
            if axis2 != axis || operands2(ctx, square)? != (d, d) {
                continue;
            }
            let dims = operand_info(ctx, x)?.shape.dims()?[axis as usize..]
                .iter()
                .map(|d| d.known())
                .collect::<Option<Vec<i64>>>()?;
            return Some(LayerNorm {
                x,
                scale,
                bias,
                axis,
                epsilon,
                dims,
            });
        }
    }
    None
}

/// A recognized inference batch norm over axis 1.
struct BatchNorm {
    x: Value,
    /// scale, bias, mean, variance, in `graph.batch_norm`'s order.
    params: [Value; 4],
    epsilon: f64,
    channels: i64,
}

/// `add(mul(sub(x, mean), k), bias)` with `k = mul(scale, rsqrt(add(var,
/// eps)))`, or `add(mul(mul(sub(x, mean), rsqrt(add(var, eps))), scale),
/// bias)`, each product and sum in either order, where every parameter is
/// per channel of `x`'s axis 1 (its shape, aligned to `x`'s rank, is 1 but
/// there).
fn batch_norm(ctx: &Context, root: Operation) -> Option<BatchNorm> {
    if ctx.op_name_str(root) != "graph.add" {
        return None;
    }
    // `rsqrt(add(var, eps))`: `(var, eps)`.
    let inverse_root = |v: Value| -> Option<(Value, f64)> {
        let rsqrt = def(ctx, v, "graph.rsqrt")?;
        let plus = def(ctx, ctx.operand(rsqrt, 0), "graph.add")?;
        let (a, b) = operands2(ctx, plus)?;
        match (splat(ctx, a), splat(ctx, b)) {
            (_, Some(eps)) => Some((a, eps)),
            (Some(eps), _) => Some((b, eps)),
            _ => None,
        }
    };
    let (p, q) = operands2(ctx, root)?;
    for (product, bias) in [(p, q), (q, p)] {
        let Some(m) = def(ctx, product, "graph.mul") else {
            continue;
        };
        let (a, b) = operands2(ctx, m)?;
        for (d, k) in [(a, b), (b, a)] {
            // `k = scale * rsqrt(var + eps)` and `d = x - mean`, or `d = (x
            // - mean) * rsqrt(var + eps)` and `k = scale`.
            let found = def(ctx, d, "graph.sub")
                .and_then(|sub| {
                    let inner = def(ctx, k, "graph.mul")?;
                    let (s, r) = operands2(ctx, inner)?;
                    [(s, r), (r, s)]
                        .into_iter()
                        .find_map(|(scale, r)| Some((sub, scale, inverse_root(r)?)))
                })
                .or_else(|| {
                    let inner = def(ctx, d, "graph.mul")?;
                    let (s, r) = operands2(ctx, inner)?;
                    [(s, r), (r, s)].into_iter().find_map(|(sub, r)| {
                        Some((def(ctx, sub, "graph.sub")?, k, inverse_root(r)?))
                    })
                });
            let Some((sub, scale, (var, epsilon))) = found else {
                continue;
            };
            let (x, mean) = operands2(ctx, sub)?;
            let dims = operand_info(ctx, x)?.shape.dims()?.to_vec();
            let channels = dims.get(1)?.known()?;
            let params = [scale, bias, mean, var];
            if params
                .iter()
                .all(|&v| per_channel(ctx, v, dims.len(), channels))
            {
                return Some(BatchNorm {
                    x,
                    params,
                    epsilon,
                    channels,
                });
            }
        }
    }
    None
}

/// Whether `v`'s shape, aligned to rank `rank` from the right, is 1 on
/// every axis but 1, where it is `channels`.
fn per_channel(ctx: &Context, v: Value, rank: usize, channels: i64) -> bool {
    let Some(dims) = operand_info(ctx, v).and_then(|i| i.shape.dims().map(|d| d.to_vec())) else {
        return false;
    };
    if dims.len() > rank || rank < 2 {
        return false;
    }
    let lead = rank - dims.len();
    dims.iter().enumerate().all(|(i, d)| {
        let want = if i + lead == 1 { channels } else { 1 };
        d.known() == Some(want)
    }) && lead <= 1
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

/// GELU: `x * 0.5 * (1 + f(x))` with `f(x) = erf(x / √2)` or
/// `tanh(√(2/π) * (x + 0.044715 * x³))`, as a product of `x * 0.5` and the
/// sum, or `(x * sum) * 0.5`: `x`, and whether `f` is tanh's.
fn gelu(ctx: &Context, out: Operation) -> Option<(Value, bool)> {
    // `1 + f(x)`, either order: x and whether f is tanh's.
    let sum_of = |v: Value| -> Option<(Value, bool)> {
        let add = def(ctx, v, "graph.add")?;
        let (a, b) = operands2(ctx, add)?;
        let (one, f) = if splat(ctx, a).is_some_and(|c| close(c, 1.0)) {
            (a, b)
        } else {
            (b, a)
        };
        if !splat(ctx, one).is_some_and(|c| close(c, 1.0)) {
            return None;
        }
        if let Some(erf) = def(ctx, f, "graph.erf") {
            let (x, k) = scaled(ctx, ctx.operand(erf, 0))?;
            return close(k, std::f64::consts::FRAC_1_SQRT_2).then_some((x, false));
        }
        let tanh = def(ctx, f, "graph.tanh")?;
        let (s, k) = scaled(ctx, ctx.operand(tanh, 0))?;
        if !close(k, (2.0 / std::f64::consts::PI).sqrt()) {
            return None;
        }
        let plus = def(ctx, s, "graph.add")?;
        let (a, b) = operands2(ctx, plus)?;
        [(a, b), (b, a)].into_iter().find_map(|(x, t)| {
            let (c, k) = scaled(ctx, t)?;
            (close(k, 0.044715) && is_cube(ctx, c, x)).then_some((x, true))
        })
    };
    let (p, q) = operands2(ctx, out)?;
    // (x * 0.5) * sum, either order.
    for (h, t) in [(p, q), (q, p)] {
        if let (Some((x, half)), Some((x2, tanh))) = (scaled(ctx, h), sum_of(t)) {
            if close(half, 0.5) && x == x2 {
                return Some((x, tanh));
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
        if let Some((x2, tanh)) = sum_of(t).filter(|&(x2, _)| x2 == x) {
            return Some((x2, tanh));
        }
    }
    None
}

/// Whether `c` is `x * x * x` (the products in any order) or `pow(x, 3)`.
fn is_cube(ctx: &Context, c: Value, x: Value) -> bool {
    if let Some(pow) = def(ctx, c, "graph.pow") {
        return operands2(ctx, pow)
            .is_some_and(|(b, e)| b == x && splat(ctx, e).is_some_and(|k| k == 3.0));
    }
    let square =
        |v: Value| def(ctx, v, "graph.mul").and_then(|m| operands2(ctx, m)) == Some((x, x));
    def(ctx, c, "graph.mul")
        .and_then(|m| operands2(ctx, m))
        .is_some_and(|(a, b)| (a == x && square(b)) || (b == x && square(a)))
}
