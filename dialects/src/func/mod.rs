//! The `func` dialect: functions, calls and returns (MLIR's `func`).
//!
//! As MLIR's `Dialect/Func/`: the op declarations are in `ops`, the custom
//! assembly form of `func.func` in `syntax`, and the verifiers (signatures,
//! returns against the enclosing function, calls against their callee) in
//! `verify`.

mod indirect;
mod ops;
pub(crate) mod syntax;
mod verify;

pub use ops::*;

use strata_ir::attributes::AttrKind;
use strata_ir::{Context, Operation, Type, TypeKind};

/// The inputs and results of a function type attribute.
pub fn function_signature(ctx: &Context, op: Operation) -> Option<(Vec<Type>, Vec<Type>)> {
    let attr = FuncOp(op).function_type(ctx)?;
    let AttrKind::Type(ty) = ctx.attr_kind(attr) else {
        return None;
    };
    match ctx.type_kind(*ty) {
        TypeKind::Function { inputs, results } => Some((inputs.clone(), results.clone())),
        _ => None,
    }
}

/// Register the func dialect.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "func");
    ctx.registry_mut()
        .register_constant_materializer("func", indirect::materialize_constant);
}
