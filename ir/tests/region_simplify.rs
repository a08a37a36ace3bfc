//! Property test of the greedy driver's region simplification: on random
//! control-flow graphs, exactly the blocks unreachable from the entry are
//! erased, the result verifies and round-trips, and the use lists of the
//! surviving values count only the surviving uses.

use proptest::prelude::*;
use strata_ir::parser::parse_source;
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::rewrite::{apply_patterns_greedily, GreedyConfig, RewritePatternSet};
use strata_ir::{verifier, Context, SourceBuffer};

/// A function-like unregistered op whose region has one block per entry of
/// `succs` (the successor indices of each block's branch). Every block
/// defines a value; every block but the entry uses the entry's value `%v0`
/// inside a nested region, which dominance allows.
fn cfg_text(succs: &[Vec<usize>]) -> String {
    let mut out = String::from("\"foo.func\"() ({\n");
    for (i, targets) in succs.iter().enumerate() {
        if i > 0 {
            out.push_str(&format!("^bb{i}:\n"));
        }
        out.push_str(&format!("  %v{i} = \"foo.def\"() : () -> i32\n"));
        if i > 0 {
            out.push_str(
                "  \"foo.wrap\"() ({\n    \"foo.use\"(%v0) : (i32) -> ()\n  }) : () -> ()\n",
            );
        }
        let list: Vec<String> = targets.iter().map(|t| format!("^bb{t}")).collect();
        if list.is_empty() {
            out.push_str(&format!("  \"foo.ret\"(%v{i}) : (i32) -> ()\n"));
        } else {
            out.push_str(&format!(
                "  \"foo.br\"(%v{i})[{}] : (i32) -> ()\n",
                list.join(", ")
            ));
        }
    }
    out.push_str("}) : () -> ()\n");
    out
}

fn reachable_count(succs: &[Vec<usize>]) -> usize {
    let mut seen = vec![false; succs.len()];
    let mut stack = vec![0];
    while let Some(b) = stack.pop() {
        if !std::mem::replace(&mut seen[b], true) {
            stack.extend(succs[b].iter().copied());
        }
    }
    seen.iter().filter(|s| **s).count()
}

fn graph() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (1usize..9)
        .prop_flat_map(|n| prop::collection::vec(prop::collection::vec(1..n.max(2), 0..3), n))
        .prop_map(|mut succs| {
            // The entry block has no predecessors (MLIR's rule); other
            // indices are already in 1..n, clamp for n == 1.
            let n = succs.len();
            for targets in &mut succs {
                targets.retain(|&t| t < n);
            }
            succs
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn unreachable_blocks_are_exactly_the_erased_ones(succs in graph()) {
        let text = cfg_text(&succs);
        let mut ctx = Context::new();
        ctx.set_allow_unregistered_dialects(true);
        let module = parse_source(&mut ctx, &SourceBuffer::new("cfg.mlir", &text))
            .map_err(|d| TestCaseError::fail(format!("{}\n{text}", d[0].message)))?;
        prop_assert!(verifier::verify(&ctx, module).is_ok(), "input verifies:\n{text}");

        let patterns = RewritePatternSet::new().freeze(&mut ctx);
        apply_patterns_greedily(&mut ctx, module, &patterns, &GreedyConfig::default())
            .map_err(|d| TestCaseError::fail(d.message))?;

        prop_assert!(verifier::verify(&ctx, module).is_ok());
        let func = ctx.block_ops(ctx.region_blocks(ctx.op_regions(module)[0]).next().unwrap()).next().unwrap();
        let region = ctx.op_regions(func)[0];
        let blocks: Vec<_> = ctx.region_blocks(region).collect();
        let expected = reachable_count(&succs);
        prop_assert_eq!(blocks.len(), expected, "{}", text);

        // %v0 is used by the entry's own branch/return and once in each other
        // surviving block.
        let v0 = ctx.results(ctx.block_first_op(blocks[0]).unwrap()).next().unwrap();
        prop_assert_eq!(ctx.uses(v0).count(), 1 + (expected - 1));

        // The result prints and reads back to the same text.
        let generic = PrintOptions { generic: true, ..Default::default() };
        let printed = print_operation(&ctx, module, generic);
        let mut again = Context::new();
        again.set_allow_unregistered_dialects(true);
        let reparsed = parse_source(&mut again, &SourceBuffer::new("out.mlir", &printed))
            .map_err(|d| TestCaseError::fail(format!("{}\n{printed}", d[0].message)))?;
        prop_assert_eq!(print_operation(&again, reparsed, generic), printed);
    }
}
