//! arith's canonicalization patterns (MLIR's `ArithCanonicalization.td`
//! and the C++ ones of `ArithOps.cpp`), under MLIR's pattern names so that
//! `canonicalize{disable-patterns=...}` works the same.
//!
//! Each pattern is a function from the matched root to a rewrite; new ops are
//! created right before the root, innermost first, as MLIR's DRR does, so
//! the canonicalized IR is the same op for op.

use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Attribute, Context, Location, Operation, OperationState, Type, Value};

use crate::arith::{
    AddIOp, AndIOp, CmpIOp, ConstantOp, DivFOp, ExtSIOp, ExtUIOp, IndexCastOp, IndexCastUIOp,
    MulFOp, MulIOp, NegFOp, OrIOp, SelectOp, SubIOp, TruncIOp, XOrIOp, CMPI_PREDICATE, OVERFLOW,
};
use crate::fold::{self, const_int};

fn add(
    set: &mut RewritePatternSet,
    root: &'static str,
    name: &'static str,
    rewrite: fn(Operation, &mut PatternRewriter<'_>) -> bool,
) {
    set.add(FnPattern::new(root, name, rewrite));
}

// ----- helpers -----

/// The op defining `value` when it is a `name` op.
fn def(ctx: &Context, value: Value, name: &str) -> Option<Operation> {
    ctx.defining_op(value)
        .filter(|&d| ctx.op_name_str(d) == name)
}

/// The constant attribute defining `value`, if any.
fn constant(rewriter: &mut PatternRewriter<'_>, value: Value) -> Option<Attribute> {
    strata_ir::rewrite::constant_value(rewriter.ctx_mut(), value)
}

/// Overflow flags as a bit set (0 when absent).
fn flags(ctx: &Context, op: Operation) -> u64 {
    strata_ir::ods::inherent_attr(ctx, op, "overflowFlags")
        .and_then(|f| OVERFLOW.value(ctx, f))
        .unwrap_or(0)
}

/// `f(a, b)` on two scalar integer constants, as an attribute of `ty`
/// (MLIR's reassociation patterns match `APIntAttr`s only: no vectors).
fn combine(
    ctx: &mut Context,
    ty: Type,
    a: Attribute,
    b: Attribute,
    f: fn(u128, u128) -> u128,
) -> Option<Attribute> {
    let scalar = |attr| matches!(ctx.attr_kind(attr), strata_ir::AttrKind::Integer { .. });
    if !scalar(a) || !scalar(b) {
        return None;
    }
    let a = fold::consts(ctx, a)?;
    let b = fold::consts(ctx, b)?;
    ctx.is_int_or_index(a.elem).then_some(())?;
    fold::map2(ctx, ty, &a, &b, |x, y| Some(f(x, y)))
}

/// Create an `arith.constant` before the root.
fn make_constant(
    rewriter: &mut PatternRewriter<'_>,
    loc: Location,
    value: Attribute,
    ty: Type,
) -> Value {
    let op = ConstantOp::build(rewriter.ctx_mut(), loc, value, ty).op();
    rewriter.insert(op);
    rewriter.ctx().result(op, 0)
}

/// Create a binary op `name(lhs, rhs)` of type `ty` before the root, with
/// overflow flags `flags` when the op has them.
fn make_binary(
    rewriter: &mut PatternRewriter<'_>,
    name: &str,
    loc: Location,
    lhs: Value,
    rhs: Value,
    ty: Type,
    overflow: Option<u64>,
) -> Value {
    let ctx = rewriter.ctx_mut();
    let ident = ctx.ident(name);
    let mut state = OperationState::new(ident, loc);
    state.operands = vec![lhs, rhs];
    state.result_types = vec![ty];
    if let Some(bits) = overflow {
        if let Some(attr) = OVERFLOW.attr(ctx, bits) {
            let key = ctx.ident("overflowFlags");
            state.properties = Some(ctx.dictionary_attr(vec![(key, attr)]));
        }
    }
    let op = rewriter.create(state);
    rewriter.ctx().result(op, 0)
}

/// Create a unary op `name(input)` of type `ty` before the root.
fn make_unary(
    rewriter: &mut PatternRewriter<'_>,
    name: &str,
    loc: Location,
    input: Value,
    ty: Type,
) -> Value {
    let ctx = rewriter.ctx_mut();
    let ident = ctx.ident(name);
    let mut state = OperationState::new(ident, loc);
    state.operands = vec![input];
    state.result_types = vec![ty];
    if let Some(spec) = ctx.registry().op(name).and_then(|d| d.spec) {
        strata_ir::ods::fill_default_properties(ctx, spec, &mut state);
    }
    let op = rewriter.create(state);
    rewriter.ctx().result(op, 0)
}

fn info(op: Operation, rewriter: &PatternRewriter<'_>) -> (Location, Type, Value, Value) {
    let ctx = rewriter.ctx();
    (
        ctx.op_loc(op),
        ctx.value_type(ctx.result(op, 0)),
        ctx.operand(op, 0),
        ctx.operand(op, 1),
    )
}

fn replace(op: Operation, rewriter: &mut PatternRewriter<'_>, value: Value) -> bool {
    rewriter.replace_op(op, &[value]);
    true
}

// ----- addi / subi / muli with constants -----

/// `op(inner(x, c0), c1)` with both constants: the matched pieces.
fn inner_with_constant(
    op: Operation,
    rewriter: &mut PatternRewriter<'_>,
    inner_name: &str,
    constant_on_left: bool,
) -> Option<(Operation, Value, Attribute, Attribute)> {
    let (_, _, lhs, rhs) = info(op, rewriter);
    let inner = def(rewriter.ctx(), lhs, inner_name)?;
    let c1 = constant(rewriter, rhs)?;
    let ctx = rewriter.ctx();
    let (x, c0_value) = if constant_on_left {
        (ctx.operand(inner, 1), ctx.operand(inner, 0))
    } else {
        (ctx.operand(inner, 0), ctx.operand(inner, 1))
    };
    let c0 = constant(rewriter, c0_value)?;
    Some((inner, x, c0, c1))
}

/// `op(c1, inner(...))`: the inner op and the constant on the left.
fn constant_then_inner(
    op: Operation,
    rewriter: &mut PatternRewriter<'_>,
    inner_name: &str,
) -> Option<(Operation, Attribute)> {
    let (_, _, lhs, rhs) = info(op, rewriter);
    let inner = def(rewriter.ctx(), rhs, inner_name)?;
    let c1 = constant(rewriter, lhs)?;
    Some((inner, c1))
}

/// Rewrite to `result_op(x, const(f(c_a, c_b)))` (or with the constant on
/// the left), with the two ops' overflow flags merged.
#[allow(clippy::too_many_arguments)]
fn rebuild(
    op: Operation,
    rewriter: &mut PatternRewriter<'_>,
    inner: Operation,
    result_op: &str,
    x: Value,
    folded: Option<Attribute>,
    constant_on_left: bool,
    overflow: Option<u64>,
) -> bool {
    let Some(folded) = folded else {
        return false;
    };
    let (loc, ty, _, _) = info(op, rewriter);
    let overflow = overflow.or_else(|| {
        let ctx = rewriter.ctx();
        Some(flags(ctx, op) & flags(ctx, inner))
    });
    let c = make_constant(rewriter, loc, folded, ty);
    let (lhs, rhs) = if constant_on_left { (c, x) } else { (x, c) };
    let value = make_binary(rewriter, result_op, loc, lhs, rhs, ty, overflow);
    replace(op, rewriter, value)
}

fn add_i_add_constant(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((inner, x, c0, c1)) = inner_with_constant(op, rewriter, AddIOp::NAME, false) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c0, c1, u128::wrapping_add);
    rebuild(op, rewriter, inner, AddIOp::NAME, x, folded, false, None)
}

fn add_i_sub_constant_rhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // addi(subi(x, c0), c1) -> addi(x, c1 - c0)
    let Some((inner, x, c0, c1)) = inner_with_constant(op, rewriter, SubIOp::NAME, false) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c1, c0, u128::wrapping_sub);
    rebuild(op, rewriter, inner, AddIOp::NAME, x, folded, false, None)
}

fn add_i_sub_constant_lhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // addi(subi(c0, x), c1) -> subi(c0 + c1, x)
    let Some((inner, x, c0, c1)) = inner_with_constant(op, rewriter, SubIOp::NAME, true) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c0, c1, u128::wrapping_add);
    rebuild(op, rewriter, inner, SubIOp::NAME, x, folded, true, None)
}

fn sub_i_rhs_add_constant(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // subi(addi(x, c0), c1) -> addi(x, c0 - c1); MLIR drops the flags here.
    let Some((inner, x, c0, c1)) = inner_with_constant(op, rewriter, AddIOp::NAME, false) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c0, c1, u128::wrapping_sub);
    rebuild(op, rewriter, inner, AddIOp::NAME, x, folded, false, Some(0))
}

fn sub_i_rhs_sub_constant_rhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // subi(subi(x, c0), c1) -> subi(x, c0 + c1)
    let Some((inner, x, c0, c1)) = inner_with_constant(op, rewriter, SubIOp::NAME, false) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c0, c1, u128::wrapping_add);
    rebuild(op, rewriter, inner, SubIOp::NAME, x, folded, false, None)
}

fn sub_i_rhs_sub_constant_lhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // subi(subi(c0, x), c1) -> subi(c0 - c1, x)
    let Some((inner, x, c0, c1)) = inner_with_constant(op, rewriter, SubIOp::NAME, true) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c0, c1, u128::wrapping_sub);
    rebuild(op, rewriter, inner, SubIOp::NAME, x, folded, true, None)
}

fn sub_i_lhs_add_constant(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // subi(c1, addi(x, c0)) -> subi(c1 - c0, x)
    let Some((inner, c1)) = constant_then_inner(op, rewriter, AddIOp::NAME) else {
        return false;
    };
    let (x, c0_value) = (
        rewriter.ctx().operand(inner, 0),
        rewriter.ctx().operand(inner, 1),
    );
    let Some(c0) = constant(rewriter, c0_value) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c1, c0, u128::wrapping_sub);
    rebuild(op, rewriter, inner, SubIOp::NAME, x, folded, true, None)
}

fn sub_i_lhs_sub_constant_rhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // subi(c1, subi(x, c0)) -> subi(c0 + c1, x)
    let Some((inner, c1)) = constant_then_inner(op, rewriter, SubIOp::NAME) else {
        return false;
    };
    let (x, c0_value) = (
        rewriter.ctx().operand(inner, 0),
        rewriter.ctx().operand(inner, 1),
    );
    let Some(c0) = constant(rewriter, c0_value) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c0, c1, u128::wrapping_add);
    rebuild(op, rewriter, inner, SubIOp::NAME, x, folded, true, None)
}

fn sub_i_lhs_sub_constant_lhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // subi(c1, subi(c0, x)) -> addi(x, c1 - c0)
    let Some((inner, c1)) = constant_then_inner(op, rewriter, SubIOp::NAME) else {
        return false;
    };
    let (c0_value, x) = (
        rewriter.ctx().operand(inner, 0),
        rewriter.ctx().operand(inner, 1),
    );
    let Some(c0) = constant(rewriter, c0_value) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c1, c0, u128::wrapping_sub);
    rebuild(op, rewriter, inner, AddIOp::NAME, x, folded, false, None)
}

fn mul_i_mul_i_constant(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    let Some((inner, x, c0, c1)) = inner_with_constant(op, rewriter, MulIOp::NAME, false) else {
        return false;
    };
    let ty = info(op, rewriter).1;
    let folded = combine(rewriter.ctx_mut(), ty, c0, c1, u128::wrapping_mul);
    rebuild(op, rewriter, inner, MulIOp::NAME, x, folded, false, None)
}

/// Whether `value` is `muli(y, -1)`; returns `y`.
fn times_minus_one(rewriter: &mut PatternRewriter<'_>, value: Value) -> Option<Value> {
    let mul = def(rewriter.ctx(), value, MulIOp::NAME)?;
    let (y, c) = (
        rewriter.ctx().operand(mul, 0),
        rewriter.ctx().operand(mul, 1),
    );
    let c = constant(rewriter, c)?;
    let ctx = rewriter.ctx();
    let all_ones = fold::consts(ctx, c).and_then(|k| {
        let width = ctx.int_or_float_bit_width(k.elem)?;
        Some(k.all(|v| fold::IntConst { value: v, width }.is_all_ones()))
    });
    all_ones.unwrap_or(false).then_some(y)
}

fn add_i_mul_negative_one_rhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // addi(x, muli(y, -1)) -> subi(x, y)
    let (loc, ty, x, rhs) = info(op, rewriter);
    let Some(y) = times_minus_one(rewriter, rhs) else {
        return false;
    };
    let value = make_binary(rewriter, SubIOp::NAME, loc, x, y, ty, Some(0));
    replace(op, rewriter, value)
}

fn add_i_mul_negative_one_lhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // addi(muli(x, -1), y) -> subi(y, x)
    let (loc, ty, lhs, y) = info(op, rewriter);
    let Some(x) = times_minus_one(rewriter, lhs) else {
        return false;
    };
    let value = make_binary(rewriter, SubIOp::NAME, loc, y, x, ty, Some(0));
    replace(op, rewriter, value)
}

fn sub_i_sub_i_lhs_rhs_lhs(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // subi(subi(a, b), a) -> subi(0, b)
    let (loc, ty, lhs, rhs) = info(op, rewriter);
    let Some(inner) = def(rewriter.ctx(), lhs, SubIOp::NAME) else {
        return false;
    };
    let (a, b) = (
        rewriter.ctx().operand(inner, 0),
        rewriter.ctx().operand(inner, 1),
    );
    if a != rhs {
        return false;
    }
    let Some(zero) = fold::make_attr(rewriter.ctx_mut(), ty, &[0]) else {
        return false;
    };
    let z = make_constant(rewriter, loc, zero, ty);
    let value = make_binary(rewriter, SubIOp::NAME, loc, z, b, ty, Some(0));
    replace(op, rewriter, value)
}

// ----- xori / cmpi -----

/// The predicate with the opposite result (MLIR's `invertPredicate`).
fn invert_cmpi(predicate: u64) -> Option<u64> {
    Some(match predicate {
        0 => 1,
        1 => 0,
        2 => 5,
        3 => 4,
        4 => 3,
        5 => 2,
        6 => 9,
        7 => 8,
        8 => 7,
        9 => 6,
        _ => return None,
    })
}

fn xor_i_not_cmp_i(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // xori(cmpi(p, a, b), true) -> cmpi(!p, a, b)
    let (loc, ty, lhs, rhs) = info(op, rewriter);
    let Some(cmp) = def(rewriter.ctx(), lhs, CmpIOp::NAME) else {
        return false;
    };
    let Some(c) = constant(rewriter, rhs) else {
        return false;
    };
    let ctx = rewriter.ctx();
    if !strata_ir::ods::constraints::is_i1(ctx, ty) || const_int(ctx, c).map(|k| k.value) != Some(1)
    {
        return false;
    }
    let Some(inverted) = CmpIOp(cmp)
        .predicate(ctx)
        .and_then(|p| CMPI_PREDICATE.value(ctx, p))
        .and_then(invert_cmpi)
    else {
        return false;
    };
    let (a, b) = (ctx.operand(cmp, 0), ctx.operand(cmp, 1));
    let Some(predicate) = CMPI_PREDICATE.attr(rewriter.ctx_mut(), inverted) else {
        return false;
    };
    let new = CmpIOp::build(rewriter.ctx_mut(), loc, predicate, a, b, ty).op();
    rewriter.insert(new);
    let value = rewriter.ctx().result(new, 0);
    replace(op, rewriter, value)
}

fn cmp_i_ext(op: Operation, rewriter: &mut PatternRewriter<'_>, ext: &str) -> bool {
    // cmpi(eq|ne, ext(a), ext(b)) -> cmpi(eq|ne, a, b) when a and b have one type
    let (loc, ty, lhs, rhs) = info(op, rewriter);
    let ctx = rewriter.ctx();
    let Some(predicate) = CmpIOp(op).predicate(ctx) else {
        return false;
    };
    if !matches!(CMPI_PREDICATE.value(ctx, predicate), Some(0 | 1)) {
        return false;
    }
    let (Some(x), Some(y)) = (def(ctx, lhs, ext), def(ctx, rhs, ext)) else {
        return false;
    };
    let (a, b) = (ctx.operand(x, 0), ctx.operand(y, 0));
    if ctx.value_type(a) != ctx.value_type(b) {
        return false;
    }
    let new = CmpIOp::build(rewriter.ctx_mut(), loc, predicate, a, b, ty).op();
    rewriter.insert(new);
    let value = rewriter.ctx().result(new, 0);
    replace(op, rewriter, value)
}

fn cmp_i_ext_si(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    cmp_i_ext(op, rewriter, ExtSIOp::NAME)
}

fn cmp_i_ext_ui(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    cmp_i_ext(op, rewriter, ExtUIOp::NAME)
}

// ----- select -----

fn select_i1_to_not(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // select(c, false, true) on i1 -> xori(c, true)
    let ctx = rewriter.ctx();
    let ty = ctx.value_type(ctx.result(op, 0));
    if !strata_ir::ods::constraints::is_i1(ctx, ty) {
        return false;
    }
    let (cond, t, f, loc) = (
        ctx.operand(op, 0),
        ctx.operand(op, 1),
        ctx.operand(op, 2),
        ctx.op_loc(op),
    );
    let (Some(t), Some(f)) = (constant(rewriter, t), constant(rewriter, f)) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let bit = |a: Attribute| const_int(ctx, a).map(|c| c.value);
    if !(bit(t) == Some(0) && bit(f) == Some(1)) {
        return false;
    }
    let one = rewriter.ctx_mut().bool_attr(true);
    let c = make_constant(rewriter, loc, one, ty);
    let value = make_binary(rewriter, XOrIOp::NAME, loc, cond, c, ty, None);
    replace(op, rewriter, value)
}

fn select_to_ext_ui(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // select(c, 1, 0) -> extui(c); select(c, 0, 1) -> extui(xori(c, true))
    // for an i1 condition and integer results.
    let ctx = rewriter.ctx();
    let (cond, t, f, loc) = (
        ctx.operand(op, 0),
        ctx.operand(op, 1),
        ctx.operand(op, 2),
        ctx.op_loc(op),
    );
    let ty = ctx.value_type(ctx.result(op, 0));
    let cond_ty = ctx.value_type(cond);
    if !strata_ir::ods::constraints::is_i1(ctx, cond_ty)
        || !strata_ir::ods::constraints::is_signless_int(ctx, ty)
        || strata_ir::ods::constraints::is_i1(ctx, ty)
    {
        return false;
    }
    let (Some(t), Some(f)) = (constant(rewriter, t), constant(rewriter, f)) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let value = |a: Attribute| const_int(ctx, a).map(|c| c.value);
    let negate = match (value(t), value(f)) {
        (Some(1), Some(0)) => false,
        (Some(0), Some(1)) => true,
        _ => return false,
    };
    let input = if negate {
        let one = rewriter.ctx_mut().bool_attr(true);
        let c = make_constant(rewriter, loc, one, cond_ty);
        make_binary(rewriter, XOrIOp::NAME, loc, cond, c, cond_ty, None)
    } else {
        cond
    };
    let value = make_unary(rewriter, ExtUIOp::NAME, loc, input, ty);
    replace(op, rewriter, value)
}

fn select_not_cond(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // select(xori(c, true), a, b) -> select(c, b, a)
    let ctx = rewriter.ctx();
    let (cond, a, b, loc) = (
        ctx.operand(op, 0),
        ctx.operand(op, 1),
        ctx.operand(op, 2),
        ctx.op_loc(op),
    );
    let ty = ctx.value_type(ctx.result(op, 0));
    let Some(not) = def(ctx, cond, XOrIOp::NAME) else {
        return false;
    };
    let (c, one) = (ctx.operand(not, 0), ctx.operand(not, 1));
    let Some(one) = constant(rewriter, one) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let is_true = fold::consts(ctx, one).is_some_and(|k| k.all(|v| v == 1));
    if !is_true || !strata_ir::ods::constraints::is_i1(ctx, ctx.value_type(c)) {
        return false;
    }
    let new = SelectOp::build(rewriter.ctx_mut(), loc, c, b, a, ty).op();
    rewriter.insert(new);
    let value = rewriter.ctx().result(new, 0);
    replace(op, rewriter, value)
}

fn redundant_select(op: Operation, rewriter: &mut PatternRewriter<'_>, true_side: bool) -> bool {
    // select(p, select(p, a, b), c) -> select(p, a, c)
    // select(p, a, select(p, b, c)) -> select(p, a, c)
    let ctx = rewriter.ctx();
    let (p, a, b, loc) = (
        ctx.operand(op, 0),
        ctx.operand(op, 1),
        ctx.operand(op, 2),
        ctx.op_loc(op),
    );
    let ty = ctx.value_type(ctx.result(op, 0));
    let nested = if true_side { a } else { b };
    let Some(inner) = def(ctx, nested, SelectOp::NAME) else {
        return false;
    };
    if ctx.operand(inner, 0) != p {
        return false;
    }
    let (t, f) = if true_side {
        (ctx.operand(inner, 1), b)
    } else {
        (a, ctx.operand(inner, 2))
    };
    let new = SelectOp::build(rewriter.ctx_mut(), loc, p, t, f, ty).op();
    rewriter.insert(new);
    let value = rewriter.ctx().result(new, 0);
    replace(op, rewriter, value)
}

fn redundant_select_true(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    redundant_select(op, rewriter, true)
}

fn redundant_select_false(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    redundant_select(op, rewriter, false)
}

// ----- casts -----

fn ext_si_of_ext_ui(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // extsi(extui(x)) -> extui(x)
    let ctx = rewriter.ctx();
    let (input, loc) = (ctx.operand(op, 0), ctx.op_loc(op));
    let ty = ctx.value_type(ctx.result(op, 0));
    let Some(inner) = def(ctx, input, ExtUIOp::NAME) else {
        return false;
    };
    let x = ctx.operand(inner, 0);
    let value = make_unary(rewriter, ExtUIOp::NAME, loc, x, ty);
    replace(op, rewriter, value)
}

fn cast_of_ext(op: Operation, rewriter: &mut PatternRewriter<'_>, ext: &str, cast: &str) -> bool {
    // index_cast(extsi(x)) -> index_cast(x); index_castui(extui(x)) -> index_castui(x)
    let ctx = rewriter.ctx();
    let (input, loc) = (ctx.operand(op, 0), ctx.op_loc(op));
    let ty = ctx.value_type(ctx.result(op, 0));
    let Some(inner) = def(ctx, input, ext) else {
        return false;
    };
    let x = ctx.operand(inner, 0);
    let value = make_unary(rewriter, cast, loc, x, ty);
    replace(op, rewriter, value)
}

fn index_cast_of_ext_si(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    cast_of_ext(op, rewriter, ExtSIOp::NAME, IndexCastOp::NAME)
}

fn index_cast_ui_of_ext_ui(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    cast_of_ext(op, rewriter, ExtUIOp::NAME, IndexCastUIOp::NAME)
}

fn trunc_i_ext_to_ext(op: Operation, rewriter: &mut PatternRewriter<'_>, ext: &str) -> bool {
    // trunci(ext(x)) -> ext(x) when x is narrower than the result
    let ctx = rewriter.ctx();
    let (input, loc) = (ctx.operand(op, 0), ctx.op_loc(op));
    let ty = ctx.value_type(ctx.result(op, 0));
    let Some(inner) = def(ctx, input, ext) else {
        return false;
    };
    let x = ctx.operand(inner, 0);
    let width = |t: Type| {
        let e = strata_ir::ods::constraints::element_type_or_self(ctx, t);
        ctx.int_or_float_bit_width(e).unwrap_or(0)
    };
    if width(ctx.value_type(x)) >= width(ty) {
        return false;
    }
    let value = make_unary(rewriter, ext, loc, x, ty);
    replace(op, rewriter, value)
}

fn trunc_i_ext_si_to_ext_si(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    trunc_i_ext_to_ext(op, rewriter, ExtSIOp::NAME)
}

fn trunc_i_ext_ui_to_ext_ui(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    trunc_i_ext_to_ext(op, rewriter, ExtUIOp::NAME)
}

fn logic_of_ext(op: Operation, rewriter: &mut PatternRewriter<'_>, ext: &str) -> bool {
    // andi/ori(ext(x), ext(y)) -> ext(andi/ori(x, y)) when x and y have one type
    let (loc, ty, lhs, rhs) = info(op, rewriter);
    let ctx = rewriter.ctx();
    let (Some(a), Some(b)) = (def(ctx, lhs, ext), def(ctx, rhs, ext)) else {
        return false;
    };
    let (x, y) = (ctx.operand(a, 0), ctx.operand(b, 0));
    let narrow = ctx.value_type(x);
    if narrow != ctx.value_type(y) {
        return false;
    }
    let name = ctx.op_name_str(op).to_string();
    let inner = make_binary(rewriter, &name, loc, x, y, narrow, None);
    let value = make_unary(rewriter, ext, loc, inner, ty);
    replace(op, rewriter, value)
}

fn and_of_ext_ui(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    logic_of_ext(op, rewriter, ExtUIOp::NAME)
}

fn and_of_ext_si(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    logic_of_ext(op, rewriter, ExtSIOp::NAME)
}

// ----- floats -----

fn of_neg_f(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    // mulf/divf(negf(a), negf(b)) -> mulf/divf(a, b), keeping the fast-math flags
    let (loc, ty, lhs, rhs) = info(op, rewriter);
    let ctx = rewriter.ctx();
    let (Some(a), Some(b)) = (def(ctx, lhs, NegFOp::NAME), def(ctx, rhs, NegFOp::NAME)) else {
        return false;
    };
    let (x, y) = (ctx.operand(a, 0), ctx.operand(b, 0));
    let name = ctx.op_name_str(op).to_string();
    let fastmath = strata_ir::ods::inherent_attr(ctx, op, "fastmath");
    let ctx = rewriter.ctx_mut();
    let ident = ctx.ident(&name);
    let mut state = OperationState::new(ident, loc);
    state.operands = vec![x, y];
    state.result_types = vec![ty];
    if let Some(fastmath) = fastmath {
        let key = ctx.ident("fastmath");
        state.properties = Some(ctx.dictionary_attr(vec![(key, fastmath)]));
    }
    let new = rewriter.create(state);
    let value = rewriter.ctx().result(new, 0);
    replace(op, rewriter, value)
}

// ----- registration -----

pub(crate) fn addi(set: &mut RewritePatternSet) {
    add(set, AddIOp::NAME, "AddIAddConstant", add_i_add_constant);
    add(
        set,
        AddIOp::NAME,
        "AddISubConstantRHS",
        add_i_sub_constant_rhs,
    );
    add(
        set,
        AddIOp::NAME,
        "AddISubConstantLHS",
        add_i_sub_constant_lhs,
    );
    add(
        set,
        AddIOp::NAME,
        "AddIMulNegativeOneRhs",
        add_i_mul_negative_one_rhs,
    );
    add(
        set,
        AddIOp::NAME,
        "AddIMulNegativeOneLhs",
        add_i_mul_negative_one_lhs,
    );
}

pub(crate) fn subi(set: &mut RewritePatternSet) {
    add(
        set,
        SubIOp::NAME,
        "SubIRHSAddConstant",
        sub_i_rhs_add_constant,
    );
    add(
        set,
        SubIOp::NAME,
        "SubILHSAddConstant",
        sub_i_lhs_add_constant,
    );
    add(
        set,
        SubIOp::NAME,
        "SubIRHSSubConstantRHS",
        sub_i_rhs_sub_constant_rhs,
    );
    add(
        set,
        SubIOp::NAME,
        "SubIRHSSubConstantLHS",
        sub_i_rhs_sub_constant_lhs,
    );
    add(
        set,
        SubIOp::NAME,
        "SubILHSSubConstantRHS",
        sub_i_lhs_sub_constant_rhs,
    );
    add(
        set,
        SubIOp::NAME,
        "SubILHSSubConstantLHS",
        sub_i_lhs_sub_constant_lhs,
    );
    add(
        set,
        SubIOp::NAME,
        "SubISubILHSRHSLHS",
        sub_i_sub_i_lhs_rhs_lhs,
    );
}

pub(crate) fn muli(set: &mut RewritePatternSet) {
    add(set, MulIOp::NAME, "MulIMulIConstant", mul_i_mul_i_constant);
}

pub(crate) fn xori(set: &mut RewritePatternSet) {
    add(set, XOrIOp::NAME, "XOrINotCmpI", xor_i_not_cmp_i);
    add(set, XOrIOp::NAME, "XOrIOfExtUI", and_of_ext_ui);
    add(set, XOrIOp::NAME, "XOrIOfExtSI", and_of_ext_si);
}

pub(crate) fn cmpi(set: &mut RewritePatternSet) {
    add(set, CmpIOp::NAME, "CmpIExtSI", cmp_i_ext_si);
    add(set, CmpIOp::NAME, "CmpIExtUI", cmp_i_ext_ui);
}

pub(crate) fn select(set: &mut RewritePatternSet) {
    add(
        set,
        SelectOp::NAME,
        "RedundantSelectFalse",
        redundant_select_false,
    );
    add(
        set,
        SelectOp::NAME,
        "RedundantSelectTrue",
        redundant_select_true,
    );
    add(set, SelectOp::NAME, "SelectNotCond", select_not_cond);
    add(set, SelectOp::NAME, "SelectI1ToNot", select_i1_to_not);
    add(set, SelectOp::NAME, "SelectToExtUI", select_to_ext_ui);
}

pub(crate) fn extsi(set: &mut RewritePatternSet) {
    add(set, ExtSIOp::NAME, "ExtSIOfExtUI", ext_si_of_ext_ui);
}

pub(crate) fn index_cast(set: &mut RewritePatternSet) {
    add(
        set,
        IndexCastOp::NAME,
        "IndexCastOfExtSI",
        index_cast_of_ext_si,
    );
}

pub(crate) fn index_castui(set: &mut RewritePatternSet) {
    add(
        set,
        IndexCastUIOp::NAME,
        "IndexCastUIOfExtUI",
        index_cast_ui_of_ext_ui,
    );
}

pub(crate) fn trunci(set: &mut RewritePatternSet) {
    add(
        set,
        TruncIOp::NAME,
        "TruncIExtSIToExtSI",
        trunc_i_ext_si_to_ext_si,
    );
    add(
        set,
        TruncIOp::NAME,
        "TruncIExtUIToExtUI",
        trunc_i_ext_ui_to_ext_ui,
    );
}

pub(crate) fn andi(set: &mut RewritePatternSet) {
    add(set, AndIOp::NAME, "AndOfExtUI", and_of_ext_ui);
    add(set, AndIOp::NAME, "AndOfExtSI", and_of_ext_si);
}

pub(crate) fn ori(set: &mut RewritePatternSet) {
    add(set, OrIOp::NAME, "OrOfExtUI", and_of_ext_ui);
    add(set, OrIOp::NAME, "OrOfExtSI", and_of_ext_si);
}

pub(crate) fn mulf(set: &mut RewritePatternSet) {
    add(set, MulFOp::NAME, "MulFOfNegF", of_neg_f);
}

pub(crate) fn divf(set: &mut RewritePatternSet) {
    add(set, DivFOp::NAME, "DivFOfNegF", of_neg_f);
}

// ----- cmpf of an integer converted to float -----

/// `cmpf(p, sitofp/uitofp(x), c)` with a float constant `c`: an integer
/// comparison of `x`, or a constant when `c` is out of the integer's range
/// or not integral (MLIR's `CmpFIntToFPConst`, from LLVM's InstCombine).
fn cmp_f_int_to_fp_const(op: Operation, rewriter: &mut PatternRewriter<'_>) -> bool {
    use strata_ir::float::{self as fl, FloatKind};
    let ctx = rewriter.ctx();
    let (lhs, rhs_value, loc) = (ctx.operand(op, 0), ctx.operand(op, 1), ctx.op_loc(op));
    let Some(predicate) = crate::arith::CmpFOp(op)
        .predicate(ctx)
        .and_then(|p| crate::arith::CMPF_PREDICATE.value(ctx, p))
    else {
        return false;
    };
    let (unsigned, int_value) = if let Some(d) = def(ctx, lhs, crate::arith::SIToFPOp::NAME) {
        (false, ctx.operand(d, 0))
    } else if let Some(d) = def(ctx, lhs, crate::arith::UIToFPOp::NAME) {
        (true, ctx.operand(d, 0))
    } else {
        return false;
    };
    let Some(rhs_attr) = constant(rewriter, rhs_value) else {
        return false;
    };
    let ctx = rewriter.ctx();
    let (kind, rhs) = match ctx.attr_kind(rhs_attr) {
        strata_ir::AttrKind::Float { ty, bits } => match ctx.float_kind(*ty) {
            Some(k) if k.bit_width() <= 64 => (k, fl::to_f64(k, *bits)),
            _ => return false,
        },
        _ => return false,
    };
    if rhs.is_nan() {
        return false;
    }
    let (mantissa, max_exponent) = match kind {
        FloatKind::F64 => (53, 1023),
        FloatKind::F32 => (24, 127),
        FloatKind::F16 => (11, 15),
        FloatKind::BF16 => (8, 127),
        _ => return false,
    };
    let int_ty = ctx.value_type(int_value);
    let Some(width) = ctx
        .int_or_float_bit_width(int_ty)
        .filter(|&w| (1..=64).contains(&w))
    else {
        return false;
    };
    let value_bits = if unsigned { width } else { width - 1 } as i32;
    if width as i32 > mantissa {
        // The conversion loses bits: only fold where that cannot matter.
        if rhs.is_infinite() {
            if max_exponent < value_bits {
                return false;
            }
        } else if rhs != 0.0 {
            let exponent = ilogb(rhs);
            if mantissa <= exponent && exponent <= value_bits {
                return false;
            }
        }
    }
    // eq 0, ne 1, slt 2, sle 3, sgt 4, sge 5, ult 6, ule 7, ugt 8, uge 9
    let mut pred: u64 = match predicate {
        7 => return replace_with_bool(op, rewriter, loc, true), // ord
        14 => return replace_with_bool(op, rewriter, loc, false), // uno
        1 | 8 => 0,
        6 | 13 => 1,
        2 | 9 => {
            if unsigned {
                8
            } else {
                4
            }
        }
        3 | 10 => {
            if unsigned {
                9
            } else {
                5
            }
        }
        4 | 11 => {
            if unsigned {
                6
            } else {
                2
            }
        }
        5 | 12 => {
            if unsigned {
                7
            } else {
                3
            }
        }
        _ => return false,
    };
    // Round an integer bound to the float type, as APFloat::convertFromAPInt.
    let round = |v: i128| fl::to_f64(kind, fl::from_f64(kind, v as f64));
    let (min, max) = if unsigned {
        (0i128, (1i128 << width) - 1)
    } else {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    };
    let (lt, le, gt, ge) = if unsigned { (6, 7, 8, 9) } else { (2, 3, 4, 5) };
    if round(max) < rhs {
        return replace_with_bool(op, rewriter, loc, pred == 1 || pred == lt || pred == le);
    }
    if round(min) > rhs {
        return replace_with_bool(op, rewriter, loc, pred == 1 || pred == gt || pred == ge);
    }
    let truncated = rhs.trunc();
    if truncated < min as f64 || truncated > max as f64 {
        return false;
    }
    let rhs_int = truncated as i128;
    if rhs != 0.0 && round(rhs_int) != rhs {
        // A fractional constant; rhs_int is rounded towards zero.
        let negative = rhs < 0.0;
        match pred {
            1 => return replace_with_bool(op, rewriter, loc, true),
            0 => return replace_with_bool(op, rewriter, loc, false),
            7 if negative => return replace_with_bool(op, rewriter, loc, false),
            3 if negative => pred = 2,
            6 if negative => return replace_with_bool(op, rewriter, loc, false),
            6 => pred = 7,
            2 if !negative => pred = 3,
            8 if negative => return replace_with_bool(op, rewriter, loc, true),
            4 if negative => pred = 5,
            9 if negative => return replace_with_bool(op, rewriter, loc, true),
            9 => pred = 8,
            5 if !negative => pred = 4,
            _ => {}
        }
    }
    let ctx = rewriter.ctx_mut();
    let value = ctx.integer_attr(int_ty, rhs_int);
    let c = make_constant(rewriter, loc, value, int_ty);
    let Some(predicate) = CMPI_PREDICATE.attr(rewriter.ctx_mut(), pred) else {
        return false;
    };
    let i1 = rewriter.ctx().value_type(rewriter.ctx().result(op, 0));
    let cmp = CmpIOp::build(rewriter.ctx_mut(), loc, predicate, int_value, c, i1).op();
    rewriter.insert(cmp);
    let result = rewriter.ctx().result(cmp, 0);
    replace(op, rewriter, result)
}

/// The binary exponent of a finite non-zero value (C's `ilogb`).
fn ilogb(value: f64) -> i32 {
    let bits = value.abs().to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    if exponent == 0 {
        // Subnormal: normalize by the position of the leading mantissa bit.
        let mantissa = bits & ((1 << 52) - 1);
        return -1022 - (mantissa.leading_zeros() as i32 - 12) - 1;
    }
    exponent - 1023
}

fn replace_with_bool(
    op: Operation,
    rewriter: &mut PatternRewriter<'_>,
    loc: Location,
    value: bool,
) -> bool {
    let ctx = rewriter.ctx_mut();
    let attr = ctx.bool_attr(value);
    let ty = ctx.integer_type(1);
    let c = make_constant(rewriter, loc, attr, ty);
    replace(op, rewriter, c)
}

pub(crate) fn cmpf(set: &mut RewritePatternSet) {
    add(
        set,
        crate::arith::CmpFOp::NAME,
        "CmpFIntToFPConst",
        cmp_f_int_to_fp_const,
    );
}
