//! The `arith` dialect: integer and floating-point arithmetic, comparisons,
//! selects and casts on scalars, vectors and tensors (MLIR's `arith`).
//!
//! As MLIR's `Dialect/Arith/`: the op declarations are in `ops`, their
//! verifiers in `verify`, their folders in `fold`, and the enum attributes
//! (predicates, fast-math and overflow flags, rounding modes) with the
//! dialect's attribute parser in `attrs`. The canonicalization patterns are
//! in `crate::arith_patterns`.

mod attrs;
mod extended;
mod fold;
mod ops;
mod verify;

pub(crate) use verify::verify_cmp_result;

pub use attrs::*;
pub use extended::*;
pub(crate) use fold::materialize_constant;
pub use ops::*;

use strata_ir::Context;

use attrs::parse_arith_attr;

/// Register the arith dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut()
        .register_attr_parser("arith", parse_arith_attr);
    ctx.registry_mut()
        .register_constant_materializer("arith", materialize_constant);
    strata_ir::ods::register_dialect_ops(ctx, "arith");
}
