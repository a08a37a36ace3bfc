//! Symbol tables: lookup of nested symbol references.

use strata_ir::parser::{parse_attribute, parse_source};
use strata_ir::symbol_table::SymbolTable;
use strata_ir::{Context, SourceBuffer};

#[test]
fn nested_symbol_references_resolve() {
    let text = r#"
module @outer {
  "foo.func"() <{sym_name = "f"}> : () -> ()
  module @inner {
    "foo.func"() {sym_name = "g"} : () -> ()
  }
}
"#;
    let mut ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    let module = parse_source(&mut ctx, &SourceBuffer::new("s.mlir", text)).expect("parses");
    let f = parse_attribute(&mut ctx, "@f").expect("symbol ref");
    let g = parse_attribute(&mut ctx, "@inner::@g").expect("nested ref");
    let missing = parse_attribute(&mut ctx, "@inner::@f").expect("nested ref");

    let found_f = SymbolTable::lookup_ref(&ctx, module, f).expect("@f resolves");
    assert_eq!(ctx.symbol_name(found_f), Some(&b"f"[..]));
    let found_g = SymbolTable::lookup_ref(&ctx, module, g).expect("@inner::@g resolves");
    assert_eq!(ctx.op_name_str(found_g), "foo.func");
    assert_eq!(ctx.symbol_name(found_g), Some(&b"g"[..]));
    assert!(SymbolTable::lookup_ref(&ctx, module, missing).is_none());
}

#[test]
fn clone_op_copies_regions_and_remaps_values() {
    use strata_ir::printer::{print_operation, PrintOptions};
    use strata_ir::IrMapping;
    let text = r#"
%x = "foo.def"() : () -> i32
"foo.region"(%x) ({
^bb0(%a: i32):
  %y = "foo.add"(%a, %x) : (i32, i32) -> i32
  "foo.br"(%y)[^bb1] : (i32) -> ()
^bb1:
  "foo.ret"() : () -> ()
}) : (i32) -> ()
"#;
    let mut ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    let module = parse_source(&mut ctx, &SourceBuffer::new("c.mlir", text)).expect("parses");
    let body = ctx
        .region_entry_block(ctx.op_regions(module)[0])
        .expect("a block");
    let ops: Vec<_> = ctx.block_ops(body).collect();
    let mut mapping = IrMapping::default();
    let clone = ctx.clone_op(ops[1], &mut mapping);
    ctx.append_op(body, clone);
    let printed = print_operation(
        &ctx,
        module,
        PrintOptions {
            generic: true,
            debug_info: false,
        },
    );
    // The copy uses the same outer value, its own block argument and block.
    assert_eq!(printed.matches("\"foo.add\"(%arg").count(), 2, "{printed}");
    assert_eq!(printed.matches("[^bb1]").count(), 2, "{printed}");
    strata_ir::verifier::verify(&ctx, module).expect("the copy verifies");
}
