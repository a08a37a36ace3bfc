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

use crate::fold::{self, const_float, const_int, Consts, FloatConst, IntConst};
use strata_ir::attributes::sign_extend;

// ----- enums -----

/// `arith.cmpi` predicates.
pub static CMPI_PREDICATE: EnumSpec = EnumSpec {
    name: "CmpIPredicate",
    attr_def: "",
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
    attr_def: "",
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
    attr_def: "Arith_FastMathAttr",
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
    attr_def: "Arith_IntegerOverflowAttr",
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
    attr_def: "",
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
fn parse_arith_attr(ctx: &mut Context, body: &str) -> Result<Attribute, Vec<(usize, String)>> {
    if body.starts_with("fastmath") {
        FASTMATH.parse_dialect_body(ctx, body)
    } else if body.starts_with("overflow") {
        OVERFLOW.parse_dialect_body(ctx, body)
    } else {
        let mnemonic = body.split('<').next().unwrap_or(body);
        Err(vec![(
            0,
            format!("unknown attribute `{mnemonic}` in dialect `arith`"),
        )])
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
        strata_ir::ods::constraints::is_like(ctx, ty, |c, t| strata_ir::ods::constraints::is_signless_int(c, t) || strata_ir::ods::constraints::is_float(c, t))
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
    // An untyped attribute (a string) has type `none`.
    let same_type = match attr_type(ctx, value) {
        Some(ty) => ty == result,
        None => matches!(ctx.type_kind(result), TypeKind::None),
    };
    if !same_type {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that all of {value, result} have same type",
        ));
    }
    if let TypeKind::Integer { signedness, .. } = ctx.type_kind(result) {
        if *signedness != Signedness::Signless {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                "integer return type must be signless",
            ));
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
        return Err(Diagnostic::op_error(
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

// ----- integer binary ops -----

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

// ----- float ops -----

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
        return Err(Diagnostic::op_error(
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
     canonicalize = crate::arith_patterns::select,
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
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that condition is signless i1 or has matching shape",
        ));
    }
    Ok(())
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

// ----- casts -----

macro_rules! cast_op {
    ($name:ident, $mnemonic:tt, $summary:tt, $in:ident, $out:ident, $compatible:path, $fold:path $(, $key:ident = $val:path)*) => {
        #[doc = $summary]
        #[op($mnemonic,
             traits(Pure, SameOperandsAndResultShape, Elementwise),
             format = "$in attr-dict `:` type($in) `to` type($out)",
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
    fold_bitcast
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
    Diagnostic::op_error(
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

/// The constant elements of operand `index`.
fn operand_consts(ctx: &Context, c: &[Option<Attribute>], index: usize) -> Option<Consts> {
    fold::consts(ctx, c.get(index).copied().flatten()?)
}

fn result_type(ctx: &Context, op: Operation) -> Type {
    ctx.value_type(ctx.result(op, 0))
}

fn int_width(ctx: &Context, c: &Consts) -> Option<u32> {
    ctx.is_int_or_index(c.elem)
        .then(|| ctx.int_or_float_bit_width(c.elem))
        .flatten()
}

fn float_kind(ctx: &Context, c: &Consts) -> Option<strata_ir::float::FloatKind> {
    ctx.float_kind(c.elem).filter(|k| k.bit_width() <= 64)
}

fn attr_result(attr: Option<Attribute>) -> Option<Vec<FoldResult>> {
    attr.map(|a| vec![FoldResult::Attr(a)])
}

fn int_binary_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    f: impl Fn(&IntConst, &IntConst) -> Option<u128>,
) -> Option<Vec<FoldResult>> {
    let a = operand_consts(ctx, c, 0)?;
    let b = operand_consts(ctx, c, 1)?;
    let width = int_width(ctx, &a)?;
    let ty = result_type(ctx, op);
    let int = |value| IntConst { value, width };
    attr_result(fold::map2(ctx, ty, &a, &b, |x, y| f(&int(x), &int(y))))
}

/// Whether operand `index` is a constant whose every element is `value`
/// (read as signed; `-1` also matches all ones).
fn operand_is(ctx: &Context, c: &[Option<Attribute>], index: usize, value: i128) -> bool {
    let Some(consts) = operand_consts(ctx, c, index) else {
        return false;
    };
    let Some(width) = int_width(ctx, &consts) else {
        return false;
    };
    consts.all(|v| {
        let k = IntConst { value: v, width };
        k.signed() == value || (value == -1 && k.is_all_ones())
    })
}

/// A zero of the result type (scalar or splat).
fn zero_like(ctx: &mut Context, op: Operation) -> Option<Vec<FoldResult>> {
    let ty = result_type(ctx, op);
    attr_result(fold::make_attr(ctx, ty, &[0]))
}

fn lhs(ctx: &Context, op: Operation) -> FoldResult {
    FoldResult::Value(ctx.operand(op, 0))
}

/// The operands of `value`'s defining op when it is a `name` op.
fn defined_by(ctx: &Context, value: Value, name: &str) -> Option<Vec<Value>> {
    let op = ctx.defining_op(value)?;
    (ctx.op_name_str(op) == name).then(|| ctx.operands(op).collect())
}

fn fold_addi(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
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

fn fold_subi(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
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

fn fold_muli(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
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

fn fold_divsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| signed_div(a, b).map(|(q, _)| q as u128))
}

fn fold_divui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if operand_is(ctx, c, 1, 1) {
        return Some(vec![lhs(ctx, op)]);
    }
    int_binary_fold(ctx, op, c, |a, b| a.value.checked_div(b.value))
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

fn fold_floordivsi(
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

fn fold_remsi(
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

fn fold_remui(
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

fn fold_andi(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
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

fn fold_ori(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
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

fn fold_xori(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
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

fn fold_maxsi(
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

fn fold_maxui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(ctx, op, c, Extreme::UnsignedMax, Extreme::Zero, |a, b| {
        a.value.max(b.value)
    })
}

fn fold_minsi(
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

fn fold_minui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    minmax_fold(ctx, op, c, Extreme::Zero, Extreme::UnsignedMax, |a, b| {
        a.value.min(b.value)
    })
}

fn float_binary_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    f: impl Fn(f64, f64) -> f64,
) -> Option<Vec<FoldResult>> {
    let a = operand_consts(ctx, c, 0)?;
    let b = operand_consts(ctx, c, 1)?;
    let kind = float_kind(ctx, &a)?;
    let ty = result_type(ctx, op);
    let value = |bits| strata_ir::float::to_f64(kind, bits);
    let is_nan = |bits| strata_ir::float::is_nan(kind, bits);
    attr_result(fold::map2(ctx, ty, &a, &b, |x, y| {
        let r = f(value(x), value(y));
        if !r.is_nan() {
            return Some(strata_ir::float::from_f64(kind, r));
        }
        // As APFloat: a NaN operand propagates (quieted); a new NaN is the
        // positive quiet NaN (the host's arithmetic may give a negative one).
        Some(if is_nan(x) {
            quiet(kind, x)
        } else if is_nan(y) {
            quiet(kind, y)
        } else {
            strata_ir::float::from_f64(kind, f64::NAN)
        })
    }))
}

/// A NaN with its quiet bit set (the top mantissa bit).
fn quiet(kind: strata_ir::float::FloatKind, bits: u128) -> u128 {
    let quiet_bit = match kind.bit_width() {
        64 => 1u128 << 51,
        32 => 1 << 22,
        16 if matches!(kind, strata_ir::float::FloatKind::BF16) => 1 << 6,
        16 => 1 << 9,
        _ => return bits,
    };
    bits | quiet_bit
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
    float_binary_fold(ctx, op, c, fold::maxnum)
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
    float_binary_fold(ctx, op, c, fold::minnum)
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
    if let Some(inner) = defined_by(ctx, input, NegFOp::NAME) {
        return Some(vec![FoldResult::Value(inner[0])]);
    }
    let a = operand_consts(ctx, c, 0)?;
    let kind = float_kind(ctx, &a)?;
    let ty = result_type(ctx, op);
    attr_result(fold::map1(ctx, ty, &a, |x| {
        Some(strata_ir::float::from_f64(
            kind,
            -strata_ir::float::to_f64(kind, x),
        ))
    }))
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
    let ty = result_type(ctx, op);
    if ctx.operand(op, 0) == ctx.operand(op, 1) {
        let value = matches!(predicate, 0 | 3 | 5 | 7 | 9);
        return attr_result(fold::make_attr(ctx, ty, &[value as u128]));
    }
    // A constant on the left only: swap the operands and mirror the
    // predicate (in place), so that constants end up on the right.
    if c.first().copied().flatten().is_some() && c.get(1).copied().flatten().is_none() {
        let mirrored = match predicate {
            2 => 4,
            3 => 5,
            4 => 2,
            5 => 3,
            6 => 8,
            7 => 9,
            8 => 6,
            9 => 7,
            p => p,
        };
        let attr = CMPI_PREDICATE.attr(ctx, mirrored)?;
        let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
        ctx.set_operands(op, &[b, a]);
        let key = ctx.ident("predicate");
        let mut entries: Vec<_> = ctx
            .op_properties(op)
            .map(|p| ctx.dictionary_entries(p).to_vec())
            .unwrap_or_default();
        entries.retain(|(n, _)| *n != key);
        entries.push((key, attr));
        let props = ctx.dictionary_attr(entries);
        ctx.set_op_properties(op, Some(props));
        return Some(vec![FoldResult::Value(ctx.result(op, 0))]);
    }
    let a = operand_consts(ctx, c, 0)?;
    let b = operand_consts(ctx, c, 1)?;
    let width = int_width(ctx, &a)?;
    let int = |value| IntConst { value, width };
    attr_result(fold::map2(ctx, ty, &a, &b, |x, y| {
        cmpi_eval(predicate, &int(x), &int(y)).map(u128::from)
    }))
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
    // One NaN operand decides: the other may as well be NaN (as MLIR).
    let nan_scalar = |i: usize| {
        c.get(i)
            .copied()
            .flatten()
            .and_then(|a| const_float(ctx, a))
            .is_some_and(|f| f.value.is_nan())
    };
    let (a, b) = match (nan_scalar(0), nan_scalar(1)) {
        (true, _) => (operand_consts(ctx, c, 0)?, operand_consts(ctx, c, 0)?),
        (_, true) => (operand_consts(ctx, c, 1)?, operand_consts(ctx, c, 1)?),
        _ => (operand_consts(ctx, c, 0)?, operand_consts(ctx, c, 1)?),
    };
    let kind = float_kind(ctx, &a)?;
    let ty = result_type(ctx, op);
    let value = |bits| strata_ir::float::to_f64(kind, bits);
    attr_result(fold::map2(ctx, ty, &a, &b, |x, y| {
        cmpf_eval(predicate, value(x), value(y)).map(u128::from)
    }))
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
    if let Some(cond) = c.first().copied().flatten().and_then(|a| const_int(ctx, a)) {
        return Some(vec![FoldResult::Value(if cond.value != 0 { t } else { f })]);
    }
    // A constant vector or tensor condition choosing between constants:
    // element by element.
    if let (Some(cond), Some(tv), Some(fv)) = (
        operand_consts(ctx, c, 0),
        operand_consts(ctx, c, 1),
        operand_consts(ctx, c, 2),
    ) {
        let n = cond.values.len().max(tv.values.len()).max(fv.values.len());
        let values: Vec<u128> = (0..n)
            .map(|i| {
                if cond.get(i) != 0 {
                    tv.get(i)
                } else {
                    fv.get(i)
                }
            })
            .collect();
        let ty = result_type(ctx, op);
        if let Some(attr) = fold::make_attr(ctx, ty, &values) {
            return Some(vec![FoldResult::Attr(attr)]);
        }
    }
    // select(cmpi eq a, b), a, b -> b; select(cmpi ne a, b), a, b -> a
    if let Some(cmp) = ctx
        .defining_op(ctx.operand(op, 0))
        .and_then(|d| CmpIOp::from_op(ctx, d))
    {
        let predicate = cmp
            .predicate(ctx)
            .and_then(|p| CMPI_PREDICATE.value(ctx, p));
        let (x, y) = (cmp.lhs(ctx), cmp.rhs(ctx));
        if matches!(predicate, Some(0 | 1)) && ((x == t && y == f) || (y == t && x == f)) {
            return Some(vec![FoldResult::Value(if predicate == Some(1) {
                t
            } else {
                f
            })]);
        }
    }
    // select(c, true, false) -> c for i1 results.
    let result = result_type(ctx, op);
    let bit = |i: usize| {
        c.get(i)
            .copied()
            .flatten()
            .and_then(|a| const_int(ctx, a))
            .map(|k| k.value)
    };
    if strata_ir::ods::constraints::is_i1(ctx, result) && bit(1) == Some(1) && bit(2) == Some(0) {
        return Some(vec![lhs(ctx, op)]);
    }
    None
}

/// Folds a cast of a constant element by element: `f` maps the input bits
/// to the output bits.
fn cast_fold(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
    f: impl Fn(u128) -> Option<u128>,
) -> Option<Vec<FoldResult>> {
    let a = operand_consts(ctx, c, 0)?;
    let ty = result_type(ctx, op);
    attr_result(fold::map1(ctx, ty, &a, f))
}

/// The widths or float kinds of a cast's input and output elements.
fn cast_elements(ctx: &Context, op: Operation) -> (Type, Type) {
    let input = ctx.value_type(ctx.operand(op, 0));
    let output = result_type(ctx, op);
    (
        element_type_or_self(ctx, input),
        element_type_or_self(ctx, output),
    )
}

/// `op(op(x))` becomes `op(x)` in place (chains of the same cast).
fn fold_chain_in_place(ctx: &mut Context, op: Operation, name: &str) -> Option<Vec<FoldResult>> {
    let inner = defined_by(ctx, ctx.operand(op, 0), name)?;
    ctx.set_operand(op, 0, inner[0]);
    Some(vec![FoldResult::Value(ctx.result(op, 0))])
}

fn fold_extui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_chain_in_place(ctx, op, ExtUIOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, Some)
}

fn fold_extsi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_chain_in_place(ctx, op, ExtSIOp::NAME) {
        return Some(r);
    }
    let (input, _) = cast_elements(ctx, op);
    let width = ctx.int_or_float_bit_width(input)?;
    cast_fold(ctx, op, c, |v| Some(sign_extend(v, width) as u128))
}

fn fold_trunci(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    let out = result_type(ctx, op);
    for ext in [ExtSIOp::NAME, ExtUIOp::NAME] {
        if let Some(inner) = defined_by(ctx, input, ext) {
            let source = inner[0];
            // trunci(ext(a)) -> a of the result's type, and -> trunci(a) in
            // place when a is wider than the result (MLIR's order).
            let width = |ctx: &Context, t: Type| {
                let e = strata_ir::ods::constraints::element_type_or_self(ctx, t);
                ctx.int_or_float_bit_width(e).unwrap_or(0)
            };
            if width(ctx, ctx.value_type(source)) > width(ctx, out) {
                ctx.set_operand(op, 0, source);
                return Some(vec![FoldResult::Value(ctx.result(op, 0))]);
            }
            if ctx.value_type(source) == out {
                return Some(vec![FoldResult::Value(source)]);
            }
        }
    }
    if let Some(r) = fold_chain_in_place(ctx, op, TruncIOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, Some)
}

/// An integer converted to float `kind` with one rounding: `f32` and `f64`
/// directly; narrower kinds through `f64` only while that is exact.
fn int_to_float(kind: strata_ir::float::FloatKind, value: i128) -> Option<u128> {
    use strata_ir::float::FloatKind;
    match kind {
        FloatKind::F32 => Some(u128::from((value as f32).to_bits())),
        FloatKind::F64 => Some(u128::from((value as f64).to_bits())),
        _ if value.unsigned_abs() <= 1 << 53 => {
            Some(strata_ir::float::from_f64(kind, value as f64))
        }
        _ => None,
    }
}

fn fold_sitofp(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (input, output) = cast_elements(ctx, op);
    let width = ctx.int_or_float_bit_width(input)?;
    let kind = ctx.float_kind(output).filter(|k| k.bit_width() <= 64)?;
    cast_fold(ctx, op, c, |v| int_to_float(kind, sign_extend(v, width)))
}

fn fold_uitofp(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    use strata_ir::float::FloatKind;
    let (_, output) = cast_elements(ctx, op);
    let kind = ctx.float_kind(output).filter(|k| k.bit_width() <= 64)?;
    cast_fold(ctx, op, c, |v| match kind {
        FloatKind::F32 => Some(u128::from((v as f32).to_bits())),
        FloatKind::F64 => Some(u128::from((v as f64).to_bits())),
        _ => i128::try_from(v).ok().and_then(|v| int_to_float(kind, v)),
    })
}

fn fold_fptosi(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (input, output) = cast_elements(ctx, op);
    let kind = ctx.float_kind(input).filter(|k| k.bit_width() <= 64)?;
    let width = ctx
        .int_or_float_bit_width(output)
        .filter(|&w| (1..=127).contains(&w))?;
    let bound = 2f64.powi(width as i32 - 1);
    cast_fold(ctx, op, c, |v| {
        let x = strata_ir::float::to_f64(kind, v).trunc();
        (x >= -bound && x < bound).then_some(x as i128 as u128)
    })
}

fn fold_fptoui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let (input, output) = cast_elements(ctx, op);
    let kind = ctx.float_kind(input).filter(|k| k.bit_width() <= 64)?;
    let width = ctx.int_or_float_bit_width(output).filter(|&w| w <= 127)?;
    let bound = 2f64.powi(width as i32);
    cast_fold(ctx, op, c, |v| {
        let x = strata_ir::float::to_f64(kind, v).trunc();
        (x >= 0.0 && x < bound).then_some(x as u128)
    })
}

/// `index_cast(index_cast(x))` back to `x`'s type is `x` (MLIR 22 folds
/// this even through a narrower type).
fn fold_cast_round_trip(ctx: &Context, op: Operation, name: &str) -> Option<Vec<FoldResult>> {
    let inner = defined_by(ctx, ctx.operand(op, 0), name)?;
    (ctx.value_type(inner[0]) == result_type(ctx, op)).then(|| vec![FoldResult::Value(inner[0])])
}

fn fold_index_cast(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_cast_round_trip(ctx, op, IndexCastOp::NAME) {
        return Some(r);
    }
    let (input, _) = cast_elements(ctx, op);
    let width = ctx.int_or_float_bit_width(input)?;
    cast_fold(ctx, op, c, |v| Some(sign_extend(v, width) as u128))
}

fn fold_index_castui(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    if let Some(r) = fold_cast_round_trip(ctx, op, IndexCastUIOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, Some)
}

fn fold_extf(ctx: &mut Context, op: Operation, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    let (input, output) = cast_elements(ctx, op);
    let from = ctx.float_kind(input).filter(|k| k.bit_width() <= 64)?;
    let to = ctx.float_kind(output).filter(|k| k.bit_width() <= 64)?;
    cast_fold(ctx, op, c, |v| {
        Some(strata_ir::float::from_f64(
            to,
            strata_ir::float::to_f64(from, v),
        ))
    })
}

fn fold_truncf(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    // truncf(extf(x)) -> x when it goes back to x's type.
    if let Some(inner) = defined_by(ctx, ctx.operand(op, 0), ExtFOp::NAME) {
        if ctx.value_type(inner[0]) == result_type(ctx, op) {
            return Some(vec![FoldResult::Value(inner[0])]);
        }
    }
    let (input, output) = cast_elements(ctx, op);
    let from = ctx.float_kind(input).filter(|k| k.bit_width() <= 64)?;
    let to = ctx.float_kind(output).filter(|k| k.bit_width() <= 64)?;
    cast_fold(ctx, op, c, |v| {
        let x = strata_ir::float::to_f64(from, v);
        let bits = strata_ir::float::from_f64(to, x);
        let back = strata_ir::float::to_f64(to, bits);
        // Exact conversions fold (APFloat::convert without `losesInfo`),
        // NaNs included when their payload survives.
        let exact = back == x || (x.is_nan() && back.to_bits() == x.to_bits());
        exact.then_some(bits)
    })
}

fn fold_bitcast(
    ctx: &mut Context,
    op: Operation,
    c: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let input = ctx.operand(op, 0);
    if ctx.value_type(input) == result_type(ctx, op) {
        return Some(vec![FoldResult::Value(input)]);
    }
    if let Some(r) = fold_cast_round_trip(ctx, op, BitcastOp::NAME) {
        return Some(r);
    }
    cast_fold(ctx, op, c, Some)
}

/// Register the arith dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut()
        .register_attr_parser("arith", parse_arith_attr);
    ctx.registry_mut()
        .register_constant_materializer("arith", materialize_constant);
    strata_ir::ods::register_dialect_ops(ctx, "arith");
}
