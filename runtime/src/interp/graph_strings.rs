//! Evaluation of the string ops (`graph.string_*`,
//! `graph.regex_full_match`, `graph.label_encoder`) on [`Datum::Strings`]
//! values (and numbers, for `label_encoder`).

use std::rc::Rc;

use strata_dialects::graph as g;
use strata_dialects::graph::infer::{attr_bool, attr_i64, attr_str};
use strata_ir::attributes::AttrKind;
use strata_ir::{Context, Operation};

use super::Slot;
use crate::strings::{self as s, CaseChange};
use crate::{Datum, StringTensor};

/// Whether `name` is one of the ops this module evaluates.
pub(super) fn is_string_op(name: &str) -> bool {
    [
        g::StringConcatOp::NAME,
        g::StringEqualOp::NAME,
        g::StringSplitOp::NAME,
        g::StringNormalizerOp::NAME,
        g::RegexFullMatchOp::NAME,
        g::LabelEncoderOp::NAME,
    ]
    .contains(&name)
}

/// The string tensor operand `i`.
fn strings(x: &[Slot], i: usize) -> Result<&StringTensor, String> {
    match x.get(i) {
        Some(Slot::Other(d)) => match &**d {
            Datum::Strings(t) => Ok(t),
            other => Err(format!(
                "operand #{i} must be a string tensor, but is a {}",
                other.kind()
            )),
        },
        Some(other) => Err(format!(
            "operand #{i} must be a string tensor, but is a {}",
            other.kind()
        )),
        None => Err(format!("has no operand #{i}")),
    }
}

fn slot(t: StringTensor) -> Slot {
    Slot::Other(Rc::new(Datum::Strings(t)))
}

/// Evaluates the string op `op` (named `name`) on `x`.
pub(super) fn eval(
    ctx: &Context,
    op: Operation,
    name: &str,
    x: &[Slot],
) -> Result<Vec<Slot>, String> {
    let kerr = |e: crate::KernelError| e.to_string();
    Ok(match name {
        n if n == g::StringConcatOp::NAME => {
            vec![slot(
                s::string_concat(strings(x, 0)?, strings(x, 1)?).map_err(kerr)?,
            )]
        }
        n if n == g::StringEqualOp::NAME => {
            vec![s::string_equal(strings(x, 0)?, strings(x, 1)?)
                .map_err(kerr)?
                .into()]
        }
        n if n == g::RegexFullMatchOp::NAME => {
            let pattern = attr_str(ctx, op, "pattern").ok_or("requires a pattern")?;
            vec![s::regex_full_match(strings(x, 0)?, &pattern)?.into()]
        }
        n if n == g::StringSplitOp::NAME => {
            let delimiter = attr_str(ctx, op, "delimiter").filter(|d| !d.is_empty());
            let maxsplit = attr_i64(ctx, op, "maxsplit")
                .filter(|&m| m >= 0)
                .map(|m| m as usize);
            let (pieces, counts) =
                s::string_split(strings(x, 0)?, delimiter.as_deref(), maxsplit).map_err(kerr)?;
            vec![slot(pieces), counts.into()]
        }
        n if n == g::StringNormalizerOp::NAME => {
            let case = match attr_str(ctx, op, "case_change_action").as_deref() {
                None | Some("NONE") => CaseChange::None,
                Some("LOWER") => CaseChange::Lower,
                Some("UPPER") => CaseChange::Upper,
                Some(other) => return Err(format!("has case_change_action \"{other}\"")),
            };
            let stopwords = g::StringNormalizerOp(op).stopwords(ctx).unwrap_or_default();
            let sensitive = attr_bool(ctx, op, "is_case_sensitive");
            vec![slot(
                s::string_normalizer(strings(x, 0)?, case, sensitive, &stopwords).map_err(kerr)?,
            )]
        }
        n if n == g::LabelEncoderOp::NAME => {
            let column = |name: &str| -> Result<s::Column, String> {
                let attr = strata_ir::ods::inherent_attr(ctx, op, name)
                    .ok_or_else(|| format!("requires '{name}'"))?;
                match ctx.attr_kind(attr) {
                    AttrKind::DenseStrings { ty, values } => {
                        let count = ctx
                            .type_kind(*ty)
                            .shape()
                            .map_or(1, strata_ir::types::num_elements)
                            as usize;
                        let text: Vec<String> = values
                            .iter()
                            .map(|v| String::from_utf8_lossy(v).into_owned())
                            .collect();
                        Ok(s::Column::Strings(match text.len() {
                            // A splat: one string for every element.
                            1 => vec![text[0].clone(); count],
                            _ => text,
                        }))
                    }
                    _ => super::attr_tensor(ctx, attr).map(s::Column::Numbers),
                }
            };
            let input = match x.first() {
                Some(Slot::Tensor(t)) => Datum::Tensor((**t).clone()),
                Some(Slot::Other(d)) => (**d).clone(),
                _ => return Err("operand #0 must be a tensor".into()),
            };
            let out = s::label_encoder(
                &input,
                &column("keys")?,
                &column("values")?,
                &column("default_value")?,
            )?;
            vec![Slot::from_datum(out)]
        }
        other => return Err(format!("'{other}' is not a string op")),
    })
}
