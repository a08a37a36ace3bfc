//! Compiling a model for hybrid mode: the partition at the input shapes,
//! its segments outlined and compiled, the eager islands kept to run.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use strata_ir::{Context, IrMapping, Operation, TypeKind, Value};
use strata_recipe::Fallback;

use super::disk::{self, DiskNote, Origin};
use super::hybrid_disk::{Layout, Record};
use super::partition::{self, HybridPlan, IslandOp, Part, Partition, SegmentKind, Work};
use super::{datum_dims, render_compile_error, Plan, PlanKey, Session, SessionError};
use crate::compiled::{self, CompiledModel};
use crate::{interp, Datum, Tensor};

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

    /// Compiles the model for `shapes` (the run's `key`) in hybrid mode;
    /// with `lengths`, the padding of its buckets is masked first and the
    /// function takes the real size of each of these symbols after its
    /// inputs ([`Session::mask_padding`]).
    ///
    /// Returns what was made, the segments that fell back to eager mode
    /// (their first op's location and the compile error) and where the
    /// code came from: with a disk cache, each compiled segment is loaded
    /// from its entry when there is one, and `must_compile` (the session's
    /// miss and budget) is asked before the first that is not.
    pub(crate) fn compile_hybrid(
        &self,
        shapes: &[Vec<usize>],
        lengths: &[String],
        key: &PlanKey,
        notes: &RefCell<Vec<DiskNote>>,
        must_compile: &dyn Fn() -> Result<(), SessionError>,
    ) -> Result<(Compiled, Vec<String>, Origin), SessionError> {
        // The model, its padding masked; and the shapes with the lengths.
        let load = || -> Result<(Context, Operation), SessionError> {
            let (mut ctx, module) = (self.source)().map_err(SessionError::Load)?;
            if !lengths.is_empty() {
                self.mask_padding(&mut ctx, module, shapes, lengths)?;
            }
            Ok((ctx, module))
        };
        let mut shapes = shapes.to_vec();
        shapes.extend(lengths.iter().map(|_| Vec::new()));
        let shapes = &shapes[..];
        // A plan kept on disk: nothing to import, partition or compile.
        if let Some((made, origin)) = self.hybrid_from_disk(shapes, key, notes) {
            return Ok((made, Vec::new(), origin));
        }
        let cleared = Cell::new(false);
        let gate = || -> Result<(), SessionError> {
            if !cleared.get() {
                must_compile()?;
                cleared.set(true);
            }
            Ok(())
        };
        // Loads from disk: their time and how their code was made ready.
        let mut loaded: Vec<(f64, String)> = Vec::new();
        let function = self.options.function.clone();
        let pipeline = self.options.pipeline.clone();
        let (mut ctx, module) = load()?;
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
            gate()?;
            self.keep_hybrid(Layout::Eager, None, &described, shapes, key, notes);
            return Ok((Compiled::Eager(described), Vec::new(), Origin::Compiled));
        }
        if pieces.len() == 1 {
            // No island: graph mode's plan of the whole function.
            let digest = disk::segment_digest(&ctx, func);
            let whole = Whole {
                digest: &digest,
                shapes,
                key,
                notes,
            };
            return self.compile_whole(whole, described, &gate, &load);
        }
        let (outlined, slots, outputs) = outline_all(&mut ctx, module, func, &pieces)?;
        let mut parts = Vec::with_capacity(pieces.len());
        // What the disk cache keeps of each part.
        let mut records = Vec::with_capacity(pieces.len());
        let mut fell_back = Vec::new();
        for (k, (p, (o, inputs, outs))) in pieces.iter().zip(outlined).enumerate() {
            let f = interp::lookup_function(&ctx, module, &o.name)
                .ok_or_else(|| SessionError::NoFunction(o.name.clone()))?;
            let eager = Record::Eager {
                name: o.name.clone(),
            };
            let work = match p.kind {
                SegmentKind::Eager => {
                    records.push(eager);
                    Work::Eager(f)
                }
                SegmentKind::Compiled => {
                    let shapes: Option<Vec<Vec<usize>>> =
                        o.inputs.iter().map(|&v| static_shape(&ctx, v)).collect();
                    let shapes = shapes.ok_or_else(|| {
                        SessionError::Load(format!(
                            "hybrid mode: segment {k} takes a value of a dynamic shape"
                        ))
                    })?;
                    let digest = disk::segment_digest(&ctx, f);
                    let found = self.segment_from_disk(&o.name, &digest, &shapes, key, notes);
                    let compiled = Record::Compiled {
                        name: o.name.clone(),
                        digest: digest.clone(),
                        shapes: shapes.clone(),
                    };
                    if let Some((plan, ms, reason)) = found {
                        records.push(compiled);
                        loaded.push((ms, reason));
                        parts.push(Part {
                            work: Work::Compiled(Box::new(plan)),
                            inputs,
                            outputs: outs,
                        });
                        continue;
                    }
                    gate()?;
                    // The compile changes the module: it works on a copy.
                    let copy = ctx.clone_op(module, &mut IrMapping::default());
                    match self
                        .compile_segment(&mut ctx, copy, &o.name, &digest, &shapes, key, notes)
                    {
                        Ok(plan) => {
                            records.push(compiled);
                            Work::Compiled(Box::new(plan))
                        }
                        Err(e) if self.options.fallback == Fallback::Eager => {
                            let message = render_compile_error(&ctx, e);
                            fall_back(&mut described.segments[k], &message);
                            fell_back.push(message);
                            records.push(eager);
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
        let origin = if cleared.get() {
            Origin::Compiled
        } else {
            let ms = loaded.iter().map(|(ms, _)| ms).sum();
            let n = loaded.len();
            let how = loaded.first().map_or("", |(_, r)| r.as_str());
            Origin::Disk {
                ms,
                reason: format!("{n} compiled segments: {how}"),
            }
        };
        let mut plan = HybridPlan {
            ctx,
            parts,
            slots,
            outputs,
            partition: described,
        };
        // The islands' module is copied out of the plan's context.
        let mut ctx = std::mem::replace(&mut plan.ctx, Context::new());
        let layout = Layout::Split {
            records,
            ctx: &mut ctx,
            module,
        };
        self.keep_hybrid(layout, Some(&plan), &plan.partition, shapes, key, notes);
        plan.ctx = ctx;
        Ok((Compiled::Split(Box::new(plan)), fell_back, origin))
    }
}

impl Session {
    /// [`Session::run_values`] in hybrid mode.
    pub(crate) fn run_hybrid_values(&self, inputs: Vec<Datum>) -> Result<Vec<Datum>, SessionError> {
        let tensors: Option<Vec<Tensor>> = inputs.iter().map(|d| d.as_tensor().cloned()).collect();
        let outputs = match tensors {
            // Tensors in: the path of `run`, but the outputs may be values.
            Some(tensors) => {
                self.state().runs += 1;
                self.check_inputs(&tensors)?;
                if !self.options.buckets.is_empty() {
                    let outputs = self.run_bucketed(&tensors)?;
                    return Ok(outputs.into_iter().map(Datum::Tensor).collect());
                }
                let plan = self.plan_for(&tensors);
                self.run_plan_values(plan, tensors.into_iter().map(Datum::Tensor).collect())?
            }
            None => {
                self.state().runs += 1;
                self.check_count(inputs.len())?;
                for (spec, d) in self.inputs.iter().zip(&inputs) {
                    spec.check_value(d)?;
                }
                let shapes = inputs.iter().map(|d| datum_dims(d).to_vec()).collect();
                let plan = self.plan_at(shapes, &[]);
                self.run_plan_values(plan, inputs)?
            }
        };
        Ok(outputs)
    }

    /// Runs a hybrid-mode `plan` (or eagerly, when the budget is spent and
    /// the recipe says so) on `inputs`.
    fn run_plan_values(
        &self,
        plan: Result<Arc<Plan>, SessionError>,
        inputs: Vec<Datum>,
    ) -> Result<Vec<Datum>, SessionError> {
        let eagerly = |inputs| -> Result<Vec<Datum>, SessionError> {
            let model = self.eager_model()?;
            Ok(interp::run_function_values(
                &model.0,
                model.1,
                inputs,
                Default::default(),
            )?)
        };
        let plan = match plan {
            Err(SessionError::Budget(_))
                if self.options.on_budget_exhausted == strata_recipe::BudgetAction::Eager =>
            {
                return eagerly(inputs);
            }
            other => other?,
        };
        match plan.as_ref() {
            Plan::Compiled(plan, _, _) => {
                let tensors = inputs
                    .into_iter()
                    .map(|d| d.into_tensor())
                    .collect::<Result<Vec<Tensor>, Datum>>()
                    .map_err(|_| SessionError::Load("a compiled plan takes tensors only".into()))?;
                Ok(plan.run(&tensors)?.into_iter().map(Datum::Tensor).collect())
            }
            Plan::Hybrid(plan, _) => plan.run(inputs),
            Plan::Eager(_) => eagerly(inputs),
        }
    }
}

/// A function that compiles whole in hybrid mode: the sha256 of its IR,
/// its inputs' shapes, the run's key and the disk cache's notes.
struct Whole<'a> {
    digest: &'a str,
    shapes: &'a [Vec<usize>],
    key: &'a PlanKey,
    notes: &'a RefCell<Vec<DiskNote>>,
}

impl Session {
    /// [`Session::compile_hybrid`] of a function without islands
    /// (`described`): its entry on disk, else `gate`, then a compile of the
    /// model `load` gives.
    fn compile_whole(
        &self,
        whole: Whole<'_>,
        mut described: Partition,
        gate: &dyn Fn() -> Result<(), SessionError>,
        load: &dyn Fn() -> Result<(Context, Operation), SessionError>,
    ) -> Result<(Compiled, Vec<String>, Origin), SessionError> {
        let function = &self.options.function;
        let Whole {
            digest,
            shapes,
            key,
            notes,
        } = whole;
        let whole = Layout::Whole {
            digest: digest.to_string(),
        };
        if let Some((plan, ms, reason)) =
            self.segment_from_disk(function, digest, shapes, key, notes)
        {
            self.keep_hybrid(whole, None, &described, shapes, key, notes);
            let origin = Origin::Disk { ms, reason };
            return Ok((
                Compiled::Whole(Box::new(plan), described),
                Vec::new(),
                origin,
            ));
        }
        gate()?;
        let (mut ctx, module) = load()?;
        match self.compile_segment(&mut ctx, module, function, digest, shapes, key, notes) {
            Ok(plan) => {
                self.keep_hybrid(whole, None, &described, shapes, key, notes);
                Ok((
                    Compiled::Whole(Box::new(plan), described),
                    Vec::new(),
                    Origin::Compiled,
                ))
            }
            Err(e) if self.options.fallback == Fallback::Eager => {
                let message = render_compile_error(&ctx, e);
                fall_back(&mut described.segments[0], &message);
                self.keep_hybrid(Layout::Eager, None, &described, shapes, key, notes);
                Ok((Compiled::Eager(described), vec![message], Origin::Compiled))
            }
            Err(e) => Err(SessionError::Compile(render_compile_error(&ctx, e))),
        }
    }
}

/// The pieces of `func` outlined into functions of `module`
/// (`strata_segment_<k>`), each with the value slots it reads and writes;
/// the number of slots (the function's inputs first) and the slots of
/// its results.
#[allow(clippy::type_complexity)]
fn outline_all(
    ctx: &mut Context,
    module: Operation,
    func: Operation,
    pieces: &[partition::Piece],
) -> Result<
    (
        Vec<(partition::Outlined, Vec<usize>, Vec<usize>)>,
        usize,
        Vec<usize>,
    ),
    SessionError,
> {
    // Values the function returns that no segment defines (constants):
    // the last segment returns them too.
    let results = returned(ctx, func);
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
            ctx,
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
    Ok((outlined, slots, outputs))
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
