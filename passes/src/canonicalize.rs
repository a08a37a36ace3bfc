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

use strata_ir::pass::{OptionKind, Pass, PassOptionDef, PassOptions, PassRegistration, Statistics};
use strata_ir::rewrite::{
    apply_patterns_greedily, GreedyConfig, RegionSimplify, RewritePatternSet,
};
use strata_ir::{Context, Diagnostic, Operation};

const OPTIONS: &[PassOptionDef] = &[
    PassOptionDef {
        name: "top-down",
        help: "Seed the worklist in general top-down order",
        kind: OptionKind::Bool,
        default: "true",
    },
    PassOptionDef {
        name: "region-simplify",
        help: "Perform control flow optimizations to the region tree",
        kind: OptionKind::Enum(&["disabled", "normal", "aggressive"]),
        default: "normal",
    },
    PassOptionDef {
        name: "max-iterations",
        help: "Max. iterations between applying patterns / simplifying regions",
        kind: OptionKind::Int,
        default: "10",
    },
    PassOptionDef {
        name: "max-num-rewrites",
        help: "Max. number of pattern rewrites within an iteration",
        kind: OptionKind::Int,
        default: "-1",
    },
    PassOptionDef {
        name: "test-convergence",
        help: "Test only: Fail pass on non-convergence to detect cyclic pattern",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionDef {
        name: "disable-patterns",
        help: "Labels of patterns that should be filtered out during application",
        kind: OptionKind::StringList,
        default: "",
    },
    PassOptionDef {
        name: "enable-patterns",
        help: "Labels of patterns that should be used during application, all other patterns are filtered out",
        kind: OptionKind::StringList,
        default: "",
    },
];

pub(crate) fn registration() -> PassRegistration {
    PassRegistration {
        name: "canonicalize",
        description: "Canonicalize operations",
        options: OPTIONS,
        create: || {
            Box::new(Canonicalize {
                options: PassOptions::new(OPTIONS),
            })
        },
    }
}

struct Canonicalize {
    options: PassOptions,
}

impl Pass for Canonicalize {
    fn name(&self) -> &'static str {
        "canonicalize"
    }

    fn display_name(&self) -> &'static str {
        "Canonicalizer"
    }

    fn description(&self) -> &'static str {
        "Canonicalize operations"
    }

    fn options(&self) -> Option<&PassOptions> {
        Some(&self.options)
    }

    fn options_mut(&mut self) -> Option<&mut PassOptions> {
        Some(&mut self.options)
    }

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
        let disabled = self.options.list("disable-patterns");
        let enabled = self.options.list("enable-patterns");
        set.retain(|p| {
            !disabled.iter().any(|d| d == p.name())
                && (enabled.is_empty() || enabled.iter().any(|e| e == p.name()))
        });
        let patterns = set.freeze(ctx);
        let max_iterations = self.options.int("max-iterations");
        let max_rewrites = self.options.int("max-num-rewrites");
        let config = GreedyConfig {
            top_down: self.options.bool("top-down"),
            // MLIR: -1 means no limit.
            max_iterations: u32::try_from(max_iterations).ok(),
            max_num_rewrites: u64::try_from(max_rewrites).ok(),
            region_simplify: match self.options.string("region-simplify") {
                "disabled" => RegionSimplify::Disabled,
                "aggressive" => RegionSimplify::Aggressive,
                _ => RegionSimplify::Normal,
            },
            ..GreedyConfig::default()
        };
        match apply_patterns_greedily(ctx, op, &patterns, &config) {
            // Not converging is only a failure when testing for it, as in MLIR.
            Err(diag) if self.options.bool("test-convergence") => Err(diag),
            _ => Ok(()),
        }
    }
}
