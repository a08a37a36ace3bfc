//! Verifiers of the `nvptx` ops, and the target every op is checked
//! against: the `nvptx.target` attribute (`"sm_80"`, `"sm_90"`) of the
//! nearest enclosing op that has one (the module), with its optional
//! `nvptx.ptx_version` (`88` for PTX 8.8; 70 to 88, what `ptxas` 12.9
//! accepts and `mma.sync` needs).

use strata_ir::printer::type_to_string;
use strata_ir::{AttrKind, Context, Diagnostic, Operation, Type, TypeKind};

/// The GPU an `nvptx` op compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NvptxTarget {
    /// The compute capability: 80 or 90.
    pub sm: u32,
    /// The PTX ISA version times ten: 70 to 88.
    pub ptx: u32,
}

/// The largest static shared memory of one block, in bytes.
pub const MAX_STATIC_SHARED_BYTES: i64 = 48 * 1024;

fn err(ctx: &Context, op: Operation, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op_error(ctx, op, message)
}

/// The target of `op`: from the nearest enclosing op with `nvptx.target`.
pub fn target_of(ctx: &Context, op: Operation) -> Result<NvptxTarget, Diagnostic> {
    let mut at = ctx.op_parent_op(op);
    while let Some(p) = at {
        if let Some(t) = ctx.op_attr(p, "nvptx.target") {
            let sm = match ctx.attr_kind(t) {
                AttrKind::String { value, .. } => match &value[..] {
                    b"sm_80" => 80,
                    b"sm_90" => 90,
                    other => {
                        return Err(err(
                            ctx,
                            op,
                            format!(
                                "has target '{}': expected sm_80 or sm_90",
                                String::from_utf8_lossy(other)
                            ),
                        ))
                    }
                },
                _ => return Err(err(ctx, op, "has an 'nvptx.target' that is not a string")),
            };
            let ptx = match ctx
                .op_attr(p, "nvptx.ptx_version")
                .map(|a| ctx.attr_kind(a))
            {
                None => 88,
                Some(AttrKind::Integer { value, .. }) => {
                    let v = *value as i64;
                    if !(70..=88).contains(&v) {
                        return Err(err(
                            ctx,
                            op,
                            format!("has PTX version {v}: expected 70 to 88 (PTX 7.0 to 8.8)"),
                        ));
                    }
                    v as u32
                }
                Some(_) => {
                    return Err(err(
                        ctx,
                        op,
                        "has an 'nvptx.ptx_version' that is not an integer",
                    ))
                }
            };
            // sm_90 needs PTX 7.8 or later.
            if sm == 90 && ptx < 78 {
                return Err(err(
                    ctx,
                    op,
                    format!("has PTX version {ptx}: sm_90 needs 78 (PTX 7.8) or later"),
                ));
            }
            return Ok(NvptxTarget { sm, ptx });
        }
        at = ctx.op_parent_op(p);
    }
    Err(err(
        ctx,
        op,
        "is not inside an op with an 'nvptx.target' (a module with nvptx.target = \"sm_80\" or \"sm_90\")",
    ))
}

pub(crate) fn verify_targeted(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    target_of(ctx, op).map(|_| ())
}

pub(crate) fn verify_cluster(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let t = target_of(ctx, op)?;
    if t.sm < 90 {
        return Err(err(
            ctx,
            op,
            format!(
                "needs sm_90 or later (thread block clusters), but the target is sm_{}",
                t.sm
            ),
        ));
    }
    Ok(())
}

fn is_i32_or_f32(ctx: &Context, ty: Type) -> bool {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width: 32, .. } => true,
        TypeKind::Float(_) => ctx.int_or_float_bit_width(ty) == Some(32),
        _ => false,
    }
}

pub(crate) fn verify_shfl(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    target_of(ctx, op)?;
    let value = ctx.value_type(ctx.operand(op, 0));
    let result = ctx.value_type(ctx.result(op, 0));
    if !is_i32_or_f32(ctx, value) {
        return Err(err(
            ctx,
            op,
            format!(
                "shuffles 32-bit values (i32 or f32), not '{}'",
                type_to_string(ctx, value)
            ),
        ));
    }
    if result != value {
        return Err(err(
            ctx,
            op,
            format!(
                "result '{}' must have the value's type '{}'",
                type_to_string(ctx, result),
                type_to_string(ctx, value)
            ),
        ));
    }
    let width = crate::nvptx::ShflSyncOp(op).width(ctx);
    if ![1, 2, 4, 8, 16, 32].contains(&width) {
        return Err(err(
            ctx,
            op,
            format!("width {width} must be a power of two from 1 to 32"),
        ));
    }
    Ok(())
}

pub(crate) fn verify_shared_alloc(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    target_of(ctx, op)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    // Parsing the pointee needs `&mut Context`; read the text instead.
    let TypeKind::Opaque { data, .. } = ctx.type_kind(ty) else {
        return Err(err(ctx, op, "result must be an !nvptx.ptr"));
    };
    if !data.ends_with(", shared>") {
        return Err(err(
            ctx,
            op,
            format!(
                "result '{}' must point to shared memory",
                type_to_string(ctx, ty)
            ),
        ));
    }
    let elements = crate::nvptx::SharedAllocOp(op).elements(ctx).unwrap_or(0);
    if elements < 1 {
        return Err(err(
            ctx,
            op,
            format!("elements must be positive, got {elements}"),
        ));
    }
    let bits = pointee_bits(data).unwrap_or(32);
    let bytes = elements.saturating_mul((bits + 7) / 8);
    if bytes > MAX_STATIC_SHARED_BYTES {
        return Err(err(
            ctx,
            op,
            format!(
                "allocates {bytes} bytes of shared memory, more than a block's static {MAX_STATIC_SHARED_BYTES}"
            ),
        ));
    }
    // All of the kernel's buffers share the block's shared memory: the last
    // one past the limit reports the total.
    let mut kernel = ctx.op_parent_op(op);
    while let Some(k) = kernel {
        if ctx.op_name_str(k) == "func.func" {
            break;
        }
        kernel = ctx.op_parent_op(k);
    }
    if let Some(k) = kernel {
        let mut total: i64 = 0;
        for o in ctx.nested_ops(k, strata_ir::WalkOrder::PreOrder) {
            if ctx.op_name_str(o) != "nvptx.shared_alloc" {
                continue;
            }
            let TypeKind::Opaque { data, .. } = ctx.type_kind(ctx.value_type(ctx.result(o, 0)))
            else {
                continue;
            };
            let n = crate::nvptx::SharedAllocOp(o)
                .elements(ctx)
                .unwrap_or(0)
                .max(0);
            total =
                total.saturating_add(n.saturating_mul((pointee_bits(data).unwrap_or(32) + 7) / 8));
            if o == op {
                break;
            }
        }
        if total > MAX_STATIC_SHARED_BYTES {
            return Err(err(
                ctx,
                op,
                format!(
                    "brings the kernel's shared memory to {total} bytes, more than a block's static {MAX_STATIC_SHARED_BYTES}"
                ),
            ));
        }
    }
    Ok(())
}

/// The bit width of a pointer text's pointee (`ptr<f16, shared>`: 16).
fn pointee_bits(data: &str) -> Option<i64> {
    let inner = data.strip_prefix("ptr<")?;
    let (pointee, _) = inner.rsplit_once(',')?;
    let p = pointee.trim();
    match p {
        "f16" | "bf16" => Some(16),
        "f32" | "tf32" => Some(32),
        "f64" => Some(64),
        _ => p.strip_prefix('i').and_then(|w| w.parse().ok()),
    }
}

/// Checks that `accessed` (a load's result, a store's value) is the pointee
/// of `ptr` or a vector of up to 128 bits of it.
fn check_access(
    ctx: &Context,
    op: Operation,
    ptr: Type,
    accessed: Type,
    what: &str,
) -> Result<(), Diagnostic> {
    target_of(ctx, op)?;
    let TypeKind::Opaque { data, .. } = ctx.type_kind(ptr) else {
        return Err(err(ctx, op, "needs an !nvptx.ptr"));
    };
    let pointee_text = data
        .strip_prefix("ptr<")
        .and_then(|r| r.rsplit_once(','))
        .map(|(p, _)| p.trim().to_string())
        .unwrap_or_default();
    let (element, lanes) = match ctx.type_kind(accessed) {
        TypeKind::Vector { shape, element, .. } if shape.len() == 1 => (*element, shape[0]),
        TypeKind::Vector { .. } => {
            return Err(err(
                ctx,
                op,
                format!("{what} must be a scalar or a 1-D vector"),
            ))
        }
        _ => (accessed, 1),
    };
    if type_to_string(ctx, element) != pointee_text {
        return Err(err(
            ctx,
            op,
            format!(
                "{what} '{}' must be the pointee '{pointee_text}' or a vector of it",
                type_to_string(ctx, accessed)
            ),
        ));
    }
    let bits = ctx.int_or_float_bit_width(element).unwrap_or(0) as i64;
    let total = bits * lanes;
    if lanes < 1 || (lanes & (lanes - 1)) != 0 || total > 128 {
        return Err(err(
            ctx,
            op,
            format!(
                "{what} '{}' is {total} bits: a vector access has a power-of-two length and at most 128 bits",
                type_to_string(ctx, accessed)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_load(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let ptr = ctx.value_type(ctx.operand(op, 0));
    let result = ctx.value_type(ctx.result(op, 0));
    check_access(ctx, op, ptr, result, "result")
}

pub(crate) fn verify_store(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let value = ctx.value_type(ctx.operand(op, 0));
    let ptr = ctx.value_type(ctx.operand(op, 1));
    check_access(ctx, op, ptr, value, "value")
}

/// `vector<N x element>`'s length and element, for a 1-D vector.
fn vector_parts(ctx: &Context, ty: Type) -> Option<(i64, Type)> {
    match ctx.type_kind(ty) {
        TypeKind::Vector { shape, element, .. } if shape.len() == 1 => Some((shape[0], *element)),
        _ => None,
    }
}

pub(crate) fn verify_mma(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let t = target_of(ctx, op)?;
    if t.sm < 80 || t.ptx < 70 {
        return Err(err(ctx, op, "needs sm_80 and PTX 7.0 or later"));
    }
    let types: Vec<Type> = ctx
        .operands(op)
        .map(|v| ctx.value_type(v))
        .chain(std::iter::once(ctx.value_type(ctx.result(op, 0))))
        .collect();
    let show = |t: Type| type_to_string(ctx, t);
    let half = |e: Type| matches!(show(e).as_str(), "f16" | "bf16");
    let f32 = |e: Type| show(e) == "f32";
    let (a, b, c, d) = (types[0], types[1], types[2], types[3]);
    let ok = match (
        vector_parts(ctx, a),
        vector_parts(ctx, b),
        vector_parts(ctx, c),
        vector_parts(ctx, d),
    ) {
        (Some((8, ea)), Some((4, eb)), Some((4, ec)), Some((4, ed))) => {
            half(ea) && ea == eb && f32(ec) && f32(ed)
        }
        _ => false,
    };
    if !ok {
        return Err(err(
            ctx,
            op,
            format!(
                "m16n8k16 takes vector<8xT>, vector<4xT> (T f16 or bf16) and vector<4xf32> to vector<4xf32>, not {}, {}, {} to {}",
                show(a),
                show(b),
                show(c),
                show(d)
            ),
        ));
    }
    Ok(())
}
