//! Pattern rewriting, as MLIR's `PatternMatch.h`, `FoldUtils.cpp` and
//! `GreedyPatternRewriteDriver.cpp`.
//!
//! - [`PatternRewriter`]: every IR change a pattern makes goes through it, so
//!   that a [`RewriterListener`] (the greedy driver's worklist, a test, a
//!   tracing tool) sees it.
//! - [`RewritePattern`]: a root op name, a benefit, `match_and_rewrite`;
//!   collected in a [`RewritePatternSet`] and frozen into a
//!   [`FrozenPatternSet`] indexed by root name.
//! - [`OperationFolder`]: folds ops through their dialect's `fold` hook and
//!   keeps one materialized constant per value and isolated region.
//! - [`apply_patterns_greedily`]: the canonicalizer's engine: folds, erases
//!   [trivially dead](is_trivially_dead) ops and applies patterns until a
//!   fixpoint.
//!
//! A canonicalize-like pass body:
//!
//! ```
//! use strata_ir::rewrite::{apply_patterns_greedily, GreedyConfig, RewritePatternSet};
//! use strata_ir::{parser, printer, testing, Context, SourceBuffer};
//!
//! let mut ctx = Context::new();
//! testing::register_test_dialect(&mut ctx);
//! let text = r#"
//!   %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
//!   %1 = "test.addi"(%0, %0) : (i32, i32) -> i32
//!   "test.effect"(%1) : (i32) -> ()
//! "#;
//! let module = parser::parse_source(&mut ctx, &SourceBuffer::new("in.mlir", text)).expect("parses");
//!
//! let patterns = RewritePatternSet::new().freeze(&mut ctx);
//! let changed = apply_patterns_greedily(&mut ctx, module, &patterns, &GreedyConfig::default())
//!     .expect("converges");
//! assert!(changed);
//! let options = printer::PrintOptions { generic: true, ..Default::default() };
//! let out = printer::print_operation(&ctx, module, options);
//! assert!(out.contains(r#""test.constant"() <{value = 2 : i32}>"#));
//! assert!(!out.contains("test.addi"));
//! ```

pub mod conversion;
pub mod declarative;
mod folder;
mod greedy;
mod pattern;
mod region_simplify;
mod rewriter;
mod trivially_dead;

pub use folder::{
    constant_attr, constant_value, insertion_region, FoldOutcome, KnownConstant, OperationFolder,
};
pub use greedy::{
    apply_op_patterns_greedily, apply_patterns_greedily, apply_patterns_greedily_with_listener,
    GreedyConfig, NON_CONVERGENCE_MESSAGE,
};
pub use pattern::{FnPattern, FrozenPatternSet, RewriteFn, RewritePattern, RewritePatternSet};
pub use region_simplify::{erase_unreachable_blocks, run_region_dce, RegionSimplify};
pub use rewriter::{InsertionPoint, PatternRewriter, RewriterListener};
pub use trivially_dead::{is_memory_effect_free, is_trivially_dead, would_op_be_trivially_dead};
