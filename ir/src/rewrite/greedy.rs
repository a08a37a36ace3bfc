//! The greedy pattern rewrite driver (MLIR's `applyPatternsGreedily`): fold,
//! erase dead code and apply the best matching pattern to every operation
//! nested in a root, until nothing changes.
//!
//! Each region of the root is simplified on its own. One sweep seeds a
//! worklist with every op of the region (pre-order and processed in order
//! when `top_down`, else post-order), adopting pre-existing constants into
//! the folder on the way (merging duplicates, hoisting them). Then, for each
//! op popped: erase it if trivially dead; else fold it, materializing the
//! constants of folded attributes right before it (the next sweep merges
//! and hoists them; constant-like ops are not folded: they would only be
//! rematerialized); else try the patterns for its name, best benefit first,
//! until one succeeds. The rewriter's listener keeps the worklist current:
//! inserted and modified ops are (re)added with their ancestors, the
//! definitions of an erased op's operands are re-added when they are left
//! with at most one user, and erased ops are dropped. Sweeps repeat while
//! the previous one erased, folded or rewrote something (merging constants
//! alone does not call for another sweep), up to `max_iterations`. All of
//! this follows MLIR, so that the output matches `mlir-opt --canonicalize`
//! op for op.

use crate::context::{Context, Operation, Region};
use crate::diagnostics::Diagnostic;
use crate::dialect::FoldResult;
use crate::ir::Value;
use crate::rewrite::folder::{
    apply_fold_values, run_fold_hooks, FoldOutcome, Folded, KnownConstant, OperationFolder,
};
use crate::rewrite::pattern::FrozenPatternSet;
use crate::rewrite::region_simplify::{erase_unreachable_blocks, run_region_dce, RegionSimplify};
use crate::rewrite::rewriter::{PatternRewriter, RewriterListener};
use crate::rewrite::trivially_dead::is_trivially_dead;
use crate::walk::WalkOrder;

/// The error message when the rewrite does not reach a fixpoint within
/// `max_iterations` sweeps (mlir-opt's text for
/// `canonicalize{test-convergence=true}`).
pub const NON_CONVERGENCE_MESSAGE: &str = "Canonicalizer failed to converge";

/// How the greedy driver runs (MLIR's `GreedyRewriteConfig`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GreedyConfig {
    /// Visit ops top-down (pre-order, in order); `false`: bottom-up (post-order).
    pub top_down: bool,
    /// The most sweeps over the IR (`None`: no limit). Default 10.
    pub max_iterations: Option<u32>,
    /// The most pattern applications per sweep (`None`: no limit; folding and
    /// dead-code erasure do not count). Default `None`.
    pub max_num_rewrites: Option<u64>,
    /// Fold ops through their `fold` hook. Default `true`.
    pub fold: bool,
    /// Merge equal constant ops and hoist them to the entry block of their
    /// isolated region. Default `true`.
    pub cse_constants: bool,
    /// Simplify the region tree after each sweep (erase unreachable blocks).
    /// Default [`RegionSimplify::Normal`].
    pub region_simplify: RegionSimplify,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            top_down: true,
            max_iterations: Some(10),
            max_num_rewrites: None,
            fold: true,
            cse_constants: true,
            region_simplify: RegionSimplify::Normal,
        }
    }
}

/// Rewrite the ops nested in `root`'s regions (not `root` itself, which
/// should be isolated from above) with `patterns`, folding and erasing dead
/// ops, until a fixpoint. Returns whether the IR changed, or the
/// [`NON_CONVERGENCE_MESSAGE`] error at `root` when `max_iterations` sweeps
/// did not reach a fixpoint (the IR is then valid but partially rewritten;
/// callers for which canonicalization is best-effort may ignore the error).
pub fn apply_patterns_greedily(
    ctx: &mut Context,
    root: Operation,
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
) -> Result<bool, Diagnostic> {
    apply_patterns_greedily_with_listener(ctx, root, patterns, config, &mut NoListener)
}

/// [`apply_patterns_greedily`], also reporting every change to `listener`.
pub fn apply_patterns_greedily_with_listener(
    ctx: &mut Context,
    root: Operation,
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
    listener: &mut dyn RewriterListener,
) -> Result<bool, Diagnostic> {
    let mut changed = false;
    let mut converged = true;
    for region in ctx.op_regions(root).to_vec() {
        let mut driver = Driver {
            scope: region,
            worklist: Worklist::default(),
            user: &mut *listener,
        };
        let outcome = driver.simplify(ctx, patterns, config);
        changed |= outcome.changed;
        converged &= outcome.converged;
    }
    if !converged {
        return Err(Diagnostic::error(ctx.op_loc(root), NON_CONVERGENCE_MESSAGE).on_op(root));
    }
    Ok(changed)
}

struct NoListener;

impl RewriterListener for NoListener {}

struct Outcome {
    changed: bool,
    converged: bool,
}

/// The state of the driver for one region; it is the rewriter's listener.
struct Driver<'l> {
    scope: Region,
    worklist: Worklist,
    user: &'l mut dyn RewriterListener,
}

impl Driver<'_> {
    fn simplify(
        &mut self,
        ctx: &mut Context,
        patterns: &FrozenPatternSet,
        config: &GreedyConfig,
    ) -> Outcome {
        let mut changed = false;
        let mut iteration: u32 = 0;
        loop {
            iteration = iteration.saturating_add(1);
            if config.max_iterations.is_some_and(|max| iteration > max) {
                // Past the first sweep, we only get here when the last one
                // changed the IR.
                return Outcome {
                    changed,
                    converged: iteration == 1,
                };
            }
            // A fresh folder per sweep, as MLIR: it adopts the constants as
            // they are now.
            let mut folder = OperationFolder::new();
            changed |= self.seed(ctx, &mut folder, config);
            let rewrote = self.process(ctx, patterns, config);
            changed |= rewrote;
            // The worklist is empty here and the next sweep reseeds it, so
            // only the user's listener hears of the erased blocks.
            let simplified = config.region_simplify != RegionSimplify::Disabled && {
                let erased = erase_unreachable_blocks(ctx, &[self.scope], &mut *self.user);
                run_region_dce(ctx, &[self.scope], &mut *self.user) | erased
            };
            changed |= simplified;
            if !rewrote && !simplified {
                return Outcome {
                    changed,
                    converged: true,
                };
            }
        }
    }

    /// Fill the worklist with every op of the scope; returns whether
    /// adopting constants changed the IR.
    fn seed(
        &mut self,
        ctx: &mut Context,
        folder: &mut OperationFolder,
        config: &GreedyConfig,
    ) -> bool {
        self.worklist.clear();
        let order = if config.top_down {
            WalkOrder::PreOrder
        } else {
            WalkOrder::PostOrder
        };
        let ops = ctx.collect_ops(self.scope, order);
        let mut changed = false;
        let mut erased: Option<Operation> = None;
        for op in ops {
            // Skip what was nested in a constant that was just merged away.
            if let Some(gone) = erased {
                if ctx.is_ancestor(gone, op) {
                    continue;
                }
                erased = None;
            }
            if config.cse_constants && is_constant_like(ctx, op) {
                let mut rewriter = PatternRewriter::with_listener(ctx, self);
                match folder.insert_known_constant(&mut rewriter, op, None) {
                    KnownConstant::Deduplicated => {
                        changed = true;
                        erased = Some(op);
                        continue;
                    }
                    KnownConstant::Hoisted => changed = true,
                    KnownConstant::Unchanged => {}
                }
            }
            self.add_to_worklist(ctx, op);
        }
        if config.top_down {
            // The worklist pops from the back.
            self.worklist.reverse();
        }
        changed
    }

    /// Process the worklist until it is empty (or the rewrite budget is
    /// spent); returns whether the IR changed.
    fn process(
        &mut self,
        ctx: &mut Context,
        patterns: &FrozenPatternSet,
        config: &GreedyConfig,
    ) -> bool {
        let mut changed = false;
        let mut num_rewrites: u64 = 0;
        while config.max_num_rewrites.is_none_or(|max| num_rewrites < max) {
            let Some(op) = self.worklist.pop() else {
                break;
            };
            if is_trivially_dead(ctx, op) {
                PatternRewriter::with_listener(ctx, self).erase_op(op);
                changed = true;
                continue;
            }
            let fold = config.fold && !is_constant_like(ctx, op);
            let name = ctx.op_name(op);
            let mut rewriter = PatternRewriter::with_listener(ctx, self);
            if fold && fold_op(&mut rewriter, op) {
                changed = true;
                continue;
            }
            // Under --pass-bisect-limit: no pattern once the limit is reached,
            // and each application a numbered step.
            let bisect = rewriter.ctx().bisect_describe(op);
            for pattern in patterns.patterns_for(name) {
                if !rewriter.ctx().bisect_may_apply() {
                    break;
                }
                rewriter.set_insertion_point(op);
                if pattern.match_and_rewrite(op, &mut rewriter) {
                    if let Some(before) = bisect {
                        rewriter.ctx_mut().bisect_applied(pattern.name(), before);
                    }
                    changed = true;
                    num_rewrites += 1;
                    break;
                }
            }
        }
        changed
    }

    /// Add `op` and its ancestors up to the scope, if `op` is in the scope.
    fn add_to_worklist(&mut self, ctx: &Context, op: Operation) {
        if !self.in_scope(ctx, op) {
            return;
        }
        let mut current = op;
        loop {
            self.worklist.push(current);
            match ctx.op_parent_region(current) {
                Some(region) if region != self.scope => match ctx.region_parent_op(region) {
                    Some(parent) => current = parent,
                    None => return,
                },
                _ => return,
            }
        }
    }

    fn in_scope(&self, ctx: &Context, mut op: Operation) -> bool {
        loop {
            let Some(region) = ctx.op_parent_region(op) else {
                return false;
            };
            if region == self.scope {
                return true;
            }
            match ctx.region_parent_op(region) {
                Some(parent) => op = parent,
                None => return false,
            }
        }
    }

    /// Re-add the definitions of `op`'s operands that will be left with at
    /// most one user once `op` is gone: they may now be dead or simpler.
    fn add_operands_to_worklist(&mut self, ctx: &Context, op: Operation) {
        for operand in ctx.operands(op) {
            let Value::Result(def, _) = operand else {
                continue;
            };
            let mut other_user = None;
            let mut more_users = false;
            for user in ctx.uses(operand) {
                if user.op == op || other_user == Some(user.op) {
                    continue;
                }
                if other_user.is_some() {
                    more_users = true;
                    break;
                }
                other_user = Some(user.op);
            }
            if !more_users {
                self.add_to_worklist(ctx, def);
            }
        }
    }
}

impl RewriterListener for Driver<'_> {
    fn notify_operation_inserted(&mut self, ctx: &Context, op: Operation) {
        self.user.notify_operation_inserted(ctx, op);
        self.add_to_worklist(ctx, op);
    }

    fn notify_operation_modified(&mut self, ctx: &Context, op: Operation) {
        self.user.notify_operation_modified(ctx, op);
        self.add_to_worklist(ctx, op);
    }

    fn notify_operation_replaced(&mut self, ctx: &Context, op: Operation, replacement: &[Value]) {
        self.user.notify_operation_replaced(ctx, op, replacement);
    }

    fn notify_operation_erased(&mut self, ctx: &Context, op: Operation) {
        self.user.notify_operation_erased(ctx, op);
        self.add_operands_to_worklist(ctx, op);
        self.worklist.remove(op);
    }
}

/// Rewrite only `ops`, and the ops the rewrites create, with `patterns`
/// (MLIR's `applyOpPatternsGreedily` under its `ExistingAndNewOps`
/// strictness): each op popped is erased if trivially dead, else folded
/// (when `config.fold`), else rewritten by the first matching pattern; ops
/// the rewrites insert or modify join the worklist when they are new or
/// among `ops`, and nothing else is touched (no constant merging, no
/// region simplification). `ops` are visited in order when
/// `config.top_down`. Returns whether the IR changed.
pub fn apply_op_patterns_greedily(
    ctx: &mut Context,
    ops: &[Operation],
    patterns: &FrozenPatternSet,
    config: &GreedyConfig,
) -> bool {
    let mut driver = StrictDriver {
        allowed: ops.iter().copied().collect(),
        worklist: Worklist::default(),
    };
    for &op in ops {
        driver.worklist.push(op);
    }
    if config.top_down {
        driver.worklist.reverse();
    }
    let mut changed = false;
    let mut num_rewrites: u64 = 0;
    while config.max_num_rewrites.is_none_or(|max| num_rewrites < max) {
        let Some(op) = driver.worklist.pop() else {
            break;
        };
        if is_trivially_dead(ctx, op) {
            PatternRewriter::with_listener(ctx, &mut driver).erase_op(op);
            changed = true;
            continue;
        }
        let fold = config.fold && !is_constant_like(ctx, op);
        let name = ctx.op_name(op);
        let mut rewriter = PatternRewriter::with_listener(ctx, &mut driver);
        if fold && fold_op(&mut rewriter, op) {
            changed = true;
            continue;
        }
        for pattern in patterns.patterns_for(name) {
            rewriter.set_insertion_point(op);
            if pattern.match_and_rewrite(op, &mut rewriter) {
                changed = true;
                num_rewrites += 1;
                break;
            }
        }
    }
    changed
}

/// The listener of [`apply_op_patterns_greedily`]: the ops allowed on the
/// worklist (the given ones and those created since) and the worklist.
struct StrictDriver {
    allowed: rustc_hash::FxHashSet<Operation>,
    worklist: Worklist,
}

impl StrictDriver {
    fn add(&mut self, op: Operation) {
        if self.allowed.contains(&op) {
            self.worklist.push(op);
        }
    }
}

impl RewriterListener for StrictDriver {
    fn notify_operation_inserted(&mut self, _: &Context, op: Operation) {
        self.allowed.insert(op);
        self.worklist.push(op);
    }

    fn notify_operation_modified(&mut self, _: &Context, op: Operation) {
        self.add(op);
    }

    fn notify_operation_erased(&mut self, ctx: &Context, op: Operation) {
        for operand in ctx.operands(op) {
            if let Value::Result(def, _) = operand {
                self.add(def);
            }
        }
        self.worklist.remove(op);
        self.allowed.remove(&op);
    }
}

/// Ops to visit, without duplicates, with O(1) removal: erased entries are
/// left as holes. Positions are indexed by the op's arena index.
#[derive(Default)]
struct Worklist {
    list: Vec<Option<Operation>>,
    positions: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl Worklist {
    fn push(&mut self, op: Operation) {
        let index = op.index();
        if index >= self.positions.len() {
            self.positions.resize(index + 1, ABSENT);
        }
        if self.positions[index] == ABSENT {
            self.positions[index] = self.list.len() as u32;
            self.list.push(Some(op));
        }
    }

    fn pop(&mut self) -> Option<Operation> {
        while let Some(entry) = self.list.pop() {
            if let Some(op) = entry {
                self.positions[op.index()] = ABSENT;
                return Some(op);
            }
        }
        None
    }

    fn remove(&mut self, op: Operation) {
        if let Some(position) = self.positions.get_mut(op.index()) {
            if *position != ABSENT {
                self.list[*position as usize] = None;
                *position = ABSENT;
            }
        }
    }

    fn reverse(&mut self) {
        self.list.reverse();
        for (position, entry) in self.list.iter().enumerate() {
            if let Some(op) = entry {
                self.positions[op.index()] = position as u32;
            }
        }
    }

    fn clear(&mut self) {
        for op in self.list.drain(..).flatten() {
            self.positions[op.index()] = ABSENT;
        }
    }
}

/// Fold `op` as MLIR's greedy driver does: constants for folded attributes
/// are materialized right before `op` (the next sweep merges and hoists
/// them); returns whether the IR changed.
fn fold_op(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    match run_fold_hooks(rewriter.ctx_mut(), op) {
        Folded::Nothing => false,
        Folded::InPlace => {
            rewriter.modify_op_in_place(op, |_| ());
            true
        }
        Folded::Results(results) => replace_with_fold_results(rewriter, op, &results),
    }
}

/// Replace `op`'s results by its fold results (see `apply_fold_values`);
/// false (and no change) when a constant cannot be materialized or a value
/// has the wrong type.
fn replace_with_fold_results(
    rewriter: &mut PatternRewriter<'_>,
    op: Operation,
    results: &[FoldResult],
) -> bool {
    let ctx = rewriter.ctx();
    if results.len() != ctx.num_results(op) {
        return false;
    }
    let materialize = ctx
        .op_name_str(op)
        .split_once('.')
        .and_then(|(dialect, _)| ctx.registry().constant_materializer(dialect));
    let loc = ctx.op_loc(op);
    rewriter.set_insertion_point(op);
    let mut values = Vec::with_capacity(results.len());
    let mut created = Vec::new();
    for (index, result) in results.iter().enumerate() {
        let ty = rewriter.ctx().value_type(Value::Result(op, index as u32));
        let value = match *result {
            FoldResult::Value(value) => (rewriter.ctx().value_type(value) == ty).then_some(value),
            FoldResult::Attr(attr) => materialize
                .and_then(|m| m(rewriter.ctx_mut(), attr, ty, loc))
                .and_then(|constant| {
                    let ctx = rewriter.ctx_mut();
                    if ctx.num_results(constant) == 0
                        || ctx.value_type(Value::Result(constant, 0)) != ty
                    {
                        ctx.erase_op(constant);
                        return None;
                    }
                    created.push(rewriter.insert(constant));
                    Some(Value::Result(constant, 0))
                }),
        };
        match value {
            Some(value) => values.push(value),
            None => {
                values.clear();
                break;
            }
        }
    }
    if !values.is_empty() && apply_fold_values(rewriter, op, &values) != FoldOutcome::Unchanged {
        return true;
    }
    for &constant in created.iter().rev() {
        rewriter.erase_op(constant);
    }
    false
}

fn is_constant_like(ctx: &Context, op: Operation) -> bool {
    ctx.op_definition(op)
        .is_some_and(|d| d.traits.constant_like)
}
