//! Typed matchers and builders: `defining::<T>`, `dyn_cast`, the
//! `build_inferred` that `#[op]` writes, `ModuleOp`, `FuncOp`'s entry
//! block, and `build_graph_op`.

use strata_dialects::arith::{self, CmpIOp, NegFOp};
use strata_dialects::builders::build_graph_op;
use strata_dialects::func::{FuncOp, ReturnOp};
use strata_dialects::graph::{AddOp, CastOp, MatMulOp, ReluOp};
use strata_ir::float::FloatKind;
use strata_ir::ods::{InferError, TypedOp};
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::{Context, Location, ModuleOp, Type, TypeKind, Value};

fn setup() -> (Context, Location) {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let loc = ctx.unknown_loc();
    (ctx, loc)
}

fn tensor(ctx: &mut Context, shape: &[i64]) -> Type {
    let f32 = ctx.float_type(FloatKind::F32);
    ctx.tensor_type(shape.to_vec(), f32)
}

/// A function `@f` with arguments of `inputs` in a module; returns the
/// module, the function and its arguments.
fn function(ctx: &mut Context, loc: Location, inputs: &[Type]) -> (ModuleOp, FuncOp, Vec<Value>) {
    let module = ModuleOp::build(ctx, loc, None);
    let func = FuncOp::build_with_entry_block(ctx, loc, "f", inputs, &[]);
    assert!(module.push(ctx, func.op()));
    let args = func.arguments(ctx);
    (module, func, args)
}

#[test]
fn defining_and_dyn_cast_match_op_kinds() {
    let (mut ctx, loc) = setup();
    let f32 = ctx.float_type(FloatKind::F32);
    let (_, func, args) = function(&mut ctx, loc, &[f32]);
    let entry = func.entry_block(&ctx).expect("entry block");
    let neg = NegFOp::build(&mut ctx, loc, args[0], None);
    ctx.append_op(entry, neg.op());
    let value = ctx.result(neg.op(), 0);
    assert_eq!(value.defining::<NegFOp>(&ctx), Some(neg));
    assert_eq!(value.defining::<CmpIOp>(&ctx), None);
    // A block argument has no defining op.
    assert_eq!(args[0].defining::<NegFOp>(&ctx), None);
    assert!(neg.op().isa::<NegFOp>(&ctx));
    assert!(!neg.op().isa::<CmpIOp>(&ctx));
    assert_eq!(neg.op().dyn_cast::<NegFOp>(&ctx), Some(neg));
    assert_eq!(func.op().dyn_cast::<FuncOp>(&ctx), Some(func));
    assert_eq!(<NegFOp as TypedOp>::NAME, "arith.negf");
    assert_eq!(neg.operand(&ctx), args[0]);
}

#[test]
fn build_inferred_runs_the_infer_hook() {
    let (mut ctx, loc) = setup();
    let i32 = ctx.integer_type(32);
    let seven = ctx.integer_attr(i32, 7);
    let c = arith::ConstantOp::build_inferred(&mut ctx, loc, seven).expect("a typed value");
    let c = ctx.result(c.op(), 0);
    assert_eq!(ctx.value_type(c), i32);
    let slt = arith::CMPI_PREDICATE.attr(&mut ctx, 2).expect("slt");
    let cmp = CmpIOp::build_inferred(&mut ctx, loc, slt, c, c).expect("integers");
    let i1 = ctx.integer_type(1);
    assert_eq!(ctx.value_type(ctx.result(cmp.op(), 0)), i1);
    // The attribute is a property, as `build` makes it.
    assert_eq!(cmp.predicate_attr(&ctx), Some(slt));
    // No value: the hook says what is missing.
    let text = ctx.string_attr("x");
    let none = ctx.none_type();
    let s = arith::ConstantOp::build_inferred(&mut ctx, loc, text).expect("inferred as none");
    assert_eq!(ctx.value_type(ctx.result(s.op(), 0)), none);
}

#[test]
fn build_inferred_runs_graph_shape_functions() {
    let (mut ctx, loc) = setup();
    let a_ty = tensor(&mut ctx, &[2, 3]);
    let b_ty = tensor(&mut ctx, &[3, 4]);
    let bias_ty = tensor(&mut ctx, &[4]);
    let (module, func, args) = function(&mut ctx, loc, &[a_ty, b_ty, bias_ty]);
    let entry = func.entry_block(&ctx).expect("entry block");
    let mm = MatMulOp::build_inferred(&mut ctx, loc, args[0], args[1]).expect("matmul");
    ctx.append_op(entry, mm.op());
    let mm = ctx.result(mm.op(), 0);
    let add = AddOp::build_inferred(&mut ctx, loc, mm, args[2]).expect("broadcast");
    ctx.append_op(entry, add.op());
    let sum = ctx.result(add.op(), 0);
    let expected = tensor(&mut ctx, &[2, 4]);
    assert_eq!(ctx.value_type(mm), expected);
    assert_eq!(ctx.value_type(sum), expected);
    let ret = ReturnOp::build(&mut ctx, loc, &[]);
    ctx.append_op(entry, ret.op());
    strata_ir::verifier::verify(&ctx, module.op()).expect("verifies");
}

#[test]
fn inference_errors_are_typed_and_leave_nothing() {
    let (mut ctx, loc) = setup();
    let a_ty = tensor(&mut ctx, &[2, 3]);
    let b_ty = tensor(&mut ctx, &[5, 4]);
    let i32 = ctx.integer_type(32);
    let (_, _, args) = function(&mut ctx, loc, &[a_ty, b_ty, i32]);
    let error: InferError =
        MatMulOp::build_inferred(&mut ctx, loc, args[0], args[1]).expect_err("3 vs 5");
    assert_eq!(error.op, "graph.matmul");
    assert!(error.to_string().starts_with("'graph.matmul' op "));
    // The failed op is gone: its operands have no uses.
    assert!(ctx.use_empty(args[0]) && ctx.use_empty(args[1]));
    let error = ReluOp::build_inferred(&mut ctx, loc, args[2]).expect_err("not a tensor");
    assert_eq!(error.message, "operand #0 is not a tensor");
    assert!(ctx.use_empty(args[2]));
    // graph.cast's element type is its result type's: there is nothing to infer it from.
    let error =
        CastOp::build_inferred(&mut ctx, loc, args[0], None, None).expect_err("element type");
    assert!(error.message.contains("build the op with its result type"));
}

#[test]
fn build_graph_op_takes_names_properties_and_an_element_type() {
    let (mut ctx, loc) = setup();
    let a_ty = tensor(&mut ctx, &[2, 3]);
    let (_, _, args) = function(&mut ctx, loc, &[a_ty]);
    let i64 = ctx.integer_type(64);
    let cast = build_graph_op(&mut ctx, loc, "graph.cast", &args, &[], 1, Some(i64))
        .expect("a cast to i64");
    let expected = ctx.tensor_type(vec![2, 3], i64);
    assert_eq!(ctx.value_type(ctx.result(cast, 0)), expected);
    let error =
        build_graph_op(&mut ctx, loc, "graph.nope", &args, &[], 1, None).expect_err("unknown op");
    assert_eq!(error.to_string(), "'graph.nope' op is not a registered op");
    let relu = build_graph_op(&mut ctx, loc, ReluOp::NAME, &args, &[], 1, None).expect("relu");
    assert_eq!(ctx.value_type(ctx.result(relu, 0)), a_ty);
}

#[test]
fn modules_and_functions_print_as_mlir() {
    let (mut ctx, loc) = setup();
    let f32 = ctx.float_type(FloatKind::F32);
    let module = ModuleOp::build(&mut ctx, loc, Some("m"));
    let func = FuncOp::build_with_entry_block(&mut ctx, loc, "id", &[f32, f32], &[f32]);
    module.push(&mut ctx, func.op());
    let args = func.arguments(&ctx);
    assert_eq!(args.len(), 2);
    let ret = ReturnOp::build(&mut ctx, loc, &args[..1]);
    let entry = func.entry_block(&ctx).expect("entry");
    ctx.append_op(entry, ret.op());
    // Adding the entry block again gives the same block.
    assert_eq!(func.add_entry_block(&mut ctx), Some(entry));
    strata_ir::verifier::verify(&ctx, module.op()).expect("verifies");
    let text = print_operation(&ctx, module.op(), PrintOptions::default());
    assert_eq!(
        text,
        "module @m {\n  func.func @id(%arg0: f32, %arg1: f32) -> f32 {\n    return %arg0 : f32\n  }\n}\n"
    );
    assert!(matches!(
        ctx.type_kind(ctx.value_type(args[1])),
        TypeKind::Float(_)
    ));
}
