//! `graph.pow` canonicalization: a power by a small integer constant as
//! multiplications (MLIR's math algebraic simplification does the same
//! for `math.powf`).
//!
//! `pow(x, 2)` is `x * x` and `pow(x, 3)` is `(x * x) * x`: GPT-2's GELU
//! computes `x³` this way, and a call to the C library's `pow` per element
//! cost half of the model's time. `x * x` is the correctly rounded square,
//! as `pow` is; the cube rounds twice (within 1.5 ulp of `pow`'s). The
//! special values agree: NaN stays NaN, ±0 and ±∞ keep their signs.

use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{AttrKind, Operation, Value};

use super::emit::Emitter;
use super::shape::shape_of;

/// Canonicalization patterns of `graph.pow`.
pub(crate) fn pow_patterns(patterns: &mut RewritePatternSet) {
    patterns.add(FnPattern::new(
        "graph.pow",
        "PowByMultiplication",
        pow_by_multiplication,
    ));
}

/// The value of every element of `v`, a float `graph.constant` whose
/// elements are all equal.
fn splat_value(ctx: &strata_ir::Context, v: Value) -> Option<f64> {
    let op = ctx
        .defining_op(v)
        .filter(|&op| ctx.op_name_str(op) == "graph.constant")?;
    let attr = strata_ir::ods::inherent_attr(ctx, op, "value")?;
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(attr) else {
        return None;
    };
    let (_, elem) = shape_of(ctx, *ty)?;
    let width = match ctx.float_kind(elem)? {
        strata_ir::float::FloatKind::F32 => 4,
        strata_ir::float::FloatKind::F64 => 8,
        _ => return None,
    };
    let read = |c: &[u8]| -> Option<f64> {
        Some(match width {
            4 => f64::from(f32::from_le_bytes(c.try_into().ok()?)),
            _ => f64::from_le_bytes(c.try_into().ok()?),
        })
    };
    let mut chunks = data.raw.chunks(width);
    let first = read(chunks.next()?)?;
    // A splat stores one element; otherwise every element must equal it.
    for c in chunks {
        if read(c)?.to_bits() != first.to_bits() {
            return None;
        }
    }
    Some(first)
}

fn pow_by_multiplication(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let ctx = rewriter.ctx();
    let (x, e) = (ctx.operand(op, 0), ctx.operand(op, 1));
    // The result must be `x`'s own type: the exponent broadcasts into it.
    if ctx.value_type(x) != ctx.value_type(ctx.result(op, 0)) {
        return false;
    }
    let float =
        shape_of(ctx, ctx.value_type(x)).is_some_and(|(_, elem)| ctx.float_kind(elem).is_some());
    let power = match splat_value(ctx, e) {
        Some(p) if float && p == 2.0 => 2,
        Some(p) if float && p == 3.0 => 3,
        _ => return false,
    };
    let ctx = rewriter.ctx_mut();
    let mut em = Emitter::before(ctx, op);
    let Ok(square) = em.bin("graph.mul", x, x) else {
        return false;
    };
    let value = if power == 3 {
        match em.bin("graph.mul", square, x) {
            Ok(v) => v,
            Err(_) => return false,
        }
    } else {
        square
    };
    rewriter.replace_op(op, &[value]);
    true
}
