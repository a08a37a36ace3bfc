//! The `tensor` dialect: strata's structured ops on value-semantic tensors.
//!
//! These are strata's own ops, in the style of Linalg, on builtin `tensor`
//! types (not MLIR's upstream `tensor` dialect): `tensor.map` (elementwise
//! over an iteration domain with affine indexing maps), `tensor.reduce`,
//! `tensor.contract`, the view `tensor.reshape`, `tensor.index` inside map
//! bodies, the fusion group `tensor.fusion`, and `tensor.yield`. Tensor
//! constants are builtin `arith.constant dense<...>`. `convert-graph-to-tensor`
//! produces these ops and `convert-tensor-to-kernel` consumes them.

mod build;
mod ops;
mod verify;

pub use build::{affine_map_array, reduced_type};
pub use ops::*;
pub use verify::domain_sizes;

use strata_ir::{Context, Value};

/// The shape of a ranked tensor value, `None` for any other type.
pub fn shape_of(ctx: &Context, value: Value) -> Option<Vec<i64>> {
    match ctx.type_kind(ctx.value_type(value)) {
        strata_ir::TypeKind::RankedTensor { shape, .. } => Some(shape.clone()),
        _ => None,
    }
}

/// The interval of values `expr` takes when each dim `d<k>` ranges over
/// `0..sizes[k]`: `Ok(None)` when it depends on a dynamic size, an error
/// for what cannot be bounded (symbols, division by a non-constant).
pub fn affine_expr_range(
    expr: &strata_ir::affine::AffineExpr,
    sizes: &[i64],
) -> Result<Option<(i128, i128)>, String> {
    verify::expr_range(expr, sizes)
}

/// Register the tensor dialect.
pub fn register(ctx: &mut Context) {
    ctx.registry_mut().register_dialect("tensor");
    strata_ir::ods::register_dialect_ops(ctx, "tensor");
}
