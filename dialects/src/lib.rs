//! strata's MLIR-compatible core dialects: `func`, `arith`, `math` and `scf`.
//!
//! Each op is one `#[op]` declaration (see `strata_ir::ods`): operands,
//! results, attributes and regions with their constraints, traits, the
//! assembly format and hooks. Names, semantics, verifier messages and the
//! custom (pretty) forms are MLIR 22's, so that text round-trips between
//! `strata-opt` and `mlir-opt`.

pub mod arith;
mod arith_patterns;
pub mod builders;
pub mod cf;
pub mod docs;
pub mod fold;
pub mod func;
pub mod graph;
pub mod kernel;
pub mod math;
pub mod nvptx;
pub mod op_names;
pub mod scf;
pub mod tensor;
pub mod ub;
pub mod upstream_ops;
pub mod vector;

use strata_ir::Context;

/// Register every core dialect with `ctx`.
pub fn register_all(ctx: &mut Context) {
    func::register(ctx);
    cf::register(ctx);
    arith::register(ctx);
    math::register(ctx);
    scf::register(ctx);
    graph::register(ctx);
    tensor::register(ctx);
    kernel::register(ctx);
    nvptx::register(ctx);
    vector::register(ctx);
    ub::register(ctx);
}
