//! The `#[op]` declarations of `arith`, with their result-type inference,
//! result names and the custom form of `arith.select`.

use strata_ir::attributes::AttrKind;
use strata_ir::ods::constraints::{
    attr_type, AnyType, BoolLike, FloatLike, SignlessFixedWidthIntegerLike,
    SignlessIntegerOrIndexLike, TypedAttr, UnitAttr,
};
use strata_ir::parser::asm::{OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{
    op, type_constraint, Context, Diagnostic, Operation, OperationState, Type, TypeKind, Value,
};

use crate::arith::attrs::{
    CmpFPredicateAttr, CmpIPredicateAttr, FastMathAttr, IntegerOverflowAttr, RoundingModeAttr,
};
use crate::arith::fold::{
    fold_addf, fold_addi, fold_andi, fold_bitcast, fold_ceildivsi, fold_ceildivui, fold_cmpf,
    fold_cmpi, fold_constant, fold_divf, fold_divsi, fold_divui, fold_extf, fold_extsi, fold_extui,
    fold_floordivsi, fold_fptosi, fold_fptoui, fold_index_cast, fold_index_castui, fold_maximumf,
    fold_maxnumf, fold_maxsi, fold_maxui, fold_minimumf, fold_minnumf, fold_minsi, fold_minui,
    fold_mulf, fold_muli, fold_negf, fold_ori, fold_remf, fold_remsi, fold_remui, fold_select,
    fold_shli, fold_shrsi, fold_shrui, fold_sitofp, fold_subf, fold_subi, fold_truncf, fold_trunci,
    fold_uitofp, fold_xori,
};
use crate::arith::verify::{
    verify_bitcast, verify_cmp_result, verify_constant, verify_index_cast, verify_narrowing_float,
    verify_narrowing_int, verify_same_shape_cast, verify_same_tensor_dims, verify_select,
    verify_select_condition, verify_widening_float, verify_widening_int,
};

type_constraint!(
    /// Operands of `arith.index_cast`: signless integers or index (or
    /// vectors, tensors and memrefs of them).
    IndexCastType, "signless-integer-like or memref of signless-integer", |ctx, ty| {
        strata_ir::ods::constraints::is_like(ctx, ty, strata_ir::ods::constraints::is_signless_int_or_index)
            || matches!(ctx.type_kind(ty), TypeKind::MemRef { element, .. } if strata_ir::ods::constraints::is_signless_int_or_index(ctx, *element))
    }
);
type_constraint!(
    /// Operands of `arith.bitcast`.
    BitcastType, "signless-integer-or-float-like or memref of signless-integer or float", |ctx, ty| {
        strata_ir::ods::constraints::is_like(ctx, ty, |c, t| strata_ir::ods::constraints::is_signless_int(c, t) || strata_ir::ods::constraints::is_float(c, t))
            || matches!(ctx.type_kind(ty), TypeKind::MemRef { element, .. } if strata_ir::ods::constraints::is_signless_int(ctx, *element) || strata_ir::ods::constraints::is_float(ctx, *element))
    }
);

/// Integer or floating point constant.
///
/// The `constant` operation produces an SSA value equal to some integer or
/// floating-point constant specified by an attribute.
#[op("arith.constant",
     traits(Pure, ConstantLike),
     format = "attr-dict $value",
     verify_predicates = verify_constant,
     fold = fold_constant,
     infer = infer_constant,
     result_names = constant_names)]
pub struct ConstantOp {
    value: Attr<TypedAttr>,
    result: Result<AnyType>,
}

fn infer_constant(ctx: &mut Context, state: &OperationState) -> Result<Vec<Type>, String> {
    let value = state
        .attributes
        .iter()
        .find(|(n, _)| ctx.ident_str(*n) == "value")
        .map(|(_, v)| *v);
    match value {
        Some(v) => match attr_type(ctx, v) {
            Some(ty) => Ok(vec![ty]),
            // An untyped attribute (a string) has type `none`; the verifier
            // then reports the mismatch, as MLIR.
            None => Ok(vec![ctx.none_type()]),
        },
        None => Err("requires attribute 'value'".into()),
    }
}

fn constant_names(ctx: &Context, op: Operation) -> Vec<(Value, String)> {
    let result = ctx.result(op, 0);
    let Some(value) = ConstantOp(op).value(ctx) else {
        return Vec::new();
    };
    let name = match ctx.attr_kind(value) {
        AttrKind::Integer { ty, value } => match ctx.type_kind(*ty) {
            TypeKind::Integer { width: 1, .. } => {
                if *value != 0 {
                    "true".to_string()
                } else {
                    "false".to_string()
                }
            }
            TypeKind::Integer { width, .. } => {
                let v = strata_ir::attributes::sign_extend(*value, *width);
                format!("c{v}_{}", strata_ir::printer::type_to_string(ctx, *ty))
            }
            TypeKind::Index => {
                let v = strata_ir::attributes::sign_extend(*value, 64);
                format!("c{v}")
            }
            _ => "cst".to_string(),
        },
        _ => "cst".to_string(),
    };
    vec![(result, name)]
}

macro_rules! int_binary_overflow {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:path, [$($t:ident),*] $(, $key:ident = $val:path)*) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure, Elementwise, SameOperandsAndResultType $(, $t)*),
             format = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)",
             fold = $fold $(, $key = $val)*)]
        pub struct $name {
            lhs: Operand<SignlessIntegerOrIndexLike>,
            rhs: Operand<SignlessIntegerOrIndexLike>,
            #[default = "#arith.overflow<none>"]
            overflowFlags: Attr<IntegerOverflowAttr>,
            result: Result<SignlessIntegerOrIndexLike>,
        }
    };
}

macro_rules! int_binary_exact {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:path, [$($t:ident),*]) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Elementwise, SameOperandsAndResultType $(, $t)*),
             format = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)",
             fold = $fold)]
        pub struct $name {
            lhs: Operand<SignlessIntegerOrIndexLike>,
            rhs: Operand<SignlessIntegerOrIndexLike>,
            isExact: OptionalAttr<UnitAttr>,
            result: Result<SignlessIntegerOrIndexLike>,
        }
    };
}

macro_rules! int_binary {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:path, [$($t:ident),*] $(, $key:ident = $val:path)*) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Elementwise, SameOperandsAndResultType $(, $t)*),
             format = "$lhs `,` $rhs attr-dict `:` type($result)",
             fold = $fold $(, $key = $val)*)]
        pub struct $name {
            lhs: Operand<SignlessIntegerOrIndexLike>,
            rhs: Operand<SignlessIntegerOrIndexLike>,
            result: Result<SignlessIntegerOrIndexLike>,
        }
    };
}

int_binary_overflow!(
    AddIOp,
    "arith.addi",
    "Integer addition operation.",
    fold_addi,
    [Commutative],
    canonicalize = crate::arith_patterns::addi
);
int_binary_overflow!(
    SubIOp,
    "arith.subi",
    "Integer subtraction operation.",
    fold_subi,
    [],
    canonicalize = crate::arith_patterns::subi
);
int_binary_overflow!(
    MulIOp,
    "arith.muli",
    "Integer multiplication operation.",
    fold_muli,
    [Commutative],
    canonicalize = crate::arith_patterns::muli
);
int_binary_overflow!(ShLIOp, "arith.shli", "Integer left-shift.", fold_shli, []);
int_binary_exact!(
    DivSIOp,
    "arith.divsi",
    "Signed integer division operation.",
    fold_divsi,
    [NoMemoryEffect]
);
int_binary_exact!(
    DivUIOp,
    "arith.divui",
    "Unsigned integer division operation.",
    fold_divui,
    [NoMemoryEffect]
);
int_binary_exact!(
    ShRSIOp,
    "arith.shrsi",
    "Signed integer right-shift.",
    fold_shrsi,
    [Pure]
);
int_binary_exact!(
    ShRUIOp,
    "arith.shrui",
    "Unsigned integer right-shift.",
    fold_shrui,
    [Pure]
);
int_binary!(
    CeilDivSIOp,
    "arith.ceildivsi",
    "Signed ceil integer division operation.",
    fold_ceildivsi,
    [NoMemoryEffect]
);
int_binary!(
    CeilDivUIOp,
    "arith.ceildivui",
    "Unsigned ceil integer division operation.",
    fold_ceildivui,
    [NoMemoryEffect]
);
int_binary!(
    FloorDivSIOp,
    "arith.floordivsi",
    "Signed floor integer division operation.",
    fold_floordivsi,
    [Pure]
);
int_binary!(
    RemSIOp,
    "arith.remsi",
    "Signed integer division remainder operation.",
    fold_remsi,
    [Pure]
);
int_binary!(
    RemUIOp,
    "arith.remui",
    "Unsigned integer division remainder operation.",
    fold_remui,
    [Pure]
);
int_binary!(
    AndIOp,
    "arith.andi",
    "Integer binary and.",
    fold_andi,
    [Pure, Commutative],
    canonicalize = crate::arith_patterns::andi
);
int_binary!(
    OrIOp,
    "arith.ori",
    "Integer binary or.",
    fold_ori,
    [Pure, Commutative],
    canonicalize = crate::arith_patterns::ori
);
int_binary!(
    XOrIOp,
    "arith.xori",
    "Integer binary xor.",
    fold_xori,
    [Pure, Commutative],
    canonicalize = crate::arith_patterns::xori
);
int_binary!(
    MaxSIOp,
    "arith.maxsi",
    "Signed integer maximum operation.",
    fold_maxsi,
    [Pure, Commutative]
);
int_binary!(
    MaxUIOp,
    "arith.maxui",
    "Unsigned integer maximum operation.",
    fold_maxui,
    [Pure, Commutative]
);
int_binary!(
    MinSIOp,
    "arith.minsi",
    "Signed integer minimum operation.",
    fold_minsi,
    [Pure, Commutative]
);
int_binary!(
    MinUIOp,
    "arith.minui",
    "Unsigned integer minimum operation.",
    fold_minui,
    [Pure, Commutative]
);

macro_rules! float_binary {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:path, [$($t:ident),*] $(, $key:ident = $val:path)*) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure, Elementwise, SameOperandsAndResultType $(, $t)*),
             format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
             fold = $fold $(, $key = $val)*)]
        pub struct $name {
            lhs: Operand<FloatLike>,
            rhs: Operand<FloatLike>,
            #[default = "#arith.fastmath<none>"]
            fastmath: Attr<FastMathAttr>,
            result: Result<FloatLike>,
        }
    };
}

float_binary!(
    AddFOp,
    "arith.addf",
    "Floating point addition operation.",
    fold_addf,
    [Commutative]
);
float_binary!(
    SubFOp,
    "arith.subf",
    "Floating point subtraction operation.",
    fold_subf,
    []
);
float_binary!(
    MulFOp,
    "arith.mulf",
    "Floating point multiplication operation.",
    fold_mulf,
    [Commutative],
    canonicalize = crate::arith_patterns::mulf
);
float_binary!(
    DivFOp,
    "arith.divf",
    "Floating point division operation.",
    fold_divf,
    [],
    canonicalize = crate::arith_patterns::divf
);
float_binary!(
    RemFOp,
    "arith.remf",
    "Floating point division remainder operation.",
    fold_remf,
    []
);
float_binary!(
    MaxNumFOp,
    "arith.maxnumf",
    "Floating-point maximum operation (NaNs are ignored).",
    fold_maxnumf,
    [Commutative]
);
float_binary!(
    MinNumFOp,
    "arith.minnumf",
    "Floating-point minimum operation (NaNs are ignored).",
    fold_minnumf,
    [Commutative]
);
float_binary!(
    MaximumFOp,
    "arith.maximumf",
    "Floating-point maximum operation (NaN propagating).",
    fold_maximumf,
    [Commutative]
);
float_binary!(
    MinimumFOp,
    "arith.minimumf",
    "Floating-point minimum operation (NaN propagating).",
    fold_minimumf,
    [Commutative]
);

/// Floating point negation.
#[op("arith.negf",
     traits(Pure, Elementwise, SameOperandsAndResultType),
     format = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
     fold = fold_negf)]
pub struct NegFOp {
    operand: Operand<FloatLike>,
    #[default = "#arith.fastmath<none>"]
    fastmath: Attr<FastMathAttr>,
    result: Result<FloatLike>,
}

/// Integer comparison operation.
///
/// Compares two integers (or vectors/tensors of integers) with one of the
/// predicates `eq`, `ne`, `slt`, `sle`, `sgt`, `sge`, `ult`, `ule`, `ugt`,
/// `uge`; the result is `i1` of the operands' shape.
#[op("arith.cmpi",
     traits(Pure, SameTypeOperands, Elementwise),
     format = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
     verify_predicates = verify_cmp_result,
     infer = infer_cmp,
     fold = fold_cmpi,
     canonicalize = crate::arith_patterns::cmpi)]
pub struct CmpIOp {
    predicate: Attr<CmpIPredicateAttr>,
    lhs: Operand<SignlessIntegerOrIndexLike>,
    rhs: Operand<SignlessIntegerOrIndexLike>,
    result: Result<BoolLike>,
}

/// Floating-point comparison operation.
#[op("arith.cmpf",
     traits(Pure, SameTypeOperands, Elementwise),
     format = "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)",
     verify_predicates = verify_cmp_result,
     infer = infer_cmp,
     fold = fold_cmpf,
     canonicalize = crate::arith_patterns::cmpf)]
pub struct CmpFOp {
    predicate: Attr<CmpFPredicateAttr>,
    lhs: Operand<FloatLike>,
    rhs: Operand<FloatLike>,
    #[default = "#arith.fastmath<none>"]
    fastmath: Attr<FastMathAttr>,
    result: Result<BoolLike>,
}

/// `element` in the shape of `like` (a vector or tensor, MLIR's
/// `ShapedType::clone`), or `element` itself when `like` is a scalar.
pub fn shaped_like(ctx: &mut Context, like: Type, element: Type) -> Type {
    match ctx.type_kind(like).clone() {
        TypeKind::Vector {
            shape, scalable, ..
        } => ctx.intern_type(TypeKind::Vector {
            shape,
            scalable,
            element,
        }),
        TypeKind::RankedTensor {
            shape, encoding, ..
        } => ctx.intern_type(TypeKind::RankedTensor {
            shape,
            element,
            encoding,
        }),
        TypeKind::UnrankedTensor { .. } => ctx.intern_type(TypeKind::UnrankedTensor { element }),
        _ => element,
    }
}

/// `i1` shaped like `ty` (MLIR's `getI1SameShape`).
pub fn i1_like(ctx: &mut Context, ty: Type) -> Type {
    let i1 = ctx.integer_type(1);
    shaped_like(ctx, ty, i1)
}

/// The result of a comparison (or a float classification): `i1` in the
/// first operand's shape.
pub(crate) fn infer_cmp(ctx: &mut Context, state: &OperationState) -> Result<Vec<Type>, String> {
    let Some(&lhs) = state.operands.first() else {
        return Err("expected operands".into());
    };
    let ty = ctx.value_type(lhs);
    Ok(vec![i1_like(ctx, ty)])
}

/// Select operation: `cond ? a : b`, element-wise when the condition is a
/// vector or tensor.
#[op("arith.select",
     traits(Pure, Elementwise),
     all_types_match(true_value, false_value, result),
     parse = parse_select,
     print = print_select,
     verify_predicates = verify_select,
     verify = verify_select_condition,
     canonicalize = crate::arith_patterns::select,
     fold = fold_select)]
pub struct SelectOp {
    condition: Operand<BoolLike>,
    true_value: Operand<AnyType>,
    false_value: Operand<AnyType>,
    result: Result<AnyType>,
}

/// `%c, %a, %b attrs : T` or `: condType, T`.
fn parse_select(p: &mut OpAsmParser<'_, '_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let operands_pos = p.pos();
    let operands = p.parse_operand_list(strata_ir::parser::asm::Delimiter::None)?;
    if operands.len() != 3 {
        return Err(p.error_at(operands_pos, "expected 3 operands"));
    }
    let pos = p.pos();
    state.attributes.extend(p.parse_optional_attr_dict()?);
    p.parse_punct(Punct::Colon)?;
    let first = p.parse_type()?;
    let (cond_ty, ty) = if p.parse_optional_punct(Punct::Comma) {
        (first, p.parse_type()?)
    } else {
        (p.ctx().integer_type(1), first)
    };
    let values = p.resolve_operands(&operands, &[cond_ty, ty, ty], pos)?;
    state.operands = values;
    state.result_types.push(ty);
    Ok(())
}

fn print_select(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    p.write_char(' ');
    p.print_operands(ctx.operands(op));
    p.print_optional_attr_dict(op, &[]);
    p.write(" : ");
    let cond = ctx.value_type(ctx.operand(op, 0));
    if ctx.type_kind(cond).shape().is_some()
        || matches!(ctx.type_kind(cond), TypeKind::UnrankedTensor { .. })
    {
        p.print_type(cond);
        p.write(", ");
    }
    p.print_type(ctx.value_type(ctx.result(op, 0)));
}

macro_rules! cast_op {
    ($name:ident, $mnemonic:tt, $summary:tt, $in:ident, $out:ident, $compatible:path, $fold:path $(, $key:ident = $val:path)*) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure, SameOperandsAndResultShape, Elementwise),
             format = "$in attr-dict `:` type($in) `to` type($out)",
             verify_predicates = verify_same_tensor_dims,
             verify = $compatible,
             fold = $fold $(, $key = $val)*)]
        pub struct $name {
            r#in: Operand<$in>,
            out: Result<$out>,
        }
    };
}

cast_op!(
    ExtUIOp,
    "arith.extui",
    "Integer zero extension operation.",
    SignlessFixedWidthIntegerLike,
    SignlessFixedWidthIntegerLike,
    verify_widening_int,
    fold_extui
);
cast_op!(
    ExtSIOp,
    "arith.extsi",
    "Integer sign extension operation.",
    SignlessFixedWidthIntegerLike,
    SignlessFixedWidthIntegerLike,
    verify_widening_int,
    fold_extsi,
    canonicalize = crate::arith_patterns::extsi
);
cast_op!(
    SIToFPOp,
    "arith.sitofp",
    "Cast from a signed integer to floating-point.",
    SignlessFixedWidthIntegerLike,
    FloatLike,
    verify_same_shape_cast,
    fold_sitofp
);
cast_op!(
    UIToFPOp,
    "arith.uitofp",
    "Cast from an unsigned integer to floating-point.",
    SignlessFixedWidthIntegerLike,
    FloatLike,
    verify_same_shape_cast,
    fold_uitofp
);
cast_op!(
    FPToSIOp,
    "arith.fptosi",
    "Cast from floating-point to a signed integer.",
    FloatLike,
    SignlessFixedWidthIntegerLike,
    verify_same_shape_cast,
    fold_fptosi
);
cast_op!(
    FPToUIOp,
    "arith.fptoui",
    "Cast from floating-point to an unsigned integer.",
    FloatLike,
    SignlessFixedWidthIntegerLike,
    verify_same_shape_cast,
    fold_fptoui
);
cast_op!(
    IndexCastOp,
    "arith.index_cast",
    "Cast between index and integer types (signed).",
    IndexCastType,
    IndexCastType,
    verify_index_cast,
    fold_index_cast,
    canonicalize = crate::arith_patterns::index_cast
);
cast_op!(
    IndexCastUIOp,
    "arith.index_castui",
    "Cast between index and integer types (unsigned).",
    IndexCastType,
    IndexCastType,
    verify_index_cast,
    fold_index_castui,
    canonicalize = crate::arith_patterns::index_castui
);
cast_op!(
    BitcastOp,
    "arith.bitcast",
    "Bitcast between values of equal bit width.",
    BitcastType,
    BitcastType,
    verify_bitcast,
    fold_bitcast,
    canonicalize = crate::arith_patterns::bitcast
);

/// Integer truncation operation.
#[op("arith.trunci",
     traits(Pure, SameOperandsAndResultShape, Elementwise),
     format = "$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)",
     verify = verify_narrowing_int,
     fold = fold_trunci,
     canonicalize = crate::arith_patterns::trunci)]
pub struct TruncIOp {
    r#in: Operand<SignlessFixedWidthIntegerLike>,
    #[default = "#arith.overflow<none>"]
    overflowFlags: Attr<IntegerOverflowAttr>,
    out: Result<SignlessFixedWidthIntegerLike>,
}

/// Cast from floating-point to a wider floating-point.
#[op("arith.extf",
     traits(Pure, SameOperandsAndResultShape, Elementwise),
     format = "$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)",
     verify = verify_widening_float,
     fold = fold_extf)]
pub struct ExtFOp {
    r#in: Operand<FloatLike>,
    fastmath: OptionalAttr<FastMathAttr>,
    out: Result<FloatLike>,
}

/// Cast from floating-point to a narrower floating-point.
#[op("arith.truncf",
     traits(Pure, SameOperandsAndResultShape, Elementwise),
     format = "$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)",
     verify_predicates = verify_same_tensor_dims,
     verify = verify_narrowing_float,
     fold = fold_truncf)]
pub struct TruncFOp {
    r#in: Operand<FloatLike>,
    roundingmode: OptionalAttr<RoundingModeAttr>,
    fastmath: OptionalAttr<FastMathAttr>,
    out: Result<FloatLike>,
}
