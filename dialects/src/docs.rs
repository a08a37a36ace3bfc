//! Markdown reference pages generated from the op definitions
//! (`docs/dialects/<dialect>.md`; `dialects/tests/docs.rs` fails when a
//! checked-in page is stale and rewrites it with `STRATA_BLESS=1`).

use strata_ir::ods::{Arity, AttrPresence};
use strata_ir::Context;

/// The reference page of `dialect`: one section per op with its summary,
/// description, syntax, operands, attributes, results and traits.
pub fn dialect_doc(ctx: &Context, dialect: &str) -> String {
    let mut out = format!(
        "# `{dialect}` dialect\n\n<!-- Generated from the op definitions in dialects/src/{dialect}.rs by\n     `STRATA_BLESS=1 cargo test -p strata-dialects --test docs`; do not edit. -->\n"
    );
    for def in ctx.registry().ops() {
        let Some(spec) = def.spec else { continue };
        if spec.dialect() != dialect {
            continue;
        }
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
