//! The print hook of every op with a declarative format: the elements
//! printed in order (optional groups when their anchor is present), with
//! the attributes the format spells elided from `attr-dict`.

use crate::context::{Attribute, Context, Operation, Type};
use crate::ir::Value;
use crate::ods::format::{compiled, spec_of, Anchor, Element, Format, Kind, Target};
use crate::ods::{AttrPresence, AttrSyntax, OpSpec};
use crate::printer::asm::OpAsmPrinter;

/// The print hook of every op with a declarative format.
pub fn print_with_format(p: &mut OpAsmPrinter<'_, '_>, op: Operation) {
    let ctx = p.ctx();
    let Some(spec) = spec_of(ctx, ctx.op_name_str(op)) else {
        return;
    };
    let Ok(format) = compiled(spec) else {
        p.write(" <<invalid assembly format>>");
        return;
    };
    print_elements(p, op, spec, format, &format.elements);
}

fn print_elements(
    p: &mut OpAsmPrinter<'_, '_>,
    op: Operation,
    spec: &'static OpSpec,
    format: &Format,
    elements: &[Element],
) {
    let ctx = p.ctx();
    for element in elements {
        if element.space {
            p.write_char(' ');
        }
        match &element.kind {
            Kind::Literal(text) => p.write(text),
            Kind::Space(_) => {}
            Kind::Operand(i) => p.print_operands(crate::ods::operand_group(ctx, op, spec, *i)),
            Kind::Operands => p.print_operands(ctx.operands(op)),
            Kind::Attr(i) => {
                let attr_spec = &spec.attributes[*i];
                if let Some(value) = crate::ods::inherent_attr(ctx, op, attr_spec.name) {
                    print_attr_value(p, attr_spec, value);
                }
            }
            Kind::Region(i) if spec.regions[*i].variadic => {
                for (k, &region) in ctx.op_regions(op).iter().skip(*i).enumerate() {
                    if k > 0 {
                        p.write(", ");
                    }
                    p.print_region(region, true, true);
                }
            }
            Kind::Region(i) => {
                if let Some(&region) = ctx.op_regions(op).get(*i) {
                    p.print_region(region, true, true);
                }
            }
            Kind::Regions => {
                for (k, &region) in ctx.op_regions(op).iter().enumerate() {
                    if k > 0 {
                        p.write(", ");
                    }
                    p.print_region(region, true, true);
                }
            }
            Kind::Successor(i) => {
                if let Some(block) = ctx.successors(op).nth(*i) {
                    p.print_successor(block);
                }
            }
            Kind::Successors => {
                for (k, block) in ctx.successors(op).enumerate() {
                    if k > 0 {
                        p.write(", ");
                    }
                    p.print_successor(block);
                }
            }
            Kind::AttrDict { keyword } => {
                let elided = elided_attrs(ctx, op, spec, format);
                if *keyword {
                    p.print_optional_attr_dict_with_keyword(op, &elided);
                } else {
                    p.print_optional_attr_dict(op, &elided);
                }
            }
            Kind::Type(target) => {
                let types = target_types(ctx, op, spec, *target);
                p.print_types(types);
            }
            Kind::FunctionalType(inputs, results) => {
                let inputs = target_types(ctx, op, spec, *inputs);
                let results = target_types(ctx, op, spec, *results);
                p.print_function_type(&inputs, &results);
            }
            Kind::Optional { then, anchor } => {
                if anchor_present(ctx, op, spec, *anchor) {
                    let anchor_unit = match anchor {
                        Anchor::Attr(i) => spec.attributes[*i].constraint.unit.then_some(*i),
                        _ => None,
                    };
                    let kept: Vec<Element> = then
                        .iter()
                        .filter(|e| !matches!(e.kind, Kind::Attr(j) if Some(j) == anchor_unit))
                        .cloned()
                        .collect();
                    print_elements(p, op, spec, format, &kept);
                }
            }
        }
    }
}

fn print_attr_value(p: &mut OpAsmPrinter<'_, '_>, spec: &crate::ods::AttrSpec, value: Attribute) {
    let ctx = p.ctx();
    match spec.constraint.syntax {
        AttrSyntax::Generic | AttrSyntax::Kind(_) => p.print_attribute(value),
        AttrSyntax::Typed(_) => p.print_attribute_without_type(value),
        AttrSyntax::IntArray(_) => match ctx.attr_kind(value) {
            crate::attributes::AttrKind::DenseArray { element, values } => {
                let width = ctx.int_or_float_bit_width(*element).unwrap_or(64).min(64);
                let items: Vec<String> = values
                    .iter()
                    .map(|&v| {
                        let shift = 64 - width;
                        (((v << shift) as i64) >> shift).to_string()
                    })
                    .collect();
                p.write_char('[');
                p.write(&items.join(", "));
                p.write_char(']');
            }
            _ => p.print_attribute(value),
        },
        AttrSyntax::Keyword(e) => match e.value(ctx, value).and_then(|v| e.keyword(v)) {
            Some(word) => p.write(word),
            None => p.print_attribute(value),
        },
        AttrSyntax::Stripped(e) => match e.value(ctx, value).and_then(|v| e.stringify(v)) {
            Some(text) => {
                p.write_char('<');
                p.write(&text);
                p.write_char('>');
            }
            None => p.print_attribute(value),
        },
    }
}

/// Whether `attr` is the declared default of `spec`.
fn is_default(ctx: &Context, spec: &crate::ods::AttrSpec, attr: Attribute) -> bool {
    match spec.presence {
        AttrPresence::Default(text) => match ctx.registry().cached_default(text) {
            Some(default) => default == attr,
            None => crate::printer::attribute_to_string(ctx, attr) == text,
        },
        _ => false,
    }
}

fn anchor_present(ctx: &Context, op: Operation, spec: &'static OpSpec, anchor: Anchor) -> bool {
    match anchor {
        Anchor::Operand(i) => !crate::ods::operand_group(ctx, op, spec, i).is_empty(),
        Anchor::Operands => ctx.num_operands(op) > 0,
        Anchor::Attr(i) => {
            let attr_spec = &spec.attributes[i];
            crate::ods::inherent_attr(ctx, op, attr_spec.name)
                .is_some_and(|a| !is_default(ctx, attr_spec, a))
        }
        Anchor::Region(i) => ctx
            .op_regions(op)
            .get(i)
            .is_some_and(|&r| !ctx.region_is_empty(r)),
        Anchor::Successor(i) => ctx.successors(op).nth(i).is_some(),
        Anchor::Target(t) => !target_types(ctx, op, spec, t).is_empty(),
    }
}

fn target_types(ctx: &Context, op: Operation, spec: &'static OpSpec, target: Target) -> Vec<Type> {
    let values: Vec<Value> = match target {
        Target::Operand(i) => crate::ods::operand_group(ctx, op, spec, i),
        Target::Result(i) => crate::ods::result_group(ctx, op, spec, i),
        Target::Operands => ctx.operands(op).collect(),
        Target::Results => ctx.results(op).collect(),
    };
    values.into_iter().map(|v| ctx.value_type(v)).collect()
}

fn elided_attrs(ctx: &Context, op: Operation, spec: &OpSpec, format: &Format) -> Vec<&'static str> {
    let mut elided = format.used_attrs.clone();
    elided.push("operandSegmentSizes");
    elided.push("resultSegmentSizes");
    for attr_spec in spec.attributes {
        if let Some(value) = crate::ods::inherent_attr(ctx, op, attr_spec.name) {
            if is_default(ctx, attr_spec, value) {
                elided.push(attr_spec.name);
            }
        }
    }
    elided
}
