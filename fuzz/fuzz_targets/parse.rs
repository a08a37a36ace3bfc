//! Fuzz the parser, verifier and printer: any input must give either a
//! module that prints and re-parses to the same text, or diagnostics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_ir::parser::parse_source;
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::{verifier, Context, SourceBuffer};

fn print(text: &str) -> Option<String> {
    let mut ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    let module = parse_source(&mut ctx, &SourceBuffer::new("fuzz.mlir", text)).ok()?;
    verifier::verify(&ctx, module).ok()?;
    Some(print_operation(&ctx, module, PrintOptions { generic: true, debug_info: true }))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(first) = print(text) {
        let second = print(&first).expect("printed IR must parse back");
        assert_eq!(first, second, "printing is not stable");
    }
});
