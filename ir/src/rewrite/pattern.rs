//! Rewrite patterns and pattern sets (MLIR's `RewritePattern`,
//! `RewritePatternSet` and `FrozenRewritePatternSet`).
//!
//! A pattern names the operation it applies to (or none: any operation), a
//! benefit, and a `match_and_rewrite` that changes the IR through the
//! rewriter. A frozen set is indexed by root name once, so a driver finds the
//! candidates of an operation with one lookup, best benefit first.

use rustc_hash::FxHashMap;

use crate::context::{Context, Ident, Operation};
use crate::rewrite::rewriter::PatternRewriter;

/// A local rewrite of the IR rooted at one operation.
pub trait RewritePattern {
    /// The name of the operations this pattern applies to (`None`: any operation).
    fn root_name(&self) -> Option<&str>;

    /// How good the rewrite is; among the patterns that match an operation,
    /// higher benefits are tried first.
    fn benefit(&self) -> u16 {
        1
    }

    /// A name for debugging and for enabling or disabling the pattern by name.
    fn name(&self) -> &str {
        std::any::type_name::<Self>()
    }

    /// Rewrite `op` if the pattern matches, returning whether the IR changed.
    /// Every change goes through `rewriter` (whose insertion point is right
    /// before `op`); a pattern that returns `false` must not have changed
    /// anything.
    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool;
}

/// The rewrite of an [`FnPattern`]: `(op, rewriter)`, the order of
/// [`RewritePattern::match_and_rewrite`].
pub type RewriteFn = Box<dyn Fn(Operation, &mut PatternRewriter<'_>) -> bool>;

/// A pattern given by a function: the op it applies to, its name, and the
/// rewrite (for the many patterns that need no state of their own).
pub struct FnPattern {
    root: &'static str,
    name: &'static str,
    rewrite: RewriteFn,
}

impl FnPattern {
    /// A pattern named `name` rewriting `root` ops with `rewrite`, a
    /// function of `(op, rewriter)` returning whether it changed the IR
    /// (as [`RewritePattern::match_and_rewrite`]).
    pub fn new(
        root: &'static str,
        name: &'static str,
        rewrite: impl Fn(Operation, &mut PatternRewriter<'_>) -> bool + 'static,
    ) -> Self {
        FnPattern {
            root,
            name,
            rewrite: Box::new(rewrite),
        }
    }
}

impl RewritePattern for FnPattern {
    fn root_name(&self) -> Option<&str> {
        Some(self.root)
    }

    fn name(&self) -> &str {
        self.name
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        (self.rewrite)(op, rewriter)
    }
}

/// A list of patterns being collected (MLIR's `RewritePatternSet`).
#[derive(Default)]
pub struct RewritePatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
}

impl RewritePatternSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a pattern.
    pub fn add(&mut self, pattern: impl RewritePattern + 'static) -> &mut Self {
        self.patterns.push(Box::new(pattern));
        self
    }

    /// Add an already boxed pattern.
    pub fn add_boxed(&mut self, pattern: Box<dyn RewritePattern>) -> &mut Self {
        self.patterns.push(pattern);
        self
    }

    /// Keep only the patterns for which `keep` holds (e.g. to disable some by name).
    pub fn retain(&mut self, mut keep: impl FnMut(&dyn RewritePattern) -> bool) {
        self.patterns.retain(|p| keep(p.as_ref()));
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the set has no patterns.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Index the patterns by root name for use by a driver.
    pub fn freeze(self, ctx: &mut Context) -> FrozenPatternSet {
        FrozenPatternSet::new(ctx, self)
    }
}

/// An immutable, indexed pattern set (MLIR's `FrozenRewritePatternSet`).
pub struct FrozenPatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
    /// For each root name: its own patterns merged with the any-op ones, best first.
    by_root: FxHashMap<Ident, Vec<u32>>,
    /// The any-op patterns, best first (for names without their own patterns).
    any_op: Vec<u32>,
}

impl FrozenPatternSet {
    /// Freeze `set`: patterns are ordered by decreasing benefit, ties kept in
    /// insertion order, and for equal benefits a pattern for the specific
    /// operation is tried before an any-op pattern (as MLIR's
    /// `PatternApplicator`).
    pub fn new(ctx: &mut Context, set: RewritePatternSet) -> Self {
        let patterns = set.patterns;
        let mut specific: FxHashMap<Ident, Vec<u32>> = FxHashMap::default();
        let mut any_op = Vec::new();
        for (index, pattern) in patterns.iter().enumerate() {
            match pattern.root_name() {
                Some(name) => specific
                    .entry(ctx.ident(name))
                    .or_default()
                    .push(index as u32),
                None => any_op.push(index as u32),
            }
        }
        let by_benefit = |list: &mut Vec<u32>| {
            list.sort_by_key(|&i| std::cmp::Reverse(patterns[i as usize].benefit()));
        };
        by_benefit(&mut any_op);
        let by_root = specific
            .into_iter()
            .map(|(name, mut list)| {
                by_benefit(&mut list);
                (name, merge_by_benefit(&patterns, &list, &any_op))
            })
            .collect();
        FrozenPatternSet {
            patterns,
            by_root,
            any_op,
        }
    }

    /// The patterns that may apply to an operation named `name`, best first.
    pub fn patterns_for(&self, name: Ident) -> impl Iterator<Item = &dyn RewritePattern> + '_ {
        self.by_root
            .get(&name)
            .unwrap_or(&self.any_op)
            .iter()
            .map(|&i| self.patterns[i as usize].as_ref())
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the set has no patterns.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }
}

/// Merge two lists sorted by decreasing benefit; on ties `first` wins.
fn merge_by_benefit(
    patterns: &[Box<dyn RewritePattern>],
    first: &[u32],
    second: &[u32],
) -> Vec<u32> {
    let benefit = |i: u32| patterns[i as usize].benefit();
    let mut merged = Vec::with_capacity(first.len() + second.len());
    let (mut a, mut b) = (0, 0);
    while a < first.len() || b < second.len() {
        let take_first = match (first.get(a), second.get(b)) {
            (Some(&x), Some(&y)) => benefit(x) >= benefit(y),
            (Some(_), None) => true,
            _ => false,
        };
        if take_first {
            merged.push(first[a]);
            a += 1;
        } else {
            merged.push(second[b]);
            b += 1;
        }
    }
    merged
}
