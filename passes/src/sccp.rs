//! `sccp`: sparse conditional constant propagation, as MLIR's SCCP pass
//! (its dead-code and sparse constant-propagation analyses, then its
//! rewrite).
//!
//! The analysis is optimistic: a value starts unknown-yet (no lattice
//! entry), becomes a constant (with the dialect that produced it), and
//! becomes overdefined when two constants meet or nothing can be said.
//! Blocks start dead: the entry blocks of the anchor's regions are live; a
//! branch makes live the successor its known operands select (`Branch`),
//! or all; a region-branch op the regions its known operands select
//! (`RegionBranch`); a callable its body when it has live calls or callers
//! that cannot all be seen. An op in a live block is simulated by folding
//! it on its operands' constants (results overdefined if it does not
//! fold, or folds in place); it is not simulated until every operand has a
//! value. Block arguments join what live edges pass them; region results
//! and arguments what region-branch edges forward; a callable's arguments
//! what its live calls pass, when all its calls are seen (a private
//! function, or a nested one whose uses are visible, used only by calls);
//! a call's results what the returns of its callee give.
//!
//! Then every value with a constant value is replaced by a constant
//! materialized by its dialect at the start of the entry block of its
//! region (or of the closest region isolated from above), one per value;
//! an op whose results were all replaced and that has no effects is
//! erased. Ops in blocks never found live keep their values.

use rustc_hash::{FxHashMap, FxHashSet};

use strata_ir::interfaces::{Branch, RegionBranch, RegionSuccessor, RegionTerminator};
use strata_ir::pass::{Pass, Statistics};
use strata_ir::rewrite::{would_op_be_trivially_dead, OperationFolder, PatternRewriter};
use strata_ir::symbol_table::SymbolTable;
use strata_ir::{
    pass, Attribute, Block, Context, Diagnostic, Ident, Operation, Region, Value, WalkOrder,
};

use crate::inline::resolve_callee;
use crate::symbol_dce::symbol_uses_by;

#[pass(
    name = "sccp",
    display_name = "SCCP",
    summary = "Sparse Conditional Constant Propagation"
)]
pub(crate) struct Sccp;

impl Pass for Sccp {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _stats: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut analysis = Analysis::new(ctx, op);
        analysis.solve(ctx);
        rewrite(ctx, op, &analysis);
        Ok(())
    }
}

/// What is known of a value that has a state at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lattice {
    /// This constant, made by this dialect.
    Constant(Attribute, Ident),
    /// Not one constant (overdefined).
    Unknown,
}

/// Where a region-branch op's control can arrive: a region's entry block,
/// or its results.
type Arrival = (Operation, Option<usize>);

struct Analysis {
    top: Operation,
    ops: Vec<Operation>,
    blocks: Vec<Block>,
    values: FxHashMap<Value, Lattice>,
    live_blocks: FxHashSet<Block>,
    live_edges: FxHashSet<(Block, Block)>,
    /// Symbol callables whose calls can all be seen.
    tracked: FxHashSet<Operation>,
    /// Of those, the ones some unseen caller may call after all.
    open_callables: FxHashSet<Operation>,
    /// The live calls of each callable in the analysis.
    callsites: FxHashMap<Operation, FxHashSet<Operation>>,
    /// Calls whose results cannot be followed: external callees, or a
    /// callee returning through an op that is not `ReturnLike`.
    open_calls: FxHashSet<Operation>,
    /// The returns known to return to each call.
    returns: FxHashMap<Operation, FxHashSet<Operation>>,
    /// The ops control arrives from, at each region entry or results of a
    /// region-branch op: the op itself (entering) or a terminator.
    arrivals: FxHashMap<Arrival, FxHashSet<Operation>>,
    changed: bool,
}

impl Analysis {
    fn new(ctx: &Context, top: Operation) -> Self {
        let mut ops = Vec::new();
        let mut blocks = Vec::new();
        for &region in ctx.op_regions(top) {
            collect(ctx, region, &mut ops, &mut blocks);
        }
        let mut analysis = Analysis {
            top,
            ops,
            blocks,
            values: FxHashMap::default(),
            live_blocks: FxHashSet::default(),
            live_edges: FxHashSet::default(),
            tracked: FxHashSet::default(),
            open_callables: FxHashSet::default(),
            callsites: FxHashMap::default(),
            open_calls: FxHashSet::default(),
            returns: FxHashMap::default(),
            arrivals: FxHashMap::default(),
            changed: false,
        };
        for &region in ctx.op_regions(top) {
            if let Some(entry) = ctx.region_entry_block(region) {
                analysis.live_blocks.insert(entry);
            }
        }
        analysis.init_symbol_callables(ctx);
        analysis
    }

    /// MLIR's `initializeSymbolCallables` (see [`symbol_callables`]).
    fn init_symbol_callables(&mut self, ctx: &Context) {
        let (tracked, open) = symbol_callables(ctx, self.top);
        self.tracked = tracked;
        self.open_callables = open;
    }

    /// Visit every op and block until nothing changes.
    fn solve(&mut self, ctx: &mut Context) {
        let ops = self.ops.clone();
        let blocks = self.blocks.clone();
        loop {
            self.changed = false;
            for &op in &ops {
                if ctx
                    .op_parent_block(op)
                    .is_some_and(|b| self.live_blocks.contains(&b))
                {
                    self.visit_control(ctx, op);
                    self.visit_results(ctx, op);
                }
            }
            for &block in &blocks {
                if self.live_blocks.contains(&block) && ctx.num_block_args(block) > 0 {
                    self.visit_arguments(ctx, block);
                }
            }
            if !self.changed {
                break;
            }
        }
    }

    fn join(&mut self, value: Value, new: Lattice) {
        let merged = match self.values.get(&value) {
            None => new,
            Some(&old) if old == new => return,
            Some(_) => Lattice::Unknown,
        };
        if self.values.insert(value, merged) != Some(merged) {
            self.changed = true;
        }
    }

    /// Join what is known of `from` (nothing when it has no state yet).
    fn join_from(&mut self, value: Value, from: Value) {
        if let Some(&state) = self.values.get(&from) {
            self.join(value, state);
        }
    }

    fn set_unknown(&mut self, values: impl IntoIterator<Item = Value>) {
        for value in values {
            self.join(value, Lattice::Unknown);
        }
    }

    fn mark_live(&mut self, block: Block) {
        if self.live_blocks.insert(block) {
            self.changed = true;
        }
    }

    fn mark_edge(&mut self, from: Block, to: Block) {
        self.mark_live(to);
        if self.live_edges.insert((from, to)) {
            self.changed = true;
        }
    }

    /// The ops recorded under `key` in `map` (none when it has none).
    fn members<K: std::hash::Hash + Eq>(
        map: &FxHashMap<K, FxHashSet<Operation>>,
        key: &K,
    ) -> Vec<Operation> {
        map.get(key)
            .map(|set| set.iter().copied().collect())
            .unwrap_or_default()
    }

    /// Join `targets` with `op`'s operands, in order.
    fn join_operands(&mut self, ctx: &Context, targets: &[Value], op: Operation) {
        let operands: Vec<Value> = ctx.operands(op).collect();
        for (&target, &operand) in targets.iter().zip(&operands) {
            self.join_from(target, operand);
        }
    }

    fn insert<K: std::hash::Hash + Eq>(
        map: &mut FxHashMap<K, FxHashSet<Operation>>,
        key: K,
        op: Operation,
        changed: &mut bool,
    ) {
        if map.entry(key).or_default().insert(op) {
            *changed = true;
        }
    }

    /// The constants of `op`'s operands, or `None` while one has no value.
    fn operand_constants(&self, ctx: &Context, op: Operation) -> Option<Vec<Option<Attribute>>> {
        ctx.operands(op)
            .map(|v| match self.values.get(&v)? {
                Lattice::Constant(attr, _) => Some(Some(*attr)),
                Lattice::Unknown => Some(None),
            })
            .collect()
    }

    /// MLIR's `DeadCodeAnalysis::visit`: calls, regions, region and
    /// callable returns, successors.
    fn visit_control(&mut self, ctx: &Context, op: Operation) {
        let traits = ctx.op_definition(op).map(|d| d.traits);
        if traits.is_some_and(|t| t.call) {
            match resolve_callee(ctx, op).filter(|&c| self.in_scope(ctx, c)) {
                Some(callee) => Self::insert(&mut self.callsites, callee, op, &mut self.changed),
                None => {
                    if self.open_calls.insert(op) {
                        self.changed = true;
                    }
                }
            }
        }
        if !ctx.op_regions(op).is_empty() {
            if let Some(&branch) = ctx.op_interface::<RegionBranch>(op) {
                if let Some(constants) = self.operand_constants(ctx, op) {
                    for successor in (branch.successors)(ctx, op, None, &constants) {
                        self.arrive(ctx, op, successor, op);
                    }
                }
            } else if traits.is_some_and(|t| t.callable) {
                let called = self.callsites.get(&op).is_some_and(|c| !c.is_empty());
                if !self.tracked.contains(&op) || self.open_callables.contains(&op) || called {
                    self.mark_entry_blocks(ctx, op);
                }
            } else {
                self.mark_entry_blocks(ctx, op);
            }
        }
        if let Some(parent) = region_or_callable_return(ctx, op) {
            if let Some(&branch) = ctx.op_interface::<RegionBranch>(parent) {
                let index = ctx
                    .op_parent_block(op)
                    .and_then(|b| ctx.block_parent_region(b))
                    .and_then(|r| ctx.op_regions(parent).iter().position(|&x| x == r));
                if let (Some(index), Some(constants)) = (index, self.operand_constants(ctx, op)) {
                    for successor in (branch.successors)(ctx, parent, Some(index), &constants) {
                        self.arrive(ctx, parent, successor, op);
                    }
                }
            } else if ctx.num_operands(op) > 0 {
                let return_like = traits.is_some_and(|t| t.return_like);
                for call in Self::members(&self.callsites, &parent) {
                    if return_like {
                        Self::insert(&mut self.returns, call, op, &mut self.changed);
                    } else if self.open_calls.insert(call) {
                        self.changed = true;
                    }
                }
            }
        }
        if ctx.num_successors(op) > 0 {
            let Some(block) = ctx.op_parent_block(op) else {
                return;
            };
            let successors: Vec<Block> = ctx.successors(op).collect();
            match ctx.op_interface::<Branch>(op).copied() {
                Some(branch) => {
                    let Some(constants) = self.operand_constants(ctx, op) else {
                        return;
                    };
                    match (branch.taken_successor)(ctx, op, &constants) {
                        Some(i) => {
                            if let Some(&to) = successors.get(i) {
                                self.mark_edge(block, to);
                            }
                        }
                        None => successors.iter().for_each(|&to| self.mark_edge(block, to)),
                    }
                }
                None => successors.iter().for_each(|&to| self.mark_edge(block, to)),
            }
        }
    }

    /// Control may arrive at `successor` of region-branch op `branch` from
    /// `from` (the op itself, or a terminator in one of its regions).
    fn arrive(
        &mut self,
        ctx: &Context,
        branch: Operation,
        successor: RegionSuccessor,
        from: Operation,
    ) {
        let at = match successor {
            RegionSuccessor::Region(i) => {
                let entry = ctx
                    .op_regions(branch)
                    .get(i)
                    .and_then(|&r| ctx.region_entry_block(r));
                let Some(entry) = entry else {
                    return;
                };
                self.mark_live(entry);
                Some(i)
            }
            RegionSuccessor::Parent => None,
        };
        Self::insert(&mut self.arrivals, (branch, at), from, &mut self.changed);
    }

    fn mark_entry_blocks(&mut self, ctx: &Context, op: Operation) {
        for &region in ctx.op_regions(op) {
            if let Some(entry) = ctx.region_entry_block(region) {
                self.mark_live(entry);
            }
        }
    }

    /// Whether `callable` is inside the anchor and has a body (else it is
    /// external).
    fn in_scope(&self, ctx: &Context, callable: Operation) -> bool {
        is_callable_with_body(ctx, callable) && ctx.is_ancestor(self.top, callable)
    }

    /// MLIR's `SparseForwardDataFlowAnalysis::visitOperation` with
    /// `SparseConstantPropagation`.
    fn visit_results(&mut self, ctx: &mut Context, op: Operation) {
        if ctx.num_results(op) == 0 {
            return;
        }
        let results: Vec<Value> = ctx.results(op).collect();
        if let Some(&branch) = ctx.op_interface::<RegionBranch>(op) {
            self.flow_into(ctx, op, branch, None, &results);
            return;
        }
        if ctx.op_definition(op).is_some_and(|d| d.traits.call) {
            if self.open_calls.contains(&op) {
                return self.set_unknown(results);
            }
            for ret in Self::members(&self.returns, &op) {
                self.join_operands(ctx, &results, ret);
            }
            return;
        }
        let Some(constants) = self.operand_constants(ctx, op) else {
            return;
        };
        if !ctx.op_regions(op).is_empty() {
            // A region op is not simulated (folding it might not be out of place).
            return self.set_unknown(results);
        }
        match simulate_fold(ctx, op, &constants) {
            Some(folded) => {
                let dialect = dialect_of(ctx, op);
                for (&result, fold) in results.iter().zip(folded) {
                    match fold {
                        Folded::Attr(attr) => match dialect {
                            Some(d) => self.join(result, Lattice::Constant(attr, d)),
                            None => self.join(result, Lattice::Unknown),
                        },
                        Folded::Value(value) => self.join_from(result, value),
                    }
                }
            }
            None => self.set_unknown(results),
        }
    }

    /// MLIR's `visitBlock`: the arguments of a live block.
    fn visit_arguments(&mut self, ctx: &Context, block: Block) {
        let args: Vec<Value> = ctx.block_args(block).collect();
        let Some(region) = ctx.block_parent_region(block) else {
            return;
        };
        if ctx.region_entry_block(region) == Some(block) {
            let Some(parent) = ctx.region_parent_op(region) else {
                return;
            };
            let traits = ctx.op_definition(parent).map(|d| d.traits);
            let is_body = ctx.op_regions(parent).first() == Some(&region);
            if traits.is_some_and(|t| t.callable) && is_body {
                if !self.tracked.contains(&parent) || self.open_callables.contains(&parent) {
                    return self.set_unknown(args);
                }
                for call in Self::members(&self.callsites, &parent) {
                    self.join_operands(ctx, &args, call);
                }
                return;
            }
            if let Some(&branch) = ctx.op_interface::<RegionBranch>(parent) {
                let index = ctx.op_regions(parent).iter().position(|&r| r == region);
                return self.flow_into(ctx, parent, branch, index, &args);
            }
            return self.set_unknown(args);
        }
        // Join what each live edge into the block passes.
        let predecessors: Vec<Block> = ctx
            .region_blocks(region)
            .filter(|&p| self.live_edges.contains(&(p, block)))
            .collect();
        for pred in predecessors {
            let Some(terminator) = ctx.block_last_op(pred) else {
                continue;
            };
            let Some(branch) = ctx.op_interface::<Branch>(terminator).copied() else {
                self.set_unknown(args.iter().copied());
                continue;
            };
            let successors: Vec<Block> = ctx.successors(terminator).collect();
            for (i, _) in successors.iter().enumerate().filter(|(_, &s)| s == block) {
                let range = (branch.successor_operands)(ctx, terminator, i);
                let operands: Vec<Value> = range.map(|j| ctx.operand(terminator, j)).collect();
                for (k, &arg) in args.iter().enumerate() {
                    match operands.get(k) {
                        Some(&operand) => self.join_from(arg, operand),
                        None => self.join(arg, Lattice::Unknown),
                    }
                }
            }
        }
    }

    /// MLIR's `visitRegionSuccessors`: the values arriving at region `at`
    /// of `op` (`None`: its results), `targets` being all its arguments (or
    /// results): the forwarded operands of each known arrival, after the
    /// leading arguments, which get no value.
    fn flow_into(
        &mut self,
        ctx: &Context,
        op: Operation,
        branch: RegionBranch,
        at: Option<usize>,
        targets: &[Value],
    ) {
        let arrivals = Self::members(&self.arrivals, &(op, at));
        let leading = at.map_or(0, |i| (branch.leading_arguments)(ctx, op, i));
        for from in arrivals {
            let operands = if from == op {
                Some((branch.entry_operands)(ctx, op))
            } else if let Some(terminator) = ctx.op_interface::<RegionTerminator>(from) {
                Some((terminator.forwarded)(ctx, from))
            } else if ctx
                .op_definition(from)
                .is_some_and(|d| d.traits.return_like)
            {
                Some(ctx.operands(from).collect())
            } else {
                None
            };
            let Some(operands) = operands else {
                return self.set_unknown(targets.iter().copied());
            };
            let inputs = &targets[leading.min(targets.len())..];
            // Arguments nothing is forwarded to get no value to follow.
            self.set_unknown(targets[..leading.min(targets.len())].iter().copied());
            self.set_unknown(inputs.iter().skip(operands.len()).copied());
            for (&input, &operand) in inputs.iter().zip(&operands) {
                self.join_from(input, operand);
            }
        }
    }
}

/// MLIR's `initializeSymbolCallables`: in every symbol table under `top`,
/// the callables with a body (the first set); those that are public, or
/// nested in a table whose uses are not all visible, or named by something
/// other than a call, may have unseen callers (the second set).
pub(crate) fn symbol_callables(
    ctx: &Context,
    top: Operation,
) -> (FxHashSet<Operation>, FxHashSet<Operation>) {
    let mut tracked = FxHashSet::default();
    let mut open = FxHashSet::default();
    let mut tables = Vec::new();
    let top_visible = ctx.op_parent_block(top).is_none();
    symbol_tables(ctx, top, top_visible, &mut tables);
    for (table, all_uses_visible) in tables {
        let Some(region) = ctx.op_regions(table).first().copied() else {
            continue;
        };
        let mut found = false;
        for op in ctx.region_blocks(region).flat_map(|b| ctx.block_ops(b)) {
            if !is_callable_with_body(ctx, op) || !ctx.is_symbol(op) {
                continue;
            }
            tracked.insert(op);
            let visibility = ctx.symbol_visibility(op);
            let public = visibility.is_none_or(|v| v == b"public");
            let nested = visibility == Some(b"nested");
            if public || (!all_uses_visible && nested) {
                open.insert(op);
            }
            found = true;
        }
        if !found {
            continue;
        }
        match non_call_symbol_uses(ctx, region) {
            Some(uses) => {
                for reference in uses {
                    if let Some(symbol) = SymbolTable::lookup_ref(ctx, top, reference) {
                        open.insert(symbol);
                    }
                }
            }
            None => {
                for op in ctx.collect_ops(top, WalkOrder::PreOrder) {
                    if is_callable_with_body(ctx, op) {
                        open.insert(op);
                    }
                }
            }
        }
    }
    (tracked, open)
}

/// The ops (pre-order) and blocks under `region`.
fn collect(ctx: &Context, region: Region, ops: &mut Vec<Operation>, blocks: &mut Vec<Block>) {
    for block in ctx.region_blocks(region) {
        blocks.push(block);
        for op in ctx.block_ops(block) {
            ops.push(op);
            for &inner in ctx.op_regions(op) {
                collect(ctx, inner, ops, blocks);
            }
        }
    }
}

/// MLIR's `SymbolTable::walkSymbolTables`: each symbol table under `op`
/// (inner ones first), with whether all uses of its symbols are visible.
fn symbol_tables(ctx: &Context, op: Operation, visible: bool, out: &mut Vec<(Operation, bool)>) {
    let table = ctx.is_symbol_table(op);
    let visible = if table {
        visible || !ctx.is_symbol(op) || ctx.symbol_visibility(op) == Some(b"private")
    } else {
        true
    };
    for &region in ctx.op_regions(op) {
        for block in ctx.region_blocks(region) {
            for inner in ctx.block_ops(block) {
                symbol_tables(ctx, inner, visible, out);
            }
        }
    }
    if table {
        out.push((op, visible));
    }
}

/// The symbol references in `region` held by ops other than calls, not
/// entering nested symbol tables (their own attributes count); `None` when
/// an op that might be an unknown symbol table is met.
fn non_call_symbol_uses(ctx: &Context, region: Region) -> Option<Vec<Attribute>> {
    let not_call = |o: Operation| !ctx.op_definition(o).is_some_and(|d| d.traits.call);
    let mut refs = Vec::new();
    for op in ctx.region_blocks(region).flat_map(|b| ctx.block_ops(b)) {
        refs.extend(symbol_uses_by(ctx, op, not_call)?);
    }
    Some(refs)
}

fn is_callable_with_body(ctx: &Context, op: Operation) -> bool {
    ctx.op_definition(op).is_some_and(|d| d.traits.callable)
        && ctx
            .op_regions(op)
            .first()
            .is_some_and(|&r| !ctx.region_is_empty(r))
}

/// The op whose region `op` returns from, when `op` is the terminator of
/// a region of a region-branch op or of a callable (no successors, last
/// in its block).
fn region_or_callable_return(ctx: &Context, op: Operation) -> Option<Operation> {
    if ctx.num_successors(op) != 0 || ctx.op_next(op).is_some() {
        return None;
    }
    let parent = ctx.op_parent_op(op)?;
    let is_branch = ctx.op_interface::<RegionBranch>(parent).is_some();
    let is_callable = ctx.op_definition(parent).is_some_and(|d| d.traits.callable);
    (is_branch || is_callable).then_some(parent)
}

fn dialect_of(ctx: &mut Context, op: Operation) -> Option<Ident> {
    let name = ctx.op_name_str(op).to_string();
    let (dialect, _) = name.split_once('.')?;
    Some(ctx.ident(dialect))
}

/// A simulated fold result.
enum Folded {
    Attr(Attribute),
    Value(Value),
}

/// Fold `op` as if its operands had `constants`, without changing it:
/// `None` when it does not fold, or folds in place (then any change the
/// fold hook made is undone).
fn simulate_fold(
    ctx: &mut Context,
    op: Operation,
    constants: &[Option<Attribute>],
) -> Option<Vec<Folded>> {
    let fold = ctx.op_definition(op)?.fold?;
    let properties = ctx.op_properties(op);
    let attrs = ctx.op_attr_dict(op);
    let operands: Vec<Value> = ctx.operands(op).collect();
    let folded = fold(ctx, op, constants);
    let own = |i: usize| Value::Result(op, i as u32);
    let in_place = folded.as_ref().is_none_or(|results| {
        results
            .iter()
            .enumerate()
            .all(|(i, r)| *r == strata_ir::dialect::FoldResult::Value(own(i)))
    });
    if in_place {
        ctx.set_op_properties(op, properties);
        ctx.set_op_attr_dict(op, attrs);
        ctx.set_operands(op, &operands);
        return None;
    }
    let results = folded?;
    if results.len() != ctx.num_results(op) {
        return None;
    }
    Some(
        results
            .into_iter()
            .map(|r| match r {
                strata_ir::dialect::FoldResult::Attr(a) => Folded::Attr(a),
                strata_ir::dialect::FoldResult::Value(v) => Folded::Value(v),
            })
            .collect(),
    )
}

/// MLIR's SCCP `rewrite`: blocks in worklist order (a stack, regions
/// pushed as their op is met); each op's results, then each block's
/// arguments, replaced by their constants where known.
fn rewrite(ctx: &mut Context, top: Operation, analysis: &Analysis) {
    let mut folder = OperationFolder::new();
    let mut rewriter = PatternRewriter::new(ctx);
    let mut worklist: Vec<Block> = Vec::new();
    let push_regions = |ctx: &Context, op: Operation, worklist: &mut Vec<Block>| {
        for &region in ctx.op_regions(op) {
            let blocks: Vec<Block> = ctx.region_blocks(region).collect();
            worklist.extend(blocks.into_iter().rev());
        }
    };
    push_regions(rewriter.ctx(), top, &mut worklist);
    while let Some(block) = worklist.pop() {
        let ops: Vec<Operation> = rewriter.ctx().block_ops(block).collect();
        for op in ops {
            let results: Vec<Value> = rewriter.ctx().results(op).collect();
            let mut replaced_all = !results.is_empty();
            for result in results {
                replaced_all &=
                    replace_with_constant(&mut rewriter, &mut folder, analysis, block, result);
            }
            if replaced_all && would_op_be_trivially_dead(rewriter.ctx(), op) {
                rewriter.erase_op(op);
                continue;
            }
            push_regions(rewriter.ctx(), op, &mut worklist);
        }
        let args: Vec<Value> = rewriter.ctx().block_args(block).collect();
        for arg in args {
            replace_with_constant(&mut rewriter, &mut folder, analysis, block, arg);
        }
    }
}

fn replace_with_constant(
    rewriter: &mut PatternRewriter<'_>,
    folder: &mut OperationFolder,
    analysis: &Analysis,
    block: Block,
    value: Value,
) -> bool {
    let Some(&Lattice::Constant(attr, dialect)) = analysis.values.get(&value) else {
        return false;
    };
    let ty = rewriter.ctx().value_type(value);
    let dialect = rewriter.ctx().ident_str(dialect).to_string();
    let Some(constant) = folder.get_or_create_constant(rewriter, block, &dialect, attr, ty) else {
        return false;
    };
    rewriter.replace_all_uses_with(value, constant);
    true
}
