//! Declarative assembly formats (MLIR's `assemblyFormat`), compiled once per
//! op and interpreted by one parser and one printer.
//!
//! Supported: literals (`` `,` ``, `` `to` ``), spaces (`` ` ` `` and
//! ` `` `), `$name` for operands, attributes, regions and successors,
//! `attr-dict`, `attr-dict-with-keyword`, `type(...)`, `functional-type(...,
//! ...)`, the `operands`, `results`, `regions` and `successors` directives,
//! and optional groups `( ... $anchor^ ... )?`. Types missing from the format
//! come from `SameOperandsAndResultType`, `AllTypesMatch` or the op's
//! result-type inference, as in ODS. Spacing follows ODS's printer rules.
//!
//! This module holds the compiled form (`Format`, a list of `Element`s);
//! `compile` turns the format text into it, `parse` and `print` are the
//! parse and print hooks of every op with a format.

mod compile;
mod parse;
mod print;

pub use parse::parse_with_format;
pub use print::print_with_format;

use crate::context::Context;
use crate::ods::OpSpec;

/// What a `type(...)` directive or a functional type refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Operand(usize),
    Result(usize),
    Operands,
    Results,
}

#[derive(Clone, Debug)]
enum Kind {
    Literal(&'static str),
    Space(bool),
    Operand(usize),
    Operands,
    Attr(usize),
    Region(usize),
    Regions,
    Successor(usize),
    Successors,
    AttrDict { keyword: bool },
    Type(Target),
    FunctionalType(Target, Target),
    Optional { then: Vec<Element>, anchor: Anchor },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    Operand(usize),
    Operands,
    Attr(usize),
    Region(usize),
    Successor(usize),
    Target(Target),
}

#[derive(Clone, Debug)]
struct Element {
    kind: Kind,
    /// Whether the printer writes a space before it (ODS's spacing rules).
    space: bool,
}

/// A compiled assembly format.
#[derive(Debug)]
pub struct Format {
    elements: Vec<Element>,
    /// Attributes the format prints itself (left out of `attr-dict`).
    used_attrs: Vec<&'static str>,
}

fn spec_of(ctx: &Context, name: &str) -> Option<&'static OpSpec> {
    ctx.registry().op(name).and_then(|d| d.spec)
}

fn compiled(spec: &'static OpSpec) -> Result<&'static Format, String> {
    match spec.compiled_format() {
        Some(Ok(format)) => Ok(format),
        Some(Err(e)) => Err(format!("invalid assembly format of '{}': {e}", spec.name)),
        None => Err(format!("'{}' has no assembly format", spec.name)),
    }
}
