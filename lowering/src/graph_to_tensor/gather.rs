//! `gather`, `gather_elements` and `gather_nd` as a `tensor.map` over the result whose
//! data input is gathered: the body reads the index (made non-negative as
//! ONNX defines: `i < 0` reads `i + size`) and `tensor.extract`s the data
//! element at it; the other coordinates are `tensor.index` values. The
//! indices are checked first (`tensor.check_indices`): an index out of
//! range stops the run with eager mode's message, so `tensor.extract`'s
//! clamp never changes a result.

use strata_dialects::graph as g;
use strata_dialects::tensor::MapOp;
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::{Attribute, Context, Operation, Type, Value};

use super::movement::index;
use super::scalar::{cmpi, Scalar};
use super::{element_of, shape, static_type, Plan};

/// The data index at `axis` from the integer `i`: `i + size` when
/// negative, as an `index`.
fn axis_index(s: &mut Scalar<'_>, i: Value, size: i64) -> Value {
    let ty = s.ctx.value_type(i);
    let zero = s.int(ty, 0);
    let n = s.int(ty, i128::from(size));
    let neg = s.cmp(cmpi::SLT, i, zero);
    let up = s.bin("arith.addi", i, n);
    let v = s.select(neg, up, i);
    let index_type = s.ctx.index_type();
    s.op("arith.index_cast", &[v], &[], index_type)
}

/// Inserts before `op` a `tensor.check_indices` of its indices (its
/// operand #1) and returns the checked value. Entry `k` of an index tuple
/// is checked against `sizes[k]` and reported as an index into data
/// dimension `axes[k]`, in the words of eager mode's `kernel` (`gather`,
/// `gather_elements`, `gather_nd`).
pub(super) fn check_indices(
    ctx: &mut Context,
    op: Operation,
    sizes: &[i64],
    axes: &[i64],
    kernel: &str,
    dim_word: &str,
) -> Value {
    let indices = ctx.operand(op, 1);
    let loc = ctx.op_loc(op);
    let message = format!(
        "'{}' op {kernel}: invalid argument: index {{index}} is out of range for {dim_word} {{axis}} of size {{size}}",
        ctx.op_name_str(op)
    );
    let i64t = ctx.integer_type(64);
    let list = |ctx: &mut Context, values: &[i64]| -> Attribute {
        let items = values
            .iter()
            .map(|&v| ctx.integer_attr(i64t, i128::from(v)))
            .collect();
        ctx.array_attr(items)
    };
    let (sizes, axes) = (list(ctx, sizes), list(ctx, axes));
    let message = ctx.string_attr(&message);
    let ty = ctx.value_type(indices);
    let check =
        strata_dialects::tensor::CheckIndicesOp::build(ctx, loc, indices, sizes, axes, message, ty);
    ctx.insert_op_before(op, check.op());
    check.result(ctx)
}

/// Inserts before `op` the gathering map: `data` gathered, `indices` read
/// through `index_map`; `coords(s, idx)` gives the data coordinates from
/// the adjusted index.
fn gather_map<F>(
    ctx: &mut Context,
    op: Operation,
    indices: Value,
    ty: Type,
    index_map: AffineMap,
    element: Type,
    coords: F,
) -> Value
where
    F: FnOnce(&mut Scalar<'_>, Value) -> Vec<Value>,
{
    let data = ctx.operand(op, 0);
    let rank = shape(ctx, ty).len() as u32;
    let maps = [AffineMap::new(rank, 0, Vec::new()), index_map];
    let loc = ctx.op_loc(op);
    let map = MapOp::build_gathered(
        ctx,
        loc,
        &[data, indices],
        &maps,
        &[0],
        ty,
        |ctx, block, args| {
            let mut s = Scalar { ctx, block, loc };
            let mut operands = vec![args[0]];
            operands.extend(coords(&mut s, args[1]));
            s.op("tensor.extract", &operands, &[], element)
        },
    );
    ctx.insert_op_before(op, map.op());
    map.result(ctx)
}

fn axis_of(a: i64, rank: usize) -> Result<usize, String> {
    let n = if a < 0 { a + rank as i64 } else { a };
    usize::try_from(n)
        .ok()
        .filter(|&n| n < rank)
        .ok_or(format!("has axis {a} out of range for rank {rank}"))
}

pub(super) fn plan_gather(
    ctx: &mut Context,
    op: Operation,
    elements: bool,
) -> Result<Plan, String> {
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    let data_shape = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    let q = shape(ctx, ctx.value_type(ctx.operand(op, 1))).len();
    let rank = data_shape.len();
    let axis_attr = if elements {
        g::GatherElementsOp(op).axis(ctx)
    } else {
        g::GatherOp(op).axis(ctx)
    };
    let axis = axis_of(axis_attr, rank)?;
    if data_shape[axis] == 0 {
        return Err("gathers from an empty dimension".into());
    }
    let out_rank = shape(ctx, ty).len();
    let size = data_shape[axis];
    let index_map = if elements {
        AffineMap::identity(out_rank as u32)
    } else {
        let results = (axis..axis + q)
            .map(|d| AffineExpr::Dim(d as u32))
            .collect();
        AffineMap::new(out_rank as u32, 0, results)
    };
    let (kernel, dim_word) = if elements {
        ("gather_elements", "dimension")
    } else {
        ("gather", "dim")
    };
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let indices = check_indices(ctx, op, &[size], &[axis as i64], kernel, dim_word);
        vec![gather_map(
            ctx,
            op,
            indices,
            ty,
            index_map,
            element,
            |s, i| {
                let at = axis_index(s, i, size);
                (0..rank)
                    .map(|d| match d {
                        _ if d == axis => at,
                        _ if elements || d < axis => index(s, d),
                        _ => index(s, d - 1 + q),
                    })
                    .collect()
            },
        )]
    }))
}

/// `gather_nd`: both inputs gathered; each result element reads its index
/// tuple (the last dimension of `indices` at the result's leading
/// coordinates), each entry made non-negative, and extracts the data
/// element there. The first `batch_dims` coordinates are shared by data,
/// indices and result; the data's dimensions after the tuple's are the
/// result's last ones.
pub(super) fn plan_gather_nd(ctx: &mut Context, op: Operation) -> Result<Plan, String> {
    let ty = static_type(ctx, ctx.result(op, 0))?;
    let element = element_of(ctx, ty).ok_or("has no element type")?;
    let data_shape = shape(ctx, ctx.value_type(ctx.operand(op, 0)));
    let index_type = ctx.value_type(ctx.operand(op, 1));
    let index_shape = shape(ctx, index_type);
    let index_element = element_of(ctx, index_type).ok_or("has no index element type")?;
    let batch = usize::try_from(g::GatherNdOp(op).batch_dims(ctx))
        .map_err(|_| "has a negative batch_dims")?;
    let q = index_shape.len();
    let tuple = match index_shape.last() {
        Some(&k) => usize::try_from(k).map_err(|_| "has a dynamic index tuple")?,
        None => return Err("has 0-D indices".into()),
    };
    if batch + tuple > data_shape.len() || batch >= q {
        return Err(format!(
            "has index tuples of {tuple} after {batch} batch dimensions for data of rank {}",
            data_shape.len()
        ));
    }
    if data_shape[batch..batch + tuple].contains(&0) {
        return Err("gathers from an empty dimension".into());
    }
    let out_rank = shape(ctx, ty).len() as u32;
    let loc = ctx.op_loc(op);
    let sizes = data_shape[batch..batch + tuple].to_vec();
    let axes: Vec<i64> = (batch..batch + tuple).map(|d| d as i64).collect();
    Ok(Box::new(move |ctx: &mut Context, op: Operation| {
        let indices = match sizes.is_empty() {
            true => ctx.operand(op, 1), // empty tuples: no index to check
            false => check_indices(ctx, op, &sizes, &axes, "gather_nd", "dimension"),
        };
        let data = ctx.operand(op, 0);
        let maps = [(); 2].map(|()| AffineMap::new(out_rank, 0, Vec::new()));
        let map = MapOp::build_gathered(
            ctx,
            loc,
            &[data, indices],
            &maps,
            &[0, 1],
            ty,
            |ctx, block, args| {
                let mut s = Scalar { ctx, block, loc };
                let lead: Vec<Value> = (0..q - 1).map(|d| index(&mut s, d)).collect();
                let index_ty = s.ctx.index_type();
                let mut operands = vec![args[0]];
                operands.extend(lead.iter().take(batch).copied());
                for (k, &size) in data_shape[batch..batch + tuple].iter().enumerate() {
                    let at = s.int(index_ty, k as i128);
                    let mut read = vec![args[1]];
                    read.extend(lead.iter().copied());
                    read.push(at);
                    let i = s.op("tensor.extract", &read, &[], index_element);
                    operands.push(axis_index(&mut s, i, size));
                }
                for d in batch + tuple..data_shape.len() {
                    operands.push(index(&mut s, q - 1 + d - batch - tuple));
                }
                s.op("tensor.extract", &operands, &[], element)
            },
        );
        ctx.insert_op_before(op, map.op());
        vec![map.result(ctx)]
    }))
}
