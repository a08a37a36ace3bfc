//! A rewrite pass in a few lines: `graph-fold-double-negation` turns
//! `graph.neg(graph.neg(x))` into `x`. The pattern is one declarative rule
//! (`pattern!`), the pass one struct (`#[pass]`) that applies it with the
//! greedy driver; registering it makes it usable in a pipeline, as
//! `strata-opt` would run it.
//!
//! Run with `cargo run -p strata-passes --example pattern_pass`.

use strata_dialects::graph::NegOp;
use strata_ir::pass::{Instrumentation, OpPassManager, Pass, PassRegistry, Statistics};
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::rewrite::{apply_patterns_greedily, GreedyConfig, RewritePatternSet};
use strata_ir::{parser, pass, pattern, Context, Diagnostic, Operation, SourceBuffer};

pattern! {
    /// `neg(neg(x))` is `x`.
    NegOfNeg: (NegOp (NegOp $x)) => $x;
}

/// Folds double negations in every function.
#[pass(
    name = "graph-fold-double-negation",
    summary = "Replace graph.neg(graph.neg(x)) with x"
)]
pub struct FoldDoubleNegation;

impl Pass for FoldDoubleNegation {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let mut set = RewritePatternSet::new();
        set.add(NegOfNeg);
        let patterns = set.freeze(ctx);
        apply_patterns_greedily(ctx, op, &patterns, &GreedyConfig::default()).map(|_| ())
    }
}

/// Parses `text`, runs `pipeline` (which may name the new pass) and prints
/// the result.
pub fn run_pipeline(text: &str, pipeline: &str) -> Result<String, String> {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let mut registry = PassRegistry::default();
    strata_passes::register_all(&mut registry);
    registry.register(FoldDoubleNegation::registration());

    let buffer = SourceBuffer::new("input.mlir", text);
    let module = parser::parse_source(&mut ctx, &buffer).map_err(|d| {
        d.into_iter()
            .map(|d| d.message)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let mut pm = OpPassManager::parse(&registry, pipeline).map_err(|e| e.render(pipeline))?;
    pm.run(&mut ctx, module, &mut Instrumentation::default())
        .map_err(|d| {
            d.into_iter()
                .map(|d| d.message)
                .collect::<Vec<_>>()
                .join("\n")
        })?;
    Ok(print_operation(&ctx, module, PrintOptions::default()))
}

/// The example's entry point: folds the double negation in `@f`.
pub fn main() -> Result<(), String> {
    let input = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.neg %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}";
    let pipeline = "builtin.module(func.func(graph-fold-double-negation),dce)";
    print!("{}", run_pipeline(input, pipeline)?);
    Ok(())
}
