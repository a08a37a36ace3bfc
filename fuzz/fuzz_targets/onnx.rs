//! ONNX import on arbitrary bytes: never panics; an imported module
//! verifies or reports diagnostics, prints, and reads back to the same text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_ir::{Context, SourceBuffer};

fuzz_target!(|data: &[u8]| {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let Ok(module) = strata_onnx::import_bytes(&mut ctx, data, "fuzz.onnx") else {
        return;
    };
    if strata_ir::verifier::verify(&ctx, module).is_err() {
        return;
    }
    let text = strata_ir::printer::print_operation(&ctx, module, Default::default());
    let mut again = Context::new();
    strata_dialects::register_all(&mut again);
    let buffer = SourceBuffer::new("printed.mlir", text.clone());
    let reparsed = match strata_ir::parser::parse_source(&mut again, &buffer) {
        Ok(m) => m,
        Err(_) => panic!("imported module does not parse back:\n{text}"),
    };
    let text2 = strata_ir::printer::print_operation(&again, reparsed, Default::default());
    assert_eq!(text, text2, "imported module does not print back the same");
});
