//! Shape functions and region verifiers of the control-flow ops
//! (`graph.if`, `graph.loop`, `graph.scan`) and `graph.yield`.
//!
//! A control-flow op's results follow from its regions: the values its
//! `graph.yield`s produce and its body's argument types. The verifiers
//! check the regions' structure (argument and yield counts, element
//! types, shapes that could agree) and then the declared result types
//! against the inferred ones ([`verify_shapes`]).

use strata_ir::{Context, Diagnostic, Operation, Region, Type, Value};

use super::{
    attr_i64, attr_i64_array, norm_axis, verify_shapes, Inferred, OperandInfo, ResultElem,
};
use crate::graph::shape::{shape_of, Dim, Shape};

/// The ops a `graph.yield` may end a region of.
pub const YIELD_PARENTS: [&str; 3] = ["graph.if", "graph.loop", "graph.scan"];

/// The join of two shapes: a dimension both give the same is kept, any
/// other is unknown; shapes of different ranks join to an unranked shape.
pub fn join(a: &Shape, b: &Shape) -> Shape {
    match (a.dims(), b.dims()) {
        (Some(x), Some(y)) if x.len() == y.len() => Shape::ranked(
            x.iter()
                .zip(y)
                .map(|(p, q)| if p == q { p.clone() } else { Dim::Unknown })
                .collect(),
        ),
        _ => Shape::unranked(),
    }
}

/// Whether two shapes could describe the same tensor (no dimension known
/// to differ, the ranks equal where both are known). A symbol could be any
/// size, on either side (a specialized operand `[1, 16]` and a body
/// argument `[batch, 16]` agree); two different symbols are taken to differ.
pub fn compatible(a: &Shape, b: &Shape) -> bool {
    let (Some(x), Some(y)) = (a.dims(), b.dims()) else {
        return true;
    };
    x.len() == y.len()
        && x.iter().zip(y).all(|(p, q)| match (p, q) {
            (Dim::Unknown, _) | (_, Dim::Unknown) => true,
            (Dim::Sym(_), Dim::Known(_)) | (Dim::Known(_), Dim::Sym(_)) => true,
            _ => p == q,
        })
}

fn type_str(ctx: &Context, ty: Type) -> String {
    strata_ir::printer::type_to_string(ctx, ty)
}

/// The terminator of a region's block, when it is a `graph.yield`.
fn region_yield(ctx: &Context, region: Region) -> Option<Operation> {
    ctx.region_entry_block(region)
        .and_then(|b| ctx.block_last_op(b))
        .filter(|&y| ctx.op_name_str(y) == "graph.yield")
}

/// The yielded values of region `index` of `op`.
fn yields(ctx: &Context, op: Operation, index: usize) -> Result<Vec<Value>, String> {
    let region = *ctx
        .op_regions(op)
        .get(index)
        .ok_or_else(|| format!("has no region #{index}"))?;
    let y = region_yield(ctx, region)
        .ok_or_else(|| format!("region #{index} must end in 'graph.yield'"))?;
    Ok(ctx.operands(y).collect())
}

/// The arguments of the body (region #0) of `op`.
fn body_args(ctx: &Context, op: Operation) -> Result<Vec<Value>, String> {
    let region = *ctx.op_regions(op).first().ok_or("has no body")?;
    let block = ctx.region_entry_block(region).ok_or("has an empty body")?;
    Ok(ctx.block_args(block).collect())
}

/// The shape and element type of a value (tensors only).
fn info(ctx: &Context, v: Value, what: &str) -> Result<(Shape, Type), String> {
    shape_of(ctx, ctx.value_type(v)).ok_or_else(|| format!("{what} must be a tensor"))
}

fn same_elem(ctx: &Context, a: Type, b: Type, what: &str) -> Result<(), String> {
    if a == b {
        Ok(())
    } else {
        Err(format!(
            "{what} has element type {}, but {} is expected",
            type_str(ctx, a),
            type_str(ctx, b)
        ))
    }
}

/// Whether `v` is a sequence or an optional (not a tensor).
fn is_other(ctx: &Context, v: Value) -> bool {
    let ty = ctx.value_type(v);
    crate::graph::types::seq_element(ctx, ty).is_some()
        || crate::graph::types::opt_element(ctx, ty).is_some()
}

/// Checks that the sequence or optional `v` (described by `what`) could
/// be a value of type `expected`.
fn check_other(ctx: &Context, v: Value, expected: Type, what: &str) -> Result<(), String> {
    let ty = ctx.value_type(v);
    if crate::graph::types::could_be(ctx, ty, expected) {
        Ok(())
    } else {
        Err(format!(
            "{what} has type {}, which cannot be {}",
            type_str(ctx, ty),
            type_str(ctx, expected)
        ))
    }
}

/// What a non-tensor result infers: nothing the tensor checks read (the
/// verifiers compare its type with the regions' directly).
fn other_result() -> Inferred {
    (Shape::unranked(), ResultElem::Declared)
}

/// Checks that `v` (described by `what`) could have the shape and element
/// type of `expected`.
fn check_against(
    ctx: &Context,
    v: Value,
    expected: &(Shape, Type),
    what: &str,
) -> Result<(), String> {
    let (shape, elem) = info(ctx, v, what)?;
    same_elem(ctx, elem, expected.1, what)?;
    if !compatible(&expected.0, &shape) {
        return Err(format!(
            "{what} has shape {shape}, which cannot be {}",
            expected.0
        ));
    }
    Ok(())
}

/// A one-element tensor of element type `elem` (an `i1` condition, an
/// `i64` trip count or iteration number).
fn check_scalar(ctx: &Context, v: Value, bits: u32, what: &str) -> Result<(), String> {
    let (shape, elem) = info(ctx, v, what)?;
    let ok_elem = matches!(
        ctx.type_kind(elem),
        strata_ir::TypeKind::Integer { width, .. } if *width == bits
    );
    let ok_count = matches!(
        shape.num_elements(),
        Dim::Known(1) | Dim::Unknown | Dim::Sym(_)
    );
    if !ok_elem || !ok_count {
        return Err(format!(
            "{what} must be a one-element tensor of i{bits}, but is {}",
            type_str(ctx, ctx.value_type(v))
        ));
    }
    Ok(())
}

/// `graph.if`: each result is the join of what the two branches yield.
pub(crate) fn infer_if(
    ctx: &Context,
    op: Operation,
    _ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let then_values = yields(ctx, op, 0)?;
    let else_values = yields(ctx, op, 1)?;
    if then_values.len() != else_values.len() {
        return Err(format!(
            "branches yield {} and {} values",
            then_values.len(),
            else_values.len()
        ));
    }
    let mut out = Vec::with_capacity(then_values.len());
    for (i, (&t, &e)) in then_values.iter().zip(&else_values).enumerate() {
        if is_other(ctx, t) || is_other(ctx, e) {
            let (tt, et) = (ctx.value_type(t), ctx.value_type(e));
            if !crate::graph::types::joinable(ctx, tt, et) {
                return Err(format!(
                    "branches yield {} and {} as value #{i}",
                    type_str(ctx, tt),
                    type_str(ctx, et)
                ));
            }
            out.push(other_result());
            continue;
        }
        let (ts, te) = info(ctx, t, &format!("then value #{i}"))?;
        let (es, ee) = info(ctx, e, &format!("else value #{i}"))?;
        same_elem(ctx, ee, te, &format!("else value #{i}"))?;
        out.push((join(&ts, &es), ResultElem::Of(te)));
    }
    Ok(out)
}

/// `graph.loop`: the carried results have the body's argument types; a
/// stacked output is its per-iteration value with a leading `?` (the trip
/// count).
pub(crate) fn infer_loop(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let carried = ops.len().saturating_sub(2);
    let args = body_args(ctx, op)?;
    let yielded = yields(ctx, op, 0)?;
    if args.len() != carried + 2 {
        return Err(format!(
            "body has {} arguments, but the iteration number, the condition and {carried} carried values make {}",
            args.len(),
            carried + 2
        ));
    }
    if yielded.len() < carried + 1 {
        return Err(format!(
            "body yields {} values, but the condition and {carried} carried values make {}",
            yielded.len(),
            carried + 1
        ));
    }
    let mut out = Vec::new();
    for (k, &arg) in args[2..].iter().enumerate() {
        if is_other(ctx, arg) {
            out.push(other_result());
            continue;
        }
        let (shape, elem) = info(ctx, arg, &format!("body argument #{}", k + 2))?;
        out.push((shape, ResultElem::Of(elem)));
    }
    for (k, &v) in yielded[carried + 1..].iter().enumerate() {
        let (shape, elem) = info(ctx, v, &format!("stacked value #{k}"))?;
        let stacked = match shape.dims() {
            Some(dims) => {
                let mut d = vec![Dim::Unknown];
                d.extend(dims.iter().cloned());
                Shape::ranked(d)
            }
            None => Shape::unranked(),
        };
        out.push((stacked, ResultElem::Of(elem)));
    }
    Ok(out)
}

/// The scan axes and directions of a `graph.scan` with `m` scanned inputs
/// and `k` scanned outputs, each defaulting to zeros.
pub struct ScanAttrs {
    /// The number of states.
    pub states: usize,
    /// The axis of each scanned input.
    pub input_axes: Vec<i64>,
    /// Whether each scanned input is scanned from its end.
    pub input_reverse: Vec<bool>,
    /// The axis of each scanned output.
    pub output_axes: Vec<i64>,
    /// Whether each scanned output is stacked from its end.
    pub output_reverse: Vec<bool>,
}

/// Reads a `graph.scan`'s attributes, given its operand and result counts.
pub fn scan_attrs(
    ctx: &Context,
    op: Operation,
    operands: usize,
    results: usize,
) -> Result<ScanAttrs, String> {
    let m = attr_i64(ctx, op, "num_scan_inputs").ok_or("requires 'num_scan_inputs'")?;
    let m = usize::try_from(m)
        .ok()
        .filter(|&m| m >= 1 && m <= operands)
        .ok_or_else(|| {
            format!("num_scan_inputs must be between 1 and the {operands} operands, but is {m}")
        })?;
    let states = operands - m;
    let outputs = results
        .checked_sub(states)
        .ok_or_else(|| format!("has {results} results, fewer than its {states} states"))?;
    let list = |name: &str, len: usize| -> Result<Vec<i64>, String> {
        match attr_i64_array(ctx, op, name) {
            None => Ok(vec![0; len]),
            Some(v) if v.len() == len => Ok(v),
            Some(v) => Err(format!(
                "{name} has {} entries, but {len} are expected",
                v.len()
            )),
        }
    };
    let directions = |name: &str, len: usize| -> Result<Vec<bool>, String> {
        list(name, len)?
            .into_iter()
            .map(|d| match d {
                0 => Ok(false),
                1 => Ok(true),
                _ => Err(format!(
                    "{name} must be 0 (forward) or 1 (reverse), but has {d}"
                )),
            })
            .collect()
    };
    Ok(ScanAttrs {
        states,
        input_axes: list("scan_input_axes", m)?,
        input_reverse: directions("scan_input_directions", m)?,
        output_axes: list("scan_output_axes", outputs)?,
        output_reverse: directions("scan_output_directions", outputs)?,
    })
}

/// `graph.scan`: the states have the body's argument types; a scanned
/// output is its per-iteration slice with the scan length inserted at its
/// axis.
pub(crate) fn infer_scan(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let yielded = yields(ctx, op, 0)?;
    let attrs = scan_attrs(ctx, op, ops.len(), yielded.len())?;
    let args = body_args(ctx, op)?;
    if args.len() != ops.len() {
        return Err(format!(
            "body has {} arguments, but {} are expected (one per operand)",
            args.len(),
            ops.len()
        ));
    }
    // The scan length: the first scanned input's size along its axis.
    let first = &ops[attrs.states];
    let length = match first.shape.rank() {
        Some(rank) => {
            let axis = norm_axis(attrs.input_axes[0], rank, "scan_input_axes entry")?;
            first.shape.dims().map_or(Dim::Unknown, |d| d[axis].clone())
        }
        None => Dim::Unknown,
    };
    let mut out = Vec::new();
    for (k, &arg) in args[..attrs.states].iter().enumerate() {
        let (shape, elem) = info(ctx, arg, &format!("body argument #{k}"))?;
        out.push((shape, ResultElem::Of(elem)));
    }
    for (k, &v) in yielded[attrs.states..].iter().enumerate() {
        let (shape, elem) = info(ctx, v, &format!("scanned output #{k}"))?;
        let stacked = match shape.dims() {
            Some(dims) => {
                let axis = norm_axis(
                    attrs.output_axes[k],
                    dims.len() + 1,
                    "scan_output_axes entry",
                )?;
                let mut d = dims.to_vec();
                d.insert(axis, length.clone());
                Shape::ranked(d)
            }
            None => Shape::unranked(),
        };
        out.push((stacked, ResultElem::Of(elem)));
    }
    Ok(out)
}

fn err(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op_error(ctx, op, message)
}

/// The `graph.if` regions take no arguments and yield the results.
pub(crate) fn verify_if_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    for (i, &region) in ctx.op_regions(op).iter().enumerate() {
        if ctx
            .region_entry_block(region)
            .is_some_and(|b| ctx.num_block_args(b) > 0)
        {
            return Err(err(ctx, op, format!("region #{i} must have no arguments")));
        }
        let values = yields(ctx, op, i).map_err(|m| err(ctx, op, m))?;
        if values.len() != ctx.num_results(op) {
            return Err(err(
                ctx,
                op,
                format!(
                    "region #{i} yields {} values, but the op has {} results",
                    values.len(),
                    ctx.num_results(op)
                ),
            ));
        }
        for (k, (&v, r)) in values.iter().zip(ctx.results(op)).enumerate() {
            let what = format!("value #{k} of region #{i}");
            if is_other(ctx, r) || is_other(ctx, v) {
                check_other(ctx, v, ctx.value_type(r), &what).map_err(|m| err(ctx, op, m))?;
                continue;
            }
            let result = info(ctx, r, "result").map_err(|m| err(ctx, op, m))?;
            check_against(ctx, v, &result, &what).map_err(|m| err(ctx, op, m))?;
        }
    }
    check_scalar(ctx, ctx.operand(op, 0), 1, "the condition").map_err(|m| err(ctx, op, m))?;
    verify_shapes(ctx, op)
}

/// The `graph.loop` body takes the iteration number, the condition and
/// the carried values, and yields the condition, the carried values and
/// the stacked values.
pub(crate) fn verify_loop_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let e = |m: String| err(ctx, op, m);
    let operands: Vec<Value> = ctx.operands(op).collect();
    check_scalar(ctx, operands[0], 64, "the trip count").map_err(e)?;
    check_scalar(ctx, operands[1], 1, "the condition").map_err(e)?;
    let args = body_args(ctx, op).map_err(e)?;
    let yielded = yields(ctx, op, 0).map_err(e)?;
    let carried = operands.len() - 2;
    if args.len() != carried + 2 {
        return Err(e(format!(
            "body has {} arguments, but the iteration number, the condition and {carried} carried values make {}",
            args.len(),
            carried + 2
        )));
    }
    for (k, bits, what) in [(0, 64, "the iteration number"), (1, 1, "the condition")] {
        let (shape, _) = info(ctx, args[k], what).map_err(e)?;
        check_scalar(ctx, args[k], bits, what).map_err(e)?;
        if shape.rank() != Some(0) {
            return Err(e(format!(
                "body argument #{k} ({what}) must be a 0-D tensor, but is {}",
                type_str(ctx, ctx.value_type(args[k]))
            )));
        }
    }
    if yielded.is_empty() {
        return Err(e("body must yield the condition first".into()));
    }
    check_scalar(ctx, yielded[0], 1, "yielded value #0 (the condition)").map_err(e)?;
    if yielded.len() < carried + 1 || ctx.num_results(op) != yielded.len() - 1 {
        return Err(e(format!(
            "body yields {} values, but the condition, {carried} carried values and {} stacked values make {}",
            yielded.len(),
            ctx.num_results(op).saturating_sub(carried),
            ctx.num_results(op) + 1
        )));
    }
    for k in 0..carried {
        if is_other(ctx, args[k + 2]) || is_other(ctx, operands[k + 2]) {
            let arg = ctx.value_type(args[k + 2]);
            check_other(ctx, operands[k + 2], arg, &format!("initial value #{k}")).map_err(e)?;
            check_other(
                ctx,
                yielded[k + 1],
                arg,
                &format!("yielded carried value #{k}"),
            )
            .map_err(e)?;
            let result = ctx.value_type(ctx.result(op, k));
            check_other(
                ctx,
                args[k + 2],
                result,
                &format!("body argument #{}", k + 2),
            )
            .map_err(e)?;
            continue;
        }
        let arg = info(ctx, args[k + 2], "body argument").map_err(e)?;
        check_against(ctx, operands[k + 2], &arg, &format!("initial value #{k}")).map_err(e)?;
        check_against(
            ctx,
            yielded[k + 1],
            &arg,
            &format!("yielded carried value #{k}"),
        )
        .map_err(e)?;
    }
    verify_shapes(ctx, op)
}

/// The `graph.scan` body takes the states and one slice of each scanned
/// input, and yields the states and one slice of each scanned output.
pub(crate) fn verify_scan_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let e = |m: String| err(ctx, op, m);
    let operands: Vec<Value> = ctx.operands(op).collect();
    let args = body_args(ctx, op).map_err(e)?;
    let yielded = yields(ctx, op, 0).map_err(e)?;
    let attrs = scan_attrs(ctx, op, operands.len(), ctx.num_results(op)).map_err(e)?;
    if args.len() != operands.len() {
        return Err(e(format!(
            "body has {} arguments, but {} are expected (one per operand)",
            args.len(),
            operands.len()
        )));
    }
    if yielded.len() != ctx.num_results(op) {
        return Err(e(format!(
            "body yields {} values, but the op has {} results",
            yielded.len(),
            ctx.num_results(op)
        )));
    }
    for k in 0..attrs.states {
        let arg = info(ctx, args[k], "body argument").map_err(e)?;
        check_against(ctx, operands[k], &arg, &format!("initial state #{k}")).map_err(e)?;
        check_against(ctx, yielded[k], &arg, &format!("yielded state #{k}")).map_err(e)?;
    }
    let mut length: Option<Dim> = None;
    for (j, &input) in operands[attrs.states..].iter().enumerate() {
        let (shape, elem) = info(ctx, input, "scanned input").map_err(e)?;
        let Some(dims) = shape.dims() else {
            continue;
        };
        let axis =
            norm_axis(attrs.input_axes[j], dims.len(), "scan_input_axes entry").map_err(e)?;
        let mut slice = dims.to_vec();
        let len = slice.remove(axis);
        if let (Some(a), Some(b)) = (length.as_ref().and_then(Dim::known), len.known()) {
            if a != b {
                return Err(e(format!(
                    "scanned inputs have different lengths ({a} and {b})"
                )));
            }
        }
        if length.as_ref().and_then(Dim::known).is_none() {
            length = Some(len);
        }
        let what = format!(
            "body argument #{} (a slice of scanned input #{j})",
            attrs.states + j
        );
        check_against(
            ctx,
            args[attrs.states + j],
            &(Shape::ranked(slice), elem),
            &what,
        )
        .map_err(e)?;
    }
    verify_shapes(ctx, op)
}

/// `graph.yield` has no results.
pub(crate) fn infer_yield(
    _ctx: &Context,
    _op: Operation,
    _ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    Ok(Vec::new())
}

/// A `graph.yield` ends a region of a control-flow op.
pub(crate) fn verify_yield(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let parent = ctx.op_parent_op(op).map(|p| ctx.op_name_str(p).to_string());
    if parent
        .as_deref()
        .is_some_and(|p| YIELD_PARENTS.contains(&p))
    {
        return Ok(());
    }
    Err(err(
        ctx,
        op,
        format!(
            "expects parent op to be one of '{}'",
            YIELD_PARENTS.join(", ")
        ),
    ))
}
