//! The integer ops of `math`: `absi`, `ctlz`, `cttz`, `ctpop` and
//! `ipowi`, folded on any width as MLIR's `APInt` folders do.

use strata_ir::dialect::FoldResult;
use strata_ir::ods::constraints::SignlessIntegerOrIndexLike;
use strata_ir::{op, Attribute, Context, Operation};

use crate::fold;

/// The mask of `width` bits.
fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Folds a unary integer op with `f(bits, width)`.
fn fold_int_unary(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
    f: fn(u128, u32) -> u128,
) -> Option<Vec<FoldResult>> {
    let input = fold::consts(ctx, consts.first().copied().flatten()?)?;
    ctx.is_int_or_index(input.elem).then_some(())?;
    let width = ctx.int_or_float_bit_width(input.elem)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = fold::map1(ctx, ty, &input, |bits| Some(f(bits, width) & mask(width)))?;
    Some(vec![FoldResult::Attr(attr)])
}

macro_rules! int_unary {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold_name:ident, $f:expr) => {
        fn $fold_name(
            ctx: &mut Context,
            op: Operation,
            consts: &[Option<Attribute>],
        ) -> Option<Vec<FoldResult>> {
            fold_int_unary(ctx, op, consts, $f)
        }

        #[doc = $summary]
        #[op($mnemonic,
                                             traits(Pure, SameOperandsAndResultType, Elementwise),
                                             format = "$operand attr-dict `:` type($result)",
                                             fold = $fold_name)]
        pub struct $name {
            operand: Operand<SignlessIntegerOrIndexLike>,
            result: Result<SignlessIntegerOrIndexLike>,
        }
    };
}

/// The bits of `x` (of `width`) as a signed number.
fn signed(x: u128, width: u32) -> i128 {
    let shift = 128 - width;
    ((x << shift) as i128) >> shift
}

int_unary!(
    AbsIOp,
    "math.absi",
    "Integer absolute value (the minimum wraps to itself).",
    fold_absi,
    |x, w| signed(x, w).wrapping_abs() as u128
);
int_unary!(
    CountLeadingZerosOp,
    "math.ctlz",
    "Number of leading zero bits (the width for 0).",
    fold_ctlz,
    |x, w| u128::from(x.leading_zeros() - (128 - w))
);
int_unary!(
    CountTrailingZerosOp,
    "math.cttz",
    "Number of trailing zero bits (the width for 0).",
    fold_cttz,
    |x, w| u128::from(x.trailing_zeros().min(w))
);
int_unary!(
    CtPopOp,
    "math.ctpop",
    "Number of set bits.",
    fold_ctpop,
    |x, _| u128::from(x.count_ones())
);

/// `base ** power` in the width, as MLIR folds it: a zero power is 1; a
/// negative one is 0 but for bases 1 and -1 (and not folded for base 0).
fn ipowi(base: u128, power: u128, width: u32) -> Option<u128> {
    let (b, p) = (signed(base, width), signed(power, width));
    let m = mask(width);
    if p == 0 {
        return Some(1);
    }
    if p < 0 {
        return match b {
            0 => None,
            1 => Some(1),
            -1 => Some(if p & 1 == 1 { m } else { 1 }),
            _ => Some(0),
        };
    }
    let (mut result, mut cur, mut rest) = (1u128, base & m, power & m);
    loop {
        if rest & 1 == 1 {
            result = result.wrapping_mul(cur) & m;
        }
        rest >>= 1;
        if rest == 0 {
            return Some(result);
        }
        cur = cur.wrapping_mul(cur) & m;
    }
}

fn fold_ipowi(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let a = fold::consts(ctx, consts.first().copied().flatten()?)?;
    let b = fold::consts(ctx, consts.get(1).copied().flatten()?)?;
    ctx.is_int_or_index(a.elem).then_some(())?;
    let width = ctx.int_or_float_bit_width(a.elem)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = fold::map2(ctx, ty, &a, &b, |x, y| ipowi(x, y, width))?;
    Some(vec![FoldResult::Attr(attr)])
}

/// A signed integer raised to a signed integer power.
#[op("math.ipowi",
     traits(Pure, SameOperandsAndResultType, Elementwise),
     format = "$lhs `,` $rhs attr-dict `:` type($result)",
     fold = fold_ipowi)]
pub struct IPowIOp {
    lhs: Operand<SignlessIntegerOrIndexLike>,
    rhs: Operand<SignlessIntegerOrIndexLike>,
    result: Result<SignlessIntegerOrIndexLike>,
}

#[cfg(test)]
mod tests {
    use super::ipowi;

    #[test]
    fn integer_powers_wrap_in_the_width() {
        assert_eq!(ipowi(3, 4, 32), Some(81));
        assert_eq!(ipowi(2, 8, 8), Some(0));
        // -1 (as i8 0xff) to an odd negative power is -1, even is 1.
        assert_eq!(ipowi(0xff, 0xfd, 8), Some(0xff));
        assert_eq!(ipowi(0xff, 0xfe, 8), Some(1));
        assert_eq!(ipowi(0, 0xff, 8), None);
        assert_eq!(ipowi(5, 0xff, 8), Some(0));
    }
}
