//! The custom forms of `kernel.func` (`func.func`'s), `kernel.load` and
//! `kernel.store` (Triton's: `%v = kernel.load %ptr, %mask, %other : T`).

use strata_ir::parser::asm::{Delimiter, OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{Context, Diagnostic, Operation, OperationState, Type};

use crate::kernel::types::{element_of, pointee, shaped_like};

pub(crate) fn parse_kernel_func(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    crate::func::syntax::parse_func(p, state)
}

pub(crate) fn print_kernel_func(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    crate::func::syntax::print_func(p, op)
}

/// `array<i32: sizes...>` for `operandSegmentSizes`.
pub fn segment_sizes(ctx: &mut Context, sizes: &[u64]) -> strata_ir::Attribute {
    let sizes: Vec<usize> = sizes.iter().map(|&n| n as usize).collect();
    ctx.segment_sizes_attr(&sizes)
}

/// The mask type for pointers of type `ptr`: `i1` shaped as them.
fn mask_type(ctx: &mut Context, ptr: Type) -> Type {
    let i1 = ctx.integer_type(1);
    shaped_like(ctx, ptr, i1)
}

/// The value type for pointers of type `ptr`: their pointee, shaped as them.
pub(crate) fn value_type(ctx: &mut Context, ptr: Type) -> Option<Type> {
    let element = element_of(ctx, ptr);
    let pointee = pointee(ctx, element)?;
    Some(shaped_like(ctx, ptr, pointee))
}

/// `%ptr (, %mask (, %other)?)? attr-dict : type(ptr)`.
pub(crate) fn parse_load(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let pos = p.pos();
    let operands = p.parse_operand_list(Delimiter::None)?;
    if operands.is_empty() || operands.len() > 3 {
        return Err(p.error_at(pos, "expected 1 to 3 operands (pointer, mask, other)"));
    }
    state.attributes.extend(p.parse_optional_attr_dict()?);
    p.parse_punct(Punct::Colon)?;
    let type_pos = p.pos();
    let ptr = p.parse_type()?;
    let Some(value) = value_type(p.ctx(), ptr) else {
        return Err(p.error_at(type_pos, "expected a pointer type or a tile of pointers"));
    };
    let mask = mask_type(p.ctx(), ptr);
    let types = [ptr, mask, value];
    let values = p.resolve_operands(&operands, &types[..operands.len()], pos)?;
    let n = values.len() as u64;
    let sizes = segment_sizes(p.ctx(), &[1, u64::from(n > 1), u64::from(n > 2)]);
    let name = p.ctx().ident("operandSegmentSizes");
    state.attributes.push((name, sizes));
    state.operands = values;
    state.result_types.push(value);
    Ok(())
}

pub(crate) fn print_load(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    p.write_char(' ');
    p.print_operands(ctx.operands(op));
    p.print_optional_attr_dict(op, &["operandSegmentSizes"]);
    p.write(" : ");
    p.print_type(ctx.value_type(ctx.operand(op, 0)));
}

/// `%ptr, %value (, %mask)? attr-dict : type(ptr)`.
pub(crate) fn parse_store(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let pos = p.pos();
    let operands = p.parse_operand_list(Delimiter::None)?;
    if operands.len() < 2 || operands.len() > 3 {
        return Err(p.error_at(pos, "expected 2 or 3 operands (pointer, value, mask)"));
    }
    state.attributes.extend(p.parse_optional_attr_dict()?);
    p.parse_punct(Punct::Colon)?;
    let type_pos = p.pos();
    let ptr = p.parse_type()?;
    let Some(value) = value_type(p.ctx(), ptr) else {
        return Err(p.error_at(type_pos, "expected a pointer type or a tile of pointers"));
    };
    let mask = mask_type(p.ctx(), ptr);
    let types = [ptr, value, mask];
    state.operands = p.resolve_operands(&operands, &types[..operands.len()], pos)?;
    Ok(())
}

pub(crate) fn print_store(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    p.write_char(' ');
    p.print_operands(ctx.operands(op));
    p.print_optional_attr_dict(op, &[]);
    p.write(" : ");
    p.print_type(ctx.value_type(ctx.operand(op, 0)));
}
