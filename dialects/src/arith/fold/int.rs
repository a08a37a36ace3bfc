//! Folders of the integer arithmetic, bitwise, shift and min/max ops.

use strata_ir::dialect::FoldResult;
use strata_ir::{Attribute, Context, Operation, Value};

use crate::arith::fold::{defined_by, int_binary_fold, lhs, operand_is, zero_like};
use crate::arith::ops::{AddIOp, AndIOp, SubIOp, XOrIOp};
use crate::fold::{self, const_int, IntConst};

pub(in crate::arith) fn fold_addi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        return Some(vec![lhs(ctx, op)]);
    }
    let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
    // (x - y) + y -> x; y + (x - y) -> x
    if let Some(sub) = defined_by(ctx, a, SubIOp::NAME) {
        if sub[1] == b {
            return Some(vec![FoldResult::Value(sub[0])]);
        }
    }
    if let Some(sub) = defined_by(ctx, b, SubIOp::NAME) {
        if sub[1] == a {
            return Some(vec![FoldResult::Value(sub[0])]);
        }
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value.wrapping_add(b.value)))
}

pub(in crate::arith) fn fold_subi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
    if a == b {
        return zero_like(ctx, op);
    }
    if operand_is(ctx, c, 1, 0) {
        return Some(vec![lhs(ctx, op)]);
    }
    // (x + y) - y -> x; (x + y) - x -> y
    if let Some(add) = defined_by(ctx, a, AddIOp::NAME) {
        if add[1] == b {
            return Some(vec![FoldResult::Value(add[0])]);
        }
        if add[0] == b {
            return Some(vec![FoldResult::Value(add[1])]);
        }
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value.wrapping_sub(b.value)))
}

pub(in crate::arith) fn fold_muli(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        // The constant operand itself, as MLIR's `return getRhs()`.
        return Some(vec![FoldResult::Value(ctx.operand(op, 1))]);
    }
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value.wrapping_mul(b.value)))
}

/// Signed division and remainders that are defined (no division by zero,
/// no `MIN / -1` overflow).
fn signed_div(a: &IntConst, b: &IntConst) -> Option<(i128, i128)> {
    let (x, y) = (a.signed(), b.signed());
    if y == 0 || (x == a.min_signed() && y == -1) {
        return None;
    }
    Some((x.checked_div(y)?, x.checked_rem(y)?))
}

pub(in crate::arith) fn fold_divsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    if let Some(v) = div_of_mul(ctx, op, 1) {
        return Some(vec![FoldResult::Value(v)]);
    }
    int_binary_fold(ctx, op, c, |a, b| signed_div(a, b).map(|(q, _)| q as u128))
}

pub(in crate::arith) fn fold_divui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    if let Some(v) = div_of_mul(ctx, op, 2) {
        return Some(vec![FoldResult::Value(v)]);
    }
    int_binary_fold(ctx, op, c, |a, b| a.value.checked_div(b.value))
}

/// `(a * b) / b` is `a` (and `(a * b) / a` is `b`) when the product has
/// the no-wrap flag `flag` of the division (`nsw` 1 for `divsi`, `nuw` 2
/// for `divui`): MLIR's `foldDivMul`.
fn div_of_mul(ctx: &Context, op: Operation, flag: u64) -> Option<Value> {
    let (lhs, rhs) = (ctx.operand(op, 0), ctx.operand(op, 1));
    let mul = ctx
        .defining_op(lhs)
        .filter(|&d| ctx.op_name_str(d) == crate::arith::MulIOp::NAME)?;
    let flags = strata_ir::ods::inherent_attr(ctx, mul, "overflowFlags")
        .and_then(|f| crate::arith::OVERFLOW.value(ctx, f))
        .unwrap_or(0);
    if flags & flag != flag {
        return None;
    }
    let (a, b) = (ctx.operand(mul, 0), ctx.operand(mul, 1));
    if a == rhs {
        Some(b)
    } else if b == rhs {
        Some(a)
    } else {
        None
    }
}

pub(in crate::arith) fn fold_ceildivsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        // MLIR computes through negations of the operands, and does not fold
        // when one overflows: a nonzero dividend with either side MIN.
        let min = a.min_signed();
        if a.signed() != 0 && (a.signed() == min || b.signed() == min) {
            return None;
        }
        let (q, r) = signed_div(a, b)?;
        let y = b.signed();
        Some(
            (if r != 0 && ((r > 0) == (y > 0)) {
                q + 1
            } else {
                q
            }) as u128,
        )
    })
}

/// As MLIR: `x ceildivui 1` is `x`; constants fold unless a divisor is 0.
pub(in crate::arith) fn fold_ceildivui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        let q = a.value.checked_div(b.value)?;
        Some(if a.value % b.value == 0 { q } else { q + 1 })
    })
}

pub(in crate::arith) fn fold_floordivsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        let (q, r) = signed_div(a, b)?;
        let y = b.signed();
        Some(
            (if r != 0 && ((r < 0) != (y < 0)) {
                q - 1
            } else {
                q
            }) as u128,
        )
    })
}

pub(in crate::arith) fn fold_remsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return zero_like(ctx, op);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        let y = b.signed();
        (y != 0).then(|| a.signed().checked_rem(y).unwrap_or(0) as u128)
    })
}

pub(in crate::arith) fn fold_remui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return zero_like(ctx, op);
    }
    int_binary_fold(ctx, op, c, |a, b| a.value.checked_rem(b.value))
}

/// Whether `value` is `xori(x, -1)` (a bitwise not of `x`).
fn is_not_of(ctx: &mut Context, value: Value, x: Value) -> bool {
    let Some(not) = defined_by(ctx, value, XOrIOp::NAME) else {
        return false;
    };
    if not[0] != x {
        return false;
    }
    strata_ir::rewrite::constant_value(ctx, not[1])
        .and_then(|a| fold::consts(ctx, a))
        .is_some_and(|k| {
            let width = ctx.int_or_float_bit_width(k.elem).unwrap_or(0);
            k.all(|v| IntConst { value: v, width }.is_all_ones())
        })
}

/// `op(a, op(a, b))` or `op(op(a, b), a)` (and the other orders): the inner
/// op, for idempotent `op` (andi, ori).
fn idempotent_inner(ctx: &Context, op: Operation, name: &str) -> Option<Value> {
    let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
    for (x, inner) in [(a, b), (b, a)] {
        if let Some(operands) = defined_by(ctx, inner, name) {
            if operands.contains(&x) {
                return Some(inner);
            }
        }
    }
    None
}

pub(in crate::arith) fn fold_andi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        // The constant operand itself, as MLIR's `return getRhs()`.
        return Some(vec![FoldResult::Value(ctx.operand(op, 1))]);
    }
    if operand_is(ctx, c, 1, -1) {
        return Some(vec![lhs(ctx, op)]);
    }
    // x & ~x -> 0, ~x & x -> 0
    let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
    if is_not_of(ctx, b, a) || is_not_of(ctx, a, b) {
        return zero_like(ctx, op);
    }
    // and(a, and(a, b)) -> and(a, b)
    if let Some(inner) = idempotent_inner(ctx, op, AndIOp::NAME) {
        return Some(vec![FoldResult::Value(inner)]);
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value & b.value)).or_else(|| idempotent(ctx, op))
}

/// The `Idempotent` trait's fold, `op(x, x) -> x`: tried after the op's own
/// folder, as MLIR does (so `andi(c, c)` of a constant folds to a new
/// constant, not to `c`).
fn idempotent(ctx: &Context, op: Operation) -> Option<Vec<FoldResult>> {
    (ctx.operand(op, 0) == ctx.operand(op, 1)).then(|| vec![lhs(ctx, op)])
}

pub(in crate::arith) fn fold_ori(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        return Some(vec![lhs(ctx, op)]);
    }
    // or(x, -1) -> -1, as the attribute (MLIR returns the folded operand).
    if operand_is(ctx, c, 1, -1) {
        return c[1].map(|a| vec![FoldResult::Attr(a)]);
    }
    // or(x, xor(x, -1)) -> the -1 of the xor; likewise or(xor(x, -1), x).
    let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
    for (x, not) in [(a, b), (b, a)] {
        if is_not_of(ctx, not, x) {
            if let Some(operands) = defined_by(ctx, not, XOrIOp::NAME) {
                return Some(vec![FoldResult::Value(operands[1])]);
            }
        }
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value | b.value)).or_else(|| idempotent(ctx, op))
}

pub(in crate::arith) fn fold_xori(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        return Some(vec![lhs(ctx, op)]);
    }
    let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
    if a == b {
        return zero_like(ctx, op);
    }
    // xor(xor(x, y), y) -> x, in all four arrangements.
    for (inner, other) in [(a, b), (b, a)] {
        if let Some(xor) = defined_by(ctx, inner, XOrIOp::NAME) {
            if xor[1] == other {
                return Some(vec![FoldResult::Value(xor[0])]);
            }
            if xor[0] == other {
                return Some(vec![FoldResult::Value(xor[1])]);
            }
        }
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value ^ b.value))
}

fn shift_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    f: fn(&IntConst, u32) -> u128,
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        (b.value < a.width as u128).then(|| f(a, b.value as u32))
    })
}

pub(in crate::arith) fn fold_shli(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    shift_fold(ctx, op, c, |a, s| a.value << s)
}

pub(in crate::arith) fn fold_shrui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    shift_fold(ctx, op, c, |a, s| a.value >> s)
}

pub(in crate::arith) fn fold_shrsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    shift_fold(ctx, op, c, |a, s| (a.signed() >> s) as u128)
}

/// Which extreme value of the rhs makes a min/max fold to a known result.
#[derive(Clone, Copy)]
enum Extreme {
    SignedMax,
    SignedMin,
    UnsignedMax,
    Zero,
}

impl Extreme {
    fn matches(self, k: &IntConst) -> bool {
        let signed_max = if k.width == 0 {
            0
        } else {
            (1u128 << (k.width - 1)) - 1
        };
        match self {
            Extreme::SignedMax => k.value == signed_max,
            Extreme::SignedMin => k.signed() == k.min_signed() && k.width > 0,
            Extreme::UnsignedMax => k.is_all_ones(),
            Extreme::Zero => k.value == 0,
        }
    }
}

/// `op(x, x) -> x`; `op(x, c)` with `c` the absorbing extreme -> `c`, with
/// the neutral extreme -> `x`; constant folding otherwise.
fn minmax_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    absorbing: Extreme,
    neutral: Extreme,
    f: fn(&IntConst, &IntConst) -> u128,
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    if let Some(rhs) = c.get(1).copied().flatten() {
        if let Some(k) = const_int(ctx, rhs) {
            if absorbing.matches(&k) {
                return Some(vec![FoldResult::Value(ctx.operand(op, 1))]);
            }
            if neutral.matches(&k) {
                return Some(vec![lhs(ctx, op)]);
            }
        }
    }
    int_binary_fold(ctx, op, c, |a, b| Some(f(a, b)))
}

pub(in crate::arith) fn fold_maxsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(
        ctx,
        op,
        c,
        Extreme::SignedMax,
        Extreme::SignedMin,
        |a, b| {
            if a.signed() >= b.signed() {
                a.value
            } else {
                b.value
            }
        },
    )
}

pub(in crate::arith) fn fold_maxui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(ctx, op, c, Extreme::UnsignedMax, Extreme::Zero, |a, b| {
        a.value.max(b.value)
    })
}

pub(in crate::arith) fn fold_minsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(
        ctx,
        op,
        c,
        Extreme::SignedMin,
        Extreme::SignedMax,
        |a, b| {
            if a.signed() <= b.signed() {
                a.value
            } else {
                b.value
            }
        },
    )
}

pub(in crate::arith) fn fold_minui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(ctx, op, c, Extreme::Zero, Extreme::UnsignedMax, |a, b| {
        a.value.min(b.value)
    })
}
