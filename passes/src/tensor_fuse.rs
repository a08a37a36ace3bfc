//! `tensor-fuse`: producer–consumer fusion of `tensor` ops into
//! `tensor.fusion` groups, each of which becomes one kernel.
//!
//! Ops are visited in order; an op joins the group of one of its producers
//! when the group's kernel can compute it:
//!
//! - a `tensor.map` on the domain of an elementwise group (elementwise chains,
//!   broadcasts and transposes of inputs included);
//! - a `tensor.reduce` of a value of an elementwise group on that value's
//!   shape (a prologue), or of a row group with the same shape and reduced
//!   dims (softmax's second reduction);
//! - a `tensor.map` of a row group on the reduction's input shape or on its
//!   output shape, reading the group's values at the row (softmax's `exp(x -
//!   max)` and division, a norm's scale and shift);
//! - a `tensor.map` on the output of a contraction group (bias, activation,
//!   residual: an epilogue on the accumulator).
//!
//! A map never joins the group that produces an input it gathers (that
//! input is read at run-time indices, so it stays a buffer).
//!
//! A contraction always starts a group of its own (its operands stay kernel
//! inputs), and a group never holds two contractions. An op joins only if no
//! op outside the group uses the group's values before it (the group is
//! placed where its last op was). Splat constants are copied into the
//! groups that read them. Groups with fewer than `min-ops` ops stay as they
//! are; a group stops growing at `max-ops`.

use std::collections::HashMap;

use strata_dialects::tensor::{FusionOp, MapOp, ReduceOp};
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::pass::{ListOption, Pass, Statistics};
use strata_ir::{pass, Block, Context, Diagnostic, IrMapping, Operation, Value};

#[pass(
    name = "tensor-fuse",
    display_name = "TensorFuse",
    summary = "Group producer-consumer chains of tensor ops into tensor.fusion kernels"
)]
pub(crate) struct TensorFuse {
    #[option(
        name = "min-ops",
        default = 2,
        description = "Fewest ops a fusion group needs"
    )]
    min_ops: i64,
    #[option(
        name = "max-ops",
        default = 64,
        description = "Most ops a fusion group may hold"
    )]
    max_ops: i64,
    #[option(
        name = "exclude",
        description = "Ops (by name, e.g. tensor.contract) that stay alone"
    )]
    exclude: ListOption<String>,
}

impl Pass for TensorFuse {
    fn run(
        &mut self,
        ctx: &mut Context,
        root: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        if self.min_ops < 1 || self.max_ops < self.min_ops {
            return Err(Diagnostic::op_error(
                ctx,
                root,
                format!(
                    "tensor-fuse: need 1 <= min-ops <= max-ops, got {} and {}",
                    self.min_ops, self.max_ops
                ),
            ));
        }
        let blocks: Vec<Block> = ctx
            .nested_ops(root, strata_ir::WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| ctx.op_name_str(o) == "func.func")
            .filter_map(|f| {
                ctx.op_regions(f)
                    .first()
                    .and_then(|&r| ctx.region_entry_block(r))
            })
            .collect();
        let mut fused = 0;
        let mut groups = 0;
        for block in blocks {
            let found = find_groups(ctx, block, self.max_ops as usize, &self.exclude);
            for g in found
                .into_iter()
                .filter(|g| g.ops.len() >= self.min_ops as usize)
            {
                // Under --pass-bisect-limit each group is a step.
                if !ctx.bisect_may_apply() {
                    break;
                }
                let before = g.ops.first().and_then(|&o| ctx.bisect_describe(o));
                fused += g.ops.len() as u64;
                groups += 1;
                build_fusion(ctx, &g.ops);
                if let Some(before) = before {
                    ctx.bisect_applied(&format!("fuse-{}-ops", g.ops.len()), before);
                }
            }
        }
        stats.add("num-groups", "Number of fusion groups formed", groups);
        stats.add(
            "num-fused-ops",
            "Number of ops moved into fusion groups",
            fused,
        );
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    /// Maps over one domain.
    Elementwise(Vec<i64>),
    /// Reductions of `dims` of inputs of shape `input`.
    Rows { input: Vec<i64>, dims: Vec<i64> },
    /// A contraction with the maps on its output.
    Contraction(Vec<i64>),
}

struct Group {
    kind: Kind,
    ops: Vec<Operation>,
}

fn shape(ctx: &Context, v: Value) -> Vec<i64> {
    strata_dialects::tensor::shape_of(ctx, v).unwrap_or_default()
}

fn is_identity(m: &AffineMap) -> bool {
    m.is_identity()
}

/// `(d0, ..., dn) -> (the dims not in dims)`: how a map on the reduction's
/// input reads a value at the row.
fn is_row_projection(m: &AffineMap, dims: &[i64]) -> bool {
    let kept: Vec<AffineExpr> = (0..m.num_dims)
        .filter(|d| !dims.contains(&i64::from(*d)))
        .map(AffineExpr::Dim)
        .collect();
    m.results == kept
}

fn find_groups(ctx: &Context, block: Block, max_ops: usize, exclude: &[String]) -> Vec<Group> {
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    let position: HashMap<Operation, usize> =
        ops.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of: HashMap<Operation, usize> = HashMap::new();
    for &op in &ops {
        let name = ctx.op_name_str(op);
        if !matches!(name, "tensor.map" | "tensor.reduce" | "tensor.contract")
            || exclude.iter().any(|e| e == name)
        {
            continue;
        }
        let mut joined = None;
        if name != "tensor.contract" {
            // Candidate groups: those of the producers, nearest first.
            let mut candidates: Vec<usize> = ctx
                .operands(op)
                .filter_map(|v| ctx.defining_op(v))
                .filter_map(|p| group_of.get(&p).copied())
                .collect();
            candidates.sort_unstable_by_key(|&g| {
                std::cmp::Reverse(groups[g].ops.last().map(|o| position[o]))
            });
            candidates.dedup();
            for g in candidates {
                if groups[g].ops.len() >= max_ops {
                    continue;
                }
                if let Some(kind) = join(ctx, &groups[g], op) {
                    if no_early_outside_use(ctx, &groups[g], op, &position) {
                        groups[g].kind = kind;
                        joined = Some(g);
                        break;
                    }
                }
            }
        }
        let g = match joined {
            Some(g) => g,
            None => {
                let kind = match name {
                    "tensor.map" => Kind::Elementwise(shape(ctx, ctx.result(op, 0))),
                    "tensor.reduce" => Kind::Rows {
                        input: shape(ctx, ReduceOp(op).input(ctx)),
                        dims: ReduceOp(op).dimensions(ctx).unwrap_or_default(),
                    },
                    _ => Kind::Contraction(shape(ctx, ctx.result(op, 0))),
                };
                groups.push(Group {
                    kind,
                    ops: Vec::new(),
                });
                groups.len() - 1
            }
        };
        groups[g].ops.push(op);
        group_of.insert(op, g);
    }
    groups
}

/// The group's kind after `op` joins it, if its kernel can compute `op`.
fn join(ctx: &Context, g: &Group, op: Operation) -> Option<Kind> {
    let in_group = |v: Value| ctx.defining_op(v).is_some_and(|p| g.ops.contains(&p));
    // A gathered input is read at run-time indices: it must be a buffer.
    if gathered_operands(ctx, op).into_iter().any(in_group) {
        return None;
    }
    match (ctx.op_name_str(op), &g.kind) {
        ("tensor.map", Kind::Elementwise(domain)) => {
            (shape(ctx, ctx.result(op, 0)) == *domain).then(|| g.kind.clone())
        }
        ("tensor.map", Kind::Contraction(out)) => {
            let m = MapOp(op);
            let ok = shape(ctx, ctx.result(op, 0)) == *out
                && ctx
                    .operands(op)
                    .zip(m.maps(ctx))
                    .all(|(v, map)| !in_group(v) || is_identity(&map));
            ok.then(|| g.kind.clone())
        }
        ("tensor.map", Kind::Rows { input, dims }) => {
            let m = MapOp(op);
            let domain = shape(ctx, ctx.result(op, 0));
            let rows: Vec<i64> = input
                .iter()
                .enumerate()
                .filter(|(d, _)| !dims.contains(&(*d as i64)))
                .map(|(_, &s)| s)
                .collect();
            let ok = ctx.operands(op).zip(m.maps(ctx)).all(|(v, map)| {
                if !in_group(v) {
                    return true;
                }
                let s = shape(ctx, v);
                if domain == *input {
                    (s == *input && is_identity(&map))
                        || (s == rows && is_row_projection(&map, dims))
                } else if domain == rows {
                    s == rows && is_identity(&map)
                } else {
                    false
                }
            });
            (ok && (domain == *input || domain == rows)).then(|| g.kind.clone())
        }
        ("tensor.reduce", Kind::Elementwise(domain)) => {
            let r = ReduceOp(op);
            let input = r.input(ctx);
            (in_group(input) && shape(ctx, input) == *domain).then(|| Kind::Rows {
                input: domain.clone(),
                dims: r.dimensions(ctx).unwrap_or_default(),
            })
        }
        ("tensor.reduce", Kind::Rows { input, dims }) => {
            let r = ReduceOp(op);
            let v = r.input(ctx);
            let ok = in_group(v)
                && shape(ctx, v) == *input
                && r.dimensions(ctx).unwrap_or_default() == *dims;
            ok.then(|| g.kind.clone())
        }
        _ => None,
    }
}

/// The inputs a `tensor.map` gathers (reads whole, by `tensor.extract`),
/// and a `tensor.contract`'s operands: inputs of the fusion even when
/// they are splat constants.
fn gathered_operands(ctx: &Context, op: Operation) -> Vec<Value> {
    // A contraction reads its operands by tiles from its kernel's
    // parameters: a constant operand stays an input, as a gathered one does.
    if ctx.op_name_str(op) == "tensor.contract" {
        return ctx.operands(op).collect();
    }
    if ctx.op_name_str(op) != MapOp::NAME {
        return Vec::new();
    }
    ctx.operands(op)
        .enumerate()
        .filter(|&(k, _)| MapOp(op).is_gathered(ctx, k))
        .map(|(_, v)| v)
        .collect()
}

/// Whether no op outside `g` uses one of its values before `op`.
fn no_early_outside_use(
    ctx: &Context,
    g: &Group,
    op: Operation,
    position: &HashMap<Operation, usize>,
) -> bool {
    let at = position[&op];
    g.ops.iter().all(|&m| {
        ctx.results(m).all(|r| {
            ctx.uses(r).all(|u| {
                u.op == op || g.ops.contains(&u.op) || position.get(&u.op).is_none_or(|&p| p > at)
            })
        })
    })
}

/// Whether `op` is `ancestor` or nested in it.
fn is_inside(ctx: &Context, op: Operation, ancestor: Operation) -> bool {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if o == ancestor {
            return true;
        }
        cur = ctx.op_parent_op(o);
    }
    false
}

/// Whether `v` is a splat tensor constant (copied into the groups using it).
fn is_splat_constant(ctx: &Context, v: Value) -> bool {
    ctx.defining_op(v).is_some_and(|d| {
        ctx.op_name_str(d) == "arith.constant"
            && strata_ir::ods::inherent_attr(ctx, d, "value").is_some_and(|a| {
                matches!(ctx.attr_kind(a), strata_ir::AttrKind::DenseElements { data, .. } if data.splat)
            })
    })
}

/// Replace `ops` (in order, in one block) by a `tensor.fusion` where the
/// last of them was.
fn build_fusion(ctx: &mut Context, ops: &[Operation]) {
    let Some(&last) = ops.last() else {
        return;
    };
    let members: std::collections::HashSet<Operation> = ops.iter().copied().collect();
    let mut inputs: Vec<Value> = Vec::new();
    let mut constants: Vec<Value> = Vec::new();
    // A value one member gathers (or contracts) is an input for all of
    // them: copying it in for another member would shadow the parameter.
    let gathered: Vec<Value> = ops
        .iter()
        .flat_map(|&op| gathered_operands(ctx, op))
        .collect();
    for &op in ops {
        for v in ctx.operands(op) {
            let inside = ctx.defining_op(v).is_some_and(|d| members.contains(&d));
            if inside {
                continue;
            }
            if is_splat_constant(ctx, v) && !gathered.contains(&v) {
                if !constants.contains(&v) {
                    constants.push(v);
                }
            } else if !inputs.contains(&v) {
                inputs.push(v);
            }
        }
    }
    // Constants that the members' bodies read from outside (canonicalize
    // hoists them there): the fusion is isolated, so they are copied in.
    for &op in ops {
        for inner in ctx.nested_ops(op, strata_ir::WalkOrder::PreOrder) {
            if inner == op {
                continue;
            }
            for v in ctx.operands(inner).collect::<Vec<_>>() {
                let outside = ctx.defining_op(v).is_some_and(|d| !is_inside(ctx, d, op));
                if outside && !constants.contains(&v) {
                    constants.push(v);
                }
            }
        }
    }
    // Only constants can be copied; a group whose bodies read another outer
    // value stays unfused.
    let copyable = constants.iter().all(|&v| {
        ctx.defining_op(v)
            .is_some_and(|d| ctx.op_name_str(d) == "arith.constant")
    });
    if !copyable {
        return;
    }
    let outputs: Vec<Value> = ops
        .iter()
        .flat_map(|&op| ctx.results(op).collect::<Vec<_>>())
        .filter(|&r| ctx.uses(r).any(|u| !members.contains(&u.op)))
        .collect();
    let loc = ctx.op_loc(last);
    let fusion = FusionOp::build_with_body(ctx, loc, &inputs, |ctx, block, args| {
        let mut mapping = IrMapping::default();
        for (&v, &a) in inputs.iter().zip(args) {
            mapping.map_value(v, a);
        }
        for &c in &constants {
            if let Some(def) = ctx.defining_op(c) {
                let copy = ctx.clone_op(def, &mut mapping);
                ctx.append_op(block, copy);
            }
        }
        for &op in ops {
            let copy = ctx.clone_op(op, &mut mapping);
            ctx.append_op(block, copy);
        }
        outputs.iter().map(|&v| mapping.lookup_value(v)).collect()
    });
    ctx.insert_op_before(last, fusion.op());
    for (i, &v) in outputs.iter().enumerate() {
        let r = ctx.result(fusion.op(), i);
        ctx.replace_all_uses_with(v, r);
    }
    for &op in ops.iter().rev() {
        ctx.erase_op(op);
    }
}
