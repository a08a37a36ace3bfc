//! The arith ops of two results and the scaling casts: `addui_extended`
//! (the sum and its carry), `mulsi_extended` and `mului_extended` (the low
//! and high halves of the product), with MLIR 22's folders and patterns;
//! `scaling_extf` and `scaling_truncf` (OCP MX block-scaled casts).

use strata_ir::dialect::FoldResult;
use strata_ir::ods::constraints::{BoolLike, FloatLike, SignlessIntegerOrIndexLike};
use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{op, Attribute, Context, Diagnostic, Operation, OperationState, Type, Value};

use crate::arith::attrs::{FastMathAttr, RoundingModeAttr};
use crate::fold::{self, Consts};

/// Extended unsigned integer addition: the sum and whether it carried.
#[op("arith.addui_extended",
     traits(Pure, Commutative, Elementwise),
     all_types_match(lhs, rhs, sum),
     format = "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)",
     fold = fold_addui_extended,
     canonicalize = addui_extended_patterns,
     result_names = sum_overflow_names)]
pub struct AddUIExtendedOp {
    lhs: Operand<SignlessIntegerOrIndexLike>,
    rhs: Operand<SignlessIntegerOrIndexLike>,
    sum: Result<SignlessIntegerOrIndexLike>,
    overflow: Result<BoolLike>,
}

/// Extended signed integer multiplication: the low and high halves of the
/// double-width product.
#[op("arith.mulsi_extended",
     traits(Pure, Commutative, Elementwise),
     all_types_match(lhs, rhs, low, high),
     format = "$lhs `,` $rhs attr-dict `:` type($lhs)",
     fold = fold_mulsi_extended,
     canonicalize = mulsi_extended_patterns,
     result_names = low_high_names)]
pub struct MulSIExtendedOp {
    lhs: Operand<SignlessIntegerOrIndexLike>,
    rhs: Operand<SignlessIntegerOrIndexLike>,
    low: Result<SignlessIntegerOrIndexLike>,
    high: Result<SignlessIntegerOrIndexLike>,
}

/// Extended unsigned integer multiplication: the low and high halves of
/// the double-width product.
#[op("arith.mului_extended",
     traits(Pure, Commutative, Elementwise),
     all_types_match(lhs, rhs, low, high),
     format = "$lhs `,` $rhs attr-dict `:` type($lhs)",
     fold = fold_mului_extended,
     canonicalize = mului_extended_patterns,
     result_names = low_high_names)]
pub struct MulUIExtendedOp {
    lhs: Operand<SignlessIntegerOrIndexLike>,
    rhs: Operand<SignlessIntegerOrIndexLike>,
    low: Result<SignlessIntegerOrIndexLike>,
    high: Result<SignlessIntegerOrIndexLike>,
}

/// Upcasts `in` times `scale` (OCP MX: the scale is usually `f8E8M0FNU`).
#[op("arith.scaling_extf",
     traits(Pure, Elementwise),
     format = "$in `,` $scale (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `,` type($scale) `to` type($out)",
     verify = verify_scaling_extf)]
pub struct ScalingExtFOp {
    r#in: Operand<FloatLike>,
    scale: Operand<FloatLike>,
    fastmath: OptionalAttr<FastMathAttr>,
    out: Result<FloatLike>,
}

/// Downcasts `in` divided by `scale` (OCP MX).
#[op("arith.scaling_truncf",
     traits(Pure, Elementwise),
     format = "$in `,` $scale ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `,` type($scale) `to` type($out)",
     verify = verify_scaling_truncf)]
pub struct ScalingTruncFOp {
    r#in: Operand<FloatLike>,
    scale: Operand<FloatLike>,
    roundingmode: OptionalAttr<RoundingModeAttr>,
    fastmath: OptionalAttr<FastMathAttr>,
    out: Result<FloatLike>,
}

fn sum_overflow_names(ctx: &Context, op: Operation) -> Vec<(Value, String)> {
    ctx.results(op)
        .zip(["sum", "overflow"])
        .map(|(v, n)| (v, n.into()))
        .collect()
}

fn low_high_names(ctx: &Context, op: Operation) -> Vec<(Value, String)> {
    ctx.results(op)
        .zip(["low", "high"])
        .map(|(v, n)| (v, n.into()))
        .collect()
}

/// The element type, or the type itself.
fn element(ctx: &Context, ty: Type) -> Type {
    ctx.type_kind(ty).element_type().unwrap_or(ty)
}

/// The scaling casts: a float `in` to a wider (`extf`) or narrower
/// (`truncf`) float, as MLIR's cast compatibility says it.
fn verify_scaling(ctx: &Context, op: Operation, widen: bool) -> Result<(), Diagnostic> {
    let types: Vec<Type> = ctx.operands(op).map(|v| ctx.value_type(v)).collect();
    let out = ctx.value_type(ctx.result(op, 0));
    let width = |t: Type| ctx.int_or_float_bit_width(element(ctx, t)).unwrap_or(0);
    let (a, b) = (width(types[0]), width(out));
    if (widen && b > a) || (!widen && b < a) {
        return Ok(());
    }
    let name = |t: Type| strata_ir::printer::type_to_string(ctx, t);
    let operands: Vec<String> = types.iter().map(|&t| format!("'{}'", name(t))).collect();
    Err(Diagnostic::op_error(
        ctx,
        op,
        format!(
            "operand types {} and result type '{}' are cast incompatible",
            operands.join(", "),
            name(out)
        ),
    ))
}

fn verify_scaling_extf(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    verify_scaling(ctx, op, true)
}

fn verify_scaling_truncf(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    verify_scaling(ctx, op, false)
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Both operands' constants and their integer width (at most 64: the
/// double-width products are computed in 128 bits).
fn both(ctx: &Context, c: &[Option<Attribute>]) -> Option<(Consts, Consts, u32)> {
    let a = fold::consts(ctx, c.first().copied().flatten()?)?;
    let b = fold::consts(ctx, c.get(1).copied().flatten()?)?;
    ctx.is_int_or_index(a.elem).then_some(())?;
    let width = ctx.int_or_float_bit_width(a.elem).filter(|&w| w <= 64)?;
    Some((a, b, width))
}

/// Whether every element of the constant operand `i` is `value`.
fn operand_is(ctx: &Context, c: &[Option<Attribute>], i: usize, value: u128) -> bool {
    c.get(i)
        .copied()
        .flatten()
        .and_then(|a| fold::consts(ctx, a))
        .is_some_and(|k| k.all(|v| v == value))
}

fn zero_of(ctx: &mut Context, ty: Type) -> Option<Attribute> {
    fold::make_attr(ctx, ty, &[0])
}

/// As MLIR: `addui_extended(x, 0)` is `x` without carry; constants fold
/// (the carry is the sum being below an operand).
fn fold_addui_extended(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let overflow_ty = ctx.value_type(ctx.result(op, 1));
    if operand_is(ctx, c, 1, 0) {
        let lhs = ctx.operand(op, 0);
        let no = zero_of(ctx, overflow_ty)?;
        return Some(vec![FoldResult::Value(lhs), FoldResult::Attr(no)]);
    }
    let (a, b, width) = both(ctx, c)?;
    let sum_ty = ctx.value_type(ctx.result(op, 0));
    let m = mask(width);
    let sum = fold::map2(ctx, sum_ty, &a, &b, |x, y| Some((x + y) & m))?;
    let carry = fold::map2(ctx, overflow_ty, &a, &b, |x, y| {
        Some(u128::from(((x + y) & m) < x))
    })?;
    Some(vec![FoldResult::Attr(sum), FoldResult::Attr(carry)])
}

/// The bits of `x` of `width` as signed.
fn signed(x: u128, width: u32) -> i128 {
    let shift = 128 - width;
    ((x << shift) as i128) >> shift
}

/// As MLIR: a product with 0 is `(0, 0)`; constants fold.
fn fold_mulsi_extended(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        let zero = c.get(1).copied().flatten()?;
        return Some(vec![FoldResult::Attr(zero), FoldResult::Attr(zero)]);
    }
    let (a, b, width) = both(ctx, c)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let m = mask(width);
    let product = move |x: u128, y: u128| signed(x, width) * signed(y, width);
    let low = fold::map2(ctx, ty, &a, &b, |x, y| Some(product(x, y) as u128 & m))?;
    let high = fold::map2(ctx, ty, &a, &b, |x, y| {
        Some((product(x, y) >> width) as u128 & m)
    })?;
    Some(vec![FoldResult::Attr(low), FoldResult::Attr(high)])
}

/// As MLIR: a product with 0 is `(0, 0)`, with 1 is `(x, 0)`; constants
/// fold.
fn fold_mului_extended(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        let zero = c.get(1).copied().flatten()?;
        return Some(vec![FoldResult::Attr(zero), FoldResult::Attr(zero)]);
    }
    if operand_is(ctx, c, 1, 1) {
        let lhs = ctx.operand(op, 0);
        let ty = ctx.value_type(lhs);
        let zero = zero_of(ctx, ty)?;
        return Some(vec![FoldResult::Value(lhs), FoldResult::Attr(zero)]);
    }
    let (a, b, width) = both(ctx, c)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let m = mask(width);
    let low = fold::map2(ctx, ty, &a, &b, |x, y| Some((x * y) & m))?;
    let high = fold::map2(ctx, ty, &a, &b, |x, y| Some(((x * y) >> width) & m))?;
    Some(vec![FoldResult::Attr(low), FoldResult::Attr(high)])
}

/// A new op of `name` on `operands` with `ty` results, before `op`.
fn create(
    rewriter: &mut PatternRewriter<'_>,
    op: Operation,
    name: &str,
    operands: Vec<Value>,
    ty: Type,
    attributes: Vec<(&str, Attribute)>,
) -> Value {
    let loc = rewriter.ctx().op_loc(op);
    let ctx = rewriter.ctx_mut();
    let mut state = OperationState::new(ctx.ident(name), loc);
    state.operands = operands;
    state.result_types = vec![ty];
    state.attributes = attributes
        .into_iter()
        .map(|(k, v)| (ctx.ident(k), v))
        .collect();
    rewriter.set_insertion_point(op);
    let new = rewriter.create(state);
    rewriter.ctx().result(new, 0)
}

/// When the second result is unused, the op is the plain `name` op on the
/// same operands (MLIR's `AddUIExtendedToAddI`, `MulSIExtendedToMulI`,
/// `MulUIExtendedToMulI`).
fn to_plain(op: Operation, rewriter: &mut PatternRewriter<'_>, name: &str) -> bool {
    let ctx = rewriter.ctx();
    if !ctx.use_empty(ctx.result(op, 1)) {
        return false;
    }
    let operands: Vec<Value> = ctx.operands(op).collect();
    let ty = ctx.value_type(ctx.result(op, 0));
    let first = create(rewriter, op, name, operands, ty, vec![]);
    let second = rewriter.ctx().result(op, 1);
    rewriter.replace_op(op, &[first, second]);
    true
}

/// `mulsi_extended(x, 1)`: `x`, and for the high half the sign of `x`
/// spread over every bit, `extsi(cmpi slt, x, 0)` (MLIR's
/// `MulSIExtendedRHSOne`).
fn mulsi_rhs_one(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let rhs = rewriter.ctx().operand(op, 1);
    let Some(c) = strata_ir::rewrite::constant_value(rewriter.ctx_mut(), rhs) else {
        return false;
    };
    let ctx = rewriter.ctx();
    if !fold::consts(ctx, c).is_some_and(|k| k.splat && k.all(|v| v == 1)) {
        return false;
    }
    let x = ctx.operand(op, 0);
    let ty = ctx.value_type(x);
    let ctx = rewriter.ctx_mut();
    let Some(zero) = zero_of(ctx, ty) else {
        return false;
    };
    let i1 = ctx.integer_type(1);
    let bool_ty = match ctx.type_kind(ty).clone() {
        strata_ir::TypeKind::Vector {
            shape, scalable, ..
        } => ctx.intern_type(strata_ir::TypeKind::Vector {
            shape,
            scalable,
            element: i1,
        }),
        strata_ir::TypeKind::RankedTensor { shape, .. } => ctx.tensor_type(shape, i1),
        _ => i1,
    };
    let i64t = ctx.integer_type(64);
    let slt = ctx.integer_attr(i64t, 2);
    let zero = create(
        rewriter,
        op,
        "arith.constant",
        vec![],
        ty,
        vec![("value", zero)],
    );
    let negative = create(
        rewriter,
        op,
        "arith.cmpi",
        vec![x, zero],
        bool_ty,
        vec![("predicate", slt)],
    );
    let high = create(rewriter, op, "arith.extsi", vec![negative], ty, vec![]);
    rewriter.replace_op(op, &[x, high]);
    true
}

fn addui_extended_patterns(patterns: &mut RewritePatternSet) {
    patterns.add(FnPattern::new(
        "arith.addui_extended",
        "AddUIExtendedToAddI",
        |op, rewriter| to_plain(op, rewriter, "arith.addi"),
    ));
}

fn mulsi_extended_patterns(patterns: &mut RewritePatternSet) {
    // MLIR's benefit order: the pattern that matches two ops first.
    patterns.add(FnPattern::new(
        "arith.mulsi_extended",
        "MulSIExtendedRHSOne",
        mulsi_rhs_one,
    ));
    patterns.add(FnPattern::new(
        "arith.mulsi_extended",
        "MulSIExtendedToMulI",
        |op, rewriter| to_plain(op, rewriter, "arith.muli"),
    ));
}

fn mului_extended_patterns(patterns: &mut RewritePatternSet) {
    patterns.add(FnPattern::new(
        "arith.mului_extended",
        "MulUIExtendedToMulI",
        |op, rewriter| to_plain(op, rewriter, "arith.muli"),
    ));
}
