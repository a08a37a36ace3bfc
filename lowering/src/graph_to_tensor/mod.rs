//! `convert-graph-to-tensor`: every `graph` op of a function becomes
//! `tensor` ops (`tensor.map`, `tensor.reduce`, `tensor.contract`,
//! `tensor.reshape`), with `arith` / `math` scalar code in their bodies
//! and `arith.constant` for constants.
//!
//! Shapes must be static (the compiled plan is specialized per input
//! shape). The pass first plans every op without touching the IR: an op
//! with a dynamic shape, or one it cannot lower, is reported at its
//! location (all of them, then the pass fails, leaving the IR unchanged).
//! Then each plan runs in order, inserting the tensor ops before its graph
//! op and replacing it. What lowers is listed in `docs/lowering.md`.

mod attention;
mod conv_nhwc;
mod elementwise;
mod gather;
mod movement;
mod resize;
mod scalar;
mod structured;
mod window;

use strata_dialects::graph::infer::control::YIELD_PARENTS;
use strata_dialects::tensor::MapOp;
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::pass::{Pass, PassRegistry, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation, Type, TypeKind, Value, WalkOrder};

use scalar::Scalar;

/// Register this conversion's passes.
pub fn register_passes(registry: &mut PassRegistry) {
    registry.register(ConvertGraphToTensor::registration());
}

/// What lowering one op does, decided before any IR changes: it inserts
/// the tensor ops before the graph op (reading its operands then, so that
/// they are the already-lowered values) and returns the replacements of
/// its results.
type Plan = Box<dyn FnOnce(&mut Context, Operation) -> Vec<Value>>;

/// Lowers the `graph` ops nested in the op it runs on to the `tensor`
/// dialect.
#[pass(
    name = "convert-graph-to-tensor",
    required = true,
    summary = "Lower graph ops with static shapes to tensor.map/reduce/contract/reshape"
)]
pub struct ConvertGraphToTensor;

impl Pass for ConvertGraphToTensor {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let ops: Vec<Operation> = ctx
            .nested_ops(op, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| ctx.op_name_str(o).starts_with("graph."))
            .filter(|&o| !inside_control_flow(ctx, o, op))
            .collect();
        let mut plans = Vec::new();
        let mut errors: Vec<Diagnostic> = Vec::new();
        for &o in &ops {
            match plan_op(ctx, o) {
                Ok(plan) => plans.push((o, plan)),
                Err(message) => errors.push(Diagnostic::op_error(ctx, o, message).on_op(o)),
            }
        }
        if !errors.is_empty() {
            let mut errors = errors.into_iter();
            let first = errors.next();
            return Err(first
                .map(|mut d| {
                    d.notes.extend(errors);
                    d
                })
                .unwrap_or_else(|| Diagnostic::op_error(ctx, op, "failed to lower")));
        }
        let mut lowered = 0;
        let mut constants = Vec::new();
        for (o, plan) in plans {
            let before = ctx.op_prev(o);
            let values = plan(ctx, o);
            carry_chain_marks(ctx, o, before);
            if ctx.op_name_str(o) == strata_dialects::graph::ConstantOp::NAME {
                constants.extend(values.iter().copied());
            }
            let results: Vec<Value> = ctx.results(o).collect();
            for (from, to) in results.into_iter().zip(values) {
                keep_declared_type(ctx, from, to);
                ctx.replace_all_uses_with(from, to);
            }
            ctx.erase_op(o);
            lowered += 1;
        }
        // Constants that only fed attributes of the lowered ops (axes,
        // shapes, bounds) are dead now.
        for c in constants {
            if let Some(def) = ctx.defining_op(c).filter(|_| ctx.use_empty(c)) {
                ctx.erase_op(def);
            }
        }
        stats.add("num-lowered", "Number of graph ops lowered", lowered);
        Ok(())
    }
}

/// Copies the must-fuse chain marks of graph op `o` onto the tensor ops
/// its lowering inserted (after `before`, up to `o`); reshapes are views
/// and need no kernel, so they are left out.
fn carry_chain_marks(ctx: &mut Context, o: Operation, before: Option<Operation>) {
    let marks = strata_passes::fusion_chains::marks(ctx, o);
    if marks.is_empty() {
        return;
    }
    let mut next = match before {
        Some(b) => ctx.op_next(b),
        None => ctx
            .op_parent_block(o)
            .and_then(|block| ctx.block_ops(block).next()),
    };
    while let Some(op) = next.filter(|&n| n != o) {
        let name = ctx.op_name_str(op);
        if name.starts_with("tensor.") && !matches!(name, "tensor.reshape" | "tensor.check_indices")
        {
            strata_passes::fusion_chains::add_marks(ctx, op, &marks);
        }
        next = ctx.op_next(op);
    }
}

/// Gives the new result `to` the declared type of `from` when the two
/// differ only in the encoding (`#graph.dims<...>` on a static shape), so
/// that uses (a `func.return`) keep their types.
fn keep_declared_type(ctx: &mut Context, from: Value, to: Value) {
    let (a, b) = (ctx.value_type(from), ctx.value_type(to));
    if a == b || ctx.defining_op(to).is_none() {
        return;
    }
    let same = match (ctx.type_kind(a), ctx.type_kind(b)) {
        (
            TypeKind::RankedTensor { shape, element, .. },
            TypeKind::RankedTensor {
                shape: s2,
                element: e2,
                ..
            },
        ) => shape == s2 && element == e2,
        _ => false,
    };
    if same {
        ctx.set_value_type(to, a);
    }
}

/// Why a `graph` op does not lower to `tensor` (hybrid mode's partition
/// runs such an op eagerly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unlowerable {
    /// A shape that static input shapes do not determine (it depends on
    /// values).
    DynamicShape,
    /// An element type the kernels do not take (narrow floats and
    /// integers, unsigned integers, strings).
    DType,
    /// No lowering for this op (control flow, sequences and optionals,
    /// operands the lowering needs as constants, ops without a plan).
    NoLowering,
}

impl Unlowerable {
    /// The reason code of a partition: `data-dependent-shape`, `dtype` or
    /// `no-lowering`.
    pub fn code(self) -> &'static str {
        match self {
            Unlowerable::DynamicShape => "data-dependent-shape",
            Unlowerable::DType => "dtype",
            Unlowerable::NoLowering => "no-lowering",
        }
    }
}

/// Whether `convert-graph-to-tensor` lowers `op` as it stands (its types
/// as inferred): `Err` with the reason and the message it would report
/// (the text after `'graph.x' op`). The IR is not changed.
pub fn check_lowerable(ctx: &mut Context, op: Operation) -> Result<(), (Unlowerable, String)> {
    if YIELD_PARENTS.contains(&ctx.op_name_str(op)) {
        return Err((
            Unlowerable::NoLowering,
            "is control flow, which cannot be lowered to tensor yet".into(),
        ));
    }
    for v in ctx.operands(op).chain(ctx.results(op)).collect::<Vec<_>>() {
        if let Err(message) = static_type(ctx, v) {
            let kind = if message.contains("has a dynamic shape") {
                Unlowerable::DynamicShape
            } else if message.contains("element type") {
                Unlowerable::DType
            } else {
                Unlowerable::NoLowering
            };
            return Err((kind, message));
        }
    }
    plan_op(ctx, op)
        .map(drop)
        .map_err(|message| (Unlowerable::NoLowering, message))
}

/// The plan of one op, or why it does not lower (the text after
/// `'graph.x' op`).
fn plan_op(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    if YIELD_PARENTS.contains(&ctx.op_name_str(op)) {
        return Err(
            "is control flow, which cannot be lowered to tensor yet (run the model in eager mode)"
                .into(),
        );
    }
    for v in ctx.operands(op).chain(ctx.results(op)).collect::<Vec<_>>() {
        static_type(ctx, v)?;
    }
    if let Some(plan) = elementwise::plan(ctx, op) {
        return plan;
    }
    if let Some(plan) = structured::plan(ctx, op) {
        return plan;
    }
    if ctx.op_name_str(op) == strata_dialects::graph::CustomOp::NAME {
        return plan_custom(ctx, op);
    }
    Err("cannot be lowered to tensor yet".into())
}

/// Whether `o` is nested in a `graph` control-flow op below `root` (its
/// regions are reported with the op, not op by op).
fn inside_control_flow(ctx: &Context, o: Operation, root: Operation) -> bool {
    let mut parent = ctx.op_parent_op(o);
    while let Some(p) = parent.filter(|&p| p != root) {
        if YIELD_PARENTS.contains(&ctx.op_name_str(p)) {
            return true;
        }
        parent = ctx.op_parent_op(p);
    }
    false
}

/// `graph.custom` becomes `tensor.custom` (same name, version, config and
/// operands; static result types): the runtime calls the op's registered
/// implementation on whole tensors.
fn plan_custom(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let results: Vec<Value> = ctx.results(op).collect();
    let types = results
        .into_iter()
        .map(|r| static_type(ctx, r))
        .collect::<Result<Vec<Type>, String>>()?;
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let ident = ctx.ident(strata_dialects::tensor::CustomOp::NAME);
        let mut state = strata_ir::OperationState::new(ident, ctx.op_loc(op));
        state.operands = ctx.operands(op).collect();
        state.result_types = types;
        state.properties = ctx.op_properties(op);
        let call = ctx.create_operation(state);
        ctx.insert_op_before(op, call);
        ctx.results(call).collect()
    }))
}

/// The type of `v` as the tensor ops take it: a ranked tensor with a
/// static shape (its encoding dropped) of floats or signless integers.
fn static_type(ctx: &mut Context, v: Value) -> Result<Type, String> {
    let ty = ctx.value_type(v);
    let text = strata_ir::printer::type_to_string(ctx, ty);
    if !strata_dialects::graph::types::is_tensor(ctx, ty) {
        return Err(format!(
            "takes or makes a sequence or an optional ('{text}'), which does not lower: sequences and optionals run in eager mode"
        ));
    }
    let TypeKind::RankedTensor { shape, element, .. } = ctx.type_kind(ty).clone() else {
        return Err(format!(
            "has a dynamic shape ('{text}'): convert-graph-to-tensor needs static shapes"
        ));
    };
    if shape.iter().any(|&d| d < 0) {
        return Err(format!(
            "has a dynamic shape ('{text}'): convert-graph-to-tensor needs static shapes"
        ));
    }
    if strata_dialects::graph::is_narrow_element(ctx, element) {
        let e = strata_ir::printer::type_to_string(ctx, element);
        return Err(format!(
            "has element type '{e}', which does not lower (eager mode converts 8- and 4-bit floats and 4- and 2-bit integers; the kernels do not)"
        ));
    }
    let ok = match ctx.type_kind(element) {
        TypeKind::Float(_) | TypeKind::Index => true,
        TypeKind::Integer { signedness, .. } => {
            *signedness == strata_ir::types::Signedness::Signless
        }
        _ => false,
    };
    if !ok {
        let e = strata_ir::printer::type_to_string(ctx, element);
        return Err(format!(
            "has element type '{e}': the tensor lowering takes floats and signless integers"
        ));
    }
    Ok(ctx.tensor_type(shape, element))
}

/// The element type of a tensor type.
fn element_of(ctx: &Context, ty: Type) -> Option<Type> {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { element, .. } | TypeKind::UnrankedTensor { element } => {
            Some(*element)
        }
        _ => None,
    }
}

/// The shape of a ranked tensor type (empty for anything else).
fn shape(ctx: &Context, ty: Type) -> Vec<i64> {
    ctx.type_kind(ty)
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default()
}

/// The numpy broadcasting map from a domain of shape `domain` to an
/// operand of shape `shape` (aligned at the right): a size-1 dim that the
/// domain stretches reads index 0, a missing leading dim is dropped.
pub(super) fn broadcast_map(shape: &[i64], domain: &[i64]) -> AffineMap {
    let offset = domain.len().saturating_sub(shape.len());
    let results = shape
        .iter()
        .enumerate()
        .map(|(j, &s)| {
            let d = offset + j;
            if s == 1 && domain.get(d) != Some(&1) {
                AffineExpr::Constant(0)
            } else {
                AffineExpr::Dim(d as u32)
            }
        })
        .collect();
    AffineMap::new(domain.len() as u32, 0, results)
}

/// Inserts before `before` a `tensor.map` of `inputs` through `maps`
/// whose body `f` computes the element; returns its result.
fn map_values<F>(
    ctx: &mut Context,
    before: Operation,
    inputs: &[Value],
    maps: &[AffineMap],
    result_type: Type,
    f: F,
) -> Value
where
    F: FnOnce(&mut Scalar<'_>, &[Value]) -> Value,
{
    let loc = ctx.op_loc(before);
    let map = MapOp::build_with_body(ctx, loc, inputs, maps, result_type, |ctx, block, args| {
        let mut s = Scalar { ctx, block, loc };
        f(&mut s, args)
    });
    ctx.insert_op_before(before, map.op());
    map.result(ctx)
}

/// [`map_values`] of all of `op`'s operands, as the replacement of its
/// one result.
fn emit_map<F>(
    ctx: &mut Context,
    op: Operation,
    maps: &[AffineMap],
    result_type: Type,
    f: F,
) -> Vec<Value>
where
    F: FnOnce(&mut Scalar<'_>, &[Value]) -> Value,
{
    let inputs: Vec<Value> = ctx.operands(op).collect();
    vec![map_values(ctx, op, &inputs, maps, result_type, f)]
}
