//! The greedy pattern rewrite driver: folding, dead-code erasure, patterns
//! by benefit, constant merging and hoisting, convergence, listeners.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use strata_ir::printer::{attribute_to_string, print_operation, PrintOptions};
use strata_ir::rewrite::{
    apply_patterns_greedily, apply_patterns_greedily_with_listener, GreedyConfig, PatternRewriter,
    RewritePattern, RewritePatternSet, RewriterListener, NON_CONVERGENCE_MESSAGE,
};
use strata_ir::{parser, testing, Context, Operation, OperationState, SourceBuffer, Value};

fn parse(ctx: &mut Context, text: &str) -> Operation {
    testing::register_test_dialect(ctx);
    parser::parse_source(ctx, &SourceBuffer::new("rewrite.mlir", text)).expect("test IR parses")
}

fn generic(ctx: &Context, op: Operation) -> String {
    let options = PrintOptions {
        generic: true,
        ..Default::default()
    };
    print_operation(ctx, op, options)
}

/// Parse `input`, run the driver with `patterns` and `config`, and return
/// whether it changed the IR and the printed result.
fn run(input: &str, patterns: RewritePatternSet, config: GreedyConfig) -> (bool, String) {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, input);
    let patterns = patterns.freeze(&mut ctx);
    let changed = apply_patterns_greedily(&mut ctx, module, &patterns, &config).expect("converges");
    (changed, generic(&ctx, module))
}

fn canonicalize(input: &str) -> String {
    run(input, RewritePatternSet::new(), GreedyConfig::default()).1
}

#[test]
fn constant_operands_fold_to_one_materialized_constant() {
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1 = "test.constant"() <{value = 2 : i32}> : () -> i32
  %2 = "test.addi"(%0, %1) : (i32, i32) -> i32
  %3 = "test.addi"(%2, %0) : (i32, i32) -> i32
  "test.return"(%3) : (i32) -> ()
}) : () -> ()
"#;
    // 1 + 2 folds to 3, then 3 + 1 to 4; the dead constants go away.
    let expected = r#""builtin.module"() ({
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    %0 = "test.constant"() <{value = 4 : i32}> : () -> i32
    "test.return"(%0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;
    assert_eq!(canonicalize(input), expected);
}

#[test]
fn materialized_constants_are_merged_with_existing_ones() {
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1 = "test.constant"() <{value = 2 : i32}> : () -> i32
  %2 = "test.addi"(%0, %1) : (i32, i32) -> i32
  %3 = "test.constant"() <{value = 3 : i32}> : () -> i32
  %4 = "test.addi"(%arg0, %0) : (i32, i32) -> i32
  "test.return"(%2, %3, %4) : (i32, i32, i32) -> ()
}) : () -> ()
"#;
    // As mlir-opt: the existing 3 is hoisted in front of the constants
    // already there, and the folded 3 is merged into it.
    let expected = r#""builtin.module"() ({
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    %0 = "test.constant"() <{value = 3 : i32}> : () -> i32
    %1 = "test.constant"() <{value = 1 : i32}> : () -> i32
    %2 = "test.addi"(%arg0, %1) : (i32, i32) -> i32
    "test.return"(%0, %0, %2) : (i32, i32, i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;
    assert_eq!(canonicalize(input), expected);
}

#[test]
fn adding_zero_folds_to_the_other_operand() {
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.constant"() <{value = 0 : i32}> : () -> i32
  %1 = "test.addi"(%arg0, %0) : (i32, i32) -> i32
  %2 = "test.addi"(%0, %1) : (i32, i32) -> i32
  "test.return"(%2) : (i32) -> ()
}) : () -> ()
"#;
    let expected = r#""builtin.module"() ({
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    "test.return"(%arg0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;
    assert_eq!(canonicalize(input), expected);
}

#[test]
fn commutative_ops_get_constants_on_the_right() {
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.constant"() <{value = 5 : i32}> : () -> i32
  %1 = "test.addi"(%0, %arg0) : (i32, i32) -> i32
  "test.return"(%1) : (i32) -> ()
}) : () -> ()
"#;
    let out = canonicalize(input);
    assert!(
        out.contains(r#"%1 = "test.addi"(%arg0, %0) : (i32, i32) -> i32"#),
        "{out}"
    );
}

#[test]
fn dead_pure_ops_are_erased_and_effects_are_kept() {
    let input = r#"
%0 = "test.pure"() : () -> i32
%1 = "test.pure"(%0) : (i32) -> i32
%2 = "test.pure"(%1, %1) : (i32, i32) -> i32
%3 = "test.effect"(%0) : (i32) -> i32
%4 = "test.constant"() <{value = 7 : i32}> : () -> i32
%5 = "test.addi"(%4, %4) : (i32, i32) -> i32
"#;
    // The chain %1, %2 dies from the end; %0 stays for the op with effects.
    let expected = r#""builtin.module"() ({
  %0 = "test.pure"() : () -> i32
  %1 = "test.effect"(%0) : (i32) -> i32
}) : () -> ()
"#;
    let (changed, out) = run(input, RewritePatternSet::new(), GreedyConfig::default());
    assert!(changed);
    assert_eq!(out, expected);
}

#[test]
fn a_second_run_finds_a_fixpoint() {
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1 = "test.addi"(%0, %arg0) : (i32, i32) -> i32
  %2 = "test.addi"(%1, %0) : (i32, i32) -> i32
  "test.return"(%2) : (i32) -> ()
}) : () -> ()
"#;
    let mut ctx = Context::new();
    let module = parse(&mut ctx, input);
    let patterns = RewritePatternSet::new().freeze(&mut ctx);
    let config = GreedyConfig::default();
    assert!(apply_patterns_greedily(&mut ctx, module, &patterns, &config).expect("converges"));
    let once = generic(&ctx, module);
    let again = apply_patterns_greedily(&mut ctx, module, &patterns, &config).expect("converges");
    assert!(!again, "a fixpoint does not change");
    assert_eq!(generic(&ctx, module), once);
}

/// Replaces `test.pure {replace_me}` by a `test.pure {replaced_by = tag}`.
struct ReplaceMe {
    benefit: u16,
    tag: &'static str,
}

impl RewritePattern for ReplaceMe {
    fn root_name(&self) -> Option<&str> {
        Some("test.pure")
    }

    fn benefit(&self) -> u16 {
        self.benefit
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        if rewriter.ctx().op_attr(op, "replace_me").is_none() {
            return false;
        }
        let ctx = rewriter.ctx_mut();
        let mut state = OperationState::new(ctx.op_name(op), ctx.op_loc(op));
        state.operands = ctx.operands(op).collect();
        state.result_types = ctx.results(op).map(|v| ctx.value_type(v)).collect();
        let (name, tag) = (ctx.ident("replaced_by"), ctx.string_attr(self.tag));
        state.attributes.push((name, tag));
        rewriter.replace_op_with_new(op, state);
        true
    }
}

/// Tags any op that has a `tag_me` attribute, once.
struct TagAnything {
    benefit: u16,
}

impl RewritePattern for TagAnything {
    fn root_name(&self) -> Option<&str> {
        None
    }

    fn benefit(&self) -> u16 {
        self.benefit
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        if rewriter.ctx().op_attr(op, "tag_me").is_none() {
            return false;
        }
        rewriter.modify_op_in_place(op, |ctx| {
            ctx.remove_op_attr(op, "tag_me");
            let tag = ctx.string_attr("any");
            ctx.set_op_attr(op, "replaced_by", tag);
        });
        true
    }
}

#[test]
fn the_best_matching_pattern_wins() {
    let input = r#"
%0 = "test.pure"() {replace_me} : () -> i32
%1 = "test.pure"() {tag_me} : () -> i32
%2 = "test.effect"(%0, %1) {tag_me} : (i32, i32) -> i32
"#;
    let mut patterns = RewritePatternSet::new();
    patterns
        .add(ReplaceMe {
            benefit: 1,
            tag: "low",
        })
        .add(TagAnything { benefit: 1 })
        .add(ReplaceMe {
            benefit: 3,
            tag: "high",
        })
        .add(ReplaceMe {
            benefit: 2,
            tag: "middle",
        });
    let expected = r#""builtin.module"() ({
  %0 = "test.pure"() {replaced_by = "high"} : () -> i32
  %1 = "test.pure"() {replaced_by = "any"} : () -> i32
  %2 = "test.effect"(%0, %1) {replaced_by = "any"} : (i32, i32) -> i32
}) : () -> ()
"#;
    let (changed, out) = run(input, patterns, GreedyConfig::default());
    assert!(changed);
    assert_eq!(out, expected);
}

#[test]
fn an_any_op_pattern_with_a_higher_benefit_comes_first() {
    let input = r#"
%0 = "test.pure"() {replace_me, tag_me} : () -> i32
"test.effect"(%0) : (i32) -> ()
"#;
    let mut patterns = RewritePatternSet::new();
    patterns
        .add(ReplaceMe {
            benefit: 1,
            tag: "specific",
        })
        .add(TagAnything { benefit: 2 });
    // The any-op pattern tags first; then the specific one still applies.
    let (_, out) = run(input, patterns, GreedyConfig::default());
    assert!(
        out.contains(r#""test.pure"() {replaced_by = "specific"}"#),
        "{out}"
    );
}

#[test]
fn nested_regions_are_rewritten_and_their_constants_hoisted() {
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
  %0 = "test.effect"() : () -> i32
  "test.effect"() ({
    %1 = "test.constant"() <{value = 1 : i32}> : () -> i32
    %2 = "test.addi"(%1, %1) : (i32, i32) -> i32
    %3 = "test.pure"() {replace_me} : () -> i32
    "test.effect"(%2, %0, %3) : (i32, i32, i32) -> ()
  }) : () -> ()
  "test.return"() : () -> ()
}) : () -> ()
"#;
    let mut patterns = RewritePatternSet::new();
    patterns.add(ReplaceMe {
        benefit: 1,
        tag: "nested",
    });
    // `test.effect` is not isolated from above: constants go to the
    // function's entry block.
    let expected = r#""builtin.module"() ({
  "test.func"() <{sym_name = "f"}> ({
    %0 = "test.constant"() <{value = 2 : i32}> : () -> i32
    %1 = "test.effect"() : () -> i32
    "test.effect"() ({
      %2 = "test.pure"() {replaced_by = "nested"} : () -> i32
      "test.effect"(%0, %1, %2) : (i32, i32, i32) -> ()
    }) : () -> ()
    "test.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"#;
    let (changed, out) = run(input, patterns, GreedyConfig::default());
    assert!(changed);
    assert_eq!(out, expected);
}

#[test]
fn each_isolated_region_gets_its_own_constants() {
    let input = r#"
%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
"test.func"() <{sym_name = "f"}> ({
  %1 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %2 = "test.constant"() <{value = 1 : i32}> : () -> i32
  "test.return"(%1, %2) : (i32, i32) -> ()
}) : () -> ()
"test.func"() <{sym_name = "g"}> ({
  %3 = "test.effect"() : () -> i32
  %4 = "test.constant"() <{value = 1 : i32}> : () -> i32
  "test.return"(%3, %4) : (i32, i32) -> ()
}) : () -> ()
"test.effect"(%0) : (i32) -> ()
"#;
    let expected = r#""builtin.module"() ({
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  "test.func"() <{sym_name = "f"}> ({
    %3 = "test.constant"() <{value = 1 : i32}> : () -> i32
    "test.return"(%3, %3) : (i32, i32) -> ()
  }) : () -> ()
  "test.func"() <{sym_name = "g"}> ({
    %1 = "test.constant"() <{value = 1 : i32}> : () -> i32
    %2 = "test.effect"() : () -> i32
    "test.return"(%2, %1) : (i32, i32) -> ()
  }) : () -> ()
  "test.effect"(%0) : (i32) -> ()
}) : () -> ()
"#;
    let (changed, out) = run(input, RewritePatternSet::new(), GreedyConfig::default());
    assert!(changed, "constants were merged and moved");
    assert_eq!(out, expected);
}

#[test]
fn configuration_turns_folding_and_constant_merging_off() {
    let input = r#"
%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.constant"() <{value = 1 : i32}> : () -> i32
%2 = "test.addi"(%0, %1) : (i32, i32) -> i32
"test.effect"(%2) : (i32) -> ()
"#;
    let config = GreedyConfig {
        fold: false,
        cse_constants: false,
        ..GreedyConfig::default()
    };
    let (changed, out) = run(input, RewritePatternSet::new(), config);
    assert!(!changed);
    assert!(out.contains(r#"%2 = "test.addi"(%0, %1)"#), "{out}");

    let config = GreedyConfig {
        max_iterations: Some(0),
        ..GreedyConfig::default()
    };
    let (changed, out) = run(input, RewritePatternSet::new(), config);
    assert!(!changed, "no sweep at all");
    assert!(out.contains("test.addi"), "{out}");
}

/// Records the `tag` of every op it sees; never matches.
struct Record {
    seen: Rc<RefCell<Vec<String>>>,
}

impl RewritePattern for Record {
    fn root_name(&self) -> Option<&str> {
        None
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        if let Some(tag) = rewriter.ctx().op_attr(op, "tag") {
            let tag = attribute_to_string(rewriter.ctx(), tag);
            self.seen
                .borrow_mut()
                .push(tag.trim_matches('"').to_string());
        }
        false
    }
}

/// The order in which a sweep visits the ops, as recorded by `Record`.
fn visit_order(top_down: bool) -> Vec<String> {
    let input = r#"
"test.effect"() {tag = "a"} : () -> ()
"test.effect"() ({
  "test.effect"() {tag = "c"} : () -> ()
}) {tag = "b"} : () -> ()
"test.effect"() {tag = "d"} : () -> ()
"#;
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut patterns = RewritePatternSet::new();
    patterns.add(Record { seen: seen.clone() });
    let config = GreedyConfig {
        top_down,
        ..GreedyConfig::default()
    };
    run(input, patterns, config);
    seen.take()
}

#[test]
fn top_down_and_bottom_up_orders() {
    assert_eq!(visit_order(true), ["a", "b", "c", "d"]);
    // Post-order, popped from the back, as MLIR's bottom-up traversal.
    assert_eq!(visit_order(false), ["d", "b", "c", "a"]);
}

/// Counts up in a `count` attribute without telling the rewriter: each
/// sweep sees one change, so the driver never reaches a fixpoint.
struct CountBehindTheBack {
    calls: Cell<u32>,
}

impl RewritePattern for CountBehindTheBack {
    fn root_name(&self) -> Option<&str> {
        Some("test.effect")
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        self.calls.set(self.calls.get() + 1);
        let ctx = rewriter.ctx_mut();
        let count = ctx.string_attr(&self.calls.get().to_string());
        ctx.set_op_attr(op, "count", count);
        true
    }
}

#[test]
fn the_iteration_limit_is_a_diagnostic() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, r#""test.effect"() : () -> ()"#);
    let mut patterns = RewritePatternSet::new();
    patterns.add(CountBehindTheBack {
        calls: Cell::new(0),
    });
    let patterns = patterns.freeze(&mut ctx);
    let config = GreedyConfig {
        max_iterations: Some(3),
        ..GreedyConfig::default()
    };
    let error =
        apply_patterns_greedily(&mut ctx, module, &patterns, &config).expect_err("never converges");
    assert_eq!(error.message, NON_CONVERGENCE_MESSAGE);
    assert_eq!(error.message, "Canonicalizer failed to converge");
    assert_eq!(error.loc, ctx.op_loc(module));
    assert_eq!(error.op, Some(module));
    assert!(generic(&ctx, module).contains(r#"{count = "3"}"#));
}

/// Flips a `state` attribute between `from` and `to`, through the rewriter.
struct Flip {
    from: &'static str,
    to: &'static str,
    rewrites: Rc<Cell<u32>>,
}

impl RewritePattern for Flip {
    fn root_name(&self) -> Option<&str> {
        Some("test.effect")
    }

    fn match_and_rewrite(&self, op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
        let ctx = rewriter.ctx_mut();
        let from = ctx.string_attr(self.from);
        if ctx.op_attr(op, "state") != Some(from) {
            return false;
        }
        let to = ctx.string_attr(self.to);
        rewriter.modify_op_in_place(op, |ctx| ctx.set_op_attr(op, "state", to));
        self.rewrites.set(self.rewrites.get() + 1);
        true
    }
}

#[test]
fn max_num_rewrites_bounds_each_sweep_of_a_cycle() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, r#""test.effect"() {state = "a"} : () -> ()"#);
    let rewrites = Rc::new(Cell::new(0));
    let mut patterns = RewritePatternSet::new();
    patterns
        .add(Flip {
            from: "a",
            to: "b",
            rewrites: rewrites.clone(),
        })
        .add(Flip {
            from: "b",
            to: "a",
            rewrites: rewrites.clone(),
        });
    let patterns = patterns.freeze(&mut ctx);
    let config = GreedyConfig {
        max_iterations: Some(2),
        max_num_rewrites: Some(4),
        ..GreedyConfig::default()
    };
    let error = apply_patterns_greedily(&mut ctx, module, &patterns, &config)
        .expect_err("the patterns undo each other");
    assert_eq!(error.message, NON_CONVERGENCE_MESSAGE);
    assert_eq!(rewrites.get(), 8, "two sweeps of four rewrites");
}

#[test]
fn max_num_rewrites_spreads_work_over_sweeps() {
    let input = r#"
%0 = "test.pure"() {replace_me} : () -> i32
%1 = "test.pure"() {replace_me} : () -> i32
%2 = "test.pure"() {replace_me} : () -> i32
"test.effect"(%0, %1, %2) : (i32, i32, i32) -> ()
"#;
    let mut patterns = RewritePatternSet::new();
    patterns.add(ReplaceMe {
        benefit: 1,
        tag: "one",
    });
    let config = GreedyConfig {
        max_num_rewrites: Some(1),
        max_iterations: Some(4),
        ..GreedyConfig::default()
    };
    let (changed, out) = run(input, patterns, config);
    assert!(changed);
    assert_eq!(out.matches(r#"replaced_by = "one""#).count(), 3, "{out}");
}

/// Counts the notifications it gets, and logs them.
#[derive(Default)]
struct Counter {
    inserted: usize,
    modified: usize,
    replaced: usize,
    erased: usize,
    log: Vec<String>,
}

impl RewriterListener for Counter {
    fn notify_operation_inserted(&mut self, ctx: &Context, op: Operation) {
        self.inserted += 1;
        self.log.push(format!("inserted {}", ctx.op_name_str(op)));
    }

    fn notify_operation_modified(&mut self, ctx: &Context, op: Operation) {
        self.modified += 1;
        self.log.push(format!("modified {}", ctx.op_name_str(op)));
    }

    fn notify_operation_replaced(&mut self, ctx: &Context, op: Operation, values: &[Value]) {
        self.replaced += 1;
        self.log.push(format!(
            "replaced {} by {}",
            ctx.op_name_str(op),
            values.len()
        ));
    }

    fn notify_operation_erased(&mut self, ctx: &Context, op: Operation) {
        self.erased += 1;
        self.log.push(format!("erased {}", ctx.op_name_str(op)));
    }
}

#[test]
fn a_listener_sees_every_change_of_the_driver() {
    let mut ctx = Context::new();
    let module = parse(
        &mut ctx,
        r#"
"test.func"() <{sym_name = "f"}> ({
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1 = "test.constant"() <{value = 2 : i32}> : () -> i32
  %2 = "test.addi"(%0, %1) : (i32, i32) -> i32
  "test.return"(%2) : (i32) -> ()
}) : () -> ()
"#,
    );
    let patterns = RewritePatternSet::new().freeze(&mut ctx);
    let mut counter = Counter::default();
    let changed = apply_patterns_greedily_with_listener(
        &mut ctx,
        module,
        &patterns,
        &GreedyConfig::default(),
        &mut counter,
    )
    .expect("converges");
    assert!(changed);
    assert_eq!(
        counter.log,
        [
            "inserted test.constant",
            "replaced test.addi by 1",
            "modified test.return",
            "erased test.addi",
            "erased test.constant",
            "erased test.constant",
        ]
    );
    assert_eq!(
        (
            counter.inserted,
            counter.modified,
            counter.replaced,
            counter.erased
        ),
        (1, 1, 1, 3)
    );
}

/// `(op, rewriter)`: the same order as `RewritePattern::match_and_rewrite`.
fn swap_addi_operands(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let (lhs, rhs) = (ctx.operand(op, 0), ctx.operand(op, 1));
    if ctx.defining_op(lhs).is_none() || ctx.defining_op(rhs).is_some() {
        return false;
    }
    rewriter.modify_op_in_place(op, |ctx| ctx.set_operands(op, &[rhs, lhs]));
    true
}

#[test]
fn fn_patterns_take_op_then_rewriter() {
    use strata_ir::rewrite::FnPattern;
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.effect"() : () -> i32
  %1 = "test.addi"(%0, %arg0) : (i32, i32) -> i32
  "test.return"(%1) : (i32) -> ()
}) : () -> ()
"#;
    let expect = "%1 = \"test.addi\"(%arg0, %0)";
    let mut set = RewritePatternSet::new();
    set.add(FnPattern::new("test.addi", "Swap", swap_addi_operands));
    assert!(run(input, set, GreedyConfig::default()).1.contains(expect));
    // A closure needs no annotations.
    let mut set = RewritePatternSet::new();
    set.add(FnPattern::new("test.addi", "Swap", |op, rewriter| {
        swap_addi_operands(op, rewriter)
    }));
    assert!(run(input, set, GreedyConfig::default()).1.contains(expect));
}
