//! `tensor-generalize-named-ops` and `tensor-specialize-generic-ops`: the
//! named structured ops (`tensor.map`, `tensor.reduce`, `tensor.contract`)
//! as the general `tensor.generic` and back, as Linalg's
//! `linalg-generalize-named-ops` and `linalg-specialize-generic-ops`.
//!
//! Generalizing keeps the body: a map's becomes the generic's (no `outs`,
//! all dims parallel, the identity result map); a reduce's combiner takes
//! the input element and the accumulator, which start from a splat
//! `arith.constant` of its `init`; a contraction's body is `acc + lhs *
//! rhs` from a zero `init`. Maps with gathered inputs and contractions of
//! `f16`/`bf16` (accumulated in `f32`, which a generic of the element type
//! cannot say) stay as they are. Specializing recognizes exactly those
//! forms; any other generic stays general.

use std::collections::HashMap;

use strata_dialects::tensor::{ContractOp, GenericOp, MapOp, ReduceOp};
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::pass::{Pass, Statistics};
use strata_ir::{
    pass, AttrKind, Attribute, Block, Context, Diagnostic, IrMapping, Operation, Type, Value,
    WalkOrder,
};

#[pass(
    name = "tensor-generalize-named-ops",
    display_name = "TensorGeneralizeNamedOps",
    summary = "Rewrite tensor.map, tensor.reduce and tensor.contract as tensor.generic"
)]
pub(crate) struct TensorGeneralize {}

#[pass(
    name = "tensor-specialize-generic-ops",
    display_name = "TensorSpecializeGenericOps",
    summary = "Rewrite tensor.generic ops that have a named form as tensor.map, tensor.reduce or tensor.contract"
)]
pub(crate) struct TensorSpecialize {}

fn ops_named(ctx: &Context, root: Operation, names: &[&str]) -> Vec<Operation> {
    ctx.nested_ops(root, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&o| names.contains(&ctx.op_name_str(o)))
        .collect()
}

impl Pass for TensorGeneralize {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut count = 0;
        let names = [MapOp::NAME, ReduceOp::NAME, ContractOp::NAME];
        for op in ops_named(ctx, root, &names) {
            let generic = match ctx.op_name_str(op) {
                MapOp::NAME => generalize_map(ctx, op),
                ReduceOp::NAME => generalize_reduce(ctx, op),
                _ => generalize_contract(ctx, op),
            };
            if let Some(g) = generic {
                replace(ctx, op, g);
                count += 1;
            }
        }
        stats.add("num-generalized", "Number of named ops made generic", count);
        Ok(())
    }
}

impl Pass for TensorSpecialize {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut count = 0;
        for op in ops_named(ctx, root, &[GenericOp::NAME]) {
            let named = specialize_map(ctx, op)
                .or_else(|| specialize_reduce(ctx, op))
                .or_else(|| specialize_contract(ctx, op));
            if let Some(n) = named {
                replace(ctx, op, n);
                count += 1;
            }
        }
        stats.add(
            "num-specialized",
            "Number of generic ops given a named form",
            count,
        );
        Ok(())
    }
}

/// Put `new` (detached) where `old` is, take over its uses, erase `old`.
fn replace(ctx: &mut Context, old: Operation, new: Operation) {
    ctx.insert_op_before(old, new);
    let (from, to) = (ctx.result(old, 0), ctx.result(new, 0));
    ctx.replace_all_uses_with(from, to);
    ctx.erase_op(old);
}

/// A body to copy: its block and the value its `tensor.yield` yields.
struct Body {
    block: Block,
    yielded: Value,
}

/// The body of a structured op, when its block ends in a terminator that
/// yields a value.
fn body_of(ctx: &Context, block: Option<Block>) -> Option<Body> {
    let block = block?;
    let term = ctx.block_ops(block).last()?;
    let yielded = ctx.operands(term).next()?;
    Some(Body { block, yielded })
}

/// Clone the ops of `body` before its terminator into `into`, block
/// argument `k` read as `args[k]`; returns the copy of the yielded value
/// (the builder adds its own `tensor.yield`).
fn clone_body(ctx: &mut Context, body: &Body, into: Block, args: &[Value]) -> Value {
    let mut mapping = IrMapping::default();
    for (a, &v) in ctx
        .block_args(body.block)
        .collect::<Vec<_>>()
        .into_iter()
        .zip(args)
    {
        mapping.map_value(a, v);
    }
    let ops: Vec<Operation> = ctx.block_ops(body.block).collect();
    for &op in &ops[..ops.len().saturating_sub(1)] {
        let copy = ctx.clone_op(op, &mut mapping);
        ctx.append_op(into, copy);
    }
    mapping.lookup_value(body.yielded)
}

fn tensor_shape(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    strata_dialects::tensor::shape_of(ctx, v)
}

fn element(ctx: &Context, v: Value) -> Option<Type> {
    ctx.type_kind(ctx.value_type(v)).element_type()
}

/// A splat `arith.constant` of `ty` holding the scalar `value`, inserted
/// before `before`.
fn splat(ctx: &mut Context, before: Operation, ty: Type, value: Attribute) -> Option<Value> {
    let elem = ctx.type_kind(ty).element_type()?;
    let width = ctx.int_or_float_bit_width(elem)? as usize;
    let bits: u128 = match ctx.attr_kind(value) {
        AttrKind::Integer { value, .. } => *value,
        AttrKind::Float { bits, .. } => *bits,
        _ => return None,
    };
    let bytes = width.div_ceil(8).max(1);
    let count: i64 = tensor_shape_of_type(ctx, ty)?.iter().product();
    let one: Vec<u8> = (0..bytes).map(|i| (bits >> (8 * i)) as u8).collect();
    let raw: Vec<u8> = (0..count.max(0)).flat_map(|_| one.clone()).collect();
    let attr = ctx.dense_elements_attr(ty, raw)?;
    let loc = ctx.op_loc(before);
    let c = strata_dialects::arith::ConstantOp::build(ctx, loc, attr, ty);
    ctx.insert_op_before(before, c.op());
    Some(c.result(ctx))
}

fn tensor_shape_of_type(ctx: &Context, ty: Type) -> Option<Vec<i64>> {
    ctx.type_kind(ty).shape().map(<[i64]>::to_vec)
}

/// The scalar of a splat tensor constant `v`, as an attribute of its
/// element type.
fn splat_value(ctx: &mut Context, v: Value) -> Option<Attribute> {
    let def = ctx.defining_op(v)?;
    if ctx.op_name_str(def) != "arith.constant" {
        return None;
    }
    let attr = strata_ir::ods::inherent_attr(ctx, def, "value")?;
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(attr).clone() else {
        return None;
    };
    if !data.splat {
        return None;
    }
    let elem = ctx.type_kind(ty).element_type()?;
    ctx.scalar_attr_from_le_bytes(elem, &data.raw)
}

fn generalize_map(ctx: &mut Context, op: Operation) -> Option<Operation> {
    let map = MapOp(op);
    let n = ctx.num_operands(op);
    if (0..n).any(|k| map.is_gathered(ctx, k)) {
        return None;
    }
    let inputs: Vec<Value> = ctx.operands(op).collect();
    let ty = ctx.value_type(ctx.result(op, 0));
    let rank = tensor_shape(ctx, ctx.result(op, 0))?.len();
    let mut maps = map.maps(ctx);
    maps.push(AffineMap::identity(rank as u32));
    let body = body_of(ctx, map.body_block(ctx))?;
    let loc = ctx.op_loc(op);
    let reduction = vec![false; rank];
    let g = GenericOp::build_with_body(
        ctx,
        loc,
        &inputs,
        None,
        &maps,
        &reduction,
        ty,
        |ctx, block, args| clone_body(ctx, &body, block, args),
    );
    Some(g.op())
}

fn generalize_reduce(ctx: &mut Context, op: Operation) -> Option<Operation> {
    let reduce = ReduceOp(op);
    let input = reduce.input(ctx);
    let dims = reduce.dimensions(ctx)?;
    let rank = tensor_shape(ctx, input)?.len();
    let ty = ctx.value_type(ctx.result(op, 0));
    let init_value = reduce.init_attr(ctx)?;
    let body = body_of(ctx, reduce.body_block(ctx))?;
    let init = splat(ctx, op, ty, init_value)?;
    let kept: Vec<AffineExpr> = (0..rank as u32)
        .filter(|d| !dims.contains(&i64::from(*d)))
        .map(AffineExpr::Dim)
        .collect();
    let maps = [
        AffineMap::identity(rank as u32),
        AffineMap::new(rank as u32, 0, kept),
    ];
    let reduction: Vec<bool> = (0..rank).map(|d| dims.contains(&(d as i64))).collect();
    let loc = ctx.op_loc(op);
    let g = GenericOp::build_with_body(
        ctx,
        loc,
        &[input],
        Some(init),
        &maps,
        &reduction,
        ty,
        |ctx, block, args| clone_body(ctx, &body, block, args),
    );
    Some(g.op())
}

/// Whether products of `ty` accumulate in the type itself (not `f16` /
/// `bf16`, which a contraction accumulates in `f32`).
fn accumulates_in_place(ctx: &Context, ty: Type) -> bool {
    !matches!(
        ctx.float_kind(ty),
        Some(strata_ir::float::FloatKind::F16 | strata_ir::float::FloatKind::BF16)
    )
}

fn generalize_contract(ctx: &mut Context, op: Operation) -> Option<Operation> {
    let contract = ContractOp(op);
    let (lhs, rhs) = (contract.lhs(ctx), contract.rhs(ctx));
    let elem = element(ctx, lhs)?;
    if !accumulates_in_place(ctx, elem) {
        return None;
    }
    let float = strata_ir::ods::constraints::is_float(ctx, elem);
    let ty = ctx.value_type(ctx.result(op, 0));
    let zero = if float {
        ctx.float_attr(elem, 0.0)
    } else {
        ctx.integer_attr(elem, 0)
    };
    let init = splat(ctx, op, ty, zero)?;
    let maps = contract.maps(ctx);
    let num_dims = maps.first()?.num_dims;
    let out = &maps[2];
    let reduction: Vec<bool> = (0..num_dims)
        .map(|d| !out.results.contains(&AffineExpr::Dim(d)))
        .collect();
    let loc = ctx.op_loc(op);
    let (mul, add) = if float {
        ("arith.mulf", "arith.addf")
    } else {
        ("arith.muli", "arith.addi")
    };
    let g = GenericOp::build_with_body(
        ctx,
        loc,
        &[lhs, rhs],
        Some(init),
        &maps,
        &reduction,
        ty,
        |ctx, block, args| {
            let p = binary(ctx, block, loc, mul, args[0], args[1], elem);
            binary(ctx, block, loc, add, args[2], p, elem)
        },
    );
    Some(g.op())
}

/// Append `name(a, b) : ty` to `block`; its result.
fn binary(
    ctx: &mut Context,
    block: Block,
    loc: strata_ir::Location,
    name: &str,
    a: Value,
    b: Value,
    ty: Type,
) -> Value {
    let ident = ctx.ident(name);
    let mut state = strata_ir::OperationState::new(ident, loc);
    state.operands = vec![a, b];
    state.result_types = vec![ty];
    let op = ctx.create_operation(state);
    ctx.append_op(block, op);
    ctx.result(op, 0)
}

fn specialize_map(ctx: &mut Context, op: Operation) -> Option<Operation> {
    let g = GenericOp(op);
    let reduction = g.reductions(ctx);
    if g.init(ctx).is_some() || reduction.iter().any(|&r| r) {
        return None;
    }
    let maps = g.maps(ctx);
    let (out, inputs_maps) = maps.split_last()?;
    if !out.is_identity() {
        return None;
    }
    let inputs = g.inputs(ctx);
    let ty = ctx.value_type(ctx.result(op, 0));
    let body = body_of(ctx, g.body_block(ctx))?;
    let loc = ctx.op_loc(op);
    let m = MapOp::build_with_body(ctx, loc, &inputs, inputs_maps, ty, |ctx, block, args| {
        clone_body(ctx, &body, block, args)
    });
    Some(m.op())
}

fn specialize_reduce(ctx: &mut Context, op: Operation) -> Option<Operation> {
    let g = GenericOp(op);
    let init = g.init(ctx)?;
    let inputs = g.inputs(ctx);
    let [input] = inputs[..] else {
        return None;
    };
    let maps = g.maps(ctx);
    let reduction = g.reductions(ctx);
    let rank = reduction.len() as u32;
    let kept: Vec<AffineExpr> = (0..rank)
        .filter(|&d| !reduction[d as usize])
        .map(AffineExpr::Dim)
        .collect();
    if !maps[0].is_identity() || maps[1].results != kept || !reduction.iter().any(|&r| r) {
        return None;
    }
    // The combiner must not read the iteration point (tensor.reduce has
    // no tensor.index).
    let body = body_of(ctx, g.body_block(ctx))?;
    if body_uses_index(ctx, body.block) {
        return None;
    }
    let value = splat_value(ctx, init)?;
    let dims: Vec<i64> = (0..rank as i64)
        .filter(|&d| reduction[d as usize])
        .collect();
    let loc = ctx.op_loc(op);
    let r = ReduceOp::build_with_body(ctx, loc, input, &dims, value, |ctx, block, x, acc| {
        clone_body(ctx, &body, block, &[x, acc])
    })?;
    if ctx.value_type(ctx.result(r.op(), 0)) != ctx.value_type(ctx.result(op, 0)) {
        ctx.erase_op(r.op());
        return None;
    }
    Some(r.op())
}

fn body_uses_index(ctx: &Context, block: Block) -> bool {
    ctx.block_ops(block)
        .any(|o| ctx.op_name_str(o) == "tensor.index" || !ctx.op_regions(o).is_empty())
}

/// Whether `v` is the splat zero of its element type.
fn is_zero_splat(ctx: &mut Context, v: Value) -> bool {
    match splat_value(ctx, v).map(|a| ctx.attr_kind(a).clone()) {
        Some(AttrKind::Integer { value, .. }) => value == 0,
        Some(AttrKind::Float { bits, .. }) => bits == 0,
        _ => false,
    }
}

fn specialize_contract(ctx: &mut Context, op: Operation) -> Option<Operation> {
    let g = GenericOp(op);
    let init = g.init(ctx)?;
    let inputs = g.inputs(ctx);
    let [lhs, rhs] = inputs[..] else {
        return None;
    };
    let elem = element(ctx, lhs)?;
    if element(ctx, rhs) != Some(elem)
        || element(ctx, ctx.result(op, 0)) != Some(elem)
        || !accumulates_in_place(ctx, elem)
        || !is_zero_splat(ctx, init)
    {
        return None;
    }
    let Ok(maps) = <[AffineMap; 3]>::try_from(g.maps(ctx)) else {
        return None;
    };
    let projected = maps.iter().all(|m| {
        let mut seen = Vec::new();
        m.results.iter().all(|e| match e {
            AffineExpr::Dim(d) if !seen.contains(d) => {
                seen.push(*d);
                true
            }
            _ => false,
        })
    });
    if !projected || !is_multiply_add(ctx, g.body_block(ctx)?) {
        return None;
    }
    let ty = ctx.value_type(ctx.result(op, 0));
    let loc = ctx.op_loc(op);
    let c = ContractOp::build_with_maps(ctx, loc, lhs, rhs, &maps, ty);
    Some(c.op())
}

/// Whether `block(x, y, acc)` is exactly `yield acc + x * y` (either
/// operand order of each), in floats or integers.
fn is_multiply_add(ctx: &Context, block: Block) -> bool {
    let args: Vec<Value> = ctx.block_args(block).collect();
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    let ([x, y, acc], [mul, add, term]) = (&args[..], &ops[..]) else {
        return false;
    };
    let names: HashMap<&str, &str> = [("arith.mulf", "arith.addf"), ("arith.muli", "arith.addi")]
        .into_iter()
        .collect();
    let Some(&add_name) = names.get(ctx.op_name_str(*mul)) else {
        return false;
    };
    let pair = |op: Operation, a: Value, b: Value| {
        let o: Vec<Value> = ctx.operands(op).collect();
        o == [a, b] || o == [b, a]
    };
    let p = ctx.result(*mul, 0);
    ctx.op_name_str(*add) == add_name
        && pair(*mul, *x, *y)
        && pair(*add, *acc, p)
        && ctx.operands(*term).collect::<Vec<_>>() == [ctx.result(*add, 0)]
}
