//! Reference evaluation of the `graph` ops: one evaluation function per op
//! kind, in one table keyed by the ops' typed name constants
//! (`AddOp::NAME`), so that a misspelt op does not compile and a missing
//! one is found by a test rather than at run time. The elementwise ops are
//! evaluated here, the neural-network ops in `graph_nn`, the shape and
//! indexing ops in `graph_shape`.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

use strata_dialects::graph as g;
use strata_ir::{Context, Operation};

use super::graph_nn as nn;
use super::graph_shape as shape;
use super::{
    attr_tensor, broadcast_pair, check_size, kerr, result_dtype, type_info, CustomKernels, Limits,
};
use crate::kernels::{self as k, BinaryOp, CompareOp, LogicalOp, ReduceOp};
use crate::{DType, Tensor};

/// What a `graph` op's evaluation sees: the op, its operands' values and
/// the run's limits.
pub(super) struct GraphArgs<'a> {
    /// The context of the op.
    pub ctx: &'a Context,
    /// The op being evaluated.
    pub op: Operation,
    /// The operands' values.
    pub x: Vec<&'a Tensor>,
    /// Bounds on what the op may create.
    pub limits: Limits,
    /// The operand segment sizes, when the op has several optional or
    /// variadic operand groups.
    segments: Option<Vec<usize>>,
}

impl<'a> GraphArgs<'a> {
    /// Operand `i`.
    pub fn arg(&self, i: usize) -> Result<&'a Tensor, String> {
        self.x
            .get(i)
            .copied()
            .ok_or_else(|| format!("expects operand #{i}"))
    }

    /// The elements of operand `i` as integers.
    pub fn ints(&self, i: usize) -> Result<Vec<i64>, String> {
        Ok(self.arg(i)?.to_i64_vec())
    }

    /// The operand of optional group `g`, given the operand segment sizes.
    pub fn opt(&self, g: usize) -> Option<&'a Tensor> {
        match &self.segments {
            Some(s) => {
                if s.get(g).copied().unwrap_or(0) == 0 {
                    None
                } else {
                    self.x.get(s[..g].iter().sum::<usize>()).copied()
                }
            }
            None => self.x.get(g).copied(),
        }
    }

    /// The dtype of result `i`.
    pub fn result_dtype(&self, i: usize) -> Result<DType, String> {
        result_dtype(self.ctx, self.op, i)
    }

    /// A binary elementwise kernel on operands 0 and 1.
    fn bin(&self, b: BinaryOp) -> Result<Tensor, String> {
        k::binary(b, self.arg(0)?, self.arg(1)?).map_err(kerr)
    }

    /// A comparison of operands 0 and 1.
    fn cmp(&self, c: CompareOp) -> Result<Tensor, String> {
        k::compare(c, self.arg(0)?, self.arg(1)?).map_err(kerr)
    }

    /// A reduction of operand 0 over the axes of operand 1.
    fn reduce(&self, r: ReduceOp) -> Result<Tensor, String> {
        let (ctx, op) = (self.ctx, self.op);
        let input = self.arg(0)?;
        let axes = match self.x.get(1).copied() {
            Some(a) => a.to_i64_vec(),
            None => Vec::new(),
        };
        if axes.is_empty() && declared_bool(ctx, op, "noop_with_empty_axes") {
            return Ok(input.clone());
        }
        let keepdims = declared_bool(ctx, op, "keepdims");
        if input.dtype() == DType::I1 && matches!(r, ReduceOp::Max | ReduceOp::Min) {
            // Max and min of booleans are any and all.
            let wide = k::cast(input, DType::I32).map_err(kerr)?;
            let out = k::reduce(r, &wide, &axes, keepdims).map_err(kerr)?;
            return k::cast(&out, DType::I1).map_err(kerr);
        }
        k::reduce(r, input, &axes, keepdims).map_err(kerr)
    }
}

/// The boolean attribute `name` of `op`, or else the default its op
/// declares (for evaluations shared by several op kinds).
fn declared_bool(ctx: &Context, op: Operation, name: &str) -> bool {
    let default = ctx
        .op_definition(op)
        .and_then(|def| def.spec)
        .and_then(|spec| spec.attributes.iter().find(|a| a.name == name))
        .and_then(|a| match a.presence {
            strata_ir::ods::AttrPresence::Default(text) => Some(text),
            _ => None,
        });
    strata_ir::ods::attr_value::<g::BoolAttr>(ctx, op, name, default).unwrap_or(false)
}

/// The reference evaluation of one `graph` op kind: its results from its
/// operands, or a message saying why it cannot compute them.
pub(super) type GraphEvalFn = fn(&GraphArgs<'_>) -> Result<Vec<Tensor>, String>;

/// The evaluation of each `graph` op, by the op's name constant.
static EVALUATORS: &[(&str, GraphEvalFn)] = &[
    (g::ConstantOp::NAME, eval_constant),
    (g::AddOp::NAME, |e| Ok(vec![e.bin(BinaryOp::Add)?])),
    (g::SubOp::NAME, |e| Ok(vec![e.bin(BinaryOp::Sub)?])),
    (g::MulOp::NAME, |e| Ok(vec![e.bin(BinaryOp::Mul)?])),
    (g::DivOp::NAME, |e| Ok(vec![e.bin(BinaryOp::Div)?])),
    (g::PowOp::NAME, |e| Ok(vec![e.bin(BinaryOp::Pow)?])),
    (g::MaxOp::NAME, |e| Ok(vec![e.bin(BinaryOp::Max)?])),
    (g::MinOp::NAME, |e| Ok(vec![e.bin(BinaryOp::Min)?])),
    (g::ModOp::NAME, eval_mod),
    (g::AndOp::NAME, |e| {
        Ok(vec![
            k::logical(LogicalOp::And, e.arg(0)?, e.arg(1)?).map_err(kerr)?
        ])
    }),
    (g::OrOp::NAME, |e| {
        Ok(vec![
            k::logical(LogicalOp::Or, e.arg(0)?, e.arg(1)?).map_err(kerr)?
        ])
    }),
    (g::XorOp::NAME, |e| {
        Ok(vec![
            k::logical(LogicalOp::Xor, e.arg(0)?, e.arg(1)?).map_err(kerr)?
        ])
    }),
    (g::BitShiftOp::NAME, eval_bit_shift),
    (g::EqualOp::NAME, |e| Ok(vec![e.cmp(CompareOp::Eq)?])),
    (g::LessOp::NAME, |e| Ok(vec![e.cmp(CompareOp::Lt)?])),
    (g::LessEqualOp::NAME, |e| Ok(vec![e.cmp(CompareOp::Le)?])),
    (g::GreaterOp::NAME, |e| Ok(vec![e.cmp(CompareOp::Gt)?])),
    (g::GreaterEqualOp::NAME, |e| Ok(vec![e.cmp(CompareOp::Ge)?])),
    (g::IdentityOp::NAME, |e| Ok(vec![e.arg(0)?.clone()])),
    (g::ClipOp::NAME, eval_clip),
    (g::CastOp::NAME, |e| {
        let saturate = g::CastOp(e.op).saturate(e.ctx);
        if e.result_dtype(0)? == crate::DType::F8E8M0 {
            let mode = match g::CastOp(e.op).round_mode(e.ctx).as_str() {
                "up" => crate::narrow::RoundMode::Up,
                "down" => crate::narrow::RoundMode::Down,
                "nearest" => crate::narrow::RoundMode::Nearest,
                other => return Err(format!("has an unknown round_mode '{other}'")),
            };
            return Ok(vec![k::cast_e8m0(e.arg(0)?, saturate, mode).map_err(kerr)?]);
        }
        Ok(vec![k::cast_saturating(
            e.arg(0)?,
            e.result_dtype(0)?,
            saturate,
        )
        .map_err(kerr)?])
    }),
    (g::BitcastOp::NAME, |e| {
        Ok(vec![
            k::bitcast(e.arg(0)?, e.result_dtype(0)?).map_err(kerr)?
        ])
    }),
    (g::WhereOp::NAME, |e| {
        Ok(vec![
            k::where_(e.arg(0)?, e.arg(1)?, e.arg(2)?).map_err(kerr)?
        ])
    }),
    (g::MatMulOp::NAME, |e| {
        Ok(vec![k::matmul(e.arg(0)?, e.arg(1)?).map_err(kerr)?])
    }),
    (g::GemmOp::NAME, eval_gemm),
    (g::RnnOp::NAME, super::graph_recurrent::eval_recurrent),
    (g::GruOp::NAME, super::graph_recurrent::eval_recurrent),
    (g::LstmOp::NAME, super::graph_recurrent::eval_recurrent),
    (
        g::LinearAttentionOp::NAME,
        super::graph_recurrent::eval_linear_attention,
    ),
    (g::Conv2dOp::NAME, nn::eval_conv2d),
    (g::ConvTranspose2dOp::NAME, nn::eval_conv_transpose2d),
    (g::ResizeOp::NAME, nn::eval_resize),
    (g::DftOp::NAME, nn::eval_dft),
    (g::ImageDecodeOp::NAME, nn::eval_image_decode),
    (g::NonMaxSuppressionOp::NAME, nn::eval_non_max_suppression),
    (g::NonZeroOp::NAME, shape::eval_non_zero),
    (g::UniqueOp::NAME, shape::eval_unique),
    (g::RoiAlignOp::NAME, nn::eval_roi_align),
    (g::GridSampleOp::NAME, nn::eval_grid_sample),
    (g::GatherNdOp::NAME, shape::eval_gather_nd),
    (g::GatherElementsOp::NAME, shape::eval_gather_elements),
    (g::ScatterElementsOp::NAME, |e| {
        shape::eval_scatter(e, false)
    }),
    (g::ScatterNdOp::NAME, |e| shape::eval_scatter(e, true)),
    (g::CumsumOp::NAME, |e| shape::eval_cumulative(e, false)),
    (g::CumprodOp::NAME, |e| shape::eval_cumulative(e, true)),
    (g::DetOp::NAME, |e| {
        Ok(vec![k::det(e.arg(0)?).map_err(kerr)?])
    }),
    (g::Col2ImOp::NAME, nn::eval_col2im),
    (g::AffineGridOp::NAME, |e| {
        let size: Result<Vec<usize>, String> = e
            .arg(1)?
            .to_i64_vec()
            .into_iter()
            .map(|v| usize::try_from(v).map_err(|_| format!("size has a negative entry {v}")))
            .collect();
        let align = g::AffineGridOp(e.op).align_corners(e.ctx);
        Ok(vec![k::affine_grid(e.arg(0)?, &size?, align).map_err(kerr)?])
    }),
    (g::TopKOp::NAME, nn::eval_top_k),
    (g::DropoutOp::NAME, nn::eval_dropout),
    (g::MaxPool2dOp::NAME, nn::eval_max_pool2d),
    (g::AvgPool2dOp::NAME, nn::eval_avg_pool2d),
    (g::GlobalAvgPoolOp::NAME, |e| {
        Ok(vec![k::global_avg_pool(e.arg(0)?).map_err(kerr)?])
    }),
    (g::GlobalMaxPoolOp::NAME, |e| {
        Ok(vec![k::global_max_pool(e.arg(0)?).map_err(kerr)?])
    }),
    (g::SoftmaxOp::NAME, |e| {
        let axis = g::SoftmaxOp(e.op).axis(e.ctx);
        Ok(vec![k::softmax(e.arg(0)?, axis).map_err(kerr)?])
    }),
    (g::LogSoftmaxOp::NAME, nn::eval_log_softmax),
    (g::LayerNormOp::NAME, nn::eval_layer_norm),
    (g::RmsNormOp::NAME, nn::eval_rms_norm),
    (g::BatchNormOp::NAME, nn::eval_batch_norm),
    (g::ReduceSumOp::NAME, |e| Ok(vec![e.reduce(ReduceOp::Sum)?])),
    (g::ReduceMeanOp::NAME, |e| {
        Ok(vec![e.reduce(ReduceOp::Mean)?])
    }),
    (g::ReduceMaxOp::NAME, |e| Ok(vec![e.reduce(ReduceOp::Max)?])),
    (g::ReduceMinOp::NAME, |e| Ok(vec![e.reduce(ReduceOp::Min)?])),
    (g::ReduceProdOp::NAME, |e| {
        Ok(vec![e.reduce(ReduceOp::Prod)?])
    }),
    (g::ReduceSumSquareOp::NAME, |e| {
        Ok(vec![e.reduce(ReduceOp::SumSquare)?])
    }),
    (g::ReduceL1Op::NAME, |e| Ok(vec![e.reduce(ReduceOp::L1)?])),
    (g::ReduceL2Op::NAME, |e| Ok(vec![e.reduce(ReduceOp::L2)?])),
    (g::ReduceLogSumExpOp::NAME, |e| {
        Ok(vec![e.reduce(ReduceOp::LogSumExp)?])
    }),
    (g::ArgMaxOp::NAME, |e| nn::eval_arg_reduce(e, true)),
    (g::ArgMinOp::NAME, |e| nn::eval_arg_reduce(e, false)),
    (g::ReshapeOp::NAME, shape::eval_reshape),
    (g::TransposeOp::NAME, shape::eval_transpose),
    (g::ExpandOp::NAME, shape::eval_expand),
    (g::TileOp::NAME, shape::eval_tile),
    (g::ConcatOp::NAME, shape::eval_concat),
    (g::SplitOp::NAME, shape::eval_split),
    (g::SliceOp::NAME, shape::eval_slice),
    (g::GatherOp::NAME, shape::eval_gather),
    (g::SqueezeOp::NAME, shape::eval_squeeze),
    (g::UnsqueezeOp::NAME, shape::eval_unsqueeze),
    (g::FlattenOp::NAME, shape::eval_flatten),
    (g::PadOp::NAME, shape::eval_pad),
    (g::ShapeOfOp::NAME, shape::eval_shape_of),
    (g::SizeOp::NAME, |e| {
        Ok(vec![Tensor::scalar_i64(DType::I64, e.arg(0)?.len() as i64)])
    }),
    (g::ConstantOfShapeOp::NAME, shape::eval_constant_of_shape),
    (g::RangeOp::NAME, shape::eval_range),
    (g::DeformConv2dOp::NAME, nn::eval_deform_conv2d),
    (g::RandomUniformLikeOp::NAME, nn::eval_random_uniform_like),
    (g::AttentionOp::NAME, nn::eval_attention),
    (g::CustomOp::NAME, eval_custom),
];

/// [`EVALUATORS`] by name.
fn evaluators() -> &'static HashMap<&'static str, GraphEvalFn> {
    static MAP: OnceLock<HashMap<&'static str, GraphEvalFn>> = OnceLock::new();
    MAP.get_or_init(|| EVALUATORS.iter().copied().collect())
}

/// Whether the interpreter has a reference evaluation of the `graph` op
/// named `op_name` registered in `ctx`: an entry of its own, or the
/// [`ScalarFn`](g::scalar::ScalarFn) its declaration names.
pub fn has_reference_evaluation(ctx: &Context, op_name: &str) -> bool {
    evaluators().contains_key(op_name)
        || super::graph_control::is_control_flow(op_name)
        || super::graph_sequence::is_sequence_op(op_name)
        || super::graph_strings::is_string_op(op_name)
        // The terminator of their regions (`run_block` ends at it).
        || op_name == "graph.yield"
        || ctx
            .registry()
            .interface::<g::scalar::ScalarFn>(op_name)
            .is_some()
}

/// Evaluates the `graph` op `op` (named `name`) on its operands' values.
pub(super) fn eval(
    ctx: &Context,
    op: Operation,
    name: &str,
    x: &[Rc<Tensor>],
    limits: Limits,
) -> Result<Vec<Tensor>, String> {
    check_result_sizes(ctx, op, x, limits.max_bytes)?;
    if let Some(declared) = ctx.op_interface::<g::scalar::ScalarFn>(op) {
        let input = x.first().ok_or("has no operand")?;
        let tape = declared.record(ctx, op);
        return Ok(vec![
            k::map_scalar(input, &tape, declared.bools).map_err(kerr)?
        ]);
    }
    let Some(f) = evaluators().get(name) else {
        return Err(format!(
            "cannot be evaluated: the interpreter does not know '{name}'"
        ));
    };
    let args = GraphArgs {
        ctx,
        op,
        x: x.iter().map(|t| &**t).collect(),
        limits,
        segments: strata_dialects::graph::infer::operand_segments(ctx, op),
    };
    f(&args)
}

/// `graph.constant`.
fn eval_constant(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let v = strata_ir::ods::inherent_attr(ctx, op, "value").ok_or("has no value")?;
    Ok(vec![attr_tensor(ctx, v)?])
}

/// `graph.mod`.
fn eval_mod(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (a, b) = (e.arg(0)?, e.arg(1)?);
    let out = if g::ModOp(e.op).fmod(e.ctx) && !a.dtype().is_float() {
        // C's `%`: the sign of the dividend.
        let (shape, x, y) = broadcast_pair(a, b)?;
        // i128 holds signed and unsigned values alike.
        let out = x
            .to_i128_vec()
            .into_iter()
            .zip(y.to_i128_vec())
            .map(|(p, q)| {
                if q == 0 {
                    Err("integer remainder by zero".to_string())
                } else {
                    Ok(p.wrapping_rem(q))
                }
            })
            .collect::<Result<Vec<i128>, String>>()?;
        Tensor::new(shape, crate::TensorData::from_i128_slice(a.dtype(), &out)).map_err(kerr)?
    } else {
        e.bin(BinaryOp::Mod)?
    };
    Ok(vec![out])
}

/// `graph.bit_shift`.
fn eval_bit_shift(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let left = g::BitShiftOp(e.op).direction(e.ctx).as_deref() == Some("left");
    Ok(vec![k::bit_shift(e.arg(0)?, e.arg(1)?, left).map_err(kerr)?])
}

/// `graph.clip`.
fn eval_clip(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let bound = |g: usize| e.opt(g).and_then(|t| t.to_f64_vec().first().copied());
    let input = e.arg(0)?;
    let out = if input.dtype().is_float() {
        k::clip(input, bound(1), bound(2)).map_err(kerr)?
    } else {
        // Integers: clamp exactly (no round trip through f64).
        let mut t = input.clone();
        if let Some(lo) = e.opt(1) {
            t = k::binary(BinaryOp::Max, &t, lo).map_err(kerr)?;
        }
        if let Some(hi) = e.opt(2) {
            t = k::binary(BinaryOp::Min, &t, hi).map_err(kerr)?;
        }
        t
    };
    Ok(vec![out])
}

/// `graph.gemm`.
fn eval_gemm(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, g::GemmOp(e.op));
    Ok(vec![k::gemm(
        e.arg(0)?,
        e.arg(1)?,
        e.x.get(2).copied(),
        op.alpha(ctx),
        op.beta(ctx),
        op.trans_a(ctx),
        op.trans_b(ctx),
    )
    .map_err(kerr)?])
}

/// `graph.custom`.
fn eval_custom(e: &GraphArgs<'_>) -> Result<Vec<Tensor>, String> {
    let (ctx, op) = (e.ctx, e.op);
    let custom = g::CustomOp(op);
    let cname = custom.name(ctx).ok_or("has no name")?;
    let version = custom.version(ctx);
    let kernel = ctx
        .registry()
        .extension::<CustomKernels>()
        .and_then(|r| r.get(&cname, version))
        .ok_or_else(|| {
            format!("custom op '{cname}' version {version} has no registered implementation")
        })?;
    let config = strata_ir::ods::inherent_attr(ctx, op, "config");
    let inputs: Vec<Tensor> = e.x.iter().map(|&t| t.clone()).collect();
    kernel(ctx, config, &inputs).map_err(|m| format!("custom op '{cname}': {m}"))
}

/// Runs `op`'s shape function on the concrete operand shapes (and the
/// values of small integer operands) and refuses, before any kernel runs,
/// a result larger than `max_bytes`: broadcasting, gathers and shapes
/// computed from values can ask for far more than the operands hold. A
/// shape function that rejects the operands is left to the kernel, which
/// reports the problem in its own words.
fn check_result_sizes(
    ctx: &Context,
    op: Operation,
    operands: &[Rc<Tensor>],
    max_bytes: usize,
) -> Result<(), String> {
    use strata_dialects::graph::infer::{infer_with, OperandInfo};
    use strata_dialects::graph::shape::{Dim, Shape};
    let infos: Option<Vec<OperandInfo>> = ctx
        .operands(op)
        .zip(operands)
        .map(|(v, t)| {
            let (_, elem) = strata_dialects::graph::shape::shape_of(ctx, ctx.value_type(v))?;
            let small = t.dtype().is_int() && t.rank() <= 1 && t.len() <= 1024;
            let value = small.then(|| t.to_i64_vec());
            Some(OperandInfo {
                shape: Shape::of(&t.shape().iter().map(|&d| d as i64).collect::<Vec<_>>()),
                elem,
                sizes: value
                    .as_ref()
                    .map(|v| v.iter().map(|&d| Dim::Known(d)).collect()),
                value,
            })
        })
        .collect();
    let Some(infos) = infos else {
        return Ok(());
    };
    let Some(Ok(results)) = infer_with(ctx, op, &infos) else {
        return Ok(());
    };
    for ((shape, _), r) in results.iter().zip(ctx.results(op)) {
        let Some(dims) = shape.dims() else { continue };
        let Some(dims) = dims
            .iter()
            .map(|d| d.known().and_then(|n| usize::try_from(n).ok()))
            .collect::<Option<Vec<usize>>>()
        else {
            continue;
        };
        let dtype = type_info(ctx, ctx.value_type(r)).map_or(DType::F64, |(d, _)| d);
        check_size(&dims, dtype, max_bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_graph_op_has_a_reference_evaluation() {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        let missing: Vec<&str> = ctx
            .registry()
            .ops()
            .iter()
            .map(|def| def.name)
            .filter(|name| name.starts_with("graph.") && !has_reference_evaluation(&ctx, name))
            .collect();
        assert!(
            missing.is_empty(),
            "graph ops without a reference evaluation: {}",
            missing.join(", ")
        );
    }

    #[test]
    fn each_op_has_one_evaluation() {
        assert_eq!(
            evaluators().len(),
            EVALUATORS.len(),
            "an op is listed twice in EVALUATORS"
        );
        for (name, _) in EVALUATORS {
            assert!(name.starts_with("graph."), "{name}");
        }
    }
}
