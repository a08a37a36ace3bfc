//! The `arith` dialect: integer and floating-point arithmetic, comparisons,
//! selects and casts on scalars, vectors and tensors (MLIR's `arith`).

use strata_ir::attributes::AttrKind;
use strata_ir::dialect::FoldResult;
use strata_ir::ods::constraints::{
    attr_type, element_type_or_self, BoolLike, EnumSpec, EnumStorage, FloatLike,
    SignlessFixedWidthIntegerLike, SignlessIntegerOrIndexLike, TypedAttr, UnitAttr,
};
use strata_ir::parser::asm::{OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::types::Signedness;
use strata_ir::{
    enum_attr, op, type_constraint, Attribute, Context, Diagnostic, Location, Operation,
    OperationState, Type, TypeKind, Value,
};

use crate::fold::{self, const_float, const_int, FloatConst, IntConst};

// ----- enums -----

/// `arith.cmpi` predicates.
pub static CMPI_PREDICATE: EnumSpec = EnumSpec {
    name: "CmpIPredicate",
    summary: "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9",
    cases: &[
        ("eq", 0),
        ("ne", 1),
        ("slt", 2),
        ("sle", 3),
        ("sgt", 4),
        ("sge", 5),
        ("ult", 6),
        ("ule", 7),
        ("ugt", 8),
        ("uge", 9),
    ],
    bit_enum: false,
    separator: "",
    storage: EnumStorage::Integer(64),
};

/// `arith.cmpf` predicates.
pub static CMPF_PREDICATE: EnumSpec = EnumSpec {
    name: "CmpFPredicate",
    summary: "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
    cases: &[
        ("false", 0),
        ("oeq", 1),
        ("ogt", 2),
        ("oge", 3),
        ("olt", 4),
        ("ole", 5),
        ("one", 6),
        ("ord", 7),
        ("ueq", 8),
        ("ugt", 9),
        ("uge", 10),
        ("ult", 11),
        ("ule", 12),
        ("une", 13),
        ("uno", 14),
        ("true", 15),
    ],
    bit_enum: false,
    separator: "",
    storage: EnumStorage::Integer(64),
};

/// Fast-math flags (`#arith.fastmath<...>`).
pub static FASTMATH: EnumSpec = EnumSpec {
    name: "::mlir::arith::FastMathFlags",
    summary: "Floating point fast math flags",
    cases: &[
        ("none", 0),
        ("reassoc", 1),
        ("nnan", 2),
        ("ninf", 4),
        ("nsz", 8),
        ("arcp", 16),
        ("contract", 32),
        ("afn", 64),
        ("fast", 127),
    ],
    bit_enum: true,
    separator: ",",
    storage: EnumStorage::Dialect {
        dialect: "arith",
        mnemonic: "fastmath",
    },
};

/// Integer overflow flags (`#arith.overflow<...>`).
pub static OVERFLOW: EnumSpec = EnumSpec {
    name: "::mlir::arith::IntegerOverflowFlags",
    summary: "Integer overflow arith flags",
    cases: &[("none", 0), ("nsw", 1), ("nuw", 2)],
    bit_enum: true,
    separator: ", ",
    storage: EnumStorage::Dialect {
        dialect: "arith",
        mnemonic: "overflow",
    },
};

/// Rounding modes of `arith.truncf`.
pub static ROUNDING_MODE: EnumSpec = EnumSpec {
    name: "RoundingMode",
    summary: "Floating point rounding mode",
    cases: &[
        ("to_nearest_even", 0),
        ("downward", 1),
        ("upward", 2),
        ("toward_zero", 3),
        ("to_nearest_away", 4),
    ],
    bit_enum: false,
    separator: "",
    storage: EnumStorage::Integer(32),
};

enum_attr!(
    /// `predicate` of `arith.cmpi`.
    CmpIPredicateAttr, CMPI_PREDICATE, Keyword
);
enum_attr!(
    /// `predicate` of `arith.cmpf`.
    CmpFPredicateAttr, CMPF_PREDICATE, Keyword
);
enum_attr!(
    /// `#arith.fastmath<...>`.
    FastMathAttr, FASTMATH, Stripped
);
enum_attr!(
    /// `#arith.overflow<...>`.
    IntegerOverflowAttr, OVERFLOW, Stripped
);
enum_attr!(
    /// `roundingmode` of `arith.truncf`.
    RoundingModeAttr, ROUNDING_MODE, Keyword
);

/// Parses `#arith.fastmath<...>` and `#arith.overflow<...>`.
fn parse_arith_attr(ctx: &mut Context, body: &str) -> Result<Attribute, String> {
    if body.starts_with("fastmath") {
        FASTMATH.parse_dialect_body(ctx, body)
    } else if body.starts_with("overflow") {
        OVERFLOW.parse_dialect_body(ctx, body)
    } else {
        Err(format!("unknown attribute `{body}` in dialect `arith`"))
    }
}

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
        strata_ir::ods::constraints::is_like(ctx, ty, |c, t| strata_ir::ods::constraints::is_signless_int_or_index(c, t) || strata_ir::ods::constraints::is_float(c, t))
            || matches!(ctx.type_kind(ty), TypeKind::MemRef { element, .. } if strata_ir::ods::constraints::is_signless_int(ctx, *element) || strata_ir::ods::constraints::is_float(ctx, *element))
    }
);

// ----- constant -----

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

use strata_ir::ods::constraints::AnyType;

fn verify_constant(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let Some(value) = ConstantOp(op).value(ctx) else {
        return Ok(());
    };
    let result = ctx.value_type(ctx.result(op, 0));
    if attr_type(ctx, value) != Some(result) {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that all of {value, result} have same type",
        ));
    }
    if let TypeKind::Integer { signedness, .. } = ctx.type_kind(result) {
        if *signedness != Signedness::Signless {
            return Err(op_error(ctx, op, "integer return type must be signless"));
        }
    }
    if !matches!(
        ctx.attr_kind(value),
        AttrKind::Integer { .. }
            | AttrKind::WideInteger { .. }
            | AttrKind::Float { .. }
            | AttrKind::DenseElements { .. }
            | AttrKind::DenseResource { .. }
            | AttrKind::Sparse { .. }
    ) {
        return Err(op_error(
            ctx,
            op,
            "value must be an integer, float, or elements attribute",
        ));
    }
    Ok(())
}

fn infer_constant(ctx: &mut Context, state: &OperationState) -> Result<Vec<Type>, String> {
    let value = state
        .attributes
        .iter()
        .find(|(n, _)| ctx.ident_str(*n) == "value")
        .map(|(_, v)| *v);
    match value.and_then(|v| attr_type(ctx, v)) {
        Some(ty) => Ok(vec![ty]),
        None => Err("value must be a typed attribute".into()),
    }
}

fn fold_constant(
    ctx: &mut Context,
    op: Operation,
    _operands: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    ConstantOp(op).value(ctx).map(|v| vec![FoldResult::Attr(v)])
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

/// arith's constant materializer: an `arith.constant` when the attribute's
/// type is the wanted type.
pub(crate) fn materialize_constant(
    ctx: &mut Context,
    value: Attribute,
    ty: Type,
    loc: Location,
) -> Option<Operation> {
    if attr_type(ctx, value) != Some(ty) {
        return None;
    }
    if !matches!(
        ctx.attr_kind(value),
        AttrKind::Integer { .. } | AttrKind::Float { .. } | AttrKind::DenseElements { .. }
    ) {
        return None;
    }
    Some(ConstantOp::build(ctx, loc, value, ty).op())
}

fn op_error(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        ctx.op_loc(op),
        format!("'{}' op {message}", ctx.op_name_str(op)),
    )
    .on_op(op)
}

// ----- integer binary ops -----

macro_rules! int_binary_overflow {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:path, [$($t:ident),*]) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure, Elementwise, SameOperandsAndResultType $(, $t)*),
             format = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)",
             fold = $fold)]
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
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:path, [$($t:ident),*]) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Elementwise, SameOperandsAndResultType $(, $t)*),
             format = "$lhs `,` $rhs attr-dict `:` type($result)",
             fold = $fold)]
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
    [Commutative]
);
int_binary_overflow!(
    SubIOp,
    "arith.subi",
    "Integer subtraction operation.",
    fold_subi,
    []
);
int_binary_overflow!(
    MulIOp,
    "arith.muli",
    "Integer multiplication operation.",
    fold_muli,
    [Commutative]
);
int_binary_overflow!(ShLIOp, "arith.shli", "Integer left-shift.", fold_shli, []);
int_binary_exact!(
    DivSIOp,
    "arith.divsi",
    "Signed integer division operation.",
    fold_divsi,
    []
);
int_binary_exact!(
    DivUIOp,
    "arith.divui",
    "Unsigned integer division operation.",
    fold_divui,
    []
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
    []
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
    [Pure, Commutative]
);
int_binary!(
    OrIOp,
    "arith.ori",
    "Integer binary or.",
    fold_ori,
    [Pure, Commutative]
);
int_binary!(
    XOrIOp,
    "arith.xori",
    "Integer binary xor.",
    fold_xori,
    [Pure, Commutative]
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

// ----- float ops -----

macro_rules! float_binary {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold:path, [$($t:ident),*]) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure, Elementwise, SameOperandsAndResultType $(, $t)*),
             format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
             fold = $fold)]
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
    [Commutative]
);
float_binary!(
    DivFOp,
    "arith.divf",
    "Floating point division operation.",
    fold_divf,
    []
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

// ----- comparisons and select -----

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
     fold = fold_cmpi)]
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
     fold = fold_cmpf)]
pub struct CmpFOp {
    predicate: Attr<CmpFPredicateAttr>,
    lhs: Operand<FloatLike>,
    rhs: Operand<FloatLike>,
    #[default = "#arith.fastmath<none>"]
    fastmath: Attr<FastMathAttr>,
    result: Result<BoolLike>,
}

/// `i1` shaped like `ty`.
fn i1_like(ctx: &mut Context, ty: Type) -> Type {
    let i1 = ctx.integer_type(1);
    match ctx.type_kind(ty).clone() {
        TypeKind::Vector {
            shape, scalable, ..
        } => ctx.intern_type(TypeKind::Vector {
            shape,
            scalable,
            element: i1,
        }),
        TypeKind::RankedTensor {
            shape, encoding, ..
        } => ctx.intern_type(TypeKind::RankedTensor {
            shape,
            element: i1,
            encoding,
        }),
        TypeKind::UnrankedTensor { .. } => {
            ctx.intern_type(TypeKind::UnrankedTensor { element: i1 })
        }
        _ => i1,
    }
}

fn infer_cmp(ctx: &mut Context, state: &OperationState) -> Result<Vec<Type>, String> {
    let Some(&lhs) = state.operands.first() else {
        return Err("expected operands".into());
    };
    let ty = ctx.value_type(lhs);
    Ok(vec![i1_like(ctx, ty)])
}

fn verify_cmp_result(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let lhs = ctx.value_type(ctx.operand(op, 0));
    let result = ctx.value_type(ctx.result(op, 0));
    let same_shape = ctx.type_kind(lhs).shape() == ctx.type_kind(result).shape()
        && std::mem::discriminant(ctx.type_kind(lhs))
            == std::mem::discriminant(ctx.type_kind(result))
        || (ctx.type_kind(lhs).shape().is_none() && ctx.type_kind(result).shape().is_none());
    let element = element_type_or_self(ctx, result);
    if !same_shape || !strata_ir::ods::constraints::is_i1(ctx, element) {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that result type has i1 element type and same shape as operands",
        ));
    }
    Ok(())
}

/// Select operation: `cond ? a : b`, element-wise when the condition is a
/// vector or tensor.
#[op("arith.select",
     traits(Pure, Elementwise),
     all_types_match(true_value, false_value, result),
     parse = parse_select,
     print = print_select,
     verify_predicates = verify_select,
     fold = fold_select)]
pub struct SelectOp {
    condition: Operand<BoolLike>,
    true_value: Operand<AnyType>,
    false_value: Operand<AnyType>,
    result: Result<AnyType>,
}

fn verify_select(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let cond = ctx.value_type(ctx.operand(op, 0));
    let result = ctx.value_type(ctx.result(op, 0));
    let ok = strata_ir::ods::constraints::is_i1(ctx, cond)
        || ctx.type_kind(cond).shape() == ctx.type_kind(result).shape()
            && ctx.type_kind(result).shape().is_some();
    if !ok {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that condition is signless i1 or has matching shape",
        ));
    }
    Ok(())
}

/// `%c, %a, %b attrs : T` or `: condType, T`.
fn parse_select(p: &mut OpAsmParser<'_, '_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let operands = p.parse_operand_list(strata_ir::parser::asm::Delimiter::None)?;
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

// ----- casts -----

macro_rules! cast_op {
    ($name:ident, $mnemonic:tt, $summary:tt, $in:ident, $out:ident, $compatible:path, $fold:path) => {
        #[doc = $summary]
        #[op($mnemonic,
                                     traits(Pure, SameOperandsAndResultShape, Elementwise),
                                     format = "$in attr-dict `:` type($in) `to` type($out)",
                                     verify = $compatible,
                                     fold = $fold)]
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
    fold_extsi
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
    fold_index_cast
);
cast_op!(
    IndexCastUIOp,
    "arith.index_castui",
    "Cast between index and integer types (unsigned).",
    IndexCastType,
    IndexCastType,
    verify_index_cast,
    fold_index_castui
);
cast_op!(
    BitcastOp,
    "arith.bitcast",
    "Bitcast between values of equal bit width.",
    BitcastType,
    BitcastType,
    verify_bitcast,
    fold_bitcast
);

/// Integer truncation operation.
#[op("arith.trunci",
     traits(Pure, SameOperandsAndResultShape, Elementwise),
     format = "$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)",
     verify = verify_narrowing_int,
     fold = fold_trunci)]
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
     verify = verify_narrowing_float,
     fold = fold_truncf)]
pub struct TruncFOp {
    r#in: Operand<FloatLike>,
    roundingmode: OptionalAttr<RoundingModeAttr>,
    fastmath: OptionalAttr<FastMathAttr>,
    out: Result<FloatLike>,
}

/// The in/out types of a cast with the container kinds and shapes compared.
fn cast_types(ctx: &Context, op: Operation) -> Option<(Type, Type)> {
    let a = ctx.value_type(ctx.operand(op, 0));
    let b = ctx.value_type(ctx.result(op, 0));
    let same_container = std::mem::discriminant(ctx.type_kind(a))
        == std::mem::discriminant(ctx.type_kind(b))
        || (ctx.type_kind(a).element_type().is_none() && ctx.type_kind(b).element_type().is_none());
    same_container.then(|| (element_type_or_self(ctx, a), element_type_or_self(ctx, b)))
}

fn cast_incompatible(ctx: &Context, op: Operation) -> Diagnostic {
    let a = strata_ir::printer::type_to_string(ctx, ctx.value_type(ctx.operand(op, 0)));
    let b = strata_ir::printer::type_to_string(ctx, ctx.value_type(ctx.result(op, 0)));
    op_error(
        ctx,
        op,
        format!("operand type '{a}' and result type '{b}' are cast incompatible"),
    )
}

fn check_cast(
    ctx: &Context,
    op: Operation,
    ok: impl Fn(Type, Type) -> bool,
) -> Result<(), Diagnostic> {
    match cast_types(ctx, op) {
        Some((a, b)) if ok(a, b) => Ok(()),
        _ => Err(cast_incompatible(ctx, op)),
    }
}

fn width(ctx: &Context, ty: Type) -> u32 {
    ctx.int_or_float_bit_width(ty).unwrap_or(0)
}

fn verify_widening_int(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, b) > width(ctx, a))
}

fn verify_narrowing_int(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, b) < width(ctx, a))
}

fn verify_widening_float(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, b) > width(ctx, a))
}

fn verify_narrowing_float(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, b) < width(ctx, a))
}

fn verify_same_shape_cast(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |_, _| true)
}

fn verify_index_cast(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let is_index = |t: Type| matches!(ctx.type_kind(t), TypeKind::Index);
    check_cast(ctx, op, |a, b| is_index(a) != is_index(b))
}

fn verify_bitcast(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    check_cast(ctx, op, |a, b| width(ctx, a) == width(ctx, b))
}

// ----- folders -----

fn int_binary_fold(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
    f: impl Fn(&IntConst, &IntConst) -> Option<u128>,
) -> Option<Vec<FoldResult>> {
    let a = const_int(ctx, consts.first().copied().flatten()?)?;
    let b = const_int(ctx, consts.get(1).copied().flatten()?)?;
    let value = f(&a, &b)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    Some(vec![FoldResult::Attr(fold::int_attr_like(ctx, ty, value)?)])
}

/// The operand `index` if its constant equals `value` (splats included).
fn operand_is(ctx: &Context, consts: &[Option<Attribute>], index: usize, value: i128) -> bool {
    consts
        .get(index)
        .copied()
        .flatten()
        .and_then(|a| const_int(ctx, a))
        .is_some_and(|c| c.signed() == value || (value == -1 && c.is_all_ones()))
}

fn lhs(ctx: &Context, op: Operation) -> FoldResult {
    FoldResult::Value(ctx.operand(op, 0))
}

fn fold_addi(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value.wrapping_add(b.value)))
}

fn fold_subi(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1) {
        let ty = ctx.value_type(ctx.result(op, 0));
        return fold::int_attr_like(ctx, ty, 0).map(|a| vec![FoldResult::Attr(a)]);
    }
    if operand_is(ctx, c, 1, 0) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value.wrapping_sub(b.value)))
}

fn fold_muli(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        return c[1].map(|a| vec![FoldResult::Attr(a)]);
    }
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value.wrapping_mul(b.value)))
}

fn fold_divsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        let (x, y) = (a.signed(), b.signed());
        if y == 0 || (x == a.min_signed() && y == -1) {
            return None;
        }
        Some((x / y) as u128)
    })
}

fn fold_divui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| (b.value != 0).then(|| a.value / b.value))
}

fn fold_ceildivsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        let (x, y) = (a.signed(), b.signed());
        if y == 0 || (x == a.min_signed() && y == -1) {
            return None;
        }
        let q = x / y;
        let r = x % y;
        Some(
            (if r != 0 && ((r > 0) == (y > 0)) {
                q + 1
            } else {
                q
            }) as u128,
        )
    })
}

fn fold_floordivsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        let (x, y) = (a.signed(), b.signed());
        if y == 0 || (x == a.min_signed() && y == -1) {
            return None;
        }
        let q = x / y;
        let r = x % y;
        Some(
            (if r != 0 && ((r < 0) != (y < 0)) {
                q - 1
            } else {
                q
            }) as u128,
        )
    })
}

fn fold_remsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        let ty = ctx.value_type(ctx.result(op, 0));
        return fold::int_attr_like(ctx, ty, 0).map(|a| vec![FoldResult::Attr(a)]);
    }
    int_binary_fold(ctx, op, c, |a, b| {
        let y = b.signed();
        (y != 0).then(|| a.signed().checked_rem(y).unwrap_or(0) as u128)
    })
}

fn fold_remui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        let ty = ctx.value_type(ctx.result(op, 0));
        return fold::int_attr_like(ctx, ty, 0).map(|a| vec![FoldResult::Attr(a)]);
    }
    int_binary_fold(ctx, op, c, |a, b| (b.value != 0).then(|| a.value % b.value))
}

fn fold_andi(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        return c[1].map(|a| vec![FoldResult::Attr(a)]);
    }
    if operand_is(ctx, c, 1, -1) || ctx.operand(op, 0) == ctx.operand(op, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value & b.value))
}

fn fold_ori(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) || ctx.operand(op, 0) == ctx.operand(op, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    if operand_is(ctx, c, 1, -1) {
        return c[1].map(|a| vec![FoldResult::Attr(a)]);
    }
    int_binary_fold(ctx, op, c, |a, b| Some(a.value | b.value))
}

fn fold_xori(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 0) {
        return Some(vec![lhs(ctx, op)]);
    }
    if ctx.operand(op, 0) == ctx.operand(op, 1) {
        let ty = ctx.value_type(ctx.result(op, 0));
        return fold::int_attr_like(ctx, ty, 0).map(|a| vec![FoldResult::Attr(a)]);
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

fn fold_shli(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    shift_fold(ctx, op, c, |a, s| a.value << s)
}

fn fold_shrui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    shift_fold(ctx, op, c, |a, s| a.value >> s)
}

fn fold_shrsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    shift_fold(ctx, op, c, |a, s| (a.signed() >> s) as u128)
}

fn minmax_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    f: fn(&IntConst, &IntConst) -> u128,
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| Some(f(a, b)))
}

fn fold_maxsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(ctx, op, c, |a, b| {
        if a.signed() >= b.signed() {
            a.value
        } else {
            b.value
        }
    })
}

fn fold_maxui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(ctx, op, c, |a, b| a.value.max(b.value))
}

fn fold_minsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(ctx, op, c, |a, b| {
        if a.signed() <= b.signed() {
            a.value
        } else {
            b.value
        }
    })
}

fn fold_minui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(ctx, op, c, |a, b| a.value.min(b.value))
}

fn float_binary_fold(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
    f: impl Fn(f64, f64) -> f64,
) -> Option<Vec<FoldResult>> {
    let a = const_float(ctx, consts.first().copied().flatten()?)?;
    let b = const_float(ctx, consts.get(1).copied().flatten()?)?;
    let value = f(a.value, b.value);
    let ty = ctx.value_type(ctx.result(op, 0));
    Some(vec![FoldResult::Attr(fold::float_attr_like(
        ctx, ty, value,
    )?)])
}

fn float_operand(ctx: &Context, c: &[Option<Attribute>], index: usize) -> Option<FloatConst> {
    c.get(index)
        .copied()
        .flatten()
        .and_then(|a| const_float(ctx, a))
}

fn fold_addf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if float_operand(ctx, c, 1).is_some_and(|f| f.value == 0.0 && f.value.is_sign_negative()) {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, |a, b| a + b)
}

fn fold_subf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if float_operand(ctx, c, 1).is_some_and(|f| f.value == 0.0 && f.value.is_sign_positive()) {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, |a, b| a - b)
}

fn fold_mulf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if float_operand(ctx, c, 1).is_some_and(|f| f.value == 1.0) {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, |a, b| a * b)
}

fn fold_divf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if float_operand(ctx, c, 1).is_some_and(|f| f.value == 1.0) {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, |a, b| a / b)
}

fn fold_remf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    float_binary_fold(ctx, op, c, |a, b| a % b)
}

fn fold_maxnumf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1)
        || float_operand(ctx, c, 1).is_some_and(|f| f.value.is_nan())
    {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, f64::max)
}

fn fold_minnumf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1)
        || float_operand(ctx, c, 1).is_some_and(|f| f.value.is_nan())
    {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, f64::min)
}

fn fold_maximumf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1)
        || float_operand(ctx, c, 1).is_some_and(|f| f.value == f64::NEG_INFINITY)
    {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, fold::maximum)
}

fn fold_minimumf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if ctx.operand(op, 0) == ctx.operand(op, 1)
        || float_operand(ctx, c, 1).is_some_and(|f| f.value == f64::INFINITY)
    {
        return Some(vec![lhs(ctx, op)]);
    }
    float_binary_fold(ctx, op, c, fold::minimum)
}

fn fold_negf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    if let Some(inner) = ctx.defining_op(input).and_then(|d| NegFOp::from_op(ctx, d)) {
        return Some(vec![FoldResult::Value(ctx.operand(inner.op(), 0))]);
    }
    let a = float_operand(ctx, c, 0)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    Some(vec![FoldResult::Attr(fold::float_attr_like(
        ctx, ty, -a.value,
    )?)])
}

fn cmpi_eval(predicate: u64, a: &IntConst, b: &IntConst) -> Option<bool> {
    let (s, t) = (a.signed(), b.signed());
    let (u, v) = (a.value, b.value);
    Some(match predicate {
        0 => u == v,
        1 => u != v,
        2 => s < t,
        3 => s <= t,
        4 => s > t,
        5 => s >= t,
        6 => u < v,
        7 => u <= v,
        8 => u > v,
        9 => u >= v,
        _ => return None,
    })
}

fn fold_cmpi(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    let predicate = CmpIOp(op)
        .predicate(ctx)
        .and_then(|p| CMPI_PREDICATE.value(ctx, p))?;
    let result_ty = ctx.value_type(ctx.result(op, 0));
    if ctx.operand(op, 0) == ctx.operand(op, 1) {
        let value = matches!(predicate, 0 | 3 | 5 | 7 | 9);
        return fold::int_attr_like(ctx, result_ty, value as u128)
            .map(|a| vec![FoldResult::Attr(a)]);
    }
    let a = const_int(ctx, c.first().copied().flatten()?)?;
    let b = const_int(ctx, c.get(1).copied().flatten()?)?;
    let value = cmpi_eval(predicate, &a, &b)?;
    fold::int_attr_like(ctx, result_ty, value as u128).map(|a| vec![FoldResult::Attr(a)])
}

fn cmpf_eval(predicate: u64, a: f64, b: f64) -> Option<bool> {
    let unordered = a.is_nan() || b.is_nan();
    Some(match predicate {
        0 => false,
        1 => !unordered && a == b,
        2 => !unordered && a > b,
        3 => !unordered && a >= b,
        4 => !unordered && a < b,
        5 => !unordered && a <= b,
        6 => !unordered && a != b,
        7 => !unordered,
        8 => unordered || a == b,
        9 => unordered || a > b,
        10 => unordered || a >= b,
        11 => unordered || a < b,
        12 => unordered || a <= b,
        13 => unordered || a != b,
        14 => unordered,
        15 => true,
        _ => return None,
    })
}

fn fold_cmpf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    let predicate = CmpFOp(op)
        .predicate(ctx)
        .and_then(|p| CMPF_PREDICATE.value(ctx, p))?;
    let a = float_operand(ctx, c, 0)?;
    let b = float_operand(ctx, c, 1)?;
    let value = cmpf_eval(predicate, a.value, b.value)?;
    let result_ty = ctx.value_type(ctx.result(op, 0));
    fold::int_attr_like(ctx, result_ty, value as u128).map(|a| vec![FoldResult::Attr(a)])
}

fn fold_select(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (t, f) = (ctx.operand(op, 1), ctx.operand(op, 2));
    if t == f {
        return Some(vec![FoldResult::Value(t)]);
    }
    let cond = const_int(ctx, c.first().copied().flatten()?)?;
    Some(vec![FoldResult::Value(if cond.value != 0 { t } else { f })])
}

fn cast_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    f: impl Fn(&Context, Attribute, Type) -> Option<fold::Scalar>,
) -> Option<Vec<FoldResult>> {
    let input = c.first().copied().flatten()?;
    let out_ty = ctx.value_type(ctx.result(op, 0));
    let element = element_type_or_self(ctx, out_ty);
    let scalar = f(ctx, input, element)?;
    fold::scalar_attr_like(ctx, out_ty, scalar).map(|a| vec![FoldResult::Attr(a)])
}

/// `ext(ext(x))` of the same kind becomes one `ext` of `x`: done in place.
fn fold_ext_chain(ctx: &mut Context, op: Operation, name: &str) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    let inner = ctx.defining_op(input)?;
    if ctx.op_name_str(inner) != name {
        return None;
    }
    let source = ctx.operand(inner, 0);
    ctx.set_operand(op, 0, source);
    Some(vec![FoldResult::Value(ctx.result(op, 0))])
}

fn fold_extui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_ext_chain(ctx, op, ExtUIOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, |ctx, a, _| {
        const_int(ctx, a).map(|i| fold::Scalar::Int(i.value))
    })
}

fn fold_extsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_ext_chain(ctx, op, ExtSIOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, |ctx, a, _| {
        const_int(ctx, a).map(|i| fold::Scalar::Int(i.signed() as u128))
    })
}

fn fold_trunci(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    if let Some(inner) = ctx.defining_op(input) {
        let name = ctx.op_name_str(inner);
        if name == ExtSIOp::NAME || name == ExtUIOp::NAME {
            let source = ctx.operand(inner, 0);
            let out = ctx.value_type(ctx.result(op, 0));
            if ctx.value_type(source) == out {
                return Some(vec![FoldResult::Value(source)]);
            }
        }
    }
    cast_fold(ctx, op, c, |ctx, a, _| {
        const_int(ctx, a).map(|i| fold::Scalar::Int(i.value))
    })
}

fn fold_sitofp(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    cast_fold(ctx, op, c, |ctx, a, _| {
        const_int(ctx, a).map(|i| fold::Scalar::Float(i.signed() as f64))
    })
}

fn fold_uitofp(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    cast_fold(ctx, op, c, |ctx, a, _| {
        const_int(ctx, a).map(|i| fold::Scalar::Float(i.value as f64))
    })
}

fn fold_fptosi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    cast_fold(ctx, op, c, |ctx, a, ty| {
        let v = const_float(ctx, a)?.value.trunc();
        let w = ctx.int_or_float_bit_width(ty)?;
        let (lo, hi) = (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1));
        (v >= lo && v < hi).then_some(fold::Scalar::Int(v as i128 as u128))
    })
}

fn fold_fptoui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    cast_fold(ctx, op, c, |ctx, a, ty| {
        let v = const_float(ctx, a)?.value.trunc();
        let w = ctx.int_or_float_bit_width(ty)?;
        (v >= 0.0 && v < 2f64.powi(w as i32)).then_some(fold::Scalar::Int(v as u128))
    })
}

fn fold_index_cast(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    cast_fold(ctx, op, c, |ctx, a, _| {
        const_int(ctx, a).map(|i| fold::Scalar::Int(i.signed() as u128))
    })
}

fn fold_index_castui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    cast_fold(ctx, op, c, |ctx, a, _| {
        const_int(ctx, a).map(|i| fold::Scalar::Int(i.value))
    })
}

fn fold_extf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    cast_fold(ctx, op, c, |ctx, a, _| {
        const_float(ctx, a).map(|f| fold::Scalar::Float(f.value))
    })
}

fn fold_truncf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    cast_fold(ctx, op, c, |ctx, a, ty| {
        let v = const_float(ctx, a)?.value;
        let kind = ctx.float_kind(ty)?;
        let rounded = strata_ir::float::to_f64(kind, strata_ir::float::from_f64(kind, v));
        (rounded == v || v.is_nan()).then_some(fold::Scalar::Float(v))
    })
}

fn fold_bitcast(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    if ctx.value_type(input) == ctx.value_type(ctx.result(op, 0)) {
        return Some(vec![FoldResult::Value(input)]);
    }
    cast_fold(ctx, op, c, |ctx, a, _| match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } | AttrKind::Float { bits: value, .. } => {
            Some(fold::Scalar::Bits(*value))
        }
        _ => None,
    })
}

/// Register the arith dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut()
        .register_attr_parser("arith", parse_arith_attr);
    ctx.registry_mut()
        .register_constant_materializer("arith", materialize_constant);
    ConstantOp::register(ctx);
    AddIOp::register(ctx);
    SubIOp::register(ctx);
    MulIOp::register(ctx);
    ShLIOp::register(ctx);
    DivSIOp::register(ctx);
    DivUIOp::register(ctx);
    ShRSIOp::register(ctx);
    ShRUIOp::register(ctx);
    CeilDivSIOp::register(ctx);
    FloorDivSIOp::register(ctx);
    RemSIOp::register(ctx);
    RemUIOp::register(ctx);
    AndIOp::register(ctx);
    OrIOp::register(ctx);
    XOrIOp::register(ctx);
    MaxSIOp::register(ctx);
    MaxUIOp::register(ctx);
    MinSIOp::register(ctx);
    MinUIOp::register(ctx);
    AddFOp::register(ctx);
    SubFOp::register(ctx);
    MulFOp::register(ctx);
    DivFOp::register(ctx);
    RemFOp::register(ctx);
    MaxNumFOp::register(ctx);
    MinNumFOp::register(ctx);
    MaximumFOp::register(ctx);
    MinimumFOp::register(ctx);
    NegFOp::register(ctx);
    CmpIOp::register(ctx);
    CmpFOp::register(ctx);
    SelectOp::register(ctx);
    ExtUIOp::register(ctx);
    ExtSIOp::register(ctx);
    TruncIOp::register(ctx);
    SIToFPOp::register(ctx);
    UIToFPOp::register(ctx);
    FPToSIOp::register(ctx);
    FPToUIOp::register(ctx);
    IndexCastOp::register(ctx);
    IndexCastUIOp::register(ctx);
    BitcastOp::register(ctx);
    ExtFOp::register(ctx);
    TruncFOp::register(ctx);
}
