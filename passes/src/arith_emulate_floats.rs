//! `arith-emulate-unsupported-floats`: compute the `arith` ops on float
//! types a target has no arithmetic for in a wider type, as MLIR 22's pass
//! of that name.
//!
//! An `arith` op with an operand or result of a source type (or a shaped
//! type of one) is rebuilt on the target type: its operands are extended
//! (`arith.extf ... fastmath<contract>`, placed by the conversion right
//! after each value's definition, or at the start of its block), and each
//! result that changed type is truncated back (`arith.truncf ...
//! fastmath<contract>`). `arith.constant`, `arith.select`, `arith.bitcast`,
//! `arith.extf` and `arith.truncf` stay as they are, and so do the ops of
//! other dialects: only arithmetic is emulated, values keep their types.

use std::rc::Rc;

use strata_dialects::arith::{shaped_like, FASTMATH};
use strata_ir::pass::{ListOption, Pass, Statistics};
use strata_ir::rewrite::conversion::{
    apply_partial_conversion, ConversionPatternRewriter, ConversionPatternSet, ConversionTarget,
    TypeConverter,
};
use strata_ir::{
    parser, pass, Attribute, Context, Diagnostic, Location, Operation, OperationState, Type,
    TypeKind, Value,
};

#[pass(
    name = "arith-emulate-unsupported-floats",
    display_name = "ArithEmulateUnsupportedFloats",
    summary = "Emulate operations on unsupported floats with extf/truncf"
)]
pub(crate) struct EmulateUnsupportedFloats {
    #[option(
        name = "source-types",
        description = "MLIR types without arithmetic support on a given target"
    )]
    source_types: ListOption<String>,
    #[option(
        name = "target-type",
        default = "f32",
        description = "MLIR type to convert the unsupported source types to"
    )]
    target_type: String,
}

/// The `arith` ops the pass leaves alone even on source types.
const KEPT: [&str; 5] = [
    "arith.bitcast",
    "arith.extf",
    "arith.truncf",
    "arith.constant",
    "arith.select",
];

impl Pass for EmulateUnsupportedFloats {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: Operation,
        _: &mut Statistics,
    ) -> Result<(), Diagnostic> {
        let unknown = ctx.unknown_loc();
        let target = float_type(ctx, &self.target_type).ok_or_else(|| {
            Diagnostic::error(
                unknown,
                format!(
                    "could not map target type '{}' to a known floating-point type",
                    self.target_type
                ),
            )
        })?;
        let mut sources = Vec::new();
        for name in self.source_types.iter() {
            let ty = float_type(ctx, name).ok_or_else(|| {
                Diagnostic::error(
                    unknown,
                    format!("could not map source type '{name}' to a known floating-point type"),
                )
            })?;
            sources.push(ty);
        }
        if sources.contains(&target) {
            return Err(Diagnostic::error(
                unknown,
                "target type cannot be an unsupported source type",
            ));
        }

        let sources = Rc::new(sources);
        let mut converter = TypeConverter::new();
        let converted = Rc::clone(&sources);
        converter.add_type_conversion(move |ctx, ty| Some(widened(ctx, ty, &converted, target)));
        converter.add_target_materialization(|rw, ty, inputs, loc, _| {
            Some(contract_cast(
                rw,
                "arith.extf",
                inputs.first().copied()?,
                ty,
                loc,
            ))
        });

        let mut conversion = ConversionTarget::new();
        conversion.mark_unknown_operations_dynamically_legal(|_, _| true);
        conversion.add_dynamically_legal_dialect("arith", move |ctx, op| {
            !ctx.operands(op)
                .chain(ctx.results(op))
                .any(|v| is_source(ctx, ctx.value_type(v), &sources))
        });
        for name in KEPT {
            conversion.add_legal_op(name);
        }

        let mut patterns = ConversionPatternSet::new();
        patterns.add_fn(None, 1, emulate);
        let patterns = patterns.freeze(ctx);
        apply_partial_conversion(ctx, op, &conversion, &patterns, Some(&converter))
    }
}

/// The float type an option names (`bf16`, `f8E4M3FNUZ`, ...).
fn float_type(ctx: &mut Context, name: &str) -> Option<Type> {
    let ty = parser::parse_type(ctx, name.trim()).ok()?;
    matches!(ctx.type_kind(ty), TypeKind::Float(_)).then_some(ty)
}

/// Whether `ty` is a source type, or a shaped type of one.
fn is_source(ctx: &Context, ty: Type, sources: &[Type]) -> bool {
    let element = ctx.type_kind(ty).element_type().unwrap_or(ty);
    sources.contains(&element)
}

/// `ty` with a source float type (itself, or as a shaped type's element)
/// replaced by `target`.
fn widened(ctx: &mut Context, ty: Type, sources: &[Type], target: Type) -> Type {
    if sources.contains(&ty) {
        target
    } else if is_source(ctx, ty, sources) {
        shaped_like(ctx, ty, target)
    } else {
        ty
    }
}

/// `name` (`arith.extf` or `arith.truncf`) of `input` to `ty`, with the
/// `contract` fast-math flag.
fn contract_cast(
    rw: &mut ConversionPatternRewriter<'_>,
    name: &str,
    input: Value,
    ty: Type,
    loc: Location,
) -> Value {
    let ctx = rw.ctx_mut();
    let mut state = OperationState::new(ctx.ident(name), loc);
    state.operands = vec![input];
    state.result_types = vec![ty];
    if let Some(flags) = FASTMATH.attr(ctx, 32) {
        let key = ctx.ident("fastmath");
        state.properties = Some(ctx.dictionary_attr(vec![(key, flags)]));
    }
    let op = rw.create(state);
    rw.ctx().result(op, 0)
}

/// The pattern: `op` rebuilt on its converted operands and result types,
/// each changed result truncated back.
fn emulate(op: Operation, operands: &[Value], rw: &mut ConversionPatternRewriter<'_>) -> bool {
    let Some(converter) = rw.type_converter() else {
        return false;
    };
    if converter.is_op_legal(rw.ctx_mut(), op) || !rw.ctx().op_regions(op).is_empty() {
        return false;
    }
    let old_types: Vec<Type> = rw
        .ctx()
        .results(op)
        .map(|v| rw.ctx().value_type(v))
        .collect();
    let Some(new_types) = converter.convert_types(rw.ctx_mut(), &old_types) else {
        return false;
    };
    let ctx = rw.ctx_mut();
    let loc = ctx.op_loc(op);
    let mut state = OperationState::new(ctx.op_name(op), loc);
    state.operands = operands.to_vec();
    state.result_types = new_types.clone();
    state.successors = ctx.successors(op).collect();
    state.properties = ctx.op_properties(op);
    state.attributes = discardable(ctx, op);
    let expanded = rw.create(state);
    let mut results = Vec::with_capacity(old_types.len());
    for (i, (&old, &new)) in old_types.iter().zip(&new_types).enumerate() {
        let value = rw.ctx().result(expanded, i);
        results.push(if old == new {
            value
        } else {
            contract_cast(rw, "arith.truncf", value, old, loc)
        });
    }
    rw.replace_op(op, &results);
    true
}

fn discardable(ctx: &Context, op: Operation) -> Vec<(strata_ir::Ident, Attribute)> {
    ctx.dictionary_entries(ctx.op_attr_dict(op)).to_vec()
}
