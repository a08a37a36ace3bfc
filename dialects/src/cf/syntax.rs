//! The custom assembly form of `cf.switch`, as MLIR 22 reads and writes it:
//!
//! ```text
//! cf.switch %flag : i32, [
//!   default: ^bb1(%a : i32),
//!   42: ^bb2(%b : i32),
//!   43: ^bb3
//! ]
//! ```
//!
//! A case value is read as a 64-bit integer and truncated to the flag's
//! width; it is written zero-extended (`255` for an `i8` -1), as MLIR's
//! `getLimitedValue` does. (So a negative `i64` case value is written as
//! a number above `i64::MAX`, which neither MLIR 22 nor strata reads back.)

use strata_ir::attributes::AttrKind;
use strata_ir::parser::asm::{Delimiter, OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{Context, Diagnostic, Operation, OperationState, TypeKind, Value};

use super::ops::SwitchOp;

/// The properties the custom form spells itself.
const SPELLED: &[&str] = &[
    "case_values",
    "case_operand_segments",
    "operandSegmentSizes",
];

/// `(%a, %b : t1, t2)` after a successor, or nothing.
fn parse_successor_operands(p: &mut OpAsmParser<'_, '_>) -> Result<Vec<Value>, Diagnostic> {
    if !p.parse_optional_punct(Punct::LParen) {
        return Ok(Vec::new());
    }
    let pos = p.pos();
    let operands = p.parse_operand_list(Delimiter::None)?;
    let types = p.parse_colon_type_list()?;
    p.parse_punct(Punct::RParen)?;
    p.resolve_operands(&operands, &types, pos)
}

/// An `i32` dense array.
pub(super) fn parse_switch(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let flag = p.parse_operand()?;
    p.parse_punct(Punct::Colon)?;
    let flag_pos = p.pos();
    let flag_type = p.parse_type()?;
    let flag = p.resolve_operand(flag, flag_type)?;
    let width = match p.ctx().type_kind(flag_type) {
        TypeKind::Integer { width, .. } => *width,
        _ => return Err(p.error_at(flag_pos, "expected an integer type")),
    };
    p.parse_punct(Punct::Comma)?;
    p.parse_punct(Punct::LSquare)?;
    p.parse_keyword("default")?;
    p.parse_punct(Punct::Colon)?;
    let default = p.parse_successor()?;
    let default_operands = parse_successor_operands(p)?;
    let (mut values, mut dests, mut case_operands, mut segments) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    while p.parse_optional_punct(Punct::Comma) {
        let pos = p.pos();
        // A literal past 128 bits is as "too large" as one past 64.
        let value = match p.parse_optional_integer() {
            Ok(Some(value)) => value,
            Ok(None) => return Err(p.error("expected integer value")),
            Err(diag) if diag.message.contains("too large") => {
                return Err(p.error_at(pos, "integer value too large"))
            }
            Err(diag) => return Err(diag),
        };
        let value = i64::try_from(value).map_err(|_| p.error_at(pos, "integer value too large"))?;
        // Truncated (or sign-extended) to the flag's width, as MLIR's
        // APInt of the value is.
        values.push(value);
        p.parse_punct(Punct::Colon)?;
        dests.push(p.parse_successor()?);
        let operands = parse_successor_operands(p)?;
        segments.push(operands.len());
        case_operands.extend(operands);
    }
    p.parse_punct(Punct::RSquare)?;
    state.attributes.extend(p.parse_optional_attr_dict()?);
    let ctx = p.ctx();
    if !values.is_empty() {
        let ty = ctx.intern_type(TypeKind::Vector {
            shape: vec![values.len() as i64],
            scalable: vec![false],
            element: flag_type,
        });
        let raw: Vec<u8> = values.iter().flat_map(|&v| int_bytes(v, width)).collect();
        let attr = ctx.dense_elements_attr(ty, raw).ok_or_else(|| {
            Diagnostic::error(state.loc, "case values that do not fit their type")
        })?;
        state.attributes.push((ctx.ident("case_values"), attr));
    }
    let segments_attr = ctx.segment_sizes_attr(&segments);
    state
        .attributes
        .push((ctx.ident("case_operand_segments"), segments_attr));
    let sizes = ctx.segment_sizes_attr(&[1, default_operands.len(), case_operands.len()]);
    state
        .attributes
        .push((ctx.ident("operandSegmentSizes"), sizes));
    state.operands.push(flag);
    state.operands.extend(default_operands);
    state.operands.extend(case_operands);
    state.successors.push(default);
    state.successors.extend(dests);
    Ok(())
}

/// `^bb1(%a, %b : t1, t2)`, or `^bb1` without operands.
fn print_successor_and_operands(
    p: &mut OpAsmPrinter<'_, '_>,
    block: strata_ir::Block,
    operands: &[Value],
) {
    p.print_successor(block);
    if !operands.is_empty() {
        p.write_char('(');
        p.print_operands(operands.iter().copied());
        p.write(" : ");
        p.print_value_types(operands.iter().copied());
        p.write_char(')');
    }
}

/// The case values, zero-extended from their width (the low 128 bits).
pub(super) fn case_values(ctx: &Context, op: Operation) -> Vec<u128> {
    let Some(attr) = SwitchOp(op).case_values(ctx) else {
        return Vec::new();
    };
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(attr) else {
        return Vec::new();
    };
    let kind = ctx.type_kind(*ty);
    let count: i64 = kind.shape().map_or(1, |s| s.iter().product());
    let width = kind
        .element_type()
        .and_then(|e| ctx.int_or_float_bit_width(e))
        .unwrap_or(64);
    let bytes = width.div_ceil(8) as usize;
    let kept = bytes.min(16);
    let mask = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    (0..count.max(0) as usize)
        .map(|i| {
            let i = if data.splat { 0 } else { i };
            let mut buf = [0u8; 16];
            if let Some(b) = data.raw.get(i * bytes..i * bytes + kept) {
                buf[..kept].copy_from_slice(b);
            }
            u128::from_le_bytes(buf) & mask
        })
        .collect()
}

/// The operands of each case, by `case_operand_segments`.
pub(super) fn case_operand_groups(ctx: &Context, op: Operation) -> Vec<Vec<Value>> {
    let operands = SwitchOp(op).case_operands(ctx);
    let sizes: Vec<usize> = match SwitchOp(op)
        .case_operand_segments(ctx)
        .map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::DenseArray { values, .. }) => {
            values.iter().map(|&v| v as u32 as usize).collect()
        }
        _ => Vec::new(),
    };
    let mut groups = Vec::new();
    let mut at = 0;
    for size in sizes {
        let end = (at + size).min(operands.len());
        groups.push(operands[at.min(end)..end].to_vec());
        at = end;
    }
    groups
}

pub(super) fn print_switch(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let switch = SwitchOp(op);
    if let Some(flag) = switch.flag(ctx) {
        p.write_char(' ');
        p.print_operand(flag);
        p.write(" : ");
        p.print_type(ctx.value_type(flag));
    }
    p.write(", [");
    p.print_newline(0);
    p.write("  default: ");
    let successors: Vec<strata_ir::Block> = ctx.successors(op).collect();
    if let Some(&default) = successors.first() {
        print_successor_and_operands(p, default, &switch.default_operands(ctx));
    }
    let values = case_values(ctx, op);
    let groups = case_operand_groups(ctx, op);
    for (i, value) in values.iter().enumerate() {
        p.write_char(',');
        p.print_newline(0);
        // MLIR prints `getLimitedValue()`: a value past 64 bits as the
        // largest 64-bit one.
        let shown = u64::try_from(*value).unwrap_or(u64::MAX);
        p.write(&format!("  {shown}: "));
        if let Some(&dest) = successors.get(i + 1) {
            print_successor_and_operands(p, dest, groups.get(i).map_or(&[], |g| g.as_slice()));
        }
    }
    if !values.is_empty() {
        p.print_newline(0);
    }
    p.write_char(']');
    p.print_optional_attr_dict(op, SPELLED);
}

/// The little-endian bytes of `value` sign-extended (or truncated) to an
/// integer of `width` bits, as a dense elements attribute stores it.
pub(super) fn int_bytes(value: i64, width: u32) -> Vec<u8> {
    let bytes = width.div_ceil(8) as usize;
    let fill = if value < 0 { 0xFF } else { 0 };
    let mut out: Vec<u8> = (value as i128).to_le_bytes().to_vec();
    out.resize(bytes.max(16), fill);
    out.truncate(bytes);
    // Clear the bits past the width in the last byte.
    if !width.is_multiple_of(8) {
        if let Some(last) = out.last_mut() {
            *last &= (1u8 << (width % 8)) - 1;
        }
    }
    out
}
