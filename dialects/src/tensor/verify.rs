//! The verifiers of the `tensor` ops: counts, ranks and element types of
//! operands, maps and bodies, and (for static shapes) that every indexing
//! map stays in bounds of its input.

use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::{AttrKind, Block, Context, Diagnostic, Operation, Type, TypeKind, Value};

use crate::tensor::ops::{
    CheckIndicesOp, ContractOp, ExtractOp, FusionOp, GenericOp, IndexOp, MapOp, ReduceOp,
    ReshapeOp, YieldOp,
};
use crate::tensor::shape_of;

fn type_str(ctx: &Context, ty: Type) -> String {
    strata_ir::printer::type_to_string(ctx, ty)
}

fn err(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op_error(ctx, op, message)
}

/// The shape and element type of a ranked tensor type.
fn ranked(ctx: &Context, ty: Type) -> Option<(Vec<i64>, Type)> {
    match ctx.type_kind(ty) {
        TypeKind::RankedTensor { shape, element, .. } => Some((shape.clone(), *element)),
        _ => None,
    }
}

/// The entry block of `op`'s first region and the values its terminator
/// yields (when it is a `tensor.yield`).
fn body_parts(ctx: &Context, op: Operation) -> Option<(Block, Option<Vec<Value>>)> {
    let region = *ctx.op_regions(op).first()?;
    let block = ctx.region_entry_block(region)?;
    let yielded = ctx
        .block_last_op(block)
        .filter(|&t| ctx.op_name_str(t) == YieldOp::NAME)
        .map(|t| ctx.operands(t).collect());
    Some((block, yielded))
}

/// Checks the block arguments against `expected` (one type each; `what`
/// names argument `i` in messages).
fn check_block_args(
    ctx: &Context,
    op: Operation,
    block: Block,
    expected: &[Type],
    what: &dyn Fn(usize) -> String,
) -> Result<(), Diagnostic> {
    let args: Vec<Value> = ctx.block_args(block).collect();
    if args.len() != expected.len() {
        return Err(err(
            ctx,
            op,
            format!(
                "expected {} block arguments, but the body has {}",
                expected.len(),
                args.len()
            ),
        ));
    }
    for (i, (&arg, &ty)) in args.iter().zip(expected).enumerate() {
        let actual = ctx.value_type(arg);
        if actual != ty {
            return Err(err(
                ctx,
                op,
                format!(
                    "block argument #{i} has type '{}', but {} is '{}'",
                    type_str(ctx, actual),
                    what(i),
                    type_str(ctx, ty)
                ),
            ));
        }
    }
    Ok(())
}

/// Checks that the body yields exactly `expected`.
fn check_yield(
    ctx: &Context,
    op: Operation,
    yielded: Option<Vec<Value>>,
    expected: &[Type],
    what: &str,
) -> Result<(), Diagnostic> {
    let Some(yielded) = yielded else {
        return Err(err(
            ctx,
            op,
            "expects its body to end with a 'tensor.yield'",
        ));
    };
    if yielded.len() != expected.len() {
        return Err(err(
            ctx,
            op,
            format!(
                "expected the body to yield {} value(s), but it yields {}",
                expected.len(),
                yielded.len()
            ),
        ));
    }
    for (i, (&value, &ty)) in yielded.iter().zip(expected).enumerate() {
        let actual = ctx.value_type(value);
        if actual != ty {
            return Err(err(
                ctx,
                op,
                format!(
                    "yielded value #{i} has type '{}', but {what} is '{}'",
                    type_str(ctx, actual),
                    type_str(ctx, ty)
                ),
            ));
        }
    }
    Ok(())
}

/// The closed interval `[lo, hi]` an expression takes when each dim `k`
/// ranges over `[0, sizes[k] - 1]`; `Ok(None)` when a dim it uses is
/// dynamic. Errors name what cannot be bounded.
pub(crate) fn expr_range(expr: &AffineExpr, sizes: &[i64]) -> Result<Option<(i128, i128)>, String> {
    Ok(Some(match expr {
        AffineExpr::Dim(d) => match sizes.get(*d as usize) {
            Some(&s) if s >= 0 => (0, (s as i128 - 1).max(0)),
            Some(_) => return Ok(None),
            None => return Err(format!("uses d{d}, which is not a dim of the domain")),
        },
        AffineExpr::Symbol(_) => return Err("uses a symbol, which cannot be bounded".into()),
        AffineExpr::Constant(c) => (*c as i128, *c as i128),
        AffineExpr::Add(a, b) => {
            let (Some((alo, ahi)), Some((blo, bhi))) =
                (expr_range(a, sizes)?, expr_range(b, sizes)?)
            else {
                return Ok(None);
            };
            (alo + blo, ahi + bhi)
        }
        AffineExpr::Mul(a, b) => {
            let (Some((alo, ahi)), Some((blo, bhi))) =
                (expr_range(a, sizes)?, expr_range(b, sizes)?)
            else {
                return Ok(None);
            };
            let products = [alo * blo, alo * bhi, ahi * blo, ahi * bhi];
            let lo = products.iter().copied().min().unwrap_or(0);
            let hi = products.iter().copied().max().unwrap_or(0);
            (lo, hi)
        }
        AffineExpr::Mod(a, b) | AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) => {
            let Some(c) = b.as_constant().filter(|&c| c > 0) else {
                return Err(
                    "divides by a non-constant or non-positive value, which cannot be bounded"
                        .into(),
                );
            };
            let c = c as i128;
            let Some((lo, hi)) = expr_range(a, sizes)? else {
                return Ok(None);
            };
            match expr {
                AffineExpr::Mod(..) if hi - lo + 1 >= c || lo.rem_euclid(c) > hi.rem_euclid(c) => {
                    (0, c - 1)
                }
                AffineExpr::Mod(..) => (lo.rem_euclid(c), hi.rem_euclid(c)),
                AffineExpr::FloorDiv(..) => (lo.div_euclid(c), hi.div_euclid(c)),
                _ => (-((-lo).div_euclid(c)), -((-hi).div_euclid(c))),
            }
        }
    }))
}

/// Checks `maps[k]` against operand `k` of type `types[k]` over the domain
/// `sizes`: dims, symbols, result count, and bounds.
fn check_maps(
    ctx: &Context,
    op: Operation,
    maps: &[AffineMap],
    shapes: &[Vec<i64>],
    sizes: &[i64],
    what: &str,
) -> Result<(), Diagnostic> {
    let empty_domain = sizes.contains(&0);
    for (k, (map, shape)) in maps.iter().zip(shapes).enumerate() {
        if map.num_symbols != 0 {
            return Err(err(
                ctx,
                op,
                format!("indexing map #{k} must not have symbols"),
            ));
        }
        if map.num_dims as usize != sizes.len() {
            return Err(err(
                ctx,
                op,
                format!(
                    "indexing map #{k} has {} dims, but the iteration domain has rank {}",
                    map.num_dims,
                    sizes.len()
                ),
            ));
        }
        if map.results.len() != shape.len() {
            return Err(err(
                ctx,
                op,
                format!(
                    "indexing map #{k} has {} results, but {what} #{k} has rank {}",
                    map.results.len(),
                    shape.len()
                ),
            ));
        }
        for (j, (expr, &extent)) in map.results.iter().zip(shape).enumerate() {
            let range = expr_range(expr, sizes)
                .map_err(|m| err(ctx, op, format!("indexing map #{k} result #{j} {m}")))?;
            let Some((lo, hi)) = range else { continue };
            if empty_domain || extent < 0 {
                continue;
            }
            if lo < 0 || hi >= extent as i128 {
                return Err(err(
                    ctx,
                    op,
                    format!(
                        "indexing map #{k} result #{j} takes values in [{lo}, {hi}], out of bounds of dimension {j} of {what} #{k} (size {extent})"
                    ),
                ));
            }
        }
    }
    Ok(())
}

pub(super) fn verify_map(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let map_op = MapOp(op);
    let inputs = map_op.inputs(ctx);
    let maps = map_op.indexing_maps(ctx).unwrap_or_default();
    if maps.len() != inputs.len() {
        return Err(err(
            ctx,
            op,
            format!(
                "expected {} indexing maps (one per input), but found {}",
                inputs.len(),
                maps.len()
            ),
        ));
    }
    let Some((domain, result_element)) = ranked(ctx, ctx.value_type(map_op.result(ctx))) else {
        return Ok(());
    };
    let gathered = map_op.gathered(ctx).unwrap_or_default();
    for (i, &k) in gathered.iter().enumerate() {
        if k < 0 || k as usize >= inputs.len() {
            return Err(err(
                ctx,
                op,
                format!("gathered input #{k} is not an input of the op"),
            ));
        }
        if i > 0 && gathered[i - 1] >= k {
            return Err(err(ctx, op, "gathered inputs must be sorted and unique"));
        }
    }
    let mut shapes = Vec::new();
    let mut elements = Vec::new();
    for (k, &input) in inputs.iter().enumerate() {
        let Some((shape, element)) = ranked(ctx, ctx.value_type(input)) else {
            return Ok(());
        };
        if gathered.contains(&(k as i64)) {
            // Read whole: no map results, the block argument is the tensor.
            shapes.push(Vec::new());
            elements.push(ctx.value_type(input));
        } else {
            shapes.push(shape);
            elements.push(element);
        }
    }
    check_maps(ctx, op, &maps, &shapes, &domain, "input")?;
    let Some((block, yielded)) = body_parts(ctx, op) else {
        return Ok(());
    };
    check_block_args(ctx, op, block, &elements, &|i| {
        if gathered.contains(&(i as i64)) {
            format!("the type of gathered input #{i}")
        } else {
            format!("the element type of input #{i}")
        }
    })?;
    check_yield(
        ctx,
        op,
        yielded,
        &[result_element],
        "the result element type",
    )
}

pub(super) fn verify_extract(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let extract = ExtractOp(op);
    let Some(t) = extract.tensor(ctx) else {
        return Ok(());
    };
    let gathered_arg = ctx.op_parent_op(op).is_some_and(|p| {
        ctx.op_name_str(p) == MapOp::NAME
            && MapOp(p).body_block(ctx).is_some_and(|b| {
                let gathered = MapOp(p).gathered(ctx).unwrap_or_default();
                ctx.block_args(b)
                    .enumerate()
                    .any(|(k, a)| a == t && gathered.contains(&(k as i64)))
            })
    });
    if !gathered_arg {
        return Err(err(
            ctx,
            op,
            "expects its tensor to be a gathered input of the enclosing 'tensor.map'",
        ));
    }
    let Some((shape, element)) = ranked(ctx, ctx.value_type(t)) else {
        return Ok(());
    };
    if let Some(d) = shape.iter().position(|&n| n == 0) {
        return Err(err(
            ctx,
            op,
            format!("reads from an empty tensor (dimension {d} has size 0)"),
        ));
    }
    let n = extract.indices(ctx).len();
    if n != shape.len() {
        return Err(err(
            ctx,
            op,
            format!(
                "expected {} indices (the rank of the tensor), but found {n}",
                shape.len()
            ),
        ));
    }
    let result = ctx.value_type(extract.result(ctx));
    if result != element {
        return Err(err(
            ctx,
            op,
            format!(
                "result type '{}' is not the element type '{}'",
                type_str(ctx, result),
                type_str(ctx, element)
            ),
        ));
    }
    Ok(())
}

pub(super) fn verify_check_indices(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let check = CheckIndicesOp(op);
    let (sizes, axes) = (
        check.sizes(ctx).unwrap_or_default(),
        check.axes(ctx).unwrap_or_default(),
    );
    if sizes.is_empty() || sizes.len() != axes.len() {
        return Err(err(
            ctx,
            op,
            format!(
                "expects as many sizes as axes, at least one (got {} and {})",
                sizes.len(),
                axes.len()
            ),
        ));
    }
    if let Some(s) = sizes.iter().find(|&&s| s <= 0) {
        return Err(err(
            ctx,
            op,
            format!("has size {s}: indices into an empty dimension cannot be valid"),
        ));
    }
    let Some((shape, element)) = ranked(ctx, ctx.value_type(check.input(ctx))) else {
        return Ok(());
    };
    if !matches!(ctx.type_kind(element), TypeKind::Integer { .. }) {
        return Err(err(
            ctx,
            op,
            format!("expects integer indices, got '{}'", type_str(ctx, element)),
        ));
    }
    if sizes.len() > 1 && shape.last() != Some(&(sizes.len() as i64)) {
        return Err(err(
            ctx,
            op,
            format!(
                "has {} sizes, but the last dimension of its input is not {0}",
                sizes.len()
            ),
        ));
    }
    Ok(())
}

pub(super) fn verify_index(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let dim = IndexOp(op).dim(ctx).unwrap_or_default();
    let parent = ctx
        .op_parent_op(op)
        .filter(|&p| matches!(ctx.op_name_str(p), MapOp::NAME | GenericOp::NAME));
    let Some(parent) = parent else {
        return Err(err(
            ctx,
            op,
            "expects to be inside a 'tensor.map' or 'tensor.generic' body",
        ));
    };
    let rank = if ctx.op_name_str(parent) == GenericOp::NAME {
        GenericOp(parent).iterator_types(ctx).map_or(0, |t| t.len())
    } else {
        shape_of(ctx, ctx.result(parent, 0)).map_or(0, |s| s.len())
    };
    if dim < 0 || dim as usize >= rank {
        return Err(err(
            ctx,
            op,
            format!("dimension {dim} is out of bounds of the iteration domain of rank {rank}"),
        ));
    }
    Ok(())
}

pub(super) fn verify_reduce(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let reduce = ReduceOp(op);
    let dims = reduce.dimensions(ctx).unwrap_or_default();
    let (Some((shape, element)), Some((result_shape, result_element))) = (
        ranked(ctx, ctx.value_type(reduce.input(ctx))),
        ranked(ctx, ctx.value_type(reduce.result(ctx))),
    ) else {
        return Ok(());
    };
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d as usize >= shape.len() {
            return Err(err(
                ctx,
                op,
                format!(
                    "dimension {d} is out of bounds of the input of rank {}",
                    shape.len()
                ),
            ));
        }
        if i > 0 && dims[i - 1] >= d {
            return Err(err(ctx, op, "dimensions must be sorted and unique"));
        }
    }
    if result_element != element {
        return Err(err(
            ctx,
            op,
            format!(
                "result element type '{}' does not match the input element type '{}'",
                type_str(ctx, result_element),
                type_str(ctx, element)
            ),
        ));
    }
    let kept: Vec<i64> = shape
        .iter()
        .enumerate()
        .filter(|(i, _)| !dims.contains(&(*i as i64)))
        .map(|(_, &s)| s)
        .collect();
    if kept != result_shape {
        return Err(err(
            ctx,
            op,
            format!(
                "result shape [{}] is not the input shape [{}] without dimensions {dims:?}",
                join(&result_shape),
                join(&shape)
            ),
        ));
    }
    if let Some(init) = reduce.init_attr(ctx) {
        let init_ty = match ctx.attr_kind(init) {
            AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => Some(*ty),
            _ => None,
        };
        if init_ty != Some(element) {
            return Err(err(
                ctx,
                op,
                format!(
                    "init must be an integer or float attribute of the element type '{}'",
                    type_str(ctx, element)
                ),
            ));
        }
    }
    let Some((block, yielded)) = body_parts(ctx, op) else {
        return Ok(());
    };
    check_block_args(ctx, op, block, &[element, element], &|i| {
        if i == 0 {
            "the input element type"
        } else {
            "the accumulator type"
        }
        .to_string()
    })?;
    check_yield(ctx, op, yielded, &[element], "the accumulator type")
}

fn join(shape: &[i64]) -> String {
    shape
        .iter()
        .map(|&s| {
            if s < 0 {
                "?".to_string()
            } else {
                s.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn verify_contract(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let contract = ContractOp(op);
    let maps = contract.indexing_maps(ctx).unwrap_or_default();
    if maps.len() != 3 {
        return Err(err(
            ctx,
            op,
            format!(
                "expected 3 indexing maps (lhs, rhs, output), but found {}",
                maps.len()
            ),
        ));
    }
    let values = [contract.lhs(ctx), contract.rhs(ctx), contract.result(ctx)];
    let mut shapes = Vec::new();
    let mut elements = Vec::new();
    for &v in &values {
        let Some((shape, element)) = ranked(ctx, ctx.value_type(v)) else {
            return Ok(());
        };
        shapes.push(shape);
        elements.push(element);
    }
    if elements[0] != elements[1] || elements[0] != elements[2] {
        return Err(err(
            ctx,
            op,
            "lhs, rhs and result must have the same element type",
        ));
    }
    let num_dims = maps[0].num_dims;
    for (k, map) in maps.iter().enumerate() {
        if map.num_dims != num_dims || map.num_symbols != 0 {
            return Err(err(
                ctx,
                op,
                "indexing maps must have the same number of dims and no symbols",
            ));
        }
        let mut seen = Vec::new();
        for e in &map.results {
            match e {
                AffineExpr::Dim(d) if !seen.contains(d) => seen.push(*d),
                _ => {
                    return Err(err(
                        ctx,
                        op,
                        format!("indexing map #{k} must be a projected permutation"),
                    ))
                }
            }
        }
        if map.results.len() != shapes[k].len() {
            return Err(err(
                ctx,
                op,
                format!(
                    "indexing map #{k} has {} results, but operand #{k} has rank {}",
                    map.results.len(),
                    shapes[k].len()
                ),
            ));
        }
    }
    domain_sizes(&maps, &shapes).map_err(|m| err(ctx, op, m))?;
    Ok(())
}

/// The size of each domain dim of a structured op (a contraction, a
/// `tensor.generic`) from its maps and operand shapes (`-1`... as the types say:
/// `strata_ir::types::DYNAMIC` for a dynamic one), checked to agree
/// wherever the dim appears.
pub fn domain_sizes(maps: &[AffineMap], shapes: &[Vec<i64>]) -> Result<Vec<i64>, String> {
    let num_dims = maps.first().map_or(0, |m| m.num_dims as usize);
    let mut sizes: Vec<Option<(i64, usize)>> = vec![None; num_dims];
    for (k, (map, shape)) in maps.iter().zip(shapes).enumerate() {
        for (e, &extent) in map.results.iter().zip(shape) {
            let AffineExpr::Dim(d) = e else { continue };
            let Some(slot) = sizes.get_mut(*d as usize) else {
                continue;
            };
            match *slot {
                Some((s, first)) if s >= 0 && extent >= 0 && s != extent => {
                    return Err(format!(
                        "domain dim d{d} has size {s} in operand #{first}, but size {extent} in operand #{k}"
                    ))
                }
                Some((s, _)) if s >= 0 => {}
                _ => *slot = Some((extent, k)),
            }
        }
    }
    sizes
        .iter()
        .enumerate()
        .map(|(d, s)| {
            s.map(|(s, _)| s)
                .ok_or(format!("domain dim d{d} appears in no indexing map"))
        })
        .collect()
}

pub(super) fn verify_reshape(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let reshape = ReshapeOp(op);
    let (Some((from, a)), Some((to, b))) = (
        ranked(ctx, ctx.value_type(reshape.source(ctx))),
        ranked(ctx, ctx.value_type(reshape.result(ctx))),
    ) else {
        return Ok(());
    };
    if a != b {
        return Err(err(
            ctx,
            op,
            "source and result must have the same element type",
        ));
    }
    if from.iter().chain(&to).all(|&s| s >= 0) {
        let (n, m) = (
            strata_ir::types::num_elements(&from),
            strata_ir::types::num_elements(&to),
        );
        if n != m {
            return Err(err(
                ctx,
                op,
                format!("source has {n} elements, but the result has {m}"),
            ));
        }
    }
    Ok(())
}

pub(super) fn verify_fusion(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let fusion = FusionOp(op);
    let inputs: Vec<Type> = fusion
        .inputs(ctx)
        .iter()
        .map(|&v| ctx.value_type(v))
        .collect();
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    let Some((block, yielded)) = body_parts(ctx, op) else {
        return Ok(());
    };
    check_block_args(ctx, op, block, &inputs, &|i| {
        format!("the type of input #{i}")
    })?;
    check_yield(ctx, op, yielded, &results, "the result type")
}

pub(super) fn verify_yield(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let parent = ctx.op_parent_op(op).map(|p| ctx.op_name_str(p));
    match parent {
        Some(MapOp::NAME | ReduceOp::NAME | GenericOp::NAME | FusionOp::NAME) => Ok(()),
        _ => Err(err(
            ctx,
            op,
            "expects parent op to be one of 'tensor.map, tensor.reduce, tensor.generic, tensor.fusion'",
        )),
    }
}

pub(super) fn verify_generic(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let g = GenericOp(op);
    let maps = g.indexing_maps(ctx).unwrap_or_default();
    let reduction = g.iterator_types(ctx).unwrap_or_default();
    let inputs: Vec<Value> = g.inputs(ctx);
    let init = g.init(ctx);
    let result = g.result(ctx);
    if maps.len() != inputs.len() + 1 {
        return Err(err(
            ctx,
            op,
            format!(
                "expected {} indexing maps (one per input and one for the result), but found {}",
                inputs.len() + 1,
                maps.len()
            ),
        ));
    }
    let rank = reduction.len();
    if let Some((k, _)) = maps
        .iter()
        .enumerate()
        .find(|(_, m)| m.num_dims as usize != rank || m.num_symbols != 0)
    {
        return Err(err(
            ctx,
            op,
            format!("indexing map #{k} must have {rank} dims (one per iterator) and no symbols"),
        ));
    }
    if init.is_none() && reduction.iter().any(|&r| r) {
        return Err(err(
            ctx,
            op,
            "reduction iterators need an init operand (`outs`)",
        ));
    }
    if let Some(i) = init {
        if ctx.value_type(i) != ctx.value_type(result) {
            return Err(err(ctx, op, "init and result must have the same type"));
        }
    }
    // The result map: a projected permutation of exactly the parallel dims.
    let out = &maps[inputs.len()];
    let mut seen = Vec::new();
    for e in &out.results {
        match e {
            AffineExpr::Dim(d) if !seen.contains(d) && !reduction[*d as usize] => seen.push(*d),
            _ => return Err(err(
                ctx,
                op,
                "the result's indexing map must be a projected permutation of the parallel dims",
            )),
        }
    }
    if seen.len() != reduction.iter().filter(|&&r| !r).count() {
        return Err(err(
            ctx,
            op,
            "the result's indexing map must use every parallel dim",
        ));
    }
    let mut shapes = Vec::new();
    let mut elements = Vec::new();
    for &v in inputs.iter().chain(std::iter::once(&result)) {
        let Some((shape, element)) = ranked(ctx, ctx.value_type(v)) else {
            return Ok(());
        };
        shapes.push(shape);
        elements.push(element);
    }
    for (k, (map, shape)) in maps.iter().zip(&shapes).enumerate() {
        if map.results.len() != shape.len() {
            return Err(err(
                ctx,
                op,
                format!(
                    "indexing map #{k} has {} results, but operand #{k} has rank {}",
                    map.results.len(),
                    shape.len()
                ),
            ));
        }
    }
    let sizes = domain_sizes(&maps, &shapes).map_err(|m| err(ctx, op, m))?;
    check_maps(ctx, op, &maps, &shapes, &sizes, "operand")?;
    let Some((block, yielded)) = body_parts(ctx, op) else {
        return Ok(());
    };
    let result_element = elements[inputs.len()];
    let mut args = elements[..inputs.len()].to_vec();
    if init.is_some() {
        args.push(result_element);
    }
    let n = inputs.len();
    check_block_args(ctx, op, block, &args, &|i| {
        if i < n {
            format!("the element type of input #{i}")
        } else {
            "the accumulator type".to_string()
        }
    })?;
    check_yield(
        ctx,
        op,
        yielded,
        &[result_element],
        "the result element type",
    )
}
