//! `arith-expand`: rewrite the `arith` ops that have no direct LLVM
//! counterpart into simpler `arith` ops, as MLIR 22's pass of that name
//! (its default patterns, and `include-bf16`).
//!
//! - `ceildivui`, `ceildivsi`, `floordivsi`: a truncating division and a
//!   correction of one where the remainder is not zero and the signs call
//!   for it;
//! - `maximumf`, `minimumf`, `maxnumf`, `minnumf`: an unordered comparison,
//!   a select, and a select for a NaN operand (the right one for
//!   `maximumf`/`minimumf`, the left one for the `num` forms);
//! - `maxsi`, `minsi`, `maxui`, `minui`: a comparison and a select;
//! - `scaling_extf`, `scaling_truncf`: the scale (rounded to `f8E8M0FNU`
//!   first when it is wider) extended, then a multiplication or division;
//!   a scale of eight bits or fewer that is not `f8E8M0FNU` cannot be
//!   expanded, and the pass fails on it, as MLIR's;
//! - with `include-bf16`, `extf` from `bf16` to `f32` and `truncf` from
//!   `f32` to `bf16` as integer bit operations (round to nearest even, NaN
//!   to the quiet NaN).
//!
//! The expansions are the ones MLIR 22 writes, op for op, so that the
//! output is the same as `mlir-opt --arith-expand`'s.

use strata_dialects::arith::{i1_like, shaped_like, CMPF_PREDICATE, CMPI_PREDICATE};
use strata_dialects::fold::make_attr;
use strata_ir::float::FloatKind;
use strata_ir::ods::constraints::element_type_or_self;
use strata_ir::ods::inherent_attr;
use strata_ir::pass::{Pass, Statistics};
use strata_ir::rewrite::conversion::{
    apply_partial_conversion, ConversionPatternRewriter, ConversionPatternSet, ConversionTarget,
};
use strata_ir::{
    pass, Attribute, Context, Diagnostic, Operation, OperationState, Type, TypeKind, Value,
};

#[pass(
    name = "arith-expand",
    display_name = "ArithExpandOpsPass",
    summary = "Legalize Arith ops to be convertible to LLVM."
)]
pub(crate) struct ArithExpand {
    #[option(
        name = "include-bf16",
        default = "false",
        description = "Enable the BF16 expansion patterns"
    )]
    include_bf16: bool,
    #[option(
        name = "include-f8e8m0",
        default = "false",
        description = "Enable the F8E8M0 expansion patterns"
    )]
    include_f8e8m0: bool,
    #[option(
        name = "include-f4e2m1",
        default = "false",
        description = "Enable the F4E2M1 expansion patterns"
    )]
    include_f4e2m1: bool,
}

/// The ops the pass always expands.
const EXPANDED: [&str; 13] = [
    "arith.ceildivsi",
    "arith.ceildivui",
    "arith.floordivsi",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
    "arith.maxsi",
    "arith.maxui",
    "arith.minsi",
    "arith.minui",
    "arith.scaling_extf",
    "arith.scaling_truncf",
];

impl Pass for ArithExpand {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        if self.include_f8e8m0 || self.include_f4e2m1 {
            return Err(Diagnostic::error(
                ctx.op_loc(op),
                "arith-expand: the include-f8e8m0 and include-f4e2m1 expansions are not supported yet",
            ));
        }
        let mut patterns = ConversionPatternSet::new();
        patterns.add_fn(Some("arith.ceildivui"), 1, |op, _, rw| ceil_div_ui(op, rw));
        patterns.add_fn(Some("arith.ceildivsi"), 1, |op, _, rw| ceil_div_si(op, rw));
        patterns.add_fn(Some("arith.floordivsi"), 1, |op, _, rw| {
            floor_div_si(op, rw)
        });
        for (name, predicate, nan_lhs) in [
            ("arith.maximumf", "ugt", false),
            ("arith.minimumf", "ult", false),
            ("arith.maxnumf", "ugt", true),
            ("arith.minnumf", "ult", true),
        ] {
            patterns.add_fn(Some(name), 1, move |op, _, rw| {
                float_min_max(op, rw, predicate, nan_lhs)
            });
        }
        for (name, predicate) in [
            ("arith.maxsi", "sgt"),
            ("arith.minsi", "slt"),
            ("arith.maxui", "ugt"),
            ("arith.minui", "ult"),
        ] {
            patterns.add_fn(Some(name), 1, move |op, _, rw| {
                int_min_max(op, rw, predicate)
            });
        }
        patterns.add_fn(Some("arith.scaling_extf"), 1, |op, _, rw| {
            scaling_extf(op, rw)
        });
        patterns.add_fn(Some("arith.scaling_truncf"), 1, |op, _, rw| {
            scaling_truncf(op, rw)
        });
        let mut target = ConversionTarget::new();
        target.add_legal_dialect("arith");
        for name in EXPANDED {
            target.add_illegal_op(name);
        }
        if self.include_bf16 {
            patterns.add_fn(Some("arith.extf"), 1, |op, _, rw| bf16_extf(op, rw));
            patterns.add_fn(Some("arith.truncf"), 1, |op, _, rw| bf16_truncf(op, rw));
            target.add_dynamically_legal_op("arith.extf", |ctx, op| {
                !is_bf16_f32(ctx, op, FloatKind::BF16, FloatKind::F32)
            });
            target.add_dynamically_legal_op("arith.truncf", |ctx, op| {
                !is_bf16_f32(ctx, op, FloatKind::F32, FloatKind::BF16)
            });
        }
        let patterns = patterns.freeze(ctx);
        apply_partial_conversion(ctx, op, &target, &patterns, None)
    }
}

/// Whether `op` converts `from` (element type of its operand) to `to`.
fn is_bf16_f32(ctx: &Context, op: Operation, from: FloatKind, to: FloatKind) -> bool {
    let elem = |v: Value| float_kind(ctx, element_type_or_self(ctx, ctx.value_type(v)));
    elem(ctx.operand(op, 0)) == Some(from) && elem(ctx.result(op, 0)) == Some(to)
}

fn float_kind(ctx: &Context, ty: Type) -> Option<FloatKind> {
    match ctx.type_kind(ty) {
        TypeKind::Float(kind) => Some(*kind),
        _ => None,
    }
}

/// Creates ops before the op being expanded, as MLIR's builder does.
struct Emitter<'r, 'a> {
    rw: &'r mut ConversionPatternRewriter<'a>,
    loc: strata_ir::Location,
}

impl Emitter<'_, '_> {
    /// Insert `name` with `operands`, one result of type `ty`, and the
    /// inherent attributes `props`; its result.
    fn op(
        &mut self,
        name: &str,
        operands: &[Value],
        ty: Type,
        props: &[(&str, Attribute)],
    ) -> Value {
        let ctx = self.rw.ctx_mut();
        let mut state = OperationState::new(ctx.ident(name), self.loc);
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        if !props.is_empty() {
            let entries = props.iter().map(|&(n, a)| (ctx.ident(n), a)).collect();
            state.properties = Some(ctx.dictionary_attr(entries));
        }
        let op = self.rw.create(state);
        self.rw.ctx().result(op, 0)
    }

    fn ty(&self, v: Value) -> Type {
        self.rw.ctx().value_type(v)
    }

    /// `arith.constant` of `value` (an integer or a splat) of type `ty`.
    fn constant(&mut self, ty: Type, value: i64) -> Value {
        let ctx = self.rw.ctx_mut();
        let width = ctx
            .int_or_float_bit_width(element_type_or_self(ctx, ty))
            .unwrap_or(64);
        let bits = (value as i128 as u128) & width_mask(width);
        let attr = make_attr(ctx, ty, &[bits]).unwrap_or_else(|| ctx.unit_attr());
        self.op("arith.constant", &[], ty, &[("value", attr)])
    }

    fn cmpi(&mut self, predicate: &str, lhs: Value, rhs: Value) -> Value {
        let lhs_ty = self.ty(lhs);
        let ty = i1_like(self.rw.ctx_mut(), lhs_ty);
        let ctx = self.rw.ctx_mut();
        let code = CMPI_PREDICATE.value_of(predicate).unwrap_or(0);
        let attr = CMPI_PREDICATE
            .attr(ctx, code)
            .unwrap_or_else(|| ctx.unit_attr());
        self.op("arith.cmpi", &[lhs, rhs], ty, &[("predicate", attr)])
    }

    fn cmpf(&mut self, predicate: &str, lhs: Value, rhs: Value) -> Value {
        let lhs_ty = self.ty(lhs);
        let ty = i1_like(self.rw.ctx_mut(), lhs_ty);
        let ctx = self.rw.ctx_mut();
        let code = CMPF_PREDICATE.value_of(predicate).unwrap_or(0);
        let attr = CMPF_PREDICATE
            .attr(ctx, code)
            .unwrap_or_else(|| ctx.unit_attr());
        self.op("arith.cmpf", &[lhs, rhs], ty, &[("predicate", attr)])
    }

    /// A binary op whose result has its operands' type.
    fn binary(&mut self, name: &str, lhs: Value, rhs: Value, props: &[(&str, Attribute)]) -> Value {
        let ty = self.ty(lhs);
        self.op(name, &[lhs, rhs], ty, props)
    }

    fn select(&mut self, cond: Value, t: Value, f: Value) -> Value {
        let ty = self.ty(t);
        self.op("arith.select", &[cond, t, f], ty, &[])
    }
}

fn width_mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

fn emitter<'r, 'a>(op: Operation, rw: &'r mut ConversionPatternRewriter<'a>) -> Emitter<'r, 'a> {
    let loc = rw.ctx().op_loc(op);
    Emitter { rw, loc }
}

fn operands2(rw: &ConversionPatternRewriter<'_>, op: Operation) -> (Value, Value) {
    (rw.ctx().operand(op, 0), rw.ctx().operand(op, 1))
}

/// `a == 0 ? 0 : (a - 1) / b + 1`.
fn ceil_div_ui(op: Operation, rw: &mut ConversionPatternRewriter<'_>) -> bool {
    let (a, b) = operands2(rw, op);
    let mut e = emitter(op, rw);
    let ty = e.ty(a);
    let zero = e.constant(ty, 0);
    let is_zero = e.cmpi("eq", a, zero);
    let one = e.constant(ty, 1);
    let minus_one = e.binary("arith.subi", a, one, &[]);
    let quotient = e.binary("arith.divui", minus_one, b, &[]);
    let plus_one = e.binary("arith.addi", quotient, one, &[]);
    let result = e.select(is_zero, zero, plus_one);
    rw.replace_op(op, &[result]);
    true
}

/// `q = a / b`; `q + 1` when the division is inexact and the signs agree.
fn ceil_div_si(op: Operation, rw: &mut ConversionPatternRewriter<'_>) -> bool {
    let (a, b) = operands2(rw, op);
    let mut e = emitter(op, rw);
    let ty = e.ty(a);
    let zero = e.constant(ty, 0);
    let one = e.constant(ty, 1);
    let quotient = e.binary("arith.divsi", a, b, &[]);
    let product = e.binary("arith.muli", quotient, b, &[]);
    let inexact = e.cmpi("ne", a, product);
    let a_negative = e.cmpi("slt", a, zero);
    let b_negative = e.cmpi("slt", b, zero);
    let same_sign = e.cmpi("eq", a_negative, b_negative);
    let adjust = e.binary("arith.andi", inexact, same_sign, &[]);
    let plus_one = e.binary("arith.addi", quotient, one, &[]);
    let result = e.select(adjust, plus_one, quotient);
    rw.replace_op(op, &[result]);
    true
}

/// `q = a / b`; `q - 1` when the division is inexact and the signs differ.
fn floor_div_si(op: Operation, rw: &mut ConversionPatternRewriter<'_>) -> bool {
    let (a, b) = operands2(rw, op);
    let mut e = emitter(op, rw);
    let ty = e.ty(a);
    let quotient = e.binary("arith.divsi", a, b, &[]);
    let product = e.binary("arith.muli", quotient, b, &[]);
    let inexact = e.cmpi("ne", a, product);
    let zero = e.constant(ty, 0);
    let a_negative = e.cmpi("slt", a, zero);
    let b_negative = e.cmpi("slt", b, zero);
    let signs_differ = e.cmpi("ne", a_negative, b_negative);
    let adjust = e.binary("arith.andi", inexact, signs_differ, &[]);
    let minus_one = e.constant(ty, -1);
    let minus = e.binary("arith.addi", quotient, minus_one, &[]);
    let result = e.select(adjust, minus, quotient);
    rw.replace_op(op, &[result]);
    true
}

/// `isNaN(x) ? rhs : (lhs <pred> rhs ? lhs : rhs)`, `x` the right operand
/// (`maximumf`, `minimumf`) or the left one (`maxnumf`, `minnumf`).
fn float_min_max(
    op: Operation,
    rw: &mut ConversionPatternRewriter<'_>,
    predicate: &str,
    nan_lhs: bool,
) -> bool {
    let (lhs, rhs) = operands2(rw, op);
    let mut e = emitter(op, rw);
    let cmp = e.cmpf(predicate, lhs, rhs);
    let select = e.select(cmp, lhs, rhs);
    let x = if nan_lhs { lhs } else { rhs };
    let is_nan = e.cmpf("uno", x, x);
    let result = e.select(is_nan, rhs, select);
    rw.replace_op(op, &[result]);
    true
}

/// `lhs <pred> rhs ? lhs : rhs`.
fn int_min_max(op: Operation, rw: &mut ConversionPatternRewriter<'_>, predicate: &str) -> bool {
    let (lhs, rhs) = operands2(rw, op);
    let mut e = emitter(op, rw);
    let cmp = e.cmpi(predicate, lhs, rhs);
    let result = e.select(cmp, lhs, rhs);
    rw.replace_op(op, &[result]);
    true
}

/// The `fastmath` attribute of `op`, if it has one, as a property list.
fn fastmath(ctx: &Context, op: Operation) -> Vec<(&'static str, Attribute)> {
    inherent_attr(ctx, op, "fastmath")
        .map(|a| vec![("fastmath", a)])
        .unwrap_or_default()
}

/// The scale of a scaling op as `f8E8M0FNU` (rounded down to it when it is
/// wider); `None` when it is another type of eight bits or fewer.
fn scale_as_e8m0(e: &mut Emitter<'_, '_>, scale: Value, fm: &[(&str, Attribute)]) -> Option<Value> {
    let ty = e.ty(scale);
    let ctx = e.rw.ctx_mut();
    let elem = element_type_or_self(ctx, ty);
    if float_kind(ctx, elem) == Some(FloatKind::F8E8M0FNU) {
        return Some(scale);
    }
    if ctx.int_or_float_bit_width(elem).is_none_or(|w| w <= 8) {
        return None;
    }
    let e8m0 = ctx.float_type(FloatKind::F8E8M0FNU);
    let e8m0 = shaped_like(ctx, ty, e8m0);
    Some(e.op("arith.truncf", &[scale], e8m0, fm))
}

/// `extf(input) * extf(scale)`, in the result type.
fn scaling_extf(op: Operation, rw: &mut ConversionPatternRewriter<'_>) -> bool {
    let (input, scale) = operands2(rw, op);
    let fm = fastmath(rw.ctx(), op);
    let result_ty = rw.ctx().value_type(rw.ctx().result(op, 0));
    let mut e = emitter(op, rw);
    let Some(scale) = scale_as_e8m0(&mut e, scale, &fm) else {
        return false;
    };
    let scale = e.op("arith.extf", &[scale], result_ty, &fm);
    let input = e.op("arith.extf", &[input], result_ty, &fm);
    let result = e.binary("arith.mulf", input, scale, &fm);
    rw.replace_op(op, &[result]);
    true
}

/// `truncf(input / extf(scale))`, dividing in the input's type.
fn scaling_truncf(op: Operation, rw: &mut ConversionPatternRewriter<'_>) -> bool {
    let (input, scale) = operands2(rw, op);
    let ctx = rw.ctx();
    let fm = fastmath(ctx, op);
    let mut trunc_props = Vec::new();
    if let Some(mode) = inherent_attr(ctx, op, "roundingmode") {
        trunc_props.push(("roundingmode", mode));
    }
    trunc_props.extend(fm.iter().copied());
    let result_ty = ctx.value_type(ctx.result(op, 0));
    let input_ty = ctx.value_type(input);
    let mut e = emitter(op, rw);
    let Some(scale) = scale_as_e8m0(&mut e, scale, &fm) else {
        return false;
    };
    let scale = e.op("arith.extf", &[scale], input_ty, &fm);
    let quotient = e.binary("arith.divf", input, scale, &fm);
    let result = e.op("arith.truncf", &[quotient], result_ty, &trunc_props);
    rw.replace_op(op, &[result]);
    true
}

/// `bf16` to `f32`: the bits shifted into the high half.
fn bf16_extf(op: Operation, rw: &mut ConversionPatternRewriter<'_>) -> bool {
    if !is_bf16_f32(rw.ctx(), op, FloatKind::BF16, FloatKind::F32) {
        return false;
    }
    let input = rw.ctx().operand(op, 0);
    let result_ty = rw.ctx().value_type(rw.ctx().result(op, 0));
    let mut e = emitter(op, rw);
    let in_ty = e.ty(input);
    let ctx = e.rw.ctx_mut();
    let (i16, i32) = (ctx.integer_type(16), ctx.integer_type(32));
    let (i16, i32) = (shaped_like(ctx, in_ty, i16), shaped_like(ctx, in_ty, i32));
    let bits = e.op("arith.bitcast", &[input], i16, &[]);
    let wide = e.op("arith.extui", &[bits], i32, &[]);
    let c16 = e.constant(i32, 16);
    let shifted = e.binary("arith.shli", wide, c16, &[]);
    let result = e.op("arith.bitcast", &[shifted], result_ty, &[]);
    rw.replace_op(op, &[result]);
    true
}

/// `f32` to `bf16`, rounding to nearest even in integer arithmetic (add
/// `0x7FFF` plus the lowest kept bit, keep the high half); a NaN becomes
/// the quiet NaN `0x7FC0` (MLIR 22's `BFloat16TruncFOpConverter`).
fn bf16_truncf(op: Operation, rw: &mut ConversionPatternRewriter<'_>) -> bool {
    if !is_bf16_f32(rw.ctx(), op, FloatKind::F32, FloatKind::BF16) {
        return false;
    }
    let input = rw.ctx().operand(op, 0);
    let result_ty = rw.ctx().value_type(rw.ctx().result(op, 0));
    let mut e = emitter(op, rw);
    let in_ty = e.ty(input);
    let ctx = e.rw.ctx_mut();
    let (i16, i32) = (ctx.integer_type(16), ctx.integer_type(32));
    let i16 = shaped_like(ctx, in_ty, i16);
    let i32 = shaped_like(ctx, in_ty, i32);
    let is_nan = e.cmpf("une", input, input);
    let round_base = e.constant(i32, 0x7FFF);
    let quiet_nan = e.constant(i16, 0x7FC0);
    let c16 = e.constant(i32, 16);
    let one = e.constant(i32, 1);
    let bits = e.op("arith.bitcast", &[input], i32, &[]);
    let low_kept = e.binary("arith.shrui", bits, c16, &[]);
    let low_kept = e.binary("arith.andi", low_kept, one, &[]);
    let rounding = e.binary("arith.addi", low_kept, round_base, &[]);
    let rounded = e.binary("arith.addi", bits, rounding, &[]);
    let high = e.binary("arith.shrui", rounded, c16, &[]);
    let truncated = e.op("arith.trunci", &[high], i16, &[]);
    let selected = e.select(is_nan, quiet_nan, truncated);
    let result = e.op("arith.bitcast", &[selected], result_ty, &[]);
    rw.replace_op(op, &[result]);
    true
}
