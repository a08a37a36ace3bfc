//! LLVM code generation.
use inkwell::context::Context;

/// Smoke: creates an LLVM context.
pub fn smoke() -> String {
    let c = Context::create();
    let m = c.create_module("m");
    m.print_to_string().to_string()
}
