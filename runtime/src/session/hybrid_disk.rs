//! Hybrid mode's plans in the plan cache on disk.
//!
//! Each compiled segment is an entry of its own (`disk.rs`). This keeps,
//! beside them, the plan that ties them together, so that a warm start
//! neither imports the model nor runs the `graph` passes nor partitions
//! it: an entry holding the partition, the parts in order (a compiled
//! segment named by the sha256 of its IR and its inputs' shapes, an eager
//! island by its function) with the value slots each reads and writes,
//! and the islands' functions as MLIR text. It is found by the run's input
//! shapes and the session's capture rules and fallback; a plan with
//! buckets is not kept (its padding proof needs the model).

use std::cell::RefCell;
use std::time::Instant;

use serde_json::{json, Value as Json};
use strata_artifact::{Artifact, Manifest};
use strata_ir::{AttrKind, Context, IrMapping, Operation, SourceBuffer, WalkOrder};

use super::disk::{DiskNote, Origin, KEY_SECTION};
use super::hybrid::Compiled;
use super::partition::{HybridPlan, Part, Partition, Work};
use super::{EventKind, PlanKey, Session};
use crate::artifact::{move_to_section, section_of, HOST_TARGET};
use crate::interp;

/// The section of an entry holding the layout (JSON).
const LAYOUT_SECTION: &str = "hybrid/layout.json";
/// The section holding the eager islands' functions (MLIR).
const ISLANDS_SECTION: &str = "hybrid/islands.mlir";
/// What the sections of the islands' large constants are named after
/// (`hybrid/const/<i>`: raw bytes, as a plan's constants are kept).
const CONSTANT_SECTIONS: &str = "hybrid/const/";

/// What the disk cache keeps of one part of a hybrid plan.
pub(crate) enum Record {
    /// A compiled segment: its function, the sha256 of its IR and its
    /// inputs' shapes (its own entry's key).
    Compiled {
        name: String,
        digest: String,
        shapes: Vec<Vec<usize>>,
    },
    /// An eager island: its function.
    Eager { name: String },
}

/// A hybrid plan to keep, by how it was made.
pub(crate) enum Layout<'a> {
    /// Compiled segments and eager islands: what each part is, and the
    /// module (in `ctx`) holding the islands' functions.
    Split {
        records: Vec<Record>,
        ctx: &'a mut Context,
        module: Operation,
    },
    /// The function compiled whole, with the sha256 of its IR.
    Whole { digest: String },
    /// Every op eager.
    Eager,
}

impl Session {
    /// The key of the hybrid plan for `shapes`; `None` where plans are not
    /// kept (no disk cache, buckets).
    fn hybrid_key(&self, shapes: &[Vec<usize>]) -> Option<String> {
        let disk = self.disk.as_ref()?;
        if !self.options.buckets.is_empty() {
            return None;
        }
        Some(format!(
            "{}hybrid plan\nrules {:?}\nfallback {:?}\nshapes {shapes:?}\n",
            disk.prefix, self.options.rules, self.options.fallback
        ))
    }

    /// Keeps the hybrid plan `layout` (of `partition`, wired as `plan`
    /// says for a split one) made for `shapes` (the run's `key`) on disk;
    /// best effort (a plan not kept is partitioned again, its segments
    /// still found).
    pub(crate) fn keep_hybrid(
        &self,
        layout: Layout<'_>,
        plan: Option<&HybridPlan>,
        partition: &Partition,
        shapes: &[Vec<usize>],
        key: &PlanKey,
        notes: &RefCell<Vec<DiskNote>>,
    ) {
        let (Some(disk), Some(text)) = (self.disk.as_ref(), self.hybrid_key(shapes)) else {
            return;
        };
        let note = |kind, reason: String| {
            notes.borrow_mut().push(DiskNote {
                kind,
                key: key.clone(),
                reason,
                ms: 0.0,
            });
        };
        let mut sections = Vec::new();
        let mut layout_json = match layout {
            Layout::Split {
                records,
                ctx,
                module,
            } => {
                let Some(plan) = plan else {
                    return;
                };
                match islands_text(ctx, module, &records, &mut sections) {
                    Some(islands) => sections.push((ISLANDS_SECTION.to_string(), islands)),
                    None => {
                        let why = "hybrid plan: not kept on disk: an island calls custom ops";
                        return note(EventKind::DiskSkipped, why.into());
                    }
                }
                let parts: Vec<Json> = records
                    .iter()
                    .zip(&plan.parts)
                    .map(|(r, p)| {
                        let mut j = match r {
                            Record::Compiled {
                                name,
                                digest,
                                shapes,
                            } => json!({"compiled": name, "digest": digest, "shapes": shapes}),
                            Record::Eager { name } => json!({ "eager": name }),
                        };
                        j["inputs"] = json!(p.inputs);
                        j["outputs"] = json!(p.outputs);
                        j
                    })
                    .collect();
                json!({"kind": "split", "parts": parts, "slots": plan.slots, "outputs": plan.outputs})
            }
            Layout::Whole { digest } => json!({"kind": "whole", "digest": digest}),
            Layout::Eager => json!({"kind": "eager"}),
        };
        layout_json["partition"] = partition.to_json();
        sections.push((
            LAYOUT_SECTION.to_string(),
            layout_json.to_string().into_bytes(),
        ));
        sections.push((KEY_SECTION.to_string(), text.clone().into_bytes()));
        let mut manifest = Manifest::new(HOST_TARGET);
        manifest.model = self.options.model_name.clone();
        manifest.model_sha256 = disk.model_sha256.clone();
        manifest.function = self.options.function.clone();
        manifest.recipe_sha256 = self.options.recipe_sha256.clone();
        let artifact = Artifact::new(manifest, sections);
        match disk.write(&text, &artifact) {
            Ok(bytes) => note(EventKind::DiskWrite, format!("hybrid plan: {bytes} bytes")),
            Err(why) => note(EventKind::DiskWriteFailed, format!("hybrid plan: {why}")),
        }
    }

    /// The hybrid plan for `shapes` (the run's `key`) from the disk cache:
    /// its layout read, its islands parsed, each compiled segment loaded
    /// from its entry. `None` when there is none (or a segment's entry is
    /// gone: the plan is made again, finding the others); a damaged entry
    /// is removed and noted.
    pub(crate) fn hybrid_from_disk(
        &self,
        shapes: &[Vec<usize>],
        key: &PlanKey,
        notes: &RefCell<Vec<DiskNote>>,
    ) -> Option<(Compiled, Origin)> {
        let disk = self.disk.as_ref()?;
        let text = self.hybrid_key(shapes)?;
        let start = Instant::now();
        let read = |artifact: &Artifact, shown: &str| read_layout(artifact, shown);
        let found = disk.read(&text, read).and_then(|entry| match entry {
            None => Ok(None),
            Some((_, shown, (layout, islands))) => {
                self.assemble(&layout, islands, shapes, key, notes, &shown)
            }
        });
        match found {
            Ok(Some((made, how))) => {
                let ms = start.elapsed().as_secs_f64() * 1e3;
                Some((made, Origin::Disk { ms, reason: how }))
            }
            Ok(None) => None,
            Err(why) => {
                disk.reject(&text, key, why, notes);
                None
            }
        }
    }

    /// The plan a kept `layout` describes, with what its segments' loads
    /// said; `Ok(None)` when a segment's entry is missing.
    fn assemble(
        &self,
        layout: &Json,
        islands: Option<(Context, Operation)>,
        shapes: &[Vec<usize>],
        key: &PlanKey,
        notes: &RefCell<Vec<DiskNote>>,
        shown: &str,
    ) -> Result<Option<(Compiled, String)>, String> {
        let bad = |what: &str| format!("{shown}: error: the hybrid plan's layout {what}");
        let partition =
            Partition::from_json(&layout["partition"]).ok_or_else(|| bad("has no partition"))?;
        match layout["kind"].as_str() {
            Some("eager") => Ok(Some((
                Compiled::Eager(partition),
                "hybrid plan: every op eager".into(),
            ))),
            Some("whole") => {
                let digest = layout["digest"]
                    .as_str()
                    .ok_or_else(|| bad("has no digest"))?;
                let function = &self.options.function;
                Ok(self
                    .segment_from_disk(function, digest, shapes, key, notes)
                    .map(|(plan, _, how)| {
                        (
                            Compiled::Whole(Box::new(plan), partition),
                            format!("hybrid plan, compiled whole: {how}"),
                        )
                    }))
            }
            Some("split") => {
                let (ctx, module) = islands.ok_or_else(|| bad("has no islands"))?;
                let slots = as_index(&layout["slots"]).ok_or_else(|| bad("has no slots"))?;
                let outputs = indices(&layout["outputs"]).ok_or_else(|| bad("has no outputs"))?;
                let records = layout["parts"]
                    .as_array()
                    .ok_or_else(|| bad("has no parts"))?;
                let mut parts = Vec::with_capacity(records.len());
                let mut how = String::new();
                for r in records {
                    let inputs =
                        indices(&r["inputs"]).ok_or_else(|| bad("has a part without inputs"))?;
                    let outs =
                        indices(&r["outputs"]).ok_or_else(|| bad("has a part without outputs"))?;
                    let in_range = |s: &[usize]| s.iter().all(|&i| i < slots);
                    if !in_range(&inputs) || !in_range(&outs) || !in_range(&outputs) {
                        return Err(bad("reads or writes a slot past its table"));
                    }
                    let work = if let Some(name) = r["eager"].as_str() {
                        let f = interp::lookup_function(&ctx, module, name)
                            .ok_or_else(|| bad(&format!("names a missing island @{name}")))?;
                        Work::Eager(f)
                    } else {
                        let name = r["compiled"]
                            .as_str()
                            .ok_or_else(|| bad("has a part of no kind"))?;
                        let digest = r["digest"]
                            .as_str()
                            .ok_or_else(|| bad("has a segment without its digest"))?;
                        let seg_shapes: Vec<Vec<usize>> = r["shapes"]
                            .as_array()
                            .and_then(|a| a.iter().map(indices).collect())
                            .ok_or_else(|| bad("has a segment without its shapes"))?;
                        let Some((plan, _, loaded)) =
                            self.segment_from_disk(name, digest, &seg_shapes, key, notes)
                        else {
                            return Ok(None);
                        };
                        how = loaded;
                        Work::Compiled(Box::new(plan))
                    };
                    parts.push(Part {
                        work,
                        inputs,
                        outputs: outs,
                    });
                }
                let n = parts
                    .iter()
                    .filter(|p| matches!(p.work, Work::Compiled(_)))
                    .count();
                let plan = HybridPlan {
                    ctx,
                    parts,
                    slots,
                    outputs,
                    partition,
                };
                Ok(Some((
                    Compiled::Split(Box::new(plan)),
                    format!("hybrid plan, {n} compiled segments: {how}"),
                )))
            }
            _ => Err(bad("is of no kind")),
        }
    }
}

/// The layout of an entry and its islands parsed (reading only: this runs
/// while the entry's checksum is computed).
fn read_layout(
    artifact: &Artifact,
    shown: &str,
) -> Result<(Json, Option<(Context, Operation)>), String> {
    let layout = artifact
        .section(LAYOUT_SECTION)
        .ok_or_else(|| format!("{shown}: error: the entry has no section '{LAYOUT_SECTION}'"))?;
    let layout: Json = serde_json::from_slice(layout)
        .map_err(|e| format!("{shown}: error: the hybrid plan's layout: {e}"))?;
    let Some(islands) = artifact.section(ISLANDS_SECTION) else {
        return Ok((layout, None));
    };
    let islands = std::str::from_utf8(islands)
        .map_err(|_| format!("{shown}: error: the islands are not UTF-8"))?;
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    interp::install_folding(&mut ctx);
    let buffer = SourceBuffer::new(format!("{shown}:{ISLANDS_SECTION}"), islands.to_string());
    let module = strata_ir::parser::parse_source(&mut ctx, &buffer).map_err(|d| {
        let first = d.first().map_or_else(String::new, |d| d.message.clone());
        format!("{shown}: error: the islands do not parse: {first}")
    })?;
    strata_ir::verifier::verify(&ctx, module).map_err(|d| {
        let first = d.first().map_or_else(String::new, |d| d.message.clone());
        format!("{shown}: error: the islands do not verify: {first}")
    })?;
    // The large constants' bytes, back from their sections.
    for op in ctx.nested_ops(module, WalkOrder::PreOrder) {
        let Some(section) = section_of(&ctx, op) else {
            continue;
        };
        let missing = || format!("{shown}: error: a constant's section '{section}' is missing");
        let bytes = artifact.section(&section).ok_or_else(missing)?;
        let ty =
            strata_ir::ods::inherent_attr(&ctx, op, "value").and_then(|v| match ctx.attr_kind(v) {
                AttrKind::DenseElements { ty, .. } => Some(*ty),
                _ => None,
            });
        let value = ty
            .and_then(|ty| ctx.dense_elements_attr(ty, bytes.to_vec()))
            .ok_or_else(|| {
                format!("{shown}: error: section '{section}' does not hold its constant")
            })?;
        ctx.set_op_property(op, "value", value);
    }
    Ok((layout, Some((ctx, module))))
}

/// The MLIR text of a module holding the islands of `records`, copied
/// from `module`, their large constants' bytes moved to `sections`;
/// `None` when one calls a custom op (bound to the libraries this process
/// registered).
fn islands_text(
    ctx: &mut Context,
    module: Operation,
    records: &[Record],
    sections: &mut Vec<(String, Vec<u8>)>,
) -> Option<Vec<u8>> {
    let islands: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Eager { name } => Some(name.as_str()),
            Record::Compiled { .. } => None,
        })
        .collect();
    let copy = ctx.clone_op(module, &mut IrMapping::default());
    let functions: Vec<Operation> = ctx
        .op_regions(copy)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
        .map(|b| ctx.block_ops(b).collect())
        .unwrap_or_default();
    for f in functions {
        let name = strata_dialects::graph::infer::attr_str(ctx, f, "sym_name");
        if !name.is_some_and(|n| islands.contains(&n.as_str())) {
            ctx.erase_op(f);
        }
    }
    let ops = ctx.nested_ops(copy, WalkOrder::PreOrder);
    let custom = ops.iter().any(|&o| ctx.op_name_str(o) == "graph.custom");
    for op in ops {
        if ctx.op_name_str(op) == strata_dialects::graph::ConstantOp::NAME {
            move_to_section(ctx, op, CONSTANT_SECTIONS, sections);
        }
    }
    let text = (!custom)
        .then(|| strata_ir::printer::print_operation(ctx, copy, Default::default()).into_bytes());
    ctx.erase_op(copy);
    text
}

fn as_index(j: &Json) -> Option<usize> {
    j.as_u64().and_then(|n| usize::try_from(n).ok())
}

fn indices(j: &Json) -> Option<Vec<usize>> {
    j.as_array()?.iter().map(as_index).collect()
}
