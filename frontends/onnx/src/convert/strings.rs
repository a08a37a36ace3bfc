//! The ops on `STRING` tensors: `StringConcat`, `StringSplit`,
//! `StringNormalizer` and `RegexFullMatch`, each a `graph` string op; and
//! `Equal`, `graph.string_equal` on strings and `graph.equal` otherwise.

use strata_ir::{Location, Value};

use super::attrs::Attrs;
use super::{Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, super::Convert)] = &[
    ("StringConcat", string_concat),
    ("StringSplit", string_split),
    ("StringNormalizer", string_normalizer),
    ("RegexFullMatch", regex_full_match),
    ("Equal", equal),
];

/// `Equal`: `graph.equal` (broadcasting, `i1` results), or
/// `graph.string_equal` when the operands are strings.
fn equal(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let (l, r) = (im.req(node, 0)?, im.req(node, 1)?);
    let ty = im.ctx.value_type(l);
    let name = if strata_dialects::graph::types::is_string_tensor(im.ctx, ty) {
        "graph.string_equal"
    } else {
        "graph.equal"
    };
    Ok(vec![im.op1(name, vec![l, r], vec![], loc)?])
}

fn string_concat(
    im: &mut Importer,
    node: &NodeProto,
    _a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let (x, y) = (im.req(node, 0)?, im.req(node, 1)?);
    Ok(vec![im.op1(
        "graph.string_concat",
        vec![x, y],
        vec![],
        loc,
    )?])
}

fn string_split(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let mut props = Vec::new();
    if let Some(d) = a.string("delimiter").filter(|d| !d.is_empty()) {
        props.push(("delimiter", im.ctx.string_attr(&d)));
    }
    if let Some(m) = a.int("maxsplit") {
        props.push(("maxsplit", im.i64_attr(m)));
    }
    im.op("graph.string_split", vec![x], props, 2, None, loc)
}

fn string_normalizer(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let mut props = Vec::new();
    if let Some(action) = a.string("case_change_action") {
        props.push(("case_change_action", im.ctx.string_attr(&action)));
    }
    if a.int("is_case_sensitive").is_some_and(|v| v != 0) {
        props.push(("is_case_sensitive", im.bool_attr(true)));
    }
    if let Some(words) = a.strings("stopwords").filter(|w| !w.is_empty()) {
        let items = words.iter().map(|w| im.ctx.string_attr(w)).collect();
        props.push(("stopwords", im.ctx.array_attr(items)));
    }
    Ok(vec![im.op1(
        "graph.string_normalizer",
        vec![x],
        props,
        loc,
    )?])
}

fn regex_full_match(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let pattern = a.string("pattern").ok_or("requires a pattern")?;
    let pattern = im.ctx.string_attr(&pattern);
    Ok(vec![im.op1(
        "graph.regex_full_match",
        vec![x],
        vec![("pattern", pattern)],
        loc,
    )?])
}
