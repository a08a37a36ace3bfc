//! The `#[op]` declarations of `cf`: `assert`, `br`, `cond_br` and
//! `switch`.

use strata_ir::attributes::AttrKind;
use strata_ir::ods::constraints::{AnyType, StrAttr, I1};
use strata_ir::{attr_constraint, op, type_constraint, TypeKind};

use super::canonicalize::{assert_patterns, br_patterns, cond_br_patterns, switch_patterns};
use super::syntax::{parse_switch, print_switch};
use super::verify::{
    br_erase_operand, br_operands, br_taken, cond_br_erase_operand, cond_br_operands,
    cond_br_taken, switch_erase_operand, switch_operands, switch_taken, verify_br, verify_cond_br,
    verify_switch,
};
use strata_ir::interfaces::Branch;

type_constraint!(
    /// An integer of any width and signedness.
    AnyInteger, "integer", |ctx, ty| matches!(ctx.type_kind(ty), TypeKind::Integer { .. })
);

attr_constraint!(
    /// Integer elements (a `dense<...>` of an integer type).
    AnyIntElementsAttr, "integer elements attribute", strata_ir::ods::AttrSyntax::Generic, |ctx, attr| matches!(
        ctx.attr_kind(attr),
        AttrKind::DenseElements { ty, .. }
            if ctx.type_kind(*ty).element_type().is_some_and(|e| matches!(ctx.type_kind(e), TypeKind::Integer { .. }))
    )
);

attr_constraint!(
    /// An `i32` dense array (branch weights).
    DenseI32ArrayAttr, "i32 dense array attribute", strata_ir::ods::AttrSyntax::IntArray(|ctx| ctx.integer_type(32)), |ctx, attr| matches!(
        ctx.attr_kind(attr),
        AttrKind::DenseArray { element, .. }
            if matches!(ctx.type_kind(*element), TypeKind::Integer { width: 32, .. })
    )
);

/// Assert operation with message attribute.
///
/// At run time, aborts with `msg` unless `arg` is true.
#[op("cf.assert",
     format = "$arg `,` $msg attr-dict",
     canonicalize = assert_patterns)]
pub struct AssertOp {
    arg: Operand<I1>,
    msg: Attr<StrAttr>,
}

/// Branch operation.
///
/// Jumps to `dest`, passing `destOperands` as its block arguments.
#[op("cf.br",
     traits(Pure, Terminator),
     format = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
     verify = verify_br,
     canonicalize = br_patterns,
     interfaces(Branch { successor_operands: br_operands, taken_successor: br_taken, erase_successor_operand: br_erase_operand }))]
pub struct BranchOp {
    destOperands: Variadic<AnyType>,
    dest: Successor,
}

/// Conditional branch operation.
///
/// Jumps to `trueDest` with `trueDestOperands` if `condition` is set, else
/// to `falseDest` with `falseDestOperands` (the two may be the same block).
#[op("cf.cond_br",
     traits(Pure, Terminator),
     format = "$condition (`weights` `(` $branch_weights^ `)` )? `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
     verify = verify_cond_br,
     canonicalize = cond_br_patterns,
     interfaces(Branch { successor_operands: cond_br_operands, taken_successor: cond_br_taken, erase_successor_operand: cond_br_erase_operand }))]
pub struct CondBranchOp {
    condition: Operand<I1>,
    trueDestOperands: Variadic<AnyType>,
    falseDestOperands: Variadic<AnyType>,
    branch_weights: OptionalAttr<DenseI32ArrayAttr>,
    trueDest: Successor,
    falseDest: Successor,
}

/// Switch operation.
///
/// Jumps to the case destination whose value equals `flag`, with that
/// case's operands, or to `defaultDestination` with `defaultOperands`.
/// `case_operand_segments` says how many of `caseOperands` each case
/// takes, in order.
#[op("cf.switch",
     traits(Pure, Terminator),
     parse = parse_switch,
     print = print_switch,
     verify = verify_switch,
     canonicalize = switch_patterns,
     interfaces(Branch { successor_operands: switch_operands, taken_successor: switch_taken, erase_successor_operand: switch_erase_operand }))]
pub struct SwitchOp {
    flag: Operand<AnyInteger>,
    defaultOperands: Variadic<AnyType>,
    caseOperands: Variadic<AnyType>,
    case_values: OptionalAttr<AnyIntElementsAttr>,
    case_operand_segments: Attr<DenseI32ArrayAttr>,
    defaultDestination: Successor,
    caseDestinations: VariadicSuccessor,
}
