//! Shape functions of the `graph` ops.
//!
//! Each op has a [`ShapeFunction`] (an op interface, attached by the op's
//! declaration, `#[op(..., interfaces(ShapeFunction(f)))]`) that computes
//! its results' symbolic shapes and element types from its operands' and
//! its attributes. It serves three users: the
//! op verifier (declared result types must agree with the inferred ones),
//! builders such as the ONNX importer (which create ops with inferred
//! result types), and the `graph-infer-shapes` pass (which refines declared
//! types).

use strata_ir::attributes::AttrKind;
use strata_ir::types::TypeKind;
use strata_ir::{Attribute, Context, Diagnostic, Operation, Type, Value};

use super::custom::CustomOpRegistry;
use super::shape::{broadcast, shape_of, Dim, Shape};

/// What a shape function knows about one operand.
#[derive(Clone, Debug)]
pub struct OperandInfo {
    /// Its symbolic shape.
    pub shape: Shape,
    /// Its element type.
    pub elem: Type,
    /// Its elements, when it is a small integer constant (shapes, axes) or
    /// a shape computation determines every one of them.
    pub value: Option<Vec<i64>>,
    /// Its elements as sizes, static or symbolic, when it is a small 0-D or
    /// 1-D integer tensor computed from shapes and constants (see
    /// [`shape_value`](super::shape_value::shape_value)).
    pub sizes: Option<Vec<Dim>>,
}

/// The element type of an inferred result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultElem {
    /// This type.
    Of(Type),
    /// `i1`.
    I1,
    /// `i64`.
    I64,
    /// `f32`.
    F32,
    /// The element type the op declares for this result (`graph.cast`).
    Declared,
}

/// An inferred result: its shape and element type.
pub type Inferred = (Shape, ResultElem);

/// A shape function: results from operands (and the op's attributes), or
/// a message saying what is wrong with them.
pub type ShapeFn = fn(&Context, Operation, &[OperandInfo]) -> Result<Vec<Inferred>, String>;

/// The [`ShapeFn`] of an op kind (an op interface).
#[derive(Clone, Copy)]
pub struct ShapeFunction(pub ShapeFn);

/// The operand information of `value`: its type's shape and element type,
/// its elements when a `graph.constant` of integers defines it or a shape
/// computation determines them all, and its elements as sizes
/// ([`shape_value`](super::shape_value::shape_value)).
pub fn operand_info(ctx: &Context, value: Value) -> Option<OperandInfo> {
    let (shape, elem) = shape_of(ctx, ctx.value_type(value))?;
    let sizes = super::shape_value::shape_value(ctx, value);
    let constant = ctx
        .defining_op(value)
        .filter(|&op| ctx.op_name_str(op) == "graph.constant")
        .and_then(|op| strata_ir::ods::inherent_attr(ctx, op, "value"))
        .and_then(|attr| int_elements(ctx, attr));
    let value = constant.or_else(|| sizes.as_ref()?.iter().map(Dim::known).collect());
    Some(OperandInfo {
        shape,
        elem,
        value,
        sizes,
    })
}

/// The elements of a dense integer attribute of at most 1024 elements
/// (`None` for a `ui64` value beyond `i64::MAX`).
pub fn int_elements(ctx: &Context, attr: Attribute) -> Option<Vec<i64>> {
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(attr) else {
        return None;
    };
    let TypeKind::RankedTensor { shape, element, .. } = ctx.type_kind(*ty) else {
        return None;
    };
    let TypeKind::Integer { width, signedness } = ctx.type_kind(*element) else {
        return None;
    };
    let unsigned = *signedness == strata_ir::types::Signedness::Unsigned;
    let count = shape.iter().try_fold(1usize, |acc, &d| {
        usize::try_from(d).ok().and_then(|d| acc.checked_mul(d))
    })?;
    if count > 1024 {
        return None;
    }
    let bytes = (*width as usize).div_ceil(8);
    let read = |i: usize| -> Option<i64> {
        let chunk = data.raw.get(i * bytes..(i + 1) * bytes)?;
        let mut buf = [0u8; 8];
        buf.get_mut(..bytes)?.copy_from_slice(chunk);
        let raw = u64::from_le_bytes(buf);
        // Unsigned values zero-extend (and must fit i64); the others
        // sign-extend from the element width (i1 is 0 or 1).
        Some(if unsigned {
            i64::try_from(raw).ok()?
        } else if *width == 1 || *width >= 64 {
            raw as i64
        } else {
            let shift = 64 - *width;
            ((raw << shift) as i64) >> shift
        })
    };
    (0..count)
        .map(|i| read(if data.splat { 0 } else { i }))
        .collect()
}

/// Runs `op`'s shape function on its operands; `None` when the op has
/// none or an operand is not a tensor.
pub fn infer_results(ctx: &Context, op: Operation) -> Option<Result<Vec<Inferred>, String>> {
    let f = ctx.op_interface::<ShapeFunction>(op)?.0;
    let infos: Option<Vec<OperandInfo>> = ctx.operands(op).map(|v| operand_info(ctx, v)).collect();
    Some(f(ctx, op, &infos?))
}

/// Runs `op`'s shape function on `infos` instead of its operands' types
/// (the interpreter passes the concrete shapes and small integer values it
/// sees at run time); `None` when the op has no shape function.
pub fn infer_with(
    ctx: &Context,
    op: Operation,
    infos: &[OperandInfo],
) -> Option<Result<Vec<Inferred>, String>> {
    let f = ctx.op_interface::<ShapeFunction>(op)?.0;
    Some(f(ctx, op, infos))
}

/// The type of an inferred result, given the type the op declares for it.
pub fn result_type(ctx: &mut Context, inferred: &Inferred, declared: Type) -> Type {
    let declared_elem = shape_of(ctx, declared).map(|(_, e)| e);
    let elem = match inferred.1 {
        ResultElem::Of(t) => t,
        ResultElem::I1 => ctx.integer_type(1),
        ResultElem::I64 => ctx.integer_type(64),
        ResultElem::F32 => ctx.float_type(strata_ir::float::FloatKind::F32),
        ResultElem::Declared => match declared_elem {
            Some(e) => e,
            None => ctx.float_type(strata_ir::float::FloatKind::F32),
        },
    };
    super::shape::tensor_type(ctx, &inferred.0, elem)
}

/// The most precise of a declared and an inferred shape: each dimension
/// the inference knows better replaces the declared one. `Err` names the
/// first contradiction.
pub fn refine(declared: &Shape, inferred: &Shape) -> Result<Shape, String> {
    let (Some(d), Some(i)) = (declared.dims(), inferred.dims()) else {
        return Ok(if declared.rank().is_some() {
            declared.clone()
        } else {
            inferred.clone()
        });
    };
    if d.len() != i.len() {
        return Err(format!(
            "has rank {} but its inferred shape {inferred} has rank {}",
            d.len(),
            i.len()
        ));
    }
    let mut out = Vec::with_capacity(d.len());
    for (k, (a, b)) in d.iter().zip(i).enumerate() {
        out.push(match (a, b) {
            (Dim::Unknown, x) | (x, Dim::Unknown) => x.clone(),
            (x, y) if x == y => x.clone(),
            // A symbol declared where the size is known: the size wins.
            (Dim::Sym(_), Dim::Known(n)) => Dim::Known(*n),
            _ => {
                return Err(format!(
                    "has shape {declared} but its inferred shape is {inferred} (dimension {k}: {a} vs {b})"
                ))
            }
        });
    }
    Ok(Shape::ranked(out))
}

/// The `verify` hook of every `graph` op: runs its shape function and
/// checks the declared result types against the inferred ones. An op
/// without a shape function fails: nothing would check its result types.
pub fn verify_shapes(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    for v in ctx.operands(op).chain(ctx.results(op)) {
        super::shape::check_encoding(ctx, ctx.value_type(v))
            .map_err(|msg| Diagnostic::op_error(ctx, op, msg))?;
    }
    if ctx.op_interface::<ShapeFunction>(op).is_none() {
        return Err(Diagnostic::op_error(ctx, op, "has no shape function"));
    }
    let Some(inferred) = infer_results(ctx, op) else {
        return Ok(());
    };
    let inferred = inferred.map_err(|msg| Diagnostic::op_error(ctx, op, msg))?;
    let results: Vec<Value> = ctx.results(op).collect();
    if inferred.len() != results.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "has {} results but {} are inferred",
                results.len(),
                inferred.len()
            ),
        ));
    }
    for (i, (&result, (shape, elem))) in results.iter().zip(&inferred).enumerate() {
        let elem = *elem;
        let Some((declared, declared_elem)) = shape_of(ctx, ctx.value_type(result)) else {
            continue;
        };
        let elem_ok = match elem {
            ResultElem::Of(t) => t == declared_elem,
            ResultElem::I1 => strata_ir::ods::constraints::is_i1(ctx, declared_elem),
            ResultElem::I64 => {
                matches!(
                    ctx.type_kind(declared_elem),
                    TypeKind::Integer { width: 64, .. }
                )
            }
            ResultElem::F32 => {
                ctx.float_kind(declared_elem) == Some(strata_ir::float::FloatKind::F32)
            }
            ResultElem::Declared => true,
        };
        if !elem_ok {
            let expected = match elem {
                ResultElem::Of(t) => strata_ir::printer::type_to_string(ctx, t),
                ResultElem::I1 => "i1".into(),
                ResultElem::I64 => "i64".into(),
                ResultElem::F32 => "f32".into(),
                ResultElem::Declared => String::new(),
            };
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "result #{i} must have element type {expected}, but got {}",
                    strata_ir::printer::type_to_string(ctx, declared_elem)
                ),
            ));
        }
        refine(&declared, shape)
            .map_err(|msg| Diagnostic::op_error(ctx, op, format!("result #{i} {msg}")))?;
    }
    Ok(())
}

// ----- attribute helpers -----

fn attr(ctx: &Context, op: Operation, name: &str) -> Option<Attribute> {
    strata_ir::ods::inherent_attr(ctx, op, name)
}

/// An integer attribute of `op`.
pub fn attr_i64(ctx: &Context, op: Operation, name: &str) -> Option<i64> {
    match ctx.attr_kind(attr(ctx, op, name)?) {
        // Stored truncated to the type's width: read back as two's complement.
        AttrKind::Integer { value, .. } => Some(*value as i64),
        _ => None,
    }
}

/// A boolean attribute of `op` (false when absent).
pub fn attr_bool(ctx: &Context, op: Operation, name: &str) -> bool {
    attr_i64(ctx, op, name).is_some_and(|v| v != 0)
}

/// A float attribute of `op`.
pub fn attr_f64(ctx: &Context, op: Operation, name: &str) -> Option<f64> {
    match ctx.attr_kind(attr(ctx, op, name)?) {
        AttrKind::Float { ty, bits } => match ctx.float_kind(*ty) {
            Some(strata_ir::float::FloatKind::F32) => Some(f64::from(f32::from_bits(*bits as u32))),
            Some(strata_ir::float::FloatKind::F64) => Some(f64::from_bits(*bits as u64)),
            _ => None,
        },
        _ => None,
    }
}

/// An `array<i64: ...>` attribute of `op`.
pub fn attr_i64_array(ctx: &Context, op: Operation, name: &str) -> Option<Vec<i64>> {
    match ctx.attr_kind(attr(ctx, op, name)?) {
        AttrKind::DenseArray { values, .. } => Some(values.iter().map(|&v| v as i64).collect()),
        _ => None,
    }
}

/// A string attribute of `op`.
pub fn attr_str(ctx: &Context, op: Operation, name: &str) -> Option<String> {
    match ctx.attr_kind(attr(ctx, op, name)?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// A flat symbol reference attribute of `op` (`@name` as `name`).
pub fn attr_symbol(ctx: &Context, op: Operation, name: &str) -> Option<String> {
    match ctx.attr_kind(attr(ctx, op, name)?) {
        AttrKind::SymbolRef { root, nested } if nested.is_empty() => {
            Some(String::from_utf8_lossy(root).into_owned())
        }
        _ => None,
    }
}

// ----- helpers -----

/// The operand of group `group` of an op with several optional operand
/// groups (read through its `operandSegmentSizes`); `None` when the group
/// is empty.
fn group_operand<'a>(
    ctx: &Context,
    op: Operation,
    ops: &'a [OperandInfo],
    group: usize,
) -> Option<&'a OperandInfo> {
    ops.get(group_index(ctx, op, group)?)
}

/// The `operandSegmentSizes` of `op`, when it has them.
pub fn operand_segments(ctx: &Context, op: Operation) -> Option<Vec<usize>> {
    match ctx.attr_kind(attr(ctx, op, "operandSegmentSizes")?) {
        AttrKind::DenseArray { values, .. } => {
            Some(values.iter().map(|&v| v as u32 as usize).collect())
        }
        _ => None,
    }
}

/// The operand index of the single-operand group `group`, `None` when the
/// group is empty (or the op has no segment sizes).
fn group_index(ctx: &Context, op: Operation, group: usize) -> Option<usize> {
    let sizes = operand_segments(ctx, op)?;
    if *sizes.get(group)? == 0 {
        return None;
    }
    Some(sizes[..group].iter().sum())
}

fn ty(ctx: &Context, t: Type) -> String {
    strata_ir::printer::type_to_string(ctx, t)
}

fn same_elem(ctx: &Context, a: &OperandInfo, b: &OperandInfo) -> Result<(), String> {
    if a.elem != b.elem {
        return Err(format!(
            "operands must have the same element type, but got {} and {}",
            ty(ctx, a.elem),
            ty(ctx, b.elem)
        ));
    }
    Ok(())
}

/// Normalizes `axis` for `rank` (negative counts from the end).
pub fn norm_axis(axis: i64, rank: usize, what: &str) -> Result<usize, String> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if a < 0 || a >= r {
        return Err(format!(
            "{what} {axis} is out of range for rank {rank} (expected [{}, {}])",
            -r,
            r - 1
        ));
    }
    Ok(a as usize)
}

fn is_float(ctx: &Context, t: Type) -> bool {
    ctx.float_kind(t).is_some()
}

fn operand(ops: &[OperandInfo], i: usize) -> Result<&OperandInfo, String> {
    ops.get(i).ok_or_else(|| format!("expected operand #{i}"))
}

/// The (static) length of a 1-D operand.
fn len_1d(info: &OperandInfo, what: &str) -> Result<Option<usize>, String> {
    match info.shape.dims() {
        None => Ok(None),
        Some([Dim::Known(n)]) => Ok(usize::try_from(*n).ok()),
        Some([_]) => Ok(None),
        Some(d) => Err(format!(
            "{what} must be a 1-D tensor, but has rank {}",
            d.len()
        )),
    }
}

fn is_scalar(shape: &Shape) -> bool {
    match shape.dims() {
        None => true,
        Some([]) => true,
        Some([d]) => !d.provably_ne(&Dim::Known(1)),
        Some(_) => false,
    }
}

// ----- shape functions -----

pub(super) fn infer_constant(
    ctx: &Context,
    op: Operation,
    _: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let value = attr(ctx, op, "value").ok_or("requires attribute 'value'")?;
    let t = strata_ir::ods::constraints::attr_type(ctx, value).ok_or("'value' has no type")?;
    let (shape, elem) = shape_of(ctx, t).ok_or("'value' must be a tensor")?;
    Ok(vec![(shape, ResultElem::Of(elem))])
}

pub(super) fn infer_arith(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (a, b) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, a, b)?;
    Ok(vec![(
        broadcast(&a.shape, &b.shape)?,
        ResultElem::Of(a.elem),
    )])
}

pub(super) fn infer_compare(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let r = infer_arith(ctx, op, ops)?;
    Ok(r.into_iter().map(|(s, _)| (s, ResultElem::I1)).collect())
}

pub(super) fn infer_same(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let a = operand(ops, 0)?;
    Ok(vec![(a.shape.clone(), ResultElem::Of(a.elem))])
}

pub(super) fn infer_clip(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let a = operand(ops, 0)?;
    for bound in &ops[1..] {
        same_elem(ctx, a, bound)?;
        if !is_scalar(&bound.shape) {
            return Err(format!(
                "bounds must be scalars, but one has shape {}",
                bound.shape
            ));
        }
    }
    Ok(vec![(a.shape.clone(), ResultElem::Of(a.elem))])
}

pub(super) fn infer_dropout(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, ratio) = (operand(ops, 0)?, operand(ops, 1)?);
    if !is_scalar(&ratio.shape) {
        return Err(format!(
            "ratio must be a scalar, but has shape {}",
            ratio.shape
        ));
    }
    if let Some(training) = ops.get(2) {
        if !is_scalar(&training.shape) {
            return Err(format!(
                "training must be a scalar, but has shape {}",
                training.shape
            ));
        }
    }
    let mut out = vec![(x.shape.clone(), ResultElem::Of(x.elem))];
    if ctx.results(op).count() == 2 {
        out.push((x.shape.clone(), ResultElem::I1));
    }
    Ok(out)
}

pub(super) fn infer_cast(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    Ok(vec![(operand(ops, 0)?.shape.clone(), ResultElem::Declared)])
}

pub(super) fn infer_where(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (c, x, y) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, x, y)?;
    let shape = broadcast(&broadcast(&c.shape, &x.shape)?, &y.shape)?;
    Ok(vec![(shape, ResultElem::Of(x.elem))])
}

pub(super) fn infer_matmul(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (a, b) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, a, b)?;
    let (Some(x), Some(y)) = (a.shape.dims(), b.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(a.elem))]);
    };
    if x.is_empty() || y.is_empty() {
        return Err("operands must have rank 1 or more".into());
    }
    let x: Vec<Dim> = if x.len() == 1 {
        vec![Dim::Known(1), x[0].clone()]
    } else {
        x.to_vec()
    };
    let y: Vec<Dim> = if y.len() == 1 {
        vec![y[0].clone(), Dim::Known(1)]
    } else {
        y.to_vec()
    };
    let (m, k1) = (&x[x.len() - 2], &x[x.len() - 1]);
    let (k2, n) = (&y[y.len() - 2], &y[y.len() - 1]);
    if k1.provably_ne(k2) {
        return Err(format!(
            "contraction dimensions differ: {} vs {} (shapes {} and {})",
            k1, k2, a.shape, b.shape
        ));
    }
    let batch = broadcast(
        &Shape::ranked(x[..x.len() - 2].to_vec()),
        &Shape::ranked(y[..y.len() - 2].to_vec()),
    )
    .map_err(|e| format!("batch dimensions: {e}"))?;
    let mut dims = batch.dims().map(<[Dim]>::to_vec).unwrap_or_default();
    if a.shape.rank() != Some(1) {
        dims.push(m.clone());
    }
    if b.shape.rank() != Some(1) {
        dims.push(n.clone());
    }
    Ok(vec![(Shape::ranked(dims), ResultElem::Of(a.elem))])
}

pub(super) fn infer_gemm(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (a, b) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, a, b)?;
    let (Some(x), Some(y)) = (a.shape.dims(), b.shape.dims()) else {
        return Ok(vec![(
            Shape::ranked(vec![Dim::Unknown; 2]),
            ResultElem::Of(a.elem),
        )]);
    };
    if x.len() != 2 || y.len() != 2 {
        return Err(format!(
            "operands 'a' and 'b' must be 2-D, but have shapes {} and {}",
            a.shape, b.shape
        ));
    }
    let (m, k1) = if attr_bool(ctx, op, "transA") {
        (&x[1], &x[0])
    } else {
        (&x[0], &x[1])
    };
    let (k2, n) = if attr_bool(ctx, op, "transB") {
        (&y[1], &y[0])
    } else {
        (&y[0], &y[1])
    };
    if k1.provably_ne(k2) {
        return Err(format!(
            "contraction dimensions differ: {k1} vs {k2} (shapes {} and {})",
            a.shape, b.shape
        ));
    }
    let out = Shape::ranked(vec![m.clone(), n.clone()]);
    if let Some(c) = ops.get(2) {
        same_elem(ctx, a, c)?;
        let b = broadcast(&out, &c.shape)
            .map_err(|e| format!("'c' does not broadcast to the result: {e}"))?;
        if b.rank() != Some(2) && b.rank().is_some() {
            return Err(format!(
                "'c' of shape {} does not broadcast to {out}",
                c.shape
            ));
        }
    }
    Ok(vec![(out, ResultElem::Of(a.elem))])
}

/// The output size of a sliding window over `input` (ONNX's formula,
/// computed without overflow).
fn window_out(
    input: &Dim,
    k: i64,
    s: i64,
    pads: (i64, i64),
    d: i64,
    ceil: bool,
) -> Result<Dim, String> {
    if k < 1 || s < 1 || d < 1 {
        return Err("kernel sizes, strides and dilations must be positive".into());
    }
    let Dim::Known(n) = input else {
        return Ok(Dim::Unknown);
    };
    let (n, k, s, d) = (i128::from(*n), i128::from(k), i128::from(s), i128::from(d));
    let (begin, end) = (i128::from(pads.0), i128::from(pads.1));
    let span = d * (k - 1) + 1;
    let padded = n + begin + end;
    if padded < span {
        return Err(format!(
            "window of size {span} does not fit the padded input of size {padded}"
        ));
    }
    let num = padded - span;
    let mut out = if ceil {
        (num + s - 1) / s + 1
    } else {
        num / s + 1
    };
    // As ONNX: the last window must start inside the input or the begin
    // padding.
    if ceil && (out - 1) * s >= n + begin {
        out -= 1;
    }
    i64::try_from(out)
        .map(Dim::Known)
        .map_err(|_| format!("output size {out} is too large"))
}

/// Strides, pads and dilations of a window op.
type WindowAttrs = (Vec<i64>, Vec<i64>, Vec<i64>);

fn window_attrs(ctx: &Context, op: Operation, kernel: &[i64]) -> Result<WindowAttrs, String> {
    let strides = attr_i64_array(ctx, op, "strides").unwrap_or_else(|| vec![1, 1]);
    let pads = attr_i64_array(ctx, op, "pads").unwrap_or_else(|| vec![0; 4]);
    let dilations = attr_i64_array(ctx, op, "dilations").unwrap_or_else(|| vec![1, 1]);
    if kernel.len() != 2 || strides.len() != 2 || dilations.len() != 2 || pads.len() != 4 {
        return Err("expects 2 kernel sizes, 2 strides, 2 dilations and 4 pads".into());
    }
    if pads.iter().any(|&p| p < 0) {
        return Err("pads must not be negative".into());
    }
    Ok((strides, pads, dilations))
}

fn spatial(
    input: &[Dim],
    kernel: &[i64],
    strides: &[i64],
    pads: &[i64],
    dilations: &[i64],
    ceil: bool,
) -> Result<Vec<Dim>, String> {
    (0..2)
        .map(|i| {
            window_out(
                &input[2 + i],
                kernel[i],
                strides[i],
                (pads[i], pads[i + 2]),
                dilations[i],
                ceil,
            )
        })
        .collect()
}

/// The kernel sizes of a convolution weight `[_, _, kH, kW]`, which must be
/// static.
fn static_kernel(wd: &[Dim]) -> Result<Vec<i64>, String> {
    wd[2..]
        .iter()
        .map(|d| {
            d.known()
                .ok_or_else(|| "the weight's kernel dimensions must be static".to_string())
        })
        .collect()
}

pub(super) fn infer_conv2d(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, w) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, x, w)?;
    let (Some(xd), Some(wd)) = (x.shape.dims(), w.shape.dims()) else {
        return Ok(vec![(
            Shape::ranked(vec![Dim::Unknown; 4]),
            ResultElem::Of(x.elem),
        )]);
    };
    if xd.len() != 4 || wd.len() != 4 {
        return Err(format!(
            "input and weight must be 4-D (NCHW, MCkHkW), but have shapes {} and {}",
            x.shape, w.shape
        ));
    }
    let group = attr_i64(ctx, op, "group").unwrap_or(1);
    if group < 1 {
        return Err(format!("group must be positive, but is {group}"));
    }
    if let (Dim::Known(c), Dim::Known(wc)) = (&xd[1], &wd[1]) {
        if i128::from(*c) != i128::from(*wc) * i128::from(group) {
            return Err(format!(
                "input has {c} channels but the weight expects {wc} x {group} groups"
            ));
        }
    }
    if let Dim::Known(m) = &wd[0] {
        if m % group != 0 {
            return Err(format!(
                "{m} output channels are not divisible into {group} groups"
            ));
        }
    }
    let kernel = static_kernel(wd)?;
    let (strides, pads, dilations) = window_attrs(ctx, op, &kernel)?;
    if let Some(bias) = ops.get(2) {
        same_elem(ctx, x, bias)?;
        if bias.shape.rank().is_some_and(|r| r != 1) {
            return Err(format!("bias must be 1-D, but has shape {}", bias.shape));
        }
    }
    let mut dims = vec![xd[0].clone(), wd[0].clone()];
    dims.extend(spatial(xd, &kernel, &strides, &pads, &dilations, false)?);
    Ok(vec![(Shape::ranked(dims), ResultElem::Of(x.elem))])
}

pub(super) fn infer_conv_transpose2d(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, w) = (operand(ops, 0)?, operand(ops, 1)?);
    same_elem(ctx, x, w)?;
    if let Some(bias) = ops.get(2) {
        same_elem(ctx, x, bias)?;
        if bias.shape.rank().is_some_and(|r| r != 1) {
            return Err(format!("bias must be 1-D, but has shape {}", bias.shape));
        }
    }
    let elem = ResultElem::Of(x.elem);
    let (Some(xd), Some(wd)) = (x.shape.dims(), w.shape.dims()) else {
        return Ok(vec![(Shape::ranked(vec![Dim::Unknown; 4]), elem)]);
    };
    if xd.len() != 4 || wd.len() != 4 {
        return Err(format!(
            "input and weight must be 4-D (NCHW, CMkHkW), but have shapes {} and {}",
            x.shape, w.shape
        ));
    }
    let group = attr_i64(ctx, op, "group").unwrap_or(1);
    if group < 1 {
        return Err(format!("group must be positive, but is {group}"));
    }
    if xd[1].provably_ne(&wd[0]) {
        return Err(format!(
            "input has {} channels but the weight has {}",
            xd[1], wd[0]
        ));
    }
    if let Dim::Known(c) = &xd[1] {
        if c % group != 0 {
            return Err(format!(
                "{c} input channels are not divisible into {group} groups"
            ));
        }
    }
    let kernel = static_kernel(wd)?;
    let (strides, pads, dilations) = window_attrs(ctx, op, &kernel)?;
    if kernel.iter().any(|&k| k < 1) {
        return Err(format!("the kernel {kernel:?} must not be empty"));
    }
    if strides.iter().chain(&dilations).any(|&v| v < 1) {
        return Err("strides and dilations must be positive".into());
    }
    let output_padding = attr_i64_array(ctx, op, "output_padding").unwrap_or_else(|| vec![0, 0]);
    if output_padding.len() != 2 || output_padding.iter().any(|&p| p < 0) {
        return Err(format!(
            "output_padding must have 2 entries that are not negative, not {output_padding:?}"
        ));
    }
    let channels = wd[1].mul(&Dim::Known(group));
    if let Some([b]) = ops.get(2).and_then(|b| b.shape.dims()) {
        if b.provably_ne(&channels) {
            return Err(format!(
                "bias has {b} elements for {channels} output channels"
            ));
        }
    }
    let mut dims = vec![xd[0].clone(), channels];
    match attr_i64_array(ctx, op, "output_shape") {
        Some(shape) => {
            if shape.len() != 2 || shape.iter().any(|&d| d < 0) {
                return Err(format!(
                    "output_shape must have 2 sizes that are not negative, not {shape:?}"
                ));
            }
            dims.extend(shape.iter().map(|&d| Dim::Known(d)));
        }
        None => {
            for i in 0..2 {
                // stride * in + c, with c the constant part.
                let (s, k, d) = (
                    i128::from(strides[i]),
                    i128::from(kernel[i]),
                    i128::from(dilations[i]),
                );
                let c = i128::from(output_padding[i]) + (k - 1) * d + 1
                    - s
                    - i128::from(pads[i])
                    - i128::from(pads[i + 2]);
                dims.push(match &xd[2 + i] {
                    Dim::Known(n) => {
                        let out = s * i128::from(*n) + c;
                        if out < 0 {
                            return Err(format!(
                                "padding leaves spatial dimension {i} with size {out}"
                            ));
                        }
                        Dim::Known(i64::try_from(out).map_err(|_| "output too large")?)
                    }
                    sym if c == 0 => sym.mul(&Dim::Known(strides[i])),
                    _ => Dim::Unknown,
                });
            }
        }
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_pool(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let Some(xd) = x.shape.dims() else {
        let unknown = Shape::ranked(vec![Dim::Unknown; 4]);
        let mut out = vec![(unknown.clone(), ResultElem::Of(x.elem))];
        if ctx.results(op).count() == 2 {
            out.push((unknown, ResultElem::I64));
        }
        return Ok(out);
    };
    if xd.len() != 4 {
        return Err(format!(
            "input must be 4-D (NCHW), but has shape {}",
            x.shape
        ));
    }
    let kernel = attr_i64_array(ctx, op, "kernel_shape").ok_or("requires 'kernel_shape'")?;
    let (strides, pads, dilations) = window_attrs(ctx, op, &kernel)?;
    if (0..2).any(|i| pads[i] >= kernel[i] || pads[i + 2] >= kernel[i]) {
        return Err("pads must be smaller than the kernel".into());
    }
    let mut dims = vec![xd[0].clone(), xd[1].clone()];
    dims.extend(spatial(
        xd,
        &kernel,
        &strides,
        &pads,
        &dilations,
        attr_bool(ctx, op, "ceil_mode"),
    )?);
    let mut out = vec![(Shape::ranked(dims.clone()), ResultElem::Of(x.elem))];
    // max_pool2d's optional indices.
    if ctx.results(op).count() == 2 {
        out.push((Shape::ranked(dims), ResultElem::I64));
    }
    Ok(out)
}

pub(super) fn infer_global_pool(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(x.elem))]);
    };
    if xd.len() < 3 {
        return Err(format!(
            "input must have rank 3 or more, but has shape {}",
            x.shape
        ));
    }
    let mut dims = xd[..2].to_vec();
    dims.resize(xd.len(), Dim::Known(1));
    Ok(vec![(Shape::ranked(dims), ResultElem::Of(x.elem))])
}

pub(super) fn infer_axis_same(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    if let Some(rank) = x.shape.rank() {
        let axis = attr_i64(ctx, op, "axis").unwrap_or(-1);
        if rank == 0 {
            return Err("input must have rank 1 or more".into());
        }
        norm_axis(axis, rank, "axis")?;
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

pub(super) fn infer_norm(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let r = infer_axis_same(ctx, op, ops)?;
    let x = operand(ops, 0)?;
    for p in &ops[1..] {
        same_elem(ctx, x, p)?;
    }
    Ok(r)
}

pub(super) fn infer_batch_norm(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    if x.shape.rank().is_some_and(|r| r < 2) {
        return Err(format!(
            "input must have rank 2 or more, but has shape {}",
            x.shape
        ));
    }
    let channels = x.shape.dims().map(|d| d[1].clone());
    for p in &ops[1..] {
        same_elem(ctx, x, p)?;
        match (p.shape.dims(), &channels) {
            (Some([d]), Some(c)) if d.provably_ne(c) => {
                return Err(format!(
                    "parameters must have {c} elements, but one has {d}"
                ))
            }
            (Some(d), _) if d.len() != 1 => {
                return Err(format!(
                    "parameters must be 1-D, but one has shape {}",
                    p.shape
                ))
            }
            _ => {}
        }
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

/// Normalized, deduplicated reduction axes.
fn reduce_axes(axes: &[i64], rank: usize) -> Result<Vec<usize>, String> {
    let mut out = Vec::with_capacity(axes.len());
    for &a in axes {
        let n = norm_axis(a, rank, "axis")?;
        if out.contains(&n) {
            return Err(format!("axis {a} is repeated"));
        }
        out.push(n);
    }
    Ok(out)
}

pub(super) fn infer_reduce(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let keepdims = attr_bool(ctx, op, "keepdims");
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let axes: Option<Vec<i64>> = match ops.get(1) {
        None => Some(Vec::new()),
        Some(a) => {
            if len_1d(a, "axes")? == Some(0) {
                Some(Vec::new())
            } else {
                a.value.clone()
            }
        }
    };
    let Some(axes) = axes else {
        return Ok(vec![(
            if keepdims {
                Shape::ranked(vec![Dim::Unknown; xd.len()])
            } else {
                Shape::unranked()
            },
            elem,
        )]);
    };
    let axes = if axes.is_empty() {
        if attr_bool(ctx, op, "noop_with_empty_axes") {
            return Ok(vec![(x.shape.clone(), elem)]);
        }
        (0..xd.len()).collect()
    } else {
        reduce_axes(&axes, xd.len())?
    };
    let dims = xd
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match (axes.contains(&i), keepdims) {
            (false, _) => Some(d.clone()),
            (true, true) => Some(Dim::Known(1)),
            (true, false) => None,
        })
        .collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_arg_reduce(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), ResultElem::I64)]);
    };
    let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
    let keepdims = attr_bool(ctx, op, "keepdims");
    let dims = xd
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match (i == axis, keepdims) {
            (false, _) => Some(d.clone()),
            (true, true) => Some(Dim::Known(1)),
            (true, false) => None,
        })
        .collect();
    Ok(vec![(Shape::ranked(dims), ResultElem::I64)])
}

pub(super) fn infer_reshape(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, s) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let Some(target) = target_sizes(s) else {
        return Ok(vec![(
            match len_1d(s, "shape")? {
                Some(n) => Shape::ranked(vec![Dim::Unknown; n]),
                None => Shape::unranked(),
            },
            elem,
        )]);
    };
    let allowzero = attr_bool(ctx, op, "allowzero");
    let xd = x.shape.dims();
    let mut dims = Vec::with_capacity(target.len());
    let mut infer_at = None;
    for (i, t) in target.iter().enumerate() {
        // A computed element may be 0 or -1 at run time: it stays unknown.
        let t = match t {
            Dim::Known(t) => *t,
            other => {
                dims.push(other.clone());
                continue;
            }
        };
        dims.push(match t {
            -1 => {
                if infer_at.replace(i).is_some() {
                    return Err("shape has more than one -1".into());
                }
                Dim::Unknown
            }
            0 if !allowzero => match xd {
                Some(d) => d.get(i).cloned().ok_or_else(|| {
                    format!(
                        "shape copies dimension {i} (0) but the input has rank {}",
                        d.len()
                    )
                })?,
                None => Dim::Unknown,
            },
            t if t < 0 => return Err(format!("shape has the invalid size {t}")),
            t => Dim::Known(t),
        });
    }
    let total = x.shape.num_elements();
    if let Some(i) = infer_at {
        let known = dims
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .fold(Dim::Known(1), |acc, (_, d)| acc.mul(d));
        dims[i] = total.div_exact(&known).unwrap_or(Dim::Unknown);
        if let (Dim::Known(t), Dim::Known(k)) = (&total, &known) {
            if *k == 0 || t % k != 0 {
                return Err(format!(
                    "cannot reshape {} elements into {}",
                    t,
                    Shape::ranked(target)
                ));
            }
        }
    } else {
        let out = dims.iter().fold(Dim::Known(1), |acc, d| acc.mul(d));
        if out.provably_ne(&total) {
            return Err(format!(
                "cannot reshape {} ({total} elements) into {} elements",
                x.shape, out
            ));
        }
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

/// The elements of a shape operand as sizes: the constant ones, or the
/// symbolic ones a shape computation gives.
fn target_sizes(s: &OperandInfo) -> Option<Vec<Dim>> {
    match (&s.value, &s.sizes) {
        (Some(v), _) => Some(v.iter().map(|&d| Dim::Known(d)).collect()),
        (None, Some(d)) => Some(d.clone()),
        (None, None) => None,
    }
}

pub(super) fn infer_transpose(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let perm: Vec<i64> =
        attr_i64_array(ctx, op, "perm").unwrap_or_else(|| (0..xd.len() as i64).rev().collect());
    if perm.len() != xd.len() {
        return Err(format!(
            "perm has {} entries but the input has rank {}",
            perm.len(),
            xd.len()
        ));
    }
    let mut seen = vec![false; xd.len()];
    let mut dims = Vec::with_capacity(xd.len());
    for &p in &perm {
        let i = usize::try_from(p)
            .ok()
            .filter(|&i| i < xd.len())
            .ok_or_else(|| format!("perm {perm:?} is not a permutation of 0..{}", xd.len()))?;
        if std::mem::replace(&mut seen[i], true) {
            return Err(format!(
                "perm {perm:?} is not a permutation of 0..{}",
                xd.len()
            ));
        }
        dims.push(xd[i].clone());
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_expand(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, s) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    match target_sizes(s) {
        Some(target) => {
            if target.iter().any(|t| t.known().is_some_and(|t| t < 0)) {
                return Err(format!(
                    "shape {} has a negative size",
                    Shape::ranked(target)
                ));
            }
            Ok(vec![(broadcast(&x.shape, &Shape::ranked(target))?, elem)])
        }
        None => Ok(vec![(
            match (len_1d(s, "shape")?, x.shape.rank()) {
                (Some(n), Some(r)) => Shape::ranked(vec![Dim::Unknown; n.max(r)]),
                _ => Shape::unranked(),
            },
            elem,
        )]),
    }
}

pub(super) fn infer_concat(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let first = operand(ops, 0).map_err(|_| "requires at least one input".to_string())?;
    let axis = attr_i64(ctx, op, "axis").ok_or("requires 'axis'")?;
    let ranked: Vec<&[Dim]> = ops.iter().filter_map(|o| o.shape.dims()).collect();
    for o in ops {
        same_elem(ctx, first, o)?;
    }
    let Some(rank) = ranked.first().map(|d| d.len()) else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(first.elem))]);
    };
    let a = norm_axis(axis, rank, "axis")?;
    let mut dims: Vec<Dim> = ranked[0].to_vec();
    for d in &ranked[1..] {
        if d.len() != rank {
            return Err(format!(
                "inputs must have the same rank, but have ranks {rank} and {}",
                d.len()
            ));
        }
        for i in 0..rank {
            if i == a {
                continue;
            }
            if dims[i].provably_ne(&d[i]) {
                return Err(format!(
                    "inputs differ in dimension {i}: {} vs {}",
                    dims[i], d[i]
                ));
            }
            if matches!(dims[i], Dim::Unknown) {
                dims[i] = d[i].clone();
            }
        }
    }
    dims[a] = if ranked.len() == ops.len() {
        ranked
            .iter()
            .skip(1)
            .fold(ranked[0][a].clone(), |acc, d| acc.add(&d[a]))
    } else {
        Dim::Unknown
    };
    Ok(vec![(Shape::ranked(dims), ResultElem::Of(first.elem))])
}

pub(super) fn infer_split(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let n = ctx.results(op).len();
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem); n]);
    };
    let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
    let sizes: Vec<Dim> = match ops.get(1) {
        Some(s) => match &s.value {
            Some(v) => {
                if v.len() != n {
                    return Err(format!(
                        "split has {} sizes but the op has {n} results",
                        v.len()
                    ));
                }
                if v.iter().any(|&s| s < 0) {
                    return Err(format!("split sizes {v:?} must not be negative"));
                }
                let total: i128 = v.iter().map(|&s| i128::from(s)).sum();
                let fits =
                    i64::try_from(total).is_ok_and(|t| !xd[axis].provably_ne(&Dim::Known(t)));
                if !fits {
                    return Err(format!(
                        "split sizes add up to {total} but dimension {axis} is {}",
                        xd[axis]
                    ));
                }
                v.iter().map(|&s| Dim::Known(s)).collect()
            }
            None => vec![Dim::Unknown; n],
        },
        None => {
            if n == 0 {
                return Err("requires at least one result".into());
            }
            match &xd[axis] {
                Dim::Known(d) => {
                    let (d, n) = (i128::from(*d), n as i128);
                    let part = (d + n - 1) / n;
                    // Each part is at most `d`, so it fits.
                    (0..n)
                        .map(|i| Dim::Known((d - i * part).clamp(0, part) as i64))
                        .collect()
                }
                d => vec![d.div_exact(&Dim::Known(n as i64)).unwrap_or(Dim::Unknown); n],
            }
        }
    };
    Ok(sizes
        .into_iter()
        .map(|s| {
            let mut dims = xd.to_vec();
            dims[axis] = s;
            (Shape::ranked(dims), elem)
        })
        .collect())
}

/// The size of one sliced dimension of size `dim` (ONNX's clamping);
/// `step` must not be 0.
pub fn slice_len(dim: i64, start: i64, end: i64, step: i64) -> i64 {
    if dim <= 0 {
        return 0;
    }
    let (dim, start, end, step) = (
        i128::from(dim),
        i128::from(start),
        i128::from(end),
        i128::from(step),
    );
    let norm = |v: i128| if v < 0 { v + dim } else { v };
    let (s, e) = if step > 0 {
        (norm(start).clamp(0, dim), norm(end).clamp(0, dim))
    } else {
        (
            norm(start).clamp(0, (dim - 1).max(0)),
            norm(end).clamp(-1, dim - 1),
        )
    };
    let len = if step > 0 {
        ((e - s).max(0) + step - 1) / step
    } else {
        ((s - e).max(0) + (-step) - 1) / (-step)
    };
    // At most `dim`, so it fits.
    len as i64
}

pub(super) fn infer_slice(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let (starts, ends) = (operand(ops, 1)?, operand(ops, 2)?);
    let (axes_info, steps_info) = (
        group_operand(ctx, op, ops, 3),
        group_operand(ctx, op, ops, 4),
    );
    let (Some(st), Some(en)) = (&starts.value, &ends.value) else {
        return Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]);
    };
    if st.len() != en.len() {
        return Err(format!(
            "starts has {} entries but ends has {}",
            st.len(),
            en.len()
        ));
    }
    let axes: Vec<i64> = match axes_info {
        Some(a) => match &a.value {
            Some(v) => v.clone(),
            None => return Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]),
        },
        None => (0..st.len() as i64).collect(),
    };
    let steps: Vec<i64> = match steps_info {
        Some(s) => match &s.value {
            Some(v) => v.clone(),
            None => return Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]),
        },
        None => vec![1; st.len()],
    };
    if axes.len() != st.len() || steps.len() != st.len() {
        return Err("starts, ends, axes and steps must have the same length".into());
    }
    let axes = reduce_axes(&axes, xd.len())?;
    let mut dims = xd.to_vec();
    for (k, &a) in axes.iter().enumerate() {
        if steps[k] == 0 {
            return Err("slice step cannot be 0".into());
        }
        dims[a] = match &xd[a] {
            Dim::Known(d) => Dim::Known(slice_len(*d, st[k], en[k], steps[k])),
            // The whole dimension keeps its symbol.
            d if st[k] == 0 && steps[k] == 1 && en[k] >= i32::MAX as i64 => d.clone(),
            _ => Dim::Unknown,
        };
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_gather(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let (Some(xd), Some(id)) = (x.shape.dims(), idx.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    if xd.is_empty() {
        return Err("input must have rank 1 or more".into());
    }
    let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
    let mut dims = xd[..axis].to_vec();
    dims.extend(id.iter().cloned());
    dims.extend(xd[axis + 1..].iter().cloned());
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_gather_elements(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    if let (Some(xd), Some(id)) = (x.shape.dims(), idx.shape.dims()) {
        let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
        check_element_indices(xd, id, axis)?;
    }
    Ok(vec![(idx.shape.clone(), elem)])
}

pub(super) fn infer_dft(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let rank = xd.len();
    if rank < 2 || xd[rank - 1].known().is_some_and(|c| c != 1 && c != 2) {
        return Err(format!(
            "input must end in a dimension of 1 (real) or 2 (complex), not {}",
            x.shape
        ));
    }
    let axis = match group_operand(ctx, op, ops, 2) {
        Some(a) => match a.value.as_deref() {
            Some([v]) => *v,
            // A run-time axis: the rank is all that is known.
            _ => return Ok(vec![(Shape::ranked(vec![Dim::Unknown; rank]), elem)]),
        },
        None => attr_i64(ctx, op, "axis").unwrap_or(1),
    };
    let axis = norm_axis(axis, rank, "axis")?;
    if axis == rank - 1 {
        return Err("axis must not be the last (component) dimension".into());
    }
    let (inverse, onesided) = (
        attr_bool(ctx, op, "inverse"),
        attr_bool(ctx, op, "onesided"),
    );
    let n = match group_operand(ctx, op, ops, 1) {
        Some(l) => match l.value.as_deref() {
            Some([n]) if *n > 0 => Dim::Known(*n),
            Some([n]) => return Err(format!("length {n} must be positive")),
            _ => Dim::Unknown,
        },
        None if inverse && onesided => match xd[axis].known() {
            Some(s) => Dim::Known(2 * (s - 1).max(0)),
            None => Dim::Unknown,
        },
        None => xd[axis].clone(),
    };
    let mut dims = xd.to_vec();
    let (len, comps) = match (inverse, onesided) {
        (false, true) => (n.known().map_or(Dim::Unknown, |n| Dim::Known(n / 2 + 1)), 2),
        (true, true) => (n, 1),
        _ => (n, 2),
    };
    dims[axis] = len;
    dims[rank - 1] = Dim::Known(comps);
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_nms(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (b, s) = (operand(ops, 0)?, operand(ops, 1)?);
    if let (Some(bd), Some(sd)) = (b.shape.dims(), s.shape.dims()) {
        if bd.len() != 3 || sd.len() != 3 || bd[2].provably_ne(&Dim::Known(4)) {
            return Err(format!(
                "boxes must be [B, N, 4] and scores [B, C, N], not {} and {}",
                b.shape, s.shape
            ));
        }
        if bd[0].provably_ne(&sd[0]) || bd[1].provably_ne(&sd[2]) {
            return Err(format!(
                "boxes {} and scores {} disagree on B or N",
                b.shape, s.shape
            ));
        }
    }
    for o in &ops[2..] {
        if !is_scalar(&o.shape) {
            return Err(format!(
                "thresholds and counts must be scalars, not {}",
                o.shape
            ));
        }
    }
    Ok(vec![(
        Shape::ranked(vec![Dim::Unknown, Dim::Known(3)]),
        ResultElem::I64,
    )])
}

pub(super) fn infer_grid_sample(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, g) = (operand(ops, 0)?, operand(ops, 1)?);
    let mode = attr_str(ctx, op, "mode").unwrap_or_else(|| "linear".into());
    if !matches!(mode.as_str(), "nearest" | "linear" | "cubic") {
        return Err(format!(
            "mode must be \"nearest\", \"linear\" or \"cubic\", not \"{mode}\""
        ));
    }
    let pad = attr_str(ctx, op, "padding_mode").unwrap_or_else(|| "zeros".into());
    if !matches!(pad.as_str(), "zeros" | "border" | "reflection") {
        return Err(format!(
            "padding_mode must be \"zeros\", \"border\" or \"reflection\", not \"{pad}\""
        ));
    }
    let elem = ResultElem::Of(x.elem);
    let (Some(xd), Some(gd)) = (x.shape.dims(), g.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let k = xd.len().saturating_sub(2);
    if k == 0 || gd.len() != k + 2 {
        return Err(format!(
            "grid must have rank {} for an input of shape {}, but has shape {}",
            k + 2,
            x.shape,
            g.shape
        ));
    }
    if gd[k + 1].provably_ne(&Dim::Known(k as i64)) || xd[0].provably_ne(&gd[0]) {
        return Err(format!(
            "grid {} does not fit input {} (it must be [N, H1..Hk, {k}])",
            g.shape, x.shape
        ));
    }
    let mut dims = vec![xd[0].clone(), xd[1].clone()];
    dims.extend(gd[1..=k].iter().cloned());
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_gather_nd(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let b = attr_i64(ctx, op, "batch_dims").unwrap_or(0);
    let b = usize::try_from(b).map_err(|_| format!("batch_dims {b} is negative"))?;
    let (Some(xd), Some(id)) = (x.shape.dims(), idx.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let Some((last, lead)) = id.split_last() else {
        return Err("indices must have rank 1 or more".into());
    };
    if b > lead.len() || b > xd.len() {
        return Err(format!(
            "batch_dims {b} is more than the leading dimensions of indices {} and input {}",
            idx.shape, x.shape
        ));
    }
    for d in 0..b {
        if xd[d].provably_ne(&id[d]) {
            return Err(format!(
                "batch dimension {d} differs: {} vs {}",
                xd[d], id[d]
            ));
        }
    }
    let Some(k) = last.known() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let k = usize::try_from(k)
        .ok()
        .filter(|&k| b + k <= xd.len())
        .ok_or_else(|| {
            format!(
                "index tuples of {k} entries do not fit an input of rank {} after {b} batch dimensions",
                xd.len()
            )
        })?;
    let dims: Vec<Dim> = lead.iter().chain(&xd[b + k..]).cloned().collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

/// Element-wise indices have the input's rank and, off `axis`, sizes no
/// larger than its.
fn check_element_indices(xd: &[Dim], id: &[Dim], axis: usize) -> Result<(), String> {
    if id.len() != xd.len() {
        return Err(format!(
            "indices must have the rank of the input ({}), but have rank {}",
            xd.len(),
            id.len()
        ));
    }
    for (d, (i, x)) in id.iter().zip(xd).enumerate() {
        if let (Some(i), Some(x), false) = (i.known(), x.known(), d == axis) {
            if i > x {
                return Err(format!(
                    "indices have size {i} in dimension {d}, larger than the input's {x}"
                ));
            }
        }
    }
    Ok(())
}

fn check_reduction(ctx: &Context, op: Operation) -> Result<(), String> {
    let r = attr_str(ctx, op, "reduction").unwrap_or_else(|| "none".into());
    if !matches!(r.as_str(), "none" | "add" | "mul" | "max" | "min") {
        return Err(format!(
            "reduction must be \"none\", \"add\", \"mul\", \"max\" or \"min\", not \"{r}\""
        ));
    }
    Ok(())
}

pub(super) fn infer_scatter_elements(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx, upd) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, x, upd)?;
    check_reduction(ctx, op)?;
    if let (Some(id), Some(ud)) = (idx.shape.dims(), upd.shape.dims()) {
        if id.len() != ud.len() || id.iter().zip(ud).any(|(a, b)| a.provably_ne(b)) {
            return Err(format!(
                "indices {} and updates {} must have the same shape",
                idx.shape, upd.shape
            ));
        }
    }
    if let (Some(xd), Some(id)) = (x.shape.dims(), idx.shape.dims()) {
        let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(0), xd.len(), "axis")?;
        check_element_indices(xd, id, axis)?;
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

pub(super) fn infer_scatter_nd(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, idx, upd) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, x, upd)?;
    check_reduction(ctx, op)?;
    if let (Some(xd), Some(id), Some(ud)) = (x.shape.dims(), idx.shape.dims(), upd.shape.dims()) {
        let Some((last, lead)) = id.split_last() else {
            return Err("indices must have rank 1 or more".into());
        };
        if let Some(k) = last.known() {
            let k = usize::try_from(k)
                .ok()
                .filter(|&k| k <= xd.len())
                .ok_or_else(|| {
                    format!(
                        "index tuples have {k} entries, more than the input's rank {}",
                        xd.len()
                    )
                })?;
            let expected: Vec<Dim> = lead.iter().chain(&xd[k..]).cloned().collect();
            if ud.len() != expected.len() || ud.iter().zip(&expected).any(|(a, b)| a.provably_ne(b))
            {
                return Err(format!(
                    "updates must have shape {}, but have {}",
                    Shape::ranked(expected),
                    upd.shape
                ));
            }
        }
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

pub(super) fn infer_bit_shift(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let d = attr_str(ctx, op, "direction").unwrap_or_default();
    if !matches!(d.as_str(), "left" | "right") {
        return Err(format!(
            "direction must be \"left\" or \"right\", not \"{d}\""
        ));
    }
    infer_arith(ctx, op, ops)
}

pub(super) fn infer_cumsum(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, axis) = (operand(ops, 0)?, operand(ops, 1)?);
    if !is_scalar(&axis.shape) {
        return Err(format!(
            "axis must be a scalar, but has shape {}",
            axis.shape
        ));
    }
    if let (Some(rank), Some([a])) = (x.shape.rank(), axis.value.as_deref()) {
        if rank == 0 {
            return Err("input must have rank 1 or more".into());
        }
        norm_axis(*a, rank, "axis")?;
    }
    Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
}

pub(super) fn infer_top_k(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, k) = (operand(ops, 0)?, operand(ops, 1)?);
    if !is_scalar(&k.shape) {
        return Err(format!(
            "k must have one element, but has shape {}",
            k.shape
        ));
    }
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![
            (Shape::unranked(), ResultElem::Of(x.elem)),
            (Shape::unranked(), ResultElem::I64),
        ]);
    };
    if xd.is_empty() {
        return Err("input must have rank 1 or more".into());
    }
    let axis = norm_axis(attr_i64(ctx, op, "axis").unwrap_or(-1), xd.len(), "axis")?;
    let k = match k.sizes.as_deref() {
        Some([k]) => k.clone(),
        _ => Dim::Unknown,
    };
    if let Some(n) = k.known() {
        if n < 0 || xd[axis].known().is_some_and(|d| n > d) {
            return Err(format!(
                "k = {n} is out of range for dimension {axis} of size {}",
                xd[axis]
            ));
        }
    }
    let mut dims = xd.to_vec();
    dims[axis] = k;
    let shape = Shape::ranked(dims);
    Ok(vec![
        (shape.clone(), ResultElem::Of(x.elem)),
        (shape, ResultElem::I64),
    ])
}

/// The operand value of group `group` (see [`group_operand`]).
fn group_value(ctx: &Context, op: Operation, group: usize) -> Option<Value> {
    ctx.operands(op).nth(group_index(ctx, op, group)?)
}

/// The elements of an `f32` or `f64` `graph.constant` of at most 1024
/// elements.
fn float_constant(ctx: &Context, v: Value) -> Option<Vec<f64>> {
    let op = ctx
        .defining_op(v)
        .filter(|&op| ctx.op_name_str(op) == "graph.constant")?;
    let attr = strata_ir::ods::inherent_attr(ctx, op, "value")?;
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(attr) else {
        return None;
    };
    let (shape, elem) = shape_of(ctx, *ty)?;
    let count = usize::try_from(shape.num_elements().known()?).ok()?;
    if count > 1024 {
        return None;
    }
    let kind = ctx.float_kind(elem)?;
    let read = |i: usize| -> Option<f64> {
        let i = if data.splat { 0 } else { i };
        match kind {
            strata_ir::float::FloatKind::F32 => {
                let b = data.raw.get(i * 4..i * 4 + 4)?;
                Some(f64::from(f32::from_le_bytes(b.try_into().ok()?)))
            }
            strata_ir::float::FloatKind::F64 => {
                let b = data.raw.get(i * 8..i * 8 + 8)?;
                Some(f64::from_le_bytes(b.try_into().ok()?))
            }
            _ => None,
        }
    };
    (0..count).map(read).collect()
}

pub(super) fn infer_resize(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let one_of = |name: &str, default: &str, allowed: &[&str]| -> Result<String, String> {
        let v = attr_str(ctx, op, name).unwrap_or_else(|| default.into());
        if allowed.contains(&v.as_str()) {
            Ok(v)
        } else {
            Err(format!("{name} must be one of {allowed:?}, not \"{v}\""))
        }
    };
    let mode = one_of("mode", "nearest", &["nearest", "linear", "cubic"])?;
    let coordinate = one_of(
        "coordinate_transformation_mode",
        "half_pixel",
        &[
            "half_pixel",
            "half_pixel_symmetric",
            "pytorch_half_pixel",
            "align_corners",
            "asymmetric",
            "tf_crop_and_resize",
        ],
    )?;
    one_of(
        "nearest_mode",
        "round_prefer_floor",
        &["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"],
    )?;
    let policy = one_of(
        "keep_aspect_ratio_policy",
        "stretch",
        &["stretch", "not_larger", "not_smaller"],
    )?;
    if mode == "nearest" && attr_bool(ctx, op, "antialias") {
        return Err("antialias needs linear or cubic mode".into());
    }
    let (scales, sizes) = (
        group_operand(ctx, op, ops, 2),
        group_operand(ctx, op, ops, 3),
    );
    if scales.is_some() == sizes.is_some() {
        return Err("needs exactly one of scales and sizes".into());
    }
    if coordinate == "tf_crop_and_resize" && group_operand(ctx, op, ops, 1).is_none() {
        return Err("tf_crop_and_resize needs a roi".into());
    }
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let axes: Vec<usize> = match attr_i64_array(ctx, op, "axes") {
        Some(a) => reduce_axes(&a, xd.len())?,
        None => (0..xd.len()).collect(),
    };
    for info in [scales, sizes].into_iter().flatten() {
        if let Some(n) = len_1d(info, "scales and sizes")? {
            if n != axes.len() {
                return Err(format!("has {n} scales or sizes for {} axes", axes.len()));
            }
        }
    }
    let mut dims = xd.to_vec();
    if let Some(s) = sizes {
        let given = target_sizes(s);
        let stretch = policy == "stretch";
        // With another policy one scale serves every axis: static inputs only.
        let known: Option<Vec<(i64, i64)>> = given.as_ref().and_then(|g| {
            axes.iter()
                .zip(g)
                .map(|(&a, d)| Some((xd[a].known()?, d.known()?)))
                .collect()
        });
        if let Some(bad) = given
            .iter()
            .flatten()
            .find_map(|d| d.known().filter(|&n| n < 0))
        {
            return Err(format!("sizes has the negative size {bad}"));
        }
        for (i, &a) in axes.iter().enumerate() {
            dims[a] = match (&given, &known) {
                (Some(g), _) if stretch => g[i].clone(),
                (_, Some(k)) => {
                    if k.iter().any(|&(n, _)| n == 0) {
                        return Err("cannot resize an empty dimension to a size".into());
                    }
                    let ratios = k.iter().map(|&(n, t)| t as f64 / n as f64);
                    let scale = if policy == "not_larger" {
                        ratios.fold(f64::INFINITY, f64::min)
                    } else {
                        ratios.fold(0.0, f64::max)
                    };
                    Dim::Known((scale * k[i].0 as f64 + 0.5).floor() as i64)
                }
                _ => Dim::Unknown,
            };
        }
    } else if let Some(values) = group_value(ctx, op, 2).and_then(|v| float_constant(ctx, v)) {
        if values.len() != axes.len() {
            return Err(format!(
                "has {} scales for {} axes",
                values.len(),
                axes.len()
            ));
        }
        for (&a, &s) in axes.iter().zip(&values) {
            if s.is_nan() || s <= 0.0 {
                return Err(format!("scale {s} of axis {a} is not positive"));
            }
            dims[a] = match &xd[a] {
                Dim::Known(n) => {
                    let out = (s * *n as f64).floor();
                    if !out.is_finite() || out > i64::MAX as f64 {
                        return Err(format!("scale {s} of axis {a} is too large"));
                    }
                    Dim::Known(out as i64)
                }
                d if s.fract() == 0.0 && s <= i64::MAX as f64 => d.mul(&Dim::Known(s as i64)),
                _ => Dim::Unknown,
            };
        }
    } else {
        for &a in &axes {
            dims[a] = Dim::Unknown;
        }
    }
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_squeeze(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let axes = match ops.get(1) {
        Some(a) => match &a.value {
            Some(v) => reduce_axes(v, xd.len())?,
            None => return Ok(vec![(Shape::unranked(), elem)]),
        },
        None => {
            if xd.iter().any(|d| d.known().is_none()) {
                return Ok(vec![(Shape::unranked(), elem)]);
            }
            (0..xd.len()).filter(|&i| xd[i] == Dim::Known(1)).collect()
        }
    };
    for &a in &axes {
        if xd[a].provably_ne(&Dim::Known(1)) {
            return Err(format!("cannot squeeze dimension {a} of size {}", xd[a]));
        }
    }
    let dims = (0..xd.len())
        .filter(|i| !axes.contains(i))
        .map(|i| xd[i].clone())
        .collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_unsqueeze(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, a) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let (Some(xd), Some(axes)) = (x.shape.dims(), &a.value) else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let rank = xd.len() + axes.len();
    let axes = reduce_axes(axes, rank)?;
    let mut rest = xd.iter();
    let dims = (0..rank)
        .map(|i| {
            if axes.contains(&i) {
                Dim::Known(1)
            } else {
                rest.next().cloned().unwrap_or(Dim::Unknown)
            }
        })
        .collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_flatten(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::ranked(vec![Dim::Unknown; 2]), elem)]);
    };
    let axis = attr_i64(ctx, op, "axis").unwrap_or(1);
    let r = xd.len() as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if a < 0 || a > r {
        return Err(format!(
            "axis {axis} is out of range for rank {r} (expected [{}, {r}])",
            -r
        ));
    }
    let prod = |d: &[Dim]| d.iter().fold(Dim::Known(1), |acc, d| acc.mul(d));
    let a = a as usize;
    Ok(vec![(
        Shape::ranked(vec![prod(&xd[..a]), prod(&xd[a..])]),
        elem,
    )])
}

pub(super) fn infer_pad(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, p) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let mode = attr_str(ctx, op, "mode").unwrap_or_else(|| "constant".into());
    if !matches!(mode.as_str(), "constant" | "reflect" | "edge" | "wrap") {
        return Err(format!(
            "mode must be one of \"constant\", \"reflect\", \"edge\", \"wrap\", but is \"{mode}\""
        ));
    }
    if let Some(v) = group_operand(ctx, op, ops, 2) {
        same_elem(ctx, x, v)?;
        if !is_scalar(&v.shape) {
            return Err(format!("value must be a scalar, but has shape {}", v.shape));
        }
    }
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let unknown = || Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]);
    let Some(given) = &p.value else {
        return unknown();
    };
    // With axes, pads lists the begin and end amounts of those axes only.
    let pads: Vec<i64> = match group_operand(ctx, op, ops, 3) {
        None => given.clone(),
        Some(a) => {
            let Some(axes) = &a.value else {
                return unknown();
            };
            if given.len() != 2 * axes.len() {
                return Err(format!(
                    "pads has {} entries but {} axes are padded",
                    given.len(),
                    axes.len()
                ));
            }
            let axes = reduce_axes(axes, xd.len())?;
            let mut full = vec![0; 2 * xd.len()];
            for (k, &a) in axes.iter().enumerate() {
                full[a] = given[k];
                full[a + xd.len()] = given[k + axes.len()];
            }
            full
        }
    };
    if pads.len() != 2 * xd.len() {
        return Err(format!(
            "pads has {} entries but the input has rank {}",
            pads.len(),
            xd.len()
        ));
    }
    let dims = xd
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let total = i128::from(pads[i]) + i128::from(pads[i + xd.len()]);
            match d {
                Dim::Known(n) if i128::from(*n) + total < 0 => {
                    Err(format!("pads crop dimension {i} below zero"))
                }
                Dim::Known(n) => i64::try_from(i128::from(*n) + total)
                    .map(Dim::Known)
                    .map_err(|_| format!("padded dimension {i} is too large")),
                d if total == 0 => Ok(d.clone()),
                _ => Ok(Dim::Unknown),
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_tile(
    _: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (x, r) = (operand(ops, 0)?, operand(ops, 1)?);
    let elem = ResultElem::Of(x.elem);
    let Some(xd) = x.shape.dims() else {
        return Ok(vec![(Shape::unranked(), elem)]);
    };
    let Some(reps) = &r.value else {
        return Ok(vec![(Shape::ranked(vec![Dim::Unknown; xd.len()]), elem)]);
    };
    if reps.len() != xd.len() || reps.iter().any(|&r| r < 0) {
        return Err(format!(
            "repeats {reps:?} must have {} non-negative entries",
            xd.len()
        ));
    }
    let dims = xd
        .iter()
        .zip(reps)
        .map(|(d, &r)| d.mul(&Dim::Known(r)))
        .collect();
    Ok(vec![(Shape::ranked(dims), elem)])
}

pub(super) fn infer_shape_of(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let x = operand(ops, 0)?;
    let len = match x.shape.rank() {
        Some(r) => {
            let r = r as i64;
            let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r);
            let start = clamp(attr_i64(ctx, op, "start").unwrap_or(0));
            let end = clamp(attr_i64(ctx, op, "end").unwrap_or(r));
            Dim::Known((end - start).max(0))
        }
        None => Dim::Unknown,
    };
    Ok(vec![(Shape::ranked(vec![len]), ResultElem::I64)])
}

pub(super) fn infer_size(
    _: &Context,
    _: Operation,
    _: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    Ok(vec![(Shape::ranked(vec![]), ResultElem::I64)])
}

pub(super) fn infer_constant_of_shape(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let s = operand(ops, 0)?;
    let elem = match attr(ctx, op, "value") {
        Some(v) => {
            let t = strata_ir::ods::constraints::attr_type(ctx, v).ok_or("'value' has no type")?;
            let (shape, e) = shape_of(ctx, t).ok_or("'value' must be a tensor")?;
            if shape.num_elements().provably_ne(&Dim::Known(1)) {
                return Err(format!(
                    "'value' must have one element, but has shape {shape}"
                ));
            }
            ResultElem::Of(e)
        }
        None => ResultElem::F32,
    };
    let shape = match target_sizes(s) {
        Some(v) if v.iter().all(|d| d.known().is_none_or(|d| d >= 0)) => Shape::ranked(v),
        Some(v) => return Err(format!("shape {} has a negative size", Shape::ranked(v))),
        None => match len_1d(s, "shape")? {
            Some(n) => Shape::ranked(vec![Dim::Unknown; n]),
            None => Shape::unranked(),
        },
    };
    Ok(vec![(shape, elem)])
}

pub(super) fn infer_range(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (s, l, d) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, s, l)?;
    same_elem(ctx, s, d)?;
    for o in [s, l, d] {
        if !is_scalar(&o.shape) {
            return Err(format!(
                "start, limit and delta must be scalars, but one has shape {}",
                o.shape
            ));
        }
    }
    let len = match (&s.value, &l.value, &d.value) {
        (Some(s), Some(l), Some(d)) if s.len() == 1 && l.len() == 1 && d.len() == 1 => {
            if d[0] == 0 {
                return Err("delta cannot be 0".into());
            }
            let (start, limit, delta) = (i128::from(s[0]), i128::from(l[0]), i128::from(d[0]));
            let n = ((limit - start + delta - delta.signum()) / delta).max(0);
            Dim::Known(i64::try_from(n).map_err(|_| format!("range of {n} elements is too large"))?)
        }
        // range(0, n, 1) has n elements, whatever n is.
        (Some(s), _, Some(d)) if s == &[0] && d == &[1] => match l.sizes.as_deref() {
            Some([n]) => n.clone(),
            _ => Dim::Unknown,
        },
        _ => Dim::Unknown,
    };
    Ok(vec![(Shape::ranked(vec![len]), ResultElem::Of(s.elem))])
}

pub(super) fn infer_attention(
    ctx: &Context,
    _: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let (q, k, v) = (operand(ops, 0)?, operand(ops, 1)?, operand(ops, 2)?);
    same_elem(ctx, q, k)?;
    same_elem(ctx, q, v)?;
    let (Some(qd), Some(kd), Some(vd)) = (q.shape.dims(), k.shape.dims(), v.shape.dims()) else {
        return Ok(vec![(Shape::unranked(), ResultElem::Of(q.elem))]);
    };
    if qd.len() < 2 || kd.len() < 2 || vd.len() < 2 {
        return Err("q, k and v must have rank 2 or more".into());
    }
    let (l, e) = (&qd[qd.len() - 2], &qd[qd.len() - 1]);
    let (s, ek) = (&kd[kd.len() - 2], &kd[kd.len() - 1]);
    let (sv, ev) = (&vd[vd.len() - 2], &vd[vd.len() - 1]);
    if e.provably_ne(ek) {
        return Err(format!("q and k have different head sizes: {e} vs {ek}"));
    }
    if s.provably_ne(sv) {
        return Err(format!(
            "k and v have different sequence lengths: {s} vs {sv}"
        ));
    }
    // Grouped-query attention: 4-D operands whose key/value head count
    // divides the query head count share each key/value head.
    let grouped = qd.len() == 4
        && kd.len() == 4
        && vd.len() == 4
        && matches!((&qd[1], &kd[1], &vd[1]), (Dim::Known(h), Dim::Known(g), Dim::Known(gv))
            if g == gv && *g > 0 && h % g == 0 && h != g);
    let batch = if grouped {
        broadcast(
            &broadcast(
                &Shape::ranked(qd[..1].to_vec()),
                &Shape::ranked(kd[..1].to_vec()),
            )?,
            &Shape::ranked(vd[..1].to_vec()),
        )
        .map(|b| {
            let mut d = b.dims().map(<[Dim]>::to_vec).unwrap_or_default();
            d.push(qd[1].clone());
            Shape::ranked(d)
        })?
    } else {
        broadcast(
            &broadcast(
                &Shape::ranked(qd[..qd.len() - 2].to_vec()),
                &Shape::ranked(kd[..kd.len() - 2].to_vec()),
            )?,
            &Shape::ranked(vd[..vd.len() - 2].to_vec()),
        )?
    };
    let mut dims = batch.dims().map(<[Dim]>::to_vec).unwrap_or_default();
    dims.push(l.clone());
    dims.push(ev.clone());
    let out = Shape::ranked(dims);
    if let Some(m) = ops.get(3) {
        if !strata_ir::ods::constraints::is_i1(ctx, m.elem) && m.elem != q.elem {
            return Err(format!(
                "mask must be i1 or have q's element type {}, but has {}",
                ty(ctx, q.elem),
                ty(ctx, m.elem)
            ));
        }
        let scores = {
            let mut d = batch.dims().map(<[Dim]>::to_vec).unwrap_or_default();
            d.push(l.clone());
            d.push(s.clone());
            Shape::ranked(d)
        };
        broadcast(&scores, &m.shape).map_err(|e| format!("mask: {e}"))?;
    }
    Ok(vec![(out, ResultElem::Of(q.elem))])
}

pub(super) fn infer_custom(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let name = attr_str(ctx, op, "name").ok_or("requires 'name'")?;
    let version = attr_i64(ctx, op, "version").unwrap_or(1);
    let registry = ctx.registry().extension::<CustomOpRegistry>();
    let def = registry
        .and_then(|r| r.get(&name, version))
        .ok_or_else(|| {
            let known = registry.map(|r| r.versions(&name)).unwrap_or_default();
            if known.is_empty() {
                format!("custom op '{name}' is not registered")
            } else {
                format!(
                "custom op '{name}' version {version} is not registered (registered versions: {})",
                known.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            )
            }
        })?;
    let config = attr(ctx, op, "config");
    let out = (def.shape_fn)(ctx, config, ops)?;
    if out.len() != ctx.results(op).len() {
        return Err(format!(
            "custom op '{name}' produces {} results, but the op has {}",
            out.len(),
            ctx.results(op).len()
        ));
    }
    Ok(out)
}

pub(super) fn infer_gelu(
    ctx: &Context,
    op: Operation,
    ops: &[OperandInfo],
) -> Result<Vec<Inferred>, String> {
    let approx = attr_str(ctx, op, "approximate").unwrap_or_else(|| "none".into());
    if approx != "none" && approx != "tanh" {
        return Err(format!(
            "approximate must be \"none\" or \"tanh\", but is \"{approx}\""
        ));
    }
    infer_same(ctx, op, ops)
}

/// Whether `t` is a float type (for callers checking operands).
pub fn is_float_type(ctx: &Context, t: Type) -> bool {
    is_float(ctx, t)
}
