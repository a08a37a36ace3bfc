//! Graph-level passes: `graph-infer-shapes` and `graph-verify`.

use strata_dialects::graph::infer::{infer_results, refine, result_type};
use strata_dialects::graph::shape::shape_of;
use strata_ir::pass::{Pass, Statistics};
use strata_ir::{pass, Context, Diagnostic, Operation, Value, WalkOrder};

#[pass(
    name = "graph-infer-shapes",
    required = true,
    display_name = "GraphInferShapes",
    summary = "Refine the result types of graph ops with their shape functions"
)]
pub(crate) struct InferShapes;

impl Pass for InferShapes {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut refined = 0;
        // A refined function result changes its callers' result types, which
        // graph ops may use: repeat until nothing changes (a call chain of
        // depth n needs n + 1 rounds).
        for _ in 0..16 {
            let round = refine_round(ctx, root)?;
            refined += round;
            if update_function_types(ctx, root) == 0 && round == 0 {
                break;
            }
        }
        stats.add("num-refined", "Number of result types refined", refined);
        Ok(())
    }
}

/// The functions under `root` whose result types may change: those whose
/// calls' results are used only by graph ops and `func.return`s.
fn updatable_functions(ctx: &Context, root: Operation) -> Vec<String> {
    let ops = ctx.nested_ops(root, WalkOrder::PreOrder);
    let callee = |op: Operation| strata_dialects::graph::infer::attr_symbol(ctx, op, "callee");
    ops.iter()
        .filter(|&&op| ctx.op_name_str(op) == "func.func")
        .filter_map(|&f| strata_dialects::graph::infer::attr_str(ctx, f, "sym_name"))
        .filter(|name| {
            ops.iter()
                .filter(|&&op| {
                    ctx.op_name_str(op) == "func.call"
                        && callee(op).as_deref() == Some(name.as_str())
                })
                .all(|&call| ctx.results(call).all(|r| only_graph_users(ctx, r)))
        })
        .collect()
}

/// Whether every user of `v` is a graph op or a `func.return`.
fn only_graph_users(ctx: &Context, v: Value) -> bool {
    ctx.uses(v).all(|u| {
        let name = ctx.op_name_str(u.op);
        name.starts_with("graph.") || name == "func.return"
    })
}

/// One pass of refinement over the graph ops under `root`; a result is
/// refined only when its users accept a new type (graph ops, and the
/// return of a function whose result types may change).
fn refine_round(ctx: &mut Context, root: Operation) -> Result<u64, Diagnostic> {
    let updatable = updatable_functions(ctx, root);
    let mut refined = 0;
    // Pre-order walk in block order: operands are refined before their
    // users (graph bodies are single blocks, defs before uses).
    for op in ctx.nested_ops(root, WalkOrder::PreOrder) {
        refined += refine_op(ctx, op, &updatable)?;
    }
    Ok(refined)
}

/// Refines the result types of `op` (a graph op; others are left alone)
/// from its shape function; a result is refined only when its users
/// accept a new type (graph ops, and the return of a function named in
/// `updatable`). Returns how many result types changed.
pub(crate) fn refine_op(
    ctx: &mut Context,
    op: Operation,
    updatable: &[String],
) -> Result<u64, Diagnostic> {
    if !ctx.op_name_str(op).starts_with("graph.") {
        return Ok(0);
    }
    let Some(inferred) = infer_results(ctx, op) else {
        return Ok(0);
    };
    let inferred = inferred.map_err(|m| Diagnostic::op_error(ctx, op, m))?;
    let function = enclosing_function(ctx, op);
    let results: Vec<Value> = ctx.results(op).collect();
    let mut refined = 0;
    for (i, (&r, inf)) in results.iter().zip(&inferred).enumerate() {
        let users_accept = ctx.uses(r).all(|u| {
            let name = ctx.op_name_str(u.op);
            name.starts_with("graph.")
                || (name == "func.return"
                    && function.as_ref().is_some_and(|f| updatable.contains(f)))
        });
        if !users_accept {
            continue;
        }
        let declared = ctx.value_type(r);
        let Some((shape, elem)) = shape_of(ctx, declared) else {
            continue;
        };
        let candidate = result_type(ctx, inf, declared);
        let Some((inferred_shape, inferred_elem)) = shape_of(ctx, candidate) else {
            continue;
        };
        if inferred_elem != elem {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "result #{i} has element type {} but {} is inferred",
                    strata_ir::printer::type_to_string(ctx, elem),
                    strata_ir::printer::type_to_string(ctx, inferred_elem)
                ),
            ));
        }
        let better = refine(&shape, &inferred_shape)
            .map_err(|m| Diagnostic::op_error(ctx, op, format!("result #{i} {m}")))?;
        let ty = strata_dialects::graph::shape::tensor_type(ctx, &better, elem);
        if ty != declared {
            ctx.set_value_type(r, ty);
            refined += 1;
        }
    }
    Ok(refined)
}

/// The name of the `func.func` around `op`.
fn enclosing_function(ctx: &Context, op: Operation) -> Option<String> {
    let mut cur = ctx.op_parent_op(op);
    while let Some(p) = cur {
        if ctx.op_name_str(p) == "func.func" {
            return strata_dialects::graph::infer::attr_str(ctx, p, "sym_name");
        }
        cur = ctx.op_parent_op(p);
    }
    None
}

/// Gives each `func.func` under `root` the result types its `func.return`
/// now returns, and its calls the same result types; returns how many
/// functions changed.
fn update_function_types(ctx: &mut Context, root: Operation) -> u64 {
    let mut changed = 0;
    for op in ctx.nested_ops(root, WalkOrder::PreOrder) {
        if ctx.op_name_str(op) != "func.func" {
            continue;
        }
        let Some((inputs, results)) = strata_dialects::func::function_signature(ctx, op) else {
            continue;
        };
        let ret = ctx
            .op_regions(op)
            .first()
            .and_then(|&r| ctx.region_blocks(r).next())
            .and_then(|b| ctx.block_last_op(b))
            .filter(|&t| ctx.op_name_str(t) == "func.return");
        let Some(ret) = ret else { continue };
        let returned: Vec<_> = ctx.operands(ret).map(|v| ctx.value_type(v)).collect();
        if returned.len() != results.len() || returned == results {
            continue;
        }
        let fn_type = ctx.function_type(inputs, returned.clone());
        let attr = ctx.type_attr(fn_type);
        let Some(props) = ctx.op_properties(op) else {
            continue;
        };
        let mut entries = ctx.dictionary_entries(props).to_vec();
        for e in &mut entries {
            if ctx.ident_str(e.0) == "function_type" {
                e.1 = attr;
            }
        }
        let dict = ctx.dictionary_attr(entries);
        ctx.set_op_properties(op, Some(dict));
        changed += 1;
        let Some(name) = strata_dialects::graph::infer::attr_str(ctx, op, "sym_name") else {
            continue;
        };
        for call in ctx.nested_ops(root, WalkOrder::PreOrder) {
            if ctx.op_name_str(call) == "func.call"
                && strata_dialects::graph::infer::attr_symbol(ctx, call, "callee").as_deref()
                    == Some(name.as_str())
            {
                let results: Vec<Value> = ctx.results(call).collect();
                for (r, &ty) in results.iter().zip(&returned) {
                    ctx.set_value_type(*r, ty);
                }
            }
        }
    }
    changed
}

#[pass(
    name = "graph-verify",
    display_name = "GraphVerify",
    summary = "Report graph op results whose shape is unresolved or contradictory"
)]
pub(crate) struct GraphVerify;

impl Pass for GraphVerify {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut problems: Vec<(Operation, String)> = Vec::new();
        for op in ctx.nested_ops(root, WalkOrder::PreOrder) {
            if !ctx.op_name_str(op).starts_with("graph.") {
                continue;
            }
            // Contradictions first: what the shape function infers now
            // against what the op declares (the verifier checks the same
            // when the op is built or parsed).
            let name = ctx.op_name_str(op);
            let verified = if strata_dialects::graph::sequence::is_sequence_op(name) {
                strata_dialects::graph::sequence::verify_sequence_op(ctx, op)
            } else {
                strata_dialects::graph::infer::verify_shapes(ctx, op)
            };
            if let Err(d) = verified {
                let name = ctx.op_name_str(op).to_string();
                let message = d
                    .message
                    .strip_prefix(&format!("'{name}' op "))
                    .unwrap_or(&d.message)
                    .to_string();
                problems.push((op, message));
                continue;
            }
            for (i, r) in ctx.results(op).enumerate() {
                let Some((shape, _)) = shape_of(ctx, ctx.value_type(r)) else {
                    continue;
                };
                if shape.rank().is_none() {
                    problems.push((op, format!("result #{i} has an unknown rank")));
                } else if !shape.is_resolved() {
                    problems.push((op, format!("result #{i} has an unresolved shape {shape}")));
                }
            }
        }
        let mut problems = problems.into_iter();
        let Some((op, first)) = problems.next() else {
            return Ok(());
        };
        let mut diag = Diagnostic::op_error(ctx, op, first);
        for (op, message) in problems {
            let name = ctx.op_name_str(op).to_string();
            diag = diag.with_note(ctx.op_loc(op), format!("'{name}' op {message}"));
        }
        Err(diag)
    }
}
