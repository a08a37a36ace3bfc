//! Conversion patterns and pattern sets (MLIR's `ConversionPattern` and the
//! frozen pattern set the conversion driver reads).
//!
//! A conversion pattern is a rewrite pattern that also receives the
//! operands of its root as the conversion sees them: already converted
//! (when a type converter is given, each operand in its converted type).

use rustc_hash::FxHashMap;

use crate::context::{Context, Ident, Operation};
use crate::ir::Value;
use crate::rewrite::conversion::rewriter::ConversionPatternRewriter;

/// A pattern that legalizes operations by rewriting them (MLIR's
/// `ConversionPattern`).
pub trait ConversionPattern {
    /// The name of the operations this pattern applies to (`None`: any operation).
    fn root_name(&self) -> Option<&str>;

    /// How good the rewrite is; higher benefits are tried first.
    fn benefit(&self) -> u16 {
        1
    }

    /// A name for debugging.
    fn name(&self) -> &str {
        std::any::type_name::<Self>()
    }

    /// Whether the pattern may apply to operations created by its own
    /// application (MLIR's `hasBoundedRewriteRecursion`); by default a
    /// pattern is not applied again while legalizing what it produced.
    fn has_bounded_rewrite_recursion(&self) -> bool {
        false
    }

    /// Rewrite `op` through `rewriter` (whose insertion point is right
    /// before `op`), replacing it, erasing it or changing it in place;
    /// `operands` are its operands as converted so far. Returns whether it
    /// matched; changes made before returning `false` are rolled back.
    fn match_and_rewrite(
        &self,
        op: Operation,
        operands: &[Value],
        rewriter: &mut ConversionPatternRewriter<'_>,
    ) -> bool;
}

/// The closure of a [`FnPattern`].
pub type PatternFn = Box<dyn Fn(Operation, &[Value], &mut ConversionPatternRewriter<'_>) -> bool>;

/// A conversion pattern made of a root name, a benefit and a closure.
pub struct FnPattern {
    root: Option<String>,
    benefit: u16,
    f: PatternFn,
}

impl FnPattern {
    /// A pattern for operations named `root` (`None`: any) running `f`.
    pub fn new(
        root: Option<&str>,
        benefit: u16,
        f: impl Fn(Operation, &[Value], &mut ConversionPatternRewriter<'_>) -> bool + 'static,
    ) -> Self {
        FnPattern {
            root: root.map(str::to_string),
            benefit,
            f: Box::new(f),
        }
    }
}

impl ConversionPattern for FnPattern {
    fn root_name(&self) -> Option<&str> {
        self.root.as_deref()
    }

    fn benefit(&self) -> u16 {
        self.benefit
    }

    fn match_and_rewrite(
        &self,
        op: Operation,
        operands: &[Value],
        rewriter: &mut ConversionPatternRewriter<'_>,
    ) -> bool {
        (self.f)(op, operands, rewriter)
    }
}

/// Conversion patterns being collected.
#[derive(Default)]
pub struct ConversionPatternSet {
    patterns: Vec<Box<dyn ConversionPattern>>,
}

impl ConversionPatternSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a pattern.
    pub fn add(&mut self, pattern: impl ConversionPattern + 'static) -> &mut Self {
        self.patterns.push(Box::new(pattern));
        self
    }

    /// Add a pattern made of a closure (see [`FnPattern`]).
    pub fn add_fn(
        &mut self,
        root: Option<&str>,
        benefit: u16,
        f: impl Fn(Operation, &[Value], &mut ConversionPatternRewriter<'_>) -> bool + 'static,
    ) -> &mut Self {
        self.add(FnPattern::new(root, benefit, f))
    }

    /// Add an already boxed pattern.
    pub fn add_boxed(&mut self, pattern: Box<dyn ConversionPattern>) -> &mut Self {
        self.patterns.push(pattern);
        self
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the set has no patterns.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Index the patterns by root name for the driver.
    pub fn freeze(self, ctx: &mut Context) -> FrozenConversionPatternSet {
        FrozenConversionPatternSet::new(ctx, self)
    }
}

/// An immutable set of conversion patterns indexed by root name.
pub struct FrozenConversionPatternSet {
    patterns: Vec<Box<dyn ConversionPattern>>,
    /// Per root name: its own patterns merged with the any-op ones, best first.
    by_root: FxHashMap<Ident, Vec<usize>>,
    /// The any-op patterns, best first.
    any_op: Vec<usize>,
}

impl FrozenConversionPatternSet {
    /// Freeze `set`: by decreasing benefit, ties in insertion order, and a
    /// pattern for the specific operation before an any-op pattern of the
    /// same benefit.
    pub fn new(ctx: &mut Context, set: ConversionPatternSet) -> Self {
        let patterns = set.patterns;
        let mut specific: FxHashMap<Ident, Vec<usize>> = FxHashMap::default();
        let mut any_op = Vec::new();
        for (index, pattern) in patterns.iter().enumerate() {
            match pattern.root_name() {
                Some(name) => specific.entry(ctx.ident(name)).or_default().push(index),
                None => any_op.push(index),
            }
        }
        let benefit = |i: &usize| std::cmp::Reverse(patterns[*i].benefit());
        any_op.sort_by_key(benefit);
        let by_root = specific
            .into_iter()
            .map(|(name, mut list)| {
                list.sort_by_key(benefit);
                let mut merged: Vec<usize> = list.iter().chain(&any_op).copied().collect();
                // Stable: on equal benefits the specific patterns stay first.
                merged.sort_by_key(benefit);
                (name, merged)
            })
            .collect();
        FrozenConversionPatternSet {
            patterns,
            by_root,
            any_op,
        }
    }

    /// The indices of the patterns that may apply to an operation named
    /// `name`, best first.
    pub(crate) fn candidates(&self, name: Ident) -> &[usize] {
        self.by_root.get(&name).unwrap_or(&self.any_op)
    }

    /// The pattern at `index`.
    pub(crate) fn pattern(&self, index: usize) -> &dyn ConversionPattern {
        self.patterns[index].as_ref()
    }

    /// The patterns that may apply to an operation named `name`, best first.
    pub fn patterns_for(&self, name: Ident) -> impl Iterator<Item = &dyn ConversionPattern> + '_ {
        self.candidates(name).iter().map(|&i| self.pattern(i))
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
