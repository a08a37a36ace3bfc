//! Reductions, softmax, normalizations, matrix products and data movement
//! as `tensor.reduce`, `tensor.contract`, `tensor.map` and
//! `tensor.reshape`.

use strata_dialects::graph as g;
use strata_dialects::tensor::{ContractOp, ReduceOp, ReshapeOp};
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::float::FloatKind;
use strata_ir::{Attribute, Context, Operation, Type, Value};

use super::scalar::{cmpf, is_float, is_half, Scalar};
use super::{broadcast_map, element_of, map_values, shape, static_type, Plan};

/// The plan of a non-elementwise op, `None` when this module does not
/// lower it.
pub(super) fn plan(ctx: &mut Context, op: Operation) -> Option<Result<Plan, String>> {
    let name = ctx.op_name_str(op).to_string();
    Some(match name.as_str() {
        g::ConstantOp::NAME => plan_constant(ctx, op),
        g::ConstantOfShapeOp::NAME => plan_constant_of_shape(ctx, op),
        g::ArgMaxOp::NAME => plan_arg(ctx, op, true),
        g::ArgMinOp::NAME => plan_arg(ctx, op, false),
        g::IdentityOp::NAME => Ok(Box::new(|ctx: &mut Context, op: Operation| {
            vec![ctx.operand(op, 0)]
        })),
        g::ReshapeOp::NAME | g::FlattenOp::NAME | g::SqueezeOp::NAME | g::UnsqueezeOp::NAME => {
            plan_reshape(ctx, op)
        }
        g::TransposeOp::NAME => plan_transpose(ctx, op),
        g::ExpandOp::NAME => plan_expand(ctx, op),
        g::SliceOp::NAME => super::movement::plan_slice(ctx, op),
        g::ConcatOp::NAME => super::movement::plan_concat(ctx, op),
        g::SplitOp::NAME => super::movement::plan_split(ctx, op),
        g::PadOp::NAME => super::movement::plan_pad(ctx, op),
        g::ReduceSumOp::NAME
        | g::ReduceMeanOp::NAME
        | g::ReduceMaxOp::NAME
        | g::ReduceMinOp::NAME
        | g::ReduceProdOp::NAME
        | g::ReduceSumSquareOp::NAME
        | g::ReduceL1Op::NAME
        | g::ReduceL2Op::NAME => plan_reduce(ctx, op, &name),
        g::SoftmaxOp::NAME => plan_softmax(ctx, op, false),
        g::LogSoftmaxOp::NAME => plan_softmax(ctx, op, true),
        g::BatchNormOp::NAME => plan_batch_norm(ctx, op),
        g::LayerNormOp::NAME => plan_norm(ctx, op, true),
        g::RmsNormOp::NAME => plan_norm(ctx, op, false),
        g::MatMulOp::NAME => plan_matmul(ctx, op),
        g::GemmOp::NAME => plan_gemm(ctx, op),
        g::Conv2dOp::NAME => super::window::plan_conv(ctx, op),
        g::GatherOp::NAME => super::gather::plan_gather(ctx, op, false),
        g::GatherElementsOp::NAME => super::gather::plan_gather(ctx, op, true),
        g::GatherNdOp::NAME => super::gather::plan_gather_nd(ctx, op),
        g::ResizeOp::NAME => super::resize::plan_resize(ctx, op),
        g::MaxPool2dOp::NAME => super::window::plan_pool(ctx, op, true),
        g::AvgPool2dOp::NAME => super::window::plan_pool(ctx, op, false),
        g::GlobalMaxPoolOp::NAME => super::window::plan_global_pool(ctx, op, true),
        g::GlobalAvgPoolOp::NAME => super::window::plan_global_pool(ctx, op, false),
        g::AttentionOp::NAME => super::attention::plan_attention(ctx, op),
        _ => return None,
    })
}

fn result_type(ctx: &mut Context, op: Operation) -> Result<Type, String> {
    let r = ctx.result(op, 0);
    static_type(ctx, r)
}

fn plan_constant(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let value = g::ConstantOp(op)
        .value_attr(ctx)
        .ok_or("has no value attribute")?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr_ty = match ctx.attr_kind(value) {
        strata_ir::AttrKind::DenseElements { ty, .. }
        | strata_ir::AttrKind::DenseResource { ty, .. } => Some(*ty),
        _ => None,
    };
    if attr_ty != Some(ty) {
        return Err("has a value whose type differs from its result type".into());
    }
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let loc = ctx.op_loc(op);
        let c = strata_dialects::arith::ConstantOp::build(ctx, loc, value, ty);
        ctx.insert_op_before(op, c.op());
        vec![c.result(ctx)]
    }))
}

/// `constant_of_shape` (its shape is the static result type's): a splat
/// `arith.constant` of its value (`0.0 : f32` when absent).
fn plan_constant_of_shape(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    let one: Vec<u8> = match g::ConstantOfShapeOp(op).value_attr(ctx) {
        None => 0f32.to_le_bytes().to_vec(),
        Some(a) => match ctx.attr_kind(a) {
            strata_ir::AttrKind::DenseElements { ty: vty, data }
                if element_of(ctx, *vty) == Some(element) =>
            {
                let count = strata_ir::types::num_elements(&shape(ctx, *vty));
                if count != 1 {
                    return Err("has a value of more than one element".into());
                }
                data.raw.to_vec()
            }
            _ => {
                return Err(
                    "has a value that is not a dense tensor of the result's element type".into(),
                )
            }
        },
    };
    // A splat: the value once, whatever the shape (a huge one is refused
    // where a buffer would be made of it, with the op's location).
    let attr = ctx
        .dense_splat_attr(ty, one)
        .ok_or("has a value whose bytes do not fit its element type")?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let loc = ctx.op_loc(op);
        let c = strata_dialects::arith::ConstantOp::build(ctx, loc, attr, ty);
        ctx.insert_op_before(op, c.op());
        vec![c.result(ctx)]
    }))
}

/// Inserts a `tensor.reshape` of `v` to `ty` before `op` (nothing when
/// `v` already has the type).
pub(super) fn reshape_to(ctx: &mut Context, op: Operation, v: Value, ty: Type) -> Value {
    if ctx.value_type(v) == ty {
        return v;
    }
    let loc = ctx.op_loc(op);
    let r = ReshapeOp::build(ctx, loc, v, ty);
    ctx.insert_op_before(op, r.op());
    r.result(ctx)
}

fn plan_reshape(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let input = ctx.operand(op, 0);
        vec![reshape_to(ctx, op, input, ty)]
    }))
}

/// A map copying one input read through `map`.
fn copy_plan(map: AffineMap, ty: Type) -> Plan {
    Box::new(move |ctx: &mut Context, op: Operation| {
        let input = ctx.operand(op, 0);
        vec![map_values(ctx, op, &[input], &[map], ty, |_, args| args[0])]
    })
}

fn plan_transpose(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let rank = shape(ctx, ty).len();
    let perm = g::TransposeOp(op)
        .perm(ctx)
        .unwrap_or_else(|| (0..rank as i64).rev().collect());
    let mut results = vec![AffineExpr::Constant(0); rank];
    for (j, &p) in perm.iter().enumerate() {
        let slot = usize::try_from(p)
            .ok()
            .and_then(|p| results.get_mut(p))
            .ok_or("has an invalid permutation")?;
        *slot = AffineExpr::Dim(j as u32);
    }
    Ok(copy_plan(AffineMap::new(rank as u32, 0, results), ty))
}

fn plan_expand(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let input_ty = ctx.value_type(ctx.operand(op, 0));
    let map = broadcast_map(&shape(ctx, input_ty), &shape(ctx, ty));
    Ok(copy_plan(map, ty))
}

/// The integer elements of a constant operand (`graph.constant` or
/// `arith.constant`).
pub(super) fn constant_ints(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    let def = ctx.defining_op(v)?;
    let name = ctx.op_name_str(def);
    if name != g::ConstantOp::NAME && name != strata_dialects::arith::ConstantOp::NAME {
        return None;
    }
    let attr = if name == g::ConstantOp::NAME {
        g::ConstantOp(def).value_attr(ctx)?
    } else {
        strata_dialects::arith::ConstantOp(def).value_attr(ctx)?
    };
    strata_dialects::graph::infer::int_elements(ctx, attr)
}

/// How a reduction combines.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum Combine {
    Sum,
    Max,
    Min,
    Prod,
}

/// The init attribute and combiner op of a reduction over `ty`.
pub(super) fn combine_parts(
    ctx: &mut Context,
    how: Combine,
    ty: Type,
) -> (Attribute, &'static str) {
    let float = is_float(ctx, ty);
    let width = ctx.int_or_float_bit_width(ty).unwrap_or(64).min(128);
    let min_int = -(1i128 << (width - 1).min(126));
    let max_int = (1i128 << (width - 1).min(126)) - 1;
    let (value, fop, iop) = match how {
        Combine::Sum => ((0.0, 0), "arith.addf", "arith.addi"),
        Combine::Prod => ((1.0, 1), "arith.mulf", "arith.muli"),
        Combine::Max => (
            (f64::NEG_INFINITY, min_int),
            "arith.maximumf",
            "arith.maxsi",
        ),
        Combine::Min => ((f64::INFINITY, max_int), "arith.minimumf", "arith.minsi"),
    };
    if float {
        (ctx.float_attr(ty, value.0), fop)
    } else {
        (ctx.integer_attr(ty, value.1), iop)
    }
}

/// Inserts before `op` a `tensor.reduce` of `dims` of `input`.
pub(super) fn reduce_values(
    ctx: &mut Context,
    op: Operation,
    input: Value,
    dims: &[i64],
    how: Combine,
) -> Value {
    let loc = ctx.op_loc(op);
    let element = element_of(ctx, ctx.value_type(input)).unwrap_or_else(|| ctx.index_type());
    let (init, combiner) = combine_parts(ctx, how, element);
    let built = ReduceOp::build_with_body(ctx, loc, input, dims, init, |ctx, block, x, acc| {
        let mut s = Scalar { ctx, block, loc };
        s.bin(combiner, x, acc)
    });
    match built {
        Some(r) => {
            ctx.insert_op_before(op, r.op());
            r.result(ctx)
        }
        None => input,
    }
}

/// A map of one tensor through the identity, with body `f`, giving
/// element type `element`.
fn map_unary<F>(ctx: &mut Context, op: Operation, v: Value, element: Type, f: F) -> Value
where
    F: FnOnce(&mut Scalar<'_>, Value) -> Value,
{
    let sh = shape(ctx, ctx.value_type(v));
    let ty = ctx.tensor_type(sh.clone(), element);
    let map = AffineMap::identity(sh.len() as u32);
    map_values(ctx, op, &[v], &[map], ty, |s, args| f(s, args[0]))
}

/// `v` converted elementwise to `element` (nothing when it has it).
pub(super) fn convert_tensor(ctx: &mut Context, op: Operation, v: Value, element: Type) -> Value {
    if element_of(ctx, ctx.value_type(v)) == Some(element) {
        return v;
    }
    map_unary(ctx, op, v, element, |s, x| s.convert(x, element))
}

/// The element type reductions and normalizations compute in: `f32` for
/// `f16` / `bf16`, else the element type itself.
pub(super) fn compute_type(ctx: &mut Context, element: Type) -> Type {
    if is_half(ctx, element) {
        ctx.float_type(FloatKind::F32)
    } else {
        element
    }
}

fn normalize_axes(axes: &[i64], rank: usize) -> Result<Vec<i64>, String> {
    let mut out = Vec::new();
    for &a in axes {
        let n = if a < 0 { a + rank as i64 } else { a };
        if n < 0 || n >= rank as i64 {
            return Err(format!("has axis {a} out of range for rank {rank}"));
        }
        out.push(n);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

fn plan_reduce(ctx: &mut Context, op: Operation, name: &str) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let input = ctx.operand(op, 0);
    let input_ty = static_type(ctx, input)?;
    let element = element_of(ctx, input_ty).ok_or("has no element type")?;
    let float = is_float(ctx, element);
    if ctx.int_or_float_bit_width(element) == Some(1) {
        return Err("reduces i1 values, which cannot be lowered to tensor yet".into());
    }
    let rank = shape(ctx, input_ty).len();
    let axes_operand = (ctx.num_operands(op) > 1).then(|| ctx.operand(op, 1));
    let axes = match axes_operand {
        Some(v) => constant_ints(ctx, v).ok_or("has axes that are not a constant")?,
        None => Vec::new(),
    };
    // Every reduce op has the attribute, with one default.
    let noop = g::ReduceSumOp(op).noop_with_empty_axes(ctx);
    if axes.is_empty() && noop {
        return Ok(Box::new(|ctx: &mut Context, op: Operation| {
            vec![ctx.operand(op, 0)]
        }));
    }
    let dims = if axes.is_empty() {
        (0..rank as i64).collect()
    } else {
        normalize_axes(&axes, rank)?
    };
    let count: i64 = dims
        .iter()
        .map(|&d| shape(ctx, input_ty)[d as usize])
        .product();
    let name = name.to_string();
    if !float && matches!(name.as_str(), g::ReduceL2Op::NAME) {
        return Err("reduces integers, which cannot be lowered to tensor yet".into());
    }
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let input = ctx.operand(op, 0);
        let cty = compute_type(ctx, element);
        let mut x = convert_tensor(ctx, op, input, cty);
        let how = match name.as_str() {
            g::ReduceMaxOp::NAME => Combine::Max,
            g::ReduceMinOp::NAME => Combine::Min,
            g::ReduceProdOp::NAME => Combine::Prod,
            _ => Combine::Sum,
        };
        if name == g::ReduceSumSquareOp::NAME || name == g::ReduceL2Op::NAME {
            x = map_unary(ctx, op, x, cty, |s, v| {
                let mul = if float { "arith.mulf" } else { "arith.muli" };
                s.bin(mul, v, v)
            });
        } else if name == g::ReduceL1Op::NAME {
            x = map_unary(ctx, op, x, cty, |s, v| {
                if float {
                    s.un("math.absf", v)
                } else {
                    let zero = s.int(cty, 0);
                    let n = s.bin("arith.subi", zero, v);
                    let neg = s.cmp(super::scalar::cmpi::SLT, v, zero);
                    s.select(neg, n, v)
                }
            });
        }
        let mut r = reduce_values(ctx, op, x, &dims, how);
        if name == g::ReduceMeanOp::NAME {
            r = map_unary(ctx, op, r, cty, |s, v| {
                let n = s.constant(cty, count as f64);
                s.bin(if float { "arith.divf" } else { "arith.divsi" }, v, n)
            });
        } else if name == g::ReduceL2Op::NAME {
            r = map_unary(ctx, op, r, cty, |s, v| s.un("math.sqrt", v));
        }
        let r = convert_tensor(ctx, op, r, element);
        vec![reshape_to(ctx, op, r, ty)]
    }))
}

/// `argmax` / `argmin` along one axis: the extreme (a `tensor.reduce`),
/// then the smallest index (or, with `select_last_index`, the largest)
/// whose element equals it (a map giving the index there and a sentinel
/// elsewhere, reduced again). NaN equals NaN here, so a NaN wins, as in the
/// interpreter. Fusion makes both reductions one row kernel.
fn plan_arg(ctx: &mut Context, op: Operation, max: bool) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let input_ty = static_type(ctx, ctx.operand(op, 0))?;
    let in_shape = shape(ctx, input_ty);
    let rank = in_shape.len();
    let element = element_of(ctx, input_ty).ok_or("has no element type")?;
    if ctx.int_or_float_bit_width(element) == Some(1) {
        return Err("compares i1 values, which cannot be lowered to tensor yet".into());
    }
    // Every arg op has the same attributes, with the same defaults.
    let a = g::ArgMaxOp(op);
    let axis = normalize_axes(&[a.axis(ctx)], rank)?[0];
    let last = a.select_last_index(ctx);
    let dim = in_shape[axis as usize];
    if dim == 0 {
        return Err("reduces an empty axis".into());
    }
    let float = is_float(ctx, element);
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let x = ctx.operand(op, 0);
        let how = if max { Combine::Max } else { Combine::Min };
        let extreme = reduce_values(ctx, op, x, &[axis], how);
        let i64t = ctx.integer_type(64);
        let cand_ty = ctx.tensor_type(in_shape.clone(), i64t);
        let maps = [AffineMap::identity(rank as u32), reduced_map(rank, &[axis])];
        let cand = map_values(ctx, op, &[x, extreme], &maps, cand_ty, |s, v| {
            let hit = if float {
                let eq = s.cmp(cmpf::OEQ, v[0], v[1]);
                let x_nan = s.cmp(cmpf::UNO, v[0], v[0]);
                let m_nan = s.cmp(cmpf::UNO, v[1], v[1]);
                let both = s.bin("arith.andi", x_nan, m_nan);
                s.bin("arith.ori", eq, both)
            } else {
                s.cmp(super::scalar::cmpi::EQ, v[0], v[1])
            };
            let i = super::movement::index(s, axis as usize);
            let i = s.op("arith.index_cast", &[i], &[], i64t);
            let sentinel = s.int(i64t, if last { -1 } else { i128::from(dim) });
            s.select(hit, i, sentinel)
        });
        let pick = if last { Combine::Max } else { Combine::Min };
        let r = reduce_values(ctx, op, cand, &[axis], pick);
        vec![reshape_to(ctx, op, r, ty)]
    }))
}

/// A scalar function of two values, emitted into a body.
type Combiner = fn(&mut Scalar<'_>, Value, Value) -> Value;

/// The map of a tensor whose `dims` were reduced away, from the domain
/// of rank `rank`.
fn reduced_map(rank: usize, dims: &[i64]) -> AffineMap {
    let results = (0..rank)
        .filter(|d| !dims.contains(&(*d as i64)))
        .map(|d| AffineExpr::Dim(d as u32))
        .collect();
    AffineMap::new(rank as u32, 0, results)
}

fn plan_softmax(ctx: &mut Context, op: Operation, log: bool) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let rank = shape(ctx, ty).len();
    let axis = g::SoftmaxOp(op).axis(ctx);
    let dims = normalize_axes(&[axis], rank)?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let input = ctx.operand(op, 0);
        let cty = compute_type(ctx, element);
        let x = convert_tensor(ctx, op, input, cty);
        let y = softmax_values(ctx, op, x, &dims, log);
        vec![convert_tensor(ctx, op, y, element)]
    }))
}

/// Inserts before `op` the softmax (or log-softmax) of `x` over `dims`, in
/// `x`'s element type: `exp(x - max) / sum`, the max replaced by 0 where it
/// is not finite (as the interpreter).
pub(super) fn softmax_values(
    ctx: &mut Context,
    op: Operation,
    x: Value,
    dims: &[i64],
    log: bool,
) -> Value {
    let wide = ctx.value_type(x);
    let cty = element_of(ctx, wide).unwrap_or(wide);
    let rank = shape(ctx, wide).len();
    let id = AffineMap::identity(rank as u32);
    let row = reduced_map(rank, dims);
    let max = reduce_values(ctx, op, x, dims, Combine::Max);
    let shifted = map_values(
        ctx,
        op,
        &[x, max],
        &[id.clone(), row.clone()],
        wide,
        // Shifted by the max even when it is infinite: such a row is NaN
        // (inf - inf), as in eager mode and NumPy.
        |s, a| s.bin("arith.subf", a[0], a[1]),
    );
    let exp = map_unary(ctx, op, shifted, cty, |s, v| s.un("math.exp", v));
    let sum = reduce_values(ctx, op, exp, dims, Combine::Sum);
    let (num, formula): (Value, Combiner) = if log {
        (shifted, |s, a, b| {
            let l = s.un("math.log", b);
            s.bin("arith.subf", a, l)
        })
    } else {
        (exp, |s, a, b| s.bin("arith.divf", a, b))
    };
    map_values(ctx, op, &[num, sum], &[id, row], wide, |s, a| {
        formula(s, a[0], a[1])
    })
}

fn plan_batch_norm(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let sh = shape(ctx, ty);
    let rank = sh.len();
    if rank < 2 {
        return Err("has an input of rank below 2".into());
    }
    let epsilon = g::BatchNormOp(op).epsilon(ctx);
    let mut maps = vec![AffineMap::identity(rank as u32)];
    for i in 1..5 {
        let pshape = shape(ctx, ctx.value_type(ctx.operand(op, i)));
        if pshape != [sh[1]] {
            return Err(format!(
                "has parameter #{i} of a shape other than [{}]",
                sh[1]
            ));
        }
        maps.push(AffineMap::new(rank as u32, 0, vec![AffineExpr::Dim(1)]));
    }
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let inputs: Vec<Value> = ctx.operands(op).collect();
        vec![map_values(ctx, op, &inputs, &maps, ty, |s, a| {
            let cty = compute_type(s.ctx, element);
            let a: Vec<Value> = a.iter().map(|&v| s.convert(v, cty)).collect();
            // (x - mean) / sqrt(var + epsilon) * scale + bias
            let eps = s.float(cty, epsilon);
            let ve = s.bin("arith.addf", a[4], eps);
            let sd = s.un("math.sqrt", ve);
            let xm = s.bin("arith.subf", a[0], a[3]);
            let n = s.bin("arith.divf", xm, sd);
            let sc = s.bin("arith.mulf", n, a[1]);
            let y = s.bin("arith.addf", sc, a[2]);
            s.convert(y, element)
        })]
    }))
}

fn plan_norm(ctx: &mut Context, op: Operation, center: bool) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let sh = shape(ctx, ty);
    let rank = sh.len();
    let (axis, epsilon) = if center {
        (
            g::LayerNormOp(op).axis(ctx),
            g::LayerNormOp(op).epsilon(ctx),
        )
    } else {
        (g::RmsNormOp(op).axis(ctx), g::RmsNormOp(op).epsilon(ctx))
    };
    let first = normalize_axes(&[axis], rank)?[0];
    let dims: Vec<i64> = (first..rank as i64).collect();
    let norm_shape = sh[first as usize..].to_vec();
    let mut param_maps = Vec::new();
    for i in 1..ctx.num_operands(op) {
        let pshape = shape(ctx, ctx.value_type(ctx.operand(op, i)));
        if pshape.len() > norm_shape.len() {
            return Err(format!(
                "has parameter #{i} of higher rank than the normalized dims"
            ));
        }
        // Broadcast to the normalized dims, then read from the full domain.
        let inner = broadcast_map(&pshape, &norm_shape);
        let results = inner
            .results
            .iter()
            .map(|e| match e {
                AffineExpr::Dim(d) => AffineExpr::Dim(d + first as u32),
                other => other.clone(),
            })
            .collect();
        param_maps.push(AffineMap::new(rank as u32, 0, results));
    }
    let count: i64 = norm_shape.iter().product();
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let cty = compute_type(ctx, element);
        let input = ctx.operand(op, 0);
        let x = convert_tensor(ctx, op, input, cty);
        let wide = ctx.tensor_type(sh.clone(), cty);
        let id = AffineMap::identity(rank as u32);
        let row = reduced_map(rank, &dims);
        let n = count.max(1) as f64;
        let centered = if center {
            let sum = reduce_values(ctx, op, x, &dims, Combine::Sum);
            map_values(
                ctx,
                op,
                &[x, sum],
                &[id.clone(), row.clone()],
                wide,
                |s, a| {
                    let c = s.float(cty, n);
                    let mean = s.bin("arith.divf", a[1], c);
                    s.bin("arith.subf", a[0], mean)
                },
            )
        } else {
            x
        };
        let sq = map_unary(ctx, op, centered, cty, |s, v| s.bin("arith.mulf", v, v));
        let ssq = reduce_values(ctx, op, sq, &dims, Combine::Sum);
        let mut inputs = vec![centered, ssq];
        let mut maps = vec![id, row];
        for (k, m) in param_maps.iter().enumerate() {
            inputs.push(ctx.operand(op, k + 1));
            maps.push(m.clone());
        }
        vec![map_values(ctx, op, &inputs, &maps, ty, |s, a| {
            // centered / sqrt(ssq / n + epsilon) * scale (+ bias)
            let c = s.float(cty, n);
            let msq = s.bin("arith.divf", a[1], c);
            let eps = s.float(cty, epsilon);
            let ve = s.bin("arith.addf", msq, eps);
            let sd = s.un("math.sqrt", ve);
            let mut y = s.bin("arith.divf", a[0], sd);
            let scale = s.convert(a[2], cty);
            y = s.bin("arith.mulf", y, scale);
            if let Some(&b) = a.get(3) {
                let b = s.convert(b, cty);
                y = s.bin("arith.addf", y, b);
            }
            s.convert(y, element)
        })]
    }))
}

/// The contraction of a matmul: the reshaped operand types (size-1 batch
/// dims that broadcast dropped), the three maps.
struct MatmulPlan {
    lhs_type: Type,
    rhs_type: Type,
    maps: [AffineMap; 3],
}

fn matmul_parts(
    ctx: &mut Context,
    a: &[i64],
    b: &[i64],
    out: &[i64],
    element: Type,
) -> Result<MatmulPlan, String> {
    if a.is_empty() || b.is_empty() {
        return Err("has a rank-0 operand".into());
    }
    let (a1, b1) = (a.len() == 1, b.len() == 1);
    let batch_rank = out.len() - usize::from(!a1) - usize::from(!b1);
    let out_batch = &out[..batch_rank];
    let m = batch_rank as u32;
    let n = m + u32::from(!a1);
    let k = n + u32::from(!b1);
    let num_dims = k + 1;
    let operand = |sh: &[i64], matrix: usize| -> (Vec<i64>, Vec<AffineExpr>) {
        let batch = &sh[..sh.len() - matrix];
        let offset = batch_rank - batch.len();
        let mut kept = Vec::new();
        let mut exprs = Vec::new();
        for (j, &s) in batch.iter().enumerate() {
            if s == out_batch[offset + j] {
                kept.push(s);
                exprs.push(AffineExpr::Dim((offset + j) as u32));
            }
        }
        kept.extend_from_slice(&sh[sh.len() - matrix..]);
        (kept, exprs)
    };
    let (mut lhs_shape, mut lhs) = operand(a, if a1 { 1 } else { 2 });
    if a1 {
        lhs.push(AffineExpr::Dim(k));
    } else {
        lhs.push(AffineExpr::Dim(m));
        lhs.push(AffineExpr::Dim(k));
    }
    let (mut rhs_shape, mut rhs) = operand(b, if b1 { 1 } else { 2 });
    rhs.push(AffineExpr::Dim(k));
    if !b1 {
        rhs.push(AffineExpr::Dim(n));
    }
    let out_map: Vec<AffineExpr> = (0..k).map(AffineExpr::Dim).collect();
    lhs_shape.truncate(lhs.len());
    rhs_shape.truncate(rhs.len());
    Ok(MatmulPlan {
        lhs_type: ctx.tensor_type(lhs_shape, element),
        rhs_type: ctx.tensor_type(rhs_shape, element),
        maps: [
            AffineMap::new(num_dims, 0, lhs),
            AffineMap::new(num_dims, 0, rhs),
            AffineMap::new(num_dims, 0, out_map),
        ],
    })
}

fn plan_matmul(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    if ctx.int_or_float_bit_width(element) == Some(1) {
        return Err("multiplies i1 values, which cannot be lowered to tensor yet".into());
    }
    let a = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    let b = shape(ctx, ctx.value_type(ctx.operand(op, 1)));
    let parts = matmul_parts(ctx, &a, &b, &shape(ctx, ty), element)?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
        let a = reshape_to(ctx, op, a, parts.lhs_type);
        let b = reshape_to(ctx, op, b, parts.rhs_type);
        let loc = ctx.op_loc(op);
        let c = ContractOp::build_with_maps(ctx, loc, a, b, &parts.maps, ty);
        ctx.insert_op_before(op, c.op());
        vec![c.result(ctx)]
    }))
}

fn plan_gemm(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = result_type(ctx, op)?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    if !is_float(ctx, element) {
        return Err("has integer operands, which cannot be lowered to tensor yet".into());
    }
    let gemm = g::GemmOp(op);
    let (alpha, beta) = (gemm.alpha(ctx), gemm.beta(ctx));
    let (ta, tb) = (gemm.trans_a(ctx), gemm.trans_b(ctx));
    let has_c = gemm.c(ctx).is_some();
    let d = AffineExpr::Dim;
    let lhs = if ta {
        vec![d(2), d(0)]
    } else {
        vec![d(0), d(2)]
    };
    let rhs = if tb {
        vec![d(1), d(2)]
    } else {
        vec![d(2), d(1)]
    };
    let maps = [
        AffineMap::new(3, 0, lhs),
        AffineMap::new(3, 0, rhs),
        AffineMap::new(3, 0, vec![d(0), d(1)]),
    ];
    let out_shape = shape(ctx, ty);
    let c_map = if has_c {
        let c_shape = shape(ctx, ctx.value_type(ctx.operand(op, 2)));
        Some(broadcast_map(&c_shape, &out_shape))
    } else {
        None
    };
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
        let loc = ctx.op_loc(op);
        let c = ContractOp::build_with_maps(ctx, loc, a, b, &maps, ty);
        ctx.insert_op_before(op, c.op());
        let ab = c.result(ctx);
        if alpha == 1.0 && c_map.is_none() {
            return vec![ab];
        }
        let mut inputs = vec![ab];
        let mut ms = vec![AffineMap::identity(2)];
        if let Some(m) = &c_map {
            inputs.push(ctx.operand(op, 2));
            ms.push(m.clone());
        }
        vec![map_values(ctx, op, &inputs, &ms, ty, |s, v| {
            let cty = compute_type(s.ctx, element);
            let x = s.convert(v[0], cty);
            let al = s.float(cty, alpha);
            let mut y = s.bin("arith.mulf", al, x);
            if let Some(&cv) = v.get(1) {
                let cv = s.convert(cv, cty);
                let be = s.float(cty, beta);
                let bc = s.bin("arith.mulf", be, cv);
                y = s.bin("arith.addf", y, bc);
            }
            s.convert(y, element)
        })]
    }))
}
