//! Evaluation of the sequence and optional ops (`graph.sequence_*`,
//! `graph.split_to_sequence`, `graph.concat_from_sequence`,
//! `graph.optional*`), ONNX's semantics.

use std::rc::Rc;

use strata_dialects::graph::infer::{attr_bool, attr_i64};
use strata_ir::Operation;

use super::{check_size, kerr, norm, InterpError, Interpreter, Slot};
use crate::kernels as k;
use crate::{DType, Datum, Tensor};

/// Whether `name` is one of the ops this module evaluates.
pub(super) fn is_sequence_op(name: &str) -> bool {
    strata_dialects::graph::sequence::is_sequence_op(name)
}

fn tensor<'v>(v: &'v Slot, what: &str) -> Result<&'v Tensor, String> {
    v.tensor(what).map(|t| &**t)
}

/// The optional in `v`.
fn optional(v: &Slot) -> Result<&Option<Box<Datum>>, String> {
    match v {
        Slot::Other(d) => match &**d {
            Datum::Optional(inner) => Ok(inner),
            other => Err(format!("expects an optional, but got a {}", other.kind())),
        },
        other => Err(format!("expects an optional, but got a {}", other.kind())),
    }
}

fn sequence(v: &Slot) -> Result<&[Rc<Tensor>], String> {
    match v {
        Slot::Seq(items) => Ok(items),
        other => Err(format!("expects a sequence, but got a {}", other.kind())),
    }
}

fn seq_slot(items: Vec<Rc<Tensor>>) -> Slot {
    Slot::Seq(Rc::new(items))
}

/// Refuses a sequence whose elements together exceed `max_bytes`.
fn check_total(items: &[Rc<Tensor>], max_bytes: usize) -> Result<(), String> {
    let bytes = items.iter().fold(0usize, |acc, t| {
        acc.saturating_add(t.len().saturating_mul(t.dtype().byte_size()))
    });
    if bytes > max_bytes {
        return Err(format!(
            "a sequence of {bytes} bytes is larger than the interpreter's limit of {max_bytes} bytes"
        ));
    }
    Ok(())
}

/// The one element of a position tensor.
fn position(t: &Tensor) -> Result<i64, String> {
    match t.to_i64_vec()[..] {
        [p] => Ok(p),
        _ => Err(format!(
            "the position must have one element, but has shape {:?}",
            t.shape()
        )),
    }
}

/// `p` as an index into a sequence of `len` elements: `-len..len`, or
/// `-len..=len` when `end_ok` (an insertion may append).
fn seq_index(p: i64, len: usize, end_ok: bool) -> Result<usize, String> {
    let n = len as i64;
    let i = if p < 0 { p + n } else { p };
    let top = if end_ok { n } else { n - 1 };
    if i < 0 || i > top {
        let range = if end_ok {
            format!("[-{n}, {n}]")
        } else {
            format!("[-{n}, {}]", n - 1)
        };
        return Err(format!(
            "position {p} is out of range for a sequence of {len} tensors (expected {range})"
        ));
    }
    Ok(i as usize)
}

impl Interpreter<'_> {
    pub(super) fn eval_sequence(
        &mut self,
        op: Operation,
        name: &str,
        x: Vec<Slot>,
    ) -> Result<Vec<Slot>, InterpError> {
        self.sequence_op(op, name, &x)
            .map(|v| vec![v])
            .map_err(|m| self.error(op, m))
    }

    fn sequence_op(&self, op: Operation, name: &str, x: &[Slot]) -> Result<Slot, String> {
        let arg = |i: usize| x.get(i).ok_or_else(|| format!("is missing operand #{i}"));
        match name {
            "graph.sequence_construct" => {
                let items = x
                    .iter()
                    .enumerate()
                    .map(|(i, v)| v.tensor(&format!("element #{i}")).cloned())
                    .collect::<Result<Vec<_>, _>>()?;
                check_total(&items, self.limits.max_bytes)?;
                Ok(seq_slot(items))
            }
            "graph.sequence_empty" => Ok(seq_slot(Vec::new())),
            "graph.sequence_at" => {
                let items = sequence(arg(0)?)?;
                let i = seq_index(
                    position(tensor(arg(1)?, "the position")?)?,
                    items.len(),
                    false,
                )?;
                Ok(Slot::Tensor(items[i].clone()))
            }
            "graph.sequence_insert" => {
                let mut items = sequence(arg(0)?)?.to_vec();
                let t = arg(1)?.tensor("the inserted value")?.clone();
                if let Some(first) = items.first() {
                    if first.dtype() != t.dtype() {
                        return Err(format!(
                            "cannot insert a {} tensor into a sequence of {} tensors",
                            t.dtype().name(),
                            first.dtype().name()
                        ));
                    }
                }
                let i = match x.get(2) {
                    Some(p) => seq_index(position(tensor(p, "the position")?)?, items.len(), true)?,
                    None => items.len(),
                };
                items.insert(i, t);
                check_total(&items, self.limits.max_bytes)?;
                Ok(seq_slot(items))
            }
            "graph.sequence_erase" => {
                let mut items = sequence(arg(0)?)?.to_vec();
                if items.is_empty() {
                    return Err("cannot erase from an empty sequence".into());
                }
                let i = match x.get(1) {
                    Some(p) => {
                        seq_index(position(tensor(p, "the position")?)?, items.len(), false)?
                    }
                    None => items.len() - 1,
                };
                items.remove(i);
                Ok(seq_slot(items))
            }
            "graph.sequence_length" => {
                let n = sequence(arg(0)?)?.len();
                Ok(Slot::from(Tensor::scalar_i64(DType::I64, n as i64)))
            }
            "graph.split_to_sequence" => {
                let input = tensor(arg(0)?, "the input")?;
                let split = x.get(1).map(|s| tensor(s, "split")).transpose()?;
                let pieces = self.split_to_sequence(op, input, split)?;
                Ok(seq_slot(pieces.into_iter().map(Rc::new).collect()))
            }
            "graph.concat_from_sequence" => {
                let items = sequence(arg(0)?)?;
                let axis = attr_i64(self.ctx, op, "axis").ok_or("requires 'axis'")?;
                let new_axis = attr_bool(self.ctx, op, "new_axis");
                Ok(Slot::from(concat_from_sequence(
                    items,
                    axis,
                    new_axis,
                    self.limits.max_bytes,
                )?))
            }
            "graph.optional" => {
                let inner = x.first().cloned().map(|v| Box::new(v.into_datum()));
                Ok(Slot::Other(Rc::new(Datum::Optional(inner))))
            }
            "graph.optional_get_element" => match optional(arg(0)?)? {
                Some(inner) => Ok(Slot::from_datum((**inner).clone())),
                None => Err("the optional is empty".into()),
            },
            "graph.optional_has_element" => {
                let present = optional(arg(0)?)?.is_some();
                Ok(Slot::from(Tensor::scalar_i64(
                    DType::I1,
                    i64::from(present),
                )))
            }
            _ => Err(format!(
                "cannot be evaluated: the interpreter does not know '{name}'"
            )),
        }
    }

    /// `graph.split_to_sequence`: pieces of `split`'s sizes (a scalar: of
    /// that size, the last one smaller), or of size 1 (the axis removed
    /// unless `keepdims`).
    fn split_to_sequence(
        &self,
        op: Operation,
        input: &Tensor,
        split: Option<&Tensor>,
    ) -> Result<Vec<Tensor>, String> {
        let axis = attr_i64(self.ctx, op, "axis").unwrap_or(0);
        let keepdims = attr_bool(self.ctx, op, "keepdims");
        let a = norm(axis, input.rank() as i64)?;
        let dim = input.shape()[a];
        // A zero-element input may have a huge axis: bound the pieces
        // before making a list of them.
        let pieces = match split {
            None => dim as u64,
            Some(s) if s.rank() == 0 => position(s)
                .ok()
                .filter(|&n| n > 0)
                .map_or(0, |n| (dim as u64).div_ceil(n as u64)),
            Some(s) => s.len() as u64,
        };
        if pieces > self.limits.max_iterations {
            return Err(format!(
                "would make {pieces} pieces, more than the interpreter's limit of {}",
                self.limits.max_iterations
            ));
        }
        let sizes: Vec<usize> = match split {
            None => vec![1; dim],
            Some(s) if s.rank() == 0 => {
                let n = position(s).map_err(|_| "split must have one element".to_string())?;
                let n = usize::try_from(n)
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("a scalar split must be positive, but is {n}"))?;
                let mut sizes = vec![n; dim / n];
                if !dim.is_multiple_of(n) {
                    sizes.push(dim % n);
                }
                sizes
            }
            Some(s) if s.rank() == 1 => super::usizes(&s.to_i64_vec(), "split sizes")?,
            Some(s) => {
                return Err(format!(
                    "split must be a scalar or a 1-D tensor, but has shape {:?}",
                    s.shape()
                ))
            }
        };
        let pieces = k::split(input, a as i64, &sizes).map_err(kerr)?;
        if split.is_some() || keepdims {
            return Ok(pieces);
        }
        let mut shape = input.shape().to_vec();
        shape.remove(a);
        pieces
            .iter()
            .map(|p| k::reshape(p, &shape).map_err(kerr))
            .collect()
    }
}

/// `graph.concat_from_sequence`: the elements joined along `axis`, or
/// stacked along a new one.
fn concat_from_sequence(
    items: &[Rc<Tensor>],
    axis: i64,
    new_axis: bool,
    max_bytes: usize,
) -> Result<Tensor, String> {
    let Some(first) = items.first() else {
        return Err("cannot concatenate an empty sequence".into());
    };
    let total: usize = items.iter().map(|t| t.len()).sum();
    check_size(&[total], first.dtype(), max_bytes)?;
    if !new_axis {
        let refs: Vec<&Tensor> = items.iter().map(|t| &**t).collect();
        return k::concat(&refs, axis).map_err(kerr);
    }
    let a = norm(axis, first.rank() as i64 + 1)?;
    let lifted = items
        .iter()
        .map(|t| {
            let mut shape = t.shape().to_vec();
            shape.insert(a.min(shape.len()), 1);
            k::reshape(t, &shape).map_err(kerr)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&Tensor> = lifted.iter().collect();
    k::concat(&refs, a as i64).map_err(kerr)
}
