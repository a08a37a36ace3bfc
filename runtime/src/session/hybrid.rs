//! Compiling a model for hybrid mode: the partition at the input shapes,
//! its segments outlined and compiled, the eager islands kept to run.

use std::collections::HashMap;

use strata_ir::{Context, IrMapping, Operation, TypeKind, Value};
use strata_recipe::Fallback;

use super::partition::{self, HybridPlan, IslandOp, Part, Partition, SegmentKind, Work};
use super::{render_compile_error, Session, SessionError};
use crate::compiled::{self, CompiledModel};
use crate::interp;

/// What a hybrid compile made.
pub(crate) enum Compiled {
    /// Every op compiles: graph mode's plan of the whole function.
    Whole(Box<CompiledModel>, Partition),
    /// Compiled segments and eager islands.
    Split(Box<HybridPlan>),
    /// Every op runs eagerly: the session runs the function as eager mode.
    Eager(Partition),
}

/// The passes of `pipeline` before `convert-graph-to-tensor` (the `graph`
/// stage), in MLIR's pipeline syntax.
pub(crate) fn graph_stage(pipeline: &str) -> String {
    let Some(at) = pipeline.find("convert-graph-to-tensor") else {
        return pipeline.to_string();
    };
    let head = pipeline[..at].trim_end_matches(',');
    if head.ends_with('(') {
        format!("{head}graph-infer-shapes)")
    } else {
        format!("{head})")
    }
}

/// Specializes `function` of `module` to `shapes`, runs the `graph` passes
/// of `pipeline` and splits the function into segments under `rules`.
fn split(
    ctx: &mut Context,
    module: Operation,
    function: &str,
    shapes: &[Vec<usize>],
    pipeline: &str,
    rules: &partition::Rules,
) -> Result<(Operation, Vec<partition::Piece>), SessionError> {
    let func = specialized(ctx, module, function, shapes, &graph_stage(pipeline))?;
    let pieces = partition::pieces(ctx, func, rules);
    Ok((func, pieces))
}

/// Specializes `function` of `module` to `shapes` and runs `passes`;
/// returns the function.
pub(crate) fn specialized(
    ctx: &mut Context,
    module: Operation,
    function: &str,
    shapes: &[Vec<usize>],
    passes: &str,
) -> Result<Operation, SessionError> {
    let compile_error = |ctx: &Context, e| SessionError::Compile(render_compile_error(ctx, e));
    compiled::specialize(ctx, module, function, shapes).map_err(|e| compile_error(ctx, e))?;
    compiled::run_passes(ctx, module, passes).map_err(|e| compile_error(ctx, e))?;
    interp::lookup_function(ctx, module, function)
        .ok_or_else(|| SessionError::NoFunction(function.to_string()))
}

/// Hybrid mode's partition of `function` of `module` at `shapes` (one per
/// input) under `pipeline`'s `graph` passes and `rules`: what
/// `strata compile --emit partition` prints. `module` is changed (it is
/// specialized and its `graph` passes run).
pub fn partition_of(
    ctx: &mut Context,
    module: Operation,
    function: &str,
    shapes: &[Vec<usize>],
    pipeline: &str,
    rules: &partition::Rules,
) -> Result<Partition, SessionError> {
    let (_, pieces) = split(ctx, module, function, shapes, pipeline, rules)?;
    Ok(partition::describe(ctx, &pieces))
}

/// The static shape of a value's ranked tensor type.
fn static_shape(ctx: &Context, v: Value) -> Option<Vec<usize>> {
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::RankedTensor { shape, .. } => {
            shape.iter().map(|&d| usize::try_from(d).ok()).collect()
        }
        _ => None,
    }
}

/// The operands of `func`'s terminator.
fn returned(ctx: &Context, func: Operation) -> Vec<Value> {
    ctx.op_regions(func)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
        .and_then(|b| ctx.block_ops(b).last())
        .map(|ret| ctx.operands(ret).collect())
        .unwrap_or_default()
}

impl Session {
    /// Graph mode's refusal of a model that does not compile whole: `error`
    /// (the first failure, rendered) followed by every op of the partition
    /// at `shapes` that would run eagerly, with its location and reason;
    /// `error` alone when the partition has no island (the failure is not
    /// an op that does not lower).
    pub(crate) fn with_every_island(&self, error: String, shapes: &[Vec<usize>]) -> String {
        let Ok((mut ctx, module)) = (self.source)() else {
            return error;
        };
        let rules = partition::Rules::default();
        let function = &self.options.function;
        let pipeline = &self.options.pipeline;
        let Ok(p) = partition_of(&mut ctx, module, function, shapes, pipeline, &rules) else {
            return error;
        };
        let islands: Vec<String> = p
            .island_ops()
            .map(|w| format!("  {}: {}: {}: {}", w.location, w.op, w.reason, w.message))
            .collect();
        if islands.is_empty() {
            return error;
        }
        let n = islands.len();
        let ops = if n == 1 { "op does" } else { "ops do" };
        format!(
            "{}\nnote: graph mode compiles every op; {n} {ops} not (--mode hybrid runs them eagerly):\n{}",
            error.trim_end(),
            islands.join("\n")
        )
    }

    /// Compiles the model for `shapes` in hybrid mode. Returns what was
    /// made and the segments that fell back to eager mode (their first
    /// op's location and the compile error).
    pub(crate) fn compile_hybrid(
        &self,
        shapes: &[Vec<usize>],
    ) -> Result<(Compiled, Vec<String>), SessionError> {
        let function = self.options.function.clone();
        let pipeline = self.options.pipeline.clone();
        let (mut ctx, module) = (self.source)().map_err(SessionError::Load)?;
        let compile_error = |ctx: &Context, e| SessionError::Compile(render_compile_error(ctx, e));
        let (func, pieces) = split(
            &mut ctx,
            module,
            &function,
            shapes,
            &pipeline,
            &self.options.rules,
        )?;
        let mut described = partition::describe(&ctx, &pieces);
        if pieces.iter().all(|p| p.kind == SegmentKind::Eager) {
            return Ok((Compiled::Eager(described), Vec::new()));
        }
        if pieces.len() == 1 {
            // No island: graph mode's plan of the whole function.
            let (mut whole, m) = (self.source)().map_err(SessionError::Load)?;
            return match compiled::compile_with(
                &mut whole,
                m,
                &function,
                shapes,
                self.threads,
                &pipeline,
            ) {
                Ok(plan) => Ok((Compiled::Whole(Box::new(plan), described), Vec::new())),
                Err(e) if self.options.fallback == Fallback::Eager => {
                    let message = render_compile_error(&whole, e);
                    fall_back(&mut described.segments[0], &message);
                    Ok((Compiled::Eager(described), vec![message]))
                }
                Err(e) => Err(compile_error(&whole, e)),
            };
        }
        // Values the function returns that no segment defines (constants):
        // the last segment returns them too.
        let results = returned(&ctx, func);
        let extra: Vec<Value> = results
            .iter()
            .copied()
            .filter(|&v| {
                ctx.defining_op(v).is_some_and(|d| {
                    ctx.op_name_str(d) == strata_dialects::graph::ConstantOp::NAME
                        && ctx.op_parent_op(d) == Some(func)
                })
            })
            .collect();
        let mut slot_of: HashMap<Value, usize> = HashMap::new();
        if let Some(entry) = ctx
            .op_regions(func)
            .first()
            .and_then(|&r| ctx.region_entry_block(r))
        {
            for (i, a) in ctx.block_args(entry).enumerate() {
                slot_of.insert(a, i);
            }
        }
        let mut slots = slot_of.len();
        let mut outlined = Vec::new();
        for (k, p) in pieces.iter().enumerate() {
            let last = k + 1 == pieces.len();
            let o = partition::outline(
                &mut ctx,
                module,
                func,
                &p.ops,
                if last { &extra } else { &[] },
                &format!("strata_segment_{k}"),
            );
            let mut inputs = Vec::with_capacity(o.inputs.len());
            for v in &o.inputs {
                let s = slot_of.get(v).copied().ok_or_else(|| {
                    SessionError::Load(format!(
                        "hybrid mode: segment {k} reads a value no earlier segment makes"
                    ))
                })?;
                inputs.push(s);
            }
            let mut outputs = Vec::with_capacity(o.outputs.len());
            for &v in &o.outputs {
                slot_of.insert(v, slots);
                outputs.push(slots);
                slots += 1;
            }
            outlined.push((o, inputs, outputs));
        }
        let outputs = results
            .iter()
            .map(|v| {
                slot_of.get(v).copied().ok_or_else(|| {
                    SessionError::Load("hybrid mode: a result that no segment makes".into())
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut parts = Vec::with_capacity(pieces.len());
        let mut fell_back = Vec::new();
        for (k, (p, (o, inputs, outs))) in pieces.iter().zip(outlined).enumerate() {
            let f = interp::lookup_function(&ctx, module, &o.name)
                .ok_or_else(|| SessionError::NoFunction(o.name.clone()))?;
            let work = match p.kind {
                SegmentKind::Eager => Work::Eager(f),
                SegmentKind::Compiled => {
                    let shapes: Option<Vec<Vec<usize>>> =
                        o.inputs.iter().map(|&v| static_shape(&ctx, v)).collect();
                    let shapes = shapes.ok_or_else(|| {
                        SessionError::Load(format!(
                            "hybrid mode: segment {k} takes a value of a dynamic shape"
                        ))
                    })?;
                    // The compile changes the module: it works on a copy.
                    let copy = ctx.clone_op(module, &mut IrMapping::default());
                    match compiled::compile_with(
                        &mut ctx,
                        copy,
                        &o.name,
                        &shapes,
                        self.threads,
                        &pipeline,
                    ) {
                        Ok(plan) => Work::Compiled(Box::new(plan)),
                        Err(e) if self.options.fallback == Fallback::Eager => {
                            let message = render_compile_error(&ctx, e);
                            fall_back(&mut described.segments[k], &message);
                            fell_back.push(message);
                            Work::Eager(f)
                        }
                        Err(e) => return Err(compile_error(&ctx, e)),
                    }
                }
            };
            parts.push(Part {
                work,
                inputs,
                outputs: outs,
            });
        }
        Ok((
            Compiled::Split(Box::new(HybridPlan {
                ctx,
                parts,
                slots,
                outputs,
                partition: described,
            })),
            fell_back,
        ))
    }
}

/// Marks a compiled segment that did not compile as an eager island.
fn fall_back(segment: &mut partition::Segment, message: &str) {
    segment.kind = SegmentKind::Eager;
    segment.why = segment
        .ops
        .iter()
        .map(|op| IslandOp {
            op: op.clone(),
            location: String::new(),
            reason: "compile-failed",
            message: message.to_string(),
        })
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graph_stage_ends_before_the_conversion() {
        assert_eq!(
            graph_stage("builtin.module(graph-infer-shapes,canonicalize,convert-graph-to-tensor,tensor-fuse)"),
            "builtin.module(graph-infer-shapes,canonicalize)"
        );
        assert_eq!(
            graph_stage("builtin.module(convert-graph-to-tensor)"),
            "builtin.module(graph-infer-shapes)"
        );
        assert_eq!(graph_stage("builtin.module(cse)"), "builtin.module(cse)");
    }
}
