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
