//! Symbolic values of shape computations.
//!
//! Exported models compute shapes at run time: `Shape`, `Gather`,
//! `Unsqueeze`, `Concat`, arithmetic, then `Reshape` or `Expand`. The
//! elements of such small integer tensors are sizes, and most of them are
//! known symbolically: `shape_of` of a `tensor<?x?x768xf32, #graph.dims<batch,
//! seq>>` is `[batch, seq, 768]`. [`shape_value`] evaluates the ops of a
//! shape computation over [`Dim`]s, so that shape functions can use a
//! computed shape as if it were a constant one, and symbols flow through
//! the reshape.
//!
//! It looks only at the ops that define the value (up to [`MAX_DEPTH`] ops
//! up), never at run-time data, and gives up (`None`, or [`Dim::Unknown`]
//! for one element) wherever the value is not determined by types and
//! constants.

use strata_ir::types::{Signedness, TypeKind};
use strata_ir::{Context, Operation, Value};

use super::infer::{attr_i64, int_elements, operand_segments};
use super::shape::{shape_of, Dim};

/// How many defining ops [`shape_value`] follows up from a value.
pub const MAX_DEPTH: usize = 16;

/// How many values one [`shape_value`] call may visit in all: a bound on
/// the work for computations that share values (a DAG) or have many
/// operands.
const MAX_VISITS: usize = 256;

/// The most elements a shape value may have.
const MAX_ELEMENTS: usize = 64;

/// The elements of `value`, an integer tensor of rank 0 or 1 with at most
/// 64 elements, as sizes: `Known` for constants, `Sym` for symbolic sizes,
/// `Unknown` for elements nothing is known about. `None` when the value is
/// not such a tensor, or its producer is not a shape computation.
pub fn shape_value(ctx: &Context, value: Value) -> Option<Vec<Dim>> {
    let mut fuel = MAX_VISITS;
    eval(ctx, value, MAX_DEPTH, &mut fuel)
}

fn eval(ctx: &Context, value: Value, depth: usize, fuel: &mut usize) -> Option<Vec<Dim>> {
    *fuel = fuel.checked_sub(1)?;
    let (shape, elem) = shape_of(ctx, ctx.value_type(value))?;
    if !matches!(ctx.type_kind(elem), TypeKind::Integer { width, .. } if *width > 1) {
        return None;
    }
    let len = match shape.dims()? {
        [] => 1,
        [Dim::Known(n)] if (0..=MAX_ELEMENTS as i64).contains(n) => *n as usize,
        _ => return None,
    };
    let op = ctx.defining_op(value)?;
    if ctx.op_name_str(op) == "graph.constant" {
        let attr = strata_ir::ods::inherent_attr(ctx, op, "value")?;
        return Some(
            int_elements(ctx, attr)?
                .into_iter()
                .map(Dim::Known)
                .collect(),
        );
    }
    if depth == 0 {
        return None;
    }
    let out = eval_op(ctx, op, depth - 1, fuel)?;
    // A producer whose result disagrees with the declared length is not
    // trusted (its verifier reports the disagreement).
    if out.len() != len {
        return None;
    }
    // A static value outside the element type's range wraps at run time.
    let (lo, hi) = int_kind(ctx, value)?.range();
    Some(
        out.into_iter()
            .map(|d| match d.known() {
                Some(k) if i128::from(k) < lo || i128::from(k) > hi => Dim::Unknown,
                _ => d,
            })
            .collect(),
    )
}

/// The width and signedness of an integer tensor's elements.
#[derive(Clone, Copy)]
struct IntKind {
    width: u32,
    unsigned: bool,
}

impl IntKind {
    fn range(self) -> (i128, i128) {
        let w = self.width.min(64);
        if self.unsigned {
            (0, (1i128 << w) - 1)
        } else {
            (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
        }
    }
}

fn int_kind(ctx: &Context, value: Value) -> Option<IntKind> {
    let (_, elem) = shape_of(ctx, ctx.value_type(value))?;
    match ctx.type_kind(elem) {
        TypeKind::Integer { width, signedness } if *width > 1 => Some(IntKind {
            width: *width,
            unsigned: *signedness == Signedness::Unsigned,
        }),
        TypeKind::Index => Some(IntKind {
            width: 64,
            unsigned: false,
        }),
        _ => None,
    }
}

/// Every value of `from` is a value of `to`.
fn holds(to: IntKind, from: IntKind) -> bool {
    let ((tl, th), (fl, fh)) = (to.range(), from.range());
    tl <= fl && fh <= th
}

fn operand(
    ctx: &Context,
    op: Operation,
    i: usize,
    depth: usize,
    fuel: &mut usize,
) -> Option<Vec<Dim>> {
    eval(ctx, ctx.operands(op).nth(i)?, depth, fuel)
}

fn eval_op(ctx: &Context, op: Operation, depth: usize, fuel: &mut usize) -> Option<Vec<Dim>> {
    let name = ctx.op_name_str(op);
    match name {
        "graph.shape_of" => {
            let x = ctx.operands(op).next()?;
            let (shape, _) = shape_of(ctx, ctx.value_type(x))?;
            let dims = shape.dims()?;
            let r = dims.len() as i64;
            let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
            let start = clamp(attr_i64(ctx, op, "start").unwrap_or(0));
            let end = clamp(attr_i64(ctx, op, "end").unwrap_or(r));
            Some(dims.get(start..end.max(start))?.to_vec())
        }
        "graph.size" => {
            let x = ctx.operands(op).next()?;
            let (shape, _) = shape_of(ctx, ctx.value_type(x))?;
            Some(vec![shape.num_elements()])
        }
        // Same elements, another shape or integer type.
        "graph.identity" | "graph.reshape" | "graph.squeeze" | "graph.unsqueeze" => {
            operand(ctx, op, 0, depth, fuel)
        }
        "graph.cast" => {
            // Values the result type cannot hold wrap at run time: only
            // static ones in its range survive (see `eval`), and symbols
            // only through a cast that cannot narrow them.
            let input = ctx.operands(op).next()?;
            let widening = match (int_kind(ctx, input), ctx.results(op).next()) {
                (Some(from), Some(r)) => int_kind(ctx, r).is_some_and(|to| holds(to, from)),
                _ => false,
            };
            let v = operand(ctx, op, 0, depth, fuel)?;
            Some(if widening {
                v
            } else {
                v.into_iter()
                    .map(|d| if d.known().is_some() { d } else { Dim::Unknown })
                    .collect()
            })
        }
        "graph.concat" => {
            if attr_i64(ctx, op, "axis").unwrap_or(0) != 0 {
                return None;
            }
            let mut out = Vec::new();
            for v in ctx.operands(op) {
                out.extend(eval(ctx, v, depth, fuel)?);
            }
            Some(out)
        }
        "graph.gather" => {
            if attr_i64(ctx, op, "axis").unwrap_or(0) != 0 {
                return None;
            }
            let data = operand(ctx, op, 0, depth, fuel)?;
            let indices = operand(ctx, op, 1, depth, fuel)?;
            indices
                .iter()
                .map(|i| {
                    let i = i.known()?;
                    let i = if i < 0 { i + data.len() as i64 } else { i };
                    data.get(usize::try_from(i).ok()?).cloned()
                })
                .collect()
        }
        "graph.slice" => {
            let data = operand(ctx, op, 0, depth, fuel)?;
            slice_1d(&data, |group| match slice_operand(ctx, op, group) {
                None => Some(None),
                Some(v) => match eval(ctx, v, depth, fuel)?.as_slice() {
                    [one] => Some(Some(one.known()?)),
                    _ => None,
                },
            })
        }
        "graph.add" | "graph.sub" | "graph.mul" | "graph.div" | "graph.max" | "graph.min" => {
            let (a, b) = (
                operand(ctx, op, 0, depth, fuel)?,
                operand(ctx, op, 1, depth, fuel)?,
            );
            zip_broadcast(&a, &b, |x, y| combine(name, x, y))
        }
        // A fill of a known length (torch's `expand` computes its `-1`s
        // with one).
        "graph.constant_of_shape" => {
            let shape = operand(ctx, op, 0, depth, fuel)?;
            let n = shape
                .iter()
                .try_fold(1i64, |acc, d| acc.checked_mul(d.known()?))?;
            let n = usize::try_from(n).ok().filter(|&n| n <= MAX_ELEMENTS)?;
            let fill = strata_ir::ods::inherent_attr(ctx, op, "value")
                .and_then(|a| int_elements(ctx, a))
                .map_or(Some(0), |v| v.first().copied())?;
            Some(vec![Dim::Known(fill); n])
        }
        // `where(equal(s, c), a, s)`, as torch.onnx writes `expand`'s
        // target: the condition decided element by element.
        "graph.where" => {
            let mut ops = ctx.operands(op);
            let cond = equalities(ctx, ops.next()?, depth, fuel)?;
            let (a, b) = (
                operand(ctx, op, 1, depth, fuel)?,
                operand(ctx, op, 2, depth, fuel)?,
            );
            let n = cond.len().max(a.len()).max(b.len());
            let at = |v: &[Dim], i: usize| v.get(if v.len() == 1 { 0 } else { i }).cloned();
            let at_bool =
                |v: &[Option<bool>], i: usize| v.get(if v.len() == 1 { 0 } else { i }).copied();
            (0..n)
                .map(|i| match at_bool(&cond, i)? {
                    Some(true) => at(&a, i),
                    Some(false) => at(&b, i),
                    None => Some(Dim::Unknown),
                })
                .collect()
        }
        _ => None,
    }
}

/// The elements of the boolean `value` when it is an `equal` of two
/// sizes: `Some(true)` or `Some(false)` where the sizes decide it (a size
/// is never negative), `None` for an element they do not.
fn equalities(
    ctx: &Context,
    value: Value,
    depth: usize,
    fuel: &mut usize,
) -> Option<Vec<Option<bool>>> {
    let op = ctx.defining_op(value)?;
    if ctx.op_name_str(op) != "graph.equal" || depth == 0 {
        return None;
    }
    let (a, b) = (
        operand(ctx, op, 0, depth - 1, fuel)?,
        operand(ctx, op, 1, depth - 1, fuel)?,
    );
    zip_broadcast(&a, &b, |x, y| {
        let negative = |d: &Dim| d.known().is_some_and(|k| k < 0);
        if x.provably_eq(y) {
            Some(true)
        } else if x.provably_ne(y)
            || (matches!(x, Dim::Sym(_)) && negative(y))
            || (matches!(y, Dim::Sym(_)) && negative(x))
        {
            Some(false)
        } else {
            None
        }
    })
}

/// `f` over the elements of `a` and `b` (tensors of rank 0 or 1), a
/// one-element side broadcast to the other's length; `None` when the
/// lengths do not broadcast.
pub fn zip_broadcast<T>(
    a: &[Dim],
    b: &[Dim],
    mut f: impl FnMut(&Dim, &Dim) -> T,
) -> Option<Vec<T>> {
    let n = a.len().max(b.len());
    if !(a.len() == n || a.len() == 1) || !(b.len() == n || b.len() == 1) {
        return None;
    }
    let at = |v: &'_ [Dim], i: usize| if v.len() == 1 { 0 } else { i };
    Some((0..n).map(|i| f(&a[at(a, i)], &b[at(b, i)])).collect())
}

/// Operand group `group` of a `graph.slice` (0 its data, 1 `starts`,
/// 2 `ends`, 3 `axes`, 4 `steps`; `operandSegmentSizes` says which of the
/// last two are present), `None` when absent.
pub fn slice_operand(ctx: &Context, op: Operation, group: usize) -> Option<Value> {
    let index = match operand_segments(ctx, op) {
        Some(s) if s.get(group).copied().unwrap_or(0) == 0 => return None,
        Some(s) => s[..group].iter().sum(),
        None => group,
    };
    ctx.operands(op).nth(index)
}

/// The elements of a 1-D `graph.slice` of `data` along its only axis with
/// unit steps, `bound(group)` giving each bound group's one static value
/// (`Some(None)` when the group is absent, `None` when it is not one
/// known value); `None` for any other slice.
pub fn slice_1d(
    data: &[Dim],
    mut bound: impl FnMut(usize) -> Option<Option<i64>>,
) -> Option<Vec<Dim>> {
    let (start, end) = (bound(1)??, bound(2)??);
    if bound(3)?.is_some_and(|a| a != 0 && a != -1) || bound(4)?.is_some_and(|s| s != 1) {
        return None;
    }
    let n = data.len() as i64;
    let clamp = |v: i64| (if v < 0 { v + n } else { v }).clamp(0, n) as usize;
    let (start, end) = (clamp(start), clamp(end));
    Some(data.get(start..end.max(start))?.to_vec())
}

/// One element of an elementwise op on sizes.
fn combine(name: &str, a: &Dim, b: &Dim) -> Dim {
    if let (Dim::Known(x), Dim::Known(y)) = (a, b) {
        let r = match name {
            "graph.add" => x.checked_add(*y),
            "graph.sub" => x.checked_sub(*y),
            "graph.mul" => x.checked_mul(*y),
            // Integer division truncates toward zero.
            "graph.div" => x.checked_div(*y),
            "graph.max" => Some(*x.max(y)),
            _ => Some(*x.min(y)),
        };
        return r.map_or(Dim::Unknown, Dim::Known);
    }
    // `Dim::mul` and `Dim::div_exact` give up on negative factors, which
    // would not give sizes.
    match name {
        "graph.add" => a.add(b),
        "graph.sub" if *b == Dim::Known(0) => a.clone(),
        "graph.mul" => a.mul(b),
        "graph.div" => a.div_exact(b).unwrap_or(Dim::Unknown),
        _ => Dim::Unknown,
    }
}
