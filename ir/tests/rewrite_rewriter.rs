//! The `PatternRewriter` and its listener; pattern sets and their order.

use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::rewrite::{
    InsertionPoint, PatternRewriter, RewritePattern, RewritePatternSet, RewriterListener,
};
use strata_ir::{parser, testing, Context, Operation, OperationState, SourceBuffer, Value};

fn parse(ctx: &mut Context, text: &str) -> Operation {
    testing::register_test_dialect(ctx);
    parser::parse_source(ctx, &SourceBuffer::new("rewriter.mlir", text)).expect("test IR parses")
}

fn generic(ctx: &Context, op: Operation) -> String {
    let options = PrintOptions {
        generic: true,
        ..Default::default()
    };
    print_operation(ctx, op, options)
}

/// The ops of the module's body, in order.
fn body_ops(ctx: &Context, module: Operation) -> Vec<Operation> {
    let block = ctx
        .region_entry_block(ctx.op_regions(module)[0])
        .expect("a module has a body");
    ctx.block_ops(block).collect()
}

/// A `test.pure` state with the given result count and a `tag` attribute.
fn pure_state(
    ctx: &mut Context,
    tag: &str,
    operands: Vec<Value>,
    results: usize,
) -> OperationState {
    let (name, loc) = (ctx.ident("test.pure"), ctx.unknown_loc());
    let mut state = OperationState::new(name, loc);
    state.operands = operands;
    let i32_type = strata_ir::parser::parse_type(ctx, "i32").expect("i32");
    state.result_types = vec![i32_type; results];
    let (key, value) = (ctx.ident("tag"), ctx.string_attr(tag));
    state.attributes.push((key, value));
    state
}

/// Logs the notifications it gets.
#[derive(Default)]
struct Log(Vec<String>);

impl Log {
    fn describe(ctx: &Context, op: Operation) -> String {
        match ctx.op_attr(op, "tag") {
            Some(tag) => strata_ir::printer::attribute_to_string(ctx, tag),
            None => ctx.op_name_str(op).to_string(),
        }
    }
}

impl RewriterListener for Log {
    fn notify_operation_inserted(&mut self, ctx: &Context, op: Operation) {
        self.0.push(format!("inserted {}", Log::describe(ctx, op)));
    }

    fn notify_operation_modified(&mut self, ctx: &Context, op: Operation) {
        self.0.push(format!("modified {}", Log::describe(ctx, op)));
    }

    fn notify_operation_replaced(&mut self, ctx: &Context, op: Operation, values: &[Value]) {
        let uses = ctx.results(op).map(|v| ctx.uses(v).count()).sum::<usize>();
        let replacement = values.len();
        let op = Log::describe(ctx, op);
        self.0
            .push(format!("replaced {op} ({uses} uses) by {replacement}"));
    }

    fn notify_operation_erased(&mut self, ctx: &Context, op: Operation) {
        let attached = ctx.op_parent_block(op).is_some();
        self.0.push(format!(
            "erased {} (attached: {attached})",
            Log::describe(ctx, op)
        ));
    }
}

#[test]
fn create_inserts_at_the_insertion_point_and_notifies() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, r#""test.effect"() {tag = "middle"} : () -> ()"#);
    let middle = body_ops(&ctx, module)[0];
    let block = ctx.op_parent_block(middle).expect("in the body");
    let states = [
        pure_state(&mut ctx, "before", vec![], 0),
        pure_state(&mut ctx, "after", vec![], 0),
        pure_state(&mut ctx, "start", vec![], 0),
        pure_state(&mut ctx, "end", vec![], 0),
        pure_state(&mut ctx, "detached", vec![], 0),
    ];
    let mut log = Log::default();
    let mut rewriter = PatternRewriter::with_listener(&mut ctx, &mut log);
    let [before, after, start, end, detached] = states;
    rewriter.set_insertion_point(middle);
    assert_eq!(
        rewriter.insertion_point(),
        Some(InsertionPoint::Before(middle))
    );
    assert_eq!(rewriter.insertion_block(), Some(block));
    rewriter.create(before);
    rewriter.set_insertion_point_after(middle);
    rewriter.create(after);
    rewriter.set_insertion_point_to_start(block);
    rewriter.create(start);
    rewriter.set_insertion_point_to_end(block);
    rewriter.create(end);
    rewriter.clear_insertion_point();
    let floating = rewriter.create(detached);
    assert_eq!(rewriter.ctx().op_parent_block(floating), None);
    assert_eq!(
        log.0,
        [
            r#"inserted "before""#,
            r#"inserted "after""#,
            r#"inserted "start""#,
            r#"inserted "end""#,
        ]
    );
    let expected = r#""builtin.module"() ({
  "test.pure"() {tag = "start"} : () -> ()
  "test.pure"() {tag = "before"} : () -> ()
  "test.effect"() {tag = "middle"} : () -> ()
  "test.pure"() {tag = "after"} : () -> ()
  "test.pure"() {tag = "end"} : () -> ()
}) : () -> ()
"#;
    assert_eq!(generic(&ctx, module), expected);
}

#[test]
fn replace_op_notifies_the_replacement_the_users_and_the_erasure() {
    let mut ctx = Context::new();
    let module = parse(
        &mut ctx,
        r#"
%0 = "test.pure"() {tag = "new"} : () -> i32
%1 = "test.pure"() {tag = "old"} : () -> i32
"test.effect"(%1, %1) {tag = "user"} : (i32, i32) -> ()
"#,
    );
    let [new, old, _] = body_ops(&ctx, module)[..] else {
        panic!("three ops");
    };
    let mut log = Log::default();
    let mut rewriter = PatternRewriter::with_listener(&mut ctx, &mut log);
    rewriter.replace_op(old, &[Value::Result(new, 0)]);
    assert_eq!(
        log.0,
        [
            r#"replaced "old" (2 uses) by 1"#,
            r#"modified "user""#,
            r#"modified "user""#,
            r#"erased "old" (attached: true)"#,
        ]
    );
    assert!(generic(&ctx, module).contains(r#""test.effect"(%0, %0) {tag = "user"}"#));
}

#[test]
fn replace_op_with_new_creates_before_and_keeps_the_insertion_point() {
    let mut ctx = Context::new();
    let module = parse(
        &mut ctx,
        r#"
%0 = "test.pure"() {tag = "old"} : () -> i32
"test.effect"(%0) {tag = "user"} : (i32) -> ()
"#,
    );
    let [old, user] = body_ops(&ctx, module)[..] else {
        panic!("two ops");
    };
    let state = pure_state(&mut ctx, "new", vec![], 1);
    let mut log = Log::default();
    let mut rewriter = PatternRewriter::with_listener(&mut ctx, &mut log);
    rewriter.set_insertion_point(user);
    rewriter.replace_op_with_new(old, state);
    assert_eq!(
        rewriter.insertion_point(),
        Some(InsertionPoint::Before(user))
    );
    assert_eq!(
        log.0,
        [
            r#"inserted "new""#,
            r#"replaced "old" (1 uses) by 1"#,
            r#"modified "user""#,
            r#"erased "old" (attached: true)"#,
        ]
    );
    let expected = r#""builtin.module"() ({
  %0 = "test.pure"() {tag = "new"} : () -> i32
  "test.effect"(%0) {tag = "user"} : (i32) -> ()
}) : () -> ()
"#;
    assert_eq!(generic(&ctx, module), expected);
}

#[test]
fn erase_op_erases_nested_ops_first_users_before_definitions() {
    let mut ctx = Context::new();
    let module = parse(
        &mut ctx,
        r#"
"test.effect"() ({
  %0 = "test.pure"() {tag = "a"} : () -> i32
  "test.effect"() ({
    "test.pure"(%0) {tag = "b"} : (i32) -> ()
  }) {tag = "c"} : () -> ()
  "test.pure"(%0) {tag = "d"} : (i32) -> ()
}) {tag = "outer"} : () -> ()
"test.effect"() {tag = "kept"} : () -> ()
"#,
    );
    let outer = body_ops(&ctx, module)[0];
    let mut log = Log::default();
    PatternRewriter::with_listener(&mut ctx, &mut log).erase_op(outer);
    assert_eq!(
        log.0,
        [
            r#"erased "d" (attached: true)"#,
            r#"erased "b" (attached: true)"#,
            r#"erased "c" (attached: true)"#,
            r#"erased "a" (attached: true)"#,
            r#"erased "outer" (attached: true)"#,
        ]
    );
    let expected = r#""builtin.module"() ({
  "test.effect"() {tag = "kept"} : () -> ()
}) : () -> ()
"#;
    assert_eq!(generic(&ctx, module), expected);
}

#[test]
fn in_place_changes_and_moves_are_notified() {
    let mut ctx = Context::new();
    let module = parse(
        &mut ctx,
        r#"
%0 = "test.pure"() {tag = "x"} : () -> i32
%1 = "test.pure"() {tag = "y"} : () -> i32
"test.effect"(%0) {tag = "user"} : (i32) -> ()
"#,
    );
    let [x, y, user] = body_ops(&ctx, module)[..] else {
        panic!("three ops");
    };
    let mut log = Log::default();
    let mut rewriter = PatternRewriter::with_listener(&mut ctx, &mut log);
    let operands = rewriter.modify_op_in_place(user, |ctx| {
        ctx.set_operand(user, 0, Value::Result(y, 0));
        ctx.num_operands(user)
    });
    assert_eq!(operands, 1);
    rewriter.replace_all_uses_with(Value::Result(y, 0), Value::Result(x, 0));
    rewriter.move_op_after(x, user);
    rewriter.move_op_before(x, y);
    rewriter.replace_all_uses_with(Value::Result(x, 0), Value::Result(x, 0));
    assert_eq!(
        log.0,
        [
            r#"modified "user""#,
            r#"modified "user""#,
            r#"inserted "x""#,
            r#"inserted "x""#,
        ]
    );
    let expected = r#""builtin.module"() ({
  %0 = "test.pure"() {tag = "x"} : () -> i32
  %1 = "test.pure"() {tag = "y"} : () -> i32
  "test.effect"(%0) {tag = "user"} : (i32) -> ()
}) : () -> ()
"#;
    assert_eq!(generic(&ctx, module), expected);
}

#[test]
fn a_rewriter_without_listener_still_rewrites() {
    let mut ctx = Context::new();
    let module = parse(
        &mut ctx,
        r#"
%0 = "test.pure"() {tag = "old"} : () -> i32
"test.effect"(%0) : (i32) -> ()
"#,
    );
    let old = body_ops(&ctx, module)[0];
    let state = pure_state(&mut ctx, "new", vec![], 1);
    let mut rewriter = PatternRewriter::new(&mut ctx);
    assert_eq!(rewriter.insertion_point(), None);
    rewriter.replace_op_with_new(old, state);
    assert!(generic(&ctx, module).contains(r#"%0 = "test.pure"() {tag = "new"}"#));
}

/// A pattern that only has a name, a root and a benefit.
struct Named {
    name: &'static str,
    root: Option<&'static str>,
    benefit: u16,
}

impl RewritePattern for Named {
    fn root_name(&self) -> Option<&str> {
        self.root
    }

    fn benefit(&self) -> u16 {
        self.benefit
    }

    fn name(&self) -> &str {
        self.name
    }

    fn match_and_rewrite(&self, _: Operation, _: &mut PatternRewriter<'_>) -> bool {
        false
    }
}

#[test]
fn frozen_sets_order_patterns_by_benefit_specific_first_on_ties() {
    let mut ctx = Context::new();
    let mut set = RewritePatternSet::new();
    for (name, root, benefit) in [
        ("any-1", None, 1),
        ("pure-1", Some("test.pure"), 1),
        ("pure-3", Some("test.pure"), 3),
        ("any-2", None, 2),
        ("effect-2", Some("test.effect"), 2),
        ("pure-2", Some("test.pure"), 2),
        ("disabled", Some("test.pure"), 9),
    ] {
        set.add(Named {
            name,
            root,
            benefit,
        });
    }
    set.retain(|p| p.name() != "disabled");
    assert_eq!(set.len(), 6);
    let frozen = set.freeze(&mut ctx);
    assert_eq!(frozen.len(), 6);
    let names = |ctx: &mut Context, op: &str| -> Vec<String> {
        let op = ctx.ident(op);
        frozen
            .patterns_for(op)
            .map(|p| p.name().to_string())
            .collect()
    };
    assert_eq!(
        names(&mut ctx, "test.pure"),
        ["pure-3", "pure-2", "any-2", "pure-1", "any-1"]
    );
    assert_eq!(
        names(&mut ctx, "test.effect"),
        ["effect-2", "any-2", "any-1"]
    );
    assert_eq!(names(&mut ctx, "test.addi"), ["any-2", "any-1"]);
    assert!(RewritePatternSet::new().freeze(&mut ctx).is_empty());
}
