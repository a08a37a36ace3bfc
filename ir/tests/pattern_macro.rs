//! `pattern!`: declarative rewrites match, check and build as written.

use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::rewrite::{PatternRewriter, RewritePattern};
use strata_ir::{parser, pattern, testing, Attribute, Context, Operation, SourceBuffer, WalkOrder};

/// An op kind named by a type, as `#[op]` structs are.
struct NegOp;

impl NegOp {
    const NAME: &'static str = "t.neg";
}

pattern! {
    /// `neg(neg(x))` is `x`.
    NegNeg: (NegOp (NegOp $x)) => $x;

    /// `sub(a, a)` is a new `t.zero` of `a`'s type.
    SubSelf: ("t.sub" $a $a) => ("t.zero" : $a);

    /// `add(x, c)` with a constant `c` is `inc(x) {by = c}`, for integers.
    AddConstant: ("t.add" $x (const $c)) => ("t.inc" {by: {Some(c)}} $x) if is_integer(ctx, c);

    /// Attributes carry over; an optional one only when present.
    CopyAttrs:
        ("t.attrs" {mode: $m, flag: $f?} $x) => ("t.copied" {mode: $m, flag: $f} $x);

    /// New ops are created innermost first, before the root.
    Wrap: ("t.pair" $a $b _) => ("t.wrap" ("t.inner" $b $a : $b) $a);

    /// A computed attribute that may fail: the pattern does not apply.
    Computed: ("t.computed" $x) => ("t.done" {value: {computed(ctx, root)}} $x);
}

fn is_integer(ctx: &Context, c: Attribute) -> bool {
    matches!(ctx.attr_kind(c), strata_ir::AttrKind::Integer { .. })
}

/// The root's `ok` attribute, if it has one.
fn computed(ctx: &mut Context, root: Operation) -> Option<Attribute> {
    ctx.op_attr(root, "ok")
}

fn parse(ctx: &mut Context, body: &str) -> Operation {
    ctx.set_allow_unregistered_dialects(true);
    testing::register_test_dialect(ctx);
    let text = format!(
        "\"test.func\"() <{{sym_name = \"f\"}}> ({{\n^bb0(%arg0: i32, %arg1: i32):\n{body}\n}}) : () -> ()"
    );
    parser::parse_source(ctx, &SourceBuffer::new("in.mlir", &text)).expect("test IR parses")
}

fn print(ctx: &Context, module: Operation) -> String {
    let options = PrintOptions {
        generic: true,
        ..Default::default()
    };
    print_operation(ctx, module, options)
}

/// Apply `pattern` to the last op named `root`; returns whether it matched
/// and the printed ops of the function body.
fn apply(pattern: &dyn RewritePattern, body: &str, root: &str) -> (bool, String) {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, body);
    let before = print(&ctx, module);
    let op = ctx
        .collect_ops(module, WalkOrder::PreOrder)
        .into_iter()
        .rfind(|&o| ctx.op_name_str(o) == root)
        .expect("the root op");
    let matched = {
        let mut rewriter = PatternRewriter::new(&mut ctx);
        rewriter.set_insertion_point(op);
        pattern.match_and_rewrite(op, &mut rewriter)
    };
    let after = print(&ctx, module);
    if !matched {
        assert_eq!(
            before, after,
            "a pattern that does not match changes nothing"
        );
    }
    let lines: Vec<&str> = after
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(str::trim)
        .collect();
    (matched, lines.join("\n"))
}

#[test]
fn names_and_roots() {
    assert_eq!(NegNeg.name(), "NegNeg");
    assert_eq!(NegNeg.root_name(), Some("t.neg"));
    assert_eq!(SubSelf.root_name(), Some("t.sub"));
    assert_eq!(NegNeg.benefit(), 1);
}

#[test]
fn a_bound_value_replaces_the_root() {
    let (matched, out) = apply(
        &NegNeg,
        r#"
  %0 = "t.neg"(%arg0) : (i32) -> i32
  %1 = "t.neg"(%0) : (i32) -> i32
  "test.return"(%1) : (i32) -> ()"#,
        "t.neg",
    );
    assert!(matched);
    assert!(out.ends_with("\"test.return\"(%arg0) : (i32) -> ()"));
    // A neg of something else.
    let (matched, _) = apply(
        &NegNeg,
        r#"
  %0 = "t.neg"(%arg0) : (i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.neg",
    );
    assert!(!matched);
}

#[test]
fn a_variable_bound_twice_must_be_the_same_value() {
    let (matched, out) = apply(
        &SubSelf,
        r#"
  %0 = "t.sub"(%arg0, %arg0) : (i32, i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.sub",
    );
    assert!(matched);
    assert_eq!(
        out,
        "%0 = \"t.zero\"() : () -> i32\n\"test.return\"(%0) : (i32) -> ()"
    );
    let (matched, _) = apply(
        &SubSelf,
        r#"
  %0 = "t.sub"(%arg0, %arg1) : (i32, i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.sub",
    );
    assert!(!matched);
}

#[test]
fn constants_conditions_and_computed_attributes() {
    let (matched, out) = apply(
        &AddConstant,
        r#"
  %c = "test.constant"() <{value = 5 : i32}> : () -> i32
  %0 = "t.add"(%arg0, %c) : (i32, i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.add",
    );
    assert!(matched);
    assert!(out.contains("%1 = \"t.inc\"(%arg0) <{by = 5 : i32}> : (i32) -> i32"));
    // Not a constant.
    let (matched, _) = apply(
        &AddConstant,
        r#"
  %0 = "t.add"(%arg0, %arg1) : (i32, i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.add",
    );
    assert!(!matched);
    // The computed attribute is missing: no match, no change.
    let body = r#"
  %0 = "t.computed"(%arg0) : (i32) -> i32
  "test.return"(%0) : (i32) -> ()"#;
    assert!(!apply(&Computed, body, "t.computed").0);
    let (matched, out) = apply(
        &Computed,
        r#"
  %0 = "t.computed"(%arg0) {ok = 1 : i64} : (i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.computed",
    );
    assert!(matched);
    assert!(out.contains("\"t.done\"(%arg0) <{value = 1 : i64}>"));
}

#[test]
fn attributes_are_bound_and_carried_over() {
    let (matched, out) = apply(
        &CopyAttrs,
        r#"
  %0 = "t.attrs"(%arg0) {mode = "fast", flag} : (i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.attrs",
    );
    assert!(matched);
    assert!(out.contains("\"t.copied\"(%arg0) <{flag, mode = \"fast\"}>"));
    let (matched, out) = apply(
        &CopyAttrs,
        r#"
  %0 = "t.attrs"(%arg0) {mode = "slow"} : (i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.attrs",
    );
    assert!(matched);
    assert!(out.contains("\"t.copied\"(%arg0) <{mode = \"slow\"}>"));
    // A required attribute that is missing: no match.
    let (matched, _) = apply(
        &CopyAttrs,
        r#"
  %0 = "t.attrs"(%arg0) {flag} : (i32) -> i32
  "test.return"(%0) : (i32) -> ()"#,
        "t.attrs",
    );
    assert!(!matched);
}

#[test]
fn new_ops_are_created_innermost_first_with_their_types() {
    let (matched, out) = apply(
        &Wrap,
        r#"
  %f = "t.float"() : () -> f32
  %0 = "t.pair"(%arg0, %f, %arg1) : (i32, f32, i32) -> i64
  "test.return"(%0) : (i64) -> ()"#,
        "t.pair",
    );
    assert!(matched);
    assert_eq!(
        out,
        "%0 = \"t.float\"() : () -> f32\n%1 = \"t.inner\"(%0, %arg0) : (f32, i32) -> f32\n%2 = \"t.wrap\"(%1, %arg0) : (f32, i32) -> i64\n\"test.return\"(%2) : (i64) -> ()"
    );
    // The operand count is part of the match.
    let (matched, _) = apply(
        &Wrap,
        r#"
  %0 = "t.pair"(%arg0, %arg1) : (i32, i32) -> i64
  "test.return"(%0) : (i64) -> ()"#,
        "t.pair",
    );
    assert!(!matched);
}
