//! `cse`: common subexpression elimination, as MLIR's CSE pass.
//!
//! Two operations are the same expression when they have the same name,
//! operands, result types, properties and attributes, and no regions. Only
//! operations known to have no memory effects (`pure`) are merged; an
//! operation whose effects are unknown (every unregistered one) never is.
//! Known expressions are scoped by dominance: an expression is reused in the
//! blocks its block dominates and in nested regions, but never across an
//! isolated-from-above boundary (or into an unregistered op, which might be
//! one). In graph regions (no SSA dominance, e.g. the
//! regions of unregistered ops) a use is redirected only when its user has
//! not been visited yet, as MLIR does. Trivially dead
//! operations met on the way are erased too, as MLIR does.

use rustc_hash::FxHashMap;

use strata_ir::dominance::DomTree;
use strata_ir::pass::{Pass, Statistics};
use strata_ir::{
    pass, Attribute, Block, Context, Diagnostic, Ident, Operation, Region, Type, Value,
};

use crate::dce::is_trivially_dead;
use crate::equivalence::Correspondence;

#[pass(
    name = "cse",
    display_name = "CSE",
    summary = "Eliminate common sub-expressions"
)]
pub(crate) struct Cse;

impl Pass for Cse {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut driver = Driver {
            known: Vec::new(),
            region_ops: Vec::new(),
            inserted: rustc_hash::FxHashSet::default(),
            to_erase: Vec::new(),
            num_cse: 0,
            num_dce: 0,
        };
        for region in ctx.op_regions(op).to_vec() {
            driver.simplify_region(ctx, region);
        }
        for dead in std::mem::take(&mut driver.to_erase) {
            if ctx.op_parent_block(dead).is_some() {
                ctx.erase_op(dead);
            }
        }
        stats.add("num-cse'd", "Number of operations CSE'd", driver.num_cse);
        stats.add("num-dce'd", "Number of operations DCE'd", driver.num_dce);
        Ok(())
    }
}

/// What makes two operations the same expression.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    name: Ident,
    operands: Vec<Value>,
    result_types: Vec<Type>,
    properties: Option<Attribute>,
    attributes: Attribute,
}

struct Driver {
    /// Scopes of known expressions; lookups go from the innermost outwards.
    known: Vec<FxHashMap<Key, Operation>>,
    /// Scopes of ops with regions that may be CSE'd (compared structurally).
    region_ops: Vec<Vec<Operation>>,
    /// Every op ever recorded as a known expression.
    inserted: rustc_hash::FxHashSet<Operation>,
    to_erase: Vec<Operation>,
    num_cse: u64,
    num_dce: u64,
}

impl Driver {
    fn lookup(&self, key: &Key) -> Option<Operation> {
        self.known
            .iter()
            .rev()
            .find_map(|scope| scope.get(key).copied())
    }

    fn simplify_region(&mut self, ctx: &mut Context, region: Region) {
        let blocks: Vec<Block> = ctx.region_blocks(region).collect();
        let ssa = has_ssa_dominance(ctx, region);
        if blocks.len() == 1 {
            self.known.push(FxHashMap::default());
            self.region_ops.push(Vec::new());
            self.simplify_block(ctx, blocks[0], ssa);
            self.region_ops.pop();
            self.known.pop();
            return;
        }
        if blocks.is_empty() || !ssa {
            return;
        }
        // Walk the dominator tree: a block sees what its dominators defined.
        let tree = DomTree::new(ctx, region);
        let mut stack: Vec<(Block, bool)> = tree.root().map(|b| (b, false)).into_iter().collect();
        while let Some((block, done)) = stack.pop() {
            if done {
                self.known.pop();
                self.region_ops.pop();
                continue;
            }
            self.known.push(FxHashMap::default());
            self.region_ops.push(Vec::new());
            self.simplify_block(ctx, block, true);
            stack.push((block, true));
            let children: Vec<Block> = tree.children(block).collect();
            for child in children.into_iter().rev() {
                stack.push((child, false));
            }
        }
    }

    fn simplify_block(&mut self, ctx: &mut Context, block: Block, ssa: bool) {
        let ops: Vec<Operation> = ctx.block_ops(block).collect();
        for op in ops {
            if is_trivially_dead(ctx, op) {
                self.to_erase.push(op);
                self.num_dce += 1;
                continue;
            }
            let regions = ctx.op_regions(op).to_vec();
            if !regions.is_empty() {
                // An unregistered op might be isolated from above: its
                // regions start from nothing, as in MLIR.
                let isolated = ctx
                    .op_definition(op)
                    .is_none_or(|d| d.traits.isolated_from_above);
                let saved = isolated.then(|| {
                    (
                        std::mem::take(&mut self.known),
                        std::mem::take(&mut self.region_ops),
                    )
                });
                for region in regions {
                    self.simplify_region(ctx, region);
                }
                if let Some((known, region_ops)) = saved {
                    self.known = known;
                    self.region_ops = region_ops;
                }
                // As MLIR: an op with single-block regions and no memory
                // effects (its own or nested) is a candidate too, matched
                // structurally against the earlier ones in scope.
                if isolated || !cse_region_candidate(ctx, op) {
                    continue;
                }
                let existing = self
                    .region_ops
                    .iter()
                    .rev()
                    .flatten()
                    .copied()
                    .find(|&e| Correspondence::default().ops(ctx, e, op));
                match existing {
                    Some(existing) => {
                        let results: Vec<Value> = ctx.results(op).collect();
                        for (i, value) in results.into_iter().enumerate() {
                            let replacement = ctx.result(existing, i);
                            ctx.replace_all_uses_with(value, replacement);
                        }
                        self.to_erase.push(op);
                        self.num_cse += 1;
                    }
                    None => {
                        if let Some(scope) = self.region_ops.last_mut() {
                            scope.push(op);
                        }
                    }
                }
                continue;
            }
            let pure = ctx
                .op_definition(op)
                .is_some_and(|d| d.traits.memory_effect_free());
            if !pure || ctx.num_successors(op) > 0 {
                continue;
            }
            let mut operands: Vec<Value> = ctx.operands(op).collect();
            // Commutative ops are the same expression whatever the operand order.
            if ctx.op_definition(op).is_some_and(|d| d.traits.commutative) {
                operands.sort_unstable();
            }
            let key = Key {
                name: ctx.op_name(op),
                operands,
                result_types: ctx.results(op).map(|v| ctx.value_type(v)).collect(),
                properties: ctx.op_properties(op),
                attributes: ctx.op_attr_dict(op),
            };
            match self.lookup(&key) {
                Some(existing) => {
                    let results: Vec<Value> = ctx.results(op).collect();
                    for (i, value) in results.into_iter().enumerate() {
                        let replacement = ctx.result(existing, i);
                        if ssa {
                            ctx.replace_all_uses_with(value, replacement);
                            continue;
                        }
                        // Without SSA dominance a use may already have been
                        // visited (and be known itself): those keep the value.
                        let uses: Vec<_> = ctx.uses(value).collect();
                        for u in uses {
                            if !self.inserted.contains(&u.op) {
                                ctx.set_operand(u.op, u.index as usize, replacement);
                            }
                        }
                    }
                    if ctx.results(op).all(|v| ctx.use_empty(v)) {
                        self.to_erase.push(op);
                        self.num_cse += 1;
                    }
                }
                None => {
                    if let Some(scope) = self.known.last_mut() {
                        scope.insert(key, op);
                        self.inserted.insert(op);
                    }
                }
            }
        }
    }
}

/// Whether `op` (which has regions) may be merged with an equivalent op:
/// registered, not isolated, no successors, single-block regions, and no
/// memory effects of its own or in its regions.
fn cse_region_candidate(ctx: &Context, op: Operation) -> bool {
    ctx.num_successors(op) == 0
        && ctx
            .op_regions(op)
            .iter()
            .all(|&r| ctx.region_blocks(r).nth(1).is_none())
        && effect_free(ctx, op)
}

/// No memory effects: `Pure`, or `RecursiveMemoryEffects` with only
/// effect-free ops inside.
pub(crate) fn effect_free(ctx: &Context, op: Operation) -> bool {
    let Some(def) = ctx.op_definition(op) else {
        return false;
    };
    if def.traits.memory_effect_free() {
        return true;
    }
    def.traits.recursive_memory_effects
        && ctx
            .op_regions(op)
            .iter()
            .flat_map(|&r| ctx.region_blocks(r))
            .flat_map(|b| ctx.block_ops(b))
            .all(|inner| effect_free(ctx, inner))
}

/// Whether `region` has SSA dominance (see the verifier's rules).
fn has_ssa_dominance(ctx: &Context, region: Region) -> bool {
    if ctx.region_blocks(region).nth(1).is_some() {
        return true;
    }
    match ctx.region_parent_op(region) {
        Some(op) => ctx
            .op_definition(op)
            .is_some_and(|d| !d.traits.graph_region),
        None => true,
    }
}
