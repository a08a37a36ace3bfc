//! The `vector` dialect (MLIR's `vector`): the part strata's GPU path
//! uses, `vector.from_elements`, which gathers the scalars a thread writes
//! with one vector access (`nvptx.store` of a `vector<4xf32>`).

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

/// Register the `vector` dialect's ops with `ctx`.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "vector");
}
