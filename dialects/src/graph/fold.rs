//! Folding and canonicalization of `graph` ops.
//!
//! - Ops that do nothing fold to their input: a reshape, expand or cast to
//!   the input's own (fully resolved) type, a transpose by the identity
//!   permutation, `graph.identity`.
//! - `graph.shape_of` and `graph.size` of a static tensor fold to constants.
//! - `transpose(transpose(x, p), q)` becomes one transpose by the composed
//!   permutation (`graph.transpose` canonicalization), and
//!   `reshape(reshape(x, s), t)` the outer reshape of `x` when `t` does not
//!   copy dimensions (`0`) from the inner result.
//! - `graph.if` on a constant condition becomes the taken branch's ops.
//!
//! Ops whose operands are all constants are not folded here: the
//! `graph-fold-constants` pass evaluates them ([`constant_results`]) with
//! the [`ConstantEvaluator`] installed in the context (the runtime installs
//! the reference interpreter: `strata_runtime::interp::install_folding`),
//! up to an element limit ([`FOLD_LIMIT`] by default), so that a constant
//! subgraph (shape arithmetic, weight preprocessing) disappears when the
//! pipeline asks for it and only then.

use strata_ir::dialect::FoldResult;
use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Attribute, Context, Operation, Value};

use super::infer::attr_i64_array;
use super::shape::shape_of;

/// The default largest number of elements of an operand or result that
/// `graph-fold-constants` evaluates.
pub const FOLD_LIMIT: usize = 4096;

/// Evaluates an op on constant operands (their attributes) and gives its
/// results as attributes of the result types; installed by the runtime.
#[derive(Clone, Copy, Default)]
pub struct ConstantEvaluator(pub Option<EvalFn>);

/// Evaluates an op on constant operands; see [`ConstantEvaluator`].
pub type EvalFn = fn(&mut Context, Operation, &[Attribute]) -> Option<Vec<Attribute>>;

/// Installs `eval` as the constant evaluator of `ctx`'s `graph` folders.
pub fn install_constant_evaluator(ctx: &mut Context, eval: EvalFn) {
    ctx.registry_mut().extension_mut::<ConstantEvaluator>().0 = Some(eval);
}

fn elements(ctx: &Context, ty: strata_ir::Type) -> Option<usize> {
    let (shape, _) = shape_of(ctx, ty)?;
    shape.dims()?.iter().try_fold(1usize, |acc, d| {
        acc.checked_mul(usize::try_from(d.known()?).ok()?)
    })
}

/// Whether a value's type is fully resolved and equal to `ty`.
fn same_resolved_type(ctx: &Context, v: Value, ty: strata_ir::Type) -> bool {
    ctx.value_type(v) == ty && shape_of(ctx, ty).is_some_and(|(s, _)| s.is_resolved())
}

/// The folder of every `graph` op but `graph.constant` and `graph.custom`.
pub(super) fn fold_graph(
    ctx: &mut Context,
    op: Operation,
    _consts: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let name = ctx.op_name_str(op).to_string();
    let results: Vec<Value> = ctx.results(op).collect();
    if let ([result], Some(input)) = (results.as_slice(), ctx.operands(op).next()) {
        let ty = ctx.value_type(*result);
        let no_op = match name.as_str() {
            "graph.identity" => true,
            "graph.reshape" | "graph.expand" | "graph.cast" => same_resolved_type(ctx, input, ty),
            "graph.transpose" => {
                let identity = attr_i64_array(ctx, op, "perm")
                    .is_some_and(|p| p.iter().enumerate().all(|(i, &v)| v == i as i64));
                identity && ctx.value_type(input) == ty
            }
            _ => false,
        };
        if no_op {
            return Some(vec![FoldResult::Value(input)]);
        }
    }
    // The shape (or size) of a static tensor is a constant.
    if matches!(name.as_str(), "graph.shape_of" | "graph.size") {
        if let Some(folded) = fold_static_shape(ctx, op, &name) {
            return Some(vec![FoldResult::Attr(folded)]);
        }
    }
    // Ops on constant operands are evaluated by `graph-fold-constants`.
    None
}

/// The constant results of `op` when they can be computed at compile time:
/// `shape_of` / `size` of a static tensor, or an op whose operands are all
/// `consts` (one per operand), evaluated by the installed
/// [`ConstantEvaluator`] when every operand and result has a static shape
/// of at most `max_elements` elements. `None` when `op` does not fold (or
/// no evaluator is installed).
pub fn constant_results(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
    max_elements: usize,
) -> Option<Vec<Attribute>> {
    let name = ctx.op_name_str(op).to_string();
    if matches!(name.as_str(), "graph.constant" | "graph.custom") || !ctx.op_regions(op).is_empty()
    {
        return None;
    }
    if matches!(name.as_str(), "graph.shape_of" | "graph.size") {
        if let Some(folded) = fold_static_shape(ctx, op, &name) {
            return Some(vec![folded]);
        }
    }
    if consts.is_empty() || consts.iter().any(Option::is_none) {
        return None;
    }
    let eval = ctx
        .registry()
        .extension::<ConstantEvaluator>()
        .and_then(|e| e.0)?;
    let small = ctx
        .operands(op)
        .chain(ctx.results(op))
        .all(|v| elements(ctx, ctx.value_type(v)).is_some_and(|n| n <= max_elements));
    if !small {
        return None;
    }
    let attrs: Vec<Attribute> = consts.iter().flatten().copied().collect();
    eval(ctx, op, &attrs)
}

/// Creates a `graph.constant` holding `value` of type `ty` (detached).
pub fn build_constant(
    ctx: &mut Context,
    value: Attribute,
    ty: strata_ir::Type,
    loc: strata_ir::Location,
) -> Operation {
    super::ConstantOp::build(ctx, loc, value, ty).op()
}

/// `graph.shape_of` / `graph.size` of an operand whose type is static.
fn fold_static_shape(ctx: &mut Context, op: Operation, name: &str) -> Option<Attribute> {
    let input = ctx.operands(op).next()?;
    let (shape, _) = shape_of(ctx, ctx.value_type(input))?;
    let dims: Vec<i64> = shape
        .dims()?
        .iter()
        .map(|d| d.known())
        .collect::<Option<_>>()?;
    let values: Vec<i64> = if name == "graph.size" {
        vec![dims.iter().try_fold(1i64, |acc, &d| acc.checked_mul(d))?]
    } else {
        let r = dims.len() as i64;
        let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
        let start = clamp(super::infer::attr_i64(ctx, op, "start").unwrap_or(0));
        let end = clamp(super::infer::attr_i64(ctx, op, "end").unwrap_or(r));
        dims.get(start..end.max(start))?.to_vec()
    };
    let ty = ctx.value_type(ctx.result(op, 0));
    let raw = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    ctx.dense_elements_attr(ty, raw)
}

/// `graph.constant` folds to its value.
pub(super) fn fold_constant(
    ctx: &mut Context,
    op: Operation,
    _: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    strata_ir::ods::inherent_attr(ctx, op, "value").map(|v| vec![FoldResult::Attr(v)])
}

/// Creates a `graph.constant` for a folded value.
pub(super) fn materialize_constant(
    ctx: &mut Context,
    value: Attribute,
    ty: strata_ir::Type,
    loc: strata_ir::Location,
) -> Option<Operation> {
    if strata_ir::ods::constraints::attr_type(ctx, value) != Some(ty) {
        return None;
    }
    if !matches!(
        ctx.attr_kind(value),
        strata_ir::AttrKind::DenseElements { .. }
    ) {
        return None;
    }
    Some(super::ConstantOp::build(ctx, loc, value, ty).op())
}

/// Canonicalization patterns of `graph.transpose`.
pub(super) fn transpose_patterns(patterns: &mut RewritePatternSet) {
    patterns.add(FnPattern::new(
        "graph.transpose",
        "ComposeTransposes",
        compose_transposes,
    ));
}

fn compose_transposes(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let Some(input) = ctx.operands(op).next() else {
        return false;
    };
    let Some(inner) = ctx
        .defining_op(input)
        .filter(|&d| ctx.op_name_str(d) == "graph.transpose")
    else {
        return false;
    };
    let Some(inner_input) = ctx.operands(inner).next() else {
        return false;
    };
    let Some(rank) = shape_of(ctx, ctx.value_type(inner_input)).and_then(|(s, _)| s.rank()) else {
        return false;
    };
    let perm_of = |o: Operation| {
        attr_i64_array(ctx, o, "perm").unwrap_or_else(|| (0..rank as i64).rev().collect())
    };
    let (p, q) = (perm_of(inner), perm_of(op));
    if p.len() != rank || q.len() != rank {
        return false;
    }
    // Result dimension i is inner-result dimension q[i], which is input
    // dimension p[q[i]].
    let Some(composed) = q
        .iter()
        .map(|&i| usize::try_from(i).ok().and_then(|i| p.get(i).copied()))
        .collect::<Option<Vec<i64>>>()
    else {
        return false;
    };
    let ty = ctx.value_type(ctx.result(op, 0));
    if composed.iter().enumerate().all(|(i, &v)| v == i as i64) && ctx.value_type(inner_input) == ty
    {
        rewriter.replace_op(op, &[inner_input]);
        return true;
    }
    let loc = ctx.op_loc(op);
    let ctx = rewriter.ctx_mut();
    let element = ctx.integer_type(64);
    let perm = ctx.intern_attr(strata_ir::AttrKind::DenseArray {
        element,
        values: composed.iter().map(|&v| v as u64).collect(),
    });
    let new = super::TransposeOp::build(ctx, loc, inner_input, Some(perm), ty).op();
    rewriter.set_insertion_point(op);
    rewriter.insert(new);
    let new_result = rewriter.ctx().result(new, 0);
    rewriter.replace_op(op, &[new_result]);
    true
}

/// Canonicalization patterns of `graph.reshape`.
pub(super) fn reshape_patterns(patterns: &mut RewritePatternSet) {
    patterns.add(FnPattern::new(
        "graph.reshape",
        "ComposeReshapes",
        compose_reshapes,
    ));
}

fn compose_reshapes(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let operands: Vec<Value> = ctx.operands(op).collect();
    let [input, shape] = operands.as_slice() else {
        return false;
    };
    let Some(inner) = ctx
        .defining_op(*input)
        .filter(|&d| ctx.op_name_str(d) == "graph.reshape")
    else {
        return false;
    };
    // A `0` in the outer shape copies a dimension of the inner result, which
    // the inner input may not have: only shapes without 0 compose.
    let target = super::infer::operand_info(ctx, *shape).and_then(|i| i.value);
    let allowzero = super::infer::attr_bool(ctx, op, "allowzero");
    if !target.is_some_and(|t| allowzero || !t.contains(&0)) {
        return false;
    }
    let Some(inner_input) = ctx.operands(inner).next() else {
        return false;
    };
    rewriter.modify_op_in_place(op, |ctx| ctx.set_operand(op, 0, inner_input));
    true
}

/// The canonicalization patterns of `graph.if`.
pub(super) fn if_patterns(patterns: &mut RewritePatternSet) {
    patterns.add(FnPattern::new(
        "graph.if",
        "RemoveStaticCondition",
        remove_static_condition,
    ));
}

/// The taken branch of a `graph.if` on a constant condition: its ops but
/// the terminator, and the values it yields; `None` when the condition
/// is not a constant. Where the branch gives a result a more precise type
/// and a user of the result takes only its declared type (a `func.return`
/// or a `graph.yield`, whose parents' types are fixed), the branch yields
/// a `graph.cast` to the declared type instead, which the branch's ops
/// include.
pub fn static_if_branch(ctx: &mut Context, op: Operation) -> Option<(Vec<Operation>, Vec<Value>)> {
    let cond = ctx.operand(op, 0);
    let attr = strata_ir::rewrite::constant_value(ctx, cond)?;
    let &[value] = super::infer::int_elements(ctx, attr)?.as_slice() else {
        return None;
    };
    let taken = ctx.op_regions(op).get(if value != 0 { 0 } else { 1 });
    let block = taken.and_then(|&r| ctx.region_entry_block(r))?;
    let terminator = ctx.block_ops(block).last()?;
    let mut yielded: Vec<Value> = ctx.operands(terminator).collect();
    let results: Vec<Value> = ctx.results(op).collect();
    for (r, y) in results.into_iter().zip(yielded.iter_mut()) {
        let declared = ctx.value_type(r);
        let fixed = ctx.uses(r).any(|u| {
            let name = ctx.op_name_str(u.op);
            !name.starts_with("graph.") || name == "graph.yield"
        });
        if fixed && ctx.value_type(*y) != declared {
            let loc = ctx.op_loc(op);
            let cast = super::CastOp::build(ctx, loc, *y, None, None, declared).op();
            ctx.insert_op_before(terminator, cast);
            *y = ctx.result(cast, 0);
        }
    }
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    let (_, body) = ops.split_last()?;
    Some((body.to_vec(), yielded))
}

/// `graph.if` on a constant condition: the taken branch's ops replace it
/// (as `scf.if`'s `RemoveStaticCondition`; see [`static_if_branch`]).
fn remove_static_condition(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((body, yielded)) = static_if_branch(rewriter.ctx_mut(), op) else {
        return false;
    };
    for inner in body {
        rewriter.move_op_before(inner, op);
    }
    rewriter.replace_op(op, &yielded);
    true
}
