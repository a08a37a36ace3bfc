//! `remove-dead-values`: remove the values nothing needs, as MLIR 22's pass
//! of that name, on the results of a liveness analysis.
//!
//! **Liveness** (MLIR's `LivenessAnalysis`, a backward analysis to a
//! fixpoint): a value is live when it is an operand of an op with memory
//! effects (or of a `ReturnLike` op that returns to callers not all
//! known: a public function's `return`), or when an op without effects
//! computes a live result from it. Across control flow, a value passed to
//! a block argument, to a region's argument or a region-branch op's result,
//! or to a callee's argument, is live when what it is passed to is; a
//! callee's `return` operand is live when the result of some call is. An
//! operand that steers control (a branch condition, a loop bound) is live
//! when the op it steers, or the blocks it steers into, have effects, or
//! when the op's results are live.
//!
//! **Removal**, in the order MLIR 22 does it (one walk, post-order, then
//! the cleanup):
//! - a private function with a body whose callers are all known calls
//!   loses its dead arguments (and the operands its calls pass them) and
//!   the results that no call uses (with the `return` operands);
//! - a region-branch op (`scf.for`, `scf.while`, `scf.if`, ...) with no
//!   live result and no effects is erased; else each value it or its
//!   regions' terminators forward only to dead arguments and results is
//!   replaced by a `ub.poison` (right before the op, or the terminator);
//! - a branch loses the successor operands whose values are dead, and the
//!   successor block the arguments they fed;
//! - any other op that has no effects and no live result is erased.
//!
//! Then, unless `canonicalize=false`, the canonicalization patterns of the
//! region-branch ops are applied to those ops only (MLIR's
//! `applyOpPatternsGreedily`): they drop the arguments and results that
//! now carry poison. The poison ops themselves stay, as in MLIR.
//!
//! strata leaves alone a function it cannot see every caller of (a symbol
//! use that is not a `func.call`), where MLIR 22 may fail.

use rustc_hash::{FxHashMap, FxHashSet};

use strata_ir::interfaces::{Branch, RegionBranch, RegionSuccessor, RegionTerminator};
use strata_ir::pass::{Pass, Statistics};
use strata_ir::rewrite::{
    apply_op_patterns_greedily, is_memory_effect_free, GreedyConfig, RewritePatternSet,
};
use strata_ir::{
    pass, Attribute, Block, Context, Diagnostic, Operation, OperationState, Value, WalkOrder,
};

use crate::inline::resolve_callee;
use crate::sccp::symbol_callables;

#[pass(
    name = "remove-dead-values",
    display_name = "RemoveDeadValues",
    summary = "Remove dead values"
)]
pub(crate) struct RemoveDeadValues {
    #[option(
        name = "canonicalize",
        default = true,
        description = "Canonicalize region branch ops"
    )]
    canonicalize: bool,
}

impl Pass for RemoveDeadValues {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let liveness = Liveness::solve(ctx, op);
        let mut cleanup = Cleanup::default();
        for current in ctx.nested_ops(op, WalkOrder::PostOrder) {
            cleanup.process(ctx, &liveness, current);
        }
        cleanup.apply(ctx);
        if self.canonicalize {
            canonicalize_region_branch_ops(ctx, op);
        }
        Ok(())
    }
}

/// Whether `op` is `ReturnLike`.
fn is_return_like(ctx: &Context, op: Operation) -> bool {
    ctx.op_definition(op).is_some_and(|d| d.traits.return_like)
}

fn is_call(ctx: &Context, op: Operation) -> bool {
    ctx.op_definition(op).is_some_and(|d| d.traits.call)
}

/// Where a forwarded value goes: the positions (among the owner's operands)
/// of the forwarded operands, each with the values it reaches, over every
/// successor.
type Forwarding = FxHashMap<usize, Vec<Value>>;

/// The index of `operands` (a run of `op`'s operands) among them.
fn operand_offset(ctx: &Context, op: Operation, operands: &[Value]) -> Option<usize> {
    let all: Vec<Value> = ctx.operands(op).collect();
    if operands.is_empty() {
        return Some(0);
    }
    (0..=all.len().checked_sub(operands.len())?).find(|&s| all[s..s + operands.len()] == *operands)
}

/// The inputs a region-branch successor receives: region `i`'s entry
/// arguments after its leading ones, or the op's results.
fn successor_inputs(
    ctx: &Context,
    op: Operation,
    branch: &RegionBranch,
    successor: RegionSuccessor,
) -> Vec<Value> {
    match successor {
        RegionSuccessor::Parent => ctx.results(op).collect(),
        RegionSuccessor::Region(i) => {
            let entry = ctx
                .op_regions(op)
                .get(i)
                .and_then(|&r| ctx.region_entry_block(r));
            let Some(entry) = entry else {
                return Vec::new();
            };
            let leading = (branch.leading_arguments)(ctx, op, i);
            ctx.block_args(entry).skip(leading).collect()
        }
    }
}

/// The forwarding of a region-branch op's entry operands (`terminator`
/// `None`) or of the terminator of its region `region`.
fn region_forwarding(
    ctx: &Context,
    op: Operation,
    branch: &RegionBranch,
    from: Option<(usize, Operation)>,
) -> Forwarding {
    let (point, owner, forwarded) = match from {
        None => (None, op, (branch.entry_operands)(ctx, op)),
        Some((region, terminator)) => {
            let forwarded = match ctx.op_interface::<RegionTerminator>(terminator) {
                Some(t) => (t.forwarded)(ctx, terminator),
                None => ctx.operands(terminator).collect(),
            };
            (Some(region), terminator, forwarded)
        }
    };
    let mut map = Forwarding::default();
    let Some(offset) = operand_offset(ctx, owner, &forwarded) else {
        return map;
    };
    for successor in (branch.successors)(ctx, op, point, &[]) {
        let inputs = successor_inputs(ctx, op, branch, successor);
        for (k, &input) in inputs.iter().enumerate().take(forwarded.len()) {
            map.entry(offset + k).or_default().push(input);
        }
        for k in inputs.len()..forwarded.len() {
            map.entry(offset + k).or_default();
        }
    }
    map
}

/// The region-branch parent of terminator `op` and the index of its region.
fn region_branch_parent(ctx: &Context, op: Operation) -> Option<(Operation, usize, RegionBranch)> {
    if ctx.num_successors(op) != 0 || ctx.op_next(op).is_some() {
        return None;
    }
    let region = ctx.op_parent_region(op)?;
    let parent = ctx.region_parent_op(region)?;
    let branch = *ctx.op_interface::<RegionBranch>(parent)?;
    let index = ctx.op_regions(parent).iter().position(|&r| r == region)?;
    Some((parent, index, branch))
}

/// The set of live values.
struct Liveness {
    live: FxHashSet<Value>,
}

impl Liveness {
    fn is_live(&self, value: Value) -> bool {
        self.live.contains(&value)
    }

    fn any_live(&self, values: impl IntoIterator<Item = Value>) -> bool {
        values.into_iter().any(|v| self.is_live(v))
    }

    /// Iterate the transfer functions over every op until nothing changes.
    fn solve(ctx: &Context, top: Operation) -> Liveness {
        let (_, open) = symbol_callables(ctx, top);
        let ops = ctx.nested_ops(top, WalkOrder::PreOrder);
        let mut calls: FxHashMap<Operation, Vec<Operation>> = FxHashMap::default();
        for &op in &ops {
            if is_call(ctx, op) {
                if let Some(callee) = resolve_callee(ctx, op) {
                    calls.entry(callee).or_default().push(op);
                }
            }
        }
        let mut state = Liveness {
            live: FxHashSet::default(),
        };
        loop {
            let before = state.live.len();
            for &op in &ops {
                state.visit(ctx, op, &open, &calls);
            }
            if state.live.len() == before {
                return state;
            }
        }
    }

    fn mark(&mut self, value: Value) {
        self.live.insert(value);
    }

    fn mark_all(&mut self, ctx: &Context, op: Operation) {
        for v in ctx.operands(op) {
            self.mark(v);
        }
    }

    /// MLIR's `SparseBackwardDataFlowAnalysis::visitOperation` with
    /// `LivenessAnalysis`.
    fn visit(
        &mut self,
        ctx: &Context,
        op: Operation,
        open: &FxHashSet<Operation>,
        calls: &FxHashMap<Operation, Vec<Operation>>,
    ) {
        let operands: Vec<Value> = ctx.operands(op).collect();
        if let Some(branch) = ctx.op_interface::<RegionBranch>(op).copied() {
            let forwarding = region_forwarding(ctx, op, &branch, None);
            return self.flow_back(ctx, op, &operands, &forwarding, None);
        }
        if let Some(branch) = ctx.op_interface::<Branch>(op).copied() {
            let mut forwarding = Forwarding::default();
            for (i, block) in ctx.successors(op).enumerate() {
                let range = (branch.successor_operands)(ctx, op, i);
                for (k, index) in range.enumerate() {
                    let target = forwarding.entry(index).or_default();
                    if k < ctx.num_block_args(block) {
                        target.push(Value::Argument(block, k as u32));
                    }
                }
            }
            return self.flow_back(ctx, op, &operands, &forwarding, None);
        }
        if is_call(ctx, op) {
            if let Some(callee) = resolve_callee(ctx, op) {
                let entry = ctx
                    .op_regions(callee)
                    .first()
                    .and_then(|&r| ctx.region_entry_block(r));
                match entry {
                    Some(entry) if ctx.op_name_str(op) == "func.call" => {
                        for (k, &operand) in operands.iter().enumerate() {
                            if k >= ctx.num_block_args(entry)
                                || self.is_live(Value::Argument(entry, k as u32))
                            {
                                self.mark(operand);
                            }
                        }
                    }
                    _ => self.mark_all(ctx, op),
                }
                return;
            }
        }
        if let Some((parent, region, branch)) = region_branch_parent(ctx, op) {
            if ctx.op_interface::<RegionTerminator>(op).is_some() || is_return_like(ctx, op) {
                let forwarding = region_forwarding(ctx, parent, &branch, Some((region, op)));
                return self.flow_back(ctx, op, &operands, &forwarding, Some(parent));
            }
        }
        if is_return_like(ctx, op) {
            if let Some(callable) = ctx
                .op_parent_op(op)
                .filter(|&p| ctx.op_definition(p).is_some_and(|d| d.traits.callable))
            {
                if open.contains(&callable) {
                    return self.mark_all(ctx, op);
                }
                for call in calls.get(&callable).into_iter().flatten() {
                    for (k, &operand) in operands.iter().enumerate() {
                        if k >= ctx.num_results(*call) || self.is_live(ctx.result(*call, k)) {
                            self.mark(operand);
                        }
                    }
                }
                return;
            }
        }
        if self.op_needs_operands(ctx, op) {
            self.mark_all(ctx, op);
        }
    }

    /// MLIR's `LivenessAnalysis::visitOperation`: every operand of `op` is
    /// live when `op` has effects, is `ReturnLike`, or has a live result.
    fn op_needs_operands(&self, ctx: &Context, op: Operation) -> bool {
        !is_memory_effect_free(ctx, op) || is_return_like(ctx, op) || self.any_live(ctx.results(op))
    }

    /// Forwarded operands take the liveness of what they reach; the others
    /// steer control (MLIR's `visitBranchOperand`).
    fn flow_back(
        &mut self,
        ctx: &Context,
        op: Operation,
        operands: &[Value],
        forwarding: &Forwarding,
        terminator_of: Option<Operation>,
    ) {
        let mut steering = false;
        for (index, &operand) in operands.iter().enumerate() {
            match forwarding.get(&index) {
                Some(targets) => {
                    if self.any_live(targets.iter().copied()) {
                        self.mark(operand);
                    }
                }
                None => steering = true,
            }
        }
        if !steering {
            return;
        }
        let live = self.steering_live(ctx, op, terminator_of);
        if live {
            for (index, &operand) in operands.iter().enumerate() {
                if !forwarding.contains_key(&index) {
                    self.mark(operand);
                }
            }
        }
    }

    /// Whether an operand of `op` that steers control is live: the blocks
    /// it steers into hold an op with effects, or `op` (or, for a
    /// terminator, its region-branch parent) needs its operands.
    fn steering_live(
        &self,
        ctx: &Context,
        op: Operation,
        terminator_of: Option<Operation>,
    ) -> bool {
        let blocks: Vec<Block> = match terminator_of {
            Some(parent) => region_blocks(ctx, parent),
            None if ctx.op_interface::<RegionBranch>(op).is_some() => region_blocks(ctx, op),
            None => ctx.successors(op).collect(),
        };
        let effects = blocks
            .iter()
            .flat_map(|&b| ctx.block_ops(b))
            .any(|inner| !is_memory_effect_free(ctx, inner));
        effects
            || self.op_needs_operands(ctx, op)
            || terminator_of.is_some_and(|parent| self.op_needs_operands(ctx, parent))
    }
}

fn region_blocks(ctx: &Context, op: Operation) -> Vec<Block> {
    ctx.op_regions(op)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r))
        .collect()
}

/// What a function loses.
struct FunctionCleanup {
    func: Operation,
    dead_args: Vec<bool>,
    dead_results: Vec<bool>,
    calls: Vec<Operation>,
}

/// What the walk decided, applied at the end.
#[derive(Default)]
struct Cleanup {
    erase: Vec<Operation>,
    functions: Vec<FunctionCleanup>,
    /// For each successor block, the branches into it: (branch, successor
    /// index, which forwarded operands are dead).
    branches: Vec<(Block, Operation, usize, Vec<bool>)>,
}

impl Cleanup {
    fn process(&mut self, ctx: &mut Context, liveness: &Liveness, op: Operation) {
        let is_function = ctx.op_name_str(op) == "func.func";
        if is_function {
            self.process_function(ctx, liveness, op);
        } else if let Some(branch) = ctx.op_interface::<RegionBranch>(op).copied() {
            self.process_region_branch(ctx, liveness, op, &branch);
        } else if let Some(branch) = ctx.op_interface::<Branch>(op).copied() {
            for (i, block) in ctx.successors(op).enumerate().collect::<Vec<_>>() {
                let range = (branch.successor_operands)(ctx, op, i);
                let dead = range
                    .map(|index| !liveness.is_live(ctx.operand(op, index)))
                    .collect();
                self.branches.push((block, op, i, dead));
            }
        } else if ctx.op_definition(op).is_some_and(|d| d.traits.terminator) || is_call(ctx, op) {
        } else if is_memory_effect_free(ctx, op) && !liveness.any_live(ctx.results(op)) {
            self.erase.push(op);
        }
    }

    fn process_function(&mut self, ctx: &Context, liveness: &Liveness, func: Operation) {
        let public = ctx.symbol_visibility(func).is_none_or(|v| v == b"public");
        let Some(entry) = ctx
            .op_regions(func)
            .first()
            .and_then(|&r| ctx.region_entry_block(r))
        else {
            return;
        };
        if public {
            return;
        }
        let Some(uses) = function_calls(ctx, func) else {
            return;
        };
        let dead_args = ctx
            .block_args(entry)
            .map(|a| !liveness.is_live(a))
            .collect();
        let Some(last) = ctx
            .op_regions(func)
            .first()
            .and_then(|&r| ctx.region_blocks(r).last())
            .and_then(|b| ctx.block_last_op(b))
        else {
            return;
        };
        let returns = ctx.num_operands(last);
        let dead_results = (0..returns)
            .map(|k| {
                uses.iter().all(|&call| {
                    k < ctx.num_results(call) && !liveness.is_live(ctx.result(call, k))
                })
            })
            .collect();
        self.functions.push(FunctionCleanup {
            func,
            dead_args,
            dead_results,
            calls: uses,
        });
    }

    fn process_region_branch(
        &mut self,
        ctx: &mut Context,
        liveness: &Liveness,
        op: Operation,
        branch: &RegionBranch,
    ) {
        if !liveness.any_live(ctx.results(op)) && is_memory_effect_free(ctx, op) {
            self.erase.push(op);
            return;
        }
        let mut points = vec![(None, op)];
        for (index, &region) in ctx.op_regions(op).iter().enumerate() {
            let terminator = ctx
                .region_entry_block(region)
                .and_then(|b| ctx.block_last_op(b));
            if let Some(terminator) = terminator {
                points.push((Some(index), terminator));
            }
        }
        for (region, owner) in points {
            let from = region.map(|r| (r, owner));
            let forwarding = region_forwarding(ctx, op, branch, from);
            let mut positions: Vec<usize> = forwarding
                .iter()
                .filter(|(_, targets)| !liveness.any_live(targets.iter().copied()))
                .map(|(&index, _)| index)
                .collect();
            positions.sort_unstable();
            for index in positions {
                let ty = ctx.value_type(ctx.operand(owner, index));
                let poison = create_poison(ctx, owner, ty);
                ctx.set_operand(owner, index, poison);
            }
        }
    }

    fn apply(self, ctx: &mut Context) {
        self.apply_branches(ctx);
        for f in &self.functions {
            erase_call_operands(ctx, f);
            erase_return_operands(ctx, f);
        }
        let mut erased: FxHashSet<Operation> = FxHashSet::default();
        for &op in self.erase.iter().rev() {
            if erased.contains(&op) {
                continue;
            }
            let nested = ctx.collect_ops(op, WalkOrder::PreOrder);
            let used_outside = ctx
                .results(op)
                .any(|r| ctx.uses(r).any(|u| !nested.contains(&u.op)));
            if used_outside {
                continue;
            }
            ctx.erase_op(op);
            erased.extend(nested);
        }
        for f in &self.functions {
            erase_call_results(ctx, f);
            erase_function_signature(ctx, f);
        }
        for (block, _, _, _) in &self.branches {
            let count = ctx.num_block_args(*block);
            for index in (0..count).rev() {
                let arg = Value::Argument(*block, index as u32);
                if ctx.use_empty(arg) && self.block_arg_dead(*block, index) {
                    ctx.erase_block_argument(*block, index);
                }
            }
        }
    }

    /// Whether every branch into `block` passes a dead value to argument
    /// `index`.
    fn block_arg_dead(&self, block: Block, index: usize) -> bool {
        self.branches
            .iter()
            .filter(|(b, ..)| *b == block)
            .all(|(_, _, _, dead)| dead.get(index).copied().unwrap_or(false))
    }

    /// Drop the successor operands feeding block arguments that every
    /// branch passes a dead value.
    fn apply_branches(&self, ctx: &mut Context) {
        for (block, op, successor, dead) in &self.branches {
            let Some(branch) = ctx.op_interface::<Branch>(*op).copied() else {
                continue;
            };
            for index in (0..dead.len()).rev() {
                if self.block_arg_dead(*block, index) {
                    (branch.erase_successor_operand)(ctx, *op, *successor, index);
                }
            }
        }
    }
}

/// The calls of `func`, when every use of its symbol is a `func.call` in
/// the module it is visible from; `None` otherwise.
fn function_calls(ctx: &Context, func: Operation) -> Option<Vec<Operation>> {
    let (_, open) = symbol_callables(ctx, ctx.op_parent_op(func)?);
    if open.contains(&func) {
        return None;
    }
    let mut scope = ctx.op_parent_op(func)?;
    while let Some(parent) = ctx.op_parent_op(scope) {
        scope = parent;
    }
    let mut calls = Vec::new();
    for op in ctx.collect_ops(scope, WalkOrder::PreOrder) {
        if is_call(ctx, op) && resolve_callee(ctx, op) == Some(func) {
            if ctx.op_name_str(op) != "func.call" {
                return None;
            }
            calls.push(op);
        }
    }
    Some(calls)
}

/// A `ub.poison` of type `ty` right before `before`.
fn create_poison(ctx: &mut Context, before: Operation, ty: strata_ir::Type) -> Value {
    let loc = ctx.op_loc(before);
    let mut state = OperationState::new(ctx.ident("ub.poison"), loc);
    state.result_types = vec![ty];
    let poison = ctx.create_operation(state);
    ctx.insert_op_before(before, poison);
    ctx.result(poison, 0)
}

fn erase_call_operands(ctx: &mut Context, f: &FunctionCleanup) {
    for &call in &f.calls {
        let kept: Vec<Value> = ctx
            .operands(call)
            .enumerate()
            .filter(|&(k, _)| !f.dead_args.get(k).copied().unwrap_or(false))
            .map(|(_, v)| v)
            .collect();
        ctx.set_operands(call, &kept);
    }
}

fn erase_return_operands(ctx: &mut Context, f: &FunctionCleanup) {
    for block in region_blocks(ctx, f.func) {
        let Some(terminator) = ctx.block_last_op(block) else {
            continue;
        };
        if !is_return_like(ctx, terminator) || ctx.num_operands(terminator) != f.dead_results.len()
        {
            continue;
        }
        let kept: Vec<Value> = ctx
            .operands(terminator)
            .zip(&f.dead_results)
            .filter(|(_, &dead)| !dead)
            .map(|(v, _)| v)
            .collect();
        ctx.set_operands(terminator, &kept);
    }
}

/// Rebuild each call without the dead results.
fn erase_call_results(ctx: &mut Context, f: &FunctionCleanup) {
    if !f.dead_results.contains(&true) {
        return;
    }
    for &call in &f.calls {
        let results: Vec<Value> = ctx.results(call).collect();
        let kept: Vec<usize> = (0..results.len())
            .filter(|&k| !f.dead_results.get(k).copied().unwrap_or(false))
            .collect();
        let mut state = OperationState::new(ctx.op_name(call), ctx.op_loc(call));
        state.operands = ctx.operands(call).collect();
        state.result_types = kept.iter().map(|&k| ctx.value_type(results[k])).collect();
        state.properties = ctx.op_properties(call);
        state.attributes = ctx.dictionary_entries(ctx.op_attr_dict(call)).to_vec();
        let new_call = ctx.create_operation(state);
        ctx.insert_op_before(call, new_call);
        for (new_index, &k) in kept.iter().enumerate() {
            let to = ctx.result(new_call, new_index);
            ctx.replace_all_uses_with(results[k], to);
        }
        ctx.erase_op(call);
    }
}

/// Drop the dead arguments of `f`'s entry block and the dead results from
/// its type (and its argument and result attributes).
fn erase_function_signature(ctx: &mut Context, f: &FunctionCleanup) {
    let Some(entry) = ctx
        .op_regions(f.func)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return;
    };
    let mut dead_args = f.dead_args.clone();
    for (index, dead) in dead_args.iter_mut().enumerate().rev() {
        let arg = Value::Argument(entry, index as u32);
        if *dead && !ctx.use_empty(arg) {
            *dead = false;
        }
        if *dead {
            ctx.erase_block_argument(entry, index);
        }
    }
    let Some((inputs, results)) = strata_dialects::func::function_signature(ctx, f.func) else {
        return;
    };
    let keep = |types: &[strata_ir::Type], dead: &[bool]| -> Vec<strata_ir::Type> {
        types
            .iter()
            .enumerate()
            .filter(|&(k, _)| !dead.get(k).copied().unwrap_or(false))
            .map(|(_, &t)| t)
            .collect()
    };
    let inputs = keep(&inputs, &dead_args);
    let results = keep(&results, &f.dead_results);
    let fn_type = ctx.function_type(inputs, results);
    let type_attr = ctx.type_attr(fn_type);
    ctx.set_op_property(f.func, "function_type", type_attr);
    for (name, dead) in [("arg_attrs", &dead_args), ("res_attrs", &f.dead_results)] {
        let Some(attrs) = strata_ir::ods::inherent_attr(ctx, f.func, name) else {
            continue;
        };
        let strata_ir::attributes::AttrKind::Array(elements) = ctx.attr_kind(attrs) else {
            continue;
        };
        let elements = elements.to_vec();
        let kept: Vec<Attribute> = elements
            .into_iter()
            .enumerate()
            .filter(|&(k, _)| !dead.get(k).copied().unwrap_or(false))
            .map(|(_, a)| a)
            .collect();
        let array = ctx.array_attr(kept);
        ctx.set_op_property(f.func, name, array);
    }
}

/// Apply the canonicalization patterns of the region-branch ops under
/// `top` to those ops only.
fn canonicalize_region_branch_ops(ctx: &mut Context, top: Operation) {
    let ops: Vec<Operation> = ctx
        .nested_ops(top, WalkOrder::PostOrder)
        .into_iter()
        .filter(|&op| ctx.op_interface::<RegionBranch>(op).is_some())
        .collect();
    let mut set = RewritePatternSet::new();
    let mut seen = FxHashSet::default();
    for &op in &ops {
        let Some(def) = ctx.op_definition(op) else {
            continue;
        };
        if let Some(add) = def.canonicalize {
            if seen.insert(def.name) {
                add(&mut set);
            }
        }
    }
    let patterns = set.freeze(ctx);
    apply_op_patterns_greedily(ctx, &ops, &patterns, &GreedyConfig::default());
}
