//! Evaluation of the `scf` ops: `scf.if`, `scf.for` and `scf.while` run
//! their regions in the interpreter.

use std::rc::Rc;

use strata_ir::Operation;

use super::{Env, InterpError, Interpreter};
use crate::Tensor;

impl Interpreter<'_> {
    pub(super) fn eval_scf(
        &mut self,
        op: Operation,
        name: &str,
        x: Vec<Rc<Tensor>>,
        env: &Env,
    ) -> Result<Vec<Tensor>, InterpError> {
        let x: Vec<Tensor> = x.into_iter().map(Rc::unwrap_or_clone).collect();
        let scalar_i64 = |t: &Tensor| t.to_i64_vec().first().copied();
        match name {
            "scf.if" => {
                let c = x
                    .first()
                    .and_then(scalar_i64)
                    .ok_or_else(|| self.error(op, "has no condition"))?;
                let region = if c != 0 { 0 } else { 1 };
                self.run_region(op, region, Vec::new(), env)
            }
            "scf.for" => {
                let get = |i: usize| x.get(i).and_then(scalar_i64);
                let (Some(lb), Some(ub), Some(step)) = (get(0), get(1), get(2)) else {
                    return Err(self.error(op, "has malformed bounds"));
                };
                if step <= 0 {
                    return Err(self.error(op, format!("step must be positive, but is {step}")));
                }
                let iv_dtype = x[0].dtype();
                let mut carried: Vec<Tensor> = x[3..].to_vec();
                let mut i = lb;
                let mut iterations = 0u64;
                while i < ub {
                    let mut args = vec![Tensor::scalar_i64(iv_dtype, i)];
                    args.extend(carried);
                    carried = self.run_region(op, 0, args, env)?;
                    i = i.saturating_add(step);
                    iterations += 1;
                    if iterations > self.limits.max_iterations {
                        return Err(self.error(
                            op,
                            format!("runs more than {} iterations", self.limits.max_iterations),
                        ));
                    }
                }
                Ok(carried)
            }
            "scf.while" => {
                let mut carried = x;
                for _ in 0..self.limits.max_iterations {
                    let cond = self.run_region(op, 0, carried, env)?;
                    let (c, rest) = cond
                        .split_first()
                        .ok_or_else(|| self.error(op, "before region yields nothing"))?;
                    if scalar_i64(c).unwrap_or(0) == 0 {
                        return Ok(rest.to_vec());
                    }
                    carried = self.run_region(op, 1, rest.to_vec(), env)?;
                }
                Err(self.error(
                    op,
                    format!("runs more than {} iterations", self.limits.max_iterations),
                ))
            }
            _ => Err(self.error(
                op,
                format!("cannot be evaluated: the interpreter does not know '{name}'"),
            )),
        }
    }
}
