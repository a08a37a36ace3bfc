//! The verifiers of `kernel`'s ops (the shapes and element types of tiles,
//! pointers and masks; launches against their kernel).

use strata_ir::float::FloatKind;
use strata_ir::printer::type_to_string;
use strata_ir::symbol_table::SymbolTableCollection;
use strata_ir::{AttrKind, Context, Diagnostic, Operation, OperationState, Type, TypeKind};

use crate::func::function_signature;
use crate::kernel::ops::{DotOp, ExpandDimsOp, KernelFuncOp, LaunchOp, RangeOp, ReduceOp};
use crate::kernel::syntax::value_type;
use crate::kernel::types::{element_of, is_ptr, points_to, tile_shape};

fn err(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op_error(ctx, op, message)
}

fn ty(ctx: &Context, t: Type) -> String {
    type_to_string(ctx, t)
}

fn operand_type(ctx: &Context, op: Operation, i: usize) -> Type {
    ctx.value_type(ctx.operand(op, i))
}

fn result_type(ctx: &Context, op: Operation) -> Type {
    ctx.value_type(ctx.result(op, 0))
}

pub(crate) fn verify_kernel_func(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let f = KernelFuncOp(op);
    let grid = f.grid(ctx);
    if !(1..=3).contains(&grid) {
        return Err(err(
            ctx,
            op,
            format!("grid rank must be 1, 2 or 3, got {grid}"),
        ));
    }
    let warps = f.num_warps(ctx);
    if !(1..=32).contains(&warps) || warps & (warps - 1) != 0 {
        return Err(err(
            ctx,
            op,
            format!("num_warps must be a power of two from 1 to 32, got {warps}"),
        ));
    }
    let Some((inputs, results)) = function_signature(ctx, op) else {
        return Ok(());
    };
    if !results.is_empty() {
        return Err(err(ctx, op, "a kernel returns no results; it stores them"));
    }
    for (i, &t) in inputs.iter().enumerate() {
        let scalar = matches!(
            ctx.type_kind(t),
            TypeKind::Integer { .. } | TypeKind::Float(_) | TypeKind::Index
        );
        if !scalar && !is_ptr(ctx, t) {
            return Err(err(
                ctx,
                op,
                format!(
                    "parameter #{i} must be a pointer or an integer or float scalar, got '{}'",
                    ty(ctx, t)
                ),
            ));
        }
    }
    if let Some(entry) = f.body(ctx).and_then(|r| ctx.region_entry_block(r)) {
        let args: Vec<Type> = ctx.block_args(entry).map(|v| ctx.value_type(v)).collect();
        if args != inputs {
            return Err(err(
                ctx,
                op,
                "the entry block's arguments must match the kernel's parameters",
            ));
        }
    }
    Ok(())
}

pub(crate) fn verify_return(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    match ctx.op_parent_op(op) {
        Some(p) if ctx.op_name_str(p) == KernelFuncOp::NAME => Ok(()),
        _ => Err(err(ctx, op, "expects parent op 'kernel.func'")),
    }
}

pub(crate) fn verify_range(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let r = RangeOp(op);
    let (start, end) = (r.start(ctx).unwrap_or(0), r.end(ctx).unwrap_or(0));
    if end <= start {
        return Err(err(
            ctx,
            op,
            format!("expects end > start, got {start}, {end}"),
        ));
    }
    let out = result_type(ctx, op);
    let shape = tile_shape(ctx, out);
    let element = element_of(ctx, out);
    let i32_ok = matches!(ctx.type_kind(element), TypeKind::Integer { width: 32, .. });
    if shape != [i64::from(end) - i64::from(start)] || !i32_ok {
        return Err(err(
            ctx,
            op,
            format!(
                "result must be tensor<{}xi32>, got '{}'",
                i64::from(end) - i64::from(start),
                ty(ctx, out)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_splat(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let src = operand_type(ctx, op, 0);
    let out = result_type(ctx, op);
    if matches!(ctx.type_kind(src), TypeKind::RankedTensor { .. }) || element_of(ctx, out) != src {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a scalar of the result's element type, got '{}' for '{}'",
                ty(ctx, src),
                ty(ctx, out)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_broadcast(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let (src, out) = (operand_type(ctx, op, 0), result_type(ctx, op));
    let (a, b) = (tile_shape(ctx, src), tile_shape(ctx, out));
    let ok = element_of(ctx, src) == element_of(ctx, out)
        && a.len() == b.len()
        && a.iter().zip(&b).all(|(&x, &y)| x == y || x == 1);
    if !ok {
        return Err(err(
            ctx,
            op,
            format!("cannot broadcast '{}' to '{}'", ty(ctx, src), ty(ctx, out)),
        ));
    }
    Ok(())
}

pub(crate) fn verify_expand_dims(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let (src, out) = (operand_type(ctx, op, 0), result_type(ctx, op));
    let mut shape = tile_shape(ctx, src);
    let axis = ExpandDimsOp(op).axis(ctx).unwrap_or(0);
    if axis < 0 || axis as usize > shape.len() {
        return Err(err(ctx, op, format!("axis {axis} is out of range")));
    }
    shape.insert(axis as usize, 1);
    if shape != tile_shape(ctx, out) || element_of(ctx, src) != element_of(ctx, out) {
        return Err(err(
            ctx,
            op,
            format!(
                "result must be '{}' with a 1 inserted at {axis}",
                ty(ctx, src)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_convert_layout(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let (src, out) = (operand_type(ctx, op, 0), result_type(ctx, op));
    if tile_shape(ctx, src) != tile_shape(ctx, out) || element_of(ctx, src) != element_of(ctx, out)
    {
        return Err(err(
            ctx,
            op,
            format!(
                "converts '{}' to '{}': the shape and element type must stay",
                ty(ctx, src),
                ty(ctx, out)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_addptr(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let (ptr, offset) = (operand_type(ctx, op, 0), operand_type(ctx, op, 1));
    let layout = crate::kernel::types::encoding_of;
    if tile_shape(ctx, ptr) != tile_shape(ctx, offset)
        || ctx.type_kind(ptr).shape().is_some() != ctx.type_kind(offset).shape().is_some()
        || layout(ctx, ptr) != layout(ctx, offset)
    {
        return Err(err(
            ctx,
            op,
            format!(
                "offsets '{}' must have the shape (and layout) of the pointers '{}'",
                ty(ctx, offset),
                ty(ctx, ptr)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn infer_load(ctx: &mut Context, state: &OperationState) -> Result<Vec<Type>, String> {
    let Some(&ptr) = state.operands.first() else {
        return Err("expected a pointer operand".into());
    };
    let t = ctx.value_type(ptr);
    value_type(ctx, t)
        .map(|v| vec![v])
        .ok_or_else(|| "expected a pointer type".into())
}

/// The checks `load` and `store` share: the value and the mask are shaped
/// as the pointers.
fn check_access(
    ctx: &Context,
    op: Operation,
    ptr: Type,
    value: Type,
    mask: Option<Type>,
) -> Result<(), Diagnostic> {
    let shape = tile_shape(ctx, ptr);
    let same_shape = |t: Type| {
        tile_shape(ctx, t) == shape
            && ctx.type_kind(t).shape().is_some() == ctx.type_kind(ptr).shape().is_some()
    };
    if !same_shape(value) || !points_to(ctx, element_of(ctx, ptr), element_of(ctx, value)) {
        return Err(err(
            ctx,
            op,
            format!(
                "value '{}' does not match the pointers '{}'",
                ty(ctx, value),
                ty(ctx, ptr)
            ),
        ));
    }
    let layout = crate::kernel::types::encoding_of(ctx, ptr);
    for t in std::iter::once(value).chain(mask) {
        if crate::kernel::types::encoding_of(ctx, t) != layout {
            return Err(err(
                ctx,
                op,
                format!(
                    "'{}' is not in the pointers' layout ('{}')",
                    ty(ctx, t),
                    ty(ctx, ptr)
                ),
            ));
        }
    }
    if let Some(m) = mask {
        let is_i1 = matches!(
            ctx.type_kind(element_of(ctx, m)),
            TypeKind::Integer { width: 1, .. }
        );
        if !same_shape(m) || !is_i1 {
            return Err(err(
                ctx,
                op,
                format!(
                    "mask '{}' must be i1 shaped as the pointers '{}'",
                    ty(ctx, m),
                    ty(ctx, ptr)
                ),
            ));
        }
    }
    Ok(())
}

pub(crate) fn verify_load(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let ptr = operand_type(ctx, op, 0);
    let out = result_type(ctx, op);
    let mask = (ctx.num_operands(op) > 1).then(|| operand_type(ctx, op, 1));
    check_access(ctx, op, ptr, out, mask)?;
    if ctx.num_operands(op) > 2 && operand_type(ctx, op, 2) != out {
        return Err(err(ctx, op, "'other' must have the result's type"));
    }
    Ok(())
}

pub(crate) fn verify_store(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let ptr = operand_type(ctx, op, 0);
    let value = operand_type(ctx, op, 1);
    let mask = (ctx.num_operands(op) > 2).then(|| operand_type(ctx, op, 2));
    check_access(ctx, op, ptr, value, mask)
}

/// The accumulator element a `dot` of `element` operands needs.
fn accumulator_ok(ctx: &Context, element: Type, acc: Type) -> bool {
    match ctx.float_kind(element) {
        Some(FloatKind::F16 | FloatKind::BF16) => {
            ctx.float_kind(acc) == Some(FloatKind::F32) || acc == element
        }
        Some(_) => acc == element,
        None => match ctx.type_kind(element) {
            TypeKind::Integer { width: 8, .. } => {
                matches!(ctx.type_kind(acc), TypeKind::Integer { width: 32, .. })
            }
            _ => acc == element,
        },
    }
}

pub(crate) fn verify_dot(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let d = DotOp(op);
    let (a, b, c) = (
        ctx.value_type(d.a(ctx)),
        ctx.value_type(d.b(ctx)),
        ctx.value_type(d.c(ctx)),
    );
    let (sa, sb, sc) = (tile_shape(ctx, a), tile_shape(ctx, b), tile_shape(ctx, c));
    if sa.len() != 2 || sb.len() != 2 || sc.len() != 2 {
        return Err(err(ctx, op, "expects 2-D tiles"));
    }
    if sa[1] != sb[0] || sc != [sa[0], sb[1]] {
        return Err(err(
            ctx,
            op,
            format!(
                "shapes do not compose: '{}' * '{}' -> '{}'",
                ty(ctx, a),
                ty(ctx, b),
                ty(ctx, c)
            ),
        ));
    }
    let (ea, eb, ec) = (element_of(ctx, a), element_of(ctx, b), element_of(ctx, c));
    if ea != eb || !accumulator_ok(ctx, ea, ec) {
        return Err(err(
            ctx,
            op,
            format!(
                "operands of '{}' and '{}' need an accumulator of their type (f32 for f16 and bf16, i32 for i8), got '{}'",
                ty(ctx, ea),
                ty(ctx, eb),
                ty(ctx, ec)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_reduce(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let (src, out) = (operand_type(ctx, op, 0), result_type(ctx, op));
    let mut shape = tile_shape(ctx, src);
    let axis = ReduceOp(op).axis(ctx).unwrap_or(0);
    if axis < 0 || axis as usize >= shape.len() {
        return Err(err(ctx, op, format!("axis {axis} is out of range")));
    }
    shape.remove(axis as usize);
    let element = element_of(ctx, src);
    let expected_ok = if shape.is_empty() {
        out == element
    } else {
        tile_shape(ctx, out) == shape && element_of(ctx, out) == element
    };
    if !expected_ok {
        return Err(err(
            ctx,
            op,
            format!(
                "result '{}' must be '{}' without dimension {axis}",
                ty(ctx, out),
                ty(ctx, src)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_reduce_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let element = element_of(ctx, operand_type(ctx, op, 0));
    let Some(block) = ctx.region_entry_block(ctx.op_regions(op)[0]) else {
        return Err(err(ctx, op, "expects a combiner block"));
    };
    let args: Vec<Type> = ctx.block_args(block).map(|v| ctx.value_type(v)).collect();
    if args != [element, element] {
        return Err(err(
            ctx,
            op,
            format!("the combiner takes two '{}' arguments", ty(ctx, element)),
        ));
    }
    let yields = ctx
        .block_last_op(block)
        .filter(|&t| ctx.op_name_str(t) == "kernel.yield")
        .map(|t| {
            ctx.operands(t)
                .map(|v| ctx.value_type(v))
                .collect::<Vec<_>>()
        });
    if yields.as_deref() != Some(&[element][..]) {
        return Err(err(
            ctx,
            op,
            format!("the combiner must yield one '{}'", ty(ctx, element)),
        ));
    }
    Ok(())
}

pub(crate) fn verify_yield(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    match ctx.op_parent_op(op) {
        Some(p) if ctx.op_name_str(p) == ReduceOp::NAME => Ok(()),
        _ => Err(err(ctx, op, "expects parent op 'kernel.reduce'")),
    }
}

pub(crate) fn verify_launch(
    ctx: &Context,
    op: Operation,
    symbols: &SymbolTableCollection,
) -> Result<(), Diagnostic> {
    let launch = LaunchOp(op);
    let Some(callee) = launch.kernel(ctx) else {
        return Ok(());
    };
    let AttrKind::SymbolRef { root, .. } = ctx.attr_kind(callee) else {
        return Ok(());
    };
    let name = String::from_utf8_lossy(root).into_owned();
    let Some(kernel) = symbols
        .lookup_nearest(ctx, op, root)
        .filter(|&o| ctx.op_name_str(o) == KernelFuncOp::NAME)
    else {
        return Err(err(
            ctx,
            op,
            format!("'{name}' does not reference a kernel.func"),
        ));
    };
    let rank = KernelFuncOp(kernel).grid(ctx).max(0) as usize;
    let grid = launch.grid(ctx);
    if grid.len() != rank {
        return Err(err(
            ctx,
            op,
            format!(
                "'{name}' has a grid of rank {rank}, launched with {} sizes",
                grid.len()
            ),
        ));
    }
    let Some((params, _)) = function_signature(ctx, kernel) else {
        return Ok(());
    };
    let args = launch.args(ctx);
    if args.len() != params.len() {
        return Err(err(
            ctx,
            op,
            format!(
                "'{name}' takes {} arguments, got {}",
                params.len(),
                args.len()
            ),
        ));
    }
    for (i, (&arg, &param)) in args.iter().zip(&params).enumerate() {
        let at = ctx.value_type(arg);
        let ok = match ctx.type_kind(at) {
            TypeKind::MemRef { element, .. } => points_to(ctx, param, *element),
            _ => at == param,
        };
        if !ok {
            return Err(err(
                ctx,
                op,
                format!(
                    "argument #{i} of type '{}' does not match parameter '{}'",
                    ty(ctx, at),
                    ty(ctx, param)
                ),
            ));
        }
    }
    Ok(())
}

pub(crate) fn verify_alloc(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let offset = crate::kernel::ops::AllocOp(op).offset(ctx).unwrap_or(0);
    if offset < 0 {
        return Err(err(
            ctx,
            op,
            format!("offset must be non-negative, got {offset}"),
        ));
    }
    Ok(())
}

pub(crate) fn verify_view(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let (src, out) = (operand_type(ctx, op, 0), result_type(ctx, op));
    // Counts that overflow never match (a saturated count would).
    let count = |t: Type| {
        ctx.type_kind(t)
            .shape()
            .and_then(strata_ir::types::checked_num_elements)
    };
    if count(src).is_none()
        || count(src) != count(out)
        || ctx.type_kind(src).element_type() != ctx.type_kind(out).element_type()
    {
        return Err(err(
            ctx,
            op,
            format!(
                "'{}' and '{}' must have the same element type and count",
                ty(ctx, src),
                ty(ctx, out)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_gemm(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let g = crate::kernel::ops::GemmOp(op);
    let batch = g.batch(ctx).unwrap_or_default();
    let (m, n, k) = (
        g.m(ctx).unwrap_or(0),
        g.n(ctx).unwrap_or(0),
        g.k(ctx).unwrap_or(0),
    );
    if m <= 0 || n <= 0 || k <= 0 || batch.iter().any(|&b| b <= 0) {
        return Err(err(ctx, op, "sizes must be positive"));
    }
    let element = |i: usize| ctx.type_kind(operand_type(ctx, op, i)).element_type();
    if element(0) != element(1) || element(0) != element(2) {
        return Err(err(ctx, op, "operands must have one element type"));
    }
    let float = element(0).and_then(|e| ctx.float_kind(e));
    if !matches!(float, Some(FloatKind::F32 | FloatKind::F64)) {
        return Err(err(ctx, op, "operands must be f32 or f64"));
    }
    let count = |i: usize| {
        ctx.type_kind(operand_type(ctx, op, i))
            .shape()
            .map(strata_ir::types::num_elements)
            .unwrap_or(0) as i64
    };
    for (i, (name, strides, rows, cols)) in [
        ("lhs", g.lhs_strides(ctx), m, k),
        ("rhs", g.rhs_strides(ctx), k, n),
        ("out", g.out_strides(ctx), m, n),
    ]
    .into_iter()
    .enumerate()
    {
        let strides = strides.unwrap_or_default();
        if strides.len() != batch.len() + 2 || strides.iter().any(|&s| s < 0) {
            return Err(err(
                ctx,
                op,
                format!(
                    "{name}_strides must hold {} non-negative strides",
                    batch.len() + 2
                ),
            ));
        }
        // The farthest element any index reaches must lie in the buffer.
        let sizes: Vec<i64> = batch.iter().copied().chain([rows, cols]).collect();
        let last = sizes.iter().zip(&strides).try_fold(0i64, |acc, (&s, &st)| {
            (s - 1).checked_mul(st)?.checked_add(acc)
        });
        if last.is_none_or(|l| l >= count(i)) {
            let last = last.map_or_else(|| "past the i64 range".to_string(), |l| l.to_string());
            return Err(err(
                ctx,
                op,
                format!(
                    "{name} is read out of bounds: element {last} of {}",
                    count(i)
                ),
            ));
        }
        // Each output element written once: threads split the output.
        if name == "out" && !injective(&sizes, &strides) {
            return Err(err(
                ctx,
                op,
                format!("out_strides {strides:?} write some elements of the {sizes:?} output twice: output strides must not overlap"),
            ));
        }
    }
    if ctx.operand(op, 2) == ctx.operand(op, 0) || ctx.operand(op, 2) == ctx.operand(op, 1) {
        return Err(err(ctx, op, "out must not be an operand it reads"));
    }
    Ok(())
}

/// Whether strides address each index of `sizes` at its own offset: the
/// dims of more than one element, by increasing stride, each stride at
/// least the extent of the dims before it (row-major, transposed and
/// padded layouts; never a zero stride or an overlap).
fn injective(sizes: &[i64], strides: &[i64]) -> bool {
    let mut dims: Vec<(i64, i64)> = sizes
        .iter()
        .zip(strides)
        .filter(|(&s, _)| s > 1)
        .map(|(&s, &st)| (st, s))
        .collect();
    dims.sort_unstable();
    let mut extent = 1i64;
    for (stride, size) in dims {
        if stride < extent {
            return false;
        }
        match stride.checked_mul(size) {
            Some(e) => extent = e,
            None => return false,
        }
    }
    true
}

/// `kernel.custom_call`: `num_inputs` lies within the buffers.
pub(crate) fn verify_custom_call(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let call = super::CustomCallOp(op);
    let n = call.num_inputs(ctx).unwrap_or(-1);
    let buffers = ctx.num_operands(op) as i64;
    if n < 0 || n > buffers {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!("num_inputs is {n}, but the call has {buffers} buffers"),
        ));
    }
    Ok(())
}

pub(crate) fn verify_check_indices(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let check = super::CheckIndicesOp(op);
    let sizes = check.sizes(ctx).unwrap_or_default();
    let axes = check.axes(ctx).unwrap_or_default();
    if sizes.is_empty() || sizes.len() != axes.len() || sizes.iter().any(|&s| s <= 0) {
        return Err(err(
            ctx,
            op,
            format!(
                "expects as many sizes as axes, at least one, each positive (got sizes {sizes:?}, axes {axes:?})"
            ),
        ));
    }
    let indices = ctx.value_type(check.indices(ctx));
    match ctx.type_kind(indices) {
        TypeKind::MemRef { shape, element, .. }
            if matches!(
                ctx.type_kind(*element),
                TypeKind::Integer { width: 32 | 64, .. }
            ) && (sizes.len() == 1 || shape.last() == Some(&(sizes.len() as i64))) =>
        {
            Ok(())
        }
        _ => Err(err(
            ctx,
            op,
            format!(
                "expects a buffer of i32 or i64 indices whose last dimension holds the {} sizes, got '{}'",
                sizes.len(),
                ty(ctx, indices)
            ),
        )),
    }
}
