//! Evaluation of the `tensor` ops: `tensor.map`, `tensor.reduce` and
//! `tensor.fusion` run their bodies per element (`tensor.index` reads the
//! current point), `tensor.contract` sums products in `f64` (integers in
//! `i128`, wrapping to the element type), rounded once to the element type,
//! and `tensor.reshape` keeps the elements.

use std::rc::Rc;

use strata_dialects::tensor::{
    CheckIndicesOp, ContractOp, ExtractOp, GenericOp, IndexOp, MapOp, ReduceOp,
};
use strata_ir::affine::{AffineExpr, AffineMap};
use strata_ir::Operation;

use super::{attr_tensor, result_dtype, type_info, Env, InterpError, Interpreter};
use crate::{DType, Tensor, TensorData};

/// The elements of a tensor in a form that holds every dtype exactly.
enum Elements {
    Float(Vec<f64>),
    Int(Vec<i128>),
}

impl Elements {
    fn of(t: &Tensor) -> Elements {
        if t.dtype().is_float() {
            Elements::Float(t.to_f64_vec())
        } else {
            Elements::Int(t.data().to_i128_vec())
        }
    }

    fn scalar(&self, dtype: DType, i: usize) -> Tensor {
        match self {
            Elements::Float(v) => Tensor::scalar_f64(dtype, v.get(i).copied().unwrap_or(0.0)),
            Elements::Int(v) => {
                let data = TensorData::from_i128_slice(dtype, &[v.get(i).copied().unwrap_or(0)]);
                Tensor::from_parts(Vec::new(), data)
            }
        }
    }
}

/// Row-major strides of `shape`.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// The point of flat index `flat` in `shape`.
fn unflatten(mut flat: usize, shape: &[usize]) -> Vec<i64> {
    let mut p = vec![0; shape.len()];
    for i in (0..shape.len()).rev() {
        let n = shape[i].max(1);
        p[i] = (flat % n) as i64;
        flat /= n;
    }
    p
}

fn eval_expr(e: &AffineExpr, point: &[i64]) -> Result<i64, String> {
    let bin = |a: &AffineExpr, b: &AffineExpr| -> Result<(i64, i64), String> {
        Ok((eval_expr(a, point)?, eval_expr(b, point)?))
    };
    Ok(match e {
        AffineExpr::Dim(d) => *point.get(*d as usize).ok_or("uses a dim out of range")?,
        AffineExpr::Symbol(_) => return Err("uses a symbol".into()),
        AffineExpr::Constant(c) => *c,
        AffineExpr::Add(a, b) => {
            let (x, y) = bin(a, b)?;
            x.wrapping_add(y)
        }
        AffineExpr::Mul(a, b) => {
            let (x, y) = bin(a, b)?;
            x.wrapping_mul(y)
        }
        AffineExpr::Mod(a, b) | AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) => {
            let (x, y) = bin(a, b)?;
            if y == 0 {
                return Err("divides by zero in an indexing map".into());
            }
            match e {
                AffineExpr::Mod(..) => x.rem_euclid(y),
                AffineExpr::FloorDiv(..) => x.div_euclid(y),
                _ => -((-x).div_euclid(y)),
            }
        }
    })
}

/// The flat index of `map(point)` in a tensor of `shape`.
fn flat_index(map: &AffineMap, point: &[i64], shape: &[usize]) -> Result<usize, String> {
    let st = strides(shape);
    let mut flat = 0usize;
    for (k, e) in map.results.iter().enumerate() {
        let i = eval_expr(e, point)?;
        let n = *shape.get(k).ok_or("has a map with too many results")?;
        if i < 0 || i as usize >= n {
            return Err(format!("reads index {i} of a dimension of size {n}"));
        }
        flat += i as usize * st[k];
    }
    Ok(flat)
}

fn static_shape(ctx: &strata_ir::Context, op: Operation) -> Result<(DType, Vec<usize>), String> {
    let v = ctx.results(op).next().ok_or("has no result")?;
    let (dtype, shape) =
        type_info(ctx, ctx.value_type(v)).ok_or("has an unsupported result type")?;
    let shape = shape
        .filter(|s| s.iter().all(|&d| d >= 0))
        .ok_or("has a result without a static shape")?;
    Ok((dtype, shape.into_iter().map(|d| d as usize).collect()))
}

/// Builds a tensor from 0-D tensors of `dtype`.
fn assemble(dtype: DType, shape: Vec<usize>, values: &[Tensor]) -> Tensor {
    let data = if dtype.is_float() {
        let v: Vec<f64> = values.iter().flat_map(|t| t.to_f64_vec()).collect();
        TensorData::from_f64_slice(dtype, &v)
    } else {
        let v: Vec<i128> = values.iter().flat_map(|t| t.data().to_i128_vec()).collect();
        TensorData::from_i128_slice(dtype, &v)
    };
    Tensor::from_parts(shape, data)
}

impl Interpreter<'_> {
    pub(super) fn eval_tensor(
        &mut self,
        op: Operation,
        name: &str,
        x: Vec<Rc<Tensor>>,
        env: &Env,
    ) -> Result<Vec<Tensor>, InterpError> {
        let ctx = self.ctx;
        match name {
            MapOp::NAME => self.eval_map(op, &x, env).map(|t| vec![t]),
            ReduceOp::NAME => self.eval_reduce(op, &x, env).map(|t| vec![t]),
            GenericOp::NAME => self.eval_generic(op, &x, env).map(|t| vec![t]),
            "tensor.fusion" => {
                let args = x.into_iter().map(Rc::unwrap_or_clone).collect();
                self.run_region(op, 0, args, env)
            }
            "tensor.index" => {
                let dim = IndexOp(op).dim(ctx).unwrap_or_default();
                let v = self
                    .points
                    .last()
                    .and_then(|p| p.get(dim as usize))
                    .copied()
                    .ok_or_else(|| self.error(op, "is not inside a tensor.map being evaluated"))?;
                let dtype = result_dtype(ctx, op, 0).map_err(|m| self.error(op, m))?;
                Ok(vec![Tensor::scalar_i64(dtype, v)])
            }
            CheckIndicesOp::NAME => {
                let t = x
                    .into_iter()
                    .next()
                    .ok_or_else(|| self.error(op, "has no operand"))?;
                let check = CheckIndicesOp(op);
                let sizes = check.sizes(ctx).unwrap_or_default();
                let axes = check.axes(ctx).unwrap_or_default();
                let template = check.message(ctx).unwrap_or_default();
                let values = t.data().to_i128_vec().into_iter();
                // Clamped into i64: a value past it is out of any range.
                let values =
                    values.map(|v| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64);
                if let Some(message) =
                    crate::plan::first_bad_index(values, &sizes, &axes, &template)
                {
                    // The message names the op it checks for ('graph.gather' op ...).
                    let mut error = self.error(op, message);
                    if let Some((name, rest)) = error
                        .message
                        .strip_prefix('\'')
                        .and_then(|m| m.split_once("' op "))
                    {
                        (error.op, error.message) = (name.to_string(), rest.to_string());
                    }
                    return Err(error);
                }
                Ok(vec![Rc::unwrap_or_clone(t)])
            }
            ExtractOp::NAME => {
                // Indices clamped into each dimension.
                let t = x.first().ok_or_else(|| self.error(op, "has no operand"))?;
                let shape = t.shape().to_vec();
                if x.len() != shape.len() + 1 {
                    return Err(self.error(op, "has a wrong number of indices"));
                }
                let mut flat = 0usize;
                for (k, &n) in shape.iter().enumerate() {
                    let i = x[k + 1].data().to_i128_vec().first().copied().unwrap_or(0);
                    let i = i.clamp(0, (n as i128 - 1).max(0)) as usize;
                    flat = flat * n + i;
                }
                let data = t
                    .data()
                    .element(flat)
                    .ok_or_else(|| self.error(op, "reads an empty tensor"))?;
                Ok(vec![Tensor::from_parts(Vec::new(), data)])
            }
            "tensor.reshape" => {
                let (_, shape) = static_shape(ctx, op).map_err(|m| self.error(op, m))?;
                let t = x.first().ok_or_else(|| self.error(op, "has no operand"))?;
                let data = t.data().clone();
                Tensor::new(shape, data)
                    .map(|t| vec![t])
                    .map_err(|e| self.error(op, e.to_string()))
            }
            ContractOp::NAME => eval_contract(ctx, op, &x)
                .map(|t| vec![t])
                .map_err(|m| self.error(op, m)),
            _ => Err(self.error(
                op,
                format!("cannot be evaluated: the interpreter does not know '{name}'"),
            )),
        }
    }

    fn eval_map(
        &mut self,
        op: Operation,
        x: &[Rc<Tensor>],
        env: &Env,
    ) -> Result<Tensor, InterpError> {
        let ctx = self.ctx;
        let (dtype, shape) = static_shape(ctx, op).map_err(|m| self.error(op, m))?;
        let maps = MapOp(op).maps(ctx);
        let gathered: Vec<bool> = (0..x.len())
            .map(|k| MapOp(op).is_gathered(ctx, k))
            .collect();
        let elements: Vec<Elements> = x
            .iter()
            .zip(&gathered)
            .map(|(t, &g)| {
                if g {
                    Elements::Int(Vec::new())
                } else {
                    Elements::of(t)
                }
            })
            .collect();
        let total: usize = shape.iter().product();
        super::check_size(&shape, dtype, self.limits.max_bytes).map_err(|m| self.error(op, m))?;
        let mut out = Vec::with_capacity(total);
        for flat in 0..total {
            let point = unflatten(flat, &shape);
            let mut args = Vec::with_capacity(x.len());
            for (((t, e), map), &g) in x.iter().zip(&elements).zip(&maps).zip(&gathered) {
                if g {
                    args.push(Rc::clone(t));
                    continue;
                }
                let i = flat_index(map, &point, t.shape()).map_err(|m| self.error(op, m))?;
                args.push(Rc::new(e.scalar(t.dtype(), i)));
            }
            self.points.push(point);
            let r = self.run_region_shared(op, 0, args, env);
            self.points.pop();
            let mut r = r?;
            out.push(
                r.pop()
                    .ok_or_else(|| self.error(op, "body yields nothing"))?,
            );
        }
        Ok(assemble(dtype, shape, &out))
    }

    fn eval_reduce(
        &mut self,
        op: Operation,
        x: &[Rc<Tensor>],
        env: &Env,
    ) -> Result<Tensor, InterpError> {
        let ctx = self.ctx;
        let (dtype, shape) = static_shape(ctx, op).map_err(|m| self.error(op, m))?;
        let reduce = ReduceOp(op);
        let dims = reduce.dimensions(ctx).unwrap_or_default();
        let init = reduce
            .init_attr(ctx)
            .ok_or_else(|| self.error(op, "has no init"))
            .and_then(|a| attr_tensor(ctx, a).map_err(|m| self.error(op, m)))?;
        let input = x.first().ok_or_else(|| self.error(op, "has no operand"))?;
        let elements = Elements::of(input);
        let total: usize = shape.iter().product();
        let mut acc = vec![init; total];
        let out_strides = strides(&shape);
        let in_total: usize = input.shape().iter().product();
        for flat in 0..in_total {
            let point = unflatten(flat, input.shape());
            let kept = point
                .iter()
                .enumerate()
                .filter(|(d, _)| !dims.contains(&(*d as i64)))
                .map(|(_, &i)| i as usize);
            let o: usize = kept.zip(&out_strides).map(|(i, s)| i * s).sum();
            let Some(slot) = acc.get_mut(o) else {
                return Err(self.error(op, "has a result shape that does not match its input"));
            };
            let args = vec![elements.scalar(input.dtype(), flat), slot.clone()];
            let mut r = self.run_region(op, 0, args, env)?;
            *slot = r
                .pop()
                .ok_or_else(|| self.error(op, "body yields nothing"))?;
        }
        Ok(assemble(dtype, shape, &acc))
    }

    /// `tensor.generic`: the domain's points in row-major order, each
    /// running the body on the input elements (and the accumulator, with
    /// `outs`) and storing what it yields at the result's index.
    fn eval_generic(
        &mut self,
        op: Operation,
        x: &[Rc<Tensor>],
        env: &Env,
    ) -> Result<Tensor, InterpError> {
        let ctx = self.ctx;
        let g = GenericOp(op);
        let (dtype, shape) = static_shape(ctx, op).map_err(|m| self.error(op, m))?;
        let maps = g.indexing_maps(ctx).unwrap_or_default();
        let has_init = g.init(ctx).is_some();
        let n_in = x.len() - usize::from(has_init);
        let mut shapes: Vec<Vec<i64>> = x[..n_in]
            .iter()
            .map(|t| t.shape().iter().map(|&d| d as i64).collect())
            .collect();
        shapes.push(shape.iter().map(|&d| d as i64).collect());
        let sizes =
            strata_dialects::tensor::domain_sizes(&maps, &shapes).map_err(|m| self.error(op, m))?;
        let domain: Vec<usize> = sizes.iter().map(|&s| s.max(0) as usize).collect();
        super::check_size(&shape, dtype, self.limits.max_bytes).map_err(|m| self.error(op, m))?;
        let total: usize = shape.iter().product();
        let mut out: Vec<Option<Tensor>> = match x.get(n_in).filter(|_| has_init) {
            Some(init) => {
                let e = Elements::of(init);
                (0..total).map(|i| Some(e.scalar(dtype, i))).collect()
            }
            None => vec![None; total],
        };
        let elements: Vec<Elements> = x[..n_in].iter().map(|t| Elements::of(t)).collect();
        let points: usize = domain.iter().product();
        let out_map = &maps[n_in];
        for flat in 0..points {
            let point = unflatten(flat, &domain);
            let mut args = Vec::with_capacity(n_in + 1);
            for ((t, e), map) in x.iter().zip(&elements).zip(&maps) {
                let i = flat_index(map, &point, t.shape()).map_err(|m| self.error(op, m))?;
                args.push(Rc::new(e.scalar(t.dtype(), i)));
            }
            let o = flat_index(out_map, &point, &shape).map_err(|m| self.error(op, m))?;
            if has_init {
                let acc = out[o]
                    .clone()
                    .ok_or_else(|| self.error(op, "has no accumulator"))?;
                args.push(Rc::new(acc));
            }
            self.points.push(point);
            let r = self.run_region_shared(op, 0, args, env);
            self.points.pop();
            out[o] = Some(
                r?.pop()
                    .ok_or_else(|| self.error(op, "body yields nothing"))?,
            );
        }
        let values: Vec<Tensor> = out
            .into_iter()
            .map(|v| v.unwrap_or_else(|| Tensor::scalar_f64(dtype, 0.0)))
            .collect();
        Ok(assemble(dtype, shape, &values))
    }
}

fn eval_contract(
    ctx: &strata_ir::Context,
    op: Operation,
    x: &[Rc<Tensor>],
) -> Result<Tensor, String> {
    let contract = ContractOp(op);
    let (dtype, shape) = static_shape(ctx, op)?;
    let maps = contract.maps(ctx);
    let sizes = contract
        .domain_sizes(ctx)
        .ok_or("has inconsistent domain sizes")?;
    let [lhs, rhs] = x else {
        return Err("expects two operands".into());
    };
    if maps.len() != 3 || sizes.iter().any(|&s| s < 0) {
        return Err("needs three maps and a static domain".into());
    }
    let domain: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
    let total_out: usize = shape.iter().product();
    let (a, b) = (Elements::of(lhs), Elements::of(rhs));
    let total: usize = domain.iter().product();
    match (&a, &b) {
        (Elements::Float(a), Elements::Float(b)) => {
            let mut out = vec![0.0f64; total_out];
            for flat in 0..total {
                let p = unflatten(flat, &domain);
                let i = flat_index(&maps[0], &p, lhs.shape())?;
                let j = flat_index(&maps[1], &p, rhs.shape())?;
                let o = flat_index(&maps[2], &p, &shape)?;
                out[o] += a[i] * b[j];
            }
            Ok(Tensor::from_parts(
                shape,
                TensorData::from_f64_slice(dtype, &out),
            ))
        }
        (Elements::Int(a), Elements::Int(b)) => {
            let mut out = vec![0i128; total_out];
            for flat in 0..total {
                let p = unflatten(flat, &domain);
                let i = flat_index(&maps[0], &p, lhs.shape())?;
                let j = flat_index(&maps[1], &p, rhs.shape())?;
                let o = flat_index(&maps[2], &p, &shape)?;
                out[o] = out[o].wrapping_add(a[i].wrapping_mul(b[j]));
            }
            Ok(Tensor::from_parts(
                shape,
                TensorData::from_i128_slice(dtype, &out),
            ))
        }
        _ => Err("has operands of different kinds".into()),
    }
}
