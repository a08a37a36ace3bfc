//! arith's canonicalization patterns (MLIR's `ArithCanonicalization.td`
//! and the C++ ones of `ArithOps.cpp`), under MLIR's pattern names so that
//! `canonicalize{disable-patterns=...}` works the same.
//!
//! Most are declarative (`strata_ir::pattern!`, as MLIR's DRR declares
//! them): a match of the root and the ops defining its operands, a
//! condition, and a replacement whose new ops are created right before the
//! root, innermost first, as DRR does, so the canonicalized IR is the same
//! op for op. The functions after the rules are their conditions and
//! computed attributes. `SelectToExtUI` and `CmpFIntToFPConst` are
//! hand-written, as in MLIR.

use strata_ir::pattern;
use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};
use strata_ir::{Attribute, Context, Location, Operation, OperationState, Type, Value};

use crate::arith::{
    AddIOp, AndIOp, BitcastOp, CmpIOp, ConstantOp, DivFOp, ExtSIOp, ExtUIOp, IndexCastOp,
    IndexCastUIOp, MulFOp, MulIOp, NegFOp, OrIOp, SelectOp, SubIOp, TruncIOp, XOrIOp,
    CMPI_PREDICATE, OVERFLOW,
};
use crate::fold::{self, const_int};

// ----- addi / subi / muli with constants -----

pattern! {
    /// `addi(addi(x, c0), c1)` is `addi(x, c0 + c1)`.
    AddIAddConstant:
        (AddIOp {overflowFlags: $f1?} (AddIOp {overflowFlags: $f0?} $x (const $c0)) (const $c1))
        => (AddIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               $x (ConstantOp {value: {fold_ints(ctx, root, c0, c1, u128::wrapping_add)}}));

    /// `addi(subi(x, c0), c1)` is `addi(x, c1 - c0)`.
    AddISubConstantRHS:
        (AddIOp {overflowFlags: $f1?} (SubIOp {overflowFlags: $f0?} $x (const $c0)) (const $c1))
        => (AddIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               $x (ConstantOp {value: {fold_ints(ctx, root, c1, c0, u128::wrapping_sub)}}));

    /// `addi(subi(c0, x), c1)` is `subi(c0 + c1, x)`.
    AddISubConstantLHS:
        (AddIOp {overflowFlags: $f1?} (SubIOp {overflowFlags: $f0?} (const $c0) $x) (const $c1))
        => (SubIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               (ConstantOp {value: {fold_ints(ctx, root, c0, c1, u128::wrapping_add)}}) $x);

    /// `subi(addi(x, c0), c1)` is `addi(x, c0 - c1)`; MLIR drops the flags here.
    SubIRHSAddConstant:
        (SubIOp (AddIOp $x (const $c0)) (const $c1))
        => (AddIOp $x (ConstantOp {value: {fold_ints(ctx, root, c0, c1, u128::wrapping_sub)}}));

    /// `subi(c1, addi(x, c0))` is `subi(c1 - c0, x)`.
    SubILHSAddConstant:
        (SubIOp {overflowFlags: $f1?} (const $c1) (AddIOp {overflowFlags: $f0?} $x (const $c0)))
        => (SubIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               (ConstantOp {value: {fold_ints(ctx, root, c1, c0, u128::wrapping_sub)}}) $x);

    /// `subi(subi(x, c0), c1)` is `subi(x, c0 + c1)`.
    SubIRHSSubConstantRHS:
        (SubIOp {overflowFlags: $f1?} (SubIOp {overflowFlags: $f0?} $x (const $c0)) (const $c1))
        => (SubIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               $x (ConstantOp {value: {fold_ints(ctx, root, c0, c1, u128::wrapping_add)}}));

    /// `subi(subi(c0, x), c1)` is `subi(c0 - c1, x)`.
    SubIRHSSubConstantLHS:
        (SubIOp {overflowFlags: $f1?} (SubIOp {overflowFlags: $f0?} (const $c0) $x) (const $c1))
        => (SubIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               (ConstantOp {value: {fold_ints(ctx, root, c0, c1, u128::wrapping_sub)}}) $x);

    /// `subi(c1, subi(x, c0))` is `subi(c0 + c1, x)`.
    SubILHSSubConstantRHS:
        (SubIOp {overflowFlags: $f1?} (const $c1) (SubIOp {overflowFlags: $f0?} $x (const $c0)))
        => (SubIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               (ConstantOp {value: {fold_ints(ctx, root, c0, c1, u128::wrapping_add)}}) $x);

    /// `subi(c1, subi(c0, x))` is `addi(x, c1 - c0)`.
    SubILHSSubConstantLHS:
        (SubIOp {overflowFlags: $f1?} (const $c1) (SubIOp {overflowFlags: $f0?} (const $c0) $x))
        => (AddIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               $x (ConstantOp {value: {fold_ints(ctx, root, c1, c0, u128::wrapping_sub)}}));

    /// `muli(muli(x, c0), c1)` is `muli(x, c0 * c1)`.
    MulIMulIConstant:
        (MulIOp {overflowFlags: $f1?} (MulIOp {overflowFlags: $f0?} $x (const $c0)) (const $c1))
        => (MulIOp {overflowFlags: {merge_flags(ctx, f0, f1)}}
               $x (ConstantOp {value: {fold_ints(ctx, root, c0, c1, u128::wrapping_mul)}}));

    /// `addi(x, muli(y, -1))` is `subi(x, y)`.
    AddIMulNegativeOneRhs:
        (AddIOp $x (MulIOp $y (const $c))) => (SubIOp $x $y) if is_all_ones(ctx, c);

    /// `addi(muli(x, -1), y)` is `subi(y, x)`.
    AddIMulNegativeOneLhs:
        (AddIOp (MulIOp $x (const $c)) $y) => (SubIOp $y $x) if is_all_ones(ctx, c);

    /// `subi(subi(a, b), a)` is `subi(0, b)`.
    SubISubILHSRHSLHS:
        (SubIOp (SubIOp $a $b) $a) => (SubIOp (ConstantOp {value: {zero_like(ctx, root)}}) $b);
}

// ----- xori / cmpi -----

pattern! {
    /// `xori(cmpi(p, a, b), true)` is `cmpi(!p, a, b)`.
    XOrINotCmpI:
        (XOrIOp (CmpIOp {predicate: $p} $a $b) (const $one))
        => (CmpIOp {predicate: {inverted_predicate(ctx, p)}} $a $b)
        if is_i1_result(ctx, root) && is_one(ctx, one);

    /// `xori(extui(x), extui(y))` is `extui(xori(x, y))` when `x` and `y` have one type.
    XOrIOfExtUI:
        (XOrIOp (ExtUIOp $x) (ExtUIOp $y)) => (ExtUIOp (XOrIOp $x $y : $x)) if same_type(ctx, x, y);

    /// `xori(extsi(x), extsi(y))` is `extsi(xori(x, y))` when `x` and `y` have one type.
    XOrIOfExtSI:
        (XOrIOp (ExtSIOp $x) (ExtSIOp $y)) => (ExtSIOp (XOrIOp $x $y : $x)) if same_type(ctx, x, y);

    /// `cmpi(eq|ne, extsi(a), extsi(b))` is `cmpi(eq|ne, a, b)` when `a` and `b` have one type.
    CmpIExtSI:
        (CmpIOp {predicate: $p} (ExtSIOp $a) (ExtSIOp $b)) => (CmpIOp {predicate: $p} $a $b)
        if is_eq_or_ne(ctx, p) && same_type(ctx, a, b);

    /// `cmpi(eq|ne, extui(a), extui(b))` is `cmpi(eq|ne, a, b)` when `a` and `b` have one type.
    CmpIExtUI:
        (CmpIOp {predicate: $p} (ExtUIOp $a) (ExtUIOp $b)) => (CmpIOp {predicate: $p} $a $b)
        if is_eq_or_ne(ctx, p) && same_type(ctx, a, b);
}

// ----- select -----

pattern! {
    /// `select(p, a, select(p, b, c))` is `select(p, a, c)`.
    RedundantSelectFalse:
        (SelectOp $p $a (SelectOp $p _ $c)) => (SelectOp $p $a $c);

    /// `select(p, select(p, a, b), c)` is `select(p, a, c)`.
    RedundantSelectTrue:
        (SelectOp $p (SelectOp $p $a _) $c) => (SelectOp $p $a $c);

    /// `select(xori(c, true), a, b)` is `select(c, b, a)`.
    SelectNotCond:
        (SelectOp (XOrIOp $c (const $one)) $a $b) => (SelectOp $c $b $a)
        if is_true(ctx, one) && is_i1_value(ctx, c);

    /// `select(c, false, true)` on `i1` is `xori(c, true)`.
    SelectI1ToNot:
        (SelectOp $c (const $t) (const $f))
        => (XOrIOp $c (ConstantOp {value: {Some(ctx.bool_attr(true))}}))
        if is_i1_result(ctx, root) && bit(ctx, t) == Some(0) && bit(ctx, f) == Some(1);
}

// ----- casts -----

pattern! {
    /// `extsi(extui(x))` is `extui(x)`.
    ExtSIOfExtUI: (ExtSIOp (ExtUIOp $x)) => (ExtUIOp $x);

    /// `index_cast(extsi(x))` is `index_cast(x)`.
    IndexCastOfExtSI: (IndexCastOp (ExtSIOp $x)) => (IndexCastOp $x);

    /// `bitcast(bitcast(x))` is `bitcast(x)`.
    BitcastOfBitcast: (BitcastOp (BitcastOp $x)) => (BitcastOp $x);

    /// `index_castui(extui(x))` is `index_castui(x)`.
    IndexCastUIOfExtUI: (IndexCastUIOp (ExtUIOp $x)) => (IndexCastUIOp $x);

    /// `trunci(extsi(x))` is `extsi(x)` when `x` is narrower than the result.
    TruncIExtSIToExtSI: (TruncIOp (ExtSIOp $x)) => (ExtSIOp $x) if narrower(ctx, x, root);

    /// `trunci(extui(x))` is `extui(x)` when `x` is narrower than the result.
    TruncIExtUIToExtUI: (TruncIOp (ExtUIOp $x)) => (ExtUIOp $x) if narrower(ctx, x, root);

    /// `andi(extui(x), extui(y))` is `extui(andi(x, y))` when `x` and `y` have one type.
    AndOfExtUI:
        (AndIOp (ExtUIOp $x) (ExtUIOp $y)) => (ExtUIOp (AndIOp $x $y : $x)) if same_type(ctx, x, y);

    /// `andi(extsi(x), extsi(y))` is `extsi(andi(x, y))` when `x` and `y` have one type.
    AndOfExtSI:
        (AndIOp (ExtSIOp $x) (ExtSIOp $y)) => (ExtSIOp (AndIOp $x $y : $x)) if same_type(ctx, x, y);

    /// `ori(extui(x), extui(y))` is `extui(ori(x, y))` when `x` and `y` have one type.
    OrOfExtUI:
        (OrIOp (ExtUIOp $x) (ExtUIOp $y)) => (ExtUIOp (OrIOp $x $y : $x)) if same_type(ctx, x, y);

    /// `ori(extsi(x), extsi(y))` is `extsi(ori(x, y))` when `x` and `y` have one type.
    OrOfExtSI:
        (OrIOp (ExtSIOp $x) (ExtSIOp $y)) => (ExtSIOp (OrIOp $x $y : $x)) if same_type(ctx, x, y);
}

// ----- floats -----

pattern! {
    /// `mulf(negf(a), negf(b))` is `mulf(a, b)`, with the same fast-math flags.
    MulFOfNegF:
        (MulFOp {fastmath: $fm?} (NegFOp $a) (NegFOp $b)) => (MulFOp {fastmath: $fm} $a $b);

    /// `divf(negf(a), negf(b))` is `divf(a, b)`, with the same fast-math flags.
    DivFOfNegF:
        (DivFOp {fastmath: $fm?} (NegFOp $a) (NegFOp $b)) => (DivFOp {fastmath: $fm} $a $b);
}

// ----- what the rules compute and check -----

/// The result type of `root` (every rule's root has one result).
fn root_type(ctx: &Context, root: Operation) -> Type {
    ctx.value_type(ctx.result(root, 0))
}

/// Overflow flags as a bit set (0 when absent).
fn flag_bits(ctx: &Context, flags: Option<Attribute>) -> u64 {
    flags.and_then(|f| OVERFLOW.value(ctx, f)).unwrap_or(0)
}

/// The flags both reassociated ops have (MLIR's `MergeOverflow`).
fn merge_flags(ctx: &mut Context, a: Option<Attribute>, b: Option<Attribute>) -> Option<Attribute> {
    let bits = flag_bits(ctx, a) & flag_bits(ctx, b);
    OVERFLOW.attr(ctx, bits)
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

/// `f(a, b)` on two scalar integer constants, of `root`'s result type.
fn fold_ints(
    ctx: &mut Context,
    root: Operation,
    a: Attribute,
    b: Attribute,
    f: fn(u128, u128) -> u128,
) -> Option<Attribute> {
    let ty = root_type(ctx, root);
    combine(ctx, ty, a, b, f)
}

/// A zero of `root`'s result type.
fn zero_like(ctx: &mut Context, root: Operation) -> Option<Attribute> {
    let ty = root_type(ctx, root);
    fold::make_attr(ctx, ty, &[0])
}

/// Whether every element of the integer constant `c` is all ones (-1).
fn is_all_ones(ctx: &Context, c: Attribute) -> bool {
    fold::consts(ctx, c)
        .and_then(|k| {
            let width = ctx.int_or_float_bit_width(k.elem)?;
            Some(k.all(|v| fold::IntConst { value: v, width }.is_all_ones()))
        })
        .unwrap_or(false)
}

/// Whether every element of the constant `c` is 1 (true).
fn is_true(ctx: &Context, c: Attribute) -> bool {
    fold::consts(ctx, c).is_some_and(|k| k.all(|v| v == 1))
}

/// Whether `c` is the scalar integer 1.
fn is_one(ctx: &Context, c: Attribute) -> bool {
    bit(ctx, c) == Some(1)
}

/// The value of a scalar integer constant.
fn bit(ctx: &Context, c: Attribute) -> Option<u128> {
    const_int(ctx, c).map(|k| k.value)
}

fn is_i1_value(ctx: &Context, v: Value) -> bool {
    strata_ir::ods::constraints::is_i1(ctx, ctx.value_type(v))
}

fn is_i1_result(ctx: &Context, root: Operation) -> bool {
    strata_ir::ods::constraints::is_i1(ctx, root_type(ctx, root))
}

fn same_type(ctx: &Context, a: Value, b: Value) -> bool {
    ctx.value_type(a) == ctx.value_type(b)
}

/// Whether a `cmpi` predicate is `eq` or `ne`.
fn is_eq_or_ne(ctx: &Context, predicate: Attribute) -> bool {
    matches!(CMPI_PREDICATE.value(ctx, predicate), Some(0 | 1))
}

/// The predicate with the opposite result (MLIR's `invertPredicate`).
pub(crate) fn invert_cmpi(predicate: u64) -> Option<u64> {
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

/// The `cmpi` predicate with the opposite result.
fn inverted_predicate(ctx: &mut Context, predicate: Attribute) -> Option<Attribute> {
    let inverted = CMPI_PREDICATE.value(ctx, predicate).and_then(invert_cmpi)?;
    CMPI_PREDICATE.attr(ctx, inverted)
}

/// Whether `x`'s (element) type is narrower than `root`'s result's.
fn narrower(ctx: &Context, x: Value, root: Operation) -> bool {
    let width = |t: Type| {
        let e = strata_ir::ods::constraints::element_type_or_self(ctx, t);
        ctx.int_or_float_bit_width(e).unwrap_or(0)
    };
    width(ctx.value_type(x)) < width(root_type(ctx, root))
}

// ----- hand-written patterns and their helpers -----

/// The op defining `value` when it is a `name` op.
fn def(ctx: &Context, value: Value, name: &str) -> Option<Operation> {
    ctx.defining_op(value)
        .filter(|&d| ctx.op_name_str(d) == name)
}

/// The constant attribute defining `value`, if any.
fn constant(rewriter: &mut PatternRewriter<'_>, value: Value) -> Option<Attribute> {
    strata_ir::rewrite::constant_value(rewriter.ctx_mut(), value)
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

fn replace(op: Operation, rewriter: &mut PatternRewriter<'_>, value: Value) -> bool {
    rewriter.replace_op(op, &[value]);
    true
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

// ----- registration -----

pub(crate) fn addi(set: &mut RewritePatternSet) {
    set.add(AddIAddConstant)
        .add(AddISubConstantRHS)
        .add(AddISubConstantLHS)
        .add(AddIMulNegativeOneRhs)
        .add(AddIMulNegativeOneLhs);
}

pub(crate) fn subi(set: &mut RewritePatternSet) {
    set.add(SubIRHSAddConstant)
        .add(SubILHSAddConstant)
        .add(SubIRHSSubConstantRHS)
        .add(SubIRHSSubConstantLHS)
        .add(SubILHSSubConstantRHS)
        .add(SubILHSSubConstantLHS)
        .add(SubISubILHSRHSLHS);
}

pub(crate) fn muli(set: &mut RewritePatternSet) {
    set.add(MulIMulIConstant);
}

pub(crate) fn xori(set: &mut RewritePatternSet) {
    set.add(XOrINotCmpI).add(XOrIOfExtUI).add(XOrIOfExtSI);
}

pub(crate) fn cmpi(set: &mut RewritePatternSet) {
    set.add(CmpIExtSI).add(CmpIExtUI);
}

pub(crate) fn select(set: &mut RewritePatternSet) {
    set.add(RedundantSelectFalse)
        .add(RedundantSelectTrue)
        .add(SelectNotCond)
        .add(SelectI1ToNot)
        .add(FnPattern::new(
            SelectOp::NAME,
            "SelectToExtUI",
            select_to_ext_ui,
        ));
}

pub(crate) fn extsi(set: &mut RewritePatternSet) {
    set.add(ExtSIOfExtUI);
}

pub(crate) fn index_cast(set: &mut RewritePatternSet) {
    set.add(IndexCastOfExtSI);
}

pub(crate) fn bitcast(set: &mut RewritePatternSet) {
    set.add(BitcastOfBitcast);
}

pub(crate) fn index_castui(set: &mut RewritePatternSet) {
    set.add(IndexCastUIOfExtUI);
}

pub(crate) fn trunci(set: &mut RewritePatternSet) {
    set.add(TruncIExtSIToExtSI).add(TruncIExtUIToExtUI);
}

pub(crate) fn andi(set: &mut RewritePatternSet) {
    set.add(AndOfExtUI).add(AndOfExtSI);
}

pub(crate) fn ori(set: &mut RewritePatternSet) {
    set.add(OrOfExtUI).add(OrOfExtSI);
}

pub(crate) fn mulf(set: &mut RewritePatternSet) {
    set.add(MulFOfNegF);
}

pub(crate) fn divf(set: &mut RewritePatternSet) {
    set.add(DivFOfNegF);
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
    set.add(FnPattern::new(
        crate::arith::CmpFOp::NAME,
        "CmpFIntToFPConst",
        cmp_f_int_to_fp_const,
    ));
}
