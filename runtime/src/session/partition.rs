//! Hybrid mode: the partition of a function into compiled segments and
//! eager islands, and the plan that runs them.
//!
//! After the function is specialized to the input shapes and the recipe's
//! `graph` passes ran, each top-level op is assigned: compiled when the
//! recipe lets it (`capture.exclude_ops`, `capture.include_ops`) and
//! `convert-graph-to-tensor` lowers it, else eager with a reason code.
//! Consecutive ops of one kind form a segment (program order, so values
//! only flow forward); a compiled segment of fewer than
//! `capture.min_segment_ops` ops joins its eager neighbours. Each segment
//! is outlined into a function of its own (constants it uses are copied
//! in); compiled ones are compiled like a graph-mode model, eager ones run
//! in the interpreter, and values cross at the boundaries.

use std::collections::HashSet;

use serde_json::{json, Value as Json};
use strata_dialects::func::{FuncOp, ReturnOp};
use strata_ir::{Context, IrMapping, Operation, Value, WalkOrder};
use strata_lowering::graph_to_tensor::check_lowerable;

use crate::compiled::CompiledModel;
use crate::{interp, Datum, Tensor};

use super::SessionError;

/// What decides which ops may compile (the recipe's `capture` section).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Ops that may compile (empty: all). Names match with or without the
    /// dialect prefix, in any case, ignoring `_` (`layer_norm`,
    /// `LayerNorm`, `graph.layer_norm`).
    pub include_ops: Vec<String>,
    /// Ops that run eagerly.
    pub exclude_ops: Vec<String>,
    /// The fewest ops of a compiled segment (at least 1).
    pub min_segment_ops: usize,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            include_ops: Vec::new(),
            exclude_ops: Vec::new(),
            min_segment_ops: 1,
        }
    }
}

/// Whether a segment compiles or runs eagerly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentKind {
    /// Compiled into a plan of kernels.
    Compiled,
    /// Run by the interpreter.
    Eager,
}

impl SegmentKind {
    /// `compiled` or `eager`.
    pub fn name(self) -> &'static str {
        match self {
            SegmentKind::Compiled => "compiled",
            SegmentKind::Eager => "eager",
        }
    }
}

/// One op of an eager island and why it runs eagerly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IslandOp {
    /// The op's name (`graph.cumsum`).
    pub op: String,
    /// Its location (`model.onnx: node 'x'`, `file:line:col`).
    pub location: String,
    /// The reason code: `excluded-by-recipe`, `not-included`,
    /// `no-lowering`, `data-dependent-shape`, `dtype`, `min-segment-ops`,
    /// `compile-failed`.
    pub reason: &'static str,
    /// What the lowering (or the compile) said.
    pub message: String,
}

/// One segment of a partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Compiled or eager.
    pub kind: SegmentKind,
    /// Its ops by name, in order (constants not listed).
    pub ops: Vec<String>,
    /// For an eager island: why each op runs eagerly.
    pub why: Vec<IslandOp>,
    /// The estimated FLOPs and bytes of its ops ([`super::cost`]).
    pub cost: super::cost::Cost,
}

/// The segments of a function, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Partition {
    /// The segments.
    pub segments: Vec<Segment>,
}

impl Partition {
    /// Ops in all segments (constants not counted).
    pub fn ops_total(&self) -> usize {
        self.segments.iter().map(|s| s.ops.len()).sum()
    }

    /// Ops in compiled segments.
    pub fn ops_compiled(&self) -> usize {
        self.segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Compiled)
            .map(|s| s.ops.len())
            .sum()
    }

    /// The estimated cost of all segments.
    pub fn cost_total(&self) -> super::cost::Cost {
        self.segments.iter().map(|s| s.cost).sum()
    }

    /// The estimated cost of the compiled segments.
    pub fn cost_compiled(&self) -> super::cost::Cost {
        self.segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Compiled)
            .map(|s| s.cost)
            .sum()
    }

    /// The fraction of the estimated FLOPs and of the bytes in compiled
    /// segments (1 when there is nothing to count).
    pub fn compiled_fractions(&self) -> (f64, f64) {
        let (c, t) = (self.cost_compiled(), self.cost_total());
        let fraction = |a: u64, b: u64| if b == 0 { 1.0 } else { a as f64 / b as f64 };
        (fraction(c.flops, t.flops), fraction(c.bytes, t.bytes))
    }

    /// Every op of every eager island, with its reason.
    pub fn island_ops(&self) -> impl Iterator<Item = &IslandOp> {
        self.segments.iter().flat_map(|s| s.why.iter())
    }

    /// A hash of the partition (FNV-1a, hex) over each segment's kind, ops
    /// and reason codes: two partitions with the same segments hash alike,
    /// wherever the model's file lies.
    pub fn hash(&self) -> String {
        let mut text = String::new();
        for s in &self.segments {
            text.push_str(s.kind.name());
            for (i, op) in s.ops.iter().enumerate() {
                let reason = s.why.get(i).map_or("", |w| w.reason);
                text.push_str(&format!(" {op}:{reason}"));
            }
            text.push('\n');
        }
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// The partition as text: a line per segment, a line per island op
    /// (`location: op: reason: message`), the coverage and the hash.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (i, s) in self.segments.iter().enumerate() {
            let plural = if s.ops.len() == 1 { "" } else { "s" };
            out.push_str(&format!(
                "segment {i}: {}, {} op{plural}: {}\n",
                s.kind.name(),
                s.ops.len(),
                s.ops.join(", ")
            ));
            for w in &s.why {
                out.push_str(&format!(
                    "  {}: {}: {}: {}\n",
                    w.location, w.op, w.reason, w.message
                ));
            }
        }
        let (flops, bytes) = self.compiled_fractions();
        out.push_str(&format!(
            "coverage: {} of {} ops compiled, {:.1} % of the estimated FLOPs ({} of {}), {:.1} % of the bytes\npartition: {}\n",
            self.ops_compiled(),
            self.ops_total(),
            flops * 100.0,
            self.cost_compiled().flops,
            self.cost_total().flops,
            bytes * 100.0,
            self.hash()
        ));
        out
    }

    fn segments_json(&self) -> Json {
        self.segments
            .iter()
            .map(|s| {
                let mut j = json!({
                    "kind": s.kind.name(),
                    "ops": s.ops,
                    "flops": s.cost.flops,
                    "bytes": s.cost.bytes,
                });
                if !s.why.is_empty() {
                    j["reasons"] = s
                        .why
                        .iter()
                        .map(|w| {
                            json!({
                                "op": w.op,
                                "location": w.location,
                                "reason": w.reason,
                                "message": w.message,
                            })
                        })
                        .collect();
                }
                j
            })
            .collect()
    }

    /// The partition as JSON: `segments` (each `kind`, `ops`, its estimated
    /// `flops` and `bytes`, and for an
    /// island `reasons` with each op's `op`, `location`, `reason`,
    /// `message`), `coverage` (`ops_compiled`, `ops_total`, the estimated
    /// `flops_compiled`, `flops_total` and `flops_compiled_fraction`, and
    /// the same of `bytes`) and `hash`.
    pub fn to_json(&self) -> Json {
        let (c, t) = (self.cost_compiled(), self.cost_total());
        let (flops, bytes) = self.compiled_fractions();
        json!({
            "segments": self.segments_json(),
            "coverage": {
                "ops_compiled": self.ops_compiled(),
                "ops_total": self.ops_total(),
                "flops_compiled": c.flops,
                "flops_total": t.flops,
                "flops_compiled_fraction": flops,
                "bytes_compiled": c.bytes,
                "bytes_total": t.bytes,
                "bytes_compiled_fraction": bytes,
            },
            "hash": self.hash(),
        })
    }
}

/// Every reason code an island op may have ([`IslandOp::reason`]).
const REASONS: [&str; 7] = [
    "excluded-by-recipe",
    "not-included",
    "no-lowering",
    "data-dependent-shape",
    "dtype",
    "min-segment-ops",
    "compile-failed",
];

impl Partition {
    /// The partition [`Partition::to_json`] described (its `segments`);
    /// `None` for JSON that is not one.
    pub fn from_json(j: &Json) -> Option<Partition> {
        let segment = |s: &Json| -> Option<Segment> {
            let kind = match s["kind"].as_str()? {
                "compiled" => SegmentKind::Compiled,
                "eager" => SegmentKind::Eager,
                _ => return None,
            };
            let text = |v: &Json| v.as_str().map(str::to_string);
            let ops = s["ops"]
                .as_array()?
                .iter()
                .map(text)
                .collect::<Option<_>>()?;
            let why = match s.get("reasons") {
                None => Vec::new(),
                Some(r) => r
                    .as_array()?
                    .iter()
                    .map(|w| {
                        let code = w["reason"].as_str()?;
                        Some(IslandOp {
                            op: text(&w["op"])?,
                            location: text(&w["location"])?,
                            reason: REASONS.iter().find(|r| **r == code)?,
                            message: text(&w["message"])?,
                        })
                    })
                    .collect::<Option<_>>()?,
            };
            let cost = super::cost::Cost {
                flops: s["flops"].as_u64()?,
                bytes: s["bytes"].as_u64()?,
            };
            Some(Segment {
                kind,
                ops,
                why,
                cost,
            })
        };
        let segments = j["segments"]
            .as_array()?
            .iter()
            .map(segment)
            .collect::<Option<_>>()?;
        Some(Partition { segments })
    }
}

/// `layer_norm`, `LayerNorm` and `graph.layer_norm` alike.
fn normalized(name: &str) -> String {
    let base = name.rsplit_once('.').map_or(name, |(_, b)| b);
    base.to_ascii_lowercase().replace('_', "")
}

/// Why `op` runs eagerly, if it does.
fn assign(ctx: &mut Context, op: Operation, rules: &Rules) -> Option<(&'static str, String)> {
    let name = ctx.op_name_str(op).to_string();
    let n = normalized(&name);
    if rules.exclude_ops.iter().any(|e| normalized(e) == n) {
        return Some(("excluded-by-recipe", "is in capture.exclude_ops".into()));
    }
    if !rules.include_ops.is_empty() && !rules.include_ops.iter().any(|e| normalized(e) == n) {
        return Some(("not-included", "is not in capture.include_ops".into()));
    }
    if !name.starts_with("graph.") {
        return Some(("no-lowering", "is not a graph op".into()));
    }
    check_lowerable(ctx, op)
        .err()
        .map(|(kind, message)| (kind.code(), message))
}

/// A segment before it is outlined: its ops.
pub(crate) struct Piece {
    pub(crate) kind: SegmentKind,
    pub(crate) ops: Vec<Operation>,
    pub(crate) why: Vec<IslandOp>,
}

fn island_op(ctx: &Context, op: Operation, reason: &'static str, message: String) -> IslandOp {
    IslandOp {
        op: ctx.op_name_str(op).to_string(),
        location: strata_ir::diagnostics::describe_location(ctx, ctx.op_loc(op)),
        reason,
        message,
    }
}

/// The body ops of `func` that a partition assigns: all but constants
/// (copied into each segment that uses them) and the terminator.
pub(crate) fn assignable(ctx: &Context, func: Operation) -> Vec<Operation> {
    let Some(body) = ctx
        .op_regions(func)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return Vec::new();
    };
    ctx.block_ops(body)
        .filter(|&o| {
            let name = ctx.op_name_str(o);
            name != strata_dialects::graph::ConstantOp::NAME && name != "func.return"
        })
        .collect()
}

/// The segments of `func` under `rules` (its types as inferred).
pub(crate) fn pieces(ctx: &mut Context, func: Operation, rules: &Rules) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    for op in assignable(ctx, func) {
        let why = assign(ctx, op, rules).map(|(r, m)| island_op(ctx, op, r, m));
        let kind = if why.is_some() {
            SegmentKind::Eager
        } else {
            SegmentKind::Compiled
        };
        match out.last_mut().filter(|p| p.kind == kind) {
            Some(p) => p.ops.push(op),
            None => out.push(Piece {
                kind,
                ops: vec![op],
                why: Vec::new(),
            }),
        }
        if let (Some(w), Some(p)) = (why, out.last_mut()) {
            p.why.push(w);
        }
    }
    // Tiny compiled segments join their eager neighbours.
    let min = rules.min_segment_ops.max(1);
    for p in &mut out {
        if p.kind == SegmentKind::Compiled && p.ops.len() < min {
            p.kind = SegmentKind::Eager;
            let n = p.ops.len();
            p.why = p
                .ops
                .iter()
                .map(|&o| {
                    island_op(
                        ctx,
                        o,
                        "min-segment-ops",
                        format!("is in a compiled segment of {n} op(s), below capture.min_segment_ops ({min})"),
                    )
                })
                .collect();
        }
    }
    let mut merged: Vec<Piece> = Vec::new();
    for p in out {
        match merged.last_mut() {
            Some(last) if last.kind == p.kind => {
                last.ops.extend(p.ops);
                last.why.extend(p.why);
            }
            _ => merged.push(p),
        }
    }
    merged
}

/// The segment of `pieces` as reported.
pub(crate) fn describe(ctx: &Context, pieces: &[Piece]) -> Partition {
    Partition {
        segments: pieces
            .iter()
            .map(|p| Segment {
                kind: p.kind,
                ops: p
                    .ops
                    .iter()
                    .map(|&o| ctx.op_name_str(o).to_string())
                    .collect(),
                why: p.why.clone(),
                cost: p.ops.iter().map(|&o| super::cost::op_cost(ctx, o)).sum(),
            })
            .collect(),
    }
}

/// The op of `func`'s body that is or contains `op`.
fn top_level(ctx: &Context, func: Operation, mut op: Operation) -> Option<Operation> {
    loop {
        match ctx.op_parent_op(op) {
            Some(p) if p == func => return Some(op),
            Some(p) => op = p,
            None => return None,
        }
    }
}

/// The op of `func`'s body that defines `v` or contains its definition;
/// `None` for an argument of `func`.
fn defined_by(ctx: &Context, func: Operation, v: Value) -> Option<Operation> {
    match v {
        Value::Result(op, _) => top_level(ctx, func, op),
        Value::Argument(block, _) => {
            let owner = ctx.block_parent_op(block)?;
            if owner == func {
                None
            } else {
                top_level(ctx, func, owner)
            }
        }
    }
}

/// A segment outlined into a function: its name, the values of the
/// original function it takes and the ones it gives back.
pub(crate) struct Outlined {
    pub(crate) name: String,
    pub(crate) inputs: Vec<Value>,
    pub(crate) outputs: Vec<Value>,
}

/// Outlines `ops` (in order, of `func`'s body) into `func.func @name` in
/// `module`: its arguments are the values they use from outside (but
/// constants, which are copied in), its results the values used after
/// them, and `extra` (values returned by `func` that no segment defines).
pub(crate) fn outline(
    ctx: &mut Context,
    module: Operation,
    func: Operation,
    ops: &[Operation],
    extra: &[Value],
    name: &str,
) -> Outlined {
    let inside: HashSet<Operation> = ops.iter().copied().collect();
    let is_constant = |ctx: &Context, op: Operation| {
        ctx.op_name_str(op) == strata_dialects::graph::ConstantOp::NAME
    };
    let mut inputs: Vec<Value> = Vec::new();
    let mut constants: Vec<Operation> = Vec::new();
    let mut take = |ctx: &Context, v: Value, inputs: &mut Vec<Value>| match defined_by(ctx, func, v)
    {
        Some(t) if inside.contains(&t) => {}
        Some(t) if is_constant(ctx, t) => {
            if !constants.contains(&t) {
                constants.push(t);
            }
        }
        _ => {
            if !inputs.contains(&v) {
                inputs.push(v);
            }
        }
    };
    for &o in ops {
        let nested = ctx.nested_ops(o, WalkOrder::PreOrder);
        for n in std::iter::once(o).chain(nested) {
            for v in ctx.operands(n).collect::<Vec<_>>() {
                take(ctx, v, &mut inputs);
            }
        }
    }
    for &v in extra {
        take(ctx, v, &mut inputs);
    }
    let mut outputs: Vec<Value> = Vec::new();
    for &o in ops {
        for r in ctx.results(o).collect::<Vec<_>>() {
            let used_after = ctx
                .uses(r)
                .any(|u| top_level(ctx, func, u.op).is_none_or(|t| !inside.contains(&t)));
            if used_after {
                outputs.push(r);
            }
        }
    }
    for &v in extra {
        if !outputs.contains(&v) {
            outputs.push(v);
        }
    }
    let loc = ctx.op_loc(func);
    let arg_types: Vec<_> = inputs.iter().map(|&v| ctx.value_type(v)).collect();
    let result_types: Vec<_> = outputs.iter().map(|&v| ctx.value_type(v)).collect();
    let f = FuncOp::build_with_entry_block(ctx, loc, name, &arg_types, &result_types);
    let mut mapping = IrMapping::default();
    if let Some(entry) = f.entry_block(ctx) {
        for (i, &v) in inputs.iter().enumerate() {
            let arg = f.arguments(ctx)[i];
            mapping.map_value(v, arg);
        }
        for &c in constants.iter().chain(ops) {
            let copy = ctx.clone_op(c, &mut mapping);
            ctx.append_op(entry, copy);
        }
        let returned: Vec<Value> = outputs.iter().map(|&v| mapping.lookup_value(v)).collect();
        let ret = ReturnOp::build(ctx, loc, &returned);
        ctx.append_op(entry, ret.op());
    }
    strata_ir::ModuleOp(module).push(ctx, f.op());
    Outlined {
        name: name.to_string(),
        inputs,
        outputs,
    }
}

/// What one part of a hybrid plan runs.
pub(crate) enum Work {
    /// A compiled segment.
    Compiled(Box<CompiledModel>),
    /// An eager island: a function of the plan's module.
    Eager(Operation),
}

/// One part: its work, and the slots it reads and writes.
pub(crate) struct Part {
    pub(crate) work: Work,
    pub(crate) inputs: Vec<usize>,
    pub(crate) outputs: Vec<usize>,
}

/// A partitioned function ready to run: its parts in order over a table
/// of value slots (the function's inputs first).
pub(crate) struct HybridPlan {
    /// The module of the eager islands.
    pub(crate) ctx: Context,
    pub(crate) parts: Vec<Part>,
    pub(crate) slots: usize,
    /// The slots of the function's results.
    pub(crate) outputs: Vec<usize>,
    /// The partition, as reported.
    pub(crate) partition: Partition,
}

impl HybridPlan {
    /// Runs the parts in order on `inputs`.
    pub(crate) fn run(&self, inputs: Vec<Datum>) -> Result<Vec<Datum>, SessionError> {
        // The last part that reads each slot: it takes the value instead of
        // copying it (a result of the function is never taken).
        let mut last = vec![usize::MAX; self.slots];
        for (i, p) in self.parts.iter().enumerate() {
            for &s in &p.inputs {
                last[s] = i;
            }
        }
        for &s in &self.outputs {
            last[s] = usize::MAX;
        }
        let mut slots: Vec<Option<Datum>> = Vec::with_capacity(self.slots);
        slots.extend(inputs.into_iter().map(Some));
        slots.resize_with(self.slots, || None);
        let missing = |s: usize| {
            SessionError::Load(format!("hybrid plan: slot {s} read before it is written"))
        };
        for (i, part) in self.parts.iter().enumerate() {
            let mut args = Vec::with_capacity(part.inputs.len());
            for &s in &part.inputs {
                let v = if last[s] == i {
                    slots[s].take()
                } else {
                    slots[s].clone()
                };
                args.push(v.ok_or_else(|| missing(s))?);
            }
            let results: Vec<Datum> = match &part.work {
                Work::Compiled(plan) => {
                    let tensors = args
                        .into_iter()
                        .map(|d| match d {
                            Datum::Tensor(t) => Ok(t),
                            _ => Err(SessionError::Load(
                                "hybrid plan: a compiled segment takes a value that is not a tensor".into(),
                            )),
                        })
                        .collect::<Result<Vec<Tensor>, _>>()?;
                    plan.run(&tensors)?.into_iter().map(Datum::Tensor).collect()
                }
                Work::Eager(f) => {
                    interp::run_function_values(&self.ctx, *f, args, Default::default())?
                }
            };
            for (&s, v) in part.outputs.iter().zip(results) {
                slots[s] = Some(v);
            }
        }
        self.outputs
            .iter()
            .map(|&s| slots[s].clone().ok_or_else(|| missing(s)))
            .collect()
    }

    /// Launches of the compiled segments.
    pub(crate) fn launches(&self) -> usize {
        self.parts
            .iter()
            .map(|p| match &p.work {
                Work::Compiled(c) => c.launches(),
                Work::Eager(_) => 0,
            })
            .sum()
    }

    /// Bytes of the compiled segments' arenas.
    pub(crate) fn arena_bytes(&self) -> usize {
        self.parts
            .iter()
            .map(|p| match &p.work {
                Work::Compiled(c) => c.arena_bytes(),
                Work::Eager(_) => 0,
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partition_reads_back_from_its_json() {
        let p = Partition {
            segments: vec![
                Segment {
                    kind: SegmentKind::Compiled,
                    ops: vec!["graph.relu".into()],
                    why: Vec::new(),
                    cost: super::super::cost::Cost {
                        flops: 12,
                        bytes: 96,
                    },
                },
                Segment {
                    kind: SegmentKind::Eager,
                    ops: vec!["graph.cumsum".into()],
                    why: vec![IslandOp {
                        op: "graph.cumsum".into(),
                        location: "model.mlir:5:8".into(),
                        reason: "no-lowering",
                        message: "cannot be lowered to tensor yet".into(),
                    }],
                    cost: super::super::cost::Cost {
                        flops: 12,
                        bytes: 104,
                    },
                },
            ],
        };
        assert_eq!(Partition::from_json(&p.to_json()), Some(p));
        let mut bad = Partition::default().to_json();
        bad["segments"] = json!([{"kind": "eager", "ops": [], "flops": 1, "bytes": 1,
            "reasons": [{"op": "x", "location": "", "reason": "made-up", "message": ""}]}]);
        assert_eq!(Partition::from_json(&bad), None);
    }

    #[test]
    fn op_names_match_loosely() {
        assert_eq!(normalized("graph.layer_norm"), "layernorm");
        assert_eq!(normalized("LayerNorm"), "layernorm");
        assert_eq!(normalized("layer_norm"), "layernorm");
    }
}
