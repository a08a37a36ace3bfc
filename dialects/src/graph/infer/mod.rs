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
//!
//! This module holds the machinery the shape functions share
//! ([`ShapeFunction`], [`OperandInfo`], [`infer_results`],
//! [`verify_shapes`], the attribute and operand helpers) and the custom
//! op's shape function; the shape functions themselves are grouped by op
//! family in the submodules (`elementwise`, `nn`, `reduce`, `shape`,
//! `indexing`, `resample`, `signal`, `strings`), as the declarations in
//! `super::ops`.

use strata_ir::attributes::AttrKind;
use strata_ir::types::TypeKind;
use strata_ir::{Attribute, Context, Diagnostic, Operation, Type, Value};

use super::custom::CustomOpRegistry;
use super::shape::{shape_of, Dim, Shape};

pub mod control;
mod elementwise;
mod indexing;
mod nn;
mod recurrent;
mod reduce;
mod resample;
mod shape;
mod signal;
mod strings;

// The shape functions, for the op declarations (`super::ops`).
pub(super) use elementwise::*;
pub(super) use indexing::*;
pub(super) use nn::*;
pub(super) use recurrent::*;
pub(super) use reduce::*;
pub(super) use resample::*;
pub(super) use shape::*;
pub(super) use signal::*;
pub(super) use strings::*;

pub use shape::slice_len;

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
/// none or an operand is not a tensor. A sequence or optional operand (of
/// control flow, whose shape functions read only its count) is described
/// as an unranked value of its own type.
pub fn infer_results(ctx: &Context, op: Operation) -> Option<Result<Vec<Inferred>, String>> {
    let f = ctx.op_interface::<ShapeFunction>(op)?.0;
    let infos: Option<Vec<OperandInfo>> = ctx
        .operands(op)
        .map(|v| {
            let ty = ctx.value_type(v);
            let other = super::types::seq_element(ctx, ty).is_some()
                || super::types::opt_element(ctx, ty).is_some();
            if other {
                return Some(OperandInfo {
                    shape: Shape::unranked(),
                    elem: ty,
                    value: None,
                    sizes: None,
                });
            }
            operand_info(ctx, v)
        })
        .collect();
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

/// The elements of a shape operand as sizes: the constant ones, or the
/// symbolic ones a shape computation gives.
fn target_sizes(s: &OperandInfo) -> Option<Vec<Dim>> {
    match (&s.value, &s.sizes) {
        (Some(v), _) => Some(v.iter().map(|&d| Dim::Known(d)).collect()),
        (None, Some(d)) => Some(d.clone()),
        (None, None) => None,
    }
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

/// Whether `t` is a float type (for callers checking operands).
pub fn is_float_type(ctx: &Context, t: Type) -> bool {
    is_float(ctx, t)
}
