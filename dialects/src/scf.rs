//! The `scf` dialect: structured control flow (MLIR's `scf`): `for` loops
//! with loop-carried values, `if` with results, `while` loops.

use strata_ir::interfaces::{RegionBranch, RegionSuccessor};
use strata_ir::ods::constraints::{AnyType, UnitAttr, I1};
use strata_ir::parser::asm::{Argument, OpAsmParser, Punct};
use strata_ir::printer::asm::OpAsmPrinter;
use strata_ir::{
    op, type_constraint, Context, Diagnostic, Location, Operation, OperationState, Region, Type,
    Value,
};

type_constraint!(
    /// A signless integer or index (loop bounds).
    AnySignlessIntegerOrIndex, "signless integer or index", |ctx, ty| strata_ir::ods::constraints::is_signless_int_or_index(ctx, ty)
);

fn type_str(ctx: &Context, ty: Type) -> String {
    strata_ir::printer::type_to_string(ctx, ty)
}

/// Adds an empty `scf.yield` to each block of `region` that does not end in
/// a terminator (and a block to an empty region), as
/// `SingleBlockImplicitTerminator` does.
fn ensure_terminator(ctx: &mut Context, region: Region, loc: Location) {
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
            let yield_op = YieldOp::build(ctx, loc, &[]);
            ctx.append_op(block, yield_op.op());
        }
    }
}

/// The terminator of the single block of `region`.
fn terminator(ctx: &Context, region: Region) -> Option<Operation> {
    ctx.region_entry_block(region)
        .and_then(|b| ctx.block_last_op(b))
}

/// `(%a = %x, %b = %y)`: region arguments and their initial values.
fn parse_init_list<'a>(
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

fn print_init_list(p: &mut OpAsmPrinter<'_, '_>, prefix: &str, args: &[Value], inits: &[Value]) {
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

// ----- for -----

/// For operation.
///
/// Iterates from `lowerBound` to `upperBound` (exclusive) by `step`; the body
/// receives the induction variable and the loop-carried values (`iter_args`),
/// and yields the next values; the results are the final values.
#[op("scf.for",
     traits(RecursiveMemoryEffects, ImplicitTerminator, SingleBlock),
     all_types_match(lowerBound, upperBound, step),
     parse = parse_for,
     print = print_for,
     verify = verify_for,
     verify_regions = verify_for_regions,
     canonicalize = for_patterns,
     interfaces(RegionBranch { successors: for_successors }))]
pub struct ForOp {
    lowerBound: Operand<AnySignlessIntegerOrIndex>,
    upperBound: Operand<AnySignlessIntegerOrIndex>,
    step: Operand<AnySignlessIntegerOrIndex>,
    initArgs: Variadic<AnyType>,
    unsignedCmp: OptionalAttr<UnitAttr>,
    results: VariadicResult<AnyType>,
    region: SizedRegion<1>,
}

fn parse_for(p: &mut OpAsmParser<'_, '_>, state: &mut OperationState) -> Result<(), Diagnostic> {
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

fn print_for(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
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

fn verify_for(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let for_op = ForOp(op);
    if for_op.init_args(ctx).len() != ctx.num_results(op) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "mismatch in number of loop-carried values and defined values",
        ));
    }
    Ok(())
}

fn verify_for_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let for_op = ForOp(op);
    let Some(body) = for_op.region(ctx).and_then(|r| ctx.region_entry_block(r)) else {
        return Ok(());
    };
    let args: Vec<Value> = ctx.block_args(body).collect();
    let inits = for_op.init_args(ctx);
    let Some((&iv, iter_args)) = args.split_first() else {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "different number of inits and region iter_args: {} != {}",
                inits.len(),
                u64::MAX
            ),
        ));
    };
    if ctx.value_type(iv) != ctx.value_type(ctx.operand(op, 0)) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "expected induction variable to be same type as bounds and step",
        ));
    }
    if iter_args.len() != inits.len() {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "different number of inits and region iter_args: {} != {}",
                inits.len(),
                iter_args.len()
            ),
        ));
    }
    for (i, (&init, &arg)) in inits.iter().zip(iter_args).enumerate() {
        let (a, b) = (ctx.value_type(init), ctx.value_type(arg));
        if a != b {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "{i}-th init and {i}-th region iter_arg have different type: '{}' != '{}'",
                    type_str(ctx, a),
                    type_str(ctx, b)
                ),
            ));
        }
    }
    for (i, (&arg, result)) in iter_args.iter().zip(ctx.results(op)).enumerate() {
        let (a, b) = (ctx.value_type(arg), ctx.value_type(result));
        if a != b {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "{i}-th region iter_arg and {i}-th loop result have different type: '{}' != '{}'",
                    type_str(ctx, a),
                    type_str(ctx, b)
                ),
            ));
        }
    }
    if let Some(yield_op) = ctx
        .block_last_op(body)
        .filter(|&y| ctx.op_name_str(y) == YieldOp::NAME)
    {
        let yielded: Vec<Value> = ctx.operands(yield_op).collect();
        if yielded.len() != iter_args.len() {
            let iter_types: Vec<Type> = iter_args.iter().map(|&v| ctx.value_type(v)).collect();
            check_edge(ctx, op, yield_op, "Region #0", &yielded, &iter_types)?;
        }
        for (i, (&arg, &value)) in iter_args.iter().zip(&yielded).enumerate() {
            let (a, b) = (ctx.value_type(arg), ctx.value_type(value));
            if a != b {
                return Err(Diagnostic::op_error(
                    ctx,
                    op,
                    format!(
                        "{i}-th region iter_arg and {i}-th yielded value have different type: '{}' != '{}'",
                        type_str(ctx, a),
                        type_str(ctx, b)
                    ),
                ));
            }
        }
    }
    Ok(())
}

// ----- if -----

/// If-then-else operation.
///
/// Runs the `then` region when the condition holds, else the `else` region;
/// with results, both regions yield them (and the `else` region is required).
#[op("scf.if",
     traits(RecursiveMemoryEffects, ImplicitTerminator, SingleBlock),
     parse = parse_if,
     print = print_if,
     verify = verify_if,
     verify_regions = verify_if_regions,
     canonicalize = if_patterns,
     interfaces(RegionBranch { successors: if_successors }))]
pub struct IfOp {
    condition: Operand<I1>,
    results: VariadicResult<AnyType>,
    thenRegion: SizedRegion<1>,
    elseRegion: Region,
}

fn parse_if(p: &mut OpAsmParser<'_, '_>, state: &mut OperationState) -> Result<(), Diagnostic> {
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

fn print_if(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
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

fn verify_if(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    for (i, &region) in ctx.op_regions(op).iter().enumerate() {
        if ctx
            .region_entry_block(region)
            .is_some_and(|b| ctx.num_block_args(b) > 0)
        {
            return Err(Diagnostic::op_error(
                ctx,
                op,
                format!("region #{i} should have no arguments"),
            ));
        }
    }
    let else_empty = ctx
        .op_regions(op)
        .get(1)
        .is_none_or(|&r| ctx.region_is_empty(r));
    if ctx.num_results(op) != 0 && else_empty {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "must have an else block if defining values",
        ));
    }
    Ok(())
}

/// MLIR's region-branch check of values flowing from `terminator` to the
/// results of `op` (`to parent`) or to a region's arguments.
fn check_edge(
    ctx: &Context,
    op: Operation,
    from: Operation,
    to: &str,
    operands: &[Value],
    inputs: &[Type],
) -> Result<(), Diagnostic> {
    let from_name = if from == op {
        "parent".to_string()
    } else {
        format!("Operation {}", ctx.op_name_str(from))
    };
    let note = |d: Diagnostic| d.with_note(ctx.op_loc(from), "region branch point");
    if operands.len() != inputs.len() {
        return Err(note(Diagnostic::op_error(
            ctx,
            op,
            format!(
                "along control flow edge from {from_name} to {to}: region branch point has {} operands, but region successor needs {} inputs",
                operands.len(),
                inputs.len()
            ),
        )));
    }
    for (i, (&value, &ty)) in operands.iter().zip(inputs).enumerate() {
        let have = ctx.value_type(value);
        if have != ty {
            return Err(note(Diagnostic::op_error(
                ctx,
                op,
                format!(
                    "along control flow edge from {from_name} to {to}: successor operand type #{i} '{}' should match successor input type #{i} '{}'",
                    type_str(ctx, have),
                    type_str(ctx, ty)
                ),
            )));
        }
    }
    Ok(())
}

fn verify_if_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    for &region in ctx.op_regions(op) {
        if let Some(term) = terminator(ctx, region).filter(|&t| ctx.op_name_str(t) == YieldOp::NAME)
        {
            let operands: Vec<Value> = ctx.operands(term).collect();
            check_edge(ctx, op, term, "parent", &operands, &results)?;
        }
    }
    Ok(())
}

// ----- while -----

/// A generic 'while' loop.
///
/// The `before` region computes the condition and forwards values with
/// `scf.condition`; while it holds, the `after` region runs on them and
/// yields the next values of the `before` region's arguments.
#[op("scf.while",
     traits(RecursiveMemoryEffects, SingleBlock),
     parse = parse_while,
     print = print_while,
     verify_regions = verify_while_regions,
     interfaces(RegionBranch { successors: while_successors }))]
pub struct WhileOp {
    inits: Variadic<AnyType>,
    results: VariadicResult<AnyType>,
    before: SizedRegion<1>,
    after: SizedRegion<1>,
}

fn parse_while(p: &mut OpAsmParser<'_, '_>, state: &mut OperationState) -> Result<(), Diagnostic> {
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

fn print_while(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
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

fn verify_while_regions(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let regions = ctx.op_regions(op).to_vec();
    let (Some(&before), Some(&after)) = (regions.first(), regions.get(1)) else {
        return Ok(());
    };
    let expect_terminator = |region: Region, name: &str, which: &str| {
        let term = terminator(ctx, region);
        match term.filter(|&t| ctx.op_name_str(t) == name) {
            Some(t) => Ok(t),
            None => {
                let error = Diagnostic::op_error(
                    ctx,
                    op,
                    format!("expects the '{which}' region to terminate with '{name}'"),
                );
                Err(match term {
                    Some(t) => error.with_note(ctx.op_loc(t), "terminator here"),
                    None => error,
                })
            }
        }
    };
    let condition = expect_terminator(before, ConditionOp::NAME, "before")?;
    let yield_op = expect_terminator(after, YieldOp::NAME, "after")?;
    let block_types = |region: Region| -> Vec<Type> {
        ctx.region_entry_block(region)
            .map(|b| ctx.block_args(b).map(|v| ctx.value_type(v)).collect())
            .unwrap_or_default()
    };
    let inits: Vec<Value> = ctx.operands(op).collect();
    let forwarded: Vec<Value> = ctx.operands(condition).skip(1).collect();
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    let yielded: Vec<Value> = ctx.operands(yield_op).collect();
    let before_types = block_types(before);
    check_edge(ctx, op, op, "Region #0", &inits, &before_types)?;
    check_edge(ctx, op, condition, "parent", &forwarded, &results)?;
    check_edge(
        ctx,
        op,
        condition,
        "Region #1",
        &forwarded,
        &block_types(after),
    )?;
    check_edge(ctx, op, yield_op, "Region #0", &yielded, &before_types)?;
    Ok(())
}

// ----- terminators -----

/// Loop yield and termination operation: the values a region of `scf.for`,
/// `scf.if` or `scf.while` produces.
#[op("scf.yield",
     traits(Pure, Terminator, ReturnLike),
     format = "attr-dict ($results^ `:` type($results))?",
     verify = verify_yield)]
pub struct YieldOp {
    results: Variadic<AnyType>,
}

fn verify_yield(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let parent = ctx.op_parent_op(op).map(|p| ctx.op_name_str(p));
    if !matches!(
        parent,
        Some("scf.execute_region" | "scf.for" | "scf.if" | "scf.index_switch" | "scf.while")
    ) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'",
        ));
    }
    Ok(())
}

/// Loop continuation condition of `scf.while`: whether to run the `after`
/// region, and the values forwarded to it (or to the results).
#[op("scf.condition",
     traits(Pure, Terminator),
     format = "`(` $condition `)` attr-dict ($args^ `:` type($args))?",
     verify = verify_condition)]
pub struct ConditionOp {
    condition: Operand<I1>,
    args: Variadic<AnyType>,
}

fn verify_condition(ctx: &Context, op: Operation) -> Result<(), Diagnostic> {
    let parent = ctx.op_parent_op(op).map(|p| ctx.op_name_str(p));
    if parent != Some(WhileOp::NAME) {
        return Err(Diagnostic::op_error(
            ctx,
            op,
            "expects parent op 'scf.while'",
        ));
    }
    Ok(())
}

// ----- region-branch interface -----

/// `scf.for`: entering may skip the loop (zero trips) or run the body; the
/// body's end goes around again or out.
fn for_successors(_: &Context, _: Operation, point: Option<usize>) -> Vec<RegionSuccessor> {
    let _ = point;
    vec![RegionSuccessor::Region(0), RegionSuccessor::Parent]
}

/// `scf.if`: entering goes to either region (an empty `else` means straight
/// out); each region's end goes out.
fn if_successors(ctx: &Context, op: Operation, point: Option<usize>) -> Vec<RegionSuccessor> {
    if point.is_some() {
        return vec![RegionSuccessor::Parent];
    }
    let mut successors = vec![RegionSuccessor::Region(0)];
    match ctx.op_regions(op).get(1) {
        Some(&r) if !ctx.region_is_empty(r) => successors.push(RegionSuccessor::Region(1)),
        _ => successors.push(RegionSuccessor::Parent),
    }
    successors
}

/// `scf.while`: entering runs `before`; its `scf.condition` goes to `after`
/// or out; `after` goes back to `before`.
fn while_successors(_: &Context, _: Operation, point: Option<usize>) -> Vec<RegionSuccessor> {
    match point {
        None | Some(1) => vec![RegionSuccessor::Region(0)],
        Some(_) => vec![RegionSuccessor::Region(1), RegionSuccessor::Parent],
    }
}

/// Register the scf dialect.
pub fn register(ctx: &mut Context) {
    strata_ir::ods::register_dialect_ops(ctx, "scf");
}

// ----- canonicalization patterns -----

use strata_ir::rewrite::{FnPattern, PatternRewriter, RewritePatternSet};

/// The integer an `arith.constant`-like value holds.
fn constant_int(rewriter: &mut PatternRewriter<'_>, value: Value) -> Option<i128> {
    let attr = strata_ir::rewrite::constant_value(rewriter.ctx_mut(), value)?;
    match rewriter.ctx().attr_kind(attr) {
        strata_ir::AttrKind::Integer { ty, value } => {
            let width = rewriter.ctx().int_or_float_bit_width(*ty)?;
            Some(strata_ir::attributes::sign_extend(*value, width))
        }
        _ => None,
    }
}

/// Move the ops of `block` but its terminator before `before`, with the
/// block's arguments replaced by `args`; returns the terminator's operands.
fn inline_block_before(
    rewriter: &mut PatternRewriter<'_>,
    block: strata_ir::Block,
    before: Operation,
    args: &[Value],
) -> Vec<Value> {
    let params: Vec<Value> = rewriter.ctx().block_args(block).collect();
    for (&param, &arg) in params.iter().zip(args) {
        rewriter.replace_all_uses_with(param, arg);
    }
    let ops: Vec<Operation> = rewriter.ctx().block_ops(block).collect();
    let Some((&terminator, body)) = ops.split_last() else {
        return Vec::new();
    };
    for &op in body {
        rewriter.move_op_before(op, before);
    }
    rewriter.ctx().operands(terminator).collect()
}

/// `scf.if` on a constant condition: the taken region's ops replace it
/// (MLIR's `RemoveStaticCondition`).
fn remove_static_condition(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    let cond = rewriter.ctx().operand(op, 0);
    let Some(value) = constant_int(rewriter, cond) else {
        return false;
    };
    let regions = rewriter.ctx().op_regions(op).to_vec();
    let taken = if value != 0 {
        regions.first()
    } else {
        regions.get(1)
    };
    let block = taken.and_then(|&r| rewriter.ctx().region_entry_block(r));
    let Some(block) = block else {
        // The false branch of an `scf.if` without `else`: nothing runs.
        if rewriter.ctx().num_results(op) != 0 {
            return false;
        }
        rewriter.erase_op(op);
        return true;
    };
    let results = inline_block_before(rewriter, block, op, &[]);
    rewriter.replace_op(op, &results);
    true
}

/// `scf.if` yielding values defined outside it: those results become
/// `arith.select`s of them (or the value itself when both branches yield
/// it); the others stay in a smaller `scf.if` (MLIR's
/// `ConvertTrivialIfToSelect`).
fn convert_trivial_if_to_select(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    let ctx = rewriter.ctx();
    if ctx.num_results(op) == 0 {
        return false;
    }
    let regions = ctx.op_regions(op).to_vec();
    let terminators: Vec<Operation> = regions.iter().filter_map(|&r| terminator(ctx, r)).collect();
    let [then_yield, else_yield] = terminators.as_slice() else {
        return false;
    };
    let (then_yield, else_yield) = (*then_yield, *else_yield);
    let then_values: Vec<Value> = ctx.operands(then_yield).collect();
    let else_values: Vec<Value> = ctx.operands(else_yield).collect();
    let defined_in = |v: Value, region: Region| {
        ctx.value_parent_block(v)
            .and_then(|b| ctx.block_parent_region(b))
            == Some(region)
    };
    let stays: Vec<bool> = then_values
        .iter()
        .zip(&else_values)
        .map(|(&t, &f)| defined_in(t, regions[0]) || defined_in(f, regions[1]))
        .collect();
    if stays.iter().all(|&s| s) {
        return false;
    }
    let cond = ctx.operand(op, 0);
    let loc = ctx.op_loc(op);
    let name = ctx.op_name(op);
    let attributes: Vec<_> = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
    let remaining: Vec<Type> = then_values
        .iter()
        .zip(&stays)
        .filter(|(_, &s)| s)
        .map(|(&v, _)| ctx.value_type(v))
        .collect();
    // The smaller `scf.if` takes over both blocks (also with no results: the
    // blocks may have effects; an empty one is then dead).
    let replacement = {
        let ctx = rewriter.ctx_mut();
        let mut state = OperationState::new(name, loc);
        state.operands = vec![cond];
        state.result_types = remaining;
        state.attributes = attributes;
        for &region in &regions {
            let new_region = ctx.create_region();
            let blocks: Vec<_> = ctx.region_blocks(region).collect();
            for block in blocks {
                ctx.detach_block(block);
                ctx.append_block(new_region, block);
            }
            state.regions.push(new_region);
        }
        rewriter.create(state)
    };
    rewriter.set_insertion_point(replacement);
    let mut results = Vec::new();
    let (mut true_yields, mut false_yields) = (Vec::new(), Vec::new());
    for (i, (&t, &f)) in then_values.iter().zip(&else_values).enumerate() {
        if stays[i] {
            let index = true_yields.len();
            true_yields.push(t);
            false_yields.push(f);
            results.push(rewriter.ctx().result(replacement, index));
        } else if t == f {
            results.push(t);
        } else {
            let ty = rewriter.ctx().value_type(t);
            let select =
                crate::arith::SelectOp::build(rewriter.ctx_mut(), loc, cond, t, f, ty).op();
            rewriter.insert(select);
            results.push(rewriter.ctx().result(select, 0));
        }
    }
    rewriter.modify_op_in_place(then_yield, |ctx| ctx.set_operands(then_yield, &true_yields));
    rewriter.modify_op_in_place(else_yield, |ctx| {
        ctx.set_operands(else_yield, &false_yields)
    });

    rewriter.replace_op(op, &results);
    true
}

/// `scf.for` that runs zero times (results: the inits) or once (its body
/// inlined with the lower bound) (MLIR's `SimplifyTrivialLoops`).
fn simplify_trivial_loops(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    let ctx = rewriter.ctx();
    let (lb, ub, step) = (ctx.operand(op, 0), ctx.operand(op, 1), ctx.operand(op, 2));
    let inits: Vec<Value> = ctx.operands(op).skip(3).collect();
    let unsigned = ForOp(op).unsigned_cmp(ctx).is_some();
    if lb == ub {
        rewriter.replace_op(op, &inits);
        return true;
    }
    // A constant step that is not positive: MLIR gives the loop no
    // iterations.
    if constant_int(rewriter, step).is_some_and(|s| s <= 0) {
        rewriter.replace_op(op, &inits);
        return true;
    }
    let (Some(l), Some(u)) = (constant_int(rewriter, lb), constant_int(rewriter, ub)) else {
        return false;
    };
    let width = {
        let ctx = rewriter.ctx();
        ctx.int_or_float_bit_width(ctx.value_type(lb)).unwrap_or(64)
    };
    let as_unsigned = |v: i128| {
        if width >= 128 {
            v
        } else {
            v & ((1i128 << width) - 1)
        }
    };
    let (l, u) = if unsigned {
        (as_unsigned(l), as_unsigned(u))
    } else {
        (l, u)
    };
    if u <= l {
        rewriter.replace_op(op, &inits);
        return true;
    }
    let Some(s) = constant_int(rewriter, step) else {
        return false;
    };
    if s <= 0 || u - l > s {
        return false;
    }
    let Some(block) = ForOp(op)
        .region(rewriter.ctx())
        .and_then(|r| rewriter.ctx().region_entry_block(r))
    else {
        return false;
    };
    let mut args = vec![lb];
    args.extend(inits);
    let results = inline_block_before(rewriter, block, op, &args);
    rewriter.replace_op(op, &results);
    true
}

/// `scf.if` without results whose `else` only yields: the `else` region
/// goes (MLIR's `RemoveEmptyElseBranch`).
fn remove_empty_else_branch(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    let ctx = rewriter.ctx();
    if ctx.num_results(op) != 0 {
        return false;
    }
    let Some(&else_region) = ctx.op_regions(op).get(1) else {
        return false;
    };
    let blocks: Vec<_> = ctx.region_blocks(else_region).collect();
    let [block] = blocks.as_slice() else {
        return false;
    };
    let block = *block;
    let only_yield = ctx.block_first_op(block).is_some_and(|first| {
        ctx.block_last_op(block) == Some(first) && ctx.op_name_str(first) == YieldOp::NAME
    });
    if !only_yield {
        return false;
    }
    rewriter.modify_op_in_place(op, |ctx| ctx.erase_block(block));
    true
}

/// Inside `scf.if %c`, `%c` is true in the `then` region and false in the
/// `else` region (MLIR's `ConditionPropagation`).
fn condition_propagation(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    let ctx = rewriter.ctx();
    let cond = ctx.operand(op, 0);
    if ctx
        .defining_op(cond)
        .and_then(|d| ctx.op_definition(d))
        .is_some_and(|d| d.traits.constant_like)
    {
        return false;
    }
    let regions = ctx.op_regions(op).to_vec();
    let region_of = |user: Operation| -> Option<usize> {
        let mut current = user;
        loop {
            let region = ctx
                .op_parent_block(current)
                .and_then(|b| ctx.block_parent_region(b))?;
            if let Some(i) = regions.iter().position(|&r| r == region) {
                return Some(i);
            }
            current = ctx.region_parent_op(region)?;
        }
    };
    let uses: Vec<(Operation, usize, usize)> = ctx
        .uses(cond)
        .filter_map(|u| region_of(u.op).map(|r| (u.op, u.index as usize, r)))
        .collect();
    if uses.is_empty() {
        return false;
    }
    let loc = ctx.op_loc(op);
    let i1 = ctx.value_type(cond);
    let mut constants: [Option<Value>; 2] = [None, None];
    for (user, index, region) in uses {
        let value = match constants[region] {
            Some(v) => v,
            None => {
                let attr = rewriter.ctx_mut().bool_attr(region == 0);
                let c = crate::arith::ConstantOp::build(rewriter.ctx_mut(), loc, attr, i1).op();
                rewriter.insert(c);
                let v = rewriter.ctx().result(c, 0);
                constants[region] = Some(v);
                v
            }
        };
        rewriter.modify_op_in_place(user, |ctx| ctx.set_operand(user, index, value));
    }
    true
}

/// Two consecutive `scf.if`s on the same condition become one (MLIR's
/// `CombineIfs`, for the same-condition case): the first one's results used
/// in the second become the values the first yields on that branch.
fn combine_ifs(rewriter: &mut PatternRewriter<'_>, next: Operation) -> bool {
    let ctx = rewriter.ctx();
    let Some(prev) = ctx
        .op_prev(next)
        .filter(|&p| ctx.op_name_str(p) == IfOp::NAME)
    else {
        return false;
    };
    let cond = ctx.operand(next, 0);
    if ctx.operand(prev, 0) != cond {
        return false;
    }
    let block_of = |op: Operation, i: usize| {
        ctx.op_regions(op)
            .get(i)
            .and_then(|&r| ctx.region_entry_block(r))
    };
    let (Some(prev_then), Some(next_then)) = (block_of(prev, 0), block_of(next, 0)) else {
        return false;
    };
    let (prev_else, next_else) = (block_of(prev, 1), block_of(next, 1));
    let yield_of = |block: strata_ir::Block| {
        ctx.block_last_op(block)
            .filter(|&t| ctx.op_name_str(t) == YieldOp::NAME)
    };
    let Some(prev_then_yield) = yield_of(prev_then) else {
        return false;
    };
    let prev_then_values: Vec<Value> = ctx.operands(prev_then_yield).collect();
    let prev_else_values: Vec<Value> = prev_else
        .and_then(yield_of)
        .map(|y| ctx.operands(y).collect())
        .unwrap_or_default();
    let next_regions = ctx.op_regions(next).to_vec();
    let prev_results: Vec<Value> = ctx.results(prev).collect();
    let next_results: Vec<Value> = ctx.results(next).collect();
    let within = |user: Operation, region: Region| {
        let mut current = user;
        loop {
            let Some(r) = ctx
                .op_parent_block(current)
                .and_then(|b| ctx.block_parent_region(b))
            else {
                return false;
            };
            if r == region {
                return true;
            }
            match ctx.region_parent_op(r) {
                Some(parent) => current = parent,
                None => return false,
            }
        }
    };
    // Uses of the first results inside the second op take the yielded values.
    let mut rewires = Vec::new();
    for (i, &result) in prev_results.iter().enumerate() {
        for u in ctx.uses(result) {
            if within(u.op, next_regions[0]) {
                rewires.push((u.op, u.index as usize, prev_then_values[i]));
            } else if next_else.is_some() && within(u.op, next_regions[1]) {
                if let Some(&v) = prev_else_values.get(i) {
                    rewires.push((u.op, u.index as usize, v));
                }
            }
        }
    }
    let result_types: Vec<Type> = prev_results
        .iter()
        .chain(&next_results)
        .map(|&v| ctx.value_type(v))
        .collect();
    let loc = ctx.op_loc(next);
    let name = ctx.op_name(next);
    for (user, index, value) in rewires {
        rewriter.modify_op_in_place(user, |ctx| ctx.set_operand(user, index, value));
    }
    let ctx = rewriter.ctx_mut();
    // Then: the first op's block, with the second's ops appended.
    let then_region = ctx.create_region();
    ctx.detach_block(prev_then);
    ctx.append_block(then_region, prev_then);
    let next_then_ops: Vec<Operation> = ctx.block_ops(next_then).collect();
    let mut then_values = prev_then_values;
    if let Some((&next_yield, body)) = next_then_ops.split_last() {
        then_values.extend(ctx.operands(next_yield));
        for &op in body {
            ctx.detach_op(op);
            ctx.insert_op_before(prev_then_yield, op);
        }
    }
    ctx.set_operands(prev_then_yield, &then_values);
    // Else: the first op's else block (with the second's ops appended), or
    // the second's else block when the first has none.
    let else_region = ctx.create_region();
    match (prev_else, next_else) {
        (Some(pe), next_else) => {
            ctx.detach_block(pe);
            ctx.append_block(else_region, pe);
            if let (Some(ne), Some(pe_yield)) = (next_else, ctx.block_last_op(pe)) {
                let ops: Vec<Operation> = ctx.block_ops(ne).collect();
                let mut values: Vec<Value> = ctx.operands(pe_yield).collect();
                if let Some((&ne_yield, body)) = ops.split_last() {
                    values.extend(ctx.operands(ne_yield));
                    for &op in body {
                        ctx.detach_op(op);
                        ctx.insert_op_before(pe_yield, op);
                    }
                }
                ctx.set_operands(pe_yield, &values);
            }
        }
        (None, Some(ne)) => {
            ctx.detach_block(ne);
            ctx.append_block(else_region, ne);
        }
        (None, None) => {}
    }
    let mut state = OperationState::new(name, loc);
    state.operands = vec![cond];
    state.result_types = result_types;
    state.regions = vec![then_region, else_region];
    let combined = rewriter.create(state);
    let combined_results: Vec<Value> = rewriter.ctx().results(combined).collect();
    let (first, second) = combined_results.split_at(prev_results.len());
    rewriter.replace_op(prev, first);
    rewriter.replace_op(next, second);
    true
}

/// `scf.if %a { scf.if %b { ... } }` (no results, no `else` on either, the
/// inner op alone in the outer block): one `scf.if` on `%a and %b` (MLIR's
/// `CombineNestedIfs`, for this case).
fn combine_nested_ifs(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    let ctx = rewriter.ctx();
    let simple = |o: Operation| {
        ctx.op_name_str(o) == IfOp::NAME
            && ctx.num_results(o) == 0
            && ctx
                .op_regions(o)
                .get(1)
                .is_none_or(|&r| ctx.region_is_empty(r))
    };
    if !simple(op) {
        return false;
    }
    let Some(block) = ctx
        .op_regions(op)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return false;
    };
    let ops: Vec<Operation> = ctx.block_ops(block).collect();
    let [inner, _yield] = ops.as_slice() else {
        return false;
    };
    let inner = *inner;
    if !simple(inner) {
        return false;
    }
    let (outer_cond, inner_cond, loc) = (ctx.operand(op, 0), ctx.operand(inner, 0), ctx.op_loc(op));
    let Some(inner_block) = ctx
        .op_regions(inner)
        .first()
        .and_then(|&r| ctx.region_entry_block(r))
    else {
        return false;
    };
    let and = crate::arith::AndIOp::build(rewriter.ctx_mut(), loc, outer_cond, inner_cond).op();
    rewriter.insert(and);
    let cond = rewriter.ctx().result(and, 0);
    let ctx = rewriter.ctx_mut();
    let name = ctx.op_name(op);
    let then_region = ctx.create_region();
    ctx.detach_block(inner_block);
    ctx.append_block(then_region, inner_block);
    let else_region = ctx.create_region();
    let mut state = OperationState::new(name, loc);
    state.operands = vec![cond];
    state.regions = vec![then_region, else_region];
    rewriter.create(state);
    rewriter.erase_op(op);
    true
}

/// `scf.if` results without uses go: a smaller `scf.if` takes the blocks,
/// whose yields lose those values (MLIR's region-branch patterns).
fn remove_unused_if_results(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    let ctx = rewriter.ctx();
    let results: Vec<Value> = ctx.results(op).collect();
    let used: Vec<bool> = results.iter().map(|&r| !ctx.use_empty(r)).collect();
    if !used.contains(&false) {
        return false;
    }
    let regions = ctx.op_regions(op).to_vec();
    let yields: Vec<Operation> = regions.iter().filter_map(|&r| terminator(ctx, r)).collect();
    if yields.iter().any(|&y| ctx.num_operands(y) != results.len()) {
        return false;
    }
    let types: Vec<Type> = results
        .iter()
        .zip(&used)
        .filter(|(_, &u)| u)
        .map(|(&r, _)| ctx.value_type(r))
        .collect();
    let (cond, loc, name) = (ctx.operand(op, 0), ctx.op_loc(op), ctx.op_name(op));
    let attributes: Vec<_> = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
    let ctx = rewriter.ctx_mut();
    let mut state = OperationState::new(name, loc);
    state.operands = vec![cond];
    state.result_types = types;
    state.attributes = attributes;
    for &region in &regions {
        let new_region = ctx.create_region();
        let blocks: Vec<_> = ctx.region_blocks(region).collect();
        for block in blocks {
            ctx.detach_block(block);
            ctx.append_block(new_region, block);
        }
        state.regions.push(new_region);
    }
    let replacement = rewriter.create(state);
    for y in yields {
        let kept: Vec<Value> = rewriter
            .ctx()
            .operands(y)
            .zip(&used)
            .filter(|(_, &u)| u)
            .map(|(v, _)| v)
            .collect();
        rewriter.modify_op_in_place(y, |ctx| ctx.set_operands(y, &kept));
    }
    let mut k = 0;
    let mut values = Vec::new();
    for (i, &u) in used.iter().enumerate() {
        if u {
            values.push(rewriter.ctx().result(replacement, k));
            k += 1;
        } else {
            // Unused: any value of the right type will do.
            values.push(results[i]);
        }
    }
    // The unused results have no uses: replacing them with themselves is
    // fine before the op goes.
    rewriter.replace_op(op, &values);
    true
}

/// In MLIR's order (`IfOp::getCanonicalizationPatterns`), which decides
/// which pattern applies first.
fn if_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(IfOp::NAME, "CombineIfs", combine_ifs));
    set.add(FnPattern::new(
        IfOp::NAME,
        "CombineNestedIfs",
        combine_nested_ifs,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "ConditionPropagation",
        condition_propagation,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "ConvertTrivialIfToSelect",
        convert_trivial_if_to_select,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "RemoveEmptyElseBranch",
        remove_empty_else_branch,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "RemoveStaticCondition",
        remove_static_condition,
    ));
    set.add(FnPattern::new(
        IfOp::NAME,
        "RemoveUnusedIfResults",
        remove_unused_if_results,
    ));
}

fn for_patterns(set: &mut RewritePatternSet) {
    set.add(FnPattern::new(
        ForOp::NAME,
        "SimplifyTrivialLoops",
        simplify_trivial_loops,
    ));
    set.add(FnPattern::new(
        ForOp::NAME,
        "ForwardInvariantIterArgs",
        forward_invariant_iter_args,
    ));
}

/// `scf.for` loop-carried values the body yields back unchanged are loop
/// invariant: uses of them (and of the loop's result) become the initial
/// value, and the loop drops them; so do values whose result and argument
/// are both unused (what MLIR's region-branch patterns do to such
/// `scf.for`s).
fn forward_invariant_iter_args(rewriter: &mut PatternRewriter<'_>, op: Operation) -> bool {
    let ctx = rewriter.ctx();
    let Some(region) = ForOp(op).region(ctx) else {
        return false;
    };
    let Some(block) = ctx.region_entry_block(region) else {
        return false;
    };
    let Some(yield_op) = ctx
        .block_last_op(block)
        .filter(|&t| ctx.op_name_str(t) == YieldOp::NAME)
    else {
        return false;
    };
    let args: Vec<Value> = ctx.block_args(block).collect();
    let inits: Vec<Value> = ctx.operands(op).skip(3).collect();
    let yielded: Vec<Value> = ctx.operands(yield_op).collect();
    if args.len() != inits.len() + 1 || yielded.len() != inits.len() {
        return false;
    }
    let results: Vec<Value> = ctx.results(op).collect();
    // A value yielded back unchanged is invariant; one whose result and
    // argument are both unused is dead. Either way the loop can drop it.
    let forwarded: Vec<bool> = (0..inits.len())
        .map(|i| {
            yielded[i] == args[i + 1]
                || yielded[i] == inits[i]
                || (ctx.use_empty(results[i]) && ctx.use_empty(args[i + 1]))
        })
        .collect();
    if !forwarded.contains(&true) {
        return false;
    }
    let loc = ctx.op_loc(op);
    let name = ctx.op_name(op);
    let properties = ctx.op_properties(op);
    let attributes: Vec<_> = ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec();
    let bounds: Vec<Value> = ctx.operands(op).take(3).collect();
    let arg_locs: Vec<_> = (0..args.len())
        .map(|i| ctx.block_arg_loc(block, i))
        .collect();
    // The invariant values: their uses inside and after the loop take the init.
    for i in (0..inits.len()).filter(|&i| forwarded[i]) {
        rewriter.replace_all_uses_with(args[i + 1], inits[i]);
        rewriter.replace_all_uses_with(results[i], inits[i]);
    }
    let kept: Vec<usize> = (0..inits.len()).filter(|&i| !forwarded[i]).collect();
    // The new loop, with a new body block taking the old one's ops.
    let ctx = rewriter.ctx_mut();
    let new_region = ctx.create_region();
    let new_block = ctx.create_block();
    let iv_type = ctx.value_type(args[0]);
    let new_iv = ctx.add_block_argument(new_block, iv_type, arg_locs[0]);
    let mut new_args = Vec::new();
    for &i in &kept {
        let ty = ctx.value_type(args[i + 1]);
        new_args.push(ctx.add_block_argument(new_block, ty, arg_locs[i + 1]));
    }
    ctx.append_block(new_region, new_block);
    let mut state = OperationState::new(name, loc);
    state.operands = bounds;
    state.operands.extend(kept.iter().map(|&i| inits[i]));
    state.result_types = kept.iter().map(|&i| ctx.value_type(results[i])).collect();
    state.properties = properties;
    state.attributes = attributes;
    state.regions.push(new_region);
    let new_op = rewriter.create(state);
    rewriter.replace_all_uses_with(args[0], new_iv);
    for (k, &i) in kept.iter().enumerate() {
        rewriter.replace_all_uses_with(args[i + 1], new_args[k]);
    }
    let ops: Vec<Operation> = rewriter.ctx().block_ops(block).collect();
    let ctx = rewriter.ctx_mut();
    for moved in ops {
        ctx.detach_op(moved);
        ctx.append_op(new_block, moved);
    }
    let kept_yields: Vec<Value> = kept.iter().map(|&i| ctx.operand(yield_op, i)).collect();
    rewriter.modify_op_in_place(yield_op, |ctx| ctx.set_operands(yield_op, &kept_yields));
    let mut replacements = Vec::new();
    let mut k = 0;
    for i in 0..inits.len() {
        if forwarded[i] {
            replacements.push(inits[i]);
        } else {
            replacements.push(rewriter.ctx().result(new_op, k));
            k += 1;
        }
    }
    rewriter.replace_op(op, &replacements);
    true
}
