//! The declarative op definition on shapes the core dialects do not use:
//! several variadic groups (segment sizes), optional operands, successors,
//! unit-attribute anchors, `functional-type`, `operands`, custom summaries.

use strata_ir::ods::constraints::{AnyType, I64Attr, UnitAttr, I1};
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::{op, parser, verifier, Context, SourceBuffer};

/// Two groups of values and an optional one.
///
/// The segment sizes say where each group starts.
#[op(
    "demo.pack",
    traits(Pure),
    format = "` ` `[` $first `]` `,` `[` $second `]` (`extra` $extra^)? (`flag` $flag^)? attr-dict `:` functional-type(operands, results)"
)]
pub struct PackOp {
    first: Variadic<AnyType>,
    second: Variadic<AnyType>,
    extra: Optional<AnyType>,
    flag: OptionalAttr<UnitAttr>,
    result: Result<AnyType>,
}

/// A conditional branch with an integer weight.
#[op(
    "demo.cond_br",
    traits(Terminator),
    format = "$condition `,` $trueDest `,` $falseDest (`weight` $weight^)? attr-dict"
)]
pub struct CondBrOp {
    condition: Operand<I1>,
    weight: OptionalAttr<I64Attr>,
    trueDest: Successor,
    falseDest: Successor,
}

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    strata_dialects::register_all(&mut ctx);
    PackOp::register(&mut ctx);
    CondBrOp::register(&mut ctx);
    ctx
}

fn round_trip(text: &str, generic: bool) -> String {
    let mut ctx = context();
    let module = parser::parse_source(&mut ctx, &SourceBuffer::new("t.mlir", text))
        .unwrap_or_else(|e| panic!("parse: {}", e[0].message));
    if let Err(errors) = verifier::verify(&ctx, module) {
        panic!("verify: {}", errors[0].message);
    }
    let options = PrintOptions {
        generic,
        ..Default::default()
    };
    print_operation(&ctx, module, options)
}

const INPUT: &str = r#"func.func @f(%a: i32, %b: f32, %c: i1) {
  %0 = demo.pack [%a, %b], [%a] extra %c flag : (i32, f32, i32, i1) -> i64
  %1 = demo.pack [%a], [] : (i32) -> i64
  demo.cond_br %c, ^bb1, ^bb2 weight 3
^bb1:
  return
^bb2:
  return
}
"#;

#[test]
fn variadic_groups_round_trip() {
    let pretty = round_trip(INPUT, false);
    assert!(
        pretty.contains(
            "demo.pack [%arg0, %arg1], [%arg0] extra %arg2 flag : (i32, f32, i32, i1) -> i64"
        ),
        "{pretty}"
    );
    assert!(
        pretty.contains("demo.pack [%arg0], [] : (i32) -> i64"),
        "{pretty}"
    );
    assert!(
        pretty.contains("demo.cond_br %arg2, ^bb1, ^bb2 weight 3"),
        "{pretty}"
    );
    assert_eq!(round_trip(&pretty, false), pretty, "pretty form is stable");
    let generic = round_trip(INPUT, true);
    assert!(
        generic.contains("operandSegmentSizes = array<i32:"),
        "segment sizes are stored: {generic}"
    );
    assert!(generic.contains("weight = 3 : i64"), "{generic}");
    assert_eq!(
        round_trip(&generic, false),
        pretty,
        "generic and pretty agree"
    );
}

#[test]
fn segment_sizes_are_verified() {
    let text = r#"func.func @f(%a: i32) {
  %0 = "demo.pack"(%a, %a) <{operandSegmentSizes = array<i32: 1, 2, 0>}> : (i32, i32) -> i64
  return
}
"#;
    let mut ctx = context();
    let module =
        parser::parse_source(&mut ctx, &SourceBuffer::new("t.mlir", text)).expect("parses");
    let errors = verifier::verify(&ctx, module).expect_err("invalid");
    assert_eq!(
        errors[0].message,
        "'demo.pack' op operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'"
    );
}

#[test]
fn summary_is_the_first_paragraph() {
    assert_eq!(
        PackOp::spec().summary,
        "Two groups of values and an optional one."
    );
    assert_eq!(
        PackOp::spec().description,
        "The segment sizes say where each group starts."
    );
    assert_eq!(CondBrOp::spec().successors.len(), 2);
}

/// `!demo.handle` and `!demo.handle<N>`: a dialect type with a parse hook.
fn parse_demo_type(ctx: &mut Context, body: &str) -> Result<strata_ir::Type, Vec<(usize, String)>> {
    let canonical = match body.strip_prefix("handle") {
        Some("") => "handle".to_string(),
        Some(rest) => {
            let inner = rest
                .strip_prefix('<')
                .and_then(|r| r.strip_suffix('>'))
                .ok_or_else(|| vec![(6, "expected '<'".to_string())])?;
            let n: u32 = inner
                .trim()
                .parse()
                .map_err(|_| vec![(7, format!("expected an integer, got '{}'", inner.trim()))])?;
            format!("handle<{n}>")
        }
        None => return Err(vec![(0, format!("unknown demo type '{body}'"))]),
    };
    let dialect = ctx.ident("demo");
    Ok(ctx.intern_type(strata_ir::TypeKind::Opaque {
        dialect,
        data: canonical.into(),
        params: Vec::new(),
    }))
}

#[test]
fn dialect_type_hook() {
    let mut ctx = Context::new();
    ctx.registry_mut()
        .register_type_parser("demo", parse_demo_type);
    let ty = parser::parse_type(&mut ctx, "!demo.handle< 4 >").expect("parses");
    assert_eq!(
        strata_ir::printer::type_to_string(&ctx, ty),
        "!demo.handle<4>"
    );
    let error = parser::parse_type(&mut ctx, "!demo.handle<x>").expect_err("bad");
    assert_eq!(error.message, "expected an integer, got 'x'");
    let error = parser::parse_type(&mut ctx, "!demo.thing").expect_err("bad");
    assert_eq!(error.message, "unknown demo type 'thing'");
}
