//! The `ub` dialect (MLIR's `UB`): undefined behavior made explicit. Its one
//! op, `ub.poison`, stands for a value that no defined program could
//! observe; passes that drop a computation whose result nobody uses (such as
//! `remove-dead-values`) put it where a value must still be passed.

use strata_ir::ods::constraints::{AnyAttr, AnyType};
use strata_ir::{op, Context};

/// Poisoned constant operation.
///
/// A value of any type with no defined contents: `ub.poison : i32`. Reading
/// it is not undefined behavior in itself, but anything computed from it is
/// poison too. (MLIR's optional `<#ub.poison>` value attribute is accepted in
/// the generic form only.)
#[op(
    "ub.poison",
    traits(Pure),
    format = "attr-dict (`<` $value^ `>`)? `:` type($result)"
)]
pub struct PoisonOp {
    value: OptionalAttr<AnyAttr>,
    result: Result<AnyType>,
}

/// Register the ub dialect.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "ub");
}
