//! `canonicalize`: apply folders and canonicalization patterns greedily, as
//! MLIR's Canonicalizer pass (same options and defaults).
//!
//! Folding also materializes folded constants through their dialect,
//! de-duplicates and hoists constants, and erases trivially dead operations.
//! Between sweeps, `region-simplify` (on by default) erases unreachable
//! blocks; `aggressive` would also merge identical blocks in MLIR, which is
//! not implemented yet (it behaves as `normal`).
//! The patterns are those every registered op declares (its `canonicalize`
//! hook), filtered by `disable-patterns` / `enable-patterns`.

use strata_ir::pass::{ListOption, Pass, Statistics};
use strata_ir::rewrite::{
    apply_patterns_greedily, GreedyConfig, RegionSimplify, RewritePatternSet,
};
use strata_ir::{pass, Context, Diagnostic, Operation};

#[pass(
    name = "canonicalize",
    display_name = "Canonicalizer",
    summary = "Canonicalize operations"
)]
pub(crate) struct Canonicalize {
    #[option(
        name = "top-down",
        default = true,
        description = "Seed the worklist in general top-down order"
    )]
    top_down: bool,
    #[option(
        name = "region-simplify",
        default = "normal",
        description = "Perform control flow optimizations to the region tree"
    )]
    region_simplify: RegionSimplify,
    #[option(
        name = "max-iterations",
        default = 10,
        description = "Max. iterations between applying patterns / simplifying regions"
    )]
    max_iterations: i64,
    #[option(
        name = "max-num-rewrites",
        default = -1,
        description = "Max. number of pattern rewrites within an iteration"
    )]
    max_num_rewrites: i64,
    #[option(
        name = "test-convergence",
        default = false,
        description = "Test only: Fail pass on non-convergence to detect cyclic pattern"
    )]
    test_convergence: bool,
    #[option(
        name = "disable-patterns",
        description = "Labels of patterns that should be filtered out during application"
    )]
    disable_patterns: ListOption<String>,
    #[option(
        name = "enable-patterns",
        description = "Labels of patterns that should be used during application, all other patterns are filtered out"
    )]
    enable_patterns: ListOption<String>,
}

impl Pass for Canonicalize {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut set = RewritePatternSet::new();
        for def in ctx.registry().ops() {
            if let Some(add_patterns) = def.canonicalize {
                add_patterns(&mut set);
            }
        }
        let (disabled, enabled) = (&self.disable_patterns, &self.enable_patterns);
        set.retain(|p| {
            !disabled.iter().any(|d| d == p.name())
                && (enabled.is_empty() || enabled.iter().any(|e| e == p.name()))
        });
        let patterns = set.freeze(ctx);
        let config = GreedyConfig {
            top_down: self.top_down,
            // MLIR: -1 means no limit.
            max_iterations: u32::try_from(self.max_iterations).ok(),
            max_num_rewrites: u64::try_from(self.max_num_rewrites).ok(),
            region_simplify: self.region_simplify,
            ..GreedyConfig::default()
        };
        match apply_patterns_greedily(ctx, op, &patterns, &config) {
            // Not converging is only a failure when testing for it, as in MLIR.
            Err(diag) if self.test_convergence => Err(diag),
            _ => Ok(()),
        }
    }
}
