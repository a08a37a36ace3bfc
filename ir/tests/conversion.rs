//! Dialect conversion: targets, type converters, patterns with converted
//! operands, materializations, partial / full / analysis conversions,
//! block-argument conversion, rollback and the failure diagnostics.

use std::cell::Cell;
use std::rc::Rc;

use strata_ir::diagnostics::find_file_loc;
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::rewrite::conversion::{
    apply_analysis_conversion, apply_full_conversion, apply_partial_conversion,
    reconcile_unrealized_casts, ConversionPatternSet, ConversionTarget, Legality, TypeConverter,
};
use strata_ir::{parser, testing, verifier, Context, Operation, OperationState, SourceBuffer};

fn parse(ctx: &mut Context, text: &str) -> Operation {
    testing::register_test_dialect(ctx);
    ctx.set_allow_unregistered_dialects(true);
    parser::parse_source(ctx, &SourceBuffer::new("conversion.mlir", text)).expect("test IR parses")
}

fn print(ctx: &Context, op: Operation) -> String {
    print_operation(ctx, op, PrintOptions::default())
}

/// i32 becomes i64; every other type stays.
fn i32_to_i64() -> TypeConverter {
    let mut converter = TypeConverter::new();
    converter
        .add_identity_conversion()
        .add_type_conversion(|ctx, ty| (ty == ctx.integer_type(32)).then(|| ctx.integer_type(64)));
    converter
}

/// `test.addi` becomes `foo.add` on the converted operands, typed like them.
fn addi_to_foo_add(patterns: &mut ConversionPatternSet) {
    patterns.add_fn(Some("test.addi"), 1, |op, operands, rewriter| {
        let ctx = rewriter.ctx_mut();
        let ty = ctx.value_type(operands[0]);
        let mut state = OperationState::new(ctx.ident("foo.add"), ctx.op_loc(op));
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        rewriter.replace_op_with_new(op, state);
        true
    });
}

/// The target of most tests: `test.addi` illegal, `foo` legal.
fn addi_target() -> ConversionTarget {
    let mut target = ConversionTarget::new();
    target.add_illegal_op("test.addi").add_legal_dialect("foo");
    target
}

const FUNC: &str = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1 = "test.addi"(%arg0, %0) : (i32, i32) -> i32
  %2 = "test.addi"(%1, %1) : (i32, i32) -> i32
  "test.return"(%2) : (i32) -> ()
}) : () -> ()
"#;

#[test]
fn addi_becomes_foo_add_on_i64_with_casts_at_the_boundaries() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, FUNC);
    let converter = i32_to_i64();
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    apply_partial_conversion(
        &mut ctx,
        module,
        &addi_target(),
        &patterns,
        Some(&converter),
    )
    .expect("converts");
    // The operands are cast to i64 right after their definitions; the
    // second add takes the first one's i64 result directly (the i32 cast in
    // between was dead and is gone); the returned value is cast back.
    let expected = r#"module {
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    %0 = builtin.unrealized_conversion_cast %arg0 : i32 to i64
    %1 = "test.constant"() <{value = 1 : i32}> : () -> i32
    %2 = builtin.unrealized_conversion_cast %1 : i32 to i64
    %3 = "foo.add"(%0, %2) : (i64, i64) -> i64
    %4 = "foo.add"(%3, %3) : (i64, i64) -> i64
    %5 = builtin.unrealized_conversion_cast %4 : i64 to i32
    "test.return"(%5) : (i32) -> ()
  }) : () -> ()
}
"#;
    assert_eq!(print(&ctx, module), expected);
    verifier::verify(&ctx, module).expect("the converted IR verifies");
}

#[test]
fn materializations_of_the_type_converter_replace_the_live_casts() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, FUNC);
    let mut converter = i32_to_i64();
    let make = |name: &'static str| {
        move |rewriter: &mut strata_ir::rewrite::conversion::ConversionPatternRewriter<'_>,
              ty: strata_ir::Type,
              inputs: &[strata_ir::Value],
              loc: strata_ir::Location| {
            let ident = rewriter.ctx_mut().ident(name);
            let mut state = OperationState::new(ident, loc);
            state.operands = inputs.to_vec();
            state.result_types = vec![ty];
            let op = rewriter.create(state);
            Some(rewriter.ctx().result(op, 0))
        }
    };
    let extend = make("foo.extsi");
    converter.add_source_materialization(make("foo.trunci"));
    converter.add_target_materialization(move |rewriter, ty, inputs, loc, _original| {
        extend(rewriter, ty, inputs, loc)
    });
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    apply_partial_conversion(
        &mut ctx,
        module,
        &addi_target(),
        &patterns,
        Some(&converter),
    )
    .expect("converts");
    let expected = r#"module {
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    %0 = "foo.extsi"(%arg0) : (i32) -> i64
    %1 = "test.constant"() <{value = 1 : i32}> : () -> i32
    %2 = "foo.extsi"(%1) : (i32) -> i64
    %3 = "foo.add"(%0, %2) : (i64, i64) -> i64
    %4 = "foo.add"(%3, %3) : (i64, i64) -> i64
    %5 = "foo.trunci"(%4) : (i64) -> i32
    "test.return"(%5) : (i32) -> ()
  }) : () -> ()
}
"#;
    assert_eq!(print(&ctx, module), expected);
}

#[test]
fn materializations_that_do_not_apply_keep_the_cast() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, FUNC);
    let mut converter = i32_to_i64();
    converter.add_source_materialization(|_, _, _, _| None);
    converter.add_target_materialization(|_, _, _, _, _| None);
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    apply_partial_conversion(
        &mut ctx,
        module,
        &addi_target(),
        &patterns,
        Some(&converter),
    )
    .expect("converts");
    let out = print(&ctx, module);
    assert_eq!(
        out.matches("builtin.unrealized_conversion_cast").count(),
        3,
        "{out}"
    );
}

#[test]
fn without_a_type_converter_patterns_see_operands_as_they_are() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, FUNC);
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    apply_partial_conversion(&mut ctx, module, &addi_target(), &patterns, None).expect("converts");
    let out = print(&ctx, module);
    assert!(
        out.contains(r#"%1 = "foo.add"(%arg0, %0) : (i32, i32) -> i32"#),
        "{out}"
    );
    assert!(!out.contains("unrealized_conversion_cast"), "{out}");
}

#[test]
fn partial_conversion_leaves_legal_and_unknown_operations_alone() {
    let mut ctx = Context::new();
    let text = r#"
%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.addi"(%0, %0) : (i32, i32) -> i32
%2 = "test.effect"(%1) : (i32) -> i32
%3 = "bar.op"(%2) : (i32) -> i32
"#;
    let module = parse(&mut ctx, text);
    let mut target = addi_target();
    target.add_legal_op("test.constant");
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    apply_partial_conversion(&mut ctx, module, &target, &patterns, Some(&i32_to_i64()))
        .expect("only test.addi is explicitly illegal");
    let expected = r#"module {
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1 = unrealized_conversion_cast %0 : i32 to i64
  %2 = "foo.add"(%1, %1) : (i64, i64) -> i64
  %3 = unrealized_conversion_cast %2 : i64 to i32
  %4 = "test.effect"(%3) : (i32) -> i32
  %5 = "bar.op"(%4) : (i32) -> i32
}
"#;
    assert_eq!(print(&ctx, module), expected);
}

#[test]
fn full_conversion_fails_at_the_first_illegal_operation_and_rolls_back() {
    let mut ctx = Context::new();
    let text = r#"%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.addi"(%0, %0) : (i32, i32) -> i32
%2 = "test.effect"(%1) : (i32) -> i32
%3 = "bar.op"(%2) : (i32) -> i32
"#;
    let module = parse(&mut ctx, text);
    let before = print(&ctx, module);
    let mut target = addi_target();
    target
        .add_legal_op("builtin.module")
        .add_legal_op("test.constant");
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    let diag = apply_full_conversion(&mut ctx, module, &target, &patterns, Some(&i32_to_i64()))
        .expect_err("test.effect is not legal");
    assert_eq!(diag.message, "failed to legalize operation 'test.effect'");
    let (file, line, col) = find_file_loc(&ctx, diag.loc).expect("a file location");
    assert_eq!((file, line, col), (&b"conversion.mlir"[..], 3, 6));
    let op = diag.op.expect("the diagnostic names the operation");
    assert_eq!(ctx.op_name_str(op), "test.effect");
    // The test.addi conversion done before the failure is undone.
    assert_eq!(print(&ctx, module), before);
    verifier::verify(&ctx, module).expect("the restored IR verifies");
}

#[test]
fn full_conversion_requires_the_root_to_be_legal_too() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, r#""foo.op"() : () -> ()"#);
    let patterns = ConversionPatternSet::new().freeze(&mut ctx);
    let diag = apply_full_conversion(&mut ctx, module, &addi_target(), &patterns, None)
        .expect_err("builtin.module is not legal");
    assert_eq!(
        diag.message,
        "failed to legalize operation 'builtin.module'"
    );
}

#[test]
fn partial_conversion_fails_on_an_explicitly_illegal_operation() {
    let mut ctx = Context::new();
    let text = r#"%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.addi"(%0, %0) : (i32, i32) -> i32
%2 = "test.pure"(%1) : (i32) -> i32
"#;
    let module = parse(&mut ctx, text);
    let before = print(&ctx, module);
    let mut target = addi_target();
    target.add_illegal_op("test.pure");
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    let diag = apply_partial_conversion(&mut ctx, module, &target, &patterns, Some(&i32_to_i64()))
        .expect_err("test.pure has no pattern");
    assert_eq!(
        diag.message,
        "failed to legalize operation 'test.pure' that was explicitly marked illegal"
    );
    let (_, line, col) = find_file_loc(&ctx, diag.loc).expect("a file location");
    assert_eq!((line, col), (3, 6));
    assert_eq!(print(&ctx, module), before);
}

#[test]
fn dynamic_legality_decides_per_operation() {
    let mut ctx = Context::new();
    let text = r#"
%0 = "test.constant"() <{value = 1 : i64}> : () -> i64
%1 = "test.addi"(%0, %0) : (i64, i64) -> i64
%2 = "test.constant"() <{value = 1 : i32}> : () -> i32
%3 = "test.addi"(%2, %2) : (i32, i32) -> i32
"#;
    let module = parse(&mut ctx, text);
    let mut target = ConversionTarget::new();
    target
        .add_legal_dialect("foo")
        .add_dynamically_legal_op("test.addi", |ctx, op| {
            let ty = ctx.value_type(ctx.result(op, 0));
            matches!(
                ctx.type_kind(ty),
                strata_ir::TypeKind::Integer { width: 64, .. }
            )
        });
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    apply_partial_conversion(&mut ctx, module, &target, &patterns, Some(&i32_to_i64()))
        .expect("converts");
    let expected = r#"module {
  %0 = "test.constant"() <{value = 1 : i64}> : () -> i64
  %1 = "test.addi"(%0, %0) : (i64, i64) -> i64
  %2 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %3 = unrealized_conversion_cast %2 : i32 to i64
  %4 = "foo.add"(%3, %3) : (i64, i64) -> i64
}
"#;
    assert_eq!(print(&ctx, module), expected);
}

#[test]
fn target_legality_rules_and_their_precedence() {
    let mut ctx = Context::new();
    let text = r#"
"test.pure"() : () -> ()
"test.effect"() : () -> ()
"foo.a"() : () -> ()
"bar.b"() : () -> ()
"#;
    let module = parse(&mut ctx, text);
    let block = ctx
        .region_entry_block(ctx.op_regions(module)[0])
        .expect("a body");
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    let mut target = ConversionTarget::new();
    target
        .add_illegal_dialect("test")
        .add_legal_op("test.pure")
        .add_legal_dialect("foo");
    let legality: Vec<Legality> = ops.iter().map(|&op| target.legality(&ctx, op)).collect();
    assert_eq!(
        legality,
        [
            Legality::Legal,
            Legality::Illegal,
            Legality::Legal,
            Legality::Unknown
        ]
    );
    target.mark_unknown_operations_dynamically_legal(|ctx, op| ctx.op_name_str(op) == "bar.b");
    assert_eq!(target.legality(&ctx, ops[3]), Legality::Legal);
    assert_eq!(target.legality(&ctx, module), Legality::Illegal);
}

#[test]
fn recursively_legal_operations_are_not_looked_into() {
    let mut ctx = Context::new();
    let text = r#"
"test.region"() ({
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1 = "test.addi"(%0, %0) : (i32, i32) -> i32
}) : () -> ()
"#;
    let module = parse(&mut ctx, text);
    let before = print(&ctx, module);
    let mut target = addi_target();
    target
        .add_legal_op("test.region")
        .mark_op_recursively_legal("test.region");
    let patterns = ConversionPatternSet::new().freeze(&mut ctx);
    apply_partial_conversion(&mut ctx, module, &target, &patterns, None)
        .expect("the illegal test.addi is never visited");
    assert_eq!(print(&ctx, module), before);
}

#[test]
fn block_arguments_of_a_region_are_converted() {
    let mut ctx = Context::new();
    let text = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32, %arg1: f32, %arg2: i32):
  %0 = "test.addi"(%arg0, %arg0) : (i32, i32) -> i32
  "test.return"(%0, %arg1, %arg2) : (i32, f32, i32) -> ()
}) : () -> ()
"#;
    let module = parse(&mut ctx, text);
    let converter = i32_to_i64();
    let mut target = addi_target();
    target.add_legal_op("test.return");
    // Legal once no block argument is an i32.
    target.add_dynamically_legal_op("test.func", |ctx, op| {
        let region = ctx.op_regions(op)[0];
        ctx.region_blocks(region)
            .flat_map(|block| ctx.block_args(block))
            .all(|arg| {
                !matches!(
                    ctx.type_kind(ctx.value_type(arg)),
                    strata_ir::TypeKind::Integer { width: 32, .. }
                )
            })
    });
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    patterns.add_fn(Some("test.func"), 1, |op, _, rewriter| {
        let region = rewriter.ctx().op_regions(op)[0];
        let Some(converter) = rewriter.type_converter() else {
            return false;
        };
        if !rewriter.convert_region_types(region, converter) {
            return false;
        }
        rewriter.modify_op_in_place(op, |_| ());
        true
    });
    let patterns = patterns.freeze(&mut ctx);
    apply_partial_conversion(&mut ctx, module, &target, &patterns, Some(&converter))
        .expect("converts");
    // %arg0 feeds the converted add directly; %arg2's remaining i32 user
    // gets a cast back.
    let expected = r#"module {
  "test.func"() <{sym_name = "f"}> ({
  ^bb0(%arg0: i64, %arg1: f32, %arg2: i64):
    %0 = builtin.unrealized_conversion_cast %arg2 : i64 to i32
    %1 = "foo.add"(%arg0, %arg0) : (i64, i64) -> i64
    %2 = builtin.unrealized_conversion_cast %1 : i64 to i32
    "test.return"(%2, %arg1, %0) : (i32, f32, i32) -> ()
  }) : () -> ()
}
"#;
    assert_eq!(print(&ctx, module), expected);
    verifier::verify(&ctx, module).expect("the converted IR verifies");
}

#[test]
fn block_argument_conversion_is_rolled_back_when_the_conversion_fails() {
    let mut ctx = Context::new();
    let text = r#"
"test.func"() <{sym_name = "f"}> ({
^bb0(%arg0: i32):
  %0 = "test.pure"(%arg0) : (i32) -> i32
  "test.return"(%0) : (i32) -> ()
}) : () -> ()
"#;
    let module = parse(&mut ctx, text);
    let before = print(&ctx, module);
    let mut target = ConversionTarget::new();
    target.add_illegal_op("test.pure");
    target.add_dynamically_legal_op("test.func", |ctx, op| {
        let block = ctx.region_entry_block(ctx.op_regions(op)[0]);
        block.is_some_and(|block| {
            ctx.block_args(block).all(|arg| {
                !matches!(
                    ctx.type_kind(ctx.value_type(arg)),
                    strata_ir::TypeKind::Integer { width: 32, .. }
                )
            })
        })
    });
    let mut patterns = ConversionPatternSet::new();
    patterns.add_fn(Some("test.func"), 1, |op, _, rewriter| {
        let region = rewriter.ctx().op_regions(op)[0];
        let converter = i32_to_i64();
        let converted = rewriter.convert_region_types(region, &converter);
        let name = rewriter.ctx_mut().ident("foo.converted");
        let unit = rewriter.ctx_mut().unit_attr();
        rewriter.modify_op_in_place(op, |ctx| {
            let mut entries = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
            entries.push((name, unit));
            let dict = ctx.dictionary_attr(entries);
            ctx.set_op_attr_dict(op, dict);
        });
        converted
    });
    let patterns = patterns.freeze(&mut ctx);
    let legalizable = apply_analysis_conversion(&mut ctx, module, &target, &patterns, None);
    let names: Vec<&str> = legalizable.iter().map(|&op| ctx.op_name_str(op)).collect();
    assert_eq!(names, ["test.func"], "the function alone converts");
    assert_eq!(print(&ctx, module), before);
    let diag = apply_partial_conversion(&mut ctx, module, &target, &patterns, None)
        .expect_err("test.pure has no pattern");
    // test.func was converted first; its conversion is undone.
    assert_eq!(
        diag.message,
        "failed to legalize operation 'test.pure' that was explicitly marked illegal"
    );
    assert_eq!(print(&ctx, module), before);
    verifier::verify(&ctx, module).expect("the restored IR verifies");
}

#[test]
fn a_pattern_that_fails_leaves_the_ir_unchanged() {
    let mut ctx = Context::new();
    let module = parse(&mut ctx, FUNC);
    let before = print(&ctx, module);
    let tries = Rc::new(Cell::new(0));
    let counter = tries.clone();
    let mut patterns = ConversionPatternSet::new();
    // Creates an op, replaces the root, changes the return, then gives up.
    patterns.add_fn(Some("test.addi"), 1, move |op, operands, rewriter| {
        counter.set(counter.get() + 1);
        let ctx = rewriter.ctx_mut();
        let ty = ctx.value_type(operands[0]);
        let mut state = OperationState::new(ctx.ident("foo.add"), ctx.op_loc(op));
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        rewriter.replace_op_with_new(op, state);
        false
    });
    let patterns = patterns.freeze(&mut ctx);
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("foo");
    apply_partial_conversion(&mut ctx, module, &target, &patterns, Some(&i32_to_i64()))
        .expect("test.addi is not explicitly illegal");
    assert_eq!(tries.get(), 2, "tried on both adds");
    assert_eq!(print(&ctx, module), before);
    verifier::verify(&ctx, module).expect("the IR still verifies");
}

#[test]
fn a_pattern_whose_result_cannot_be_legalized_is_rolled_back_for_the_next_one() {
    let mut ctx = Context::new();
    let text = r#"
%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.addi"(%0, %0) : (i32, i32) -> i32
"test.effect"(%1) : (i32) -> ()
"#;
    let module = parse(&mut ctx, text);
    let mut patterns = ConversionPatternSet::new();
    // Best benefit, but produces `bar.add`, which is illegal.
    patterns.add_fn(Some("test.addi"), 2, |op, operands, rewriter| {
        let ctx = rewriter.ctx_mut();
        let ty = ctx.value_type(operands[0]);
        let mut state = OperationState::new(ctx.ident("bar.add"), ctx.op_loc(op));
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        rewriter.replace_op_with_new(op, state);
        true
    });
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    let mut target = addi_target();
    target.add_illegal_dialect("bar");
    apply_partial_conversion(&mut ctx, module, &target, &patterns, None).expect("converts");
    let expected = r#"module {
  %0 = "test.constant"() <{value = 1 : i32}> : () -> i32
  %1 = "foo.add"(%0, %0) : (i32, i32) -> i32
  "test.effect"(%1) : (i32) -> ()
}
"#;
    assert_eq!(print(&ctx, module), expected);
}

#[test]
fn new_operations_are_legalized_recursively() {
    let mut ctx = Context::new();
    let text = r#"
%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.addi"(%0, %0) : (i32, i32) -> i32
"test.effect"(%1) : (i32) -> ()
"#;
    let module = parse(&mut ctx, text);
    let mut patterns = ConversionPatternSet::new();
    // test.addi -> bar.add (illegal) -> foo.add.
    patterns.add_fn(Some("test.addi"), 1, |op, operands, rewriter| {
        let ctx = rewriter.ctx_mut();
        let ty = ctx.value_type(operands[0]);
        let mut state = OperationState::new(ctx.ident("bar.add"), ctx.op_loc(op));
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        rewriter.replace_op_with_new(op, state);
        true
    });
    patterns.add_fn(Some("bar.add"), 1, |op, operands, rewriter| {
        let ctx = rewriter.ctx_mut();
        let ty = ctx.value_type(operands[0]);
        let mut state = OperationState::new(ctx.ident("foo.add"), ctx.op_loc(op));
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        rewriter.replace_op_with_new(op, state);
        true
    });
    let patterns = patterns.freeze(&mut ctx);
    let mut target = addi_target();
    target
        .add_illegal_dialect("bar")
        .add_legal_op("builtin.module")
        .add_legal_op("test.constant")
        .add_legal_op("test.effect");
    apply_full_conversion(&mut ctx, module, &target, &patterns, Some(&i32_to_i64()))
        .expect("converts");
    let out = print(&ctx, module);
    assert!(
        out.contains(r#""foo.add"(%1, %1) : (i64, i64) -> i64"#),
        "{out}"
    );
    assert!(!out.contains("bar.add"), "{out}");
}

#[test]
fn a_pattern_is_not_applied_to_what_it_produced() {
    let mut ctx = Context::new();
    let text = r#"
%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.addi"(%0, %0) : (i32, i32) -> i32
"test.effect"(%1) : (i32) -> ()
"#;
    let module = parse(&mut ctx, text);
    let before = print(&ctx, module);
    let mut patterns = ConversionPatternSet::new();
    // Replaces test.addi by another test.addi: would never end.
    patterns.add_fn(Some("test.addi"), 1, |op, operands, rewriter| {
        let ctx = rewriter.ctx_mut();
        let mut state = OperationState::new(ctx.ident("test.addi"), ctx.op_loc(op));
        state.operands = operands.to_vec();
        state.result_types = vec![ctx.value_type(operands[0])];
        rewriter.replace_op_with_new(op, state);
        true
    });
    let patterns = patterns.freeze(&mut ctx);
    let diag = apply_partial_conversion(&mut ctx, module, &addi_target(), &patterns, None)
        .expect_err("the new test.addi is illegal too");
    assert_eq!(
        diag.message,
        "failed to legalize operation 'test.addi' that was explicitly marked illegal"
    );
    assert_eq!(print(&ctx, module), before);
}

#[test]
fn erasing_an_operation_whose_result_stays_used_fails_the_conversion() {
    let mut ctx = Context::new();
    let text = r#"
%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.addi"(%0, %0) : (i32, i32) -> i32
"test.effect"(%1) : (i32) -> ()
"#;
    let module = parse(&mut ctx, text);
    let before = print(&ctx, module);
    let mut patterns = ConversionPatternSet::new();
    patterns.add_fn(Some("test.addi"), 1, |op, _, rewriter| {
        rewriter.erase_op(op);
        true
    });
    let patterns = patterns.freeze(&mut ctx);
    let diag = apply_partial_conversion(&mut ctx, module, &addi_target(), &patterns, None)
        .expect_err("test.effect still uses the erased result");
    assert_eq!(
        diag.message,
        "failed to legalize unresolved materialization from () to (i32) that remained live after conversion"
    );
    assert!(diag.notes[0]
        .message
        .starts_with("see existing live user here: "));
    assert!(diag.notes[0].message.contains("test.effect"));
    assert_eq!(print(&ctx, module), before);
}

#[test]
fn analysis_reports_the_legalizable_operations_and_changes_nothing() {
    let mut ctx = Context::new();
    let text = r#"
%0 = "test.constant"() <{value = 1 : i32}> : () -> i32
%1 = "test.addi"(%0, %0) : (i32, i32) -> i32
%2 = "test.pure"(%1) : (i32) -> i32
"#;
    let module = parse(&mut ctx, text);
    let before = print(&ctx, module);
    let mut target = addi_target();
    target
        .add_legal_op("test.constant")
        .add_illegal_op("test.pure");
    let mut patterns = ConversionPatternSet::new();
    addi_to_foo_add(&mut patterns);
    let patterns = patterns.freeze(&mut ctx);
    let legalizable =
        apply_analysis_conversion(&mut ctx, module, &target, &patterns, Some(&i32_to_i64()));
    let names: Vec<&str> = legalizable.iter().map(|&op| ctx.op_name_str(op)).collect();
    assert_eq!(names, ["test.constant", "test.addi"]);
    assert_eq!(print(&ctx, module), before);
}

#[test]
fn type_converter_tries_the_last_rule_first() {
    let mut ctx = Context::new();
    let (i1, i32, i64) = (
        ctx.integer_type(1),
        ctx.integer_type(32),
        ctx.integer_type(64),
    );
    let mut converter = i32_to_i64();
    // Newer rule: i32 becomes two i32s (one-to-many); i1 is dropped.
    converter.add_conversion(move |ctx, ty| {
        if ty == ctx.integer_type(32) {
            Some(vec![ty, ty])
        } else if ty == ctx.integer_type(1) {
            Some(Vec::new())
        } else {
            None
        }
    });
    assert_eq!(converter.convert_type(&mut ctx, i32), Some(vec![i32, i32]));
    assert_eq!(converter.convert_type(&mut ctx, i1), Some(Vec::new()));
    assert_eq!(converter.convert_type_one(&mut ctx, i32), None);
    assert_eq!(converter.convert_type(&mut ctx, i64), Some(vec![i64]));
    assert_eq!(
        converter.convert_types(&mut ctx, &[i64, i32, i1]),
        Some(vec![i64, i32, i32])
    );
    assert!(converter.is_legal(&mut ctx, i64));
    assert!(!converter.is_legal(&mut ctx, i32));
    assert!(converter.is_signature_legal(&mut ctx, &[i64], &[i64]));
    assert!(!converter.is_signature_legal(&mut ctx, &[i64], &[i32]));
    // Without an identity rule nothing converts.
    let empty = TypeConverter::new();
    assert_eq!(empty.convert_type(&mut ctx, i64), None);
    assert!(!empty.is_legal(&mut ctx, i64));
}

#[test]
fn reconcile_folds_round_trips_and_keeps_open_casts() {
    let mut ctx = Context::new();
    let text = r#"
%0 = "foo.producer"() : () -> i64
%1 = builtin.unrealized_conversion_cast %0 : i64 to i32
%2 = builtin.unrealized_conversion_cast %1 : i32 to i64
%3 = builtin.unrealized_conversion_cast %0 : i64 to i16
"foo.consumer"(%2, %3) : (i64, i16) -> ()
"#;
    let module = parse(&mut ctx, text);
    let block = ctx
        .region_entry_block(ctx.op_regions(module)[0])
        .expect("a body");
    let casts: Vec<Operation> = ctx
        .block_ops(block)
        .filter(|&op| ctx.op_name_str(op) == "builtin.unrealized_conversion_cast")
        .collect();
    let remaining = reconcile_unrealized_casts(&mut ctx, &casts);
    assert_eq!(remaining, [casts[2]]);
    let expected = r#"module {
  %0 = "foo.producer"() : () -> i64
  %1 = unrealized_conversion_cast %0 : i64 to i16
  "foo.consumer"(%0, %1) : (i64, i16) -> ()
}
"#;
    assert_eq!(print(&ctx, module), expected);
}
