//! `graph-convert-precision`: compute a model's `f32` ops in `f16` or
//! `bf16` (a recipe's `codegen.precision`), with `f32` accumulation where
//! many values are summed (`codegen.accumulate_precision`).
//!
//! Each `graph` op that computes on `f32` tensors, unless its name is in
//! `keep-fp32`, gets its `f32` operands cast to the precision:
//!
//! - an op that sums many values (a contraction, a convolution, a
//!   reduction, a normalization, softmax, attention, an averaging pool),
//!   with `accumulate=f32`, reads operands rounded to the precision
//!   (`cast(cast(x, f16), f32)`), computes in `f32`, and its result is
//!   rounded to the precision: f16 inputs, an f32 accumulator, an f16
//!   result, as tensor cores and cuBLAS's mixed precision do;
//! - any other op computes in the precision: its results become `f16`.
//!
//! Results are cast back to `f32` for their users, so the function keeps its
//! signature; then `cast(cast(x: f16, f32), f16)` (an exact round trip) is
//! `x`, so a chain of converted ops passes `f16` from one to the next. Ops
//! that only move data (reshape, transpose, slice, concat, ...) take what
//! they are given: they are not cast themselves, nor is control flow
//! (`graph.if`, `graph.loop`, `graph.scan`, whose bodies' ops are converted
//! as any others), nor are the sequence and optional ops. Constants feeding the casts
//! fold to `f16` constants in `graph-fold-constants`.

use strata_dialects::graph::shape::{shape_of, tensor_type};
use strata_dialects::graph::CastOp;
use strata_ir::float::FloatKind;
use strata_ir::pass::{ListOption, Pass, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation, Type, Value, WalkOrder};

/// Ops that sum or average many values: with `accumulate=f32` they compute
/// in `f32` on rounded operands.
const ACCUMULATING: &[&str] = &[
    "graph.matmul",
    "graph.gemm",
    "graph.conv2d",
    "graph.conv_transpose2d",
    "graph.attention",
    "graph.softmax",
    "graph.log_softmax",
    "graph.layer_norm",
    "graph.rms_norm",
    "graph.batch_norm",
    "graph.instance_norm",
    "graph.group_norm",
    "graph.lp_normalization",
    "graph.avg_pool2d",
    "graph.global_avg_pool",
    "graph.reduce_sum",
    "graph.reduce_mean",
    "graph.reduce_prod",
    "graph.reduce_sum_square",
    "graph.reduce_l1",
    "graph.reduce_l2",
    "graph.reduce_log_sum",
    "graph.reduce_log_sum_exp",
    "graph.cumsum",
    "graph.einsum",
];

/// Control flow and its terminator, whose types are their regions' (the
/// ops inside are converted, with their results cast back to `f32`), and
/// the sequence and optional ops, which keep their element types.
fn is_control_flow(name: &str) -> bool {
    name == "graph.yield"
        || strata_dialects::graph::infer::control::YIELD_PARENTS.contains(&name)
        || strata_dialects::graph::sequence::is_sequence_op(name)
}

/// Ops that move or select data without arithmetic, or describe shapes,
/// and ops whose float operands are parameters read as values: they are
/// not converted (they pass on the type they are given).
const MOVEMENT: &[&str] = &[
    "graph.constant",
    "graph.cast",
    "graph.reshape",
    "graph.transpose",
    "graph.expand",
    "graph.squeeze",
    "graph.unsqueeze",
    "graph.flatten",
    "graph.slice",
    "graph.concat",
    "graph.split",
    "graph.gather",
    "graph.gather_elements",
    "graph.gather_nd",
    "graph.pad",
    "graph.tile",
    "graph.identity",
    "graph.shape_of",
    "graph.size",
    "graph.depth_to_space",
    "graph.space_to_depth",
    "graph.where",
    // Their scalar parameters (scales, bounds) are read as values.
    "graph.resize",
    "graph.range",
];

#[pass(
    name = "graph-convert-precision",
    display_name = "GraphConvertPrecision",
    summary = "Compute f32 graph ops in f16 or bf16, accumulating in f32"
)]
pub(crate) struct GraphConvertPrecision {
    #[option(
        name = "precision",
        default = "f16",
        description = "The compute precision: f16 or bf16"
    )]
    precision: String,
    #[option(
        name = "accumulate",
        default = "f32",
        description = "The precision sums accumulate in: f32, or the compute precision"
    )]
    accumulate: String,
    #[option(
        name = "keep-fp32",
        description = "Ops (by name: softmax, graph.layer_norm, LayerNormalization) that stay in f32"
    )]
    keep_fp32: ListOption<String>,
}

/// `ty` (a tensor of `from`) with element type `to`; `None` for a type
/// that is not a tensor of `from`.
fn retyped(ctx: &mut Context, ty: Type, from: FloatKind, to: Type) -> Option<Type> {
    let (shape, element) = shape_of(ctx, ty)?;
    (ctx.float_kind(element) == Some(from)).then(|| tensor_type(ctx, &shape, to))
}

/// A `graph.cast` of `v` to `ty`, inserted before `before`.
fn cast(ctx: &mut Context, v: Value, ty: Type, before: Operation) -> Value {
    let loc = ctx.op_loc(before);
    let op = CastOp::build(ctx, loc, v, None, None, ty).op();
    ctx.insert_op_before(before, op);
    ctx.result(op, 0)
}

/// `v` if it is `cast(x, f32)` of an `x` of type `want` (an exact round
/// trip), else `None`.
fn uncast(ctx: &Context, v: Value, want: Type) -> Option<Value> {
    let def = ctx
        .defining_op(v)
        .filter(|&d| ctx.op_name_str(d) == CastOp::NAME)?;
    let x = ctx.operand(def, 0);
    (ctx.value_type(x) == want).then_some(x)
}

impl Pass for GraphConvertPrecision {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let kind = match self.precision.as_str() {
            "f16" => FloatKind::F16,
            "bf16" => FloatKind::BF16,
            other => {
                return Err(Diagnostic::op_error(
                    ctx,
                    root,
                    format!("graph-convert-precision: precision '{other}': expected f16 or bf16"),
                ))
            }
        };
        let accumulate_f32 = match self.accumulate.as_str() {
            "f32" => true,
            a if a == self.precision => false,
            other => {
                return Err(Diagnostic::op_error(
                    ctx,
                    root,
                    format!(
                        "graph-convert-precision: accumulate '{other}': expected f32 or {}",
                        self.precision
                    ),
                ))
            }
        };
        let keep: Vec<&str> = self
            .keep_fp32
            .iter()
            .filter_map(|n| strata_dialects::op_names::resolve(ctx, n))
            .collect();
        let narrow = ctx.float_type(kind);
        let ops: Vec<Operation> = ctx
            .nested_ops(root, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| {
                let name = ctx.op_name_str(o);
                name.starts_with("graph.")
                    && !MOVEMENT.contains(&name)
                    && !keep.contains(&name)
                    && !is_control_flow(name)
            })
            .collect();
        let mut converted = 0u64;
        for op in ops {
            let name = ctx.op_name_str(op);
            let accumulates = accumulate_f32 && ACCUMULATING.contains(&name);
            // The operands: f32 tensors become the precision (rounded, and
            // back in f32 for an op that accumulates in f32).
            let mut changed = false;
            for i in 0..ctx.num_operands(op) {
                let v = ctx.operand(op, i);
                let ty = ctx.value_type(v);
                let Some(low) = retyped(ctx, ty, FloatKind::F32, narrow) else {
                    continue;
                };
                let rounded = uncast(ctx, v, low).unwrap_or_else(|| cast(ctx, v, low, op));
                let operand = if accumulates {
                    cast(ctx, rounded, ty, op)
                } else {
                    rounded
                };
                ctx.set_operand(op, i, operand);
                changed = true;
            }
            // The results: computed in the precision (or rounded to it after
            // an f32 accumulation), then cast back to f32 for the users.
            let results: Vec<Value> = ctx.results(op).collect();
            for r in results {
                let ty = ctx.value_type(r);
                let Some(low) = retyped(ctx, ty, FloatKind::F32, narrow) else {
                    continue;
                };
                let Some(next) = ctx.op_next(op) else {
                    continue;
                };
                let users: Vec<(Operation, usize)> =
                    ctx.uses(r).map(|u| (u.op, u.index as usize)).collect();
                let low_value = if accumulates {
                    cast(ctx, r, low, next)
                } else {
                    ctx.set_value_type(r, low);
                    r
                };
                let back = cast(ctx, low_value, ty, next);
                for (user, index) in users {
                    ctx.set_operand(user, index, back);
                }
                changed = true;
            }
            if changed {
                converted += 1;
            }
        }
        stats.add("num-converted", "Number of ops converted", converted);
        Ok(())
    }
}
