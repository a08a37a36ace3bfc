//! Losses, imported as compositions: `NegativeLogLikelihoodLoss` and
//! `SoftmaxCrossEntropyLoss` (a `log_softmax`, then the same loss).

use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[
    ("NegativeLogLikelihoodLoss", negative_log_likelihood_loss),
    ("SoftmaxCrossEntropyLoss", softmax_cross_entropy_loss),
];

fn negative_log_likelihood_loss(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let (target, weight) = (im.req(node, 1)?, im.input(node, 2)?);
    one(im.nll_loss(x, target, weight, a, loc))
}

fn softmax_cross_entropy_loss(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let (labels, weight) = (im.req(node, 1)?, im.input(node, 2)?);
    let axis = im.i64_attr(1);
    let log_prob = im.op1("graph.log_softmax", vec![x], vec![("axis", axis)], loc)?;
    let loss = im.nll_loss(log_prob, labels, weight, a, loc)?;
    Ok(if node.output.get(1).is_some_and(|o| !o.is_empty()) {
        vec![loss, log_prob]
    } else {
        vec![loss]
    })
}

impl Importer<'_> {
    /// NegativeLogLikelihoodLoss on log-probabilities `x: [N, C, d...]` and
    /// class indices `target: [N, d...]`: `-x[n, target, d...]` weighted by
    /// `weight[target]`; targets equal to `ignore_index` weigh 0. `mean`
    /// divides the sum by the sum of the applied weights.
    fn nll_loss(
        &mut self,
        x: Value,
        target: Value,
        weight: Option<Value>,
        a: &Attrs,
        loc: Location,
    ) -> Res<Value> {
        let reduction = a.string("reduction").unwrap_or_else(|| "mean".into());
        if !matches!(reduction.as_str(), "none" | "sum" | "mean") {
            return Err(format!("has an unknown reduction '{reduction}'").into());
        }
        let i64t = self.ctx.integer_type(64);
        let mut t = self.cast_to(target, i64t, loc)?;
        // Ignored targets read class 0 and weigh nothing.
        let valid = match a.int("ignore_index") {
            Some(ignore) => {
                let ig = self.const_i64_scalar(ignore, loc)?;
                let is_ignored = self.bin("graph.equal", t, ig, loc)?;
                let valid = self.un("graph.not", is_ignored, loc)?;
                let zero = self.const_i64_scalar(0, loc)?;
                t = self.op1("graph.where", vec![valid, t, zero], vec![], loc)?;
                Some(valid)
            }
            None => None,
        };
        let class_axis = self.const_i64(&[1], loc)?;
        let idx = self.op1("graph.unsqueeze", vec![t, class_axis], vec![], loc)?;
        let axis = self.i64_attr(1);
        let picked = self.op1(
            "graph.gather_elements",
            vec![x, idx],
            vec![("axis", axis)],
            loc,
        )?;
        let picked = self.op1("graph.squeeze", vec![picked, class_axis], vec![], loc)?;
        let elem = self.elem(x).ok_or("operand is not a tensor")?;
        let w = match (weight, valid) {
            (Some(w), valid) => {
                let axis = self.i64_attr(0);
                let wt = self.op1("graph.gather", vec![w, t], vec![("axis", axis)], loc)?;
                Some(match valid {
                    Some(v) => {
                        let zero = self.scalar_like(wt, 0.0, loc)?;
                        self.op1("graph.where", vec![v, wt, zero], vec![], loc)?
                    }
                    None => wt,
                })
            }
            (None, Some(v)) => Some(self.cast_to(v, elem, loc)?),
            (None, None) => None,
        };
        let weighted = match w {
            Some(w) => self.bin("graph.mul", picked, w, loc)?,
            None => picked,
        };
        let loss = self.un("graph.neg", weighted, loc)?;
        let keep = self.bool_attr(false);
        Ok(match (reduction.as_str(), w) {
            ("none", _) => loss,
            ("sum", _) => self.op1(
                "graph.reduce_sum",
                vec![loss],
                vec![("keepdims", keep)],
                loc,
            )?,
            (_, None) => self.op1(
                "graph.reduce_mean",
                vec![loss],
                vec![("keepdims", keep)],
                loc,
            )?,
            (_, Some(w)) => {
                let total = self.op1(
                    "graph.reduce_sum",
                    vec![loss],
                    vec![("keepdims", keep)],
                    loc,
                )?;
                let keep = self.bool_attr(false);
                let weights =
                    self.op1("graph.reduce_sum", vec![w], vec![("keepdims", keep)], loc)?;
                self.bin("graph.div", total, weights, loc)?
            }
        })
    }
}
