//! Markdown reference pages generated from the op definitions
//! (`docs/dialects/<dialect>.md`; `dialects/tests/docs.rs` fails when a
//! checked-in page is stale and rewrites it with `STRATA_BLESS=1`).

use strata_ir::ods::{Arity, AttrPresence};
use strata_ir::Context;

/// The reference page of `dialect`: one section per op with its summary,
/// description, syntax, operands, attributes, results and traits.
pub fn dialect_doc(ctx: &Context, dialect: &str) -> String {
    let source = if dialect == "builtin" {
        "ir/src/builtin.rs".to_string()
    } else if dialect == "graph" {
        "dialects/src/graph/ops/".to_string()
    } else {
        format!("dialects/src/{dialect}/")
    };
    let mut out = format!(
        "# `{dialect}` dialect\n\n<!-- Generated from the op definitions in {source} by\n     `STRATA_BLESS=1 cargo test -p strata-dialects --test docs`; do not edit. -->\n"
    );
    for def in ctx.registry().ops() {
        if def.name.split('.').next() != Some(dialect) {
            continue;
        }
        let Some(spec) = def.spec else {
            // A hand-registered op (builtin): its summary and traits.
            out.push_str(&format!("\n## `{}`\n\n{}\n", def.name, def.summary));
            out.push_str("\nSyntax: custom (built into the parser and printer).\n");
            let traits = trait_names(&def.traits);
            if !traits.is_empty() {
                out.push_str(&format!("\nTraits: {}\n", traits.join(", ")));
            }
            continue;
        };
        out.push_str(&format!("\n## `{}`\n\n{}\n", spec.name, spec.summary));
        if !spec.description.is_empty() {
            out.push_str(&format!("\n{}\n", spec.description));
        }
        match spec.format {
            Some(format) => out.push_str(&format!("\nSyntax: `` {format} ``\n")),
            None if spec.parse.is_some() => {
                out.push_str("\nSyntax: custom (hand-written parser and printer).\n")
            }
            None => {}
        }
        let arity = |a: Arity| match a {
            Arity::Single => "",
            Arity::Optional => " (optional)",
            Arity::Variadic => " (variadic)",
        };
        if !spec.operands.is_empty() {
            out.push_str("\n| Operand | Constraint |\n|---|---|\n");
            for o in spec.operands {
                out.push_str(&format!(
                    "| `{}` | {}{} |\n",
                    o.name,
                    o.constraint.summary,
                    arity(o.arity)
                ));
            }
        }
        if !spec.attributes.is_empty() {
            out.push_str("\n| Attribute | Constraint | Presence |\n|---|---|---|\n");
            for a in spec.attributes {
                let presence = match a.presence {
                    AttrPresence::Required => "required".to_string(),
                    AttrPresence::Optional => "optional".to_string(),
                    AttrPresence::Default(d) => format!("default `{d}`"),
                };
                out.push_str(&format!(
                    "| `{}` | {} | {presence} |\n",
                    a.name, a.constraint.summary
                ));
            }
        }
        if !spec.results.is_empty() {
            out.push_str("\n| Result | Constraint |\n|---|---|\n");
            for r in spec.results {
                out.push_str(&format!(
                    "| `{}` | {}{} |\n",
                    r.name,
                    r.constraint.summary,
                    arity(r.arity)
                ));
            }
        }
        if !spec.regions.is_empty() {
            let names: Vec<String> = spec
                .regions
                .iter()
                .map(|r| format!("`{}`", r.name))
                .collect();
            out.push_str(&format!("\nRegions: {}\n", names.join(", ")));
        }
        if !spec.trait_order.is_empty() {
            out.push_str(&format!("\nTraits: {}\n", spec.trait_order.join(", ")));
        }
    }
    out
}

/// The set flags of a hand-written op's traits, in snake_case.
fn trait_names(traits: &strata_ir::dialect::OpTraits) -> Vec<&'static str> {
    let flags = [
        (traits.terminator, "terminator"),
        (traits.no_terminator, "no_terminator"),
        (traits.isolated_from_above, "isolated_from_above"),
        (traits.single_block, "single_block"),
        (traits.symbol_table, "symbol_table"),
        (traits.symbol, "symbol"),
        (traits.graph_region, "graph_region"),
        (traits.pure, "pure"),
    ];
    flags
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect()
}
