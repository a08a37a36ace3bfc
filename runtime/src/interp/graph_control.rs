//! Evaluation of the `graph` control-flow ops: `graph.if`, `graph.loop`
//! and `graph.scan` run their regions in the interpreter, with the values
//! of the enclosing blocks in scope (the regions are not isolated).

use std::rc::Rc;

use strata_dialects::graph::infer::control::scan_attrs;
use strata_ir::{Operation, Value};

use super::{Env, InterpError, Interpreter, Slot};
use crate::kernels as k;
use crate::Tensor;

/// Whether `name` is one of the control-flow ops this module evaluates.
pub(super) fn is_control_flow(name: &str) -> bool {
    matches!(name, "graph.if" | "graph.loop" | "graph.scan")
}

/// The one element of a condition or count tensor.
fn one_element(t: &Tensor, what: &str) -> Result<i64, String> {
    match t.to_i64_vec()[..] {
        [v] => Ok(v),
        _ => Err(format!(
            "{what} must have one element, but has shape {:?}",
            t.shape()
        )),
    }
}

/// The slice of `x` at `index` along `axis`, without that axis.
fn take(x: &Tensor, axis: usize, index: usize) -> Result<Tensor, String> {
    let i = index as i64;
    let s = k::slice(x, &[i], &[i + 1], &[axis as i64], &[]).map_err(|e| e.to_string())?;
    let mut shape = x.shape().to_vec();
    shape.remove(axis);
    k::reshape(&s, &shape).map_err(|e| e.to_string())
}

/// `parts` stacked along a new `axis` (all of one shape); `empty` is the
/// result when there are none.
fn stack(parts: &[Tensor], axis: usize, empty: impl FnOnce() -> Tensor) -> Result<Tensor, String> {
    let Some(first) = parts.first() else {
        return Ok(empty());
    };
    let mut shape = first.shape().to_vec();
    if axis > shape.len() {
        return Err(format!(
            "axis {axis} is out of range for rank {}",
            shape.len() + 1
        ));
    }
    shape.insert(axis, 1);
    let mut lifted = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        if p.shape() != first.shape() {
            return Err(format!(
                "iteration {i} produced shape {:?}, but the first produced {:?}: stacked values must keep their shape",
                p.shape(),
                first.shape()
            ));
        }
        lifted.push(k::reshape(p, &shape).map_err(|e| e.to_string())?);
    }
    let refs: Vec<&Tensor> = lifted.iter().collect();
    k::concat(&refs, axis as i64).map_err(|e| e.to_string())
}

impl Interpreter<'_> {
    pub(super) fn eval_graph_control(
        &mut self,
        op: Operation,
        name: &str,
        x: Vec<Slot>,
        env: &Env,
    ) -> Result<Vec<Slot>, InterpError> {
        match name {
            "graph.if" => {
                let c = x
                    .first()
                    .ok_or_else(|| self.error(op, "has no condition"))
                    .and_then(|c| self.tensor_operand(op, c, "the condition"))
                    .and_then(|c| one_element(c, "the condition").map_err(|m| self.error(op, m)))?;
                self.run_region_values(op, if c != 0 { 0 } else { 1 }, Vec::new(), env)
            }
            "graph.loop" => self.eval_loop(op, x, env),
            "graph.scan" => self.eval_scan(op, x, env),
            _ => Err(self.error(
                op,
                format!("cannot be evaluated: the interpreter does not know '{name}'"),
            )),
        }
    }

    /// The tensor `v` (described by `what`), or an error.
    fn tensor_operand<'v>(
        &self,
        op: Operation,
        v: &'v Slot,
        what: &str,
    ) -> Result<&'v Rc<Tensor>, InterpError> {
        v.tensor(what).map_err(|m| self.error(op, m))
    }

    /// A yielded value that is stacked or scanned: a tensor.
    fn stacked_part(&self, op: Operation, v: Slot, what: &str) -> Result<Tensor, InterpError> {
        v.into_tensor(what).map_err(|m| self.error(op, m))
    }

    /// Checks the values entering a region against its arguments' types.
    fn check_args(&self, op: Operation, args: &[Slot], what: &str) -> Result<(), InterpError> {
        let block_args: Vec<Value> = self
            .ctx
            .op_regions(op)
            .first()
            .and_then(|&r| self.ctx.region_entry_block(r))
            .map(|b| self.ctx.block_args(b).collect())
            .unwrap_or_default();
        for (i, (&arg, t)) in block_args.iter().zip(args).enumerate() {
            self.check_slot(op, self.ctx.value_type(arg), t, &format!("{what} #{i}"))?;
        }
        Ok(())
    }

    /// An empty stack of result `index`: its static sizes, 0 for the
    /// stacked axis and any other dynamic one.
    fn empty_result(&self, op: Operation, index: usize) -> Result<Tensor, InterpError> {
        let ty = self
            .ctx
            .results(op)
            .nth(index)
            .map(|r| self.ctx.value_type(r))
            .ok_or_else(|| self.error(op, "missing result"))?;
        let (dtype, shape) =
            super::type_info(self.ctx, ty).ok_or_else(|| self.error(op, "result type"))?;
        let shape: Vec<usize> = shape
            .unwrap_or_else(|| vec![0])
            .iter()
            .map(|&d| usize::try_from(d).unwrap_or(0))
            .collect();
        Ok(Tensor::zeros(dtype, &shape))
    }

    fn eval_loop(
        &mut self,
        op: Operation,
        x: Vec<Slot>,
        env: &Env,
    ) -> Result<Vec<Slot>, InterpError> {
        let e = |s: &Self, m: String| s.error(op, m);
        let (Some(m), Some(c)) = (x.first(), x.get(1)) else {
            return Err(self.error(op, "requires a trip count and a condition"));
        };
        let m = self.tensor_operand(op, m, "the trip count")?;
        let c = self.tensor_operand(op, c, "the condition")?;
        let max_trips = one_element(m, "the trip count").map_err(|m| e(self, m))?;
        let mut cond = one_element(c, "the condition").map_err(|m| e(self, m))? != 0;
        let cond_dtype = c.dtype();
        let mut carried: Vec<Slot> = x[2..].to_vec();
        let n = carried.len();
        let stacked_count = self
            .ctx
            .num_results(op)
            .checked_sub(n)
            .ok_or_else(|| e(self, "has fewer results than carried values".into()))?;
        let mut stacked: Vec<Vec<Tensor>> = vec![Vec::new(); stacked_count];
        let mut i: i64 = 0;
        while i < max_trips && cond {
            if i as u64 >= self.limits.max_iterations {
                return Err(e(
                    self,
                    format!("runs more than {} iterations", self.limits.max_iterations),
                ));
            }
            let mut args = vec![
                Slot::from(Tensor::scalar_i64(crate::DType::I64, i)),
                Slot::from(Tensor::scalar_i64(cond_dtype, i64::from(cond))),
            ];
            args.extend(carried);
            self.check_args(op, &args, "loop value")?;
            let out = self.run_region_values(op, 0, args, env)?;
            if out.len() != 1 + n + stacked_count {
                return Err(e(self, "body yields the wrong number of values".into()));
            }
            let mut out = out.into_iter();
            let next_cond = out
                .next()
                .ok_or_else(|| e(self, "body yields nothing".into()))?;
            let next_cond = self.tensor_operand(op, &next_cond, "the yielded condition")?;
            cond = one_element(next_cond, "the yielded condition").map_err(|m| e(self, m))? != 0;
            carried = out.by_ref().take(n).collect();
            for (acc, t) in stacked.iter_mut().zip(out) {
                acc.push(self.stacked_part(op, t, "a stacked value")?);
            }
            i += 1;
        }
        let mut results = carried;
        for (j, parts) in stacked.iter().enumerate() {
            let empty = self.empty_result(op, n + j)?;
            results.push(Slot::from(
                stack(parts, 0, || empty).map_err(|m| e(self, m))?,
            ));
        }
        Ok(results)
    }

    fn eval_scan(
        &mut self,
        op: Operation,
        x: Vec<Slot>,
        env: &Env,
    ) -> Result<Vec<Slot>, InterpError> {
        let e = |s: &Self, m: String| s.error(op, m);
        let attrs =
            scan_attrs(self.ctx, op, x.len(), self.ctx.num_results(op)).map_err(|m| e(self, m))?;
        let mut states: Vec<Slot> = x[..attrs.states].to_vec();
        let scanned = x[attrs.states..]
            .iter()
            .map(|v| self.tensor_operand(op, v, "a scanned input").cloned())
            .collect::<Result<Vec<_>, _>>()?;
        let mut axes = Vec::with_capacity(scanned.len());
        let mut length = None;
        for (j, t) in scanned.iter().enumerate() {
            let axis = super::norm(attrs.input_axes[j], t.rank() as i64)
                .map_err(|m| e(self, format!("scanned input #{j}: {m}")))?;
            let len = t.shape()[axis];
            if *length.get_or_insert(len) != len {
                return Err(e(
                    self,
                    format!(
                        "scanned inputs have different lengths ({} and {len})",
                        length.unwrap_or(0)
                    ),
                ));
            }
            axes.push(axis);
        }
        let length = length.unwrap_or(0);
        if length as u64 > self.limits.max_iterations {
            return Err(e(
                self,
                format!("runs more than {} iterations", self.limits.max_iterations),
            ));
        }
        let outputs = attrs.output_axes.len();
        let mut stacked: Vec<Vec<Tensor>> = vec![Vec::with_capacity(length); outputs];
        for t in 0..length {
            let mut args = std::mem::take(&mut states);
            for (j, input) in scanned.iter().enumerate() {
                let at = if attrs.input_reverse[j] {
                    length - 1 - t
                } else {
                    t
                };
                args.push(Slot::from(
                    take(input, axes[j], at).map_err(|m| e(self, m))?,
                ));
            }
            self.check_args(op, &args, "scan value")?;
            let out = self.run_region_values(op, 0, args, env)?;
            if out.len() != attrs.states + outputs {
                return Err(e(self, "body yields the wrong number of values".into()));
            }
            let mut out = out.into_iter();
            states = out.by_ref().take(attrs.states).collect();
            for (acc, v) in stacked.iter_mut().zip(out) {
                acc.push(self.stacked_part(op, v, "a scanned output")?);
            }
        }
        let mut results = states;
        for (j, mut parts) in stacked.into_iter().enumerate() {
            if attrs.output_reverse[j] {
                parts.reverse();
            }
            let empty = self.empty_result(op, attrs.states + j)?;
            let Some(first) = parts.first() else {
                results.push(Slot::from(empty));
                continue;
            };
            let rank = first.rank() as i64 + 1;
            let axis = super::norm(attrs.output_axes[j], rank).map_err(|m| e(self, m))?;
            results.push(Slot::from(
                stack(&parts, axis, || empty).map_err(|m| e(self, m))?,
            ));
        }
        Ok(results)
    }
}
