//! `graph-convert-conv-layout{layout=nhwc}`: convolutions and pools compute
//! channels last (or first), with transposes around them that
//! `graph-eliminate-layout` then sinks and cancels.
//!
//! A `graph.conv2d` in NCHW becomes `transpose(conv2d {layout = "nhwc"}
//! (transpose(x), transpose(w)), [0, 3, 1, 2])`: the input and the weight
//! go to `[N, H, W, C]` and `[M, kH, kW, C/G]` (`graph-fold-constants`
//! folds a constant weight's transpose), the result comes back to NCHW.
//! Pools (without an `indices` result) likewise. Between two convolutions
//! the transpose out of one meets the transpose into the next once the
//! ops between them have let it through (elementwise ops, batch norms,
//! elementwise ops with a constant operand: the patterns below), and the
//! pair cancels. The model's inputs and outputs keep their layout.
//!
//! Why: the NHWC convolution's matrix product is `[N*OH*OW, M]`, the
//! result's own order, so its bias and the elementwise ops after it fuse
//! into the product's epilogue; the NCHW product needs a transposing map.
//! This is the layout choice of TensorRT, cuDNN's tensor-core paths and
//! XNNPACK (channels last), which IREE and TVM make by the same rewrite.

use strata_dialects::builders::build_graph_op;
use strata_dialects::graph::infer::{
    attr_f64, attr_i64_array, attr_str, infer_results, result_type,
};
use strata_ir::float::FloatKind;
use strata_ir::pass::{Pass, Statistics};
use strata_ir::rewrite::{PatternRewriter, RewritePattern};
use strata_ir::{pass, AttrKind, Attribute, Context, Diagnostic, IrMapping, Operation, Value};

/// NCHW to NHWC (also `[M, C, kH, kW]` to `[M, kH, kW, C]`).
const TO_NHWC: [i64; 4] = [0, 2, 3, 1];
/// NHWC to NCHW.
const TO_NCHW: [i64; 4] = [0, 3, 1, 2];

#[pass(
    name = "graph-convert-conv-layout",
    display_name = "GraphConvertConvLayout",
    summary = "Compute convolutions and pools in NHWC (or NCHW), with transposes around them"
)]
pub(crate) struct GraphConvertConvLayout {
    #[option(
        name = "layout",
        default = "nhwc",
        description = "The layout convolutions and pools compute in: nhwc (channels last) or nchw"
    )]
    layout: String,
}

impl Pass for GraphConvertConvLayout {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let (into, out) = match self.layout.as_str() {
            "nhwc" => (TO_NHWC, TO_NCHW),
            "nchw" => (TO_NCHW, TO_NHWC),
            other => {
                return Err(Diagnostic::op_error(
                    ctx,
                    root,
                    format!("graph-convert-conv-layout: layout '{other}': expected nhwc or nchw"),
                ))
            }
        };
        let targets: Vec<Operation> = ctx
            .nested_ops(root, strata_ir::WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| convertible(ctx, o, &self.layout))
            .collect();
        let mut converted = 0;
        for op in targets {
            if convert(ctx, op, &self.layout, into, out)? {
                converted += 1;
            }
        }
        stats.add(
            "num-converted",
            "Number of convolutions and pools whose layout changed",
            converted,
        );
        Ok(())
    }
}

/// Whether `op` is a convolution or pool in the other layout, on a 4-D
/// input.
fn convertible(ctx: &Context, op: Operation, layout: &str) -> bool {
    let name = ctx.op_name_str(op);
    let window = match name {
        "graph.conv2d" | "graph.avg_pool2d" => true,
        "graph.max_pool2d" => ctx.num_results(op) == 1,
        _ => false,
    };
    let current = attr_str(ctx, op, "layout").unwrap_or_else(|| "nchw".into());
    let rank4 = ctx.num_operands(op) > 0
        && rank(ctx, ctx.operand(op, 0)) == Some(4)
        && ctx.num_results(op) == 1
        && rank(ctx, ctx.result(op, 0)) == Some(4);
    window && current != layout && rank4
}

fn rank(ctx: &Context, v: Value) -> Option<usize> {
    ctx.type_kind(ctx.value_type(v)).shape().map(<[i64]>::len)
}

/// A `dense<i64>` array attribute.
fn i64_array(ctx: &mut Context, values: &[i64]) -> Attribute {
    let element = ctx.integer_type(64);
    ctx.intern_attr(AttrKind::DenseArray {
        element,
        values: values.iter().map(|&v| v as u64).collect(),
    })
}

/// `graph.transpose(v, perm)` inserted before `before`.
fn transpose_before(
    ctx: &mut Context,
    before: Operation,
    v: Value,
    perm: &[i64],
) -> Result<Value, Diagnostic> {
    let loc = ctx.op_loc(before);
    let attr = i64_array(ctx, perm);
    let t = build_graph_op(
        ctx,
        loc,
        "graph.transpose",
        &[v],
        &[("perm", attr)],
        1,
        None,
    )
    .map_err(|e| Diagnostic::op_error(ctx, before, e.to_string()))?;
    ctx.insert_op_before(before, t);
    Ok(ctx.result(t, 0))
}

/// Rewrites `op` to compute in `layout`: its input (and weight) through
/// `into`, its result back through `out`.
fn convert(
    ctx: &mut Context,
    op: Operation,
    layout: &str,
    into: [i64; 4],
    out: [i64; 4],
) -> Result<bool, Diagnostic> {
    let conv = ctx.op_name_str(op) == "graph.conv2d";
    let mut operands: Vec<Value> = ctx.operands(op).collect();
    operands[0] = transpose_before(ctx, op, operands[0], &into)?;
    if conv {
        if rank(ctx, operands[1]) != Some(4) {
            return Ok(false);
        }
        operands[1] = transpose_before(ctx, op, operands[1], &into)?;
    }
    let new = ctx.clone_op(op, &mut IrMapping::default());
    for (i, &v) in operands.iter().enumerate() {
        ctx.set_operand(new, i, v);
    }
    let layout_attr = ctx.string_attr(layout);
    ctx.set_op_property(new, "layout", layout_attr);
    let inferred = match infer_results(ctx, new) {
        Some(Ok(results)) if results.len() == 1 => results,
        Some(Err(e)) => {
            ctx.erase_op(new);
            return Err(Diagnostic::op_error(ctx, op, e));
        }
        _ => {
            ctx.erase_op(new);
            return Ok(false);
        }
    };
    let declared = ctx.value_type(ctx.result(op, 0));
    let nchw_declared = permuted_type(ctx, declared, &into);
    let ty = result_type(ctx, &inferred[0], nchw_declared);
    let r = ctx.result(new, 0);
    ctx.set_value_type(r, ty);
    ctx.insert_op_before(op, new);
    let back = transpose_before(ctx, op, r, &out)?;
    ctx.set_value_type(back, declared);
    let old = ctx.result(op, 0);
    ctx.replace_all_uses_with(old, back);
    ctx.erase_op(op);
    Ok(true)
}

/// `ty` (a ranked tensor) with its dims permuted (`perm[i]` is the source
/// dim of dim `i`); `ty` itself otherwise.
fn permuted_type(ctx: &mut Context, ty: strata_ir::Type, perm: &[i64]) -> strata_ir::Type {
    let kind = ctx.type_kind(ty);
    let (Some(shape), Some(element)) = (kind.shape().map(<[i64]>::to_vec), kind.element_type())
    else {
        return ty;
    };
    let dims: Option<Vec<i64>> = perm
        .iter()
        .map(|&p| usize::try_from(p).ok().and_then(|p| shape.get(p).copied()))
        .collect();
    match dims {
        Some(d) if d.len() == shape.len() => ctx.tensor_type(d, element),
        _ => ty,
    }
}

/// The permutation that undoes `perm`.
pub(crate) fn inverse(perm: &[i64]) -> Option<Vec<i64>> {
    let mut inv = vec![-1; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        let slot = usize::try_from(p).ok().and_then(|p| inv.get_mut(p))?;
        *slot = i as i64;
    }
    inv.iter().all(|&v| v >= 0).then_some(inv)
}

/// `graph.constant` of `values` (`tensor<Nxi64>`) inserted before `before`.
fn i64_constant(ctx: &mut Context, before: Operation, values: &[i64]) -> Option<Value> {
    let i64t = ctx.integer_type(64);
    let ty = ctx.tensor_type(vec![values.len() as i64], i64t);
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let attr = ctx.dense_elements_attr(ty, raw)?;
    let loc = ctx.op_loc(before);
    let c = strata_dialects::graph::ConstantOp::build(ctx, loc, attr, ty).op();
    ctx.insert_op_before(before, c);
    Some(ctx.result(c, 0))
}

/// A graph op inserted before `before`, its one result type inferred.
fn graph_op(
    ctx: &mut Context,
    before: Operation,
    name: &str,
    operands: &[Value],
    properties: &[(&str, Attribute)],
) -> Option<Value> {
    let loc = ctx.op_loc(before);
    let op = build_graph_op(ctx, loc, name, operands, properties, 1, None).ok()?;
    ctx.insert_op_before(before, op);
    Some(ctx.result(op, 0))
}

/// `c` (a constant operand beside a transposed one, of rank at most
/// `rank`) in the order of the transpose's source: extended with leading
/// 1s to `rank` (NumPy's broadcasting) and transposed by the inverse of
/// `perm`. Inserted before `before`; folding makes it a constant again.
pub(crate) fn untransposed_constant(
    ctx: &mut Context,
    before: Operation,
    c: Value,
    rank: usize,
    perm: &[i64],
) -> Option<Value> {
    let shape = ctx.type_kind(ctx.value_type(c)).shape()?.to_vec();
    if shape.len() > rank {
        return None;
    }
    let mut v = c;
    if shape.len() < rank {
        let mut full = vec![1; rank - shape.len()];
        full.extend(&shape);
        let s = i64_constant(ctx, before, &full)?;
        v = graph_op(ctx, before, "graph.reshape", &[v, s], &[])?;
    }
    let inv = inverse(perm)?;
    let attr = i64_array(ctx, &inv);
    graph_op(ctx, before, "graph.transpose", &[v], &[("perm", attr)])
}

/// `batch_norm(transpose(y, p), scale, bias, mean, var)` to
/// `transpose(y * s + t, p)`, with `s = scale / sqrt(var + epsilon)` and
/// `t = bias - mean * s` per channel (laid along `y`'s channel dim):
/// inference batch norm is a per-channel affine map (`graph-fold-constants`
/// folds `s` and `t` when the parameters are constants).
pub(crate) struct SinkTransposeBatchNorm;

impl RewritePattern for SinkTransposeBatchNorm {
    fn root_name(&self) -> Option<&str> {
        Some("graph.batch_norm")
    }

    fn name(&self) -> &str {
        "SinkTransposeBatchNorm"
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        let ctx = rewriter.ctx();
        let input = ctx.operand(op, 0);
        let Some(t) = ctx
            .defining_op(input)
            .filter(|&d| ctx.op_name_str(d) == "graph.transpose")
        else {
            return false;
        };
        let y = ctx.operand(t, 0);
        let Some(shape) = ctx
            .type_kind(ctx.value_type(y))
            .shape()
            .map(<[i64]>::to_vec)
        else {
            return false;
        };
        let r = shape.len();
        let perm = attr_i64_array(ctx, t, "perm").unwrap_or_else(|| (0..r as i64).rev().collect());
        if ctx.uses(input).count() != 1 || r < 2 || perm.len() != r {
            return false;
        }
        let channel = perm[1] as usize;
        let c = shape[channel];
        let element = ctx.type_kind(ctx.value_type(y)).element_type();
        let float = element.and_then(|e| ctx.float_kind(e));
        let params_ok = (1..5).all(|i| {
            ctx.type_kind(ctx.value_type(ctx.operand(op, i)))
                .shape()
                .is_some_and(|s| s == [c])
        });
        if !params_ok || !matches!(float, Some(FloatKind::F32 | FloatKind::F64)) {
            return false;
        }
        let wide = float == Some(FloatKind::F64);
        let epsilon = attr_f64(ctx, op, "epsilon").unwrap_or(1e-5);
        let params: Vec<Value> = (1..5).map(|i| ctx.operand(op, i)).collect();
        let ctx = rewriter.ctx_mut();
        let Some(affine) = affine_of(ctx, op, &params, epsilon, wide, r - 1 - channel) else {
            return false;
        };
        let (s, b) = affine;
        let Some(scaled) = graph_op(ctx, op, "graph.mul", &[y, s], &[]) else {
            return false;
        };
        let Some(z) = graph_op(ctx, op, "graph.add", &[scaled, b], &[]) else {
            return false;
        };
        let Some(z_op) = ctx.defining_op(z) else {
            return false;
        };
        super::graph_layout::sink_after(rewriter, op, z_op, t);
        true
    }
}

/// `(s, t)` of a batch norm's `[scale, bias, mean, var]`, each `[C]`
/// reshaped to `[C, 1, ...]` with `trailing` 1s (to broadcast along the
/// channel dim). Inserted before `op`.
fn affine_of(
    ctx: &mut Context,
    op: Operation,
    params: &[Value],
    epsilon: f64,
    wide: bool,
    trailing: usize,
) -> Option<(Value, Value)> {
    let (scale, bias, mean, var) = (params[0], params[1], params[2], params[3]);
    let element = ctx.type_kind(ctx.value_type(var)).element_type()?;
    let scalar = ctx.tensor_type(Vec::new(), element);
    let raw = if wide {
        epsilon.to_le_bytes().to_vec()
    } else {
        (epsilon as f32).to_le_bytes().to_vec()
    };
    let attr = ctx.dense_elements_attr(scalar, raw)?;
    let loc = ctx.op_loc(op);
    let eps = strata_dialects::graph::ConstantOp::build(ctx, loc, attr, scalar).op();
    ctx.insert_op_before(op, eps);
    let eps = ctx.result(eps, 0);
    let shifted = graph_op(ctx, op, "graph.add", &[var, eps], &[])?;
    let root = graph_op(ctx, op, "graph.sqrt", &[shifted], &[])?;
    let s = graph_op(ctx, op, "graph.div", &[scale, root], &[])?;
    let ms = graph_op(ctx, op, "graph.mul", &[mean, s], &[])?;
    let t = graph_op(ctx, op, "graph.sub", &[bias, ms], &[])?;
    if trailing == 0 {
        return Some((s, t));
    }
    let c = ctx.type_kind(ctx.value_type(s)).shape()?.first().copied()?;
    let mut dims = vec![c];
    dims.extend(std::iter::repeat_n(1, trailing));
    let sh = i64_constant(ctx, op, &dims)?;
    let s = graph_op(ctx, op, "graph.reshape", &[s, sh], &[])?;
    let t = graph_op(ctx, op, "graph.reshape", &[t, sh], &[])?;
    Some((s, t))
}
