//! Snapshot tests of the printer on the shipped example, in each form.

use strata_ir::parser::parse_source;
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::{Context, SourceBuffer};

fn print_example(options: PrintOptions) -> String {
    let text = include_str!("../../examples/hello.mlir");
    let mut ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    let module =
        parse_source(&mut ctx, &SourceBuffer::new("hello.mlir", text)).expect("example parses");
    print_operation(&ctx, module, options)
}

#[test]
fn example_pretty() {
    insta::assert_snapshot!(print_example(PrintOptions::default()));
}

#[test]
fn example_generic_with_locations() {
    insta::assert_snapshot!(print_example(PrintOptions {
        generic: true,
        debug_info: true
    }));
}
