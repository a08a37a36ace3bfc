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

use strata_ir::interfaces::{Speculatability, Speculation};
use strata_ir::{Context, Operation, Value};

use attrs::parse_arith_attr;

/// Register the arith dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut()
        .register_attr_parser("arith", parse_arith_attr);
    ctx.registry_mut()
        .register_constant_materializer("arith", materialize_constant);
    strata_ir::ods::register_dialect_ops(ctx, "arith");
    // Divisions may trap: they run speculatively only by a known divisor.
    for (name, speculatability) in [
        (DivUIOp::NAME, unsigned_division as SpeculatabilityFn),
        (CeilDivUIOp::NAME, unsigned_division),
        (DivSIOp::NAME, signed_division),
        (CeilDivSIOp::NAME, signed_division),
    ] {
        // The ops were registered just above, so the name is known.
        let _ = ctx
            .registry_mut()
            .attach_interface(name, Speculation { speculatability });
    }
}

type SpeculatabilityFn = fn(&Context, Operation) -> Speculatability;

/// The elements of the constant `value` (a constant-like op's `value`),
/// when it is one.
fn constant_elements(ctx: &Context, value: Value) -> Option<(Vec<u128>, u32)> {
    let attr = strata_ir::rewrite::constant_attr(ctx, value)?;
    let consts = crate::fold::consts(ctx, attr)?;
    let width = ctx.int_or_float_bit_width(consts.elem)?;
    Some((consts.values, width))
}

/// MLIR's `getDivUISpeculatability`: speculatable when the divisor is a
/// constant with no zero element.
fn unsigned_division(ctx: &Context, op: Operation) -> Speculatability {
    match constant_elements(ctx, ctx.operand(op, 1)) {
        Some((values, _)) if values.iter().all(|&v| v != 0) => Speculatability::Speculatable,
        _ => Speculatability::NotSpeculatable,
    }
}

/// MLIR's `getDivSISpeculatability`: speculatable when the divisor is a
/// constant with no zero and no -1 element (`INT_MIN / -1` overflows).
fn signed_division(ctx: &Context, op: Operation) -> Speculatability {
    match constant_elements(ctx, ctx.operand(op, 1)) {
        Some((values, width)) => {
            let all_ones = if width >= 128 {
                u128::MAX
            } else {
                (1u128 << width) - 1
            };
            if values.iter().all(|&v| v != 0 && v & all_ones != all_ones) {
                Speculatability::Speculatable
            } else {
                Speculatability::NotSpeculatable
            }
        }
        None => Speculatability::NotSpeculatable,
    }
}
