//! `Einsum`, imported as diagonals, sums, transposes and `matmul`s (or
//! broadcast products) of its operands, and the parser of its equations.

use strata_dialects::graph::shape::Dim;
use strata_ir::{Location, Value};

use super::{one, Attrs, Convert, Importer, Res};
use crate::proto::NodeProto;
use crate::ConvertError;

/// The op types this family converts, each with its conversion.
pub(super) const OPS: &[(&str, Convert)] = &[("Einsum", einsum)];

fn einsum(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    // The first input is required before the equation is read.
    im.req(node, 0)?;
    let eq = a.string("equation").ok_or("requires 'equation'")?;
    let inputs = (0..node.input.len())
        .map(|i| im.req(node, i))
        .collect::<Res<Vec<_>>>()?;
    one(im.einsum(&eq, &inputs, loc))
}

impl Importer<'_> {
    /// Einsum: labels repeated within an operand take the diagonal, labels
    /// no other operand or the output needs are summed, and two operands
    /// meet in a `matmul` (batch labels first) when each side has at most
    /// one label of its own and they share at most one contracted label;
    /// otherwise they are broadcast, multiplied and summed. More operands
    /// fold from the left.
    fn einsum(&mut self, equation: &str, inputs: &[Value], loc: Location) -> Res<Value> {
        let ranks = inputs
            .iter()
            .map(|&v| {
                self.rank_of(v)
                    .ok_or_else(|| ConvertError::from("needs operands of known rank"))
            })
            .collect::<Res<Vec<_>>>()?;
        let (terms, output) = parse_einsum(equation, &ranks)?;
        let mut operands: Vec<(Value, Vec<Label>)> = Vec::new();
        for (&v, labels) in inputs.iter().zip(terms) {
            operands.push(self.einsum_diagonals(v, labels, loc)?);
        }
        let mut acc = operands.remove(0);
        while !operands.is_empty() {
            let next = operands.remove(0);
            // Labels needed after this step: the output's and the rest's.
            let mut after: Vec<Label> = output.clone();
            for (_, l) in &operands {
                after.extend(l.iter().copied());
            }
            let (x, xl) =
                self.einsum_sum_unused(acc, &[after.clone(), next.1.clone()].concat(), loc)?;
            let (y, yl) =
                self.einsum_sum_unused(next, &[after.clone(), xl.clone()].concat(), loc)?;
            acc = self.einsum_pair((x, xl), (y, yl), &after, loc)?;
        }
        let acc = self.einsum_sum_unused(acc, &output, loc)?;
        self.einsum_permute(acc, &output, loc)
    }

    /// Takes the diagonal of every label repeated within one operand.
    fn einsum_diagonals(
        &mut self,
        mut x: Value,
        mut labels: Vec<Label>,
        loc: Location,
    ) -> Res<(Value, Vec<Label>)> {
        while let Some((p, q)) = (0..labels.len())
            .flat_map(|p| (p + 1..labels.len()).map(move |q| (p, q)))
            .find(|&(p, q)| labels[p] == labels[q])
        {
            // sum_j x[.. i .. j ..] * (i == j) is x[.. i .. i ..].
            let rank = labels.len();
            let n = self.dim_scalar(x, p, loc)?;
            let rows = self.iota(n, rank - 1 - p, loc)?;
            let cols = self.iota(n, rank - 1 - q, loc)?;
            let eye = self.bin("graph.equal", rows, cols, loc)?;
            let elem = self.elem(x).ok_or("operand is not a tensor")?;
            let eye = self.cast_to(eye, elem, loc)?;
            let masked = self.bin("graph.mul", x, eye, loc)?;
            x = self.reduce_sum(masked, &[q as i64], loc)?;
            labels.remove(q);
        }
        Ok((x, labels))
    }

    /// Sums the labels of `x` that are not in `keep`.
    fn einsum_sum_unused(
        &mut self,
        (x, labels): (Value, Vec<Label>),
        keep: &[Label],
        loc: Location,
    ) -> Res<(Value, Vec<Label>)> {
        let gone: Vec<i64> = (0..labels.len())
            .filter(|&i| !keep.contains(&labels[i]))
            .map(|i| i as i64)
            .collect();
        if gone.is_empty() {
            return Ok((x, labels));
        }
        let y = self.reduce_sum(x, &gone, loc)?;
        let rest = labels.into_iter().filter(|l| keep.contains(l)).collect();
        Ok((y, rest))
    }

    /// `x` with its labels in the order of `to` (which holds the same
    /// labels).
    fn einsum_permute(
        &mut self,
        (x, labels): (Value, Vec<Label>),
        to: &[Label],
        loc: Location,
    ) -> Res<Value> {
        let perm: Vec<i64> = to
            .iter()
            .map(|l| labels.iter().position(|m| m == l).map(|p| p as i64))
            .collect::<Option<_>>()
            .ok_or("has an output label that no operand has")?;
        if perm.iter().enumerate().all(|(i, &p)| i as i64 == p) {
            return Ok(x);
        }
        let perm = self.i64_array(&perm);
        self.op1("graph.transpose", vec![x], vec![("perm", perm)], loc)
    }

    /// The product of two operands, keeping the labels in `needed`.
    fn einsum_pair(
        &mut self,
        (x, xl): (Value, Vec<Label>),
        (y, yl): (Value, Vec<Label>),
        needed: &[Label],
        loc: Location,
    ) -> Res<(Value, Vec<Label>)> {
        let batch: Vec<Label> = xl
            .iter()
            .filter(|l| yl.contains(l) && needed.contains(l))
            .copied()
            .collect();
        let contracted: Vec<Label> = xl
            .iter()
            .filter(|l| yl.contains(l) && !needed.contains(l))
            .copied()
            .collect();
        let left: Vec<Label> = xl.iter().filter(|l| !yl.contains(l)).copied().collect();
        let right: Vec<Label> = yl.iter().filter(|l| !xl.contains(l)).copied().collect();
        // The contracted sizes must be equal for matmul (an ellipsis dimension
        // of size 1 against n broadcasts instead).
        let same_k = contracted.iter().all(|l| {
            let size = |v: Value, labels: &[Label]| {
                let at = labels.iter().position(|m| m == l)?;
                self.dims_of(v)?.get(at).cloned()
            };
            match (size(x, &xl), size(y, &yl)) {
                (Some(a), Some(b)) => a == b && a != Dim::Unknown,
                _ => false,
            }
        });
        if same_k && contracted.len() <= 1 && left.len() <= 1 && right.len() <= 1 {
            // [batch, left|1, contracted|1] x [batch, contracted|1, right|1].
            let a_order = [batch.clone(), left.clone(), contracted.clone()].concat();
            let b_order = [batch.clone(), contracted.clone(), right.clone()].concat();
            let mut a = self.einsum_permute((x, xl), &a_order, loc)?;
            let mut b = self.einsum_permute((y, yl), &b_order, loc)?;
            let nb = batch.len() as i64;
            if left.is_empty() {
                a = self.unsqueeze(a, &[nb], loc)?;
            }
            if contracted.is_empty() {
                a = self.unsqueeze(a, &[nb + 1], loc)?;
                b = self.unsqueeze(b, &[nb], loc)?;
            }
            if right.is_empty() {
                b = self.unsqueeze(b, &[nb + 1], loc)?;
            }
            let mut z = self.bin("graph.matmul", a, b, loc)?;
            let mut squeeze = Vec::new();
            if left.is_empty() {
                squeeze.push(nb);
            }
            if right.is_empty() {
                squeeze.push(nb + 1);
            }
            if !squeeze.is_empty() {
                let axes = self.const_i64(&squeeze, loc)?;
                z = self.op1("graph.squeeze", vec![z, axes], vec![], loc)?;
            }
            return Ok((z, [batch, left, right].concat()));
        }
        // Broadcast both over every label, multiply, sum the contracted ones.
        let all: Vec<Label> = [batch, left, right, contracted.clone()].concat();
        let spread = |v: Value, labels: Vec<Label>, s: &mut Self| -> Res<Value> {
            let own: Vec<Label> = all.iter().filter(|l| labels.contains(l)).copied().collect();
            let v = s.einsum_permute((v, labels), &own, loc)?;
            let missing: Vec<i64> = (0..all.len())
                .filter(|&i| !own.contains(&all[i]))
                .map(|i| i as i64)
                .collect();
            if missing.is_empty() {
                Ok(v)
            } else {
                s.unsqueeze(v, &missing, loc)
            }
        };
        let a = spread(x, xl, self)?;
        let b = spread(y, yl, self)?;
        let product = self.bin("graph.mul", a, b, loc)?;
        let n = all.len() - contracted.len();
        let summed: Vec<i64> = (n as i64..all.len() as i64).collect();
        let z = if summed.is_empty() {
            product
        } else {
            self.reduce_sum(product, &summed, loc)?
        };
        Ok((z, all[..n].to_vec()))
    }
}

/// An einsum label: a letter, or dimension `k` of the ellipsis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Letter(char),
    Ellipsis(usize),
}

/// The labels of each operand (the ellipsis expanded to the operand's
/// rank) and of the output (explicit, or implicit: the ellipsis, then the
/// letters used once, in alphabetical order).
fn parse_einsum(equation: &str, ranks: &[usize]) -> Res<(Vec<Vec<Label>>, Vec<Label>)> {
    let eq: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (eq.as_str(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != ranks.len() {
        return Err(format!(
            "equation '{equation}' has {} operands, but the node has {}",
            terms.len(),
            ranks.len()
        )
        .into());
    }
    let letters = |term: &str| -> Res<(Vec<char>, Option<usize>)> {
        let mut out = Vec::new();
        let mut ellipsis = None;
        let mut rest = term;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("...") {
                if ellipsis.replace(out.len()).is_some() {
                    return Err(
                        format!("equation '{equation}' has two ellipses in one term").into(),
                    );
                }
                rest = r;
                continue;
            }
            let Some(c) = rest.chars().next() else {
                break;
            };
            if !c.is_ascii_alphabetic() {
                return Err(format!("equation '{equation}' has the invalid label '{c}'").into());
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        Ok((out, ellipsis))
    };
    let mut parsed = Vec::new();
    let mut ellipsis_rank = 0;
    for (term, &rank) in terms.iter().zip(ranks) {
        let (l, e) = letters(term)?;
        let extra = rank
            .checked_sub(l.len())
            .filter(|&n| e.is_some() || n == 0)
            .ok_or_else(|| {
                format!("term '{term}' of '{equation}' does not match an operand of rank {rank}")
            })?;
        ellipsis_rank = ellipsis_rank.max(extra);
        parsed.push((l, e, extra));
    }
    let expand = |l: &[char], e: Option<usize>, extra: usize| -> Vec<Label> {
        let mut out: Vec<Label> = l.iter().map(|&c| Label::Letter(c)).collect();
        if let Some(at) = e {
            // Right-aligned, as broadcasting aligns dimensions.
            let dims = (ellipsis_rank - extra..ellipsis_rank).map(Label::Ellipsis);
            out.splice(at..at, dims);
        }
        out
    };
    let inputs: Vec<Vec<Label>> = parsed.iter().map(|(l, e, n)| expand(l, *e, *n)).collect();
    let output = match rhs {
        Some(r) => {
            // Without an ellipsis in the output, its dimensions are summed.
            let (l, e) = letters(r)?;
            let out = expand(&l, e, ellipsis_rank);
            for (k, w) in out.iter().enumerate() {
                if !inputs.iter().any(|i| i.contains(w)) {
                    return Err(format!("output of '{equation}' has a label no operand has").into());
                }
                if out[..k].contains(w) {
                    return Err(format!("output of '{equation}' repeats a label").into());
                }
            }
            out
        }
        None => {
            let mut once: Vec<char> = Vec::new();
            for c in inputs.iter().flatten().filter_map(|l| match l {
                Label::Letter(c) => Some(*c),
                Label::Ellipsis(_) => None,
            }) {
                let count = inputs
                    .iter()
                    .flatten()
                    .filter(|&&l| l == Label::Letter(c))
                    .count();
                if count == 1 && !once.contains(&c) {
                    once.push(c);
                }
            }
            once.sort_unstable();
            (0..ellipsis_rank)
                .map(Label::Ellipsis)
                .chain(once.into_iter().map(Label::Letter))
                .collect()
        }
    };
    Ok((inputs, output))
}
