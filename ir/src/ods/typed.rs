//! Typed handles of declared ops: matching a value's defining op or any
//! op as an op kind, and result-type inference for builders.

use crate::context::{Context, Operation};
use crate::ir::Value;

/// An op kind's typed handle (what `#[op]` declares, and
/// [`ModuleOp`](crate::ModuleOp)): a `Copy` wrapper of an [`Operation`]
/// of that kind.
pub trait TypedOp: Copy {
    /// The op's full name (`arith.addi`).
    const NAME: &'static str;

    /// `op` as this kind, if it is one.
    fn from_op(ctx: &Context, op: Operation) -> Option<Self>;

    /// The underlying operation.
    fn op(self) -> Operation;
}

impl Value {
    /// The op defining this value, as op kind `T`: `None` for a block
    /// argument or a result of another kind (MLIR's
    /// `value.getDefiningOp<T>()`).
    ///
    /// ```ignore
    /// if let Some(neg) = value.defining::<NegFOp>(ctx) {
    ///     let inner = neg.operand(ctx);
    /// }
    /// ```
    pub fn defining<T: TypedOp>(self, ctx: &Context) -> Option<T> {
        T::from_op(ctx, ctx.defining_op(self)?)
    }
}

impl Operation {
    /// This op as op kind `T`, if it is one (MLIR's `dyn_cast<T>(op)`).
    pub fn dyn_cast<T: TypedOp>(self, ctx: &Context) -> Option<T> {
        T::from_op(ctx, self)
    }

    /// Whether this op is of kind `T` (MLIR's `isa<T>(op)`).
    pub fn isa<T: TypedOp>(self, ctx: &Context) -> bool {
        ctx.op_name_str(self) == T::NAME
    }
}

/// Result types could not be inferred for an op being built
/// (`XOp::build_inferred`): the op's operands or attributes do not fit
/// its inference, which says why. No op is left behind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{op}' op {message}")]
pub struct InferError {
    /// The op's name.
    pub op: String,
    /// What the inference said.
    pub message: String,
}

impl InferError {
    /// An inference error of op `op`.
    pub fn new(op: impl Into<String>, message: impl Into<String>) -> Self {
        InferError {
            op: op.into(),
            message: message.into(),
        }
    }
}

/// Run the inference interface `infer` on `op`, created with placeholder
/// result types, and give the results the inferred types; on failure `op`
/// is erased. Used by the `build_inferred` that `#[op]` writes for ops with
/// an inferring interface.
pub fn infer_created(
    ctx: &mut Context,
    op: Operation,
    infer: &dyn crate::interfaces::InferResultTypes,
) -> Result<Operation, InferError> {
    let fail = |ctx: &mut Context, message: String| {
        let name = ctx.op_name_str(op).to_string();
        ctx.erase_op(op);
        Err(InferError::new(name, message))
    };
    let types = match infer.infer_result_types(ctx, op) {
        Ok(types) => types,
        Err(message) => return fail(ctx, message),
    };
    if types.len() != ctx.num_results(op) {
        let message = format!(
            "infers {} results, expected {}",
            types.len(),
            ctx.num_results(op)
        );
        return fail(ctx, message);
    }
    for (index, ty) in types.into_iter().enumerate() {
        let result = ctx.result(op, index);
        ctx.set_value_type(result, ty);
    }
    Ok(op)
}
