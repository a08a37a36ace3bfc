//! The `vector` dialect (MLIR's `vector`): the part strata's GPU path
//! uses. `vector.from_elements` gathers the scalars a thread writes with
//! one vector access (`nvptx.store` of a `vector<4xf32>`) or hands to
//! `nvptx.mma_sync` as a fragment; `vector.extract` takes an element (or a
//! sub-vector) back out, as of an `mma_sync` accumulator.

use strata_ir::ods::constraints::AnyType;
use strata_ir::parser::asm::{Delimiter, OpAsmParser};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::printer::type_to_string;
use strata_ir::{op, Context, Diagnostic, Operation, OperationState, TypeKind};

/// A vector of its operands, in order: `vector.from_elements %a, %b :
/// vector<2xf32>` (one operand per element, each of the element type).
#[op("vector.from_elements",
     traits(Pure),
     parse = parse_from_elements,
     print = print_from_elements,
     verify = verify_from_elements)]
pub struct FromElementsOp {
    elements: Variadic<AnyType>,
    dest: Result<AnyType>,
}

/// `%a, %b : vector<2xf32>`: the operands take the vector's element type.
fn parse_from_elements(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let pos = p.pos();
    let operands = p.parse_operand_list(Delimiter::None)?;
    state.attributes.extend(p.parse_optional_attr_dict()?);
    p.parse_punct(strata_ir::parser::asm::Punct::Colon)?;
    let type_pos = p.pos();
    let dest = p.parse_type()?;
    let (count, element) = match p.ctx().type_kind(dest) {
        TypeKind::Vector {
            shape,
            element,
            scalable,
        } if !scalable.contains(&true) => (shape.iter().product::<i64>(), *element),
        _ => {
            let text = type_to_string(p.ctx(), dest);
            return Err(p.error_at(
                type_pos,
                format!(
                    "custom op 'vector.from_elements' invalid kind of type specified: expected builtin.vector, but found '{text}'"
                ),
            ));
        }
    };
    if operands.len() as i64 != count {
        return Err(p.error_at(
            pos,
            format!(
                "custom op 'vector.from_elements' number of operands and types do not match: got {} operands and {count} types",
                operands.len()
            ),
        ));
    }
    for o in operands {
        let v = p.resolve_operand(o, element)?;
        state.operands.push(v);
    }
    state.result_types.push(dest);
    Ok(())
}

fn print_from_elements(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let operands: Vec<_> = ctx.operands(op).collect();
    let dest = ctx.value_type(ctx.result(op, 0));
    p.write_char(' ');
    p.print_operands(operands);
    p.print_optional_attr_dict(op, &[]);
    p.write(" : ");
    p.print_type(dest);
}

/// The result is a vector with one element per operand, of the operands'
/// type (MLIR's `TypesMatchWith` on the element count and type).
fn verify_from_elements(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let dest = ctx.value_type(ctx.result(op, 0));
    if !matches!(ctx.type_kind(dest), TypeKind::Vector { scalable, .. } if !scalable.contains(&true))
    {
        let text = type_to_string(ctx, dest);
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!("result #0 must be fixed-length vector of any type values, but got '{text}'"),
        ));
    }
    let ok = match ctx.type_kind(dest) {
        TypeKind::Vector { shape, element, .. } => {
            shape.iter().product::<i64>() == ctx.num_operands(op) as i64
                && ctx.operands(op).all(|v| ctx.value_type(v) == *element)
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(Diagnostic::op_error(
            ctx,
            op,
            "failed to verify that shaped type 'dest' matches 'elements' element count and types",
        ))
    }
}

/// The element (or sub-vector) of `source` at a static position:
/// `vector.extract %v[1] : f32 from vector<4xf32>`, `vector.extract
/// %w[1] : vector<3xf16> from vector<2x3xf16>` (MLIR's form; positions
/// given by SSA values are not supported).
#[op("vector.extract",
     traits(Pure),
     parse = parse_extract,
     print = print_extract,
     verify = verify_extract)]
pub struct ExtractOp {
    source: Operand<AnyType>,
    static_position: Attr<crate::kernel::I64Array>,
    result: Result<AnyType>,
}

/// `%v[1, 2] attr-dict : T from vector<...>`.
fn parse_extract(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    use strata_ir::parser::asm::Punct;
    let source = p.parse_operand()?;
    p.parse_punct(Punct::LSquare)?;
    let mut position: Vec<u64> = Vec::new();
    if !p.parse_optional_punct(Punct::RSquare) {
        loop {
            let at = p.pos();
            let Some(x) = p.parse_optional_integer()? else {
                return Err(p.error_at(
                    at,
                    "expected an integer position (positions given by SSA values are not supported)",
                ));
            };
            let Ok(x) = i64::try_from(x) else {
                return Err(p.error_at(at, "position does not fit in i64"));
            };
            position.push(x as u64);
            if p.parse_optional_punct(Punct::RSquare) {
                break;
            }
            p.parse_punct(Punct::Comma)?;
        }
    }
    state.attributes.extend(p.parse_optional_attr_dict()?);
    p.parse_punct(Punct::Colon)?;
    let result = p.parse_type()?;
    p.parse_keyword("from")?;
    let source_type = p.parse_type()?;
    let v = p.resolve_operand(source, source_type)?;
    state.operands.push(v);
    state.result_types.push(result);
    let ctx = p.ctx();
    let element = ctx.integer_type(64);
    let attr = ctx.intern_attr(strata_ir::AttrKind::DenseArray {
        element,
        values: position.into(),
    });
    state.attributes.push((ctx.ident("static_position"), attr));
    Ok(())
}

fn print_extract(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let source = ctx.operand(op, 0);
    let position = ExtractOp(op).static_position(ctx).unwrap_or_default();
    let result = ctx.value_type(ctx.result(op, 0));
    let source_type = ctx.value_type(source);
    p.write_char(' ');
    p.print_operand(source);
    let list: Vec<String> = position.iter().map(i64::to_string).collect();
    p.write(&format!("[{}]", list.join(", ")));
    p.print_optional_attr_dict(op, &["static_position"]);
    p.write(" : ");
    p.print_type(result);
    p.write(" from ");
    p.print_type(source_type);
}

/// The position indexes the leading dimensions of a fixed-length source
/// vector (each in range, or -1 for poison), and the result is the rest:
/// the element for a full position, else the vector of the trailing
/// dimensions (MLIR's messages).
fn verify_extract(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let source = ctx.value_type(ctx.operand(op, 0));
    let result = ctx.value_type(ctx.result(op, 0));
    let fail = |m: String| Err(Diagnostic::op_error(ctx, op, m));
    let TypeKind::Vector {
        shape,
        element,
        scalable,
    } = ctx.type_kind(source)
    else {
        let text = type_to_string(ctx, source);
        return fail(format!(
            "operand #0 must be vector of any type values, but got '{text}'"
        ));
    };
    let position = ExtractOp(op).static_position(ctx).unwrap_or_default();
    let result_element = match ctx.type_kind(result) {
        TypeKind::Vector { element, .. } => *element,
        _ => result,
    };
    if result_element != *element {
        return fail("failed to verify that operand and result have same element type".into());
    }
    if position.len() > shape.len() {
        return fail("expected position attribute of rank no greater than vector rank".into());
    }
    for (i, (&x, &d)) in position.iter().zip(shape.iter()).enumerate() {
        if x != -1 && !(0..d).contains(&x) {
            return fail(format!(
                "expected position attribute #{} to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)",
                i + 1
            ));
        }
    }
    let (rest, rest_scalable) = (&shape[position.len()..], &scalable[position.len()..]);
    let matches = if rest.is_empty() {
        result == *element
    } else {
        matches!(ctx.type_kind(result), TypeKind::Vector { shape: s, scalable: f, .. }
            if s.as_slice() == rest && f.as_slice() == rest_scalable)
    };
    if matches {
        return Ok(());
    }
    let inferred = if rest.is_empty() {
        type_to_string(ctx, *element)
    } else {
        vector_text(ctx, rest, rest_scalable, *element)
    };
    fail(format!(
        "inferred type(s) '{inferred}' are incompatible with return type(s) of operation '{}'",
        type_to_string(ctx, result)
    ))
}

/// `vector<2x[4]xf32>` for a shape, its scalable flags and element.
fn vector_text(
    ctx: &Context,
    shape: &[i64],
    scalable: &[bool],
    element: strata_ir::Type,
) -> String {
    let mut s = String::from("vector<");
    for (i, &d) in shape.iter().enumerate() {
        if scalable.get(i).copied().unwrap_or(false) {
            s.push_str(&format!("[{d}]x"));
        } else {
            s.push_str(&format!("{d}x"));
        }
    }
    s.push_str(&type_to_string(ctx, element));
    s.push('>');
    s
}

/// Register the `vector` dialect's ops with `ctx`.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "vector");
}
