//! Fuzz the core dialects: custom (pretty) parsers, declarative formats,
//! verifiers, folders and canonicalization patterns. Any input must give
//! diagnostics, or a module that prints (pretty and generic) and reads back
//! to the same text, and that still verifies after canonicalization.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_ir::parser::parse_source;
use strata_ir::printer::{print_operation, PrintOptions};
use strata_ir::rewrite::{apply_patterns_greedily, GreedyConfig, RewritePatternSet};
use strata_ir::{verifier, Context, Operation, SourceBuffer};

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.set_allow_unregistered_dialects(true);
    strata_dialects::register_all(&mut ctx);
    ctx
}

fn parse(ctx: &mut Context, text: &str) -> Option<Operation> {
    let module = parse_source(ctx, &SourceBuffer::new("fuzz.mlir", text)).ok()?;
    verifier::verify(ctx, module).ok()?;
    Some(module)
}

fn print(text: &str, generic: bool) -> Option<String> {
    let mut ctx = context();
    let module = parse(&mut ctx, text)?;
    let options = PrintOptions {
        generic,
        ..Default::default()
    };
    Some(print_operation(&ctx, module, options))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for generic in [false, true] {
        if let Some(first) = print(text, generic) {
            let second = print(&first, generic).expect("printed IR must parse back");
            assert_eq!(first, second, "printing is not stable");
        }
    }
    let mut ctx = context();
    if let Some(module) = parse(&mut ctx, text) {
        let mut set = RewritePatternSet::new();
        for def in ctx.registry().ops() {
            if let Some(add) = def.canonicalize {
                add(&mut set);
            }
        }
        let patterns = set.freeze(&mut ctx);
        let _ = apply_patterns_greedily(&mut ctx, module, &patterns, &GreedyConfig::default());
        if let Err(errors) = verifier::verify(&ctx, module) {
            panic!("canonicalized IR does not verify: {}", errors[0].message);
        }
    }
});
