//! The custom assembly forms of `scf.for`, `scf.if` and `scf.while`
//! (MLIR's), with the implicit `scf.yield` terminators they leave out.

use strata_ir::parser::asm::{Argument, OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{Context, Diagnostic, Location, Operation, OperationState, Region, Type, Value};

use crate::scf::ops::{ForOp, YieldOp};

/// Adds an empty `scf.yield` to each block of `region` that does not end in
/// a terminator (and a block to an empty region), as
/// `SingleBlockImplicitTerminator` does.
pub(super) fn ensure_terminator(ctx: &mut Context, region: Region, loc: Location) {
    ensure_terminator_with(ctx, region, loc, |ctx, loc| {
        YieldOp::build(ctx, loc, &[]).op()
    });
}

/// [`ensure_terminator`] with the terminator `build` makes (`scf.reduce`
/// for `scf.parallel`).
pub(super) fn ensure_terminator_with(
    ctx: &mut Context,
    region: Region,
    loc: Location,
    build: impl Fn(&mut Context, Location) -> Operation,
) {
    if ctx.region_is_empty(region) {
        let block = ctx.create_block();
        ctx.append_block(region, block);
    }
    let blocks: Vec<_> = ctx.region_blocks(region).collect();
    for block in blocks {
        let terminated = ctx
            .block_last_op(block)
            .and_then(|o| ctx.op_definition(o))
            .is_some_and(|d| d.traits.terminator);
        if !terminated {
            let terminator = build(ctx, loc);
            ctx.append_op(block, terminator);
        }
    }
}

/// `(%a = %x, %b = %y)`: region arguments and their initial values.
pub(super) fn parse_init_list<'a>(
    p: &mut OpAsmParser<'_, 'a>,
) -> Result<
    (
        Vec<Argument<'a>>,
        Vec<strata_ir::parser::UnresolvedOperand<'a>>,
    ),
    Diagnostic,
> {
    let (mut args, mut inits) = (Vec::new(), Vec::new());
    p.parse_punct(Punct::LParen)?;
    if !p.parse_optional_punct(Punct::RParen) {
        loop {
            args.push(p.parse_argument(false, false)?);
            p.parse_punct(Punct::Equal)?;
            inits.push(p.parse_operand()?);
            if !p.parse_optional_punct(Punct::Comma) {
                break;
            }
        }
        p.parse_punct(Punct::RParen)?;
    }
    Ok((args, inits))
}

pub(super) fn print_init_list(
    p: &mut OpAsmPrinter<'_, '_>,
    prefix: &str,
    args: &[Value],
    inits: &[Value],
) {
    if inits.is_empty() {
        return;
    }
    p.write(prefix);
    p.write_char('(');
    for (i, (&arg, &init)) in args.iter().zip(inits).enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_operand(arg);
        p.write(" = ");
        p.print_operand(init);
    }
    p.write_char(')');
}

pub(super) fn parse_for(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    if p.parse_optional_keyword("unsigned") {
        let name = p.ctx().ident("unsignedCmp");
        let unit = p.ctx().unit_attr();
        state.attributes.push((name, unit));
    }
    let mut iv = p.parse_argument(false, false)?;
    p.parse_punct(Punct::Equal)?;
    let lb = p.parse_operand()?;
    p.parse_keyword("to")?;
    let ub = p.parse_operand()?;
    p.parse_keyword("step")?;
    let step = p.parse_operand()?;
    let (mut args, mut inits, mut types) = (Vec::new(), Vec::new(), Vec::new());
    let mut inits_pos = p.pos();
    if p.parse_optional_keyword("iter_args") {
        inits_pos = p.pos();
        (args, inits) = parse_init_list(p)?;
        p.parse_punct(Punct::Arrow)?;
        types = p.parse_function_result_types()?;
        if types.len() != args.len() {
            let pos = p.name_pos();
            return Err(p.error_at(
                pos,
                "mismatch in number of loop-carried values and defined values",
            ));
        }
    }
    let iv_type = if p.parse_optional_punct(Punct::Colon) {
        p.parse_type()?
    } else {
        p.ctx().index_type()
    };
    iv.ty = Some(iv_type);
    for (arg, &ty) in args.iter_mut().zip(&types) {
        arg.ty = Some(ty);
    }
    let mut region_args = vec![iv];
    region_args.extend(args);
    let region = p.ctx().create_region();
    p.parse_region(region, &region_args)?;
    let loc = p.loc(p.name_pos());
    ensure_terminator(p.ctx(), region, loc);
    state.regions.push(region);
    state.attributes.extend(p.parse_optional_attr_dict()?);
    let bounds = p.resolve_operands(&[lb, ub, step], &[iv_type; 3], inits_pos)?;
    state.operands.extend(bounds);
    let inits = p.resolve_operands(&inits, &types, inits_pos)?;
    state.operands.extend(inits);
    state.result_types = types;
    Ok(())
}

pub(super) fn print_for(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let for_op = ForOp(op);
    if for_op.unsigned_cmp(ctx).is_some() {
        p.write(" unsigned");
    }
    let Some(region) = for_op.region(ctx) else {
        return;
    };
    let Some(body) = ctx.region_entry_block(region) else {
        return;
    };
    let args: Vec<Value> = ctx.block_args(body).collect();
    let Some((&iv, iter_args)) = args.split_first() else {
        return;
    };
    p.write_char(' ');
    p.print_operand(iv);
    p.write(" = ");
    p.print_operand(ctx.operand(op, 0));
    p.write(" to ");
    p.print_operand(ctx.operand(op, 1));
    p.write(" step ");
    p.print_operand(ctx.operand(op, 2));
    let inits = for_op.init_args(ctx);
    print_init_list(p, " iter_args", iter_args, &inits);
    if !inits.is_empty() {
        p.write(" -> (");
        p.print_value_types(inits.iter().copied());
        p.write_char(')');
    }
    p.write_char(' ');
    let iv_type = ctx.value_type(iv);
    if !matches!(ctx.type_kind(iv_type), strata_ir::TypeKind::Index) {
        p.write(" : ");
        p.print_type(iv_type);
        p.write_char(' ');
    }
    p.print_region(region, false, !inits.is_empty());
    p.print_optional_attr_dict(op, &["unsignedCmp"]);
}

pub(super) fn parse_if(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let cond = p.parse_operand()?;
    let i1 = p.ctx().integer_type(1);
    let cond = p.resolve_operand(cond, i1)?;
    state.operands.push(cond);
    if p.parse_optional_punct(Punct::Arrow) {
        state.result_types = p.parse_function_result_types()?;
    }
    let loc = p.loc(p.name_pos());
    let then_region = p.ctx().create_region();
    p.parse_region(then_region, &[])?;
    ensure_terminator(p.ctx(), then_region, loc);
    let else_region = p.ctx().create_region();
    if p.parse_optional_keyword("else") {
        p.parse_region(else_region, &[])?;
        ensure_terminator(p.ctx(), else_region, loc);
    }
    state.regions.push(then_region);
    state.regions.push(else_region);
    state.attributes.extend(p.parse_optional_attr_dict()?);
    Ok(())
}

pub(super) fn print_if(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    p.write_char(' ');
    p.print_operand(ctx.operand(op, 0));
    let has_results = ctx.num_results(op) > 0;
    if has_results {
        p.write(" -> (");
        p.print_value_types(ctx.results(op));
        p.write_char(')');
    }
    let regions = ctx.op_regions(op).to_vec();
    p.write_char(' ');
    if let Some(&then_region) = regions.first() {
        p.print_region(then_region, false, has_results);
    }
    if let Some(&else_region) = regions.get(1) {
        if !ctx.region_is_empty(else_region) {
            p.write(" else ");
            p.print_region(else_region, false, has_results);
        }
    }
    p.print_optional_attr_dict(op, &[]);
}

pub(super) fn parse_while(
    p: &mut OpAsmParser<'_, '_>,
    state: &mut OperationState,
) -> Result<(), Diagnostic> {
    let (mut args, mut inits) = (Vec::new(), Vec::new());
    let pos = p.pos();
    if p.peek_punct(Punct::LParen) {
        (args, inits) = parse_init_list(p)?;
    }
    let type_pos = p.pos();
    p.parse_punct(Punct::Colon)?;
    let (inputs, results) = p.parse_function_type()?;
    if inputs.len() != inits.len() {
        return Err(p.error_at(
            type_pos,
            format!(
                "expected as many input types as operands (expected {} got {})",
                inits.len(),
                inputs.len()
            ),
        ));
    }
    let values = p.resolve_operands(&inits, &inputs, pos)?;
    state.operands = values;
    state.result_types = results;
    for (arg, &ty) in args.iter_mut().zip(&inputs) {
        arg.ty = Some(ty);
    }
    let before = p.ctx().create_region();
    p.parse_region(before, &args)?;
    p.parse_keyword("do")?;
    let after = p.ctx().create_region();
    p.parse_region(after, &[])?;
    state.regions.push(before);
    state.regions.push(after);
    state
        .attributes
        .extend(p.parse_optional_attr_dict_with_keyword()?);
    Ok(())
}

pub(super) fn print_while(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let regions = ctx.op_regions(op).to_vec();
    let (Some(&before), Some(&after)) = (regions.first(), regions.get(1)) else {
        return;
    };
    let inits: Vec<Value> = ctx.operands(op).collect();
    let before_args: Vec<Value> = ctx
        .region_entry_block(before)
        .map(|b| ctx.block_args(b).collect())
        .unwrap_or_default();
    print_init_list(p, " ", &before_args, &inits);
    p.write(" : ");
    let inputs: Vec<Type> = inits.iter().map(|&v| ctx.value_type(v)).collect();
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    p.print_function_type(&inputs, &results);
    p.write_char(' ');
    p.print_region(before, false, true);
    p.write(" do ");
    p.print_region(after, true, true);
    p.print_optional_attr_dict_with_keyword(op, &[]);
}
