//! Every op definition of the core dialects is well formed: its assembly
//! format compiles, its summary is a sentence, its builder creates an op
//! that the verifier accepts.

use strata_ir::{Context, Location};

fn context() -> Context {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    ctx
}

#[test]
fn formats_compile() {
    let ctx = context();
    let mut checked = 0;
    for def in ctx.registry().ops() {
        let Some(spec) = def.spec else { continue };
        if let Some(result) = spec.compiled_format() {
            if let Err(e) = result {
                panic!("{}: {e}", spec.name);
            }
            checked += 1;
        }
        assert!(
            spec.summary.ends_with('.'),
            "{}: summary should be a sentence: {:?}",
            spec.name,
            spec.summary
        );
    }
    assert!(checked > 50, "only {checked} formats checked");
}

#[test]
fn builders_create_valid_ops() {
    use strata_dialects::arith::{AddIOp, CmpIOp, ConstantOp, CMPI_PREDICATE};
    let mut ctx = context();
    let loc: Location = ctx.unknown_loc();
    let i32_ty = ctx.integer_type(32);
    let i1 = ctx.integer_type(1);
    let seven = ctx.integer_attr(i32_ty, 7);
    let c = ConstantOp::build(&mut ctx, loc, seven, i32_ty);
    let x = c.result(&ctx);
    let add = AddIOp::build(&mut ctx, loc, x, x, None);
    // The default-valued overflow flags are set by the builder.
    let flags = add.overflow_flags(&ctx).expect("default flags");
    assert_eq!(
        strata_ir::printer::attribute_to_string(&ctx, flags),
        "#arith.overflow<none>"
    );
    let predicate = CMPI_PREDICATE.attr(&mut ctx, 2).expect("slt");
    let sum = add.result(&ctx);
    let cmp = CmpIOp::build(&mut ctx, loc, predicate, x, sum, i1);
    assert_eq!(cmp.lhs(&ctx), x);
    assert_eq!(AddIOp::from_op(&ctx, cmp.op()), None);

    // Put them in a module and verify.
    let module_src = "module {}";
    let buffer = strata_ir::SourceBuffer::new("m.mlir", module_src);
    let module = strata_ir::parser::parse_source(&mut ctx, &buffer).expect("module");
    let body = ctx
        .region_entry_block(ctx.op_regions(module)[0])
        .expect("body");
    for op in [c.op(), add.op(), cmp.op()] {
        ctx.append_op(body, op);
    }
    strata_ir::verifier::verify(&ctx, module).expect("valid");
    let text = strata_ir::printer::print_operation(&ctx, module, Default::default());
    assert_eq!(
        text,
        "module {\n  %c7_i32 = arith.constant 7 : i32\n  %0 = arith.addi %c7_i32, %c7_i32 : i32\n  %1 = arith.cmpi slt, %c7_i32, %0 : i32\n}\n"
    );
}

#[test]
fn scf_region_branch_interface() {
    use strata_ir::interfaces::{RegionBranch, RegionSuccessor};
    let mut ctx = context();
    let text = r#"
func.func @f(%c: i1, %n: index) {
  scf.if %c {
  }
  scf.for %i = %n to %n step %n {
  }
  return
}
"#;
    let buffer = strata_ir::SourceBuffer::new("f.mlir", text);
    let module = strata_ir::parser::parse_source(&mut ctx, &buffer).expect("parses");
    let func = ctx
        .block_first_op(
            ctx.region_entry_block(ctx.op_regions(module)[0])
                .expect("body"),
        )
        .expect("func");
    let body = ctx
        .region_entry_block(ctx.op_regions(func)[0])
        .expect("func body");
    let ops: Vec<_> = ctx.block_ops(body).collect();
    let branch = |ctx: &Context, op| ctx.op_interface::<RegionBranch>(op).copied();
    let if_op = branch(&ctx, ops[0]).expect("scf.if is a region branch");
    // No else region: entering goes to `then` or straight out.
    assert_eq!(
        (if_op.successors)(&ctx, ops[0], None, &[]),
        vec![RegionSuccessor::Region(0), RegionSuccessor::Parent]
    );
    // A known condition selects one: `then`, or straight out.
    let (yes, no) = (ctx.bool_attr(true), ctx.bool_attr(false));
    assert_eq!(
        (if_op.successors)(&ctx, ops[0], None, &[Some(yes)]),
        vec![RegionSuccessor::Region(0)]
    );
    assert_eq!(
        (if_op.successors)(&ctx, ops[0], None, &[Some(no)]),
        vec![RegionSuccessor::Parent]
    );
    let for_op = branch(&ctx, ops[1]).expect("scf.for is a region branch");
    assert_eq!(
        (for_op.successors)(&ctx, ops[1], Some(0), &[]),
        vec![RegionSuccessor::Region(0), RegionSuccessor::Parent]
    );
    assert!(branch(&ctx, ops[2]).is_none(), "func.return is not");
}

#[test]
fn malformed_ops_print_in_generic_form() {
    // Parsed without verification: custom printers must not see ops with
    // the wrong number of operands, results or regions.
    let mut ctx = context();
    let text = r#"
%0 = "arith.select"() : () -> i32
"scf.for"() : () -> ()
"func.func"() : () -> ()
%1 = "arith.addi"(%0) : (i32) -> i32
"scf.if"() ({}) : () -> ()
"scf.while"() : () -> ()
"#;
    let buffer = strata_ir::SourceBuffer::new("bad.mlir", text);
    let module = strata_ir::parser::parse_source(&mut ctx, &buffer).expect("parses");
    for debug_info in [false, true] {
        let options = strata_ir::printer::PrintOptions {
            debug_info,
            ..Default::default()
        };
        let printed = strata_ir::printer::print_operation(&ctx, module, options);
        assert!(
            printed.contains("%0 = \"arith.select\"() : () -> i32"),
            "{printed}"
        );
        assert!(printed.contains("\"scf.while\"() : () -> ()"), "{printed}");
    }
}
