//! The `OperationFolder` (folding, constant uniquing and hoisting) and the
//! trivially-dead queries.

use strata_ir::dialect::{FoldResult, OpDefinition, OpTraits};
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::rewrite::{
    apply_patterns_greedily, constant_value, insertion_region, is_trivially_dead,
    would_op_be_trivially_dead, FoldOutcome, GreedyConfig, KnownConstant, OperationFolder,
    PatternRewriter, RewritePatternSet,
};
use strata_ir::{
    parser, testing, Attribute, Context, Location, Operation, OperationState, SourceBuffer, Type,
    Value,
};

fn parse(ctx: &mut Context, text: &str) -> Operation {
    testing::register_test_dialect(ctx);
    register_rw_dialect(ctx);
    parser::parse_source(ctx, &SourceBuffer::new("folder.mlir", text)).expect("test IR parses")
}

fn generic(ctx: &Context, op: Operation) -> String {
    let options = PrintOptions {
        generic: true,
        ..Default::default()
    };
    print_operation(ctx, op, options)
}

/// Every op nested in `root`, in pre-order.
fn all_ops(ctx: &Context, root: Operation) -> Vec<Operation> {
    let mut ops = Vec::new();
    let mut pending = vec![root];
    while let Some(op) = pending.pop() {
        ops.push(op);
        let mut nested = Vec::new();
        for &region in ctx.op_regions(op) {
            for block in ctx.region_blocks(region) {
                nested.extend(ctx.block_ops(block));
            }
        }
        pending.extend(nested.into_iter().rev());
    }
    ops
}

/// The op with discardable attribute `tag = "<tag>"`.
fn tagged(ctx: &mut Context, root: Operation, tag: &str) -> Operation {
    let tag = ctx.string_attr(tag);
    all_ops(ctx, root)
        .into_iter()
        .find(|&op| ctx.op_attr(op, "tag") == Some(tag))
        .expect("a tagged op")
}

/// A little dialect for the cases the test dialect lacks: an op that folds
/// to 7 (materialized as a `test.constant`), a pure op with a region, and a
/// pure symbol.
fn register_rw_dialect(ctx: &mut Context) {
    let registry = ctx.registry_mut();
    let pure = OpTraits {
        pure: true,
        ..OpTraits::default()
    };
    registry.register_op(OpDefinition {
        name: "rw.seven",
        summary: "Folds to the constant 7",
        traits: pure,
        inherent_attrs: &[],
        verify: None,
        fold: Some(fold_to_seven),
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "rw.partial",
        summary: "Two results: the first folds to 7 when its operand is constant",
        traits: pure,
        inherent_attrs: &[],
        verify: None,
        fold: Some(fold_first_result),
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "rw.region",
        summary: "A pure op with regions",
        traits: pure,
        inherent_attrs: &[],
        verify: None,
        fold: None,
        ..OpDefinition::EMPTY
    });
    registry.register_op(OpDefinition {
        name: "rw.symbol",
        summary: "A pure symbol",
        traits: pure,
        inherent_attrs: &["sym_name"],
        verify: None,
        fold: None,
        ..OpDefinition::EMPTY
    });
}

fn fold_to_seven(
    ctx: &mut Context,
    op: Operation,
    _: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let ty = ctx.value_type(Value::Result(op, 0));
    Some(vec![FoldResult::Attr(ctx.integer_attr(ty, 7))])
}

fn fold_first_result(
    ctx: &mut Context,
    op: Operation,
    operands: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    operands.first().copied().flatten()?;
    let ty = ctx.value_type(Value::Result(op, 0));
    Some(vec![
        FoldResult::Attr(ctx.integer_attr(ty, 7)),
        FoldResult::Value(Value::Result(op, 1)),
    ])
}

/// `rw` constants are `test` constants.
fn materialize_as_test_constant(
    ctx: &mut Context,
    value: Attribute,
    ty: Type,
    loc: Location,
) -> Option<Operation> {
    let (name, key) = (ctx.ident("test.constant"), ctx.ident("value"));
    let mut state = OperationState::new(name, loc);
    state.result_types.push(ty);
    state.properties = Some(ctx.dictionary_attr(vec![(key, value)]));
    Some(ctx.create_operation(state))
}

const NESTED: &str = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.effect"() {tag = "first"} : () -> i32
  %1 = "test.constant"() <{value = 1 : i32}> {tag = "one"} : () -> i32
  %2 = "test.constant"() <{value = 2 : i32}> {tag = "two"} : () -> i32
  "test.effect"() ({
    %3 = "test.addi"(%1, %2) {tag = "inner"} : (i32, i32) -> i32
    %4 = "test.constant"() <{value = 2 : i32}> {tag = "two again"} : () -> i32
    "test.effect"(%3, %4) : (i32, i32) -> ()
  }) : () -> ()
  %5 = "test.addi"(%2, %1) {tag = "outer"} : (i32, i32) -> i32
  %6 = "test.addi"(%1, %arg0) {tag = "commute"} : (i32, i32) -> i32
  %7 = "test.addi"(%arg0, %0) {tag = "opaque"} : (i32, i32) -> i32
  "test.return"(%5, %6, %7) : (i32, i32, i32) -> ()
}) : () -> ()
"#;

#[test]
fn folded_constants_go_once_to_the_start_of_the_isolated_region() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, NESTED);
    let (inner, outer) = (
        tagged(&mut ctx, module, "inner"),
        tagged(&mut ctx, module, "outer"),
    );
    let mut folder = OperationFolder::new();
    let mut rewriter = PatternRewriter::new(&mut ctx);
    assert_eq!(
        folder.try_to_fold(&mut rewriter, inner),
        FoldOutcome::Replaced
    );
    assert_eq!(
        folder.try_to_fold(&mut rewriter, outer),
        FoldOutcome::Replaced
    );
    let expected = r#""builtin.module"() ({
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    %0 = "test.constant"() <{value = 3 : i32}> : () -> i32
    %1 = "test.effect"() {tag = "first"} : () -> i32
    %2 = "test.constant"() <{value = 1 : i32}> {tag = "one"} : () -> i32
    %3 = "test.constant"() <{value = 2 : i32}> {tag = "two"} : () -> i32
    "test.effect"() ({
      %6 = "test.constant"() <{value = 2 : i32}> {tag = "two again"} : () -> i32
      "test.effect"(%0, %6) : (i32, i32) -> ()
    }) : () -> ()
    %4 = "test.addi"(%2, %arg0) {tag = "commute"} : (i32, i32) -> i32
    %5 = "test.addi"(%arg0, %1) {tag = "opaque"} : (i32, i32) -> i32
    "test.return"(%0, %4, %5) : (i32, i32, i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;
    assert_eq!(generic(&ctx, module), expected);
    // A constant that stands for several folds comes from nowhere in particular.
    let first = tagged(&mut ctx, module, "first");
    let three = ctx.op_prev(first).expect("the folded constant");
    assert_eq!(ctx.op_loc(three), ctx.unknown_loc());
}

#[test]
fn commutative_folds_happen_in_place_once() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, NESTED);
    let (commute, opaque) = (
        tagged(&mut ctx, module, "commute"),
        tagged(&mut ctx, module, "opaque"),
    );
    let mut folder = OperationFolder::new();
    let mut rewriter = PatternRewriter::new(&mut ctx);
    assert_eq!(
        folder.try_to_fold(&mut rewriter, commute),
        FoldOutcome::InPlace
    );
    assert_eq!(
        folder.try_to_fold(&mut rewriter, commute),
        FoldOutcome::Unchanged
    );
    assert_eq!(
        folder.try_to_fold(&mut rewriter, opaque),
        FoldOutcome::Unchanged
    );
    let lhs = ctx.operand(commute, 0);
    assert!(
        matches!(lhs, Value::Argument(..)),
        "the constant moved to the right"
    );
}

#[test]
fn known_constants_are_hoisted_and_merged() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, NESTED);
    let one = tagged(&mut ctx, module, "one");
    let two = tagged(&mut ctx, module, "two");
    let two_again = tagged(&mut ctx, module, "two again");
    let mut folder = OperationFolder::new();
    let mut rewriter = PatternRewriter::new(&mut ctx);
    assert_eq!(
        folder.insert_known_constant(&mut rewriter, one, None),
        KnownConstant::Hoisted,
        "a non-constant op came before it"
    );
    // As in MLIR, a constant not in the leading run of known constants
    // goes to the very front.
    assert_eq!(
        folder.insert_known_constant(&mut rewriter, two, None),
        KnownConstant::Hoisted
    );
    assert_eq!(
        folder.insert_known_constant(&mut rewriter, one, None),
        KnownConstant::Unchanged,
        "it follows a known constant"
    );
    assert_eq!(
        folder.insert_known_constant(&mut rewriter, two_again, None),
        KnownConstant::Deduplicated
    );
    assert!(folder.is_folder_owned(rewriter.ctx(), two));
    assert!(!folder.is_folder_owned(rewriter.ctx(), two_again), "erased");

    // Asking for a known value returns the known op; a new one is created.
    let block = rewriter.ctx().op_parent_block(one).expect("attached");
    let ty = rewriter.ctx().value_type(Value::Result(two, 0));
    let two_attr = constant_value(rewriter.ctx_mut(), Value::Result(two, 0)).expect("constant");
    let again = folder.get_or_create_constant(&mut rewriter, block, "test", two_attr, ty);
    assert_eq!(again, Some(Value::Result(two, 0)));
    let five = rewriter.ctx_mut().integer_attr(ty, 5);
    let created = folder
        .get_or_create_constant(&mut rewriter, block, "test", five, ty)
        .expect("the test dialect materializes constants");
    assert_ne!(created, Value::Result(two, 0));
    assert_eq!(
        folder.get_or_create_constant(&mut rewriter, block, "test", five, ty),
        Some(created)
    );
    assert_eq!(
        folder.get_or_create_constant(&mut rewriter, block, "nope", five, ty),
        None
    );

    let expected = r#""builtin.module"() ({
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    %0 = "test.constant"() <{value = 5 : i32}> : () -> i32
    %1 = "test.constant"() <{value = 2 : i32}> {tag = "two"} : () -> i32
    %2 = "test.constant"() <{value = 1 : i32}> {tag = "one"} : () -> i32
    %3 = "test.effect"() {tag = "first"} : () -> i32
    "test.effect"() ({
      %7 = "test.addi"(%2, %1) {tag = "inner"} : (i32, i32) -> i32
      "test.effect"(%7, %1) : (i32, i32) -> ()
    }) : () -> ()
    %4 = "test.addi"(%1, %2) {tag = "outer"} : (i32, i32) -> i32
    %5 = "test.addi"(%2, %arg0) {tag = "commute"} : (i32, i32) -> i32
    %6 = "test.addi"(%arg0, %3) {tag = "opaque"} : (i32, i32) -> i32
    "test.return"(%4, %5, %6) : (i32, i32, i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;
    assert_eq!(generic(&ctx, module), expected);
}

#[test]
fn constants_of_another_dialect_are_shared_and_failures_change_nothing() {
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
  %0 = "test.constant"() <{value = 7 : i32}> {tag = "seven"} : () -> i32
  %1 = "rw.seven"() {tag = "fold me"} : () -> i32
  "test.return"(%0, %1) : (i32, i32) -> ()
}) : () -> ()
"#;
    let mut ctx = Context::new();
    let module = parse(&mut ctx, input);
    let (seven, fold_me) = (
        tagged(&mut ctx, module, "seven"),
        tagged(&mut ctx, module, "fold me"),
    );
    let before = generic(&ctx, module);
    let mut folder = OperationFolder::new();
    {
        let mut rewriter = PatternRewriter::new(&mut ctx);
        assert_eq!(
            folder.try_to_fold(&mut rewriter, fold_me),
            FoldOutcome::Unchanged,
            "no materializer for `rw` yet"
        );
    }
    assert_eq!(generic(&ctx, module), before);

    ctx.registry_mut()
        .register_constant_materializer("rw", materialize_as_test_constant);
    let mut rewriter = PatternRewriter::new(&mut ctx);
    assert_eq!(
        folder.insert_known_constant(&mut rewriter, seven, None),
        KnownConstant::Unchanged
    );
    assert_eq!(
        folder.try_to_fold(&mut rewriter, fold_me),
        FoldOutcome::Replaced
    );
    let expected = r#""builtin.module"() ({
  "test.func"() <{sym_name = "f"}> ({
    %0 = "test.constant"() <{value = 7 : i32}> {tag = "seven"} : () -> i32
    "test.return"(%0, %0) : (i32, i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;
    assert_eq!(generic(&ctx, module), expected);
}

#[test]
fn constant_values_and_insertion_regions() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, NESTED);
    let (one, inner) = (
        tagged(&mut ctx, module, "one"),
        tagged(&mut ctx, module, "inner"),
    );
    let attr = constant_value(&mut ctx, Value::Result(one, 0)).expect("a constant");
    assert_eq!(
        strata_ir::printer::attribute_to_string(&ctx, attr),
        "1 : i32"
    );
    assert_eq!(constant_value(&mut ctx, Value::Result(inner, 0)), None);
    let block = ctx.op_parent_block(one).expect("attached");
    assert_eq!(constant_value(&mut ctx, Value::Argument(block, 0)), None);

    // Both the function body and the nested region fold into the function body.
    let func_region = ctx.block_parent_region(block);
    let inner_block = ctx.op_parent_block(inner).expect("attached");
    assert_eq!(insertion_region(&ctx, inner_block), func_region);
    assert_eq!(insertion_region(&ctx, block), func_region);
    let module_body = ctx
        .region_entry_block(ctx.op_regions(module)[0])
        .expect("body");
    assert_eq!(
        insertion_region(&ctx, module_body),
        Some(ctx.op_regions(module)[0])
    );
}

#[test]
fn trivially_dead_ops() {
    let input = r#"
%0 = "test.pure"() {tag = "used"} : () -> i32
%1 = "test.pure"(%0) {tag = "unused"} : (i32) -> i32
%2 = "test.effect"() {tag = "effect"} : () -> i32
%3 = "test.constant"() <{value = 0 : i32}> {tag = "constant"} : () -> i32
"rw.region"() ({
  "test.pure"() : () -> ()
}) {tag = "pure body"} : () -> ()
"rw.region"() ({
  "rw.region"() ({
    "test.effect"() : () -> ()
  }) : () -> ()
}) {tag = "effect inside"} : () -> ()
"rw.symbol"() <{sym_name = "s"}> {tag = "symbol"} : () -> ()
"other.op"() {tag = "unregistered"} : () -> ()
"test.func"() <{sym_name = "f"}> ({
  "test.return"() {tag = "terminator"} : () -> ()
}) : () -> ()
"#;
    let mut ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    let module = parse(&mut ctx, input);
    let cases = [
        ("used", false, true),
        ("unused", true, true),
        ("effect", false, false),
        ("constant", true, true),
        ("pure body", true, true),
        ("effect inside", false, false),
        ("symbol", false, false),
        ("unregistered", false, false),
        ("terminator", false, false),
    ];
    for (tag, dead, would_be) in cases {
        let op = tagged(&mut ctx, module, tag);
        assert_eq!(is_trivially_dead(&ctx, op), dead, "{tag}");
        assert_eq!(would_op_be_trivially_dead(&ctx, op), would_be, "{tag}");
    }
}

#[test]
fn a_partial_fold_keeps_the_op_for_the_other_results() {
    let input = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1:2 = "rw.partial"(%0, %arg0) {tag = "partial"} : (i32, i32) -> (i32, i32)
  "test.return"(%1#0, %1#1) : (i32, i32) -> ()
}) : () -> ()
"#;
    let expected = r#""builtin.module"() ({
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
    %1 = "test.constant"() <{value = 7 : i32}> : () -> i32
    %2:2 = "rw.partial"(%0, %arg0) {tag = "partial"} : (i32, i32) -> (i32, i32)
    "test.return"(%1, %2#1) : (i32, i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;
    let mut ctx = Context::new();
    let module = parse(&mut ctx, input);
    ctx.registry_mut()
        .register_constant_materializer("rw", materialize_as_test_constant);
    let patterns = RewritePatternSet::new().freeze(&mut ctx);
    let changed = apply_patterns_greedily(&mut ctx, module, &patterns, &GreedyConfig::default())
        .expect("a partial fold converges");
    assert!(changed);
    assert_eq!(generic(&ctx, module), expected);

    // Once the folded result is unused, folding again changes nothing.
    let partial = tagged(&mut ctx, module, "partial");
    let mut folder = OperationFolder::new();
    let mut rewriter = PatternRewriter::new(&mut ctx);
    assert_eq!(
        folder.try_to_fold(&mut rewriter, partial),
        FoldOutcome::Unchanged
    );
    assert_eq!(generic(&ctx, module), expected, "no constant left behind");
}
