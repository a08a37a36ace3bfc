//! The folders of `arith` ops: the helpers they share and
//! `arith.constant`'s; the folders themselves are grouped by op family
//! (`int`, `float`, `cmp` with `select`, `cast`).

mod cast;
mod cmp;
mod float;
mod int;

// The folders, for the op declarations (`super::ops`).
pub(super) use cast::*;
pub(super) use cmp::*;
pub(super) use float::*;
pub(super) use int::*;

use strata_ir::attributes::AttrKind;
use strata_ir::dialect::FoldResult;
use strata_ir::ods::constraints::attr_type;
use strata_ir::{Attribute, Context, Location, Operation, Type, Value};

use crate::arith::ops::ConstantOp;
use crate::fold::{self, Consts, IntConst};

pub(super) fn fold_constant(
    ctx: &mut Context,
    op: Operation,
    _operands: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    ConstantOp(op).value(ctx).map(|v| vec![FoldResult::Attr(v)])
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
